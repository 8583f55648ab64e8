"""What an operator does, and what it does to the player: a suspension ends their sessions
and key, refuses their sign-in, mail and invitations, hands their seats to the house bot and
hides their talk until it ends; it escalates; a ban lasts until lifted; every action is
logged and mailed; `pbem moderation` acts on a report and closes it."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

import sqlalchemy as sa

from pbem.cli import main
from pbem.clock import now, set_now
from pbem.extensions import db
from pbem.play import moderation
from tests.server.conftest import assert_problem
from tests.server.mail_helpers import body_text
from tests.server.mailin_helpers import reply
from tests.server.test_apart import _id, _read, _write
from tests.server.test_mail_in import inbound, seq_of, start, to_move
from tests.server.test_mail_out import deliver
from tests.web.helpers import page, queued_mails, seat_link_for
from tests.web.html import parse
from tests.web.test_sign_in_by_mail import ask, link_in, mails_to


def _act(app, player_id, action, **given):
    with app.app_context():
        done = moderation.act(player_id, action, moderator="test", reason="rude", **given)
        db.session.commit()
        db.session.remove()
    return done


def _seats_of(app, game_id):
    with app.app_context():
        rows = db.session.execute(
            sa.text("SELECT colour, bot FROM seats WHERE game_id = :g ORDER BY position"),
            {"g": game_id},
        ).all()
        db.session.remove()
    return {colour: bool(bot) for colour, bot in rows}


def test_a_suspended_player_is_kept_out_of_every_door_until_it_ends(mail_app, mail_api, smtp):
    app, api = mail_app, mail_api
    game_id, keys, seats = start(app, api)
    blue_id = _id(api, game_id, keys["red"], "blue")
    _write(api, game_id, keys["blue"], "hello all")
    done = _act(app, blue_id, "suspend")
    assert done.days == 3 and done.until - done.created_at == timedelta(days=3)
    # Their key works no more; the house bot plays their seat; the table reads none of them.
    assert api.get(f"/api/games/{game_id}", keys["blue"]).status_code == 401
    assert _seats_of(app, game_id) == {"red": False, "blue": True, "green": False}
    assert _read(api, game_id, keys["red"]) == []
    # They were told, with the reason; the others were told a bot plays blue.
    (told,) = queued_mails(app, "moderation", recipient=seats["blue"])
    assert "suspended" in told[1] and "rude" in told[1]
    # A sign-in link mailed to them signs nobody in.
    client = app.test_client()
    ask(client, seats["blue"])
    (mail,) = mails_to(app, seats["blue"])
    refused = client.post(link_in(mail), data={"csrf_token": _csrf(client, link_in(mail))})
    assert refused.status_code == 403 and "suspended until" in refused.get_data(as_text=True)
    # Nor does their seat's link from an earlier mail.
    fresh = app.test_client()
    path = urlsplit(seat_link_for(app, game_id, "blue")).path
    form = parse(fresh.get(path).get_data(as_text=True)).find("form", cls="seat-sign-in")
    token = form.find("input", name="csrf_token").get("value")
    by_seat = fresh.post(path, data={"csrf_token": token})
    assert by_seat.status_code == 403 and "suspended until" in by_seat.get_data(as_text=True)
    assert page(fresh, "/").find("a", cls="me") is None  # signed in as nobody
    # A reply from their mailbox plays nothing, and says why.
    deliver(app)
    before = seq_of(api, game_id)
    mail = [m for m in smtp.inbox.to(seats["blue"]) if m["Reply-To"]][-1]
    inbound(app, reply(mail, "hello again", sender=seats["blue"]))
    deliver(app)
    assert "suspended until" in body_text(smtp.inbox.to(seats["blue"])[-1])
    assert seq_of(api, game_id) == before
    assert all(text != "hello again" for _colour, text in _read(api, game_id, keys["green"]))
    # Nobody may seat them meanwhile.
    body = {
        "title": "Again",
        "seats": [
            {"email": seats["red"], "colour": "red"},
            {"email": seats["blue"], "colour": "blue"},
        ],
    }
    made = api.client.post("/api/games", json=body, headers=api.auth(keys["red"]))
    assert assert_problem(made, 403)["code"] == "player-kept-away"
    # Once it ends, their words show again (the seat stays the bot's until taken back).
    set_now(app, now() + timedelta(days=3, minutes=1))
    try:
        assert _read(api, game_id, keys["red"]) == [("blue", "hello all")]
        assert (
            api.client.post("/api/games", json=body, headers=api.auth(keys["red"])).status_code
            == 201
        )
    finally:
        set_now(app, None)


def _csrf(client, path):
    from tests.web.test_sign_in_by_mail import csrf

    return csrf(client, path)


def test_suspensions_escalate_a_ban_lasts_and_lift_lets_back(app, api):
    game_id, keys = api.new_game(["red", "blue"])
    blue_id = _id(api, game_id, keys["red"], "blue")
    assert _act(app, blue_id, "suspend").days == 3
    assert _act(app, blue_id, "suspend").days == 7
    assert _act(app, blue_id, "suspend", days=1).days == 1  # a length given is that length
    assert _act(app, blue_id, "suspend").days == 90
    assert _act(app, blue_id, "lift").action == "lift"
    _act(app, blue_id, "ban")
    set_now(app, now() + timedelta(days=4000))
    try:
        with app.app_context():
            assert moderation.kept_away(db.session.connection(), [blue_id]) == {blue_id}
            db.session.remove()
    finally:
        set_now(app, None)
    _act(app, blue_id, "lift")
    with app.app_context():
        assert moderation.kept_away(db.session.connection(), [blue_id]) == set()
        actions = [row.action for row in moderation.actions_of(blue_id)]
        db.session.remove()
    assert actions == ["lift", "ban", "lift", "suspend", "suspend", "suspend", "suspend"]
    subjects = [re.search(r"Subject: (.*)", m)[1] for _, m in queued_mails(app, "moderation")]
    assert subjects[-2:] == ["[El Grande] your account is closed", "[El Grande] you may play again"]


def test_the_command_acts_on_a_report_closes_it_and_logs_who(
    app, api, database_url, monkeypatch, capsys
):
    game_id, keys = api.new_game(["red", "blue"])
    line = _write(api, game_id, keys["blue"], "rude words")
    filed = api.client.post(
        "/api/reports", json={"kind": "talk", "id": line["id"]}, headers=api.auth(keys["red"])
    )
    assert filed.status_code == 201, filed.get_json()
    filed = filed.get_json()
    monkeypatch.setenv("DATABASE_URL", database_url)
    main(
        [
            "moderation",
            "suspend",
            "--report",
            str(filed["id"]),
            "--reason",
            "insults",
            "--days",
            "2",
        ]
    )
    said = capsys.readouterr().out
    assert re.search(r"Player \d+: suspend until \S+ \S+ UTC; logged as action #\d+\.", said)
    main(["moderation", "list"])
    assert capsys.readouterr().out == "No reports are waiting.\n"
    blue = str(_id(api, game_id, keys["red"], "blue"))
    main(["moderation", "show", blue])
    shown = capsys.readouterr().out
    assert "suspend until" in shown and "(pbem moderation): insults" in shown
    assert f"(report #{filed['id']})" in shown
    try:
        main(["moderation", "lift", blue, "--reason", ""])
    except SystemExit as exit:
        assert exit.code == 2
    assert "Say why" in capsys.readouterr().err


def test_a_bot_plays_a_suspended_seat_at_its_turn(mail_app, mail_api, smtp):
    app, api = mail_app, mail_api
    game_id, keys, seats = start(app, api)
    first = to_move(api, game_id)[0]
    _act(app, _id(api, game_id, keys["red"], first), "suspend")
    with app.app_context():
        from pbem.schedule.sweep import sweep

        sweep()
        db.session.remove()
    assert seq_of(api, game_id) > 0
