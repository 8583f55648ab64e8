"""Where a door's unit of work ends: the one place the doors (`api`, `web`, `mailin`,
`schedule`) touch the database session at all.

Every write is a function of `pbem.play`, which leaves its rows in the session's
transaction; the door decides when that transaction ends, once, here: `commit` after the
play functions it called, `rollback` when one refused, `release` when a thread of its own
(the SMTP listener, the IMAP poller) is done with its session. Reads go through
`pbem.game` and `pbem.play` functions too, so a door never holds a session or a connection.
"""

from __future__ import annotations

from pbem.extensions import db


def commit() -> None:
    """Make what the play functions wrote since the last commit stick, all or none."""
    db.session.commit()


def rollback() -> None:
    """Forget what the play functions wrote since the last commit (one of them refused)."""
    db.session.rollback()


def release() -> None:
    """End a worker thread's session (its connection back to the pool)."""
    db.session.remove()
