"""The house bots by level, as a game names them: the bot a seat is filled with at the start
(the organiser's choice) and the one that takes over a seat after its timeouts, or when its
holder hands it over (the game's `takeover_bot`). Each sees only its seat's view.

Bots think only in the scheduler's sweep, never in a request: `plan_for` (`pbem.play.due`)
asks one for a decision's moves within a wall-clock budget, and the sweep stops giving bots
time once its pass has spent its own (`PBEM_SWEEP_BOT_SECONDS`).
"""

from __future__ import annotations

from flask import current_app

from engine.bots import LEVELS, SearchBot
from engine.bots import Bot as HouseBot
from pbem.timing.policy import DEFAULT_TIMING

__all__ = ["DEFAULT_LEVEL", "HouseBot", "house_bot", "played_level"]

#: The level that takes over a seat when the game names none.
DEFAULT_LEVEL = DEFAULT_TIMING["takeover_bot"]


def house_bot(level: str | None, seed: int) -> HouseBot:
    """The bot of `level` (`engine.bots.LEVELS`; the default for one this server does not
    know), made from `seed` (the game's seed and seq: the same position gives the same
    answer on every server); the strong one searches for `PBEM_BOT_SECONDS` a move (a few
    times that for a power or action card)."""
    level = played_level(level)
    if level == "strong":
        return SearchBot(seed, seconds=float(current_app.config["PBEM_BOT_SECONDS"]))
    return LEVELS[level](seed)


def played_level(level: str | None) -> str:
    """The level that plays when a game names `level`: itself, or the default for one this
    server does not know (an imported game's, a later version's)."""
    return level if level in LEVELS else DEFAULT_LEVEL
