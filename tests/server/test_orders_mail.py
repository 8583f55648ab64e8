"""Orders by mail: `plan 13 11 9`, `veto allow` and `veto ask` in a reply; what each seat's
mail says when its orders played; and no one else's mail shows them, or comes sooner or
later for them, before they are played."""

from __future__ import annotations

import sqlalchemy as sa

from pbem.extensions import db
from pbem.mailin.replies import _is_move
from pbem.store.models import Notification
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import reply
from tests.server.test_mail_in import inbound, start
from tests.server.test_mail_out import deliver


def outbox(app):
    with app.app_context():
        rows = db.session.execute(
            sa.select(Notification.recipient, Notification.kind).order_by(Notification.id)
        ).all()
        db.session.remove()
    return [tuple(r) for r in rows]


def command(mail_app, smtp, seats, colour, text):
    email = seats[colour]
    result = inbound(mail_app, reply(smtp.inbox.to(email)[0], text, sender=email))
    deliver(mail_app)
    return result, body_text(smtp.inbox.to(email)[-1])


def test_plan_by_mail_is_told_to_its_seat_alone_then_played(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api, options={"rounds": 6, "first_player": "red"})
    before = outbox(mail_app)
    result, text = command(mail_app, smtp, seats, "blue", "plan 13 11 9")
    assert result.outcome == "answered", result
    assert "Power cards ordered: 13, 11, 9." in text
    # The one mail it caused is blue's own answer: nobody else is told anything, at all.
    assert outbox(mail_app)[len(before) :] == [(seats["blue"], "answer")]
    red_mails = len(smtp.inbox.to(seats["red"]))
    green_mails = len(smtp.inbox.to(seats["green"]))

    moved = mail_api.post_moves(game_id, keys["red"], [{"type": "play_power_card", "card": 13}], 0)
    assert moved.status_code == 201 and moved.get_json()["seq"] == 2
    deliver(mail_app)
    (told,) = [m for m in smtp.inbox.to(seats["blue"]) if "your orders played" in m["Subject"]]
    assert "power 11" in told["Subject"]
    assert "Your orders played power card 11 for you." in body_text(told)
    # Blue was never asked for its card (no decision mail); green is, and sees blue's card as
    # any played card.
    queued = outbox(mail_app)[len(before) :]
    assert (seats["blue"], "decision") not in queued and (seats["green"], "decision") in queued
    assert (seats["blue"], "orders") in queued
    green_new = smtp.inbox.to(seats["green"])[green_mails:]
    others = green_new + smtp.inbox.to(seats["red"])[red_mails:]
    assert green_new and not [m for m in others if "orders" in body_text(m).lower()]
    assert "power card 11" in body_text(green_new[-1])  # its story, in words


def test_plan_alone_cancels_and_a_bad_plan_says_how(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api, options={"rounds": 6, "first_player": "red"})
    command(mail_app, smtp, seats, "green", "plan 4")
    result, text = command(mail_app, smtp, seats, "green", "plan")
    assert "No power cards ordered" in text
    result, text = command(mail_app, smtp, seats, "green", "plan nine")
    assert '"plan": write it "plan 13 11 9"' in text
    result, text = command(mail_app, smtp, seats, "green", "plan 4 4")
    assert "names a card twice" in text
    mail_api.post_moves(game_id, keys["red"], [{"type": "play_power_card", "card": 1}], 0)
    mail_api.post_moves(game_id, keys["blue"], [{"type": "play_power_card", "card": 2}], 1)
    assert mail_api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"] == "green"


def test_plan_when_the_card_is_asked_now_plays_it(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api, options={"rounds": 6, "first_player": "red"})
    result, text = command(mail_app, smtp, seats, "red", "plan 10")
    assert "Your orders played power card 10 for you." in text
    assert mail_api.get(f"/api/games/{game_id}").get_json()["seq"] == 1


def test_veto_allow_and_ask_by_mail(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api, options={"rounds": 6, "first_player": "red"})
    result, text = command(mail_app, smtp, seats, "blue", "veto allow")
    assert "Veto windows this round are answered allow at once" in text
    assert (
        mail_api.get(f"/api/games/{game_id}/seats/blue/orders", keys["blue"]).get_json()["veto"]
        == "allow"
    )
    result, text = command(mail_app, smtp, seats, "blue", "Veto Ask.")
    assert "You are asked at each Veto window." in text
    assert (
        mail_api.get(f"/api/games/{game_id}/seats/blue/orders", keys["blue"]).get_json()["veto"]
        == "ask"
    )


def test_veto_with_a_step_stays_the_move():
    assert _is_move("veto", ["veto"]) and _is_move("veto", ["veto", "2"])
    assert not _is_move("veto", ["veto", "allow"]) and not _is_move("veto", ["Veto", "ask."])
    assert not _is_move("plan", ["plan", "13"])
