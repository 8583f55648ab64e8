"""End to end: three players play a whole 6-round game only by replying, through the SMTP
door, to the mails they receive, each move picked from the moves the mail lists."""

from __future__ import annotations

import random
import time

import pytest
import sqlalchemy as sa

import engine
from pbem.extensions import db
from pbem.mailin.smtpd import Listener
from tests.server.helpers import replay_record
from tests.server.mail_helpers import body_text, free_port
from tests.server.mailin_helpers import moves_listed, reply, send_smtp
from tests.server.test_mail_out import addresses_of, deliver

#: The mail door's whole game: reading replies comes out the same on every database (the
#: PostgreSQL pass plays whole games through the API: test_play, test_mail_out).
pytestmark = pytest.mark.database_free

STYLES = [
    ("gmail", "en", "text"),
    ("outlook", "fr", "html"),
    ("apple", "en", "text"),
    ("thunderbird", "de", "html"),
    ("thunderbird", "en", "flowed"),
    ("gmail", "de", "alternative"),
]


def test_three_players_play_a_whole_game_by_reply(mail_app, mail_api, smtp, capsys):
    mail_app.config["MAIL_ANSWERS_PER_HOUR"] = 100_000
    port = free_port()
    listener = Listener(mail_app, host="127.0.0.1", port=port)
    listener.start()
    started = time.perf_counter()
    try:
        game_id, keys = mail_api.new_game(["red", "blue", "green"], options={"rounds": 6})
        seats = dict(addresses_of(mail_app, game_id))
        rng = random.Random(11)
        replied = dict.fromkeys(seats, -1)  # index of the last mail each seat answered
        sent = refused = 0
        while True:
            deliver(mail_app)
            if mail_api.get(f"/api/games/{game_id}").get_json()["status"] != "active":
                break
            waiting = {}
            for colour, email in seats.items():
                inbox = smtp.inbox.to(email)
                newer = [
                    i for i in range(replied[colour] + 1, len(inbox)) if moves_listed(inbox[i])
                ]
                if newer:
                    waiting[colour] = newer[-1]
            assert waiting, "nobody has a mail to answer, and the game is not over"
            colour = rng.choice(sorted(waiting))
            index = waiting[colour]
            mail = smtp.inbox.to(seats[colour])[index]
            replied[colour] = index
            move = rng.choice(moves_listed(mail))
            style, language, kind = STYLES[sent % len(STYLES)]
            raw = reply(mail, move, sender=seats[colour], style=style, language=language, kind=kind)
            assert send_smtp(port, raw, seats[colour], [str(mail["Reply-To"])]) == {}
            sent += 1
            assert sent < 3000
        elapsed = time.perf_counter() - started
        with mail_app.app_context():
            sources = (
                db.session.execute(
                    sa.text("SELECT DISTINCT source FROM moves WHERE game_id = :g"), {"g": game_id}
                )
                .scalars()
                .all()
            )
            outcomes = dict(
                db.session.execute(
                    sa.text("SELECT outcome, COUNT(*) FROM inbound_mails GROUP BY outcome")
                ).all()
            )
            db.session.remove()
        refused = outcomes.get("refused", 0)
        assert sources == ["email"]
        assert outcomes["played"] + refused == sent, outcomes
        # Refusals only for mails overtaken by others' moves (a pick made final meanwhile):
        # a move picked from a mail's list is never refused while its decision is open.
        answers = [
            body_text(m)
            for email in seats.values()
            for m in smtp.inbox.to(email)
            if "nothing was played" in str(m["Subject"])
        ]
        assert len(answers) == refused
        reasons = [a.split("\n\n")[2] for a in answers if "no longer pending" not in a]
        assert reasons == []
        record = mail_api.get(f"/api/games/{game_id}/record").get_json()
        final = replay_record(record)
        view = mail_api.get(f"/api/games/{game_id}").get_json()
        assert engine.is_over(final)
        assert engine.scores(final) == {c: p["score"] for c, p in view["players"].items()}
        with capsys.disabled():
            print(
                f"\n[mail-in game] {len(record['moves'])} moves from {sent} replies "
                f"({refused} refused as stale) in {elapsed:.1f} s"
            )
    finally:
        listener.stop()
