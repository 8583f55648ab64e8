"""Bots: choosers among legal moves."""

from __future__ import annotations

from typing import Any

import engine
from engine.rng import Rng


class RandomBot:
    """Picks uniformly among the legal moves, from its own seed (not the game's)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: engine.State, player: str) -> dict[str, Any]:
        moves = engine.legal_moves(state, player)
        if not moves:
            raise ValueError(f"{player} has no legal move now")
        return self.rng.choice(moves)


def play_random_game(
    colours: list[str], seed: int, options: dict[str, Any] | None = None, bot_seed: int = 0
) -> tuple[engine.State, list[tuple[str, dict[str, Any]]]]:
    """Play a whole game with random bots; return the final state and the move log."""
    bot = RandomBot(bot_seed)
    state = engine.new_game(colours, seed=seed, options=options)
    log: list[tuple[str, dict[str, Any]]] = []
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        move = bot.choose(state, player)
        state, _ = engine.apply(state, player, move)
        log.append((player, move))
    return state, log
