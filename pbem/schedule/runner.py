"""The scheduler: APScheduler 3 running the sweep and the mail sender every few seconds.

`pbem scheduler` runs it alone (BlockingScheduler, in-memory job store); `pbem serve`, the
single-machine default, runs the same jobs in a background thread. It is never started by
`create_app`. Its jobs are idempotent, so a second scheduler by mistake does no harm.
"""

from __future__ import annotations

import signal
from typing import Any

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

SWEEP_SECONDS = 5
MAIL_SECONDS = 2


def _sweep_job(app: Flask) -> None:
    from pbem.schedule.sweep import sweep

    with app.app_context():
        for line in sweep():
            app.logger.info("sweep: %s", line)


def _mail_job(app: Flask) -> None:
    from pbem.notify.sender import deliver_due

    with app.app_context():
        result = deliver_due()
        if result.sent or result.retried or result.failed:
            app.logger.info("mail: %s", result)


def add_jobs(scheduler: BaseScheduler, app: Flask) -> None:
    # coalesce + one instance: a slow pass is not stacked up behind itself.
    options: dict[str, Any] = {"max_instances": 1, "coalesce": True, "args": [app]}
    scheduler.add_job(_sweep_job, "interval", seconds=SWEEP_SECONDS, id="sweep", **options)
    scheduler.add_job(_mail_job, "interval", seconds=MAIL_SECONDS, id="mail", **options)


def run_blocking(app: Flask) -> None:
    """Run until SIGTERM or SIGINT, then let the running jobs finish and return."""
    scheduler = BlockingScheduler(timezone="UTC")
    add_jobs(scheduler, app)

    def stop(signum: int, frame: Any) -> None:
        scheduler.shutdown(wait=True)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"Scheduler: sweep every {SWEEP_SECONDS} s, mail every {MAIL_SECONDS} s.", flush=True)
    scheduler.start()
    print("Scheduler stopped.", flush=True)


def start_background(app: Flask) -> BackgroundScheduler:
    scheduler = BackgroundScheduler(timezone="UTC", daemon=True)
    add_jobs(scheduler, app)
    scheduler.start()
    return scheduler
