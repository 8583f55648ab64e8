"""Web Push: notifications on a player's devices, through their browsers' push services.

A browser that subscribed (`pbem.play.push`) gave an endpoint at its push service and two
keys; each push is a short JSON (`{"title", "body", "url"}`, in its reader's language)
encrypted to those keys (RFC 8291, aes128gcm) and signed with this server's VAPID key
(RFC 8292), so only that browser reads it and its push service knows who sent it. It goes
through a third party, and lights up a locked screen: it says only what anyone at the table
may know (that a decision is theirs, who wrote to the table, that the game ended), never a
hand, a pick or an order, and its link is the game's page, with no key in it.

Pushes are outbox rows (`channel` "push", one per subscription, its endpoint the
`recipient`) written in the transaction of the change, composed and sent by the sender like
mail. Where an endpoint may be is the webhooks' rule (`webhooks.PUSH`), checked when it is
stored and again when sent. A push service answering 404 or 410 says the subscription has
ended: it is deleted (`Gone`); any other failure is retried as a webhook's.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Mapping
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from flask import Flask, current_app
from py_vapid import Vapid02
from sqlalchemy import delete, select

from pbem.config import instance_file
from pbem.extensions import db
from pbem.languages import N_, _, in_language
from pbem.notify import webhooks
from pbem.notify.payloads import PushPayload
from pbem.store.models import PushSubscription
from pbem.words import ASKS

#: The instance folder's file holding the VAPID key when PBEM_VAPID_PRIVATE_KEY is unset.
KEY_FILE = "vapid_private_key.pem"
#: The most browsers one player may have notified.
MOST_SUBSCRIPTIONS = 10
#: How long a push service keeps a push for a browser that is offline: a decision waits
#: longer than that anyway, and its mail tells it too.
TTL_SECONDS = 24 * 3600
#: How long a VAPID signature is good for (RFC 8292: at most a day).
SIGNATURE_SECONDS = 12 * 3600
#: The kinds of news a player may be pushed (`message`): their preferences name the first
#: three; a hint ready goes as their decisions' preference says.
KINDS = ("decision", "table_talk", "game_over", "hint")


class Gone(OSError):
    """The push service says the subscription has ended (404, 410): it was deleted."""


def _key_from(text: str) -> Vapid02:
    """A configured key: PEM, or base64url of its raw 32 bytes or its DER."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        return Vapid02.from_pem(text.encode())
    return Vapid02.from_string(text)


def _new_key() -> str:
    key = Vapid02()
    key.generate_keys()
    pem: bytes = key.private_pem()
    return pem.decode()


def vapid_key(app: Flask) -> Vapid02:
    """This server's VAPID key: PBEM_VAPID_PRIVATE_KEY, else the one kept in the instance
    folder (made on first use, as the secret key is)."""
    configured = app.config.get("PBEM_VAPID_PRIVATE_KEY")
    if configured:
        return _key_from(configured)
    return Vapid02.from_pem(instance_file(app, KEY_FILE, _new_key).encode())


def key_path(app: Flask) -> Path | None:
    """Where the key is kept, or None when a setting gives it."""
    if app.config.get("PBEM_VAPID_PRIVATE_KEY"):
        return None
    return Path(app.instance_path) / KEY_FILE


def public_key(app: Flask) -> str:
    """The VAPID public key as a browser's `applicationServerKey` takes it: the uncompressed
    P-256 point, base64url."""
    point = vapid_key(app).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(point)


def subject(config: Mapping[str, Any]) -> str | None:
    """Whom a push service may contact about our pushes: PBEM_VAPID_SUBJECT, else mailto:
    MAIL_FROM's address, else the site if it is https; None if nothing says."""
    if config.get("PBEM_VAPID_SUBJECT"):
        return str(config["PBEM_VAPID_SUBJECT"])
    address = parseaddr(config.get("MAIL_FROM") or "")[1]
    if "@" in address:
        return f"mailto:{address}"
    base = config.get("PBEM_BASE_URL") or ""
    return base if base.startswith("https://") else None


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes | None:
    """base64url (padded or not) as bytes, or None if it is not."""
    if (
        not text
        or len(text) > 200
        or text.strip("=").strip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    ):
        return None
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def bad_key(p256dh: str, auth: str) -> str | None:
    """Which of a subscription's keys cannot be encrypted to ("p256dh", "auth"), or None:
    `p256dh` must be a P-256 public key (65 bytes, uncompressed), `auth` 16 bytes, both
    base64url."""
    point = _unb64(p256dh)
    try:
        if point is None or len(point) != 65:
            raise ValueError
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return "p256dh"
    secret = _unb64(auth)
    if secret is None or len(secret) != 16:
        return "auth"
    return None


def message(kind: str, payload: PushPayload, title: str, link: str, language: str) -> str:
    """The push of a row of `kind`, as JSON: its game's title, what happened in a line (only
    what anyone at the table may know), and the game's page."""
    with in_language(language):
        if kind == "decision":
            body = _(ASKS.get(payload.get("decision_kind", ""), N_("A decision is yours.")))
        elif kind == "hint":
            body = _("Your hint is ready: open the game to see it.")
        elif kind == "table_talk":
            said = " ".join(payload.get("lines") or [])
            short = said if len(said) <= 120 else said[:119] + "…"
            body = _("%(speaker)s: %(words)s", speaker=payload.get("speaker", ""), words=short)
        else:
            body = _("The game is over: its final scores are on its page.")
    return json.dumps({"title": title, "body": body, "url": link}, ensure_ascii=False)


def _signed(endpoint: str, key: Vapid02, config: Mapping[str, Any]) -> str:
    claims: dict[str, Any] = {
        "aud": webhooks.origin(endpoint),
        "exp": int(time.time()) + SIGNATURE_SECONDS,
    }
    sub = subject(config)
    if sub:
        claims["sub"] = sub
    authorization: str = key.sign(claims)["Authorization"]
    return authorization


def send(row: Any, key: Vapid02) -> None:
    """Push a composed row to its subscription (if it is still its player's). Raises Gone
    (the subscription deleted) when the push service says it has ended, OSError to retry,
    and webhooks.WebhookRefused where this server will not post."""
    config = current_app.config
    subscription = db.session.execute(
        select(PushSubscription).where(
            PushSubscription.endpoint == row.recipient,
            PushSubscription.player_id == row.player_id,
        )
    ).scalar_one_or_none()
    if subscription is None:
        raise Gone("the subscription was removed before this push went out")
    # Checked before it is signed: an endpoint the signer refuses (kept by an older release)
    # fails its own row for good, as any endpoint this server will not post to.
    refused = webhooks.refusal(subscription.endpoint, config, webhooks.PUSH)
    if refused is not None:
        raise webhooks.WebhookRefused(refused)
    # Imported when a push is first sent: pywebpush brings requests and aiohttp (0.17 s),
    # which no other process needs.
    from pywebpush import WebPusher

    keys = {"p256dh": subscription.p256dh, "auth": subscription.auth}
    pusher = WebPusher({"endpoint": subscription.endpoint, "keys": keys})
    body: bytes = pusher.encode(row.message.encode(), "aes128gcm")["body"]
    headers = {
        "Content-Type": "application/octet-stream",
        "Content-Encoding": "aes128gcm",
        "TTL": str(TTL_SECONDS),
        "Urgency": "normal",
        "Authorization": _signed(subscription.endpoint, key, config),
    }
    status = webhooks.send(subscription.endpoint, body, headers, config, webhooks.PUSH)
    if status in (404, 410):
        db.session.execute(delete(PushSubscription).where(PushSubscription.id == subscription.id))
        raise Gone(f"the push service answered {status}: the subscription has ended, deleted")
    if status >= 300:
        raise OSError(f"the push service answered {status}")
