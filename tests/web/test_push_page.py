"""/me's "Notifications on this device": the section and its sentences, the service worker
from the site's root, the page's route that stores a subscription (the session's player, the
form's CSRF token, the API's checks), removing a device and choosing what is pushed; the
pages' CSP lets this site's worker run and nothing more."""

from __future__ import annotations

import base64
import json
import os

import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from pbem.extensions import db
from pbem.headers import OTHER_POLICY
from pbem.notify import push
from pbem.store.models import Player, PushSubscription
from tests.web.helpers import page, sign_in_seat

ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc123"


def browser_keys() -> dict[str, str]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    encode = base64.urlsafe_b64encode
    return {"p256dh": encode(point).decode(), "auth": encode(os.urandom(16)).decode()}


def signed_in_red(app, api, client):
    game_id, keys = api.new_game(["red", "blue"])
    sign_in_seat(app, client, game_id, "red")
    section = page(client, "/me").find("section", id="push")
    return keys, section


def stored(app) -> list[tuple[int, str]]:
    with app.app_context():
        rows = db.session.execute(
            sa.select(PushSubscription.player_id, PushSubscription.endpoint)
        ).all()
    return [tuple(r) for r in rows]


def red_id(app, keys) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(Player.id).where(Player.name == "Red"))


def test_me_offers_notifications_with_the_servers_key_and_clear_sentences(app, api, client):
    _, section = signed_in_red(app, api, client)
    with app.app_context():
        assert section.get("data-key") == push.public_key(app)
    assert section.get("data-worker") == "/push-worker.js"
    assert section.get("data-scope") == "/"
    assert section.get("data-store") == "/me/push-subscriptions"
    assert "no Push API" in section.get("data-unsupported")
    assert "blocked in this browser" in section.get("data-denied")
    assert section.find("button", id="push-subscribe").text == "Notify me on this device"
    kinds = [box.get("value") for box in section.find_all("input", name="push")]
    assert kinds == ["decision", "table_talk", "game_over"]
    html = client.get("/me").get_data(as_text=True)
    assert '<script src="/web/static/push.js" defer></script>' in html


def test_the_worker_is_served_from_the_root_as_a_script(client):
    worker = client.get("/push-worker.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    text = worker.get_data(as_text=True)
    assert "showNotification" in text and "openWindow" in text
    assert worker.headers["Cache-Control"] == "no-cache"
    assert worker.headers["Content-Security-Policy"] == OTHER_POLICY


def test_the_pages_policy_lets_this_sites_worker_run_and_nothing_else(app, api, client):
    signed_in_red(app, api, client)
    policy = dict(
        part.strip().split(" ", 1)
        for part in client.get("/me").headers["Content-Security-Policy"].split(";")
    )
    assert policy["worker-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["connect-src"] == "'self'"
    assert policy["default-src"] == "'none'"


def test_the_page_stores_a_subscription_for_the_signed_in_player(app, api, client):
    keys, section = signed_in_red(app, api, client)
    subscription = {"endpoint": ENDPOINT, "expirationTime": None, "keys": browser_keys()}
    form = {"subscription": json.dumps(subscription)}
    refused = client.post("/me/push-subscriptions", data=form)
    assert refused.status_code == 400 and stored(app) == []  # no CSRF token
    form["csrf_token"] = section.get("data-csrf")
    answer = client.post("/me/push-subscriptions", data=form)
    assert answer.status_code == 201
    assert answer.get_json()["detail"].startswith("This device is notified from now on")
    assert stored(app) == [(red_id(app, keys), ENDPOINT)]
    (device,) = page(client, "/me").find("ul", cls="push-devices").find_all("li")
    assert device.text.strip().startswith("fcm.googleapis.com, since ")


def test_the_page_says_why_a_subscription_is_refused(app, api, client):
    _, section = signed_in_red(app, api, client)
    token = section.get("data-csrf")
    plain = {"endpoint": "http://push.example.org/x", "keys": browser_keys()}
    answer = client.post(
        "/me/push-subscriptions", data={"csrf_token": token, "subscription": json.dumps(plain)}
    )
    assert answer.status_code == 422 and "must use https" in answer.get_json()["detail"]
    garbled = client.post(
        "/me/push-subscriptions", data={"csrf_token": token, "subscription": "{not json"}
    )
    assert garbled.status_code == 422
    assert (
        garbled.get_json()["detail"] == "Your browser's subscription could not be read; try again."
    )
    assert stored(app) == []


def test_a_device_is_removed_and_the_choices_saved_from_me(app, api, client):
    keys, section = signed_in_red(app, api, client)
    token = section.get("data-csrf")
    subscription = json.dumps({"endpoint": ENDPOINT, "keys": browser_keys()})
    client.post("/me/push-subscriptions", data={"csrf_token": token, "subscription": subscription})
    (device,) = page(client, "/me").find("ul", cls="push-devices").find_all("li")
    chosen = {"csrf_token": token, "action": "push", "push": ["decision", "game_over"]}
    assert client.post("/me", data=chosen).status_code == 303
    got = api.get("/api/players/me/preferences", keys["red"]).get_json()["push"]
    assert got == {"decision": True, "table_talk": False, "game_over": True}
    removal = {
        "csrf_token": token,
        "action": "push_remove",
        "subscription": device.get("data-push"),
    }
    assert client.post("/me", data=removal).status_code == 303
    assert stored(app) == []
    assert page(client, "/me").find("ul", cls="push-devices") is None
    # A device that is not one's own, or no device at all, is refused in words, never a 500.
    for odd in ("99999999999999999999999", "²", "-1", ""):
        refused = client.post("/me", data={**removal, "subscription": odd})
        assert refused.status_code == 404, (odd, refused.status_code)
        assert "You have no push subscription" in refused.get_data(as_text=True), odd
