"""El Grande rules engine: pure, deterministic, JSON in and out.

The facade below is all the server, the bots, the benchmarks and outside tools use:

    state = new_game(["red", "blue", "green"], seed=7)
    pending(state)                       # who must act now, and on what
    legal_moves(state, "red")            # every atomic move red may make now
    state2, events = apply(state, "red", {"type": "play_power_card", "card": 9})
    view(state2, "red")                  # what red may see
    parse_move("power 9", state, "red")  # the same move, as a person writes it
"""

from __future__ import annotations

from typing import Any

from engine import flow, play, setup, waiting
from engine.batch import Batch, Played, play_batch
from engine.moves import IllegalMove, Secrecy
from engine.notation import NotationError, format_move, parse_move, parse_moves, reads_as_words
from engine.observer import reveals_hidden, visible_events, visible_log
from engine.observer import view as _view
from engine.state import State
from engine.types import (
    EVENT_TYPES,
    MOVE_TYPES,
    ActionCardsView,
    CastilloView,
    Event,
    FaceUpCard,
    HiddenLogEntry,
    HiddenMove,
    LogEntry,
    Move,
    Pending,
    PickView,
    PlannedStep,
    PlayerView,
    RegionView,
    ShownLogEntry,
    SpecialView,
    TakenCard,
    TeamResult,
    TurnView,
    VetoHolder,
    VetoView,
    VetoWindowPending,
    View,
    Window,
    WindowView,
)

__all__ = [
    "EVENT_TYPES",
    "MOVE_TYPES",
    "ActionCardsView",
    "Batch",
    "CastilloView",
    "Event",
    "FaceUpCard",
    "HiddenLogEntry",
    "HiddenMove",
    "IllegalMove",
    "LogEntry",
    "Move",
    "NotationError",
    "Pending",
    "PickView",
    "PlannedStep",
    "Played",
    "PlayerView",
    "RegionView",
    "Secrecy",
    "ShownLogEntry",
    "SpecialView",
    "State",
    "TakenCard",
    "TeamResult",
    "TurnView",
    "VetoHolder",
    "VetoView",
    "VetoWindowPending",
    "View",
    "Window",
    "WindowView",
    "apply",
    "default_move",
    "format_move",
    "from_dict",
    "is_over",
    "legal_moves",
    "new_game",
    "parse_move",
    "parse_moves",
    "reads_as_words",
    "pending",
    "play_batch",
    "reveals_hidden",
    "scores",
    "team_results",
    "to_dict",
    "view",
    "visible_events",
    "visible_log",
    "winners",
]


def new_game(colors: list[str], seed: int = 0, options: dict[str, Any] | None = None) -> State:
    """Set up a game: every draw (king, home regions, first player, decks) made from `seed`.

    Raises ValueError with a sentence saying what to change on bad colours or options.
    """
    board = setup.new_board(list(colors) if isinstance(colors, tuple) else colors, seed, options)
    return State.of(board)


def pending(state: State) -> list[Pending]:
    """Who must act now, and on what: `[{"player": "red", "kind": "power_card"}, ...]`.

    Public: a Veto window's plan shows no secret here (view() shows a player their own).
    """
    return waiting.pending(state)


def legal_moves(state: State, player: str) -> list[Move]:
    """Every atomic move `player` may make now (empty if none)."""
    return play.legal_moves(state, player)


def apply(state: State, player: str, move: Move) -> tuple[State, list[Event]]:
    """Play one move; return the new state and its events. Never mutates `state`.

    Raises IllegalMove, whose message names the rule, for any move the rules refuse.
    """
    board = state.copy_for_push()
    events = play.push(board, player, move)
    return board, events


def view(state: State, player: str | None) -> View:
    """The game as `player` sees it; None is the public view."""
    return _view(state, player)


def default_move(state: State, player: str) -> Move | None:
    """The move a timeout makes for `player`, or None if they have nothing to do."""
    return play.default_move(state, player)


def is_over(state: State) -> bool:
    return state.phase == "over"


def scores(state: State) -> dict[str, int]:
    return dict(state.scores)


def winners(state: State) -> list[str]:
    """The colours with the highest score (a tie shares the win)."""
    return flow.winners(state)


def team_results(state: State) -> list[TeamResult]:
    """Two-colour variant: each person's final score by the rules (and their better colour's,
    which breaks a tie); [] in a standard game, where each colour is a player."""
    return flow.team_results(state) if state.teams else []


def to_dict(state: State) -> dict[str, Any]:
    """The whole state, secrets included, as JSON-ready data."""
    return state.to_dict()


def from_dict(data: dict[str, Any], copy: bool = True) -> State:
    """The state `to_dict` wrote. `copy=False` skips copying `data` and hands its contents
    to the state: only for data no one else holds or writes (JSON just decoded), since a
    state is never written once handed out."""
    return State.from_dict(data, copy=copy)
