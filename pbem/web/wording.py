"""Words the pages show that come from the game's ids rather than from a template: colour
names in running text, the game's terms (`engine.names`), a game's status, an action card's
text, and a moment, each in the reader's language. The move notation keeps its own words
(English colours and commands); these are for prose only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from babel.dates import format_datetime

from engine import names
from pbem.game import words
from pbem.languages import N_, _, current_language

#: The colours as running text names them (the notation keeps them English).
COLOUR_NAMES: dict[str, str] = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "brown": N_("brown"),
}

#: A game's status, as the lists and pages say it.
STATUS_NAMES: dict[str, str] = {
    "forming": N_("forming"),
    "active": N_("active"),
    "finished": N_("finished"),
    "aborted": N_("aborted"),
    "abandoned": N_("abandoned"),
}


def colour_name(colour: str) -> str:
    """A colour as running text names it, in the reader's language (`red`, `rot`)."""
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def status_name(status: str) -> str:
    """A game's status in the reader's language."""
    return _(STATUS_NAMES[status]) if status in STATUS_NAMES else status


def term(key: str) -> str:
    """One of the game's terms (`engine.names`) in the reader's language."""
    return names.term(key, current_language())


def card_text(card: str) -> str:
    """What an action card does, in a line (`pbem.game.words`), in the reader's language."""
    text = words.CARD_TEXTS.get(card, "")
    return _(str(text)) if text else ""


def moment_text(moment: datetime, english: str, pattern: str) -> str:
    """`moment` in English as `english` (strftime) says, in another language as `pattern`
    (a CLDR date pattern) says, with that language's day and month names."""
    language = current_language()
    if language == "en":
        return moment.strftime(english)
    return str(format_datetime(moment, pattern, tzinfo=moment.tzinfo, locale=language))


def install(env: Any) -> None:
    """These words as globals of a Jinja environment's templates."""
    env.globals.update(
        colour_name=colour_name, status_name=status_name, term=term, moment_text=moment_text
    )
