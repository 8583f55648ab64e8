"""Web Push: a browser's subscription is checked as a webhook's URL is (the same code) and
capped; a decision reaches a push service (a local one here) signed with the server's VAPID
key and encrypted to the browser's keys, saying nothing a seat hides; a push service's 404
and 410 end the subscription, its 500 is retried."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from py_vapid import Vapid02

from pbem import create_app
from pbem.extensions import db
from pbem.notify import push
from pbem.store.models import Notification, PushSubscription
from pbem.words import ASKS
from tests.server.conftest import Api, assert_problem, empty_tables
from tests.server.test_mail_out import deliver
from tests.server.test_storage import _prune

SUBJECT = "mailto:operator@pbem.example"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser keeps for a subscription: an ECDH key pair and an auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict[str, str]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64(point), "auth": b64(self.auth)}

    def read(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


class PushService:
    """A push service on 127.0.0.1: keeps what it receives, answers `status`."""

    def __init__(self) -> None:
        self.received: list[dict] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                length = int(self.headers["Content-Length"])
                service.received.append(
                    {
                        "path": self.path,
                        "headers": dict(self.headers),
                        "body": self.rfile.read(length),
                    }
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def endpoint(self) -> str:
        return f"{self.origin}/push/{uuid.uuid4().hex}"


@pytest.fixture
def service():
    made = PushService()
    made.thread.start()
    yield made
    made.server.shutdown()


@pytest.fixture(scope="module")
def vapid_pem() -> str:
    key = Vapid02()
    key.generate_keys()
    return key.private_pem().decode()


@pytest.fixture
def push_app(database_url, vapid_pem):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "MAIL_FROM": "El Grande <play@pbem.example>",
            "PBEM_BASE_URL": "https://pbem.example",
            # The local push service listens on plain http on this machine.
            "PBEM_PUSH_ALLOW_HTTP": True,
            "PBEM_PUSH_ALLOWED_HOSTS": "127.0.0.1",
            "PBEM_VAPID_PRIVATE_KEY": vapid_pem,
            "PBEM_VAPID_SUBJECT": SUBJECT,
            "PBEM_DEFAULT_TIMING": {"takeover_bot": "greedy"},
        }
    )
    yield app
    empty_tables(app)


@pytest.fixture
def push_api(push_app):
    return Api(push_app.test_client())


def subscribe(api: Api, key: str, endpoint: str, keys: dict[str, str]):
    body = {"endpoint": endpoint, "expirationTime": None, "keys": keys}
    return api.client.post("/api/players/me/push-subscriptions", json=body, headers=api.auth(key))


def game_with_subscriber(api: Api, service: PushService, browser: Browser, options=None):
    """Three players, red's browser subscribed before the game is made (with `options`);
    the game's id, the keys, red's endpoint, and the game's title."""
    tag = uuid.uuid4().hex[:8]
    colours = ["red", "blue", "green"]
    keys = {c: api.register(f"{c}-{tag}@example.org", c.title()) for c in colours}
    endpoint = service.endpoint()
    assert subscribe(api, keys["red"], endpoint, browser.keys()).status_code == 201
    title = f"Push {tag}"
    body = {
        "title": title,
        "seats": [{"email": f"{c}-{tag}@example.org", "colour": c} for c in colours],
        **({"options": options} if options else {}),
    }
    made = api.client.post("/api/games", json=body, headers=api.auth(keys["red"]))
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"], keys, endpoint, title


def until_red_decides(api: Api, game_id: int, keys: dict[str, str]) -> dict:
    """The others play (first legal move) until a decision is red's; red's view then."""
    for _ in range(20):
        view = api.get(f"/api/games/{game_id}", keys["red"]).get_json()
        colours = [p["player"] for p in view["pending"]]
        if "red" in colours:
            return view
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colours[0]]).get_json()
        played = api.post_moves(game_id, keys[colours[0]], legal["moves"][:1], legal["seq"])
        assert played.status_code == 201, played.get_json()
    raise AssertionError("red never had a decision")


def verify_vapid(header: str, origin: str, public_key: str) -> dict:
    """The claims of a `vapid t=<JWT>, k=<key>` header, its ES256 signature checked with
    `k`, which must be the server's public key."""
    scheme, _, rest = header.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert fields["k"] == public_key
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    said = json.loads(unb64(claims))
    assert said["aud"] == origin
    assert time.time() < said["exp"] <= time.time() + 24 * 3600
    assert said["sub"] == SUBJECT
    return said


def push_rows(app):
    with app.app_context():
        rows = db.session.scalars(
            sa.select(Notification).where(Notification.channel == "push")
        ).all()
        db.session.expunge_all()
    return rows


def subscriptions(app):
    with app.app_context():
        return db.session.scalars(sa.select(PushSubscription.endpoint)).all()


def test_a_decision_is_pushed_signed_encrypted_and_without_hidden_information(
    push_app, push_api, service
):
    browser = Browser()
    game_id, keys, endpoint, title = game_with_subscriber(push_api, service, browser)
    view = until_red_decides(push_api, game_id, keys)
    red_pending = [p for p in view["pending"] if p["player"] == "red"]
    result = deliver(push_app)
    assert result.failed == 0 and result.retried == 0, result.errors
    (received,) = [r for r in service.received if f"{service.origin}{r['path']}" == endpoint]
    headers = received["headers"]
    assert headers["Content-Encoding"] == "aes128gcm"
    assert int(headers["TTL"]) > 0
    with push_app.app_context():
        public = push.public_key(push_app)
    verify_vapid(headers["Authorization"], service.origin, public)
    said = browser.read(received["body"])
    asked = ASKS[red_pending[0]["kind"]]
    assert said == {"title": title, "body": asked, "url": f"https://pbem.example/games/{game_id}"}
    # Nothing a seat hides: no card of red's hand, no key or signed link in the URL.
    hand = view["players"]["red"]["hand"]
    assert hand and not any(str(card) in said["body"] for card in hand)
    assert "sign-in" not in said["url"]
    assert all(row.status == "sent" for row in push_rows(push_app))


def test_words_to_the_table_are_pushed_to_the_others(push_app, push_api, service):
    browser = Browser()
    game_id, keys, endpoint, title = game_with_subscriber(push_api, service, browser)
    deliver(push_app)
    service.received.clear()
    said = push_api.client.post(
        f"/api/games/{game_id}/messages",
        json={"text": "I take Castilla"},
        headers=push_api.auth(keys["blue"]),
    )
    assert said.status_code in (200, 201), said.get_json()
    deliver(push_app)
    (received,) = service.received
    assert browser.read(received["body"]) == {
        "title": title,
        "body": "Blue: I take Castilla",
        "url": f"https://pbem.example/games/{game_id}",
    }


def test_a_hint_asked_on_the_api_is_pushed_when_ready_and_says_no_move(push_app, push_api, service):
    from pbem.play import advice

    push_app.config["PBEM_HINT_PLAYOUTS"] = 2
    browser = Browser()
    game_id, keys, _endpoint, title = game_with_subscriber(
        push_api, service, browser, options={"hints": True}
    )
    until_red_decides(push_api, game_id, keys)
    deliver(push_app)
    service.received.clear()
    asked = push_api.get(f"/api/games/{game_id}/hint?colour=red", keys["red"])
    assert asked.status_code == 202
    deliver(push_app)
    assert not service.received  # nothing until it is worked out
    with push_app.app_context():
        assert advice.answer_hints() == 1
        db.session.remove()
    deliver(push_app)
    (received,) = service.received
    said = browser.read(received["body"])
    assert said == {
        "title": title,
        "body": "Your hint is ready: open the game to see it.",
        "url": f"https://pbem.example/games/{game_id}",
    }
    # The moves themselves only by the API (or the page), to the seat's key.
    hint = push_api.get(f"/api/games/{game_id}/hint?colour=red", keys["red"]).get_json()
    assert hint["answered"] and len(hint["moves"]) == 3


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_has_ended_is_deleted(
    push_app, push_api, service, status
):
    service.status = status
    game_id, keys, _, _ = game_with_subscriber(push_api, service, Browser())
    until_red_decides(push_api, game_id, keys)
    deliver(push_app)
    assert subscriptions(push_app) == []
    (row,) = push_rows(push_app)
    assert row.status == "failed" and f"answered {status}" in row.last_error
    # The game's maker (red) is not shown it: the endpoint is red's device's alone.
    assert not push_api.get(f"/api/games/{game_id}", keys["red"]).get_json().get("undelivered")
    # Nothing more is pushed to it.
    service.received.clear()
    deliver(push_app)
    assert service.received == []
    # Nobody deals with it: it leaves the outbox after the retention, as a sent row does.
    assert _prune(push_app, datetime.now(UTC) + timedelta(days=29)) == 0
    assert _prune(push_app, datetime.now(UTC) + timedelta(days=31)) >= 1
    assert push_rows(push_app) == []


def test_a_push_service_error_is_retried_later(push_app, push_api, service):
    service.status = 500
    game_id, keys, endpoint, _ = game_with_subscriber(push_api, service, Browser())
    until_red_decides(push_api, game_id, keys)
    result = deliver(push_app)
    assert result.retried == 1
    (row,) = push_rows(push_app)
    assert (row.status, row.attempts) == ("queued", 1)
    assert "answered 500" in row.last_error
    assert subscriptions(push_app) == [endpoint]


# --- where a subscription may point, its keys, the cap, whose it is ------------------------


def test_an_http_endpoint_is_refused_without_allow_http(app, api):
    key = api.register("plain@example.org")
    before = subscriptions(app)
    response = subscribe(api, key, "http://push.example.org/x", Browser().keys())
    assert "must use https" in assert_problem(response, 422)["detail"]
    assert subscriptions(app) == before


@pytest.mark.parametrize(
    "endpoint, words",
    [
        ("https://127.0.0.1/push", "127.0.0.1 is a loopback address"),
        ("https://10.0.0.5/push", "10.0.0.5 is a private address"),
        ("https://localhost/push", "localhost is a name of the local network"),
    ],
)
def test_an_endpoint_on_this_machine_or_inside_is_refused(app, api, endpoint, words):
    key = api.register(f"inside-{uuid.uuid4().hex[:6]}@example.org")
    response = subscribe(api, key, endpoint, Browser().keys())
    problem = assert_problem(response, 422)
    assert words in problem["detail"] and problem["code"] == "push-endpoint-refused"
    assert subscriptions(app) == []


def test_only_the_hosts_the_operator_names_are_allowed_inside(push_app, push_api):
    """127.0.0.1 is named (PBEM_PUSH_ALLOWED_HOSTS), 10.0.0.5 is not; the webhooks' own
    setting allows nothing for pushes."""
    key = push_api.register("named@example.org")
    refused = subscribe(push_api, key, "https://10.0.0.5/push", Browser().keys())
    assert "10.0.0.5 is a private address" in assert_problem(refused, 422)["detail"]
    assert subscribe(push_api, key, "https://127.0.0.1/push", Browser().keys()).status_code == 201
    push_app.config["PBEM_WEBHOOK_ALLOWED_HOSTS"] = "10.0.0.5"
    again = subscribe(push_api, key, "https://10.0.0.5/push", Browser().keys())
    assert_problem(again, 422)


def test_a_host_the_operator_names_is_allowed(push_app, push_api, service):
    key = push_api.register("allowed@example.org")
    response = subscribe(push_api, key, service.endpoint(), Browser().keys())
    assert response.status_code == 201
    assert response.get_json()["host"] == "127.0.0.1"
    assert set(response.get_json()) == {"id", "host", "created_at"}


@pytest.mark.parametrize(
    "keys, code",
    [
        ({"p256dh": "A" * 87, "auth": b64(os.urandom(16))}, "push-key-invalid"),  # not a point
        ({"p256dh": None, "auth": b64(os.urandom(16))}, None),
        ({"p256dh": b64(os.urandom(65)), "auth": "short"}, None),
        ({"p256dh": "not base64 at all!" * 5, "auth": b64(os.urandom(16))}, None),
    ],
)
def test_malformed_keys_are_refused(push_app, push_api, service, keys, code):
    key = push_api.register(f"keys-{uuid.uuid4().hex[:6]}@example.org")
    problem = assert_problem(subscribe(push_api, key, service.endpoint(), keys), 422)
    if code is not None:
        assert problem["code"] == code
        assert "P-256 public key" in problem["detail"]
    assert subscriptions(push_app) == []


def test_an_auth_secret_of_the_wrong_length_is_refused(push_app, push_api, service):
    key = push_api.register("auth@example.org")
    keys = {**Browser().keys(), "auth": b64(os.urandom(17))}  # 23 characters: the schema's
    problem = assert_problem(subscribe(push_api, key, service.endpoint(), keys), 422)
    assert problem["code"] == "push-auth-invalid" and "16 bytes" in problem["detail"]


def test_at_most_ten_browsers_and_the_same_one_again_counts_once(push_app, push_api, service):
    key = push_api.register("many@example.org")
    endpoints = [service.endpoint() for _ in range(push.MOST_SUBSCRIPTIONS)]
    for endpoint in endpoints:
        assert subscribe(push_api, key, endpoint, Browser().keys()).status_code == 201
    again = subscribe(push_api, key, endpoints[0], Browser().keys())
    assert again.status_code == 201  # the same browser, its keys replaced
    problem = assert_problem(subscribe(push_api, key, service.endpoint(), Browser().keys()), 422)
    assert problem["code"] == "too-many-push-subscriptions" and "10 devices" in problem["detail"]
    listed = push_api.get("/api/players/me/push-subscriptions", key).get_json()["subscriptions"]
    assert len(listed) == 10 and {s["host"] for s in listed} == {"127.0.0.1"}


def test_one_player_cannot_list_or_remove_anothers(push_app, push_api, service):
    ada, bob = push_api.register("ada@example.org"), push_api.register("bob@example.org")
    made = subscribe(push_api, ada, service.endpoint(), Browser().keys()).get_json()
    assert push_api.get("/api/players/me/push-subscriptions", bob).get_json() == {
        "subscriptions": []
    }
    path = f"/api/players/me/push-subscriptions/{made['id']}"
    gone = push_api.client.delete(path, headers=push_api.auth(bob))
    assert assert_problem(gone, 404)["code"] == "no-such-push-subscription"
    (kept,) = push_api.get("/api/players/me/push-subscriptions", ada).get_json()["subscriptions"]
    assert kept["id"] == made["id"] and "keys" not in kept and "endpoint" not in kept
    removed = push_api.client.delete(path, headers=push_api.auth(ada))
    assert removed.status_code == 200 and removed.get_json() == {"subscriptions": []}
    # An id past any the database holds is not found, never an overflow (a 500).
    for far in (2**31, 2**63, 10**30):
        huge = push_api.client.delete(
            f"/api/players/me/push-subscriptions/{far}", headers=push_api.auth(ada)
        )
        assert assert_problem(huge, 404)["code"] == "no-such-push-subscription"


def test_a_player_who_wants_no_decision_pushes_gets_none(push_app, push_api, service):
    tag = uuid.uuid4().hex[:8]
    key = push_api.register(f"quiet-{tag}@example.org")
    preferences = {"push": {"decision": False}}
    put = push_api.client.put(
        "/api/players/me/preferences", json=preferences, headers=push_api.auth(key)
    )
    assert put.get_json()["push"] == {"decision": False, "table_talk": True, "game_over": True}
    assert subscribe(push_api, key, service.endpoint(), Browser().keys()).status_code == 201
    other = push_api.register(f"other-{tag}@example.org")
    body = {
        "title": "Quiet",
        "seats": [
            {"email": f"quiet-{tag}@example.org", "colour": "red"},
            {"email": f"other-{tag}@example.org", "colour": "blue"},
        ],
    }
    assert (
        push_api.client.post("/api/games", json=body, headers=push_api.auth(other)).status_code
        == 201
    )
    deliver(push_app)
    assert push_rows(push_app) == [] and service.received == []


def test_the_spec_lists_the_push_routes_and_schemas(api):
    spec = api.client.get("/api/openapi.json").get_json()
    routes = spec["paths"]["/api/players/me/push-subscriptions"]
    assert {"get", "post"} <= set(routes)
    assert "delete" in spec["paths"]["/api/players/me/push-subscriptions/{subscription_id}"]
    schemas = spec["components"]["schemas"]
    assert schemas["PushKeys"]["properties"]["auth"]["minLength"] == 22
    assert set(schemas["PushSubscription"]["properties"]) == {"id", "host", "created_at"}


def test_the_games_end_is_pushed(push_app, push_api, service):
    browser = Browser()
    tag = uuid.uuid4().hex[:8]
    keys = {c: push_api.register(f"{c}-{tag}@example.org", c.title()) for c in ("red", "blue")}
    assert subscribe(push_api, keys["blue"], service.endpoint(), browser.keys()).status_code == 201
    body = {
        "title": "Short",
        "seats": [{"email": f"{c}-{tag}@example.org", "colour": c} for c in keys],
        "options": {"rounds": 6},
    }
    game_id = push_api.client.post("/api/games", json=body, headers=push_api.auth(keys["red"]))
    game_id = game_id.get_json()["id"]
    for _ in range(2000):
        view = push_api.get(f"/api/games/{game_id}").get_json()
        if not view["pending"]:
            break
        colour = view["pending"][0]["player"]
        legal = push_api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        played = push_api.post_moves(game_id, keys[colour], legal["moves"][:1], legal["seq"])
        assert played.status_code == 201, played.get_json()
    assert view["status"] == "finished", view["status"]
    deliver(push_app)
    said = [browser.read(r["body"]) for r in service.received]
    assert said[-1] == {
        "title": "Short",
        "body": "The game is over: its final scores are on its page.",
        "url": f"https://pbem.example/games/{game_id}",
    }
    # Each of blue's decisions was pushed too, and nothing else.
    assert {s["body"] for s in said[:-1]} <= set(ASKS.values())


def test_a_move_with_nobody_subscribed_reads_no_subscription(push_app, push_api):
    """Who subscribed comes with the table's recipients, read after every batch anyway: a
    game whose players subscribed no browser reads the subscriptions on no move of its own,
    and queues no push."""
    api = push_api
    game_id, keys = api.new_game(["red", "blue", "green"])
    read: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        read.append(statement)

    with push_app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        for _ in range(4):
            view = api.get(f"/api/games/{game_id}").get_json()
            colour = view["pending"][0]["player"]
            legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
            played = api.post_moves(game_id, keys[colour], legal["moves"][:1], legal["seq"])
            assert played.status_code == 201, played.get_json()
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    # The recipients' read names the table in its EXISTS; no statement reads from it alone.
    alone = [s for s in read if "FROM push_subscriptions" in s and "EXISTS" not in s]
    assert read and not alone, alone
    assert [r for r in push_rows(push_app) if r.game_id == game_id] == []
