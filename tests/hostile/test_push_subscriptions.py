"""Push subscriptions raced on PostgreSQL against gunicorn: a player's cap of devices holds
against subscriptions sent at once, and one endpoint subscribed by several people at once
is one row, held by one of them, with no 500."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from pbem.extensions import db
from pbem.notify import push
from pbem.store.models import PushSubscription
from tests.hostile.conftest import Server, at_once, running_server, statuses

ENDPOINT = "http://127.0.0.1:9/push/"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    """gunicorn whose push endpoints may be this machine's, over plain http (no push
    service is reached: only subscriptions are stored here)."""
    allowed = {"PBEM_PUSH_ALLOWED_HOSTS": "127.0.0.1", "PBEM_PUSH_ALLOW_HTTP": "1"}
    with running_server(tmp_path_factory, "hostile-push", allowed) as running:
        yield running


def keys() -> dict[str, str]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    encode = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()  # noqa: E731
    return {"p256dh": encode(point), "auth": encode(os.urandom(16))}


def subscribe(server: Server, key: str, endpoint: str):
    body = {"endpoint": endpoint, "keys": keys()}
    return lambda: server.call("POST", "/api/players/me/push-subscriptions", key, body)


def held(server: Server) -> list[tuple[int, str]]:
    with server.app.app_context():
        rows = db.session.execute(
            sa.select(PushSubscription.player_id, PushSubscription.endpoint)
        ).all()
        db.session.remove()
    return [tuple(row) for row in rows]


def test_a_players_cap_of_devices_holds_against_subscriptions_at_once(server):
    _address, key = server.player("ann")
    most = push.MOST_SUBSCRIPTIONS
    answers = at_once([subscribe(server, key, f"{ENDPOINT}ann-{n}") for n in range(most + 6)])
    assert statuses(answers) == {201: most, 422: 6}, statuses(answers)
    refused = [a.json() for a in answers if a.status_code == 422]
    assert {r["code"] for r in refused} == {"too-many-push-subscriptions"}
    listed = server.call("GET", "/api/players/me/push-subscriptions", key).json()
    assert len(listed["subscriptions"]) == most == len(held(server))


def test_one_endpoint_subscribed_by_several_at_once_is_one_row(server):
    players = [server.player(name)[1] for name in ("bo", "cy", "di", "ed", "fay")]
    shared = f"{ENDPOINT}shared"
    answers = at_once([subscribe(server, key, shared) for key in players])
    assert statuses(answers) == {201: len(players)}, [a.text for a in answers]
    rows = [row for row in held(server) if row[1] == shared]
    assert len(rows) == 1, rows
    # The one who holds it lists it; nobody else does.
    listing = [
        server.call("GET", "/api/players/me/push-subscriptions", key).json()["subscriptions"]
        for key in players
    ]
    assert sorted(len(found) for found in listing) == [0, 0, 0, 0, 1]
