"""The random bot: a uniform choice among the legal moves."""

from __future__ import annotations

import engine
from engine.rng import Rng
from engine.types import Move


class RandomBot:
    """Picks uniformly among the legal moves, from its own seed (not the game's)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: engine.State, player: str) -> Move:
        moves = engine.legal_moves(state, player)
        if not moves:
            raise ValueError(f"{player} has no legal move now")
        return self.rng.choice(moves)
