"""Bots: choosers among legal moves, reading the game through the facade as a client would.

`RandomBot` picks uniformly; `GreedyBot` plays sensibly on what its seat may see (its model
of the game and evaluation are in `engine.bots.model`). `engine.driver` plays whole games
with them.
"""

from engine.bots.greedy import GreedyBot
from engine.bots.random_bot import RandomBot

__all__ = ["GreedyBot", "RandomBot"]
