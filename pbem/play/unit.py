"""Where a unit of work ends: the one place the doors' transactions are committed or rolled
back, so that no door (`api`, `web`, `mailin`, `schedule`) does either by hand.

Every write is a function of `pbem.play`, which leaves its rows in the session's
transaction (or, as a move's `submit` does, commits its own). A request's transaction ends
with the request (`end_request`, from the app's dispatch): committed when the answer says
it was done (a status below 400), rolled back when it was refused or failed, so a refusal
leaves nothing behind. The doors that serve no request end theirs at the edge of each unit
of work: a mail's with its record (`undone_on_error` around it), the sweep's with each
action (`pbem.play.sweeping`), and `release` ends a worker
thread's session (the SMTP listener, the IMAP poller). Reads go through `pbem.game` and
`pbem.play` functions too, so a door never holds a session or a connection.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pbem.extensions import db


def commit() -> None:
    """Make what the play functions wrote since the last commit stick, all or none (for
    `pbem.play`'s own functions that end a unit of their own)."""
    db.session.commit()


def rollback() -> None:
    """Forget what the play functions wrote since the last commit."""
    db.session.rollback()


def end_request(status: int) -> None:
    """The end of a request's unit of work, answered with `status`: committed below 400,
    else rolled back. A request that never used the session (most reads) ends nothing."""
    if not db.session.registry.has() or not db.session().in_transaction():
        return
    if status < 400:
        db.session.commit()
    else:
        db.session.rollback()


def fail_request() -> None:
    """A request that raised: nothing it wrote stays (its error's answer is made after)."""
    if db.session.registry.has():
        db.session.rollback()


@contextmanager
def undone_on_error() -> Iterator[None]:
    """A door's step that ends its unit itself (a mail's record committed with its answer,
    `inbound.commit_or_duplicate`), or not at all if it raises: then nothing it wrote
    stays, and the door may try again or keep the mail aside on a clean session."""
    try:
        yield
    except BaseException:
        db.session.rollback()
        raise


@contextmanager
def only_read() -> Iterator[None]:
    """Reads outside a request (the SMTP listener asking who a recipient is), their
    transaction ended when they are done."""
    try:
        yield
    finally:
        db.session.rollback()


def release() -> None:
    """End a worker thread's session (its connection back to the pool)."""
    db.session.remove()
