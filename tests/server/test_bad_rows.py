"""A failure is its row's: a webhook or push the sender cannot post to (a port out of range,
an IPv6 literal the push signature cannot name, kept by an older release that let them
through) and a webhook whose sending raises an error of any other kind each fail alone,
while every other player's mail goes out in the same passes; health counts them, and says
nothing is wrong with the sender. The API refuses such URLs when they are set."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from pbem import create_app
from pbem.clock import set_now
from pbem.extensions import db
from pbem.notify import sender, webhooks
from pbem.notify.sender import deliver_due
from pbem.schedule.sweep import sweep
from pbem.store.models import Notification, Player, PushSubscription
from tests.server.conftest import Api, assert_problem, empty_tables, table_snapshot
from tests.server.test_mail_out import play_some
from tests.server.test_push import Browser, vapid_pem  # noqa: F401 (a fixture)

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
_outbox = Notification.__table__
BAD_PORT = "https://anything.example:99999/x"
EXPLODES = "http://127.0.0.1:9/explodes"
IPV6_PUSH = "https://[2001:db8::5]/push/abc"


@pytest.fixture
def bad_app(database_url, smtp, vapid_pem):  # noqa: F811
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "SMTP_URL": smtp.url,
            "MAIL_FROM": "El Grande <play@pbem.example>",
            "PBEM_BASE_URL": "https://pbem.example",
            "PBEM_WEBHOOK_ALLOW_HTTP": True,
            "PBEM_WEBHOOK_ALLOWED_HOSTS": "127.0.0.1",
            "PBEM_VAPID_PRIVATE_KEY": vapid_pem,
            "PBEM_VAPID_SUBJECT": "mailto:operator@pbem.example",
        }
    )
    yield app
    empty_tables(app)


def keep_as_an_older_release_did(app, game_id: int, email: str) -> None:
    """The bad URLs written straight into the player's rows, past today's checks."""
    with app.app_context():
        player = db.session.execute(sa.select(Player).where(Player.email == email)).scalar_one()
        player.preferences = {
            **(player.preferences or {}),
            "webhooks": [
                {"game_id": game_id, "url": BAD_PORT},
                {"game_id": game_id, "url": EXPLODES},
            ],
        }
        browser = Browser().keys()
        db.session.add(
            PushSubscription(
                player_id=player.id,
                endpoint=IPV6_PUSH,
                p256dh=browser["p256dh"],
                auth=browser["auth"],
                created_at=T0,
            )
        )
        db.session.commit()
        db.session.remove()


def rows_by_channel(app) -> dict[str, list[tuple[str, str]]]:
    with app.app_context():
        rows = db.session.execute(
            sa.select(_outbox.c.channel, _outbox.c.recipient, _outbox.c.status)
        ).all()
        db.session.remove()
    found: dict[str, list[tuple[str, str]]] = {}
    for channel, recipient, status in rows:
        found.setdefault(channel, []).append((recipient, status))
    return found


def test_bad_rows_fail_alone_and_everyone_elses_mail_goes_out(bad_app, smtp, monkeypatch):
    api = Api(bad_app.test_client())
    set_now(bad_app, T0)
    bad_game, bad_keys = api.new_game(["red", "blue"])
    keep_as_an_older_release_did(bad_app, bad_game, email_of(bad_app, bad_game, "red"))
    real_post = webhooks.post

    def post(url, body, config, timeout=10):
        if url == EXPLODES:
            raise KeyError("a bug met on this row only")
        return real_post(url, body, config, timeout)

    monkeypatch.setattr(webhooks, "post", post)
    others = [api.new_game(["red", "blue", "green"]) for _ in range(3)]
    until_red_is_pushed(bad_app, api, bad_game, bad_keys)  # red's bad rows are queued
    for game_id, keys in others:
        play_some(api, game_id, keys, 2)
    with bad_app.app_context():
        sweep()
        first = deliver_due()
        db.session.remove()
    mail = rows_by_channel(bad_app)["mail"]
    assert mail and all(status == "sent" for _, status in mail), mail
    assert first.sent == len(mail)  # every mail in the one pass; no bad row got through
    statuses = rows_by_channel(bad_app)
    assert {s for url, s in statuses["webhook"] if url == BAD_PORT} == {"failed"}
    assert {s for url, s in statuses["push"] if url == IPV6_PUSH} == {"failed"}
    assert {s for url, s in statuses["webhook"] if url == EXPLODES} == {"queued"}  # retried
    with bad_app.app_context():
        errors = db.session.execute(
            sa.select(_outbox.c.recipient, _outbox.c.last_error).where(_outbox.c.channel != "mail")
        ).all()
        db.session.remove()
    said = {recipient: error for recipient, error in errors}
    assert "port must be a number from 1 to 65535" in said[BAD_PORT]
    assert "IPv6 literal" in said[IPV6_PUSH]
    assert said[EXPLODES].startswith("KeyError")

    # More moves while the exploding row waits for its retry: still nobody's mail waits.
    for game_id, keys in others:
        play_some(api, game_id, keys, 1)
    with bad_app.app_context():
        assert deliver_due().sent > 0
        db.session.remove()
    assert all(s == "sent" for _, s in rows_by_channel(bad_app)["mail"])

    statuses = rows_by_channel(bad_app)
    refused = [u for u, _ in statuses["webhook"] + statuses["push"] if u in (BAD_PORT, IPV6_PUSH)]
    exploding = [u for u, _ in statuses["webhook"] if u == EXPLODES]
    health = api.get("/api/health").get_json()
    assert health["status"] == "ok", health
    assert health["outbox"]["failed_last_day"] == len(refused) >= 2
    assert health["outbox"]["retrying"] == len(exploding) >= 1
    assert health["outbox"]["overdue"] == 0

    # A day on, the row that kept raising is failed for good.
    for hours in (1, 2, 4, 8, 16, 25):
        set_now(bad_app, T0 + timedelta(hours=hours))
        with bad_app.app_context():
            sweep()
            deliver_due()
            db.session.remove()
    assert {s for url, s in rows_by_channel(bad_app)["webhook"] if url == EXPLODES} == {"failed"}
    health = api.get("/api/health").get_json()
    assert health["outbox"]["retrying"] == 0
    assert health["outbox"]["failed_last_day"] == len(exploding)  # the refused: a day ago


def until_red_is_pushed(app, api: Api, game_id: int, keys: dict[str, str]) -> None:
    """Play the first legal move of whoever must act until a decision is pushed to red."""
    for _ in range(30):
        if any(url == IPV6_PUSH for url, _ in rows_by_channel(app).get("push", [])):
            return
        play_some(api, game_id, keys, 1)
    raise AssertionError("red was never pushed a decision")


def email_of(app, game_id: int, colour: str) -> str:
    from pbem.store.models import Seat

    with app.app_context():
        email = db.session.execute(
            sa.select(Player.email)
            .join(Seat, Seat.player_id == Player.id)
            .where(Seat.game_id == game_id, Seat.colour == colour)
        ).scalar_one()
        db.session.remove()
    return email


@pytest.mark.parametrize(
    "path, body_of",
    [
        ("webhooks", lambda game_id: {"webhooks": [{"game_id": game_id, "url": BAD_PORT}]}),
        (
            "webhooks",
            lambda game_id: {"webhooks": [{"game_id": game_id, "url": "https://a.example:0/x"}]},
        ),
    ],
)
def test_a_webhook_port_out_of_range_is_refused_when_set(app, api, path, body_of):
    game_id, keys = api.new_game(["red", "blue"])
    before = table_snapshot(app)
    response = api.client.put(
        "/api/players/me/preferences", json=body_of(game_id), headers=api.auth(keys["red"])
    )
    assert "port must be a number from 1 to 65535" in assert_problem(response, 422)["detail"]
    assert table_snapshot(app) == before


def test_a_push_endpoint_the_signer_cannot_name_is_refused_when_set(app, api):
    _game_id, keys = api.new_game(["red", "blue"])
    before = table_snapshot(app)
    body = {"endpoint": IPV6_PUSH, "expirationTime": None, "keys": Browser().keys()}
    response = api.client.post(
        "/api/players/me/push-subscriptions", json=body, headers=api.auth(keys["red"])
    )
    assert "IPv6 literal" in assert_problem(response, 422)["detail"]
    assert table_snapshot(app) == before


def test_a_pass_that_fails_is_reported_until_one_succeeds(bad_app, monkeypatch):
    api = Api(bad_app.test_client())
    set_now(bad_app, T0)
    with bad_app.app_context():
        sweep()
        deliver_due()
        db.session.remove()

    def broken(app):
        raise RuntimeError("the DKIM key cannot be read")

    monkeypatch.setattr(sender, "transport", broken)
    set_now(bad_app, T0 + timedelta(seconds=5))
    with bad_app.app_context(), pytest.raises(RuntimeError):
        deliver_due()
    health = api.get("/api/health").get_json()
    assert health["status"] == "failing"
    assert any("mail sender's passes are failing" in p for p in health["problems"]), health
    monkeypatch.undo()
    with bad_app.app_context():
        deliver_due()
        db.session.remove()
    assert api.get("/api/health").get_json()["problems"] == []
