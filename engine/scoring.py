"""Scoring a place: ranks, the tie rule, the player-count limits, king's and home bonuses."""

from __future__ import annotations

from engine.board import Board
from engine.data import CASTILLO, HOME_BONUS, KING_BONUS, MOBILE_SCOREBOARDS, SCOREBOARDS
from engine.types import Award, ScoreEvent


class RankedAward(Award):
    """An award with the rank it is for (1 for a lone first place's bonuses)."""

    rank: int


def scoreboard(board: Board, place: str) -> tuple[int, int, int]:
    """The scoreboard lying on a place now: a mobile scoreboard covers the printed one.

    Every reading of a place's values goes through here, so mobile scoreboards need no
    other special case.
    """
    for name, where in board.mobile_scoreboards.items():
        if where == place:
            return MOBILE_SCOREBOARDS[name]
    return SCOREBOARDS[place]


def value_group(board: Board, region: str) -> int:
    """A region's value group for the "4 regions" style cards: its current first value."""
    return scoreboard(board, region)[0]


def rank_points(
    counts: dict[str, int], values: tuple[int, ...], players: int
) -> list[tuple[str, int, int]]:
    """Points by the rule books' tie rule, as (colour, rank, points), best rank first.

    Walk the distinct counts from the highest with a position p starting at 1: a lone
    player takes the value at p and p grows by 1; a group tied at p all take the value at
    p + 1 and p grows by 2 (however many tie). Past the third value a rank is worth 0; with
    two players only the first value counts, with three only the first two.
    """
    usable = {2: 1, 3: 2}.get(players, 3)
    by_count: dict[int, list[str]] = {}
    for colour, n in counts.items():
        if n > 0:
            by_count.setdefault(n, []).append(colour)
    out: list[tuple[str, int, int]] = []
    position = 1
    for n in sorted(by_count, reverse=True):
        group = by_count[n]
        rank = position if len(group) == 1 else position + 1
        points = values[rank - 1] if rank <= usable else 0
        out.extend((colour, rank, points) for colour in group)
        position += 1 if len(group) == 1 else 2
    return out


def sole_first(counts: dict[str, int]) -> str | None:
    """The one colour with strictly the most caballeros, or None on a tie or an empty place."""
    best = max(counts.values(), default=0)
    if best == 0:
        return None
    leaders = [c for c, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def rank_awards(board: Board, place: str) -> list[list[RankedAward]]:
    """The awards for scoring `place` now, grouped by rank, best rank first.

    Each group holds the colours that share a rank (a lone first place's king's and home
    bonuses ride in its group). Awards of 0 points are kept so callers see every rank.
    """
    counts = board.in_place(place)
    first = sole_first(counts) if place != CASTILLO else None
    groups: dict[int, list[RankedAward]] = {}
    ranked = rank_points(counts, scoreboard(board, place), len(board.colours))
    for colour, rank, points in ranked:
        group = groups.setdefault(rank, [])
        group.append({"player": colour, "points": points, "reason": "rank", "rank": rank})
        if colour == first:
            if place == board.king:
                group.append(
                    {"player": colour, "points": KING_BONUS, "reason": "king_bonus", "rank": 1}
                )
            if board.grandes[colour] == place:
                group.append(
                    {"player": colour, "points": HOME_BONUS, "reason": "home_bonus", "rank": 1}
                )
    return [groups[rank] for rank in sorted(groups)]


def score_place(board: Board, place: str) -> list[ScoreEvent]:
    """Score one region or the Castillo: add the points to `board.scores`, return the events."""
    events: list[ScoreEvent] = []
    for group in rank_awards(board, place):
        for award in group:
            if award["points"] > 0:
                board.scores[award["player"]] += award["points"]
                events.append(
                    {
                        "type": "score",
                        "player": award["player"],
                        "points": award["points"],
                        "place": place,
                        "reason": award["reason"],
                    }
                )
    return events
