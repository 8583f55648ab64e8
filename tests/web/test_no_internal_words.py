"""The table's words only: no mail, in any of the six languages, shows an internal
identifier (a move type, a decision kind, a turn's step) or a None, over every kind of mail
(`every_mail`); and no translated mail keeps a line of prose as the English one says it.
The pages of a whole game are read for these, and for the cards' and regions' ids, in
`tests/server/test_game_in_words.py`, with its mails (one whole game for both)."""

from __future__ import annotations

import re

import pytest

from engine.data import CARD_STACKS
from engine.moves import VERBS
from engine.notation import NOTATION
from pbem.languages import LANGUAGES
from tests.server.every_mail import mails
from tests.server.mail_helpers import body_text
from tests.web.test_pseudo_language import _notation_verbs

KINDS = {"power_card", "turn", "castillo_pick", "secret_pick", "king_rages", "veto_window"}
STEPS = {"draw", "choose_card", "act", "special"}
#: Identifiers a person never reads. A card's id is also the notation's name of the card
#: (`card king_rages`), and a verb is a word of the notation: those are left to the lines
#: of the notation, which the sweep leaves out.
INTERNAL = sorted(
    n for n in (set(NOTATION) | KINDS | STEPS) - set(CARD_STACKS) - set(VERBS.values()) if "_" in n
)
FORBIDDEN = re.compile(r"\b(" + "|".join(INTERNAL) + r")\b|\bNone\b|\(draw\)|\(act\)|\(special\)")


def found_in(text: str) -> list[str]:
    """Internal words in `text`, leaving out the lines of the notation (`card king`)."""
    verbs = _notation_verbs()
    found = []
    for line in text.splitlines():
        words = line.split()
        if words and words[0].lower() in verbs:
            continue
        found += [m[0] for m in FORBIDDEN.finditer(line)]
    return found


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_no_mail_names_an_internal_identifier(app, language):
    with app.app_context():
        composed = list(mails(language))
    seen = {kind: found_in(f"{mail['Subject']}\n{body_text(mail)}") for kind, mail in composed}
    assert {kind: words for kind, words in seen.items() if words} == {}


def prose(text: str) -> set[str]:
    """The lines of `text` that are sentences: not the notation's, not a link or an
    address, at least three words of letters."""
    verbs = _notation_verbs()
    lines = set()
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].lower() in verbs:
            continue
        line = re.sub(r"https?://\S+|\S+@\S+", "", line).strip()
        if len(re.findall(r"[^\W\d_]{3,}", line)) >= 3:
            lines.add(line)
    return lines


def test_no_translated_mail_keeps_an_english_line(app):
    with app.app_context():
        english = [(kind, prose(body_text(mail))) for kind, mail in mails("en")]
        for language in [code for code in LANGUAGES if code != "en"]:
            translated = [(kind, prose(body_text(mail))) for kind, mail in mails(language)]
            assert [kind for kind, _ in translated] == [kind for kind, _ in english]
            kept = {
                kind: sorted(lines & theirs)
                for (kind, lines), (_, theirs) in zip(english, translated, strict=True)
                if lines & theirs
            }
            assert kept == {}, (language, kept)
            assert sum(len(lines) for _, lines in english) > 200
