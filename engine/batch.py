"""A batch: several moves of one player played in a row, all or none.

Servers take a player's moves in batches (a whole turn in one request or one mail). The
engine plays them here, so that what a refusal may say is decided beside the rules that
know what is secret: after a move of the batch uncovered something (the next round's action
cards, others' secret picks), nothing the engine would say of a later move may be quoted,
because nothing of the batch is committed and the player would have peeked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.board import Board
from engine.moves import IllegalMove
from engine.observer import REVEALING_EVENTS, reveals_hidden
from engine.play import push
from engine.types import Event, Move

#: The state a batch is played on (an engine.State from the facade), and so its copies.
B = TypeVar("B", bound=Board)

#: What each revealing event uncovers, in words.
_UNCOVERS = {
    "round_started": "the next round's action cards",
    "castillo_revealed": "the Castillo picks",
    "secret_picks_revealed": "the other players' secret picks",
}


@dataclass(frozen=True)
class Played(Generic[B]):
    """One move of a batch: the move, its events and the state after it."""

    move: Move
    events: list[Event]
    state: B


@dataclass(frozen=True)
class Batch(Generic[B]):
    player: str
    before: B
    played: list[Played[B]]

    @property
    def state(self) -> B:
        """The state after the whole batch."""
        return self.played[-1].state if self.played else self.before

    @property
    def events(self) -> list[Event]:
        return [event for played in self.played for event in played.events]

    @property
    def reveals_hidden(self) -> bool:
        return reveals_hidden(self.events)


def play_batch(state: B, player: str, moves: list[Move]) -> Batch[B]:
    """Play `moves` for `player` from `state` (which is not changed), each on the state the
    previous one left. Raises IllegalMove naming the refused move, with a message that is safe
    to show to `player` (see the module's docstring): nothing of the batch is then played."""
    played: list[Played[B]] = []
    current = state
    for index, move in enumerate(moves):
        board = current.copy_for_push()
        try:
            events = push(board, player, move)
        except IllegalMove as error:
            raise IllegalMove(_refusal(played, player, index, moves, error)) from None
        played.append(Played(move, events, board))
        current = board
    return Batch(player, state, played)


def _refusal(
    played: list[Played[B]], player: str, index: int, moves: list[Move], error: IllegalMove
) -> str:
    where = f"Move {index + 1} of {len(moves)}" if len(moves) > 1 else "The move"
    for number, earlier in enumerate(played, start=1):
        uncovered = [_UNCOVERS[e["type"]] for e in earlier.events if e["type"] in REVEALING_EVENTS]
        if uncovered:
            # The reason could name what move `number` uncovered; say only that it did.
            return (
                f"{where} is illegal in the position after move {number}, which uncovers "
                f"{' and '.join(dict.fromkeys(uncovered))}. Nothing was played: send the moves "
                f"up to move {number} alone, then choose the rest from what they show."
            )
    reason = error.message
    ended = _turn_ended_by_itself(played, player)
    if ended is not None:
        reason = (
            f"your turn ended by itself after move {ended}, with nothing left to do in it, so "
            f"this move has no turn to belong to (leave it out). The rules say: {reason}"
        )
    return f"{where} ({_quote(moves[index])}) is illegal: {reason} Nothing was played."


def _turn_ended_by_itself(played: list[Played[B]], player: str) -> int | None:
    """The number of the batch's move after which `player`'s turn ended without an
    `end_turn` from them, if it did."""
    for number, earlier in enumerate(played, start=1):
        if earlier.move.get("type") == "end_turn":
            continue
        if any(e["type"] == "turn_ended" and e.get("player") == player for e in earlier.events):
            return number
    return None


def _quote(move: object) -> str:
    """The move as JSON, cut short: it is the client's own input, and may be huge."""
    try:
        text = json.dumps(move, sort_keys=True)
    except (TypeError, ValueError):  # an integer past Python's digit limit, say
        return "a move too large to quote"
    return text if len(text) <= 200 else text[:200] + "…"


__all__ = ["Batch", "Played", "play_batch"]
