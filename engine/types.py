"""The JSON shapes that travel far: moves, events, pending decisions and log entries.

Moves and events are open dicts keyed by `type` (each move type's fields are in
`engine.moves.FORMS`); these `TypedDict`s name the keys every one of them has, for readers and
type checkers. Nothing here is enforced at run time: `engine.moves.check_form` is.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Move(TypedDict, total=False):
    """`{"type": "play_power_card", "card": 9}`: one atomic decision."""

    type: str
    card: int | str
    count: int
    region: str
    to: str
    stack: int
    colour: str
    player: str
    option: str
    scoreboard: str
    from_step: int


class Event(TypedDict, total=False):
    """What a move made happen, e.g. `{"type": "score", "player": "red", "points": 6, ...}`."""

    type: str
    player: str


class Pending(TypedDict):
    """A decision someone must make now: `{"player": "red", "kind": "power_card"}`."""

    player: str
    kind: str


class LogEntry(TypedDict):
    """One committed move, with the events it caused (as stored by a server)."""

    seq: int
    player: str
    move: dict[str, Any]
    events: list[dict[str, Any]]
    hidden: NotRequired[bool]


__all__ = ["Event", "LogEntry", "Move", "Pending"]
