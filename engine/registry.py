"""The move rules' registry: each move type's `Rule`, looked up by type or by moment.

Each move type is a `Rule`: where it may be tried (`candidates`), why it may not
(`check`, raising `IllegalMove` with the rule's own words) and what it does (`do`).
`legal_moves` (engine.play) is every candidate that passes its check, so the list a client
chooses from and the moves `apply` accepts cannot drift apart. The base rules
(engine.turn_moves), the special actions' rules (engine.special_moves) and the cards
register theirs here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from engine.board import Board
from engine.types import Events, Move

#: The moves of one rule: a member of the `Move` union (or, for rules that share their
#: functions between move types, the union itself).
M = TypeVar("M", bound=Move)

Candidates = Callable[[Board, str], Iterable[M]]
Check = Callable[[Board, str, M], None]
Do = Callable[[Board, str, M, Events], None]


@dataclass(frozen=True)
class Rule(Generic[M]):
    type: str
    candidates: Candidates[M]
    check: Check[M]
    do: Do[M]
    # The moment of the game the rule's moves belong to (see engine.play.moment): legal_moves
    # asks only the rules of the moment, the candidates still look for themselves.
    when: str
    # The candidates `check` accepts, found more cheaply than by one `check` each (see
    # special_moves._planning_rule); None: legal_moves checks every candidate. The engine's
    # tests hold it to that definition (tests/engine/test_legal_moves.py).
    legal: Candidates[M] | None = None


RULES: dict[str, Rule[Move]] = {}


def register(move_rule: Rule[M]) -> None:
    """Register `move_rule` under its move type."""
    # `push` hands a rule only moves of its own type (it looks the rule up by the move's
    # type), which a dict keyed by type names cannot say: RULES holds it as a rule of moves.
    RULES[move_rule.type] = cast("Rule[Move]", move_rule)


class RuleCheck(Generic[M]):
    """A rule's check function as `@rule` leaves it: it still checks when called, and
    `@check.do` registers the rule with its `do` function."""

    def __init__(
        self,
        type_: str,
        candidates: Candidates[M],
        when: str,
        legal: Candidates[M] | None,
        check: Check[M],
    ) -> None:
        self.type, self.candidates, self.when, self.legal = type_, candidates, when, legal
        self.check = check

    def __call__(self, board: Board, player: str, move: M) -> None:
        self.check(board, player, move)

    def do(self, do: Do[M]) -> Do[M]:
        register(Rule(self.type, self.candidates, self.check, do, self.when, self.legal))
        return do


def rule(
    type_: str, candidates: Candidates[M], when: str, legal: Candidates[M] | None = None
) -> Callable[[Check[M]], RuleCheck[M]]:
    """Register a move rule from its check function; the `do` function follows as `.do`."""

    def decorate(check: Check[M]) -> RuleCheck[M]:
        return RuleCheck(type_, candidates, when, legal, check)

    return decorate


# (how many rules it was made from, RULES grouped by moment): swapped whole, never changed,
# so threads reading it while another rebuilds it see one or the other.
_BY_MOMENT: tuple[int, dict[str, list[Rule[Move]]]] = (0, {})


def rules_by_moment() -> dict[str, list[Rule[Move]]]:
    """RULES grouped by the moment their moves belong to, in registration order. Rebuilt
    when rules were registered since (the cards register theirs at import)."""
    global _BY_MOMENT
    made_from, grouped = _BY_MOMENT
    if made_from != len(RULES):
        grouped = {}
        for move_rule in RULES.values():
            grouped.setdefault(move_rule.when, []).append(move_rule)
        _BY_MOMENT = (len(RULES), grouped)
    return grouped
