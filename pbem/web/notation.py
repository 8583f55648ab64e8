"""Moves as text: words for the move buttons and the log, and the engine's notation
(`engine.format_move`, what players write in mails) beside each logged move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import engine
from pbem.notify.board_text import place_name
from pbem.web.board import card_title


def move_text(move: Mapping[str, Any]) -> str:
    """A move in words, as the buttons show it."""
    return describe_move(move)


def log_text(move: Mapping[str, Any]) -> str:
    """A logged move in words, as the buttons say it but of whoever made it."""
    return describe_move(move).replace("move your grande", "move the grande")


def notation(move: Mapping[str, Any]) -> str:
    """A log entry's move in the notation; a move shown without its fields (another's secret
    pick, a card taken back) reads as its kind and "(secret)"."""
    try:
        # A logged move, checked when it was played; one shown without its fields fails here.
        return engine.format_move(cast(engine.Move, dict(move)))
    except engine.IllegalMove:
        return str(move.get("type", "")).replace("_", " ") + " (secret)"


def _place(move: Mapping[str, Any], field: str) -> str:
    return place_name(str(move[field])) if field in move else "?"


def describe_move(move: Mapping[str, Any]) -> str:
    """A move in plain words for a button. A move shown without its fields reads as its kind
    alone."""
    kind = str(move.get("type", ""))
    fields = set(move) - {"type"}
    if not fields:
        return _BARE.get(kind, kind.replace("_", " "))
    if kind == "play_power_card":
        return f"power card {move['card']}"
    if kind == "take_caballeros":
        count = move["count"]
        return f"take {count} caballero{'s' if count != 1 else ''} to court"
    if kind == "take_from_region":
        return f"take one from {_place(move, 'region')}"
    if kind == "choose_card":
        stack = f" (stack {move['stack']})" if "stack" in move else ""
        return f"choose {card_title(str(move['card']))}{stack}"
    if kind == "place":
        return f"place in {_place(move, 'to')}"
    if kind == "special_place":
        # Not "place in": this one begins the special action, which ends the placing.
        return f"special action: send one to {_place(move, 'to')}"
    if kind == "castillo_pick":
        return f"Castillo disk: {_place(move, 'region')}"
    if kind == "secret_pick":
        return f"secret disk: {_place(move, 'region')}"
    if kind == "special_region":
        return f"choose {_place(move, 'region')}"
    if kind == "special_option":
        return str(move["option"]).replace("_", " ")
    if kind == "move_caballero":
        return f"move {move['colour']} from {_place(move, 'from')} to {_place(move, 'to')}"
    if kind == "target":
        return f"target {move['player']}"
    if kind == "remove_caballero":
        return f"remove {move['colour']} from {_place(move, 'region')}"
    if kind == "move_scoreboard":
        return f"move the {move['scoreboard']} scoreboard to {_place(move, 'to')}"
    if kind == "move_king":
        return f"move the king to {_place(move, 'to')}"
    if kind == "move_grande":
        return f"move your grande to {_place(move, 'to')}"
    if kind == "return_power_card":
        return f"take back power card {move['card']}"
    if kind == "return_caballero":
        where = "court" if move["from"] == "court" else _place(move, "from")
        return f"return a caballero from {where}"
    if kind == "veto":
        return f"veto from step {move['from_step']}"
    extra = ", ".join(f"{k} {move[k]}" for k in sorted(fields))
    return f"{kind.replace('_', ' ')} ({extra})"


_BARE = {
    "do_special": "do the special action",
    "skip_special": "skip the special action",
    "end_special": "end the special action",
    "end_turn": "end turn",
    "allow": "allow",
    "castillo_pick": "Castillo disk (secret)",
    "secret_pick": "secret disk (secret)",
    "return_power_card": "take back a power card (secret)",
}
