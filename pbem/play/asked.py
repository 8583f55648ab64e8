"""What a game's maker asks for, as the doors read it from a request, a form or a file."""

from __future__ import annotations

from typing import Required, TypedDict


class SeatAsked(TypedDict, total=False):
    """One seat of a game to be made, in seat order: a person's (`email`, and the `name`
    the organiser gives a newcomer), a house bot's (`bot`), or one open to anyone (`open`,
    in a game that forms)."""

    colour: Required[str]
    email: str
    name: str
    bot: bool
    level: str  # a house bot's (`engine.bots.LEVELS`); none: the game's `takeover_bot`
    open: bool


class JoinMinimums(TypedDict, total=False):
    """What a player must have to join one of the game's open seats: a reliability (the
    share of decisions answered in time, 0 to 1) and a shown rating, at least."""

    min_reliability: float
    min_rating: float
