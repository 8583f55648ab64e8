"""The names of regions, cards and terms in every language (`engine.names`), and the notation
reading a move whatever language its names are written in."""

from __future__ import annotations

import pytest

import engine
from engine import names
from engine.data import CARD_STACKS, COURT, LOCATIONS, PLACES, PROVINCE, REGIONS
from engine.notation import ALIASES, _name_words, _spelling_tiers
from tests.engine.helpers import acting

LANGUAGES = names.LANGUAGES
TABLES = {"place": names.PLACE_NAMES, "card": names.CARD_NAMES, "term": names.TERM_NAMES}


@pytest.fixture
def turn():
    """Red acts with an intrigue card; the king is in aragon."""
    state = engine.new_game(["red", "blue", "green"], seed=7)
    state = acting(state, "red", "intrigue_three_any")
    state.king = "aragon"
    return state


@pytest.fixture
def choosing(turn):
    """Red chooses an action card among five face up."""
    turn.turn.update(step="choose_card", card=None, stack=None)
    turn.face_up = {
        1: "intrigue_four_own",
        2: "veto",
        3: "score_castillo",
        4: "court_two",
        5: "king",
    }
    return turn


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
    for card in CARD_STACKS:  # the id as words (pbem.words.card_title), the Castillo a name
        title = "King" if card == "king" else card.replace("_", " ").capitalize()
        assert names.card_name(card) == title.replace("castillo", "Castillo")


def test_names_in_a_language():
    assert names.place_name("old_castile", "de") == "Altkastilien"
    assert names.place_name("new_castile", "ru") == "Новая Кастилия"
    assert names.card_name("eviction", "it") == "Espulsione"
    assert names.term("court", "fr") == "cour"
    with pytest.raises(KeyError, match="not a language"):
        names.place_name("aragon", "pt")


def _spellings_by_name() -> dict[str, set[str]]:
    """Every spelling the notation reads (ids, names, names without their article, ALIASES),
    as folded words, -> the names it spells."""
    english, other = _spelling_tiers()
    pairs = [(name, name) for name in (*LOCATIONS, *CARD_STACKS)] + english + other
    spelt: dict[str, set[str]] = {}
    for spelling, name in pairs:
        spelt.setdefault(" ".join(_name_words(spelling)), set()).add(name)
    return spelt


@pytest.mark.parametrize("kind, things", [("location", LOCATIONS), ("card", tuple(CARD_STACKS))])
def test_no_two_things_share_a_spelling(kind, things):
    for spelling, spelt in _spellings_by_name().items():
        assert len(spelt & set(things)) <= 1, (kind, spelling, spelt)


def test_a_name_shared_by_languages_is_one_place():
    spelt = _spellings_by_name()
    assert spelt["valencia"] == {"valencia"} and spelt["granada"] == {"granada"}
    assert spelt["sevilla"] == {"seville"} and spelt["castillo"] == {"castillo"}
    assert all(name in (*LOCATIONS, *CARD_STACKS) for name in ALIASES.values() if "/" not in name)


# -- reading the names ---------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("region", REGIONS)
def test_a_region_in_any_language_is_read_in_a_move(turn, language, region):
    name = names.place_name(region, language)
    castillo = names.place_name("castillo", language)
    assert engine.parse_move(f"place {name}", turn, "red") == {"type": "place", "to": region}
    assert engine.parse_move(f"move blue {name}>{castillo}", turn, "red") == {
        "type": "move_caballero",
        "colour": "blue",
        "from": region,
        "to": "castillo",
    }


#: Lines of several kinds of names, `{id}` standing for a name in the language tried.
LINES = [
    "place {valencia}",
    "place {castillo}",
    "move red {seville}>{castillo}",
    "move green {old_castile} > {new_castile}",
    "remove blue {basque_country}",
    "region {galicia}",
    "send {castillo}",
    "take from {catalonia}",
    "king {granada}",
    "grande {aragon}",
    "castillo {new_castile}",
    "pick {old_castile}",
    "return {court}",
    "return {province}",
]


def _line(line: str, language: str) -> str:
    spelt = {p: names.place_name(p, language) for p in PLACES}
    spelt |= {where: names.term(where, language) for where in (COURT, PROVINCE)}
    return line.format(**spelt)


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_a_line_is_the_same_move_whatever_its_names_language(turn, language):
    for line in LINES:
        english = engine.parse_move(_line(line, "en"), turn, "red")
        assert engine.parse_move(_line(line, language), turn, "red") == english, line
        # and shouted, or with a lower-case name
        assert engine.parse_move(_line(line, language).upper(), turn, "red") == english, line
        assert engine.parse_move(_line(line, language).lower(), turn, "red") == english, line


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_in_any_language_is_read(choosing, language):
    for card in CARD_STACKS:
        name = names.card_name(card, language)
        move = engine.parse_move(f"card {name}", choosing, "red")
        assert move["type"] == "choose_card" and move["card"] == card, (language, name)
        if card in choosing.face_up.values():
            assert move in engine.legal_moves(choosing, "red")


@pytest.mark.parametrize(
    "text, card",
    [
        ("card Intrigant: vier eigene", "intrigue_four_own"),
        ("card intrigant vier", "intrigue_four_own"),
        ("card intrigo", "intrigue_four_own"),  # the one intrigue card face up
        ("card Sonderwertung", "score_castillo"),
        ("card sonder", "score_castillo"),
        ("card décompte", "score_castillo"),
        ("card подсчёт кастильо", "score_castillo"),
        ("card ПОДСЧЕТ", "score_castillo"),
        ("card der hof", "court_two"),
        ("card hof", "court_two"),  # without its article
        ("card corte", "court_two"),
        ("card двор", "court_two"),
        ("card il re", "king"),
        ("card re", "king"),
        ("card königskarte", "king"),
        ("card вето", "veto"),
    ],
)
def test_a_card_by_its_name_or_a_short_one(choosing, text, card):
    assert engine.parse_move(text, choosing, "red")["card"] == card


def test_a_card_abbreviation_is_read_as_english_first(choosing):
    # `dec` starts the decay cards' ids; French Décompte (the scoring card face up) does not
    # take it over: the line is refused as before, naming the decay cards.
    with pytest.raises(engine.NotationError, match="decay_all_court.*decay_three_court"):
        engine.parse_move("card dec", choosing, "red")
    assert engine.parse_move("card r", choosing, "red")["card"] == "royal_adviser"


def test_cyrillic_is_folded():
    assert _name_words("НОВАЯ Кастилия") == ("новая", "кастилия")
    assert _name_words("Подсчёт") == _name_words("подсчет")
    assert _name_words("Perte d'autorité : toute la cour") == _name_words(
        "perte d’autorite toute la cour"
    )


@pytest.mark.parametrize(
    "text, region",
    [
        ("place Neukastilien", "new_castile"),
        ("place Nuova Castiglia", "new_castile"),
        ("place Castiglia Nuova", "new_castile"),
        ("place Новая Кастилия", "new_castile"),
        ("place Nouvelle-Castille", "new_castile"),
        ("place Castilla la Nueva", "new_castile"),
        ("place нов каст", "new_castile"),
        ("place Antica Castiglia", "old_castile"),
        ("place Vecchia Castiglia", "old_castile"),
        ("place СТАРАЯ КАСТИЛИЯ", "old_castile"),
        ("place galice", "galicia"),
        ("place galicien", "galicia"),
        ("place Galizia", "galicia"),
        ("place страна басков", "basque_country"),
        ("place баскония", "basque_country"),
        ("place cataluna", "catalonia"),
        ("place Севилья", "seville"),
        ("place valence", "valencia"),
        ("place кастильо", "castillo"),
        ("place замок", "castillo"),
        ("place château", "castillo"),
    ],
)
def test_other_language_names_and_spellings(turn, text, region):
    assert engine.parse_move(text, turn, "red") == {"type": "place", "to": region}


@pytest.mark.parametrize(
    "text, pattern",
    [
        ("place castiglia", "new_castile or old_castile"),
        ("place с", "basque_country, old_castile or seville"),
        ("place a", "aragon or old_castile"),  # Aragon, Altkastilien, Antica Castiglia
        ("place kastilien", "is not a place|is not a region"),  # no region is Kastilien alone
        ("place кастилия", "is not"),
    ],
)
def test_a_name_that_is_not_one_place_is_refused(turn, text, pattern):
    with pytest.raises(engine.NotationError, match=pattern):
        engine.parse_move(text, turn, "red")


@pytest.mark.parametrize("text", ["return hof", "return cour", "return corte", "return двор"])
def test_the_court_in_any_language(turn, text):
    assert engine.parse_move(text, turn, "red") == {"type": "return_caballero", "from": "court"}


@pytest.mark.parametrize(
    "text", ["return provinz", "return provincia", "return провинции", "return провинция"]
)
def test_the_province_in_any_language(turn, text):
    assert engine.parse_move(text, turn, "red") == {"type": "return_caballero", "from": "province"}


@pytest.mark.parametrize(
    "text, region",
    [
        ("place g", None),
        ("place ga", "galicia"),
        ("place b", "basque_country"),
        ("place n", "new_castile"),
        ("place o", "old_castile"),
        ("place s", "seville"),
        ("place gr", "granada"),
        ("place va", "valencia"),
        ("place cat", "catalonia"),
        ("place ar", "aragon"),
    ],
)
def test_english_abbreviations_read_as_before(turn, text, region):
    if region is None:
        with pytest.raises(engine.NotationError, match="galicia or granada"):
            engine.parse_move(text, turn, "red")
    else:
        assert engine.parse_move(text, turn, "red") == {"type": "place", "to": region}


@pytest.mark.parametrize(
    "text, card",
    [
        ("card i o", "intrigue_own_region"),
        ("card i t f", "intrigue_three_foreign"),
        ("card v", "veto"),
        ("card d a", "decay_all_court"),
        ("card k r", "king_rages"),
        ("card o", "one_from_each_opponent"),
        ("card s t", "secret_two_from_region"),
        ("card s c r", "score_chosen_region"),
        ("card s m", "score_most_caballeros"),
        ("card m", "mobile_scoreboard"),
        ("card r", "royal_adviser"),
        ("card e", "eviction"),
        ("card g", "grande"),
        ("card p", "power_card_return"),
        ("card c", "court_two"),
        ("card se s", "secret_scoring"),
    ],
)
def test_english_card_abbreviations_read_as_before(turn, text, card):
    # Not face up (red acts already): each is read as the one card its English spells.
    assert engine.parse_move(text, turn, "red")["card"] == card
