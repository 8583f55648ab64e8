"""Bots: choosers among legal moves, reading the game through the facade as a client would.

`RandomBot` picks uniformly; `GreedyBot` plays sensibly on what its seat may see (its model
of the game and evaluation are in `engine.bots.model`); `SearchBot` searches its moves over
worlds dealt to fit what its seat may see, playing each out with a cheap greedy policy
(`engine.bots.search`), within a budget in seconds or playouts. `engine.driver` plays
whole games with them.
"""

from collections.abc import Callable
from typing import Protocol

from engine.bots.greedy import GreedyBot
from engine.bots.random_bot import RandomBot
from engine.bots.search import Appraisal, SearchBot
from engine.state import State
from engine.types import Move


class Bot(Protocol):
    """What every bot is: made from a seed, it chooses `player`'s move in `state`."""

    def choose(self, state: State, player: str) -> Move: ...


#: The bots by the level a server names them with, weakest first (a server gives the
#: strong one its budget: `SearchBot(seed, seconds=...)`).
LEVELS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strong": SearchBot,
}

__all__ = ["LEVELS", "Appraisal", "Bot", "GreedyBot", "RandomBot", "SearchBot"]
