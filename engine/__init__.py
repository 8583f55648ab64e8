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

from engine import cards as _cards  # noqa: F401  (registers every card's special action)
from engine import rules
from engine.board import Board
from engine.moves import IllegalMove
from engine.notation import NotationError, format_move, parse_move, parse_moves
from engine.observer import view as _view

State = Board

__all__ = [
    "IllegalMove",
    "NotationError",
    "State",
    "apply",
    "default_move",
    "format_move",
    "from_dict",
    "is_over",
    "legal_moves",
    "new_game",
    "parse_move",
    "parse_moves",
    "pending",
    "reveals_hidden",
    "scores",
    "to_dict",
    "view",
    "winners",
]


def new_game(colors: list[str], seed: int = 0, options: dict[str, Any] | None = None) -> State:
    """Set up a game: every draw (king, home regions, first player, decks) made from `seed`.

    Raises ValueError with a sentence saying what to change on bad colours or options.
    """
    return rules.new_board(list(colors) if isinstance(colors, tuple) else colors, seed, options)


def pending(state: State) -> list[dict[str, Any]]:
    """Who must act now, and on what: `[{"player": "red", "kind": "power_card"}, ...]`."""
    return rules.pending(state)


def legal_moves(state: State, player: str) -> list[dict[str, Any]]:
    """Every atomic move `player` may make now (empty if none)."""
    return rules.legal_moves(state, player)


def apply(state: State, player: str, move: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """Play one move; return the new state and its events. Never mutates `state`.

    Raises IllegalMove, whose message names the rule, for any move the rules refuse.
    """
    board = state.copy()
    events = rules.push(board, player, move)
    return board, events


def view(state: State, player: str | None) -> dict[str, Any]:
    """The game as `player` sees it; None is the public view."""
    return _view(state, player)


def default_move(state: State, player: str) -> dict[str, Any] | None:
    """The move a timeout makes for `player`, or None if they have nothing to do."""
    return rules.default_move(state, player)


def is_over(state: State) -> bool:
    return state.phase == "over"


def scores(state: State) -> dict[str, int]:
    return dict(state.scores)


def winners(state: State) -> list[str]:
    """The colours with the highest score (a tie shares the win)."""
    return rules.winners(state)


def to_dict(state: State) -> dict[str, Any]:
    """The whole state, secrets included, as JSON-ready data."""
    return state.to_dict()


def from_dict(data: dict[str, Any]) -> State:
    return Board.from_dict(data)


# Events after which something hidden before is known: the next round's action cards,
# the Castillo picks, the picks of a secret-disk card.
_REVEALING_EVENTS = frozenset({"round_started", "castillo_revealed", "secret_picks_revealed"})


def reveals_hidden(events: list[dict[str, Any]]) -> bool:
    """Whether these events (of one or more `apply` calls) make hidden information known.

    A caller that shows the result of moves it does not commit (a dry run) must not show
    such a result: it would let a player peek at the decks or at others' secret picks.
    """
    return any(event.get("type") in _REVEALING_EVENTS for event in events)
