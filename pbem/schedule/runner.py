"""The scheduler: APScheduler 3 running the sweep, the mail sender, hints and reviews every few
seconds.

`pbem scheduler` runs it alone (BlockingScheduler, in-memory job store); `pbem serve`, the
single-machine default, runs the same jobs in a background thread. It is never started by
`create_app`. Its jobs are idempotent, so a second scheduler by mistake does no harm.
"""

from __future__ import annotations

import logging
import re
import signal
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypedDict

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from pbem.notify import wake
from pbem.notify.retention import prune_outbox
from pbem.notify.sender import deliver_due
from pbem.play import advice
from pbem.schedule.sweep import sweep

#: Seconds between passes of the outbox's prune.
PRUNE_SECONDS = 3600

#: Every sweep line starts "game N: ...".
_GAME_OF_LINE = re.compile(r"game (\d+):")


class JobDone(TypedDict, total=False):
    """What a pass did, for its log line (a pass that did none of it is idle)."""

    actions: int
    sent: int
    retried: int
    failed: int
    pruned: int
    game_id: int | None


def _run_job(app: Flask, job: str, work: Callable[[], JobDone]) -> None:
    """Run one pass of `job` and log one line for it: INFO when it did something, DEBUG
    when idle (a pass every few seconds would bury the rest), ERROR with the traceback when
    it failed (the next pass tries again)."""
    started = time.perf_counter()
    with app.app_context():
        try:
            done = work()
        except Exception:
            app.logger.exception("job failed", extra={"job": job})
            return
    busy = any(done.get(k) for k in ("actions", "sent", "retried", "failed", "pruned"))
    fields = {"job": job, "ms": round((time.perf_counter() - started) * 1000, 1), **done}
    app.logger.log(logging.INFO if busy else logging.DEBUG, "job", extra=fields)


def _sweep_job(app: Flask) -> None:

    def work() -> JobDone:
        lines = sweep()
        for line in lines:
            game = _GAME_OF_LINE.match(line)
            extra = {"job": "sweep", "game_id": int(game.group(1)) if game else None}
            app.logger.info(line, extra=extra)
        return {"actions": len(lines)}

    _run_job(app, "sweep", work)


#: One sender pass at a time in a process, whether the poll or a wake-up started it.
_MAIL_PASS = threading.Lock()

#: Passes one wake-up may chain (mail queued during each pass) before the poll takes over.
MOST_PASSES = 20


def _mail_job(app: Flask) -> bool:
    """A pass of the sender, repeated while wake-ups came during it. False if a pass was
    running already (a wake-up then makes that one go again)."""

    def work() -> JobDone:
        result = deliver_due()
        return {"sent": result.sent, "retried": result.retried, "failed": result.failed}

    if not _MAIL_PASS.acquire(blocking=False):
        return False
    try:
        for _ in range(MOST_PASSES):
            wake.WAKE.clear()
            _run_job(app, "mail", work)
            if not wake.WAKE.is_set():
                break
    finally:
        _MAIL_PASS.release()
    return True


def _start_waking(app: Flask) -> None:
    """Deliver as soon as a commit queued mail (PBEM_MAIL_WAKE), not at the next poll."""
    if app.config.get("PBEM_MAIL_WAKE", True):
        wake.start(app, lambda: _mail_job(app))


def _prune_job(app: Flask) -> None:

    def work() -> JobDone:
        return {"pruned": prune_outbox()}

    _run_job(app, "prune", work)


def _hints_job(app: Flask) -> None:

    def work() -> JobDone:
        return {"actions": advice.answer_hints()}

    _run_job(app, "hints", work)


def _reviews_job(app: Flask) -> None:
    """One finished game's review a pass: a review takes up to PBEM_REVIEW_SECONDS of CPU,
    in a job of its own so that hints and mail are not kept waiting behind it."""

    def work() -> JobDone:
        reviewed = advice.review_one()
        return {"actions": 0 if reviewed is None else 1, "game_id": reviewed}

    _run_job(app, "reviews", work)


def add_jobs(scheduler: BaseScheduler, app: Flask) -> None:
    # coalesce + one instance: a slow pass is not stacked up behind itself. The first pass
    # runs at once, so a (re)started scheduler shows as healthy without waiting an interval.
    options: dict[str, Any] = {
        "max_instances": 1,
        "coalesce": True,
        "args": [app],
        "next_run_time": datetime.now(UTC),
    }
    # PBEM_SWEEP_SECONDS, PBEM_MAIL_SECONDS (pbem.config): short ones make tests fast.
    sweep_seconds = app.config["PBEM_SWEEP_SECONDS"]
    mail_seconds = app.config["PBEM_MAIL_SECONDS"]
    scheduler.add_job(_sweep_job, "interval", seconds=sweep_seconds, id="sweep", **options)
    scheduler.add_job(_mail_job, "interval", seconds=mail_seconds, id="mail", **options)
    # Hints and reviews (pbem.play.advice): searches, never run in a request.
    hint_seconds = app.config["PBEM_HINT_SECONDS"]
    scheduler.add_job(_hints_job, "interval", seconds=hint_seconds, id="hints", **options)
    scheduler.add_job(_reviews_job, "interval", seconds=sweep_seconds, id="reviews", **options)
    # Delivered outbox rows are deleted after PBEM_OUTBOX_KEEP_DAYS: an hourly pass is plenty.
    scheduler.add_job(_prune_job, "interval", seconds=PRUNE_SECONDS, id="prune", **options)


def run_blocking(app: Flask) -> None:
    """Run until SIGTERM or SIGINT, then let the running jobs finish and return."""
    scheduler = BlockingScheduler(timezone="UTC")
    add_jobs(scheduler, app)
    _start_waking(app)

    def stop(signum: int, frame: Any) -> None:
        scheduler.shutdown(wait=True)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(
        f"Scheduler: sweep every {app.config['PBEM_SWEEP_SECONDS']:g} s, "
        f"mail every {app.config['PBEM_MAIL_SECONDS']:g} s.",
        flush=True,
    )
    scheduler.start()
    print("Scheduler stopped.", flush=True)


def start_background(app: Flask) -> BackgroundScheduler:
    scheduler = BackgroundScheduler(timezone="UTC", daemon=True)
    add_jobs(scheduler, app)
    scheduler.start()
    _start_waking(app)
    return scheduler
