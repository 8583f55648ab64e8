"""What a page writes beside a person's name (their shown rating and the share of their
decisions answered in time, with a link to their page), and a game's seats so: read apart
from the board page's kept parts, for a record changes with no move of the game it is shown
in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, TypedDict

from flask import current_app, request
from markupsafe import Markup

from pbem.game import ratings
from pbem.game.games import seat_banks
from pbem.game.ratings import Rating
from pbem.kept import app_drawn
from pbem.languages import _, number_text, share_text
from pbem.store.models import Game
from pbem.web.board import NamedChip, colour_chip
from pbem.words import bank_text


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


def signed(written: str, value: float) -> str:
    """A rating's change as written (`written`, `value` in the reader's numbers), with its
    sign: +1.2, -0.4."""
    return written if value < 0 else "+" + written


class SeatShown(NamedChip):
    bot: bool
    open: bool
    record: Beside
    named: Markup  # the name as a page writes it, linked, its record beside it


class SeatRead(NamedTuple):
    """What a seat's record beside its holder's name is drawn from, as the board page's one
    query reads it: the holder, whether the seat is open, their newest decision (their
    reliability changes only with a new one) and their rating."""

    colour: str
    player_id: int
    name: str
    open: bool
    decided: int | None
    mu: float | None
    sigma: float | None
    rated: int | None


SeatsRead = tuple[SeatRead, ...]

#: A game's seats with their records are kept per worker and language, one drawing a game,
#: by what they are drawn from as the page read it (`SeatRead`): a record changed through
#: any node, or a seat handed on, shows at the next look, and no clock decides what is still
#: kept. The games (each its latest drawing) a worker keeps.
SEATS_KEPT = 1024


def seats_shown(game_id: int, records: SeatsRead) -> list[SeatShown]:
    """A game's seats with their holders' records, for its page (kept by the app: another
    app in the process, a test's, has its own); `records`: what they are drawn from, as
    the page read them."""
    kept = app_drawn("pbem_seats", SEATS_KEPT)
    # Under the script root too: `named` holds links to the players' pages.
    subject = (request.script_root, game_id)
    shown: list[SeatShown] = kept.latest(subject, records, lambda: _seats_read(game_id))
    return shown


def _seats_read(game_id: int) -> list[SeatShown]:
    # A template's module: its macros are known only at run time.
    records: Any = current_app.jinja_env.get_template("web/_records.html").module
    shown: list[SeatShown] = []
    for seat in ratings.seat_records(game_id):
        record = beside(seat["player_id"], seat["rating"], seat["reliability"])
        shown.append(
            {
                **colour_chip(seat["colour"]),
                "name": seat["name"],
                "bot": seat["bot"],
                "open": seat["player_id"] is None,
                "record": record,
                "named": Markup(records.named(seat["name"], record)),
            }
        )
    return shown


class BankShown(TypedDict):
    """A seat's time bank as its game's page shows it (`data-bank`: the seconds)."""

    seconds: int
    text: str  # "bank: 3 d 4 h", in the reader's language


def banks_shown(game_id: int) -> dict[str, BankShown]:
    """Each seat's time bank, by colour, for its page (none in a game of fixed deadlines):
    read for each request, never kept, for every answer changes one."""
    shown: dict[str, BankShown] = {}
    for colour, (seconds, running) in seat_banks(game_id).items():
        text = bank_text(seconds)
        shown[colour] = {
            "seconds": seconds,
            "text": _("bank: %(bank)s, running", bank=text)
            if running
            else _("bank: %(bank)s", bank=text),
        }
    return shown


class FormingSeat(NamedChip):
    open: bool
    bot: bool
    accepted: bool
    record: Beside  # its holder's rating and reliability (nothing for an open or bot seat)


def seated_people(games: Sequence[Game]) -> list[int]:
    """The people holding seats of `games` (no open seat, no house bot)."""
    return sorted({s.player_id for g in games for s in g.seats if not s.open and not s.bot})


def forming_seats(
    game: Game, shown: Mapping[int, ratings.BesideName] | None = None
) -> list[FormingSeat]:
    """Each seat of a forming game: who holds it, with their record (`shown`, if read for
    several games at once), and whether they accepted or it is open."""
    if shown is None:
        shown = ratings.beside_names(seated_people([game]))
    return [
        {
            **colour_chip(s.colour),
            "name": _("open") if s.open else s.player.name,
            "open": s.open,
            "bot": s.bot,
            "accepted": s.accepted_at is not None,
            "record": beside(
                s.player_id, shown[s.player_id]["rating"], shown[s.player_id]["reliability"]
            )
            if s.player_id in shown
            else beside(None, None, None),
        }
        for s in game.seats
    ]
