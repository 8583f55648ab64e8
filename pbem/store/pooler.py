"""What `pbem doctor` finds of the way to PostgreSQL: whether a connection pooler stands
between the app and the database (the server's own port is not the one the URL names), and
whether the sender's wake-up hears a commit's notification on its listening URL (a
transaction pooler passes none on: mail then waits for the poll)."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.engine import Engine, make_url

#: How long the check waits for its own notification.
HEAR_SECONDS = 2.0


@dataclass(frozen=True)
class Route:
    """The port the URL names and the one the server says it answers on (None: a Unix
    socket, or not PostgreSQL)."""

    url_port: int | None
    server_port: int | None

    @property
    def pooled(self) -> bool:
        """A pooler or proxy in between: the server answers on another port than the URL's."""
        return None not in (self.url_port, self.server_port) and self.url_port != self.server_port


def libpq_url(database_url: str) -> str:
    """A SQLAlchemy URL (`postgresql+psycopg://...`) as psycopg connects with it: the
    sender's listener and this check open their own connections, not the engine's."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def route(engine: Engine) -> Route:
    url = engine.url
    if url.get_backend_name() != "postgresql":
        return Route(None, None)
    with engine.connect() as connection:
        port = connection.execute(text("SELECT inet_server_port()")).scalar()
    return Route(url.port or 5432, int(port) if port is not None else None)


def hears(listen_url: str, engine: Engine, seconds: float = HEAR_SECONDS) -> bool:
    """Whether a LISTEN on `listen_url` hears a NOTIFY committed through `engine` (the way
    the app's commits go) within `seconds`."""
    import psycopg
    from psycopg import sql

    channel = f"pbem_doctor_{secrets.token_hex(6)}"
    with psycopg.connect(libpq_url(listen_url), autocommit=True) as ear:
        ear.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        with engine.begin() as connection:
            connection.execute(text("SELECT pg_notify(:channel, 'doctor')"), {"channel": channel})
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            for note in ear.notifies(timeout=left, stop_after=1):
                if note.channel == channel:
                    return True
    return False
