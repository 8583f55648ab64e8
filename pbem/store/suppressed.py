"""The addresses that asked never to be invited (table `suppressed_addresses`): kept by an
insert a repeat leaves alone, so a second click, or two at once, changes nothing more.

Kept and looked up by mailbox (`pbem.addresses.mailbox`): `ana+games@example.org` asking
never to be invited refuses `ana@example.org` and every `ana+...@example.org`, and the
other way round. A row kept before holds the address as it was asked for, so a lookup
matches the exact address too: nothing suppressed then becomes invitable."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from pbem.addresses import mailbox
from pbem.store import tables
from pbem.store.queries import insert_or_else


def suppress(connection: Connection, email: str, moment: datetime) -> None:
    """Never invite `email`'s mailbox again (a normal, lowercased address); done already:
    nothing."""
    connection.execute(
        insert_or_else(connection, tables.suppressed_addresses)
        .values(email=mailbox(email)[:254], created_at=moment)
        .on_conflict_do_nothing(index_elements=[tables.suppressed_addresses.c.email])
    )


def lift(connection: Connection, email: str) -> None:
    """`email`'s mailbox may be invited again (its holder showed it is theirs by signing in
    with it): its row, and a row kept before for the exact address."""
    connection.execute(
        delete(tables.suppressed_addresses).where(
            tables.suppressed_addresses.c.email.in_(sorted({mailbox(email), email}))
        )
    )


def among(connection: Connection, emails: Iterable[str]) -> set[str]:
    """Which of `emails` asked never to be invited: by their mailbox, or as they are."""
    asked = set(emails)
    if not asked:
        return set()
    found = connection.execute(
        select(tables.suppressed_addresses.c.email).where(
            tables.suppressed_addresses.c.email.in_(sorted(asked | {mailbox(e) for e in asked}))
        )
    )
    kept = set(found.scalars())
    return {email for email in asked if email in kept or mailbox(email) in kept}
