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
from typing import Any

from engine.board import Board

Events = list[dict[str, Any]]


@dataclass(frozen=True)
class Rule:
    type: str
    candidates: Callable[[Board, str], Iterable[dict[str, Any]]]
    check: Callable[[Board, str, dict[str, Any]], None]
    do: Callable[[Board, str, dict[str, Any], Events], None]
    # The moment of the game the rule's moves belong to (see engine.play.moment): legal_moves asks
    # only the rules of the moment, the candidates still look for themselves.
    when: str
    # The candidates `check` accepts, found more cheaply than by one `check` each (see
    # special_moves._planning_rule); None: legal_moves checks every candidate. The engine's tests
    # hold it to that definition (tests/engine/test_legal_moves.py).
    legal: Callable[[Board, str], Iterable[dict[str, Any]]] | None = None


RULES: dict[str, Rule] = {}


def rule(
    type_: str,
    candidates: Callable[[Board, str], Iterable[dict[str, Any]]],
    when: str,
    legal: Callable[[Board, str], Iterable[dict[str, Any]]] | None = None,
):
    """Register a move rule from its check function; the `do` function follows as `.do`."""

    def decorate(check: Callable[[Board, str, dict[str, Any]], None]):
        def with_do(do: Callable[[Board, str, dict[str, Any], Events], None]):
            RULES[type_] = Rule(type_, candidates, check, do, when, legal)
            return do

        check.do = with_do  # type: ignore[attr-defined]
        return check

    return decorate



# (how many rules it was made from, RULES grouped by moment): swapped whole, never changed,
# so threads reading it while another rebuilds it see one or the other.
_BY_MOMENT: tuple[int, dict[str, list[Rule]]] = (0, {})


def rules_by_moment() -> dict[str, list[Rule]]:
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
