"""Is the installation working: the database, the outbox's backlog, the scheduler's passes.

The scheduler may run in another process (`pbem scheduler`) or on another machine, so each
pass of the sweep and of the mail sender stamps a heartbeat row when it ends (`beat`), and
the web processes read them (`report`, what `GET /api/health` answers): monitoring that
polls it sees a dead scheduler as a 503. On the storage floor, so that the passes stamp
without knowing who reads the stamps, and the report reads only rows.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypedDict

from flask import current_app
from sqlalchemy import Integer, and_, case, func, insert, literal, or_, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from pbem.clock import now
from pbem.extensions import db
from pbem.store import reads, tables
from pbem.store.prepared import Prepared
from pbem.store.queries import changed

#: The jobs that beat: the sweep (deadlines, bots) and the mail sender.
JOBS = ("sweep", "mail")
#: What a mail pass that failed stamps (the pass that succeeds stamps "mail").
FAILED_PASS = "mail_failed"
#: A row `sending` this long is stuck: past the ten minutes after which the sender queues
#: again the row a dead sender may have been sending.
SENDING_STUCK_AFTER = timedelta(minutes=15)

#: A sweep older than this (seconds) means the scheduler is down; it sweeps every few
#: seconds, so minutes leave room for a slow pass or a restart.
DEFAULT_STALE_AFTER = 300


class JobHealth(TypedDict):
    last: str | None  # ISO 8601, UTC
    age_seconds: float | None


class OutboxHealth(TypedDict):
    unsent: int
    oldest_age_seconds: float | None
    overdue: int  # due longer than the stale limit, or stuck sending
    retrying: int  # waiting to be tried again after a failure
    failed_last_day: int


class HealthReport(TypedDict):
    status: str  # "ok" or "failing"
    database: str  # "ok", or what went wrong
    outbox: OutboxHealth | None
    sweep: JobHealth | None
    mail: JobHealth | None
    problems: list[str]


def _age(moment: datetime | None, at: datetime) -> float | None:
    """Seconds since `moment`; 0 for a moment ahead of `at` (a drill, `pbem sweep --now`,
    writes rows at the time it plays)."""
    return None if moment is None else max(0.0, round((at - moment).total_seconds(), 1))


def _job(last: datetime | None, at: datetime) -> JobHealth:
    return {
        "last": None if last is None else last.isoformat(),
        "age_seconds": _age(last, at),
    }


def report(stale_after: float = DEFAULT_STALE_AFTER) -> HealthReport:
    """What `GET /api/health` answers; `status` is "failing" when something needs a person."""
    at = now()
    problems: list[str] = []
    try:
        beats = dict(
            db.session.execute(select(tables.heartbeats.c.name, tables.heartbeats.c.at)).all()
        )
        waiting = backlog(at, stale_after)
        db.session.commit()
    except SQLAlchemyError as error:
        db.session.rollback()
        # The driver's words name hosts, users and paths: for the log, not for an answer
        # anyone may ask for (`pbem doctor` says the same to the operator).
        orig = getattr(error, "orig", None)
        reason = str(orig if orig else error).splitlines()[0]
        current_app.logger.error("health: the database does not answer", extra={"error": reason})
        return {
            "status": "failing",
            "database": "unreachable or not migrated",
            "outbox": None,
            "sweep": None,
            "mail": None,
            "problems": ["The database does not answer: check DATABASE_URL and run `pbem doctor`."],
        }
    jobs = {job: _job(beats.get(job), at) for job in JOBS}
    sweep_age = jobs["sweep"]["age_seconds"]
    if sweep_age is None:
        problems.append(
            "No sweep has run yet: start the scheduler (`pbem scheduler`, or `pbem serve`, "
            "which runs it in-process)."
        )
    elif sweep_age > stale_after:
        problems.append(
            f"The last sweep was {sweep_age:.0f} s ago: the scheduler (`pbem scheduler`) "
            "is down or stuck, so deadlines and bots wait."
        )
    problems += _mail_problems(beats, waiting, stale_after)
    return {
        "status": "failing" if problems else "ok",
        "database": "ok",
        "outbox": {
            "unsent": waiting["unsent"],
            "oldest_age_seconds": _age(waiting["oldest"], at),
            "overdue": waiting["overdue"],
            "retrying": waiting["retrying"],
            "failed_last_day": waiting["failed_last_day"],
        },
        "sweep": jobs["sweep"],
        "mail": jobs["mail"],
        "problems": problems,
    }


#: One trivial statement, sent as a view sends its own (`store.prepared`).
_ONE = Prepared(select(literal(1, Integer).label("one")))


def database_answers() -> bool:
    """Whether the database answers one trivial statement, on the connection a request
    reads with (`store.reads`): one round trip, what `GET /api/health/ready` costs."""
    try:
        return bool(_ONE.all(reads.connection(), {}))
    except SQLAlchemyError as error:
        orig = getattr(error, "orig", None)
        reason = str(orig if orig else error).splitlines()[0]
        current_app.logger.error("ready: the database does not answer", extra={"error": reason})
        return False


def beat(job: str) -> None:
    """Record that `job` finished a pass now; the pass commits it with its own work."""
    moment = now()
    done = changed(
        db.session.execute(
            update(tables.heartbeats).where(tables.heartbeats.c.name == job).values(at=moment)
        )
    )
    if done:
        return
    try:
        with db.session.begin_nested():
            db.session.execute(insert(tables.heartbeats).values(name=job, at=moment))
    except IntegrityError:  # another process's first beat came first
        db.session.execute(
            update(tables.heartbeats).where(tables.heartbeats.c.name == job).values(at=moment)
        )


def _mail_problems(beats: dict[str, datetime], waiting: Backlog, stale_after: float) -> list[str]:
    """What needs a person in the sender: its passes failing, or rows no pass sends. A row
    that fails alone (one player's webhook) is counted, not a problem: it fails alone."""
    problems = []
    good, failed = beats.get("mail"), beats.get(FAILED_PASS)
    if failed is not None and (good is None or failed > good):
        since = "no pass has succeeded yet" if good is None else f"the last good one at {good}"
        problems.append(
            f"The mail sender's passes are failing (the last at {failed.isoformat()}; "
            f"{since}): its log (`pbem scheduler`) says why."
        )
    if waiting["overdue"]:
        problems.append(
            f"{waiting['overdue']} mails, webhooks or pushes have waited over "
            f"{stale_after:.0f} s past their time: the sender is down or stuck."
        )
    return problems


class Backlog(TypedDict):
    unsent: int
    oldest: datetime | None  # when the oldest unsent row was queued
    overdue: int
    retrying: int
    failed_last_day: int


def backlog(at: datetime | None = None, stale_after: float = DEFAULT_STALE_AFTER) -> Backlog:
    """Rows waiting to be sent and the age of the oldest, rows overdue (due longer than
    `stale_after` seconds, or stuck sending), waiting for a retry, and failed in the last
    day, in one statement, for health checks."""
    at = at or now()
    unsent = tables.outbox.c.status.in_(("queued", "sending"))
    overdue = or_(
        and_(
            tables.outbox.c.status == "queued",
            tables.outbox.c.next_attempt_at < at - timedelta(seconds=stale_after),
            tables.outbox.c.message != "",
        ),
        and_(
            tables.outbox.c.status == "sending",
            tables.outbox.c.next_attempt_at < at - SENDING_STUCK_AFTER,
        ),
    )
    retrying = and_(tables.outbox.c.status == "queued", tables.outbox.c.attempts > 0)
    failed = and_(
        tables.outbox.c.status == "failed",
        tables.outbox.c.next_attempt_at >= at - timedelta(days=1),
    )
    row = db.session.execute(
        select(
            func.count().filter(unsent),
            func.min(case((unsent, tables.outbox.c.created_at))),
            func.count().filter(overdue),
            func.count().filter(retrying),
            func.count().filter(failed),
        ).where(tables.outbox.c.status.in_(("queued", "sending", "failed")))
    ).one()
    return {
        "unsent": row[0],
        "oldest": row[1],
        "overdue": row[2],
        "retrying": row[3],
        "failed_last_day": row[4],
    }
