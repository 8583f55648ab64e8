"""Signing in without a password: `/sign-in` mails a one-time link (the same answer whether
or not the address plays here), the link's page asks before it signs in (mail scanners
follow links), and the first use makes a player with the name they choose; `/me` is the
player's own page."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest

from pbem import tokens
from pbem.clock import set_now
from pbem.extensions import db
from pbem.play import accounts
from pbem.store.models import Player
from tests.server.conftest import table_snapshot
from tests.server.test_bad_input import UNKEEPABLE
from tests.web.helpers import queued_mails, text_part
from tests.web.html import parse

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def csrf(client, path: str = "/sign-in") -> str:
    doc = parse(client.get(path).get_data(as_text=True))
    return doc.find("input", name="csrf_token").get("value")


def ask(client, email: str, **extra):
    return client.post("/sign-in/mail", data={"csrf_token": csrf(client), "email": email, **extra})


def mails_to(app, email: str) -> list[str]:
    """The sign-in mails queued to `email`, as sent (RFC 822), oldest first."""
    return [message for _, message in queued_mails(app, "sign_in", recipient=email)]


def link_in(mail: str) -> str:
    """The link's path, from the mail's text part as a person reads it."""
    return urlsplit(re.search(r"https?://\S+/sign-in/link/\S+", text_part(mail))[0]).path


def name_of(app, email: str) -> str:
    with app.app_context():
        query = db.select(Player.name).where(Player.email == email)
        name = db.session.execute(query).scalar_one()
        db.session.remove()
    return name


class Clock:
    """The service's clock for one test: each test starts a day after the last, so the
    links earlier tests asked for (the database is shared) count against no limit."""

    days = itertools.count()

    def __init__(self, app) -> None:
        self.app = app
        self.start = START + timedelta(days=next(self.days))
        set_now(app, self.start)

    def __call__(self, after: timedelta) -> None:
        set_now(self.app, self.start + after)


@pytest.fixture
def clock(app):
    yield Clock(app)
    set_now(app, None)


def test_a_newcomer_signs_in_by_the_mailed_link_and_chooses_a_name(app, client, clock):
    answer = ask(client, "Nina@Example.org", next="/rules")
    assert answer.status_code == 200
    said = parse(answer.get_data(as_text=True)).find("p", cls="flash").text
    assert "a sign-in link is on its way" in said and "30 minutes" in said
    (mail,) = mails_to(app, "nina@example.org")
    assert "Subject: [El Grande] your sign-in link" in mail
    link = link_in(mail)
    # Opening the link spends nothing (a mail scanner may): it asks for a name first.
    page = parse(client.get(link).get_data(as_text=True))
    assert "for the first time" in page.find("form").text
    assert page.find("input", name="name") is not None
    assert client.get(link).status_code == 200
    # No name: refused, nothing made.
    form = {"csrf_token": csrf(client, link)}
    answer = client.post(link, data={**form, "name": "  "})
    assert answer.status_code == 422 and "Choose the name" in answer.get_data(as_text=True)
    answer = client.post(link, data={**form, "name": "Nina"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/rules"
    with app.app_context():
        player = db.session.execute(
            db.select(Player).where(Player.email == "nina@example.org")
        ).scalar_one()
        assert player.name == "Nina" and player.api_key_hash is not None
        db.session.remove()
    home = parse(client.get("/").get_data(as_text=True))
    assert home.find("a", cls="me").text == "Nina"
    # Once used, the link works no more.
    again = client.get(link)
    assert again.status_code == 403 and "used already" in again.get_data(as_text=True)


def test_a_known_player_signs_in_without_a_name_and_the_link_expires(app, api, client, clock):
    api.register("olga@example.org", "Olga")
    ask(client, "olga@example.org")
    (mail,) = mails_to(app, "olga@example.org")
    assert "Olga, here is your link" in mail
    link = link_in(mail)
    page = parse(client.get(link).get_data(as_text=True))
    assert page.find("input", name="name") is None and "Olga" in page.find("form").text
    clock(timedelta(minutes=accounts.SIGN_IN_LINK_MINUTES + 1))
    late = client.post(link, data={"csrf_token": csrf(client, "/sign-in")})
    assert late.status_code == 403 and "expired" in late.get_data(as_text=True)
    assert parse(client.get("/").get_data(as_text=True)).find("a", cls="me") is None


def test_unknown_and_known_addresses_get_the_same_answer(app, api, client, clock):
    api.register("known@example.org", "Known")
    known = ask(client, "known@example.org").get_data(as_text=True)
    unknown = ask(client, "stranger@example.org").get_data(as_text=True)

    def said(html: str) -> str:
        return parse(html).find("p", cls="flash").text.split(" can receive")[1]

    assert said(known) == said(unknown)


def test_links_are_limited_per_address_and_per_client(app, client, clock):
    for _ in range(accounts.SIGN_IN_LINKS_PER_ADDRESS + 2):
        assert ask(client, "pat@example.org").status_code == 200
    assert len(mails_to(app, "pat@example.org")) == accounts.SIGN_IN_LINKS_PER_ADDRESS
    asked = accounts.SIGN_IN_LINKS_PER_ADDRESS + 2
    for number in range(accounts.SIGN_IN_LINKS_PER_CLIENT - asked):
        assert ask(client, f"other-{number}@example.org").status_code == 200
    before = table_snapshot(app)
    refused = ask(client, "one-more@example.org")
    assert refused.status_code == 429
    assert "Too many sign-in links" in refused.get_data(as_text=True)
    assert table_snapshot(app) == before
    # An hour on, the client may ask again.
    clock(timedelta(hours=1, minutes=1))
    assert ask(client, "one-more@example.org").status_code == 200
    assert len(mails_to(app, "one-more@example.org")) == 1


@pytest.mark.parametrize(
    "tampered", ["nonsense", "WzEsIngiXQ.forged", None], ids=["junk", "forged", "other-nonce"]
)
def test_a_forged_or_altered_link_signs_no_one_in(app, client, clock, tampered):
    ask(client, "quinn@example.org")
    link = link_in(mails_to(app, "quinn@example.org")[0])
    if tampered is None:  # signed by the server, for this link's id, with another nonce
        with app.test_request_context():
            link_id = tokens.read_sign_in_token(link.rsplit("/", 1)[1])[0]
            tampered = tokens.sign_in_token(link_id, "another-nonce")
    bad = link.rsplit("/", 1)[0] + "/" + tampered
    answer = client.get(bad)
    assert answer.status_code == 403 and "not valid" in answer.get_data(as_text=True)


def test_a_bad_address_is_refused_with_what_to_do(app, client):
    before = table_snapshot(app)
    answer = ask(client, "not an address")
    assert answer.status_code == 422
    assert "has no spaces" in answer.get_data(as_text=True)
    assert table_snapshot(app) == before


def test_an_invited_player_chooses_their_name_on_first_sign_in(app, api, client, clock):
    game_id, keys = api.new_game(["red", "blue", "green"])
    body = {"email": "ruth@example.org"}
    seat = api.client.put(
        f"/api/games/{game_id}/seats/blue", json=body, headers=api.auth(keys["red"])
    )
    assert seat.status_code in (200, 201), seat.get_json()
    ask(client, "ruth@example.org")
    link = link_in(mails_to(app, "ruth@example.org")[0])
    page = parse(client.get(link).get_data(as_text=True))
    assert page.find("input", name="name").get("value") == "ruth"  # as the table saw them
    # They may have played by mail and signed in by seat links for weeks: not greeted as new.
    assert page.find("h1").text == "Sign in" and "first time" not in page.find("form").text
    answer = client.post(link, data={"csrf_token": csrf(client, link), "name": "Ruth"})
    assert answer.status_code == 303
    assert name_of(app, "ruth@example.org") == "Ruth"
    # Their board, as the seat they were given.
    board = parse(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "You play" in board.find("div", cls="game-head").text


def test_me_changes_the_name_the_mail_and_makes_a_key_shown_once(app, api, client, clock):
    key = api.register("sam@example.org", "Sam")
    assert client.get("/me").status_code == 303
    sign = client.post("/sign-in", data={"csrf_token": csrf(client), "api_key": key})
    assert sign.status_code == 303
    page = parse(client.get("/me").get_data(as_text=True))
    assert page.find("h1").text == "Sam" and "sam@example.org" in page.text
    token = page.find("input", name="csrf_token").get("value")
    answer = client.post("/me", data={"csrf_token": token, "action": "name", "name": "Samuel"})
    assert answer.status_code == 303
    assert name_of(app, "sam@example.org") == "Samuel"
    chosen = {"csrf_token": token, "action": "mail", "mail": ["decision", "table_talk"]}
    assert client.post("/me", data=chosen).status_code == 303
    mail = api.get("/api/players/me/preferences", key).get_json()["mail"]
    assert mail == {
        "decision": True,
        "every_move": False,
        "scoring": False,
        "game_over": False,
        "table_talk": True,
    }
    made = client.post("/me", data={"csrf_token": token, "action": "key"})
    new_key = parse(made.get_data(as_text=True)).find("pre", cls="key").text.strip()
    assert new_key.startswith("pbem_") and new_key != key
    assert api.get("/api/players/me/preferences", key).status_code == 401
    assert api.get("/api/players/me/preferences", new_key).get_json()["mail"] == mail
    # Shown once: the page again does not show it.
    assert new_key not in client.get("/me").get_data(as_text=True)
    refused = client.post("/me", data={"csrf_token": token, "action": "name", "name": ""})
    assert refused.status_code == 422


def test_me_declares_an_absence_and_turns_a_games_mail_on_again(app, api, client, clock):
    game_id, keys = api.new_game(["red", "blue", "green"])
    key = keys["red"]
    put = api.client.put(
        "/api/players/me/preferences", json={"muted_games": [game_id]}, headers=api.auth(key)
    )
    assert put.status_code == 200
    token = csrf(client)
    assert client.post("/sign-in", data={"csrf_token": token, "api_key": key}).status_code == 303
    page = parse(client.get("/me").get_data(as_text=True))
    token = page.find("input", name="csrf_token").get("value")
    muted = page.find("li", data_muted=str(game_id))
    assert muted is not None and "Mail me again" in muted.text
    away = {"csrf_token": token, "action": "away", "from": "2026-12-01", "until": "2026-12-03"}
    assert client.post("/me", data=away).status_code == 303
    (absence,) = api.get("/api/players/me/absences", key).get_json()["absences"]
    assert absence["from"].startswith("2026-12-01") and absence["until"].startswith("2026-12-04")
    back = {"csrf_token": token, "action": "back", "absence": str(absence["id"])}
    assert client.post("/me", data=back).status_code == 303
    assert api.get("/api/players/me/absences", key).get_json()["absences"] == []
    bad = client.post("/me", data={**away, "until": "soon"})
    assert bad.status_code == 422 and "Give the first and the last day" in bad.get_data(
        as_text=True
    )
    unmute = {"csrf_token": token, "action": "unmute", "game": str(game_id)}
    assert client.post("/me", data=unmute).status_code == 303
    assert api.get("/api/players/me/preferences", key).get_json()["muted_games"] == []


@pytest.mark.parametrize("bad", UNKEEPABLE.values(), ids=UNKEEPABLE)
def test_a_newcomers_name_that_cannot_be_kept_is_refused_and_the_link_still_works(
    app, client, clock, bad
):
    typed, says, _code = bad
    ask(client, "olga@example.org")
    link = link_in(mails_to(app, "olga@example.org")[0])
    form = {"csrf_token": csrf(client, link)}
    before = table_snapshot(app)
    answer = client.post(link, data={**form, "name": typed})
    assert answer.status_code == 422
    page = parse(answer.get_data(as_text=True))
    assert f"This name {says}" in page.find("p", cls="error").text
    assert page.find("input", name="name") is not None  # asked again
    assert table_snapshot(app) == before  # no player, and the link not spent
    assert client.post(link, data={**form, "name": "Olga"}).status_code == 303
    assert name_of(app, "olga@example.org") == "Olga"
