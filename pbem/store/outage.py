"""The database going away: which errors say so, and what a request does about it.

A PostgreSQL restart, a failover or `pg_terminate_backend` kills connections that the pool
still holds or a request is using. The pool's pre-ping finds the idle ones; a request that
meets a dead one fails, its transaction with it, so nothing it began was written. It is
answered 503 with Retry-After (the doors' error handlers), the pool drops every connection
as old as the dead one, and the next request connects afresh. A GET changes nothing, so it
is tried once more at once (`pbem.create_app`'s dispatch).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy.exc
from sqlalchemy.engine import Connection

from pbem.extensions import db
from pbem.store import reads

#: Seconds a client should wait before trying again: a restarted database is back in a few.
RETRY_AFTER_SECONDS = 2

#: What a person reads: nothing was changed, and trying again is right.
UNAVAILABLE = (
    "The database was not reachable for a moment; nothing was changed. Try again in a few seconds."
)


def is_outage(error: BaseException) -> bool:
    """Whether `error` says the database cannot be used just now (a connection lost or
    refused, every pooled connection busy, SQLite's file locked), rather than a bug."""
    if isinstance(error, sqlalchemy.exc.DBAPIError):
        return error.connection_invalidated or isinstance(
            error, sqlalchemy.exc.OperationalError | sqlalchemy.exc.InterfaceError
        )
    return isinstance(error, sqlalchemy.exc.TimeoutError)  # the pool's: none free in time


#: What PostgreSQL says of a transaction it aborted so that another could go on (a
#: deadlock's victim, a serialization failure): nothing of it was written, and the same
#: work tried again at once goes through.
_TRY_AGAIN_STATES = frozenset({"40P01", "40001"})

#: Times a door tries a unit of work whose transaction was such a victim.
DEADLOCK_TRIES = 3


def is_deadlock(error: BaseException) -> bool:
    """Whether `error` is PostgreSQL aborting the transaction for another's sake (a
    deadlock, a serialization failure): the door tries its work again in place. (One lock
    order, a game's row before its deadlines, leaves none to meet; this is the backstop.)"""
    orig = getattr(error, "orig", None)
    return getattr(orig, "sqlstate", None) in _TRY_AGAIN_STATES


def as_sqlalchemy_error(
    connection: Connection, error: Exception, sql: str, params: Any, cursor: Any
) -> BaseException:
    """A driver's exception, met on a statement run straight on its cursor (`prepared`), as
    SQLAlchemy would have raised it: wrapped, and with a lost connection invalidated, so the
    pool drops it (and the ones as old) instead of handing it out again."""
    dialect = connection.dialect
    dbapi = dialect.loaded_dbapi
    if not isinstance(error, dbapi.Error):
        return error
    lost = dialect.is_disconnect(error, connection.connection.dbapi_connection, cursor)
    if lost:
        connection.invalidate(error)
    return sqlalchemy.exc.DBAPIError.instance(
        sql, params, error, dbapi.Error, connection_invalidated=lost, dialect=dialect
    )


def start_afresh() -> None:
    """Drop the request's session and read connection, as after a lost connection: the next
    statement takes a live connection from the pool."""
    reads.give_back()
    db.session.remove()
