"""Rate limits that hold under concurrency: each use is counted and checked in one statement
(an upsert returning the new count), so N requests at once cannot all read "under the limit"
before any of them writes. Fixed windows (aligned to the epoch), one row per key and window;
a refused use rolls back with its request, so it is not counted.

Keys say what is limited and for whom, e.g. `talk:player:12` or `sign-in:client:10.0.0.7`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.engine import Connection

from pbem.store import tables
from pbem.store.queries import insert_or_else


def take(connection: Connection, key: str, limit: int, window: timedelta, moment: datetime) -> bool:
    """Count one use of `key` in the window holding `moment`; True while the count, this use
    included, is at most `limit`. On PostgreSQL the row stays locked until the caller's
    transaction ends, so concurrent uses of one key are counted one after another."""
    seconds = int(window.total_seconds())
    start = int(moment.timestamp()) // seconds * seconds
    counted = insert_or_else(connection, tables.rate_counts).values(
        key=key[:300], window_start=start, count=1
    )
    statement = counted.on_conflict_do_update(
        index_elements=[tables.rate_counts.c.key, tables.rate_counts.c.window_start],
        set_={"count": tables.rate_counts.c.count + 1},
    ).returning(tables.rate_counts.c.count)
    count: int = connection.execute(statement).scalar_one()
    return count <= limit


def used(connection: Connection, key: str, window: timedelta, moment: datetime) -> int:
    """How many uses of `key` the window holding `moment` has counted (for a page that says
    how many are left; deciding goes through `take`)."""
    seconds = int(window.total_seconds())
    start = int(moment.timestamp()) // seconds * seconds
    found = connection.execute(
        tables.rate_counts.select()
        .with_only_columns(tables.rate_counts.c.count)
        .where(tables.rate_counts.c.key == key[:300], tables.rate_counts.c.window_start == start)
    ).scalar_one_or_none()
    return int(found or 0)


def prune(connection: Connection, moment: datetime, keep: timedelta = timedelta(days=2)) -> int:
    """Forget windows that ended long ago (the longest limit is a day)."""
    cutoff = int((moment - keep).timestamp())
    return connection.execute(
        delete(tables.rate_counts).where(tables.rate_counts.c.window_start < cutoff)
    ).rowcount
