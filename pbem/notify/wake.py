"""Waking the mail sender when a transaction that queued mail commits, so a mail goes out
at once rather than at the sender's next poll (which stays, as the safety net).

In the process (`pbem serve`): `queue` marks the session, and its commit sets `WAKE`, an
event the sender's waker thread waits on. Across processes (`pbem scheduler` beside
gunicorn) on PostgreSQL: `queue` also notifies the channel `pbem_outbox` in the transaction,
which PostgreSQL delivers only if it commits (once however many times it was said), to a
connection of the sender's that LISTENs. A channel is the whole database's: an installation
in a schema of its own (not `public`) notifies `pbem_outbox_<schema>`, so two that share a
database do not wake each other's senders.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from sqlalchemy import event, make_url, text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pbem.extensions import db
from pbem.store.pooler import libpq_url

CHANNEL = "pbem_outbox"

#: Set when this process committed a transaction that queued mail, or PostgreSQL said so.
WAKE = threading.Event()

_QUEUED = "pbem_mail_queued"
#: The channel of the schema a connection works in, as both sides name it (a channel's name
#: is at most 63 bytes).
_CHANNEL_OF_SCHEMA = (
    f"CASE current_schema() WHEN 'public' THEN '{CHANNEL}' "
    f"ELSE left('{CHANNEL}_' || current_schema(), 63) END"
)
_NOTIFY = text(f"SELECT pg_notify({_CHANNEL_OF_SCHEMA}, '')")

logger = logging.getLogger("pbem")


def queued(connection: Connection) -> None:
    """The transaction on `connection` queued mail: wake the sender when it commits."""
    db.session.info[_QUEUED] = True
    if connection.dialect.name == "postgresql":
        connection.execute(_NOTIFY)


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    if session.info.pop(_QUEUED, False):
        WAKE.set()


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(_QUEUED, None)


def listen(database_url: str, stop: threading.Event) -> None:
    """On PostgreSQL, set `WAKE` on each notification until `stop` (reconnecting after a
    lost connection); elsewhere return at once (other processes' commits reach this one by
    the poll)."""
    url = make_url(database_url)
    if url.get_backend_name() != "postgresql":
        return
    import psycopg
    from psycopg import sql

    conninfo = libpq_url(database_url)
    while not stop.is_set():
        try:
            with psycopg.connect(conninfo, autocommit=True) as connection:
                connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel(connection))))
                while not stop.is_set():
                    for _ in connection.notifies(timeout=1.0, stop_after=1):
                        WAKE.set()
        except psycopg.Error as error:
            logger.warning("mail wake-up: %s; the poll still sends", str(error).splitlines()[0])
            stop.wait(5.0)


def channel(connection: Any) -> str:
    """The channel a psycopg `connection` hears its schema's commits on."""
    row = connection.execute(f"SELECT {_CHANNEL_OF_SCHEMA}").fetchone()
    return str(row[0])


def start(app: Flask, deliver: Callable[[], bool]) -> threading.Event:
    """Threads that run `deliver()` (one sender pass, which must not overlap itself) as soon
    as `WAKE` is set: the waker, and on PostgreSQL the listener. Returns their stop event."""
    stop = threading.Event()
    # A direct connection: a transaction pooler passes no notification on.
    url = app.config.get("PBEM_LISTEN_URL") or app.config["SQLALCHEMY_DATABASE_URI"]
    threading.Thread(target=listen, args=(url, stop), daemon=True, name="mail-listen").start()

    def waker() -> None:
        while not stop.is_set():
            woken = WAKE.wait(timeout=1.0) and not stop.is_set()
            if woken and not deliver():
                time.sleep(0.01)  # a pass is running; it goes again for this wake-up

    threading.Thread(target=waker, daemon=True, name="mail-wake").start()
    return stop


__all__ = ["CHANNEL", "WAKE", "channel", "listen", "queued", "start"]
