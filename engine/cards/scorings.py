"""Scoring cards (stacks 2 and 3): which places they score.

Each scored place becomes one plan step per rank group, places in the order of the
scoring track (Italian 9.3), so a Veto can stop a scoring after the first place took its
points. The castillo is scored only by `score_castillo` and `score_chosen_region`
(Italian rule 7); a region's value group is read from the scoreboard lying on it now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.board import Board
from engine.data import CASTILLO, PLACES, REGIONS
from engine.moves import check_region
from engine.scoring import value_group
from engine.special import Context, SpecialAction, register
from engine.steps import award_steps
from engine.types import Move


class ScorePlaces(SpecialAction):
    """Score the places `choose(board)` names, all at once, with `do_special`."""

    planning_moves = frozenset({"do_special"})

    def __init__(self, card: str, choose: Callable[[Board], list[str]], only_first: bool = False):
        self.card = card
        self.choose = choose
        self.only_first = only_first

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        return ({"type": "do_special"},)

    def check(self, ctx: Context, move: Move) -> None:
        pass

    def add(self, ctx: Context, move: Move) -> None:
        for place in self.choose(ctx.board):
            ctx.steps.extend(award_steps(ctx.board, place, only_first=self.only_first))

    def complete(self, ctx: Context) -> bool:
        return True


class ScoreChosenRegion(SpecialAction):
    """Score one place of your choice: the king's region and the castillo included."""

    planning_moves = frozenset({"special_region"})

    def __init__(self, card: str) -> None:
        self.card = card

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        return ({"type": "special_region", "region": p} for p in PLACES)

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "special_region"  # its only planning move
        check_region(move["region"], castillo=True)

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "special_region"
        ctx.steps.extend(award_steps(ctx.board, move["region"]))

    def complete(self, ctx: Context) -> bool:
        return True


def regions_valued(*values: int) -> Callable[[Board], list[str]]:
    def choose(board: Board) -> list[str]:
        return [r for r in REGIONS if value_group(board, r) in values]

    return choose


def most_caballeros(board: Board) -> list[str]:
    totals = {r: board.total_in(r) for r in REGIONS}
    most = max(totals.values())
    return [r for r in REGIONS if most and totals[r] == most]


def fewest_caballeros(board: Board) -> list[str]:
    totals = {r: n for r in REGIONS if (n := board.total_in(r))}
    fewest = min(totals.values(), default=0)
    return [r for r in REGIONS if totals.get(r) == fewest]


for action in (
    ScoreChosenRegion("score_chosen_region"),
    ScorePlaces("score_four_regions", regions_valued(4)),
    ScorePlaces("score_five_regions", regions_valued(5)),
    ScorePlaces("score_six_seven_regions", regions_valued(6, 7)),
    ScorePlaces("score_castillo", lambda board: [CASTILLO]),
    ScorePlaces("score_first_places", lambda board: list(REGIONS), only_first=True),
    ScorePlaces("score_most_caballeros", most_caballeros),
    ScorePlaces("score_fewest_caballeros", fewest_caballeros),
):
    register(action)
