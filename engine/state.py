"""`State`: the board, plus the python-chess style methods that play it.

`Board` (engine.board) is a plain record and holds no rules; the rules (engine.play and the
modules it registers) read and change it. A bot that searches many lines wants
`state.copy()`, `state.legal_moves()` and `state.push()` in place, so this subclass joins
the two without `board` importing `play`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Self

from engine import play
from engine.board import Board
from engine.types import Events, Move


class State(Board):
    """What the facade hands out: a `Board` that can list and push its own moves."""

    @classmethod
    def of(cls, board: Board) -> Self:
        """`board` as a State, sharing its contents (for boards just built and let go)."""
        return cls(**{f.name: getattr(board, f.name) for f in fields(board)})

    def legal_moves(self, player: str) -> list[Move]:
        """Every atomic move `player` may make now."""
        return play.legal_moves(self, player)

    def push(self, player: str, move: Move) -> Events:
        """Play `move` on this state in place and return its events (`engine.apply` copies
        first; a bot searching many lines may prefer `copy()` and `push`)."""
        return play.push(self, player, move)
