"""Words the pages show that come from the game's ids rather than from a template: colour
names in running text, the game's terms (`engine.names`), a game's status, an action card's
text, and a moment (`pbem.languages.moment_text`), each in the reader's language. The move
notation keeps its own words (English colours and commands); these are for prose only."""

from __future__ import annotations

from typing import Any

from engine import names
from pbem.game.games import status_word as status_name
from pbem.game.words import card_text, colour_name
from pbem.languages import current_language, moment_text


def term(key: str) -> str:
    """One of the game's terms (`engine.names`) in the reader's language."""
    return names.term(key, current_language())


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
