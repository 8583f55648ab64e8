"""A whole game by mail, in words: one seat answers its mails, greedy house bots hold the
others, on a seed no other test plays, over six rounds, the seat's language changed each
round so that each of the six is read. Every answer to a reply says what its moves did (the
places scored, where caballeros went, the picks revealed, the king and the grande moved);
no line of a mail, an answer or the seat's page holds an engine identifier (a card's, a
move's, an option's or a region's id: `score_first_places`, `special_region`,
`basque_country`) but the lines that show what to type. Mails are read as the sender
composes them, in-process; nothing is delivered.

Beside it, the words themselves, where they are decided: every move and effect of three
random games' logs, said as the story, the answers and the log say them, in all six
languages, names no identifier either.
"""

from __future__ import annotations

import random
import re
from email import message_from_string, policy
from email.message import EmailMessage

import pytest
import sqlalchemy as sa

import engine
from engine.data import CARD_STACKS, PLACES, REGIONS
from engine.notation import verb_words
from pbem import create_app, words
from pbem.extensions import db
from pbem.game.states import current_state
from pbem.languages import LANGUAGES, _, in_language
from pbem.notify.sender import compose_queued
from pbem.schedule.sweep import sweep
from pbem.store.models import Notification, Player
from tests.server.conftest import Api, empty_tables
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import reply
from tests.server.test_mail_in import inbound
from tests.web.helpers import sign_in_seat
from tests.web.html import parse
from tests.web.test_no_internal_words import KINDS
from tests.web.test_pseudo_language import visible_text

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

#: Ids that are also the game's words in English prose ("the king", "your grande", "a
#: veto", "place", "allow"): a line may say them.
ALSO_WORDS = {"king", "veto", "grande", "place", "target", "allow"}
#: The engine's ids a reader never reads outside the lines that show what to type: the
#: cards', the moves', the options', the places', and the decisions' kinds besides.
IDS = {*CARD_STACKS, *engine.MOVE_TYPES, "court_two", "own_region", *PLACES}
IDS = (IDS | {kind for kind in KINDS if "_" in kind}) - ALSO_WORDS
#: An id, a None, or a turn's step as a view names it ("(draw)").
IDENTIFIER = re.compile(r"\b(" + "|".join(sorted(IDS)) + r"|None)\b|(\((?:draw|act|special)\))")
#: The blocks that tell what was played and what happened: words only, every line.
TOLD = ("Played:", "Since your last move:", "This round so far:")
HUMAN = "reader@example.org"
SEED = 905_117  # a seed no other test plays


def ids_in(text: str) -> list[str]:
    return [match[0] for match in IDENTIFIER.finditer(text)]


def shows_what_to_type(line: str, state: engine.State, colour: str) -> bool:
    """Whether `line` is a line of the notation (one the engine reads as a move, legal or
    not, here): a move listed, an example."""
    if not line or line.split()[0].lower() not in verb_words():
        return False
    try:
        engine.parse_move(line, state, colour)
    except engine.NotationError:
        return False
    except engine.IllegalMove:
        return True  # well-formed, if not legal now
    return True


def identifiers(text: str, state: engine.State, colour: str, told: tuple[str, ...]) -> list:
    """The ids in `text`'s prose: every line but the notation's, column by column (a move
    listed, then its gloss after a "#"; a card's notation, then its number and its text);
    an example after ": " is notation, the words before it prose. Every line of the blocks
    headed by one of `told` (what was played and what happened) counts, whatever it is."""
    found, strict = [], False
    for raw in text.splitlines():
        line = raw.strip()
        strict = line in told or (strict and bool(line))
        said = [line]
        if not IDENTIFIER.search(line):
            continue  # nothing to find, whatever the line is
        if not strict:
            said = [c for c in re.split(r" {2,}", line) if not shows(c, state, colour)]
            said = [_before_example(c, state, colour) for c in said]
        found += [(match, raw) for part in said for match in ids_in(part)]
    return found


def shows(column: str, state: engine.State, colour: str) -> bool:
    """Whether a column of a line is notation (a gloss, after "#", is words)."""
    return not column.startswith("#") and shows_what_to_type(column, state, colour)


def _before_example(column: str, state: engine.State, colour: str) -> str:
    before, _colon, example = column.rpartition(": ")
    return before if example and shows_what_to_type(example, state, colour) else column


# -- the words where they are decided ---------------------------------------------------------


def random_log(colours: list[str], seed: int) -> list[engine.LogEntry]:
    rng = random.Random(seed)
    state = engine.new_game(colours, seed=seed, options={"rounds": 6})
    log: list[engine.LogEntry] = []
    while not engine.is_over(state):
        colour = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
        move = rng.choice(engine.legal_moves(state, colour))
        state, events = engine.apply(state, colour, move)
        log.append({"seq": len(log) + 1, "player": colour, "move": move, "events": events})
    return log


@pytest.fixture(scope="module")
def words_app():
    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_no_move_or_effect_is_told_with_an_identifier_in_any_language(words_app, seed):
    colours = ["red", "blue", "green", "yellow", "brown"][: 3 + seed % 3]
    log = random_log(colours, seed)
    names = {c: c.title() for c in colours}
    found = {}
    with words_app.app_context():
        for language in LANGUAGES:
            with in_language(language):
                for reader in (colours[0], None):
                    shown = engine.visible_log(log, {reader} if reader else set())
                    told = words.story(shown, names, reader)
                    told += words.played_lines(shown, names, reader)
                    for entry, card in zip(shown, words.cards_of(shown), strict=True):
                        told.append(words.entry_words(entry, card, own=False))
                    found[language, reader] = sorted({m for line in told for m in ids_in(line)})
                    assert len(told) > len(log), (language, reader)
    assert {key: ids for key, ids in found.items() if ids} == {}


# -- a whole game by mail ------------------------------------------------------------------


@pytest.fixture
def game_app(database_url):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "MAIL_FROM": "El Grande <play@pbem.example>",
            "PBEM_BASE_URL": "https://pbem.example",
        }
    )
    yield app
    empty_tables(app)


#: The moves the seat prefers, first first: a card's action done whole, then placing.
PREFERRED = ("play_power_card", "take_caballeros", "choose_card", "castillo_pick", "secret_pick")
ACTING = frozenset(words.card_moves.SPECIAL_KINDS) - {"skip_special", "end_special", "veto"}


def choose(legal: list[engine.Move], rng: random.Random) -> engine.Move:
    """The seat's move: a card's action where it may (every step of it), else a card with
    an action (the King card last), the most caballeros taken, then placing; the turn ends
    last."""
    acting = [m for m in legal if m["type"] in ACTING]
    if acting:
        return rng.choice(acting)
    cards = [m for m in legal if m["type"] == "choose_card"]
    if cards:
        return rng.choice([m for m in cards if m["card"] != "king"] or cards)
    takes = [m for m in legal if m["type"] == "take_caballeros"]
    if takes:
        return max(takes, key=lambda m: m["count"])
    for kind in ("play_power_card", "castillo_pick", "return_caballero", "place"):
        of_kind = [m for m in legal if m["type"] == kind]
        if of_kind:
            return rng.choice(of_kind)
    return next((m for m in legal if m["type"] == "end_turn"), legal[0])


def whole_answer(state: engine.State, colour: str, rng: random.Random) -> list[engine.Move]:
    """A reply's moves: the seat's decision answered whole, stopping where something is
    revealed (the next moves would be chosen blind)."""
    asked = next(p["kind"] for p in engine.pending(state) if p["player"] == colour)
    moves: list[engine.Move] = []
    while len(moves) < 40:
        legal = engine.legal_moves(state, colour)
        if not legal:
            break
        move = choose(legal, rng)
        state, events = engine.apply(state, colour, move)
        moves.append(move)
        now = [p["kind"] for p in engine.pending(state) if p["player"] == colour]
        if engine.reveals_hidden(events) or asked not in now:
            break
    return moves


def seat_mails(app, player_id: int, after: int) -> list[tuple[int, str, EmailMessage]]:
    """The seat's mails queued after row `after`, composed as the sender composes them."""
    with app.app_context():
        compose_queued()
        rows = db.session.execute(
            sa.select(Notification.id, Notification.kind, Notification.message)
            .where(Notification.player_id == player_id, Notification.id > after)
            .where(Notification.channel == "mail")
            .order_by(Notification.id)
        ).all()
        db.session.remove()
    return [(r.id, r.kind, message_from_string(r.message, policy=policy.default)) for r in rows]


def places_told(entries: list[dict]) -> list[str]:
    """The regions the events of these moves name: a place scored, where caballeros went
    from or to, the king's and a grande's new region, a scoreboard's, a pick revealed."""
    places = []
    for entry in entries:
        for event in entry["events"]:
            kind = event["type"]
            if kind == "score":
                places.append(event["place"])
            elif kind == "caballeros_moved":
                places += [event["from"], event["to"]]
            elif kind in ("king_moved", "grande_moved", "scoreboard_moved"):
                places.append(event["to"])
            elif kind in ("secret_picks_revealed", "castillo_revealed"):
                places += list(event["picks"].values())
    return [p for p in places if p in REGIONS]


class Seat:
    """The seat played by mail: its game, key, player, language, what it was told."""

    def __init__(self, app, api: Api, game_id: int, key: str) -> None:
        self.app, self.api, self.game_id, self.key = app, api, game_id, key
        with app.app_context():
            self.player_id = db.session.execute(
                sa.select(Player.id).where(Player.email == HUMAN)
            ).scalar_one()
            db.session.remove()
        self.language = "en"
        self.last_row = 0
        self.decision: EmailMessage | None = None
        self.found: dict[str, list] = {}
        self.answered_with_results = 0
        self.scorings_told = 0
        self.kinds: list[str] = []

    def speak(self, language: str) -> None:
        self.language = language
        answer = self.api.client.put(
            "/api/players/me/preferences",
            json={"language": language},
            headers=self.api.auth(self.key),
        )
        assert answer.status_code == 200, answer.get_json()

    def state(self) -> engine.State:
        """The game now, secrets and all (what a line of the notation is read against)."""
        with self.app.app_context():
            seq, seed = db.session.execute(
                sa.text("SELECT seq, seed FROM games WHERE id = :id"), {"id": self.game_id}
            ).one()
            state = current_state(self.game_id, seed, seq)
            db.session.remove()
        return state

    def read_mails(self) -> list[tuple[str, EmailMessage]]:
        """The seat's new mails, each checked for identifiers in its prose."""
        mails = seat_mails(self.app, self.player_id, self.last_row)
        state = self.state()
        with self.app.app_context(), in_language(self.language):
            told = tuple(_(head) for head in TOLD)
        for row_id, kind, mail in mails:
            self.kinds.append(kind)
            self.last_row = row_id
            text = f"{mail['Subject']}\n{body_text(mail)}"
            found = identifiers(text, state, "red", told)
            if found:
                self.found[f"{self.language} {kind} {row_id}"] = found
            if kind in ("decision", "reminder"):
                self.decision = mail
        return [(kind, mail) for _, kind, mail in mails]

    def answer(self, rng: random.Random) -> None:
        """Reply to the latest decision mail with a whole answer, and read the answer: it
        says in words what each move did, naming every region its results name."""
        assert self.decision is not None, self.kinds[-5:]
        before = self.api.get(f"/api/games/{self.game_id}").get_json()["seq"]
        moves = whole_answer(self.state(), "red", rng)
        text = "\n".join(engine.format_move(m) for m in moves)
        result = inbound(self.app, reply(self.decision, text, sender=HUMAN))
        assert result.outcome == "played", (result, text)
        self.decision = None
        log = self.api.get(f"/api/games/{self.game_id}/log", self.key).get_json()["moves"]
        played = [e for e in log if before < e["seq"] <= result.seq and e["player"] == "red"]
        assert [e["move"] for e in played] == moves
        answers = [mail for kind, mail in self.read_mails() if kind == "answer"]
        assert len(answers) == 1, answers
        with self.app.app_context(), in_language(self.language):
            head = _("Played:")
            named = [words.place_name(p) for p in places_told(played)]
        block = body_text(answers[0]).split(f"{head}\n", 1)[1].split("\n\n", 1)[0]
        assert len(block.splitlines()) >= len(moves), block
        missing = [name for name in named if name not in block]
        assert not missing, (self.language, missing, block)
        self.answered_with_results += bool(named)
        self.scorings_told += any(ev["type"] == "score" for e in played for ev in e["events"])

    def read_page(self, client, language: str) -> None:
        """The seat's page in `language`: no identifier in what it says."""
        client.get(f"/language/{language}")
        html = client.get(f"/games/{self.game_id}").get_data(as_text=True)
        doc = parse(html)
        with self.app.app_context(), in_language(language):
            told = tuple(_(head) for head in TOLD)
        found = identifiers(visible_text(doc), self.state(), "red", told)
        # The story, the log's words (beside its notation), the guide, the buttons and what
        # they say when pointed at, the notice of the moves played: words only.
        since = doc.find("section", cls="since")
        strict = [node.text for node in doc.find_all("span", cls="text")]
        strict += [node.text for node in since.find_all("li")] if since else []
        strict += [node.text for node in doc.find_all("p", cls="guide")]
        strict += [node.text for node in doc.find_all("p", cls="flash")]
        buttons = doc.find_all("button")
        strict += [node.text for node in buttons] + [node.get("title") or "" for node in buttons]
        found += [(m, line) for line in strict for m in ids_in(line)]
        if found:
            self.found[f"{language} page {len(self.found)}"] = found


def new_game(api: Api, monkeypatch) -> tuple[int, str]:
    monkeypatch.setattr("pbem.play.lifecycle.secrets.randbits", lambda bits: SEED)
    key = api.register(HUMAN, "Reader")
    seats = [{"email": HUMAN, "colour": "red"}]
    seats += [{"colour": c, "bot": True, "level": "greedy"} for c in ("blue", "green")]
    made = api.client.post(
        "/api/games",
        json={"title": "In words", "seats": seats, "options": {"rounds": 6}},
        headers=api.auth(key),
    )
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"], key


def test_a_game_by_mail_says_every_result_in_words_in_six_languages(game_app, monkeypatch):
    api = Api(game_app.test_client())
    game_id, key = new_game(api, monkeypatch)
    seat = Seat(game_app, api, game_id, key)
    page_client = game_app.test_client()
    sign_in_seat(game_app, page_client, game_id, "red")
    rng = random.Random(SEED)
    spoken: list[str] = []
    pages_read = 0
    for _step in range(300):
        with game_app.app_context():
            sweep()  # the bots play
            db.session.remove()
        view = api.get(f"/api/games/{game_id}").get_json()
        language = list(LANGUAGES)[(view["round_number"] - 1) % len(LANGUAGES)]
        new_round = language != seat.language or not spoken
        if new_round:
            seat.speak(language)
            spoken.append(language)
        seat.read_mails()
        if view["status"] != "active":
            break
        if any(p["player"] == "red" for p in view["pending"]):
            # The page in the seat's language; in all six at a round's first decision.
            for each in LANGUAGES if new_round else [language]:
                seat.read_page(page_client, each)
                pages_read += 1
            seat.answer(rng)
    assert view["status"] == "finished", view["status"]
    seat.read_mails()  # the game's end
    for each in LANGUAGES:  # the final scoring's page
        seat.read_page(page_client, each)
    assert pages_read > 40, pages_read
    assert set(spoken) == set(LANGUAGES), spoken
    assert seat.answered_with_results >= 5 and seat.scorings_told >= 1, (
        seat.answered_with_results,
        seat.scorings_told,
    )
    assert seat.found == {}, "\n".join(f"{k}: {v}" for k, v in seat.found.items())
