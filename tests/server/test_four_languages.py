"""One game, four languages: German, French and Russian players answer their mails, a
Spanish player plays from the game's page, to the end. Every mail each of them gets, and
every page the Spanish player reads, is in that player's language: checked against the
words of that language's catalog, with none of the English left that it translates. The
replies name the board's regions and cards in the writer's language (`place Galicien`,
`card Intrigant: ...`), in the one grammar of the notation, and play exactly the moves the
same lines in English name."""

from __future__ import annotations

import json
import random
import re
import uuid
from functools import cache
from urllib.parse import urlsplit

import pytest
from babel.dates import get_month_names
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import engine
from engine import names
from pbem.extensions import db
from pbem.languages import TRANSLATIONS_DIR
from pbem.store.models import Game, Move, TableTalk
from tests.server.helpers import replay_log, replay_record
from tests.server.mail_helpers import body_html, body_text
from tests.server.mailin_helpers import reply
from tests.server.test_mail_in import inbound
from tests.server.test_mail_out import deliver
from tests.server.test_mail_whole_turns import section
from tests.web.helpers import seat_link_for
from tests.web.html import Node, parse
from tests.web.test_pseudo_language import visible_text

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

LANGUAGE = {"red": "de", "blue": "fr", "green": "ru", "yellow": "es"}
ON_THE_PAGE = "yellow"
#: The mail program each seat writes with (the attribution above the quote in its language).
STYLE = {"red": "gmail", "blue": "apple", "green": "gmail"}

EXAMPLE = "A whole answer in one reply, for example:"
POWER_CARDS = "The power cards you may play:"
#: Words a fragment needs to count as a sentence of the catalog (not a name or a number).
WORDS = 4


def _fragments(text: str) -> set[str]:
    """A catalog text's runs between placeholders, markup and line ends, of WORDS words or
    more: what must read the same wherever the text is shown."""
    runs = re.split(r"%\(\w+\)[sd]|<[^>]*>|&\w+;|\n|\"", text)
    return {r.strip() for r in runs if len(re.findall(r"[^\W\d_]{3,}", r)) >= WORDS}


@cache
def catalog(language: str) -> Catalog:
    path = TRANSLATIONS_DIR / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        return read_po(source, locale=language)


@cache
def catalog_words(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the language's sentences, the English ones it translates into other words)."""
    translated: set[str] = set()
    english: set[str] = set()
    for message in catalog(language):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        theirs = set().union(*map(_fragments, strings))
        translated |= theirs
        english |= {f for i in ids for f in _fragments(i) if f not in theirs}
    return frozenset(translated), frozenset(english - translated)


def assert_in_language(text: str, language: str, where: str) -> None:
    """`text` holds sentences of `language`'s catalog, and no English sentence it
    translates."""
    translated, english = catalog_words(language)
    flat = " ".join(text.split())
    theirs = [f for f in translated if " ".join(f.split()) in flat]
    left = [f for f in english if " ".join(f.split()) in flat]
    assert theirs, f"{where}: no {language} sentence in\n{text[:1500]}"
    assert not left, f"{where}: English left in a {language} text: {left[:3]}"


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', html)
    assert found is not None
    return found[1]


def heading(text: str, language: str) -> str:
    """A mail's heading as its reader's catalog writes it."""
    return str(catalog(language)[text].string)


def in_own_words(line: str, language: str) -> str:
    """A line of the notation as its writer would type it: the board's places and the
    action cards by their names in the writer's language, the rest as it stands."""
    verb, _, rest = line.partition(" ")
    if verb == "card":
        card, _, stack = rest.partition(" ")
        return f"card {names.card_name(card, language)} {stack}".rstrip()

    def named(found: re.Match[str]) -> str:
        word = found[0]
        return names.place_name(word, language) if word in names.PLACE_NAMES else word

    return f"{verb} {re.sub(r'[a-z_]+', named, rest)}".rstrip()


def answer(mail_text: str, language: str, rng: random.Random) -> list[str]:
    """A whole answer to the decision a mail asks, from what it shows, in the notation."""
    powers = section(mail_text, heading(POWER_CARDS, language))
    if powers:
        return [rng.choice(powers).split(" (")[0]]
    lines = section(mail_text, heading(EXAMPLE, language))
    assert lines, mail_text
    return lines


def check_mail(mail, language: str) -> None:
    where = f"{language} mail {mail['Subject']}"
    assert html_lang(body_html(mail)) == language, where
    text = body_text(mail)
    assert_in_language(text, language, where)
    deadline = re.search(r"\d{2}:\d{2} UTC", text)
    if deadline is not None:  # written by Babel: a month as the language abbreviates it
        months = get_month_names("abbreviated", locale=language).values()
        assert any(m in text for m in months), (where, text)


def logged(app, game_id: int, seq: int) -> tuple[engine.State, list[dict]]:
    """The game as it stood at `seq` (replayed by the engine alone), and the moves logged
    after it."""
    with app.app_context():
        game = db.session.get_one(Game, game_id)
        state = replay_log(game, seq)
        after = db.select(Move.move).where(Move.game_id == game_id, Move.seq > seq)
        moves = list(db.session.execute(after.order_by(Move.seq)).scalars())
        db.session.remove()
    return state, moves


#: The mails' links are https (PBEM_BASE_URL), so the session's cookie is Secure.
HTTPS = "https://localhost"


class PageSeat:
    """A player on the game's page, clicking what it offers as a person would: a turn is
    planned step by step, then confirmed."""

    def __init__(self, app, game_id: int, colour: str, rng: random.Random):
        self.client = app.test_client()
        self.game_id = game_id
        self.rng = rng
        self.played: list[dict] = []
        self.pages = 0
        link = urlsplit(seat_link_for(app, game_id, colour)).path  # as the mail's link
        # The link asks, and its button signs in (in the player's language from then on).
        asked = self.client.get(link, base_url=HTTPS)
        assert asked.status_code == 200
        token = parse(asked.get_data(as_text=True)).find("input", name="csrf_token").get("value")
        signed = self.client.post(link, data={"csrf_token": token}, base_url=HTTPS)
        assert signed.status_code == 303

    def read(self, response) -> Node:
        assert response.status_code == 200, response.get_data(as_text=True)[:2000]
        html = response.get_data(as_text=True)
        assert html_lang(html) == LANGUAGE[ON_THE_PAGE]
        doc = parse(html)
        assert_in_language(visible_text(doc), LANGUAGE[ON_THE_PAGE], f"page {self.pages}")
        self.pages += 1
        return doc

    def play(self) -> None:
        """One decision, to its end."""
        doc = self.read(self.client.get(f"/games/{self.game_id}", base_url=HTTPS))
        for _ in range(60):
            form = doc.find("form", cls="moves")
            plan = doc.find("section", cls="plan")
            if plan is not None and (form is None or self.rng.random() < 0.2):
                self.confirm(plan)
                return
            assert form is not None, "the page offers the seat no move"
            fields = {i.get("name"): i.get("value") for i in form.find_all("input")}
            moves = [b.get("value") for b in form.find_all("button", name="move")]
            fields["move"] = self.rng.choice(moves)
            if form.get("method") == "get":  # a turn: planned, not played yet
                # The path alone, as a browser sends it: `#your-turn` is where the page opens.
                action = form.get("action").partition("#")[0]
                planned = self.client.get(action, query_string=fields, base_url=HTTPS)
                doc = self.read(planned)
                continue
            response = self.client.post(form.get("action"), data=fields, base_url=HTTPS)
            assert response.status_code == 303, response.get_data(as_text=True)[:2000]
            self.played.append(json.loads(fields["move"]))
            return
        raise AssertionError("a turn planned for 60 steps")

    def confirm(self, plan: Node) -> None:
        form = plan.find("form")
        fields = {i.get("name"): i.get("value") for i in form.find_all("input")}
        response = self.client.post(form.get("action"), data=fields, base_url=HTTPS)
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        self.played += json.loads(fields["moves"])


#: The game's seed, fixed so that every run plays the same game: in this one a whole turn of
#: the French player's holds a "take from" line below the first (which the reply parser takes
#: for the start of a signature), with the iPhone's signature below it.
GAME_SEED = 12


@pytest.mark.parametrize("seed", [3])
def test_four_languages_play_one_game_by_mail_and_page(mail_app, mail_api, smtp, monkeypatch, seed):
    monkeypatch.setattr("pbem.play.lifecycle.secrets.randbits", lambda bits: GAME_SEED)
    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 100_000
    tag = uuid.uuid4().hex[:6]
    emails = {c: f"{c}-{tag}@example.org" for c in LANGUAGE}
    keys = {c: mail_api.register(e, c.title()) for c, e in emails.items()}
    for colour, key in keys.items():
        chosen = {"language": LANGUAGE[colour]}
        put = mail_api.client.put(
            "/api/players/me/preferences", json=chosen, headers=mail_api.auth(key)
        )
        assert put.status_code == 200
    body = {
        "title": f"Quattro {tag}",
        "seats": [{"email": e, "colour": c} for c, e in emails.items()],
        "options": {"rounds": 6},
        "language": "it",  # the game's: for no one here, who each chose their own
    }
    made = mail_api.client.post("/api/games", json=body, headers=mail_api.auth(keys["red"]))
    assert made.status_code == 201, made.get_json()
    game_id = made.get_json()["id"]
    rng = random.Random(seed)
    page = PageSeat(mail_app, game_id, ON_THE_PAGE, rng)
    played: list[tuple[str, dict]] = []  # every move, in the order it was sent
    read = dict.fromkeys(emails, 0)
    in_their_words = 0  # replies that named a place or card in the writer's language
    for _ in range(1000):
        deliver(mail_app)
        for colour, email in emails.items():  # every mail read, each in its language
            inbox = smtp.inbox.to(email)
            for mail in inbox[read[colour] :]:
                check_mail(mail, LANGUAGE[colour])
        view = mail_api.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            break
        for colour in sorted({p["player"] for p in view["pending"]}):
            language = LANGUAGE[colour]
            if colour == ON_THE_PAGE:
                before = len(page.played)
                page.play()
                played += [(colour, m) for m in page.played[before:]]
                continue
            inbox = smtp.inbox.to(emails[colour])
            fresh = [m for m in inbox[read[colour] :] if heading(EXAMPLE, language) in body_text(m)]
            assert len(fresh) == 1, (colour, [str(m["Subject"]) for m in inbox[read[colour] :]])
            lines = answer(body_text(fresh[0]), language, rng)
            written = "\n".join(in_own_words(line, language) for line in lines)
            in_their_words += written != "\n".join(lines)
            raw = reply(
                fresh[0],
                written,
                sender=emails[colour],
                style=STYLE[colour],
                language=language,
            )
            seq = mail_api.get(f"/api/games/{game_id}").get_json()["seq"]
            result = inbound(mail_app, raw)
            assert result.outcome == "played", (written, result)
            # The same lines in English name the same moves.
            state, recorded = logged(mail_app, game_id, seq)
            english = engine.parse_moves("\n".join(lines), state, colour)
            assert recorded == english, (written, recorded, english)
            played += [(colour, m) for m in recorded]
        for colour, email in emails.items():
            read[colour] = len(smtp.inbox.to(email))
    else:
        raise AssertionError("the game did not end in 1000 decisions")
    deliver(mail_app)
    for colour, email in emails.items():
        for mail in smtp.inbox.to(email)[read[colour] :]:
            check_mail(mail, LANGUAGE[colour])
    record = mail_api.get(f"/api/games/{game_id}/record").get_json()
    assert engine.is_over(replay_record(record))
    assert [(m["player"], m["move"]) for m in record["moves"]] == played
    assert page.pages > 20 and in_their_words > 5 and {c for c, _ in played} == set(LANGUAGE)
    # No reply held words for the table: the French iPhone's "Envoyé de mon iPhone" is no word.
    with mail_app.app_context():
        talk = db.session.execute(db.select(TableTalk.text)).scalars().all()
        db.session.remove()
    assert talk == []
    # The end is told to each in their language.
    for colour, email in emails.items():
        over = heading("the game is over", LANGUAGE[colour])
        told = [m for m in smtp.inbox.to(email) if over in str(m["Subject"])]
        assert len(told) == 1 and html_lang(body_html(told[0])) == LANGUAGE[colour]
