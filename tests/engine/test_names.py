"""The names of regions, cards and terms in every language (`engine.names`)."""

from __future__ import annotations

import pytest

import engine
from engine import names
from engine.data import CARD_STACKS, COURT, PLACES, PROVINCE

LANGUAGES = names.LANGUAGES
TABLES = {"place": names.PLACE_NAMES, "card": names.CARD_NAMES, "term": names.TERM_NAMES}


# -- the tables ----------------------------------------------------------------------------


def test_the_languages_are_the_fields_of_a_name():
    assert LANGUAGES == ("en", "de", "fr", "it", "es", "ru") == names.Names._fields


def test_every_place_and_card_is_named():
    assert list(names.PLACE_NAMES) == list(PLACES)
    assert set(names.CARD_NAMES) == set(CARD_STACKS)
    assert {COURT, PROVINCE, "castillo", "caballero", "grande", "king", "veto"} <= set(
        names.TERM_NAMES
    )


@pytest.mark.parametrize("table", sorted(TABLES))
def test_every_name_is_written_in_every_language(table):
    for thing, name in TABLES[table].items():
        for language in LANGUAGES:
            text = name.in_language(language)
            assert text and text == text.strip() and "  " not in text, (thing, language)


def test_english_is_what_the_pages_show():
    assert [names.place_name(p) for p in PLACES] == [
        "Galicia",
        "Basque Country",
        "Aragon",
        "Catalonia",
        "Old Castile",
        "New Castile",
        "Seville",
        "Granada",
        "Valencia",
        "Castillo",
    ]
    assert {p: names.place_name(p) for p in PLACES} == engine.data.PLACE_NAMES
    for card in CARD_STACKS:  # the id as words (pbem.game.words.card_title)
        title = "King" if card == "king" else card.replace("_", " ").capitalize()
        assert names.card_name(card) == title


def test_names_in_a_language():
    assert names.place_name("old_castile", "de") == "Altkastilien"
    assert names.place_name("new_castile", "ru") == "Новая Кастилия"
    assert names.card_name("eviction", "it") == "Espulsione"
    assert names.term("court", "fr") == "cour"
    with pytest.raises(KeyError, match="not a language"):
        names.place_name("aragon", "pt")
