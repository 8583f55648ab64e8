"""The table's words only: no page and no mail, in any of the six languages, shows an
internal identifier (a move type, a decision kind, a turn's step) or a None, over a whole
game's positions (the pages) and every kind of mail (`every_mail`); and no translated mail
keeps a line of prose as the English one says it."""

from __future__ import annotations

import random
import re

import pytest

from engine.data import CARD_STACKS
from engine.moves import VERBS
from engine.notation import NOTATION
from pbem.languages import LANGUAGES
from tests.server.every_mail import mails
from tests.server.mail_helpers import body_text
from tests.web.helpers import sign_in_seat
from tests.web.html import parse
from tests.web.test_pseudo_language import _notation_verbs, visible_text

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


def test_no_page_names_an_internal_identifier_over_a_whole_game(app, api, client):
    game_id, keys = api.new_game(["red", "blue", "green"], options={"rounds": 6})
    sign_in_seat(app, client, game_id, "red")
    rng = random.Random(5)
    pages_read = 0
    problems: dict[str, list[str]] = {}
    for step in range(2000):
        view = api.get(f"/api/games/{game_id}").get_json()
        if step % 5 == 0 or view["status"] != "active":
            for language in LANGUAGES:
                path = f"/games/{game_id}"
                doc = client.get(path, headers={"Accept-Language": language})
                assert doc.status_code == 200
                text = visible_text(parse(doc.get_data(as_text=True)))
                words = found_in(text)
                if words:
                    problems[f"{language} seq {view['seq']}"] = words
                pages_read += 1
        if view["status"] != "active":
            break
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"])
    assert view["status"] == "finished", view["status"]
    assert pages_read > 60 and problems == {}, problems
