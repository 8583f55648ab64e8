"""Heartbeats: each worker pass (the sweep, the mail sender) stamps its row when it ends, so
that a web process on another machine can tell a dead scheduler (`pbem.schedule.health`).

Here, on the storage floor, so that the passes stamp without knowing who reads the stamps.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, insert, update
from sqlalchemy.exc import IntegrityError

from pbem.clock import now
from pbem.extensions import db
from pbem.store.models import Heartbeat

_heartbeats = Heartbeat.__table__


def beat(job: str) -> None:
    """Record that `job` finished a pass now; the pass commits it with its own work."""
    moment = now()
    # An UPDATE's result is a CursorResult; Session.execute is typed as returning any Result.
    done = cast(
        CursorResult[Any],
        db.session.execute(update(_heartbeats).where(_heartbeats.c.name == job).values(at=moment)),
    ).rowcount
    if done:
        return
    try:
        with db.session.begin_nested():
            db.session.execute(insert(_heartbeats).values(name=job, at=moment))
    except IntegrityError:  # another process's first beat came first
        db.session.execute(update(_heartbeats).where(_heartbeats.c.name == job).values(at=moment))
