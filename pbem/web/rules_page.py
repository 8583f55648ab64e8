"""The rules page's figures: each power card's caballeros, and each stack's action cards
with what they do, in the reader's language."""

from __future__ import annotations

from typing import TypedDict

from engine.data import ACTION_STACKS, POWER_CARDS
from pbem import words
from pbem.languages import current_language
from pbem.web.wording import card_text


class CardShown(TypedDict):
    card: str
    title: str
    copies: int
    text: str


class StackShown(TypedDict):
    number: int
    cards: list[CardShown]


class RulesShown(TypedDict):
    power_cards: list[tuple[int, int]]  # each power card and its caballeros
    stacks: list[StackShown]


def rules_context() -> RulesShown:
    """The power cards' allowances and each stack's cards with what they do."""
    stacks: list[StackShown] = [
        {
            "number": stack,
            "cards": [
                {
                    "card": card,
                    "title": words.card_title(card),
                    "copies": copies,
                    "text": _sentence(card_text(card)),
                }
                for card, copies in cards
            ],
        }
        for stack, cards in sorted(ACTION_STACKS.items())
    ]
    return {"power_cards": sorted(POWER_CARDS.items()), "stacks": stacks}


def _sentence(text: str) -> str:
    """`text` begun with a capital (in English as the rules page always wrote it: the rest
    in lower case)."""
    return text.capitalize() if current_language() == "en" else text[:1].upper() + text[1:]
