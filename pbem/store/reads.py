"""The connection a request reads a game with, without an ORM session when it needs none.

Starting and closing Flask-SQLAlchemy's session for a request costs about 0.1 ms on SQLite
(the session, its transaction's bookkeeping, expunging, closing), several times what taking
a connection from the pool and giving it back does. A board page only reads, with the
`queries` statements, so it reads on a connection of its own, taken on first use and given
back when the request's app context ends.

Only a GET (or HEAD) request does so, and only until it uses the session: a request that has
begun the session's transaction reads on the session's connection, and so does everything
outside a request (the scheduler, the mail door) and every POST (a move, or a page drawn
after a refused move), so what writes always reads what it wrote.
"""

from __future__ import annotations

from flask import Flask, g, has_request_context, request
from sqlalchemy.engine import Connection

from pbem.extensions import db

_KEY = "pbem_read_connection"


def connection() -> Connection:
    """The connection for this request's reads (see the module's doc)."""
    kept: Connection | None = g.get(_KEY)
    if kept is not None:
        return kept
    if not has_request_context() or request.method not in ("GET", "HEAD"):
        return db.session.connection()
    if db.session.registry.has() and db.session().in_transaction():
        return db.session.connection()
    taken = db.engine.connect()
    if taken.dialect.name == "postgresql":
        # In autocommit: no BEGIN before the first read nor ROLLBACK when it is given back,
        # two round trips of a view's three. Each statement then reads its own moment; what
        # a page or view reads together is one statement, or tied by the game's seq (a
        # state, the moves up to it), or sent together (`prepared.all_together`). SQLite
        # has no round trips, and one read transaction costs it less than one a statement.
        taken = taken.execution_options(isolation_level="AUTOCOMMIT")
    setattr(g, _KEY, taken)
    return taken


def give_back() -> None:
    """Close the request's read connection, if it took one."""
    taken = g.pop(_KEY, None)
    if taken is not None:
        taken.close()


def init_app(app: Flask) -> None:
    @app.teardown_appcontext
    def _give_back(_error: BaseException | None) -> None:
        give_back()
