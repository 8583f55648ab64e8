"""The mails of a player's account, queued in the transaction that causes them: a new API
key, a moderator's word, a sign-in link, an address change told to both addresses.

Each is queued as what it says (a row's `payload`, no message yet), as a move's mails are,
and composed by the sender in its reader's language (`composing.account_mail`): no mail
is rendered in the transaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Connection

from pbem.languages import language_of
from pbem.notify.outbox import queue, row
from pbem.notify.payloads import (
    EmailChangedPayload,
    EmailChangePayload,
    KeyPayload,
    ModerationPayload,
    Payload,
    SignInPayload,
)
from pbem.store.models import Player


def _account_row(
    connection: Connection, player_id: int | None, email: str, kind: str, payload: Payload
) -> None:
    queue(
        connection,
        [row(game_id=None, player_id=player_id, kind=kind, recipient=email, payload=payload)],
    )


def queue_key_mail(connection: Connection, player: Player, key: str) -> None:
    _account_row(connection, player.id, player.email, "key", KeyPayload(key=key))


def queue_moderation_mail(
    connection: Connection, player: Player, action: str, until: datetime | None, reason: str
) -> None:
    """What an operator did to the player, and why (`compose.moderation_mail`)."""
    payload = ModerationPayload(
        action=action, until=until.isoformat() if until is not None else None, reason=reason
    )
    _account_row(connection, player.id, player.email, "moderation", payload)


def queue_sign_in_mail(
    connection: Connection,
    email: str,
    player: Player | None,
    link: str,
    minutes: int,
    language: str | None = None,
    registering: bool = False,
) -> None:
    """A sign-in link to `email`, whether or not it has a player yet (the link makes one):
    in the player's language, else the one the page asking for it was in. `registering`:
    asked for by `POST /api/players`, so the mail says the link shows an API key."""
    payload = SignInPayload(
        # Who they are as they asked: a player made meanwhile by the link changes nothing.
        name=player.name if player is not None else email.partition("@")[0],
        language=language_of(player.preferences if player else None, language),
        known=player is not None,
        registering=registering,
        link=link,
        minutes=minutes,
    )
    _account_row(connection, player.id if player else None, email, "sign_in", payload)


def queue_email_change_mails(
    connection: Connection, player: Player, new_email: str, link: str | None, hours: int
) -> None:
    """An address change: with `link`, asked for (the link, to the new address); without,
    done (a notice to the old address, `player.email` still, so a change they did not make
    is seen)."""
    if link is not None:
        change = EmailChangePayload(link=link, hours=hours, old_email=player.email)
        _account_row(connection, player.id, new_email, "email_change", change)
    else:
        changed = EmailChangedPayload(new_email=new_email)
        _account_row(connection, player.id, player.email, "email_changed", changed)
