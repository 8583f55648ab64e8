"""What a page writes beside a person's name (their shown rating and the share of their
decisions answered in time, with a link to their page), and a game's seats so: read per
request, for a record changes with no move of the game it is shown in."""

from __future__ import annotations

from typing import TypedDict

from pbem.game import ratings
from pbem.game.ratings import Rating
from pbem.languages import number_text, share_text
from pbem.web.board import NamedChip, colour_chip


class Beside(TypedDict):
    """A person's record as a page writes it beside their name."""

    player_id: int | None
    rating: str | None  # the shown rating in the reader's numbers (None: none shown)
    provisional: bool
    reliability: str | None  # answered in time, as a percentage (None: no decision yet)


def beside(player_id: int | None, rating: Rating | None, share: float | None) -> Beside:
    return {
        "player_id": player_id,
        "rating": number_text(rating["ordinal"]) if rating else None,
        "provisional": bool(rating and rating["provisional"]),
        "reliability": share_text(share) if share is not None else None,
    }


class SeatShown(NamedChip):
    bot: bool
    open: bool
    record: Beside


def seats_shown(game_id: int) -> list[SeatShown]:
    """A game's seats with their holders' records, for its page."""
    return [
        {
            **colour_chip(seat["colour"]),
            "name": seat["name"],
            "bot": seat["bot"],
            "open": seat["player_id"] is None,
            "record": beside(seat["player_id"], seat["rating"], seat["reliability"]),
        }
        for seat in ratings.seat_records(game_id)
    ]
