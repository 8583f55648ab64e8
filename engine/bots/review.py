"""A finished game reviewed by the search bot: the decisions where what a seat played fell
furthest below the best the search found.

Each reviewed decision is replayed from the game's log and appraised as a hint would be
(`SearchBot.appraise`, from that seat's view only, with the move it played weighed beside
the search's own candidates). The gap between the best candidate's value and the played
move's is the points at stake. Only the decisions that shape a round are reviewed: the
power card, the action card, the Castillo's and the secret disk's picks and the King's
move (single caballeros placed are many and, one by one, mostly noise). Decisions are
reviewed in the order they were played until the CPU budget is spent; the review says how
many it reached.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from typing import Any, TypedDict

import engine
from engine.bots.search import SearchBot
from engine.types import Move

#: The kinds of move reviewed.
REVIEWED = frozenset(
    {"play_power_card", "choose_card", "castillo_pick", "secret_pick", "move_king"}
)
#: Points a played move must fall below the best by to be flagged: less is the search's noise.
LEAST_AT_STAKE = 1.0


class Flagged(TypedDict):
    """One decision where the seat lost points by the search's figures."""

    seq: int  # moves played before it: the replay's position
    round_number: int
    colour: str
    played: Move
    better: Move
    played_value: float
    better_value: float
    at_stake: float  # better_value - played_value


class Review(TypedDict):
    flagged: dict[str, list[Flagged]]  # by colour, most points at stake first
    reviewed: dict[str, int]  # decisions appraised, by colour
    decisions: dict[str, int]  # decisions of the reviewed kinds with a choice, by colour
    playouts: int  # worlds each candidate was played out in
    cpu_seconds: float


def review(
    colours: Sequence[str],
    seed: int,
    options: dict[str, Any] | None,
    log: Sequence[tuple[str, Move]],
    seats: Collection[str],
    playouts: int = 12,
    seconds: float | None = None,
    most: int = 3,
    search_seed: int = 0,
) -> Review:
    """Review `seats` (colours) in the game of `colours`, `seed` and `options` whose moves
    were `log` ((colour, move) in order): at most `most` flagged decisions a seat, in at
    most `seconds` of this thread's CPU (None: no limit). Deterministic for its arguments
    when the budget does not run out; another `search_seed` deals the search other worlds
    (what a review's stability is measured with)."""
    start = time.thread_time()
    state = engine.new_game(list(colours), seed=seed, options=options)
    flagged: dict[str, list[Flagged]] = {c: [] for c in seats}
    reviewed = dict.fromkeys(seats, 0)
    decisions = dict.fromkeys(seats, 0)
    for seq, (colour, move) in enumerate(log):
        chosen = colour in seats and move["type"] in REVIEWED
        if chosen and len(engine.legal_moves(state, colour)) > 1:
            decisions[colour] += 1
            if seconds is None or time.thread_time() - start < seconds:
                reviewed[colour] += 1
                found = _appraised(state, seq, colour, move, playouts, search_seed)
                if found is not None:
                    flagged[colour].append(found)
        state, _ = engine.apply(state, colour, move)
    for colour in flagged:
        flagged[colour] = sorted(flagged[colour], key=lambda f: (-f["at_stake"], f["seq"]))[:most]
    return {
        "flagged": flagged,
        "reviewed": reviewed,
        "decisions": decisions,
        "playouts": playouts,
        "cpu_seconds": round(time.thread_time() - start, 3),
    }


def bot_seed(seq: int, colour: str, search_seed: int = 0) -> int:
    """The search's seed for a decision: from its place in the game only, never from the
    game's own seed (a secret until the game ends)."""
    return seq * 31 + sum(ord(c) for c in colour) + search_seed * 1_000_003


def _appraised(
    state: engine.State, seq: int, colour: str, move: Move, playouts: int, search_seed: int
) -> Flagged | None:
    """The decision at `seq` flagged if the search found a move better than `move` by at
    least `LEAST_AT_STAKE`, else None."""
    bot = SearchBot(bot_seed(seq, colour, search_seed), playouts=playouts)
    found = bot.appraise(state, colour, also=move)
    best = found[0]
    played = next(a for a in found if a["move"] == move)
    at_stake = best["value"] - played["value"]
    if at_stake < LEAST_AT_STAKE:
        return None
    return {
        "seq": seq,
        "round_number": state.round_index + 1,
        "colour": colour,
        "played": move,
        "better": best["move"],
        "played_value": round(played["value"], 2),
        "better_value": round(best["value"], 2),
        "at_stake": round(at_stake, 2),
    }


__all__ = ["LEAST_AT_STAKE", "REVIEWED", "Flagged", "Review", "bot_seed", "review"]
