"""Keeping others away: a block through every door that seats people (join, a new game's
invitations, a seat given) and the talk it hides (read and passed on by mail), a seat's talk
muted in one game (API and mail), and reports reaching the moderators' queue."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from pbem.cli import main
from pbem.extensions import db
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.mailin_helpers import reply
from tests.server.test_forming_api import forming
from tests.server.test_mail_in import inbound, start
from tests.server.test_mail_out import deliver


def _id(api, game_id, key, colour) -> int:
    """The player holding `colour` (as the game's page names them)."""
    with api.client.application.app_context():
        found = db.session.execute(
            sa.text("SELECT player_id FROM seats WHERE game_id = :g AND colour = :c"),
            {"g": game_id, "c": colour},
        ).scalar_one()
        db.session.remove()
    return found


def _person(api, name: str) -> tuple[str, str]:
    email = f"{name.lower()}-{uuid.uuid4().hex[:6]}@example.org"
    return email, api.register(email, name)


def _player_id(app, email: str) -> int:
    with app.app_context():
        found = db.session.execute(sa.text("SELECT id FROM players WHERE email = :e"), {"e": email})
        player_id = found.scalar_one()
        db.session.remove()
    return player_id


def _block(api, key, other_id):
    return api.client.put(f"/api/players/me/blocks/{other_id}", headers=api.auth(key))


def test_a_block_is_kept_listed_and_undone_and_refuses_oneself_and_bots(app, api):
    ana_email, ana = _person(api, "Ana")
    bea_email, bea = _person(api, "Bea")
    bea_id = _player_id(app, bea_email)
    blocked = _block(api, ana, bea_id)
    assert blocked.status_code == 200
    assert {k: blocked.get_json()[k] for k in ("player_id", "name")} == {
        "player_id": bea_id,
        "name": "Bea",
    }
    assert _block(api, ana, bea_id).get_json() == blocked.get_json()  # a repeat: the same
    listed = api.get("/api/players/me/blocks", ana).get_json()["blocks"]
    assert [b["player_id"] for b in listed] == [bea_id]
    # The blocked player's own list is theirs: empty.
    assert api.get("/api/players/me/blocks", bea).get_json() == {"blocks": []}
    own = assert_problem(_block(api, ana, _player_id(app, ana_email)), 422)
    assert own["code"] == "block-yourself"
    game_id, _keys = api.new_game(["red", "blue"])
    with app.app_context():
        bot_id = db.session.execute(
            sa.text("SELECT id FROM players WHERE email LIKE '%@bots.invalid' LIMIT 1")
        ).scalar()
        db.session.remove()
    if bot_id is not None:
        assert assert_problem(_block(api, ana, bot_id), 404)["code"] == "no-player-to-block"
    assert (
        api.client.delete(f"/api/players/me/blocks/{bea_id}", headers=api.auth(ana)).status_code
        == 204
    )
    assert api.get("/api/players/me/blocks", ana).get_json() == {"blocks": []}


@pytest.mark.parametrize("who_blocks", ["organiser", "joiner"])
def test_a_block_either_way_refuses_the_join_and_says_nothing_of_who(app, api, who_blocks):
    game_id, admin = forming(api, [{"open": True, "colour": "blue"}])
    joiner_email, joiner = _person(api, "Joiner")
    admin_id = _id(api, game_id, admin, "red")
    if who_blocks == "organiser":
        assert _block(api, admin, _player_id(app, joiner_email)).status_code == 200
    else:
        assert _block(api, joiner, admin_id).status_code == 200
    before = table_snapshot(app)
    refused = api.client.post(f"/api/games/{game_id}/seats/blue/join", headers=api.auth(joiner))
    body = assert_problem(refused, 403)
    assert body["code"] == "blocked"
    assert "Admin" not in body["detail"] and "block" not in body["detail"].lower()
    assert table_snapshot(app) == before
    # Unblocked, the same join is taken.
    blocker = admin if who_blocks == "organiser" else joiner
    blocked_id = _player_id(app, joiner_email) if who_blocks == "organiser" else admin_id
    api.client.delete(f"/api/players/me/blocks/{blocked_id}", headers=api.auth(blocker))
    joined = api.client.post(f"/api/games/{game_id}/seats/blue/join", headers=api.auth(joiner))
    assert joined.status_code == 200, joined.get_json()


def test_a_block_refuses_invitations_and_a_seat_given_naming_the_seat(app, api):
    host_email, host = _person(api, "Host")
    ana_email, ana = _person(api, "Ana")
    bea_email, bea = _person(api, "Bea")
    assert _block(api, ana, _player_id(app, host_email)).status_code == 200
    assert _block(api, bea, _player_id(app, ana_email)).status_code == 200

    def new_game(*emails):
        colours = ["red", "blue", "green"]
        seats = [
            {"email": e, "colour": c} for e, c in zip((host_email, *emails), colours, strict=False)
        ]
        body = {"title": "Apart", "seats": seats}
        return api.client.post("/api/games", json=body, headers=api.auth(host))

    before = table_snapshot(app)
    first = assert_problem(new_game(ana_email), 403)
    assert first["code"] == "blocked-seat" and "blue" in first["detail"]
    assert ana_email not in first["detail"]
    other_email, other = _person(api, "Other")
    seats = [
        {"email": e, "colour": c}
        for e, c in [(other_email, "red"), (bea_email, "blue"), (ana_email, "green")]
    ]
    body = {"title": "Apart", "seats": seats}
    both = assert_problem(api.client.post("/api/games", json=body, headers=api.auth(other)), 403)
    assert both["code"] == "blocked-seats"
    assert "blue" in both["detail"] and "green" in both["detail"]
    assert table_snapshot(app) == {**before, "players": table_snapshot(app)["players"]}
    # A game under way: Ana may not be given a seat at the host's table either.
    made = new_game(bea_email, _person(api, "Cid")[0])
    assert made.status_code == 201, made.get_json()
    game_id = made.get_json()["id"]
    given = api.client.put(
        f"/api/games/{game_id}/seats/green", json={"email": ana_email}, headers=api.auth(host)
    )
    assert assert_problem(given, 403)["code"] == "blocked-seat"


def _write(api, game_id, key, text):
    response = api.client.post(
        f"/api/games/{game_id}/messages", json={"text": text}, headers=api.auth(key)
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _read(api, game_id, key) -> list[tuple[str, str]]:
    found = api.get(f"/api/games/{game_id}/messages", key).get_json()["messages"]
    return [(m["colour"], m["text"]) for m in found]


def _said_to(smtp, address) -> list[str]:
    return [
        str(m["Subject"]) for m in smtp.inbox.to(address) if str(m["Subject"]).endswith(" says")
    ]


def test_the_blocker_reads_and_is_mailed_none_of_the_blocked_ones_talk(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    api = mail_api
    blue_id = _id(api, game_id, keys["red"], "blue")
    _write(api, game_id, keys["blue"], "before the block")
    assert _block(api, keys["red"], blue_id).status_code == 200  # a game under way goes on
    _write(api, game_id, keys["blue"], "after the block")
    _write(api, game_id, keys["red"], "red speaks")
    deliver(mail_app)
    assert _read(api, game_id, keys["red"]) == [("red", "red speaks")]
    # The blocked player and the others read everything.
    everything = [("blue", "before the block"), ("blue", "after the block"), ("red", "red speaks")]
    assert _read(api, game_id, keys["blue"]) == everything
    assert _read(api, game_id, keys["green"]) == everything
    assert len(_said_to(smtp, seats["red"])) == 1  # the line before the block only
    assert len(_said_to(smtp, seats["green"])) == 3
    # The game goes on: the block stopped no move.
    state = api.get(f"/api/games/{game_id}", keys["red"]).get_json()
    assert state["status"] == "active"


def test_a_muted_seat_is_neither_read_nor_mailed_until_unmuted(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    api = mail_api
    muted = api.client.put(f"/api/games/{game_id}/mutes/blue", headers=api.auth(keys["red"]))
    assert muted.status_code == 200 and muted.get_json() == {"muted": ["blue"]}
    own = api.client.put(f"/api/games/{game_id}/mutes/red", headers=api.auth(keys["red"]))
    assert assert_problem(own, 422)["code"] == "mute-own-seat"
    nowhere = api.client.put(f"/api/games/{game_id}/mutes/brown", headers=api.auth(keys["red"]))
    assert assert_problem(nowhere, 404)["code"] == "no-such-seat"
    _write(api, game_id, keys["blue"], "loud")
    _write(api, game_id, keys["green"], "quiet")
    deliver(mail_app)
    assert _read(api, game_id, keys["red"]) == [("green", "quiet")]
    assert _read(api, game_id, keys["green"]) == [("blue", "loud"), ("green", "quiet")]
    assert len(_said_to(smtp, seats["red"])) == 1
    assert api.get(f"/api/games/{game_id}/mutes", keys["red"]).get_json() == {"muted": ["blue"]}
    outsider = api.register(f"out-{uuid.uuid4().hex[:6]}@example.org", "Out")
    assert assert_problem(api.get(f"/api/games/{game_id}/mutes", outsider), 403)
    unmuted = api.client.delete(f"/api/games/{game_id}/mutes/blue", headers=api.auth(keys["red"]))
    assert unmuted.get_json() == {"muted": []}
    assert _read(api, game_id, keys["red"]) == [("blue", "loud"), ("green", "quiet")]


def _any_mail_to(smtp, address):
    return [m for m in smtp.inbox.to(address) if m["Reply-To"]][-1]


def _answer(smtp, address) -> str:
    from tests.server.mail_helpers import body_text

    return body_text(smtp.inbox.to(address)[-1])


def test_mute_unmute_and_report_by_mail(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    api = mail_api
    _write(api, game_id, keys["blue"], "you all play badly")
    deliver(mail_app)
    mail = _any_mail_to(smtp, seats["red"])
    inbound(mail_app, reply(mail, "mute blue", sender=seats["red"]))
    deliver(mail_app)
    assert "no more of blue" in _answer(smtp, seats["red"])
    assert _read(api, game_id, keys["red"]) == []
    inbound(mail_app, reply(mail, "report blue insulting the table", sender=seats["red"]))
    deliver(mail_app)
    assert "reached the moderators" in _answer(smtp, seats["red"])
    with mail_app.app_context():
        row = db.session.execute(sa.text("SELECT kind, text, reason FROM reports")).one()
        db.session.remove()
    assert tuple(row) == ("talk", "you all play badly", "insulting the table")
    inbound(mail_app, reply(mail, "unmute blue", sender=seats["red"]))
    deliver(mail_app)
    assert "again" in _answer(smtp, seats["red"])
    assert _read(api, game_id, keys["red"]) == [("blue", "you all play badly")]
    # "report" before words that are no colour is talk, passed on as words.
    inbound(mail_app, reply(mail, "report back soon", sender=seats["red"]))
    assert ("red", "report back soon") in _read(api, game_id, keys["green"])


def _report(api, key, kind, target, reason="rude"):
    return api.client.post(
        "/api/reports", json={"kind": kind, "id": target, "reason": reason}, headers=api.auth(key)
    )


def test_reports_reach_the_queue_once_and_only_of_what_the_reporter_sees(
    app, api, database_url, monkeypatch, capsys
):
    game_id, keys = api.new_game(["red", "blue"])
    line = _write(api, game_id, keys["blue"], "a rude line")
    filed = _report(api, keys["red"], "talk", line["id"], "insults")
    assert filed.status_code == 201
    assert "reached the moderators" in filed.get_json()["detail"]
    again = _report(api, keys["red"], "talk", line["id"])
    assert again.status_code == 200 and again.get_json()["id"] == filed.get_json()["id"]
    outsider = api.register(f"out-{uuid.uuid4().hex[:6]}@example.org", "Out")
    assert assert_problem(_report(api, outsider, "talk", line["id"]), 404)["code"] == "no-such-talk"
    assert (
        assert_problem(_report(api, keys["blue"], "talk", line["id"]), 422)["code"] == "report-own"
    )
    blue_id = _id(api, game_id, keys["red"], "blue")
    assert _report(api, outsider, "name", blue_id).status_code == 201
    assert _report(api, outsider, "title", game_id).status_code == 201
    wrong = _report(api, outsider, "hands", 1)
    assert wrong.status_code == 422
    monkeypatch.setenv("DATABASE_URL", database_url)
    main(["moderation", "list"])
    listed = capsys.readouterr().out
    assert listed.count("\n#") + listed.startswith("#") == 3
    assert "'a rude line'" in listed and "insults" in listed and "2 report(s) in all" in listed
