"""The addresses that asked never to be invited (table `suppressed_addresses`): kept by an
insert a repeat leaves alone, so a second click, or two at once, changes nothing more."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from pbem.store import tables
from pbem.store.queries import insert_or_else


def suppress(connection: Connection, email: str, moment: datetime) -> None:
    """Never invite `email` again (a normal, lowercased address); done already: nothing."""
    connection.execute(
        insert_or_else(connection, tables.suppressed_addresses)
        .values(email=email[:254], created_at=moment)
        .on_conflict_do_nothing(index_elements=[tables.suppressed_addresses.c.email])
    )


def lift(connection: Connection, email: str) -> None:
    """`email` may be invited again (its holder showed it is theirs by signing in with it)."""
    connection.execute(
        delete(tables.suppressed_addresses).where(tables.suppressed_addresses.c.email == email)
    )


def among(connection: Connection, emails: Iterable[str]) -> set[str]:
    """Which of `emails` asked never to be invited."""
    wanted = list(set(emails))
    if not wanted:
        return set()
    found = connection.execute(
        select(tables.suppressed_addresses.c.email).where(
            tables.suppressed_addresses.c.email.in_(wanted)
        )
    )
    return set(found.scalars())
