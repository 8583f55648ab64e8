"""A whole decision in one reply: four players play a whole game through `pbem mail smtpd`
(the SMTP listener) into a real aiosmtpd sink, each answering every decision mail with one
reply that holds all of it, written from what that mail shows (its power cards, action
cards, where caballeros may go, its worked example) and never from the API."""

from __future__ import annotations

import random
import re

import pytest
import sqlalchemy as sa

import engine
from pbem.extensions import db
from pbem.mailin.smtpd import Listener
from tests.server.helpers import replay_record
from tests.server.mail_helpers import body_text, free_port
from tests.server.mailin_helpers import reply, send_smtp
from tests.server.test_mail_out import addresses_of, deliver

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

EXAMPLE = "A whole answer in one reply, for example:"
CHAT_SHARE = 0.2
#: Every LISTED-th reply, if it holds several moves, is typed as a list: `- take 3`.
LISTED = 3
CHAT = ["Good luck everyone!", "Sorry, that one was for you, Ann.", "Nice move!"]


def section(text: str, heading: str) -> list[str]:
    """The indented lines under a heading of a mail's text."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        return []
    found = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        if not line.startswith("    "):  # a wrapped line's rest is indented further
            found.append(line.strip())
    return found


def own_turn(text: str, rng: random.Random) -> list[str] | None:
    """A whole turn of the player's own choosing, from the mail: take what the power card
    allows, choose a card the mail lists, place its caballeros where the mail says they may
    go, and skip its special action. None where the mail does not offer a whole turn."""
    allowed = re.search(
        r"lets you take up to (\d+) caballeros? from your province \((\d+)\) "
        r"into\s+your court \((\d+)\)",
        text,
    )
    places = re.search(r"caballeros may be placed in (.*?)\.\n", text, re.S)
    cards = section(text, "The action cards face up")
    if not (allowed and places and cards):
        return None
    most, province, court = (int(n) for n in allowed.groups())
    take = min(most, province)
    card = rng.choice(cards)
    notation, count = re.match(r"(card \S+(?: \d)?)\s+(\d)\s", card).groups()
    where = [p.strip().removeprefix("the ") for p in " ".join(places[1].split()).split(",")]
    lines = [f"take {take}", notation]
    lines += [f"place {rng.choice(where).lower()}" for _ in range(min(int(count), court + take))]
    return [*lines, "skip"]


def answer_for(text: str, rng: random.Random) -> str:
    """One reply answering the decision a mail asks, whole."""
    powers = section(text, "The power cards you may play:")
    if powers:
        return rng.choice(powers).split(" (")[0]
    lines = section(text, EXAMPLE)
    assert lines, text
    if rng.random() < 0.5:
        lines = own_turn(text, rng) or lines
    return "\n".join(lines)


def test_four_players_answer_each_decision_with_one_reply(mail_app, mail_api, smtp, capsys):
    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 100_000
    port = free_port()
    listener = Listener(mail_app, host="127.0.0.1", port=port)
    listener.start()
    try:
        game_id, _ = mail_api.new_game(["red", "blue", "green", "yellow"], options={"rounds": 6})
        seats = dict(addresses_of(mail_app, game_id))
        rng = random.Random(5)
        seen = dict.fromkeys(seats, 0)  # how many of each seat's mails were read
        decisions = replies = chats = listed = 0
        while True:
            deliver(mail_app)
            if mail_api.get(f"/api/games/{game_id}").get_json()["status"] != "active":
                break
            waiting = {}
            for colour, email in seats.items():
                inbox = smtp.inbox.to(email)
                fresh = [m for m in inbox[seen[colour] :] if EXAMPLE in body_text(m)]
                seen[colour] = len(inbox)
                assert len(fresh) <= 1, "a seat was asked twice before it answered"
                if fresh:
                    waiting[colour] = fresh[0]
                    decisions += 1
            if not waiting:
                pending = mail_api.get(f"/api/games/{game_id}").get_json()["pending"]
                last = smtp.inbox.to(seats[pending[0]["player"]])[-1]
                raise AssertionError(f"{pending}\n{last['Subject']}\n{body_text(last)}")
            for colour, mail in sorted(waiting.items()):
                text = body_text(mail)
                body = answer_for(text, rng)
                if "\n" in body and replies % LISTED == 0:
                    # Typed as a list (the reply parser takes a hyphen's list for a
                    # signature: it must still be played whole).
                    listed += 1
                    body = "\n".join(f"- {line}" for line in body.split("\n"))
                if rng.random() < CHAT_SHARE:
                    chats += 1
                    words = rng.choice(CHAT)
                    # Words to the table, before the moves or after them.
                    body = f"{words}\n{body}" if chats % 2 else f"{body}\n{words}"
                raw = reply(mail, body, sender=seats[colour])
                assert send_smtp(port, raw, seats[colour], [str(mail["Reply-To"])]) == {}
                replies += 1
            assert replies < 1000
        with mail_app.app_context():
            talk = db.session.execute(sa.text("SELECT text FROM table_talk")).scalars().all()
            outcomes = dict(
                db.session.execute(
                    sa.text("SELECT outcome, COUNT(*) FROM inbound_mails GROUP BY outcome")
                ).all()
            )
            db.session.remove()
        assert outcomes == {"played": replies}
        assert replies == decisions
        assert len(talk) == chats and set(talk) <= set(CHAT)
        assert listed > 5
        relayed = [
            m
            for e in seats.values()
            for m in smtp.inbox.to(e)
            if str(m["Subject"]).endswith(" says")
        ]
        assert len(relayed) == 3 * chats  # to each of the three others
        record = mail_api.get(f"/api/games/{game_id}/record").get_json()
        assert engine.is_over(replay_record(record))
        with capsys.disabled():
            print(
                f"\n[whole turns by mail] {len(record['moves'])} moves from {replies} replies "
                f"to {decisions} decision mails ({chats} with a word to the table, "
                f"{listed} typed as a list)"
            )
    finally:
        listener.stop()
