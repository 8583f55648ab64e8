"""Hints and reviews through the doors: asked by the API, a mail command or the page, worked
out by the scheduler's pass (never in the request), answered with legal moves from the
asker's view; refused with a sentence where the game does not allow them; a game with hints
is not rated; a finished game is reviewed within its budget, kept and mailed."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

import engine
from pbem.extensions import db
from pbem.game.seating import Actor
from pbem.game.states import current_state
from pbem.play import advice
from pbem.store import tables
from pbem.store.models import Game, GameRating
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import reply
from tests.server.test_mail_in import inbound, start
from tests.server.test_mail_out import deliver
from tests.server.test_ratings import play_out

HINTS = {"rounds": 6, "hints": True}


@pytest.fixture
def quick(mail_app):
    """Searches small enough for a test: the figures are the bench's."""
    mail_app.config.update(PBEM_HINT_PLAYOUTS=3, PBEM_REVIEW_PLAYOUTS=2)
    return mail_app


def _answer(app) -> int:
    with app.app_context():
        answered = advice.answer_hints()
        db.session.remove()
    return answered


def _hint(api, game_id, key, query=""):
    return api.get(f"/api/games/{game_id}/hint{query}", key)


def _waiting(api, game_id, key) -> tuple[str, str]:
    """The colour a decision waits on first, and one it does not."""
    pending = [p["player"] for p in api.get(f"/api/games/{game_id}", key).get_json()["pending"]]
    return pending[0], next(c for c in ("red", "blue", "green") if c not in pending)


def test_a_game_without_hints_refuses_them_and_changes_nothing(quick, mail_api):
    game_id, keys, _seats = start(quick, mail_api)
    before = table_snapshot(quick)
    body = assert_problem(_hint(mail_api, game_id, keys["red"]), 409)
    assert body["code"] == "hints-off"
    assert "does not allow hints" in body["detail"]
    assert table_snapshot(quick) == before


def test_a_hint_is_asked_worked_out_by_the_scheduler_and_read_again(quick, mail_api):
    game_id, keys, _seats = start(quick, mail_api, options=HINTS)
    first, _other = _waiting(mail_api, game_id, keys["red"])
    asked = _hint(mail_api, game_id, keys[first])
    assert asked.status_code == 202 and asked.headers["Retry-After"] == "2"
    body = asked.get_json()
    assert (body["answered"], body["moves"], body["colour"], body["seq"]) == (False, [], first, 0)
    assert "working it out" in body["detail"]
    # Asked again, by any door, it is the same one: no second row.
    assert _hint(mail_api, game_id, keys[first]).status_code == 202
    with quick.app_context():
        advice.ask_hint(_holder(quick, game_id, first), game_id, "web")
        db.session.commit()
        count = sa.select(sa.func.count()).select_from(tables.hints)
        assert db.session.execute(count).scalar() == 1
        db.session.remove()
    assert _answer(quick) == 1
    answered = _hint(mail_api, game_id, keys[first])
    assert answered.status_code == 200
    body = answered.get_json()
    assert body["answered"] and not body["moved_on"] and len(body["moves"]) == 3
    with quick.app_context():
        game = db.session.get(Game, game_id)
        legal = engine.legal_moves(current_state(game_id, game.seed, game.seq), first)
        db.session.remove()
    assert all(m["move"] in legal for m in body["moves"])
    values = [m["value"] for m in body["moves"]]
    assert values == sorted(values, reverse=True)
    assert all(m["playouts"] == 3 for m in body["moves"])
    assert body["moves"][0]["text"].startswith("power card ")
    assert body["lines"][0].startswith(f"{body['moves'][0]['text']}: the search's best")
    assert "only what your seat sees" in body["detail"]


def _holder(app, game_id, colour):
    with app.app_context():
        seat = db.session.execute(
            sa.select(tables.seats.c.player_id).where(
                tables.seats.c.game_id == game_id, tables.seats.c.colour == colour
            )
        ).scalar_one()
    return Actor.by_player(seat)


def test_a_hint_only_for_a_decision_that_waits_on_the_seat(quick, mail_api):
    game_id, keys, _seats = start(quick, mail_api, options=HINTS)
    first, other = _waiting(mail_api, game_id, keys["red"])
    body = assert_problem(_hint(mail_api, game_id, keys[other]), 409)
    assert body["code"] == "hint-not-your-decision"
    assert "No decision waits on" in body["detail"]
    body = assert_problem(_hint(mail_api, game_id, keys[other], f"?colour={first}"), 403)
    assert body["code"] == "not-your-colour-to-move"  # nobody asks for another's seat


def test_a_hint_the_seat_outran_is_answered_as_moved_on(quick, mail_api):
    game_id, keys, _seats = start(quick, mail_api, options=HINTS)
    first, _other = _waiting(mail_api, game_id, keys["red"])
    assert _hint(mail_api, game_id, keys[first]).status_code == 202
    move = [{"type": "play_power_card", "card": 2}]
    assert mail_api.post_moves(game_id, keys[first], move, 0).status_code == 201
    assert _answer(quick) == 1
    with quick.app_context():
        row = db.session.execute(sa.select(tables.hints)).one()
        db.session.remove()
    assert row.answered_at is not None and row.advice is None


def test_a_hint_asked_by_mail_comes_back_by_mail(quick, mail_api, smtp):
    game_id, keys, seats = start(quick, mail_api, options=HINTS)
    first, other = _waiting(mail_api, game_id, keys["red"])
    with quick.app_context():
        shown = advice.ask_hint(_holder(quick, game_id, first), game_id, "mail")
        db.session.commit()
        db.session.remove()
    assert not shown["answered"]
    _answer(quick)
    deliver(quick)
    (mail,) = [m for m in smtp.inbox.to(seats[first]) if "your hint" in str(m["Subject"])]
    text = body_text(mail)
    assert "Your hint: the moves the strong bot found best for you now." in text
    assert "1. power card " in text and "2. power card " in text and "points less" in text
    assert "in 3 deals of what you cannot see" in text
    assert not [m for m in smtp.inbox.to(seats[other]) if "your hint" in str(m["Subject"])]


def test_a_game_with_hints_is_reviewed_but_not_rated(quick, mail_api, smtp):
    game_id, keys, seats = start(quick, mail_api, options=HINTS)
    refused = assert_problem(mail_api.get(f"/api/games/{game_id}/review", keys["red"]), 409)
    assert refused["code"] == "review-game-not-over"
    play_out(quick, game_id, seed=4)
    with quick.app_context():
        rated = db.session.execute(sa.select(GameRating).where(GameRating.game_id == game_id))
        assert [r.rated for r in rated.scalars()] == [False, False, False]
        db.session.remove()
    waiting = mail_api.get(f"/api/games/{game_id}/review", keys["red"])
    assert waiting.status_code == 202 and not waiting.get_json()["done"]
    with quick.app_context():
        assert advice.review_one() == game_id
        assert advice.review_one() is None  # reviewed once
        db.session.remove()
    body = mail_api.get(f"/api/games/{game_id}/review", keys["blue"]).get_json()
    assert body["done"] and body["playouts"] == 2
    assert [s["colour"] for s in body["seats"]] == ["red", "blue", "green"]
    for seat in body["seats"]:
        assert seat["reviewed"] == seat["decisions"] >= 6
        for flagged in seat["flagged"]:
            assert flagged["at_stake"] >= 1.0 and flagged["text"].startswith("Round ")
    deliver(quick)
    for colour, address in seats.items():
        (mail,) = [m for m in smtp.inbox.to(address) if "where you lost" in str(m["Subject"])]
        text = body_text(mail)
        assert "The strong bot looked again at" in text
        mine = next(s for s in body["seats"] if s["colour"] == colour)
        for flagged in mine["flagged"]:
            assert flagged["text"] in " ".join(text.split())
            assert f"/games/{game_id}?seq={flagged['seq']}" in text


def test_hint_by_mail_reply_is_answered_then_mailed(quick, mail_api, smtp):
    """A reply holding "hint" (as a mail program writes one, the decision mail quoted
    under it) says the hint is coming; the scheduler's pass mails it to the seat alone."""
    game_id, keys, seats = start(quick, mail_api, options=HINTS)
    first, _other = _waiting(mail_api, game_id, keys["red"])
    decision = [m for m in smtp.inbox.to(seats[first]) if m["Reply-To"]][-1]
    inbound(quick, reply(decision, "hint", sender=seats[first]))
    deliver(quick)
    answer = body_text(smtp.inbox.to(seats[first])[-1])
    assert "working out your hint" in answer
    assert _answer(quick) == 1
    deliver(quick)
    mail = smtp.inbox.to(seats[first])[-1]
    assert "your hint at move 0" in str(mail["Subject"])
    assert "1. power card " in body_text(mail)
    # Asked again by reply once answered, the answer holds the hint itself.
    inbound(quick, reply(decision, "hint", sender=seats[first]))
    deliver(quick)
    again = body_text(smtp.inbox.to(seats[first])[-1])
    assert "Your hint: the moves the strong bot found best" in again
    assert "1. power card " in again


def test_hint_by_mail_in_a_game_without_hints_says_why(quick, mail_api, smtp):
    game_id, keys, seats = start(quick, mail_api)
    decision = [m for m in smtp.inbox.to(seats["red"]) if m["Reply-To"]][-1]
    inbound(quick, reply(decision, "hint", sender=seats["red"]))
    deliver(quick)
    assert "does not allow hints" in body_text(smtp.inbox.to(seats["red"])[-1])
