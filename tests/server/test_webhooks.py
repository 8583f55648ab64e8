"""Webhooks go only where they should: to a game the player sits in, over https, to a public
address (checked when set, and again after resolving when sent), and never through a
redirect; the operator may allow http and name internal hosts."""

from __future__ import annotations

import socket
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.notify import webhooks
from pbem.store.models import Notification
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.test_mail_out import deliver, play_some

STRICT: dict = {}  # the defaults: https only, public addresses only


@pytest.mark.parametrize(
    "url, words",
    [
        ("http://example.org/hook", "must use https"),
        ("https://127.0.0.1/hook", "127.0.0.1 is a loopback address"),
        ("https://[::1]/hook", "::1 is a loopback address"),
        ("https://[::ffff:127.0.0.1]/hook", "loopback"),
        ("https://2130706433/hook", "127.0.0.1 is a loopback address"),
        ("https://0x7f.1/hook", "127.0.0.1 is a loopback address"),
        ("https://10.0.0.5/hook", "10.0.0.5 is a private address"),
        ("https://192.168.1.1/hook", "private"),
        ("https://169.254.169.254/latest/meta-data", "169.254.169.254 is a link-local address"),
        ("https://[fe80::1]/hook", "link-local"),
        ("https://224.0.0.1/hook", "multicast"),
        ("https://0.0.0.0/hook", "0.0.0.0"),
        ("https://localhost/hook", "localhost is a name of the local network"),
        ("https://printer.local/hook", "local network"),
    ],
)
def test_where_a_webhook_may_not_go_says_why(url, words):
    refused = webhooks.refusal(url, STRICT)
    assert refused is not None and words in refused


def test_public_https_and_what_the_operator_allows_are_fine():
    assert webhooks.refusal("https://discord.com/api/webhooks/1/x", STRICT) is None
    assert webhooks.refusal("https://93.184.215.14/hook", STRICT) is None
    allowing = {
        "PBEM_WEBHOOK_ALLOW_HTTP": True,
        "PBEM_WEBHOOK_ALLOWED_HOSTS": "chat.lan, 10.1.0.0/16",
    }
    assert webhooks.refusal("http://chat.lan/hook", allowing) is None
    assert webhooks.refusal("https://10.1.2.3/hook", allowing) is None
    assert "private" in webhooks.refusal("https://10.2.0.1/hook", allowing)


def _put(api, key, hooks):
    return api.client.put(
        "/api/players/me/preferences", json={"webhooks": hooks}, headers=api.auth(key)
    )


def test_the_api_refuses_a_webhook_to_an_internal_address_and_stores_nothing(app, api):
    game_id, keys = api.new_game(["red", "blue"])
    before = table_snapshot(app)
    response = _put(api, keys["red"], [{"game_id": game_id, "url": "https://127.0.0.1:8000/x"}])
    assert "127.0.0.1 is a loopback address" in assert_problem(response, 422)["detail"]
    response = _put(api, keys["red"], [{"game_id": game_id, "url": "http://hooks.example.org/"}])
    assert "must use https" in assert_problem(response, 422)["detail"]
    assert table_snapshot(app) == before


def test_a_webhook_only_for_a_game_the_player_sits_in(app, api):
    game_id, _ = api.new_game(["red", "blue"])
    outsider = api.register("outsider@example.org")
    before = table_snapshot(app)
    response = _put(api, outsider, [{"game_id": game_id, "url": "https://hooks.example.org/x"}])
    assert f"no seat in game {game_id}" in assert_problem(response, 422)["detail"]
    response = _put(api, outsider, [{"game_id": 999999, "url": "https://hooks.example.org/x"}])
    assert "no seat in game 999999" in assert_problem(response, 422)["detail"]
    assert table_snapshot(app) == before


def test_an_empty_url_is_refused_as_the_spec_says(api):
    game_id, keys = api.new_game(["red", "blue"])
    response = _put(api, keys["red"], [{"game_id": game_id, "url": ""}])
    assert_problem(response, 422)
    spec = api.client.get("/api/openapi.json").get_json()
    assert spec["components"]["schemas"]["Webhook"]["properties"]["url"]["minLength"] == 1


def test_a_name_that_resolves_inside_is_refused_when_sent(mail_app, mail_api, monkeypatch):
    """Set while its name looked public; by the time it is sent, it resolves to loopback."""
    game_id, keys = mail_api.new_game(["red", "blue"])
    url = "http://hooks.example.org/x"  # http: mail_app allows it, as the test bench needs
    assert _put(mail_api, keys["red"], [{"game_id": game_id, "url": url}]).status_code == 200
    real = socket.getaddrinfo

    def rebound(host, *args, **kwargs):
        if host == "hooks.example.org":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.2", 80))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebound)
    play_some(mail_api, game_id, keys, 1)
    deliver(mail_app)
    with mail_app.app_context():
        rows = db.session.scalars(
            sa.select(Notification).where(Notification.channel == "webhook")
        ).all()
    assert rows and all(r.status == "failed" for r in rows)  # for good, not retried
    assert all("127.0.0.2 is a loopback address" in r.last_error for r in rows)


class _Redirects(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        self.send_response(307)
        self.send_header("Location", "http://169.254.169.254/latest/meta-data")
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_redirect_is_not_followed(mail_app, mail_api):
    import threading

    server = HTTPServer(("127.0.0.1", 0), _Redirects)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        game_id, keys = mail_api.new_game(["red", "blue"])
        url = f"http://127.0.0.1:{server.server_port}/hook"
        assert _put(mail_api, keys["red"], [{"game_id": game_id, "url": url}]).status_code == 200
        play_some(mail_api, game_id, keys, 1)
        deliver(mail_app)
    finally:
        server.shutdown()
    with mail_app.app_context():
        rows = db.session.scalars(
            sa.select(Notification).where(Notification.channel == "webhook")
        ).all()
    assert rows and all(r.status == "failed" and "redirect" in r.last_error for r in rows)
