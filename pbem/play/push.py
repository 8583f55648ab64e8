"""A player's browsers notified by Web Push: subscribing one, removing one, listing them
(`pbem.notify.push` sends). The caller commits."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict
from urllib.parse import urlsplit

from flask import current_app
from sqlalchemy import delete, func, select

from pbem.clock import now
from pbem.errors import Invalid, NotFound
from pbem.extensions import db
from pbem.languages import N_
from pbem.notify import push, webhooks
from pbem.store import tables
from pbem.store.models import Player, PushSubscription
from pbem.store.queries import MAX_ID, insert_or_else

#: The longest endpoint stored (the outbox's recipient holds it too).
LONGEST_ENDPOINT = 2000


class Subscribed(TypedDict):
    """A subscription as its player sees it: where it goes, not its keys."""

    id: int
    host: str
    created_at: datetime


def subscribe(player: Player, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep a browser's subscription for `player`: its endpoint where this server may post
    (the webhooks' rule, `webhooks.PUSH`), its keys ones a push can be encrypted to. An
    endpoint already kept (the same browser, subscribed again, or by someone else signed in
    on it since) becomes this player's with the keys given; a new one counts against
    `push.MOST_SUBSCRIPTIONS`."""
    if not endpoint or len(endpoint) > LONGEST_ENDPOINT:
        raise Invalid(
            N_("A push subscription's endpoint is a web address of at most %(most)s characters."),
            code="push-endpoint-invalid",
            most=LONGEST_ENDPOINT,
        )
    refused = webhooks.refusal(endpoint, current_app.config, webhooks.PUSH)
    if refused is not None:
        raise Invalid(refused, code="push-endpoint-refused")
    bad = push.bad_key(p256dh, auth)
    if bad == "p256dh":
        raise Invalid(
            N_(
                "The subscription's p256dh key is not a P-256 public key (65 bytes, "
                "uncompressed, in base64url)."
            ),
            code="push-key-invalid",
        )
    if bad == "auth":
        raise Invalid(
            N_("The subscription's auth secret is not 16 bytes in base64url."),
            code="push-auth-invalid",
        )
    # A player's subscriptions are counted one request at a time (PostgreSQL: their row is
    # locked until the commit), so requests at once cannot pass the cap together.
    db.session.execute(select(Player.id).where(Player.id == player.id).with_for_update())
    known = db.session.scalar(
        select(PushSubscription.id).where(PushSubscription.endpoint == endpoint)
    )
    if known is None:
        count = db.session.scalar(
            select(func.count()).where(PushSubscription.player_id == player.id)
        )
        if (count or 0) >= push.MOST_SUBSCRIPTIONS:
            raise Invalid(
                N_("You have %(most)s devices notified already; remove one to add another."),
                code="too-many-push-subscriptions",
                most=push.MOST_SUBSCRIPTIONS,
            )
    # One row an endpoint, whoever subscribes it at the same moment: the unique endpoint
    # decides, and the last to write holds it (no IntegrityError, no 500).
    held = {"player_id": player.id, "p256dh": p256dh, "auth": auth}
    connection = db.session.connection()
    connection.execute(
        insert_or_else(connection, tables.push_subscriptions)
        .values(endpoint=endpoint, created_at=now(), **held)
        .on_conflict_do_update(index_elements=["endpoint"], set_=held)
    )
    db.session.expire_all()
    return db.session.scalars(
        select(PushSubscription).where(PushSubscription.endpoint == endpoint)
    ).one()


def unsubscribe(player: Player, subscription_id: int) -> None:
    """Remove one of `player`'s subscriptions (another's is not found, as if it were not; an
    id past any the database holds is not found either, not an overflow in the driver)."""
    gone = (
        db.session.execute(
            delete(PushSubscription).where(
                PushSubscription.id == subscription_id, PushSubscription.player_id == player.id
            )
        )
        if 0 < subscription_id <= MAX_ID
        else None
    )
    if not getattr(gone, "rowcount", 0):
        raise NotFound(
            N_("You have no push subscription %(id)s."),
            code="no-such-push-subscription",
            id=subscription_id,
        )


def subscriptions_of(player: Player) -> list[Subscribed]:
    """`player`'s subscriptions, oldest first: each endpoint's host alone."""
    kept = db.session.scalars(
        select(PushSubscription)
        .where(PushSubscription.player_id == player.id)
        .order_by(PushSubscription.id)
    )
    return [shown(s) for s in kept]


def shown(subscription: PushSubscription) -> Subscribed:
    """A subscription as its player is shown it: its endpoint's host alone."""
    host = urlsplit(subscription.endpoint).hostname or ""
    return {"id": subscription.id, "host": host, "created_at": subscription.created_at}
