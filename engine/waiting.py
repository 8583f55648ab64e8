"""Who must act now, and the refusal that says so when someone else must."""

from __future__ import annotations

from engine import special
from engine.board import Board, Turn
from engine.flow import power_card_player
from engine.moves import IllegalMove
from engine.types import Pending


def pending(board: Board, viewer: str | None = None) -> list[Pending]:
    """Who must act now, and on what; public (no secret in it) unless `viewer` is given, when
    a Veto window's plan shows that colour's own secret too (engine.observer asks so)."""
    if board.phase == "power_cards":
        return [{"player": power_card_player(board), "kind": "power_card"}]
    if board.phase == "turn":
        assert board.turn is not None
        if board.special is not None:
            return special.pending(board, viewer)
        return [{"player": board.turn["player"], "kind": "turn", "step": board.turn["step"]}]
    if board.phase == "castillo_pick":
        return [{"player": c, "kind": "castillo_pick"} for c, r in board.picks.items() if r is None]
    return []


def turn_for(board: Board, player: str, steps: tuple[str, ...], doing: str) -> Turn:
    """The turn under way, if it is `player`'s and at one of `steps`; else a clear refusal."""
    turn = board.turn
    if board.phase != "turn" or turn is None:
        raise IllegalMove(f"You cannot {doing} now: {waiting_for(board)}.")
    if turn["player"] != player:
        raise IllegalMove(f"It is not your turn: {waiting_for(board)}.")
    if turn["step"] not in steps:
        raise IllegalMove(f"You cannot {doing} at this point of your turn: {_step_hint(turn)}.")
    return turn


_STEP_HINTS = {
    "draw": 'first take caballeros from the province to your court ("take")',
    "choose_card": 'choose an action card ("card")',
    "act": "place caballeros, carry out or skip the special action, or end your turn",
}


def _step_hint(turn: Turn) -> str:
    return _STEP_HINTS[turn["step"]]


def waiting_for(board: Board) -> str:
    waiting = pending(board)
    if not waiting:
        return "the game is over"
    kinds = {
        "power_card": "play a power card",
        "turn": "take their turn",
        "castillo_pick": "pick a region for their Castillo caballeros",
        "secret_pick": "make their secret pick",
        "king_rages": "return caballeros to the province (King rages)",
        "veto_window": "allow or veto the special action",
    }
    who = " and ".join(w["player"] for w in waiting)
    return f"waiting for {who} to {kinds.get(waiting[0]['kind'], waiting[0]['kind'])}"
