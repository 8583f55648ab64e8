"""Preferences through the API: which events mail a player, digests, webhooks; new API keys
by mail."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from pbem.clock import set_now
from pbem.extensions import db
from pbem.store.models import Notification
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.mail_helpers import body_text
from tests.server.test_mail_out import addresses_of, deliver, play_some


def prefs(api, key, **changes):
    response = api.client.put("/api/players/me/preferences", json=changes, headers=api.auth(key))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_preferences_merge_and_default(mail_api):
    key = mail_api.register("someone@example.org")
    shown = mail_api.get("/api/players/me/preferences", key).get_json()
    assert shown["mail"] == {
        "decision": True,
        "every_move": False,
        "scoring": True,
        "game_over": True,
        "table_talk": True,
    }
    assert shown["digest_hours"] == 0 and shown["webhooks"] == []
    changed = prefs(mail_api, key, mail={"every_move": True})
    assert changed["mail"]["every_move"] and changed["mail"]["decision"]
    assert mail_api.get("/api/players/me/preferences", key).get_json() == changed


@pytest.mark.parametrize(
    "body",
    [
        {"digest_hours": -1},
        {"digest_hours": 1000},
        {"mail": {"decision": "sometimes"}},
        {"webhooks": [{"game_id": 1, "url": "ftp://example.org/x"}]},
        {"webhooks": [{"game_id": 1, "url": "https://example.org/x", "format": "irc"}]},
    ],
)
def test_bad_preferences_are_refused_and_change_nothing(mail_app, mail_api, body):
    key = mail_api.register("someone@example.org")
    before = table_snapshot(mail_app)
    response = mail_api.client.put(
        "/api/players/me/preferences", json=body, headers=mail_api.auth(key)
    )
    assert_problem(response, 422)
    assert table_snapshot(mail_app) == before


def test_every_move_mails_others_what_was_played(mail_app, mail_api, smtp):
    game_id, keys = mail_api.new_game(["red", "blue", "green"])
    prefs(mail_api, keys["blue"], mail={"every_move": True})
    deliver(mail_app)
    address = dict(addresses_of(mail_app, game_id))
    seen = {c: len(smtp.inbox.to(a)) for c, a in address.items()}
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    mover = view["pending"][0]["player"]
    if mover == "blue":  # let blue's own move pass first: it is not mailed to blue
        play_some(mail_api, game_id, keys, 1)
        deliver(mail_app)
        seen = {c: len(smtp.inbox.to(a)) for c, a in address.items()}
        mover = mail_api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    play_some(mail_api, game_id, keys, 1)
    deliver(mail_app)
    new_for_blue = smtp.inbox.to(address["blue"])[seen["blue"] :]
    played = [m for m in new_for_blue if m["Subject"].endswith(f"{mover} played")]
    assert len(played) == 1
    assert f"{mover}: power " in body_text(played[0])
    others = [m for c in ("red", "green") for m in smtp.inbox.to(address[c])[seen[c] :]]
    assert not any(m["Subject"].endswith("played") for m in others)


def test_a_digest_gathers_mails_until_its_hours_are_up(mail_app, mail_api, smtp):
    start = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    set_now(mail_app, start)
    game_id, keys = mail_api.new_game(["red", "blue"])
    prefs(mail_api, keys["blue"], mail={"every_move": True}, digest_hours=2)
    deliver(mail_app)
    address = dict(addresses_of(mail_app, game_id))["blue"]
    before = len(smtp.inbox.to(address))
    play_some(mail_api, game_id, keys, 6)
    deliver(mail_app)
    immediate = smtp.inbox.to(address)[before:]
    assert not any(m["Subject"].endswith("played") for m in immediate)
    with mail_app.app_context():
        waiting = db.session.query(Notification).filter_by(status="digest").count()
        db.session.remove()
    assert waiting >= 1
    set_now(mail_app, start + timedelta(hours=2, minutes=1))
    deliver(mail_app)
    digests = [m for m in smtp.inbox.to(address) if "what happened in your games" in m["Subject"]]
    assert len(digests) == 1
    assert body_text(digests[0]).count("-" * 70) == waiting
    deliver(mail_app)
    assert len([m for m in smtp.inbox.to(address) if "what happened" in m["Subject"]]) == 1


class Hook(BaseHTTPRequestHandler):
    received: list[dict] = []

    def do_POST(self):  # noqa: N802
        length = int(self.headers["Content-Length"])
        Hook.received.append(json.loads(self.rfile.read(length)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook_server():
    Hook.received = []
    server = HTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


@pytest.mark.parametrize("fmt", ["discord", "slack"])
def test_a_webhook_gets_each_batch_as_the_public_sees_it(mail_app, mail_api, webhook_server, fmt):
    game_id, keys = mail_api.new_game(["red", "blue"])
    prefs(
        mail_api, keys["red"], webhooks=[{"game_id": game_id, "url": webhook_server, "format": fmt}]
    )
    play_some(mail_api, game_id, keys, 3)
    deliver(mail_app)
    assert len(Hook.received) == 3
    field = "content" if fmt == "discord" else "text"
    for body in Hook.received:
        assert set(body) == {field}
        assert body[field].startswith(f"[El Grande #{game_id}] ")
    log = mail_api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    # Each move in words, as the story says it (a power card: "power card 9").
    assert f"{log[0]['player']}: power card {log[0]['move']['card']}" in Hook.received[0][field]
    # Hands are nobody's business in a channel: no view of a player is used.
    assert "hand" not in json.dumps(Hook.received)


def test_a_new_key_by_mail(mail_app, mail_api, smtp):
    old = mail_api.register("forgetful@example.org", "Forgetful")
    answer = mail_api.client.post("/api/players/key-reset", json={"email": "Forgetful@example.org"})
    assert answer.status_code == 202
    unknown = mail_api.client.post("/api/players/key-reset", json={"email": "nobody@example.org"})
    assert unknown.status_code == 202
    assert unknown.get_json()["detail"].replace("nobody", "X") == answer.get_json()[
        "detail"
    ].replace("forgetful", "X")
    deliver(mail_app)
    (mail,) = smtp.inbox.to("forgetful@example.org")
    new = next(
        line.strip() for line in body_text(mail).splitlines() if line.strip().startswith("pbem_")
    )
    assert mail_api.get("/api/games", old).status_code == 401
    assert mail_api.get("/api/games", new).status_code == 200
    assert not smtp.inbox.to("nobody@example.org")


def test_key_mails_are_limited_per_hour(mail_app, mail_api, smtp):
    mail_api.register("pranked@example.org")
    for _ in range(5):
        response = mail_api.client.post(
            "/api/players/key-reset", json={"email": "pranked@example.org"}
        )
        assert response.status_code == 202
    deliver(mail_app)
    assert len(smtp.inbox.to("pranked@example.org")) == 3
