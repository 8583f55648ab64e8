"""A transaction whose commit need not wait for the disk.

PostgreSQL flushes its write-ahead log at every commit (one fsync); a commit with
`synchronous_commit` off returns once the server has the transaction, and the WAL writer
flushes it within a few hundred milliseconds. Only a crash of the database server in between
can lose such a transaction, never a crash of the client. `SET LOCAL` holds for the one
transaction, so it is safe behind a pooler in transaction mode. SQLite has no such setting:
there it does nothing.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

_UNFLUSHED = text("SET LOCAL synchronous_commit TO OFF")


def commit_unflushed(connection: Connection) -> None:
    """Let the connection's transaction (a session's, begun by asking for its connection)
    commit without waiting for the disk: for what is cheap to lose in a server crash and
    costly to flush one at a time (a delivered mail's mark)."""
    if connection.dialect.name == "postgresql":
        connection.execute(_UNFLUSHED)
