"""The engine's refusals in each reader's language: real refusals, met by playing illegal
moves against the engine, come out of `pbem.words.refusals.translated` with no English
sentence left and the board's places and cards named as the reader's pages name them; and
a Russian player's reply with an illegal line is answered in Russian. The same for the
notation's refusals of a line it cannot read (a typo, an ambiguous name, an empty line)."""

from __future__ import annotations

import re

import pytest

import engine
from engine import names
from engine.notation import NOTATION
from pbem.languages import in_language
from pbem.words import refusals
from tests.engine.helpers import play_power_cards, set_caballeros
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import reply
from tests.server.test_mail_in import inbound, latest_with_moves, start, to_move
from tests.server.test_mail_out import deliver

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

LANGUAGES = ("de", "fr", "it", "es", "ru")
#: The engine's English words, which no translated refusal may keep (the notation's own
#: words, quoted or joined by "_", are not these: `take_from_region` is no "region").
ENGLISH = re.compile(
    r"\b(caballeros in|your turn|Nothing|waiting for|is not|power card|You|It is|cannot|"
    r"region|king|court|province|Move|The move|illegal|cards left|stack|hand|Unknown)\b"
)


def _refused(state: engine.State, player: str, *moves: dict) -> str:
    """The engine's refusal of `moves`, played by `player` as the service plays them."""
    with pytest.raises(engine.IllegalMove) as refused:
        if len(moves) == 1:
            engine.apply(state, player, moves[0])
        else:
            engine.play_batch(state, player, list(moves))
    return refused.value.message


def real_refusals() -> list[tuple[str, list[str], list[str]]]:
    """(refusal, the places it names, the cards it names), from one game's positions."""
    start_ = engine.new_game(["red", "blue", "green"], seed=1, options={"rounds": 6})
    first = engine.pending(start_)[0]["player"]
    other = next(c for c in start_.colours if c != first)
    short = start_.copy()
    short.hands[first] = [c for c in short.hands[first] if c != 13]
    turn, _ = play_power_cards(start_, {"red": 1, "blue": 2, "green": 3})
    mover = engine.pending(turn)[0]["player"]
    idle = next(c for c in turn.colours if c != mover)
    king = turn.king
    here = turn.caballeros[mover]
    # All of the mover's province on the board, so a region may be taken from.
    drained = set_caballeros(turn, mover, old_castile=here["old_castile"] + here["province"])
    drained, _ = engine.apply(drained, mover, {"type": "take_caballeros", "count": 0})
    empty = next(r for r in names.PLACE_NAMES if r != "castillo" and not here[r] and r != king)
    face_up = sorted(c for c in turn.face_up.values() if c)
    hidden = next(c for c in names.CARD_NAMES if c not in face_up and c != "king")
    return [
        (_refused(start_, other, {"type": "play_power_card", "card": 5}), [], []),
        (_refused(start_, first, {"type": "play_power_card", "card": 14}), [], []),
        (_refused(short, first, {"type": "play_power_card", "card": 13}), [], []),
        (_refused(start_, first, {"type": "fly"}), [], []),
        (_refused(start_, first, {"type": "take_caballeros", "count": 2}), [], []),
        (
            _refused(
                start_,
                first,
                {"type": "play_power_card", "card": 13},
                {"type": "play_power_card", "card": 12},
            ),
            [],
            [],
        ),
        (_refused(turn, idle, {"type": "take_caballeros", "count": 2}), [], []),
        (_refused(turn, mover, {"type": "take_caballeros", "count": 99}), [], []),
        (_refused(turn, mover, {"type": "take_from_region", "region": "galicia"}), [], []),
        (_refused(drained, mover, {"type": "take_from_region", "region": empty}), [empty], []),
        (_refused(drained, mover, {"type": "take_from_region", "region": king}), [], []),
        (_refused(turn, mover, {"type": "castillo_pick", "region": "galicia"}), [], []),
        (_refused(drained, mover, {"type": "choose_card", "card": hidden}), [], [hidden, *face_up]),
        (_refused(turn, mover, {"type": "place", "to": "castillo"}), [], []),
    ]


REFUSALS = real_refusals()


def test_the_refusals_are_the_engines_sentences():
    # What this file reads is what the engine says, in English, naming ids.
    said = " ".join(r for r, _, _ in REFUSALS)
    for words in ("You have no caballeros in", "waiting for", "is not in your hand", "Nothing"):
        assert words in said


@pytest.mark.parametrize("language", LANGUAGES)
def test_real_refusals_leave_no_english(app, language):
    with app.app_context(), in_language(language):
        for refusal, places, cards in REFUSALS:
            written = refusals.translated(refusal)
            assert written != refusal
            # The move quoted in a batch's refusal is the player's JSON: left as sent.
            prose = re.sub(r"\(\{.*?\}\)", "", written)
            # A word a language shares with English is no English left (la province).
            same = {names.term(key, language) for key in names.TERM_NAMES}
            left = [w for w in ENGLISH.findall(prose) if w not in same]
            assert not left, f"{language}: English {left} left in {written!r} ({refusal!r})"
            for place in places:
                assert names.place_name(place, language) in written, (language, written)
                assert not re.search(rf"\b{place}\b", prose), (language, written)
            for card in cards:
                assert names.card_name(card, language) in written, (language, written)


def test_english_readers_get_the_engines_words(app):
    with app.app_context(), in_language("en"):
        for refusal, places, cards in REFUSALS:
            expected = refusal  # but the ids named as pages name them (galicia: Galicia)
            for place in places:
                expected = re.sub(rf"\b{place}\b", names.place_name(place), expected)
            for card in cards:
                expected = re.sub(rf"\b{card}\b", names.card_name(card), expected)
            assert refusals.translated(refusal) == expected


def russian_answer(mail_app, mail_api, smtp, line: str) -> str:
    """The answer's text to `line`, replied by the seat to move, who reads Russian."""
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    chosen = mail_api.client.put(
        "/api/players/me/preferences", json={"language": "ru"}, headers=mail_api.auth(keys[colour])
    )
    assert chosen.status_code == 200
    mail = latest_with_moves(smtp, seats[colour])
    before = len(smtp.inbox.to(seats[colour]))
    inbound(mail_app, reply(mail, line, sender=seats[colour], language="ru"))
    deliver(mail_app)
    answers = smtp.inbox.to(seats[colour])[before:]
    assert answers, "no answer to the reply"
    return " ".join(body_text(answers[-1]).split())


def test_a_russian_players_illegal_line_is_refused_in_russian(mail_app, mail_api, smtp):
    # Taking caballeros while the power cards are being played: a rule, not the notation.
    text = russian_answer(mail_app, mail_api, smtp, "take 3")
    assert "Ничего не сыграно" in text, text
    assert "Сейчас нельзя брать Кабальеро ко двору" in text, text
    for english in ("You cannot", "waiting for", "take caballeros", "Nothing was played"):
        assert english not in text, text


# -- the notation: a line that cannot be read as one move -----------------------------------

#: The notation's English, which no translated refusal of a line may keep (the player's
#: line, the verbs and the lines to write are notation, quoted or listed: taken out first).
NOTATION_ENGLISH = re.compile(
    r"\b(is not|a move|could be|write more|[Dd]id you mean|holds several|send them|"
    r"empty line|Line|You may|starts with|is written like|line|moves|name|or)\b"
)
#: The verbs a refusal lists when a line's first word is none ("a move starts with ...").
VERBS = ", ".join(sorted({v.split()[0] for n in NOTATION.values() for v in n.verbs}))


def _misread(text: str, state: engine.State, player: str, *, one: bool = False) -> str:
    """The notation's refusal of `text`, read as the mail door reads a reply (or, `one`, as
    one line alone)."""
    with pytest.raises(engine.NotationError) as refused:
        if one:
            engine.parse_move(text, state, player)
        else:
            engine.parse_moves(text, state, player)
    return refused.value.message


def misread_lines() -> list[tuple[str, engine.State, str, list[str]]]:
    """(refusal, the position, the player, the places it names) for mistyped lines."""
    start_ = engine.new_game(["red", "blue", "green"], seed=1, options={"rounds": 6})
    first = engine.pending(start_)[0]["player"]
    turn, _ = play_power_cards(start_, {"red": 1, "blue": 2, "green": 3})
    mover = engine.pending(turn)[0]["player"]
    at_start = [
        ("powr 9", False),  # a verb mistyped, and the lines it may have meant
        ("p", False),  # a verb alone: how its line is written
        ("s", False),  # skip, special or stop?
        ("hello there", False),  # no verb at all: the verbs
        ("", True),  # an empty line
    ]
    in_turn = [
        ("powr 9", False),
        ("plaec aragon", False),
        ("place g", False),  # galicia or granada?
        ("remove red c", False),  # catalonia, new castile or old castile?
        ("g", True),
        ("take 3; card king", True),  # two moves on one line
        ("take 3 card king", False),
        ("take x", False),
        ("place xyz", False),
        ("card zz", False),
        ("option xx", False),
    ]
    found = []
    for state, player, lines in ((start_, first, at_start), (turn, mover, in_turn)):
        for text, one in lines:
            places = {"place g": ["galicia", "granada"], "remove red c": ["old_castile"]}
            refusal = _misread(text, state, player, one=one)
            found.append((refusal, state, player, places.get(text, [])))
    return found


MISREAD = misread_lines()


def _notation_taken_out(written: str, state: engine.State, player: str) -> str:
    """`written` without the notation it quotes: the player's words, the verbs, the lines."""
    lines = sorted((engine.format_move(m) for m in engine.legal_moves(state, player)), key=len)
    for line in [VERBS, *reversed(lines)]:
        written = written.replace(line, "")
    return re.sub(r'"[^"]*"|„[^“]*“|«[^»]*»', "", written)


def test_the_misread_lines_are_the_notations_sentences():
    said = " ".join(r for r, _, _, _ in MISREAD)
    for words in (
        'Line 1 ("powr 9"): In "powr 9", "powr" is not a move (did you mean "power"?).',
        "An empty line is not a move.",
        "holds several moves",
        "could be galicia or granada: write more of the name.",
        ": write more of it.",
        "a move starts with allow",
        'a "take" line is written like "take 3".',
        "is not a number.",
        "is not a region or the castillo.",
        "is not an action card.",
        "is not an option (court_two or own_region).",
        " Did you mean ",
        " You may: ",
    ):
        assert words in said, words


@pytest.mark.parametrize("language", LANGUAGES)
def test_misread_lines_leave_no_english(app, language):
    with app.app_context(), in_language(language):
        for refusal, state, player, places in MISREAD:
            written = refusals.translated(refusal)
            assert written != refusal
            prose = _notation_taken_out(written, state, player)
            same = {names.term(key, language) for key in names.TERM_NAMES}
            left = [w for w in ENGLISH.findall(prose) if w not in same]
            left += NOTATION_ENGLISH.findall(prose)
            assert not left, f"{language}: English {left} left in {written!r} ({refusal!r})"
            for place in places:
                assert names.place_name(place, language) in written, (language, written)
                assert not re.search(rf"\b{place}\b", prose), (language, written)


def test_english_readers_get_the_notations_words(app):
    with app.app_context(), in_language("en"):
        for refusal, _, _, places in MISREAD:
            expected = refusal  # the places named as pages name them (galicia: Galicia)
            for place in places:
                expected = re.sub(rf"\b{place}\b", names.place_name(place), expected)
            expected = expected.replace("new_castile", names.place_name("new_castile"))
            expected = expected.replace("catalonia", names.place_name("catalonia"))
            assert refusals.translated(refusal) == expected


def test_a_russian_players_mistyped_line_is_answered_in_russian(mail_app, mail_api, smtp):
    text = russian_answer(mail_app, mail_api, smtp, "powr 9")
    assert "Ничего не сыграно" in text, text
    assert "Строка 1 («powr 9»)" in text, text
    assert '«powr» — это не ход (возможно, вы имели в виду "power"?)' in text, text
    for english in ("is not a move", "did you mean", "Did you mean", "Line 1", "You may"):
        assert english not in text, text
