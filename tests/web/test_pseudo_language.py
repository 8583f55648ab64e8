"""A pseudo-language run: every text the catalogs know, wrapped in ⟦ ⟧, then the pages and
the mails of a game read for any word left outside the brackets. A word left there is text
nobody marked for translation (it would stay English in every language), unless it is data:
a name, a title, an address, a number, the board's names (translated by `engine.names`, not
the catalogs) or a line of the move notation (one grammar in every language)."""

from __future__ import annotations

import contextlib
import re
from urllib.parse import urlsplit

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask_babel import force_locale

import engine.notation
from engine import names
from engine.data import COLOURS
from pbem import create_app, languages, tokens
from pbem.extensions import db
from pbem.notify import sender
from pbem.store.models import Notification
from tests.server.conftest import Api, empty_tables
from tests.test_translations import marked
from tests.web.helpers import seat_link_for, sign_in_seat, text_part
from tests.web.html import Node, parse

#: A locale Babel knows, apart from the six, whose catalog is the pseudo one (its pages are
#: kept apart from English ones, and it reads the board's names in English).
PSEUDO = "en_US"


def pseudo_catalog(directory) -> None:
    catalog = Catalog(locale=PSEUDO)
    for message_id in marked():
        if isinstance(message_id, tuple):
            catalog.add(message_id, tuple(f"⟦{m}⟧" for m in message_id))
        else:
            catalog.add(message_id, f"⟦{message_id}⟧")
    target = directory / PSEUDO / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.mo").open("wb") as mo:
        write_mo(mo, catalog)


def _data_words(players: list[str], titles: list[str]) -> set[str]:
    """Words that are data, not text: names, titles, the board's names, the colours."""
    words: set[str] = set()
    tables = (names.PLACE_NAMES, names.CARD_NAMES, names.TERM_NAMES)
    for text in [*players, *titles, *(n.en for t in tables for n in t.values())]:
        words |= set(re.findall(r"[^\W\d_]+", text.lower()))
    words |= set(COLOURS) | {"el", "grande", "caballero", "caballeros", "castillo"}
    # Chats' names; and dates, which Babel writes in each language (the pseudo-language
    # reads as English: its days and months are English).
    words |= {"discord", "slack", "utc", "mon", "tue", "wed", "thu", "fri", "sat", "sun"}
    words |= {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
    # The language links name each language in its own words.
    words |= {w for name in languages.LANGUAGES.values() for w in name.lower().split()}
    return words


def _notation_verbs() -> set[str]:
    return {spelling.split()[0] for n in engine.notation.NOTATION.values() for spelling in n.verbs}


def leftovers(text: str, data: set[str]) -> list[str]:
    """The words of `text` outside every ⟦ ⟧ that are not data or notation."""
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if stripped == text:
            break
        text = stripped
    verbs = _notation_verbs()
    left = []
    for line in text.splitlines():
        line = re.sub(r"\S+@\S+|https?://\S+|/\S*", " ", line)  # addresses, links, paths
        words = re.findall(r"[^\W\d_]{2,}", line.lower())
        if words and words[0] in verbs:
            continue  # a line of the notation (`power 9`, `place aragon`)
        left += [w for w in words if w not in data]
    return left


def visible_text(doc: Node) -> str:
    def walk(node: Node) -> list[str]:
        if node.tag in ("script", "style", "code", "pre", "kbd", "samp"):
            return []
        parts = []
        for child in node.children:
            parts += [child] if isinstance(child, str) else walk(child)
        for attribute in ("title", "aria-label", "placeholder", "alt"):
            if node.get(attribute):
                parts.append(node.get(attribute) or "")
        return parts

    return "\n".join(walk(doc))


@pytest.fixture
def pseudo_app(database_url, tmp_path, monkeypatch):
    pseudo_catalog(tmp_path)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path),
        }
    )
    app.extensions["babel"].locale_selector = lambda: PSEUDO
    # Mails in the pseudo-language too: the one in force, whatever their recipient chose.
    monkeypatch.setattr(languages, "in_language", lambda language: contextlib.nullcontext())
    yield app
    empty_tables(app)


def test_no_page_or_mail_holds_text_left_out_of_the_catalogs(pseudo_app):
    app = pseudo_app
    client = app.test_client()
    api = Api(client)
    game_id, keys = api.new_game(["red", "blue", "green"])
    api.post_moves(game_id, keys["red"], [{"type": "play_power_card", "card": 13}], 0)
    players = ["Red", "Blue", "Green"]
    titles = [api.get(f"/api/games/{game_id}", keys["red"]).get_json()["title"]]
    data = _data_words(players, titles)
    found: dict[str, list[str]] = {}
    for path in ["/", "/rules", "/sign-in", "/games/open", f"/games/{game_id}"]:
        found[path] = leftovers(visible_text(parse(client.get(path).get_data(as_text=True))), data)
    sign_in_seat(app, client, game_id, "red")
    with app.test_request_context():
        never = "/never-invite/" + tokens.never_invite_token("someone@example.org")
    # Blue's seat link, opened signed in as Red: it asks whose account to go on with.
    blue = urlsplit(seat_link_for(app, game_id, "blue")).path
    own = [f"/games/{game_id}", "/me", "/games/new", f"/games/{game_id}/organise", "/", never, blue]
    for path in own:
        page = client.get(path).get_data(as_text=True)
        found[f"{path} (signed in)"] = leftovers(visible_text(parse(page)), data)
    with app.app_context(), force_locale(PSEUDO):
        sender.compose_queued()  # the decision mails, composed as the sender would
        mails = db.session.execute(db.select(Notification.kind, Notification.message)).all()
        db.session.remove()
    for kind, message in mails:
        if message:
            found[f"mail {kind}"] = leftovers(text_part(message), data)
    left = {where: sorted(set(words)) for where, words in found.items() if words}
    assert not left, "\n".join(f"{where}: {words}" for where, words in left.items())


def test_the_pseudo_language_shows_brackets(pseudo_app):
    """The run above would pass on pages with no text at all: this one fails if nothing
    was translated."""
    page = pseudo_app.test_client().get("/rules").get_data(as_text=True)
    assert page.count("⟦") > 20
