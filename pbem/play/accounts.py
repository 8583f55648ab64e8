"""Account changes that send mail: a new API key, mailed."""

from __future__ import annotations

from pbem.extensions import db
from pbem.game.players import is_unreachable, new_api_key, normal_email
from pbem.notify import outbox
from pbem.store.models import Player

#: New keys mailed to one player per hour, at most: a loop or a prankster stops there.
KEY_MAILS_PER_HOUR = 3


def reset_key_by_mail(email: str) -> None:
    """A new key for the player registered as `email`, sent through the outbox; nothing for
    an unknown email, and nothing past the hourly limit (the caller's answer is the same)."""
    player = db.session.execute(
        db.select(Player).where(Player.email == normal_email(email))
    ).scalar_one_or_none()
    if player is None or is_unreachable(player.email):
        return
    if outbox.key_mails_last_hour(player.id) >= KEY_MAILS_PER_HOUR:
        return
    key, player.api_key_hash = new_api_key()
    outbox.queue_key_mail(db.session.connection(), player, key)
