"""Words the pages show that come from the game's ids rather than from a template: colour
names in running text, the game's terms (`engine.names`), a game's status, an action card's
text, and a moment, each in the reader's language. The move notation keeps its own words
(English colours and commands); these are for prose only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine import names
from pbem.game.games import status_word as status_name
from pbem.game.words import card_text, colour_name
from pbem.languages import N_, _, current_language


def term(key: str) -> str:
    """One of the game's terms (`engine.names`) in the reader's language."""
    return names.term(key, current_language())


#: The days and months as a moment's short form names them (`Fri 27 Nov`).
DAYS = (N_("Mon"), N_("Tue"), N_("Wed"), N_("Thu"), N_("Fri"), N_("Sat"), N_("Sun"))
MONTHS = (
    N_("Jan"),
    N_("Feb"),
    N_("Mar"),
    N_("Apr"),
    N_("May"),
    N_("Jun"),
    N_("Jul"),
    N_("Aug"),
    N_("Sep"),
    N_("Oct"),
    N_("Nov"),
    N_("Dec"),
)


def moment_text(moment: datetime, comma: bool = False) -> str:
    """`moment` in short (`Fri 27 Nov 06:10`, with `comma` `Fri 27 Nov, 06:10`: as
    strftime's `%a %d %b %H:%M` in English), its day and month in the reader's language."""
    day, month = _(DAYS[moment.weekday()]), _(MONTHS[moment.month - 1])
    return f"{day} {moment.day:02d} {month}{',' if comma else ''} {moment:%H:%M}"


def install(env: Any) -> None:
    """These words as globals of a Jinja environment's templates."""
    env.globals.update(
        colour_name=colour_name, status_name=status_name, term=term, moment_text=moment_text
    )


__all__ = [
    "card_text",
    "colour_name",
    "install",
    "moment_text",
    "status_name",
    "term",
]
