"""Seats for emails with no account: the first mail invites, with a one-time link to claim
an API key and a link to decline the seat (the admin is told and gives it on)."""

from __future__ import annotations

import re

from tests.server.conftest import assert_problem
from tests.server.mail_helpers import body_text
from tests.server.test_mail_out import deliver


def link(message, path: str) -> str:
    found = re.search(r"https://pbem\.example(/mail/" + path + r"/\S+)", body_text(message))
    assert found, body_text(message)
    return found[1]


def new_game_with_a_stranger(api):
    host = api.register("host@example.org", "Host")
    body = {
        "title": "Invitational",
        "seats": [
            {"email": "host@example.org", "colour": "red"},
            {"email": "New.Friend@example.org", "colour": "blue"},
        ],
    }
    response = api.client.post("/api/games", json=body, headers=api.auth(host))
    assert response.status_code == 201, response.get_json()
    return response.get_json(), host


def test_a_seat_for_an_unregistered_email_invites_it(mail_app, mail_api, smtp):
    game, host = new_game_with_a_stranger(mail_api)
    stranger = next(s for s in game["seats"] if s["colour"] == "blue")
    assert isinstance(stranger.pop("player_id"), int)
    assert stranger == {
        "colour": "blue",
        "name": "new.friend",
        "invited": True,
        "declined": False,
        "bot": False,
    }
    deliver(mail_app)
    (welcome,) = [m for m in smtp.inbox.to("new.friend@example.org") if "for you" in m["Subject"]]
    claim = link(welcome, "claim")
    # The page asks first: a link scanner's GET claims nothing.
    assert b"Show my key" in mail_api.client.get(claim).data
    page = mail_api.client.post(claim).get_data(as_text=True)
    key = re.search(r"(pbem_[\w-]+)", page)[1]
    games = mail_api.get("/api/games", key).get_json()["games"]
    assert [g["id"] for g in games] == [game["id"]] and games[0]["colour"] == "blue"
    # Once only.
    again = mail_api.client.post(claim)
    assert again.status_code == 410 and b"used already" in again.data
    assert mail_api.get("/api/games", key).status_code == 200
    # The host's own first mail has no claim link: they have a key.
    (own,) = [m for m in smtp.inbox.to("host@example.org") if "for you" in m["Subject"]]
    assert "/mail/claim/" not in body_text(own)


def test_registering_an_invited_email_claims_it(mail_app, mail_api, smtp):
    game, _ = new_game_with_a_stranger(mail_api)
    key = mail_api.register("new.friend@example.org", "New Friend")
    summary = mail_api.get("/api/games", key).get_json()["games"][0]
    assert summary["id"] == game["id"]
    assert {
        "colour": "blue",
        "name": "New Friend",
        "invited": False,
        "declined": False,
        "bot": False,
    } in [{k: v for k, v in seat.items() if k != "player_id"} for seat in summary["seats"]]


def test_declining_a_seat_tells_the_admin_who_gives_it_on(mail_app, mail_api, smtp):
    game, host = new_game_with_a_stranger(mail_api)
    deliver(mail_app)
    (welcome,) = [m for m in smtp.inbox.to("new.friend@example.org") if "for you" in m["Subject"]]
    decline = link(welcome, "decline")
    assert b"Decline the seat" in mail_api.client.get(decline).data
    assert mail_api.client.post(decline).status_code == 200
    deliver(mail_app)
    told = [m for m in smtp.inbox.to("host@example.org") if "declined" in m["Subject"]]
    assert len(told) == 1 and f"/api/games/{game['id']}/seats/blue" in body_text(told[0])
    seats = mail_api.get("/api/games", host).get_json()["games"][0]["seats"]
    assert next(s for s in seats if s["colour"] == "blue")["declined"] is True
    # The admin gives the seat to another email, who gets the seat's first mail.
    response = mail_api.client.put(
        f"/api/games/{game['id']}/seats/blue",
        json={"email": "stand.in@example.org"},
        headers=mail_api.auth(host),
    )
    assert response.status_code == 200, response.get_json()
    blue = next(s for s in response.get_json()["seats"] if s["colour"] == "blue")
    assert isinstance(blue.pop("player_id"), int)
    assert blue == {
        "colour": "blue",
        "name": "stand.in",
        "invited": True,
        "declined": False,
        "bot": False,
    }
    deliver(mail_app)
    assert any("for you" in m["Subject"] for m in smtp.inbox.to("stand.in@example.org"))
    # The old holder's link no longer declines anything.
    assert mail_api.client.post(decline).status_code == 409


def test_forged_links_are_refused(mail_api):
    assert mail_api.client.post("/mail/claim/forged").status_code == 410
    assert mail_api.client.post("/mail/decline/forged").status_code == 404
    assert_problem(mail_api.client.post("/api/players/key-reset", json={"email": "x"}), 422)


def test_the_organisers_own_first_mail_offers_no_decline(mail_app, mail_api, smtp):
    new_game_with_a_stranger(mail_api)
    deliver(mail_app)
    (own,) = [m for m in smtp.inbox.to("host@example.org") if "for you" in m["Subject"]]
    (theirs,) = [m for m in smtp.inbox.to("new.friend@example.org") if "for you" in m["Subject"]]
    assert "/mail/decline/" not in own.as_string() and "Decline the seat" not in own.as_string()
    assert "/mail/decline/" in theirs.as_string()
