"""Doors an attacker's review found open on the pages, closed: a seat's link asks before it
signs in (no login CSRF, nothing spent by a mail scanner), a signed-out session's copied
cookie is refused, every page that shows a key or is reached by a token is never stored,
mail links never come from the Host header, and the webhook and talk checks of `/me` and
the board."""

from __future__ import annotations

import re
import runpy
import types
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa

from pbem import tokens
from pbem.extensions import db
from tests.deploy.helpers import DEPLOY
from tests.server.conftest import table_snapshot
from tests.web.helpers import (
    page,
    queued_mails,
    seat_link_for,
    seat_player,
    sign_in_seat,
    text_part,
)
from tests.web.html import parse
from tests.web.test_me_page import change_link, email_of, me_form, player_id_of
from tests.web.test_new_game import sign_in_with_key


def signed_in_as(client, path: str = "/") -> str | None:
    me = page(client, path).find("a", cls="me")
    return me.text if me is not None else None


def test_a_seat_link_asks_on_get_and_signs_in_only_on_post(app, api, client):
    game_id, _keys = api.new_game(["red", "blue"])
    link = urlsplit(seat_link_for(app, game_id, "red")).path
    before = table_snapshot(app)
    asked = client.get(link)
    assert asked.status_code == 200
    form = parse(asked.get_data(as_text=True)).find("form", cls="seat-sign-in")
    said = " ".join(form.text.split())
    assert re.search(r"Sign in as Red to your red seat of .+\?", said), said
    # Nothing changed: no one is signed in, no row written.
    assert table_snapshot(app) == before
    with client.session_transaction() as session:
        assert "player_id" not in session
    assert signed_in_as(client) is None
    # Another site's form cannot post it: the CSRF token is the session's own.
    assert client.post(link).status_code == 400
    assert client.post(link, data={"csrf_token": "forged"}).status_code == 400
    assert signed_in_as(client) is None
    token = form.find("input", name="csrf_token").get("value")
    done = client.post(link, data={"csrf_token": token})
    assert done.status_code == 303 and done.location.endswith(f"/games/{game_id}?colour=red")
    assert signed_in_as(client) == "Red"


def test_a_seat_link_goes_straight_on_for_its_own_player_only(app, api, client):
    game_id, _keys = api.new_game(["red", "blue"])
    sign_in_seat(app, client, game_id, "red")
    with client.session_transaction() as session:
        before = dict(session)
    again = client.get(urlsplit(seat_link_for(app, game_id, "red")).path)
    assert again.status_code == 303 and again.location.endswith(f"/games/{game_id}?colour=red")
    with client.session_transaction() as session:
        assert dict(session) == before  # the same session: nothing about it changed
    # Signed in as Red, Blue's link asks whose account to go on with, and Red stays signed
    # in until that is answered (tests/web/test_another_account.py).
    other = client.get(urlsplit(seat_link_for(app, game_id, "blue")).path)
    asked = parse(other.get_data(as_text=True)).find("p", cls="whose-link")
    assert other.status_code == 200 and "This link is for Blue" in asked.text
    assert signed_in_as(client) == "Red"


def test_a_cookie_copied_before_signing_out_is_signed_out(app, api, client):
    game_id, _keys = api.new_game(["red", "blue"])
    sign_in_seat(app, client, game_id, "red")
    cookie = client.get_cookie("session").value
    copy = app.test_client()
    copy.set_cookie("session", cookie)
    assert signed_in_as(copy, f"/games/{game_id}") == "Red"
    doc = page(client, f"/games/{game_id}")
    token = doc.find("form", cls="inline").find("input", name="csrf_token").get("value")
    assert client.post("/sign-out", data={"csrf_token": token}).status_code == 303
    # The copy is refused by every read of who is signed in: a page, the poll, /me.
    assert signed_in_as(copy, f"/games/{game_id}") is None
    assert signed_in_as(copy, "/") is None
    assert copy.get(f"/games/{game_id}/seq").get_json()["talk"] is None
    assert copy.get("/me").status_code == 303
    # Signing in again starts a new session, which works.
    sign_in_seat(app, copy, game_id, "red")
    assert signed_in_as(copy) == "Red"


def test_ended_sessions_are_forgotten_once_their_cookies_would_have_expired(app, api, client):
    from pbem.clock import now

    game_id, _keys = api.new_game(["red", "blue"])
    long_ago = now() - app.permanent_session_lifetime - timedelta(minutes=1)
    with app.app_context():
        insert = sa.text("INSERT INTO ended_sessions (sid, ended_at) VALUES (:sid, :at)")
        db.session.execute(insert, [{"sid": "old", "at": long_ago}, {"sid": "recent", "at": now()}])
        db.session.commit()
        db.session.remove()
    sign_in_seat(app, client, game_id, "red")
    with client.session_transaction() as session:
        mine = session["sid"]
    token = page(client, "/").find("form", cls="inline").find("input", name="csrf_token")
    client.post("/sign-out", data={"csrf_token": token.get("value")})
    with app.app_context():
        sids = set(db.session.execute(sa.text("SELECT sid FROM ended_sessions")).scalars())
        db.session.execute(sa.text("DELETE FROM ended_sessions WHERE sid = 'recent'"))
        db.session.commit()
        db.session.remove()
    assert "old" not in sids and {"recent", mine} <= sids


def test_what_shows_a_key_or_is_reached_by_a_token_is_never_stored(app, api, client):
    game_id, _keys = api.new_game(["red", "blue"])
    # (A key shown by a sign-up's link: tests/hostile/test_accounts.py.)
    key = api.register("kay@example.org", "Kay")
    red = seat_player(app, game_id, "red")
    with app.test_request_context():
        accept = f"/games/{game_id}/accept/{tokens.accept_token(game_id, 'red', red)}"
        decline = f"/mail/decline/{tokens.decline_token(game_id, 'red', red)}"
    paths = [
        urlsplit(seat_link_for(app, game_id, "red")).path,
        accept,
        decline,
        "/mail/claim/not-a-token",
        "/mail/unsubscribe/not-a-token",
        "/sign-in/link/not-a-token",
        "/me/email/not-a-token",
        f"/games/{game_id}/sign-in/not-a-token",
    ]
    for path in paths:
        response = app.test_client().get(path)
        assert response.headers.get("Cache-Control") == "no-store", path
    # The new key on /me.
    token = sign_in_with_key(client, key)
    shown = client.post("/me", data={"csrf_token": token, "action": "key"})
    assert shown.status_code == 200 and "pbem_" in shown.get_data(as_text=True)
    assert shown.headers["Cache-Control"] == "no-store"
    # A page with nothing secret may be kept as before.
    assert "no-store" not in (client.get("/rules").headers.get("Cache-Control") or "")


def test_a_sign_in_mail_links_to_the_base_url_never_the_host_header(app, client):
    app.config.pop("PBEM_BASE_URL", None)
    doc = parse(client.get("/sign-in", headers={"Host": "evil.test"}).get_data(as_text=True))
    token = doc.find("input", name="csrf_token").get("value")
    data = {"csrf_token": token, "email": "victim@example.org"}
    assert client.post("/sign-in/mail", data=data, headers={"Host": "evil.test"}).status_code == 200
    (mail,) = [m for _, m in queued_mails(app, "sign_in", recipient="victim@example.org")]
    assert "evil.test" not in mail
    assert re.search(r"http://127\.0\.0\.1:5000/sign-in/link/\S+", text_part(mail))
    app.config["PBEM_BASE_URL"] = "https://elgrande.example/play"
    evil = {"Host": "evil.test"}
    client.post("/sign-in/mail", data={**data, "email": "v2@example.org"}, headers=evil)
    (mail,) = [m for _, m in queued_mails(app, "sign_in", recipient="v2@example.org")]
    assert "https://elgrande.example/play/sign-in/link/" in text_part(mail)


def test_gunicorn_without_a_base_url_warns_at_start(monkeypatch):
    """deploy/gunicorn.conf.py says so as gunicorn starts, and only then (not every process
    that builds the app, such as `pbem import`, whose stderr is its answer)."""
    config = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    said: list[str] = []
    server = types.SimpleNamespace(log=types.SimpleNamespace(warning=said.append))
    monkeypatch.delenv("PBEM_BASE_URL", raising=False)
    config["on_starting"](server)
    assert len(said) == 1 and "PBEM_BASE_URL is not set" in said[0]
    monkeypatch.setenv("PBEM_BASE_URL", "https://x.example")
    config["on_starting"](server)
    assert len(said) == 1


@pytest.mark.parametrize("host", ["localhost.", "LOCALHOST", "127.1", "[::1]", "0.0.0.0"])
def test_me_refuses_a_webhook_to_this_machine(app, api, client, host):
    game_id, keys = api.new_game(["red", "blue"])
    token = sign_in_with_key(client, keys["red"])
    before = table_snapshot(app)
    data = {"csrf_token": token, "action": "webhook", "game": str(game_id)}
    refused = client.post("/me", data={**data, "url": f"https://{host}/hook"})
    assert refused.status_code == 422
    assert "public addresses" in refused.get_data(as_text=True)
    assert table_snapshot(app) == before


def test_an_address_change_link_works_once_even_after_the_address_changes_back(app, api, client):
    key = api.register("rae@example.org", "Rae")
    me = player_id_of(app, "rae@example.org")
    token = sign_in_with_key(client, key)

    def change_to(email: str) -> str:
        client.post("/me", data={"csrf_token": token, "action": "email", "email": email})
        link = change_link(app, email)
        csrf = parse(client.get(link).get_data(as_text=True)).find("input", name="csrf_token")
        assert client.post(link, data={"csrf_token": csrf.get("value")}).status_code == 303
        return link

    first = change_to("rae@new.org")
    token = me_form(client)
    change_to("rae@example.org")
    token = me_form(client)
    assert email_of(app, me) == "rae@example.org"
    before = table_snapshot(app)
    again = client.get(first)
    assert again.status_code == 403
    assert "Your address has changed since this link was mailed" in again.get_data(as_text=True)
    csrf = me_form(client)
    assert client.post(first, data={"csrf_token": csrf}).status_code == 403
    assert table_snapshot(app) == before and email_of(app, me) == "rae@example.org"


def test_the_board_refuses_invisible_words_to_the_table(app, api, client):
    game_id, _keys = api.new_game(["red", "blue"])
    sign_in_seat(app, client, game_id, "red")
    form = page(client, f"/games/{game_id}").find("form", cls="talk")
    token = form.find("input", name="csrf_token").get("value")
    before = table_snapshot(app)
    refused = client.post(
        f"/games/{game_id}/messages", data={"csrf_token": token, "text": "\u200b\u200d"}
    )
    assert refused.status_code == 422
    assert "only invisible characters" in refused.get_data(as_text=True)
    assert table_snapshot(app) == before
