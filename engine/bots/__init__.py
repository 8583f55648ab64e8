"""Bots: choosers among legal moves, reading the game through the facade as a client would.

`RandomBot` picks uniformly; `GreedyBot` plays sensibly on what its seat may see (its model
of the game and evaluation are in `engine.bots.model`); `SearchBot` searches its moves over
worlds dealt to fit what its seat may see, playing each out with a cheap greedy policy
(`engine.bots.search`), within a budget in seconds or playouts. `engine.driver` plays
whole games with them.
"""

from engine.bots.greedy import GreedyBot
from engine.bots.random_bot import RandomBot
from engine.bots.search import SearchBot

__all__ = ["GreedyBot", "RandomBot", "SearchBot"]
