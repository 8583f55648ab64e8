"""Addresses proved without a link: a player shows an address is theirs by following a link
mailed to it (`accounts`), and also by what only its reader could have done.

- A reply to a seat's signed reply address, from the seat holder's own address and past the
  mail door's sender checks, proves that address (`prove_by_reply`, in the mail's
  transaction): the reply address was mailed to it alone.
- After an upgrade from a release that kept no proof (before proved addresses, every
  player's `email_proved_at` is null, so nobody is rated), the operator proves those who
  played here already (`pbem players prove`): whoever made a move or said a word to the
  table themselves (by a reply from that address, or through the API or a page, with their
  key or signed in). A key was shown to whoever registered it in those releases, so an API
  move shows the key, not the mailbox: the operator who doubts an address lists them first
  (`dry_run`) and proves one at a time (`prove_address`).
"""

from __future__ import annotations

from sqlalchemy import exists, select, update
from sqlalchemy.engine import Connection

from pbem.clock import now
from pbem.extensions import db
from pbem.store import tables
from pbem.store.models import is_person

#: The people whose address is not proved yet.
_UNPROVED = is_person(tables.players.c.email) & tables.players.c.email_proved_at.is_(None)

#: Something they did themselves here: a move (theirs, or their orders'), a word to a table.
_ACTED = exists().where(tables.moves.c.player_id == tables.players.c.id) | exists().where(
    tables.table_talk.c.player_id == tables.players.c.id
)


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


def prove_those_who_played(*, dry_run: bool = False) -> list[str]:
    """Prove the address of every person not proved yet who made a move or said a word here
    themselves; the addresses, in order (with `dry_run`, those it would prove, proving
    none). The caller commits."""
    found = db.session.execute(
        select(tables.players.c.id, tables.players.c.email)
        .where(_UNPROVED, _ACTED)
        .order_by(tables.players.c.email)
    ).all()
    if found and not dry_run:
        db.session.execute(
            update(tables.players)
            .where(tables.players.c.id.in_([row.id for row in found]))
            .values(email_proved_at=now())
        )
    return [row.email for row in found]


def prove_address(email: str, *, dry_run: bool = False) -> tuple[bool, bool] | None:
    """Prove one person's address, whatever they did here (the operator vouches for it):
    whether it was unproved (and so is proved now, unless `dry_run`), and whether its
    player had made a move or said a word here; None when no person has it. The caller
    commits."""
    row = db.session.execute(
        select(
            tables.players.c.id,
            tables.players.c.email_proved_at.is_(None).label("unproved"),
            _ACTED.label("acted"),
        ).where(tables.players.c.email == email.strip().lower(), is_person(tables.players.c.email))
    ).first()
    if row is None:
        return None
    if row.unproved and not dry_run:
        db.session.execute(
            update(tables.players)
            .where(tables.players.c.id == row.id)
            .values(email_proved_at=now())
        )
    return bool(row.unproved), bool(row.acted)
