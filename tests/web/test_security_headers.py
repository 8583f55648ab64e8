"""Every answer forbids framing; pages run only this site's scripts and styles (and hold no
inline ones); an address holding a credential sends no referrer; the session cookie is
Secure over https; `pbem doctor` warns of a plain-http base URL."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa

from pbem import create_app, tokens
from pbem.doctor import examine
from pbem.extensions import db
from pbem.store.models import Player
from pbem.web.board import COLOUR_FILLS, COLOUR_INKS
from tests.web.helpers import page, seat_link_for, sign_in_seat
from tests.web.html import parse


def _policy(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    return {
        part.split()[0]: " ".join(part.split()[1:])
        for part in (p.strip() for p in header.split(";"))
        if part
    }


def _pages(app, api, client) -> dict[str, str]:
    game_id, _ = api.new_game(["red", "blue", "green"])
    sign_in_seat(app, client, game_id, "red")
    with app.app_context():
        player_id = db.session.scalars(sa.select(Player.id)).first()
        unsubscribe = tokens.unsubscribe_token(player_id, game_id)
    return {
        "home": "/",
        "board": f"/games/{game_id}",
        "replay": f"/games/{game_id}?seq=0",
        "sign in": "/sign-in",
        "unsubscribe": f"/mail/unsubscribe/{unsubscribe}",
        "not found": "/games/999999",
    }


def test_every_page_forbids_framing_and_runs_only_this_sites_code(app, api, client):
    for name, path in _pages(app, api, client).items():
        response = client.get(path)
        assert response.mimetype == "text/html", name
        assert response.headers["X-Frame-Options"] == "DENY", name
        assert response.headers["X-Content-Type-Options"] == "nosniff", name
        policy = _policy(response)
        assert policy["frame-ancestors"] == "'none'", name
        assert policy["default-src"] == "'none'", name
        assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'", name
        assert "unsafe" not in response.headers["Content-Security-Policy"], name
        html = response.get_data(as_text=True)
        # What the policy would refuse, so the page must not need it.
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), name
        assert "<style" not in html and " style=" not in html, name
        assert not re.search(r"\son[a-z]+=", html), name  # no inline event handlers


def test_the_api_and_its_docs_are_never_framed(api, client):
    for path in ("/api/docs", "/api/openapi.json", "/api/health/live", "/api/games/999"):
        response = client.get(path)
        assert response.headers["X-Frame-Options"] == "DENY", path
        assert _policy(response)["frame-ancestors"] == "'none'", path
    assert client.get("/api/docs").status_code == 200


def test_addresses_holding_a_credential_send_no_referrer(app, api, client):
    game_id, _ = api.new_game(["red", "blue"])
    path = urlsplit(seat_link_for(app, game_id, "red")).path
    link = client.get(path)
    assert link.status_code == 200 and link.headers["Referrer-Policy"] == "no-referrer"
    assert link.headers["Cache-Control"] == "no-store"
    token = parse(link.get_data(as_text=True)).find("input", name="csrf_token").get("value")
    signed = client.post(path, data={"csrf_token": token})
    assert signed.status_code == 303 and signed.headers["Referrer-Policy"] == "no-referrer"
    assert client.get("/sign-in").headers["Referrer-Policy"] == "no-referrer"
    assert client.get("/mail/unsubscribe/not-a-token").headers["Referrer-Policy"] == "no-referrer"
    board = client.get(f"/games/{game_id}")
    assert board.headers["Referrer-Policy"] == "same-origin"
    assert client.get("/api/health/live").headers["Referrer-Policy"] == "same-origin"


def _session_cookie(app, api, base_url: str) -> str:
    client = app.test_client()
    game_id, _ = api.new_game(["red", "blue"])
    response = client.get(urlsplit(seat_link_for(app, game_id, "red")).path, base_url=base_url)
    (cookie,) = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    return cookie


def test_the_session_cookie_is_secure_over_https(app, api):
    assert "Secure" not in _session_cookie(app, api, "http://localhost")
    # Served over https (as gunicorn reads nginx's X-Forwarded-Proto), or said to be.
    assert "Secure" in _session_cookie(app, api, "https://localhost")
    app.config["PBEM_BASE_URL"] = "https://elgrande.example.org"
    assert "Secure" in _session_cookie(app, api, "http://localhost")


@pytest.mark.parametrize("base", ["http://elgrande.example.org", "http://localhost:5000"])
def test_doctor_warns_of_a_plain_http_base_url(database_url, base):
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "PBEM_BASE_URL": base})
    (found,) = [f for f in examine(app) if f.topic == "base url"]
    assert found.level == "warn"
    assert "https" in found.says and "Secure" in found.says


def test_the_board_page_keeps_its_colours_without_inline_style(app, api, client):
    """Each chip names its colour as a class, which the stylesheet colours."""
    game_id, _ = api.new_game(["red", "blue", "green"])
    sign_in_seat(app, client, game_id, "red")
    chips = page(client, f"/games/{game_id}").find_all("span", cls="chip")
    assert {"c-red", "c-blue", "c-green"} <= {
        c for chip in chips for c in chip.get("class").split()
    }
    css = client.get("/web/static/board.css").get_data(as_text=True)
    for colour, fill in COLOUR_FILLS.items():
        rule = f".chip.c-{colour} {{ background: {fill}; color: {COLOUR_INKS[colour]}; }}"
        assert rule in css, colour
