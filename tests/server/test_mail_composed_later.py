"""The mails a move causes are composed by the sender, after the move's commit, from rows
that name what happened: the move's transaction writes no subject or body, and a mail about
move N composed after later moves still says what it said at N."""

from __future__ import annotations

import random
import re
from email import message_from_string, policy

import sqlalchemy as sa

from pbem import words
from pbem.extensions import db
from pbem.notify import composing, sender
from pbem.store.models import Notification
from tests.server.mail_helpers import body_text
from tests.server.test_mail_preferences import prefs


def play_one(api, game_id, keys, rng) -> tuple[str, int]:
    """One random legal move of a seat that must act; (its colour, the seq after it)."""
    view = api.get(f"/api/games/{game_id}").get_json()
    colour = sorted({p["player"] for p in view["pending"]})[0]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    played = api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"])
    assert played.status_code == 201, played.get_json()
    return colour, played.get_json()["seq"]


def scores(api, game_id) -> dict[str, int]:
    view = api.get(f"/api/games/{game_id}").get_json()
    return {colour: seat["score"] for colour, seat in view["players"].items()}


def rows_after(app, game_id, after_id) -> list:
    with app.app_context():
        rows = db.session.execute(
            sa.select(Notification)
            .where(Notification.game_id == game_id, Notification.id > after_id)
            .order_by(Notification.id)
        ).scalars()
        out = [
            (r.id, r.kind, r.status, r.message, r.payload, r.recipient, r.player_id) for r in rows
        ]
        db.session.remove()
    return out


def last_id(app) -> int:
    with app.app_context():
        found = db.session.execute(sa.select(sa.func.max(Notification.id))).scalar() or 0
        db.session.remove()
    return found


def composed_now(app, row_id) -> str:
    """What the sender would compose for the row now, leaving the row as it is."""
    with app.app_context():
        row = db.session.execute(
            sa.select(Notification.__table__).where(Notification.id == row_id)
        ).one()
        text = composing.composed(row, composing.Reads())
        db.session.remove()
    return text


def kept(app, row_id) -> str:
    with app.app_context():
        sender.compose_queued()
        text = db.session.get_one(Notification, row_id).message
        db.session.remove()
    return text


def same_mail(raw: str) -> str:
    """A mail without what differs each time one is composed (its date, its id's random part,
    the MIME boundaries)."""
    raw = re.sub(r"(?m)^Date: .*$", "Date: -", raw)
    raw = re.sub(r"(?m)^(Message-ID: <g\d+\.[a-z]+\.s\d+)\.[0-9a-f]+@", r"\1.-@", raw)
    return re.sub(r"={15}\d+==", "=boundary=", raw)


def test_a_moves_mails_are_rows_naming_it_and_say_the_same_after_the_next_move(mail_app, mail_api):
    game_id, keys = mail_api.new_game(["red", "blue", "green"], options={"rounds": 6})
    for colour in keys:
        prefs(mail_api, keys[colour], mail={"every_move": True})
    rng = random.Random(3)
    before = last_id(mail_app)
    mover, seq = play_one(mail_api, game_id, keys, rng)
    written = rows_after(mail_app, game_id, before)
    moved = [r for r in written if r[1] == "every_move"]
    assert len(moved) == 2  # to the two others, not the mover
    # The move's transaction wrote what happened, no subject nor body.
    assert all(message == "" for _, _, _, message, _, _, _ in written), written
    for _, _, status, _, payload, _, _ in moved:
        assert status == "queued"
        assert payload["after"] == seq - 1 and payload["seq"] == seq
        assert payload["seen"] == [payload["colour"]] and payload["colour"] != mover
    at_once = {row_id: composed_now(mail_app, row_id) for row_id, *_ in moved}
    # Another move is played before the sender composes them.
    next_mover, _ = play_one(mail_api, game_id, keys, rng)
    log = mail_api.get(f"/api/games/{game_id}/log", keys[mover]).get_json()["moves"]
    said, then = log[seq - 1], log[seq]
    for row_id, *_ in moved:
        later = kept(mail_app, row_id)
        assert same_mail(later) == same_mail(at_once[row_id])
        mail = message_from_string(later, policy=policy.default)
        assert str(mail["Subject"]).endswith(f"{mover} played")
        text = body_text(mail)
        # Move N as its readers see it (a power card is shown once played), in words, not
        # move N + 1.
        cards = words.cards_of(log)
        assert f"{mover}: {words.entry_words(said, cards[seq - 1], own=False)}" in text
        assert f"{next_mover}: {words.entry_words(then, cards[seq], own=False)}" not in text


def test_a_scoring_mail_composed_after_later_moves_says_what_it_said_at_its_move(
    mail_app, mail_api
):
    game_id, keys = mail_api.new_game(["red", "blue"], options={"rounds": 6})
    rng = random.Random(7)
    scoring: list = []
    while not scoring:
        before = last_id(mail_app)
        _, seq = play_one(mail_api, game_id, keys, rng)
        written = rows_after(mail_app, game_id, before)
        scoring = [r for r in written if r[1] == "scoring"]
    assert len(scoring) == 2
    assert all(message == "" for _, _, _, message, _, _, _ in written), written
    for _, _, _, _, payload, _, _ in scoring:
        assert payload["seq"] == seq and payload["after"] < seq
    at_once = {row_id: composed_now(mail_app, row_id) for row_id, *_ in scoring}
    # Played on until the standings have changed (a special scoring, at the latest the end).
    scored = scores(mail_api, game_id)
    while scores(mail_api, game_id) == scored:
        play_one(mail_api, game_id, keys, rng)
    for row_id, *_ in scoring:
        later = kept(mail_app, row_id)
        assert same_mail(later) == same_mail(at_once[row_id])
        assert f".s{seq}." in str(message_from_string(later, policy=policy.default)["Message-ID"])


def test_a_row_that_cannot_be_composed_fails_alone_and_the_others_are_kept(
    mail_app, mail_api, monkeypatch
):
    game_id, keys = mail_api.new_game(["red", "blue", "green"], options={"rounds": 6})
    for colour in keys:
        prefs(mail_api, keys[colour], mail={"every_move": True})
    play_one(mail_api, game_id, keys, random.Random(3))
    waiting = [r for r in rows_after(mail_app, game_id, 0) if r[3] == ""]  # the game's
    assert len(waiting) >= 2
    broken = waiting[0][0]
    compose = composing.composed

    def composed(row, reads):
        if row.id == broken:
            raise ValueError("a bug in a template")
        return compose(row, reads)

    monkeypatch.setattr(composing, "composed", composed)
    with mail_app.app_context():
        assert sender.compose_queued() == len(waiting)
        db.session.remove()
    after = {r[0]: r for r in rows_after(mail_app, game_id, 0)}
    with mail_app.app_context():
        failed = db.session.get_one(Notification, broken)
        assert (failed.status, failed.last_error) == ("failed", "composing: a bug in a template")
        db.session.remove()
    assert after[broken][3] == ""  # nothing composed is kept for it, and nothing is sent
    for row_id, *_ in waiting[1:]:
        assert after[row_id][2] == "queued" and after[row_id][3].startswith(("From:", "Date:"))
        assert after[row_id][3] == kept(mail_app, row_id)  # kept once: a later pass leaves it


def test_only_the_sender_queues_a_mail_composed_already():
    """No transaction draws a mail: outside the sender (a digest it gathers), every mail is
    queued as what it says (`outbox.row` with a payload) and composed by the sender; the
    one way to queue a mail composed already, `outbox.rows_for`, is the sender's alone."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "pbem"
    callers = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                called = node.func
                name = (
                    called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
                )
                if name == "rows_for":
                    callers.add(path.relative_to(root).as_posix())
    assert callers == {"notify/sender.py"}
