"""Moves as text: words for the move buttons and the log, and the engine's notation
(`engine.format_move`, what players write in mails) beside each logged move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import engine
from pbem.game.move_words import describe_move
from pbem.game.words import secret_move


def move_text(move: Mapping[str, Any]) -> str:
    """A move in words, as the buttons show it."""
    return describe_move(move)


def log_text(move: Mapping[str, Any]) -> str:
    """A logged move in words, as the buttons say it but of whoever made it."""
    return describe_move(move, own=False)


def notation(move: Mapping[str, Any]) -> str:
    """A log entry's move in the notation; a move shown without its fields (another's secret
    pick, a card taken back) reads as its kind and "(secret)"."""
    try:
        # A logged move, checked when it was played; one shown without its fields fails here.
        return engine.format_move(cast(engine.Move, dict(move)))
    except engine.IllegalMove:
        return secret_move(str(move.get("type", "")))


__all__ = ["describe_move", "log_text", "move_text", "notation"]
