"""The one clock every service reads: deadlines, retries and timestamps all ask `now()`.

Tests (and `pbem sweep --now`) set it with `set_now`; nothing uses the database's `now()`.
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Flask, current_app, has_app_context


def now() -> datetime:
    """The current time, UTC: the app's set time if there is one, else the system's."""
    if has_app_context():
        fixed: datetime | None = current_app.extensions.get("pbem_now")
        if fixed is not None:
            return fixed
    return datetime.now(UTC)


def set_now(app: Flask, moment: datetime | None) -> None:
    """Make `app` read `moment` as the time (None: the system clock again)."""
    if moment is not None and moment.tzinfo is None:
        raise ValueError("set_now needs an aware datetime (UTC)")
    app.extensions["pbem_now"] = moment


def due_at_once() -> datetime:
    """A time every process has reached: the earlier of this app's time and the system's.
    What is written to be done at once (an outbox row) is due at this, so a process on the
    system clock takes it up even when a drill (`pbem sweep --now`) wrote it ahead."""
    return min(now(), datetime.now(UTC))
