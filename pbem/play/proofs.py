"""Addresses proved without a link: a player shows an address is theirs by following a link
mailed to it (`accounts`), and also by what only its reader could have done: a reply to a
seat's signed reply address, from the seat holder's own address and past the mail door's
sender checks, proves that address (`prove_by_reply`, in the mail's transaction), for the
reply address was mailed to it alone.
"""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.engine import Connection

from pbem.clock import now
from pbem.store import tables


def prove_by_reply(connection: Connection, player_id: int, sender: str) -> None:
    """The player wrote from `sender`, their address, to their seat's reply address: it is
    theirs from now on, if it was not proved already."""
    connection.execute(
        update(tables.players)
        .where(
            tables.players.c.id == player_id,
            tables.players.c.email == sender,
            tables.players.c.email_proved_at.is_(None),
        )
        .values(email_proved_at=now())
    )
