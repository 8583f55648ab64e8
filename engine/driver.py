"""The game driver: plays whole games with bots, for tests, benchmarks and sample boards.

Beside the bots, not among them: it plays games through the facade, as a server would.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.bots.random_bot import RandomBot
from engine.types import Move


def play_random_game(
    colours: list[str], seed: int, options: dict[str, Any] | None = None, bot_seed: int = 0
) -> tuple[engine.State, list[tuple[str, Move]]]:
    """Play a whole game with random bots; return the final state and the move log."""
    bot = RandomBot(bot_seed)
    state = engine.new_game(colours, seed=seed, options=options)
    log: list[tuple[str, Move]] = []
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        move = bot.choose(state, player)
        state, _ = engine.apply(state, player, move)
        log.append((player, move))
    return state, log
