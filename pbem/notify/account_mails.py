"""The mails of a player's account, queued in the transaction that causes them: a new API
key, a moderator's word, a sign-in link, an address change told to both addresses."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import Connection

from pbem.languages import language_of
from pbem.notify import compose
from pbem.notify.compose import Recipient
from pbem.notify.outbox import (
    queue,
    recipient,
    row,
    rows_for,
)
from pbem.store.models import Player


def queue_key_mail(connection: Connection, player: Player, key: str) -> None:
    to = recipient(player)
    queue(connection, rows_for([(to, "key", compose.key_mail(to, key))], None))


def queue_moderation_mail(
    connection: Connection, player: Player, action: str, until: datetime | None, reason: str
) -> None:
    """What an operator did to the player, and why (`compose.moderation_mail`)."""
    to = recipient(player)
    mail = compose.moderation_mail(to, action, until, reason)
    queue(connection, rows_for([(to, "moderation", mail)], None))


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
    language = language_of(player.preferences if player else None, language)
    name = player.name if player is not None else email.partition("@")[0]
    to = Recipient(player.id if player else 0, email, name, None, language=language)
    known = player is not None
    mail = compose.sign_in_mail(to, link, minutes, known=known, registering=registering)
    sent = row(
        game_id=None,
        player_id=player.id if player else None,
        kind="sign_in",
        recipient=email,
        message=mail.as_string(),
    )
    queue(connection, [sent])


def queue_email_change_mails(
    connection: Connection, player: Player, new_email: str, link: str | None, hours: int
) -> None:
    """An address change: with `link`, asked for (the link, to the new address); without,
    done (a notice to the old address, `player.email` still, so a change they did not make
    is seen)."""
    if link is not None:
        to = recipient(player, email=new_email)
        mail = compose.email_change_mail(to, link, hours, old_email=player.email)
        kind = "email_change"
    else:
        to = recipient(player)
        mail = compose.email_changed_mail(to, new_email)
        kind = "email_changed"
    sent = row(
        game_id=None,
        player_id=player.id,
        kind=kind,
        recipient=to.email,
        message=mail.as_string(),
    )
    queue(connection, [sent])
