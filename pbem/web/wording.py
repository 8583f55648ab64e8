"""The table's words (`pbem.words`) as the pages' templates call them: colour names in
running text, the game's terms, a game's status and a moment, each in the reader's language.
The move notation has words of its own (`pbem.words.moves.notation_line`); these are for
prose."""

from __future__ import annotations

from typing import Any

from pbem.languages import moment_text
from pbem.words import card_text, colour_name, term
from pbem.words import status_word as status_name


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
