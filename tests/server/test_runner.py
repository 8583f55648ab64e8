"""The scheduler's intervals come from the settings (PBEM_SWEEP_SECONDS, PBEM_MAIL_SECONDS);
the outbox is pruned every hour."""

from datetime import timedelta

from apscheduler.schedulers.background import BackgroundScheduler

from pbem import create_app
from pbem.schedule.runner import add_jobs

# A secret given, so no test writes one into the checkout's instance folder.
SETTINGS = {"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True, "SECRET_KEY": "x" * 32}


def intervals(app) -> dict[str, timedelta]:
    scheduler = BackgroundScheduler(timezone="UTC")  # never started: only its jobs are read
    add_jobs(scheduler, app)
    return {job.id: job.trigger.interval for job in scheduler.get_jobs()}


def test_the_jobs_run_every_5_and_2_seconds_by_default(monkeypatch):
    monkeypatch.delenv("PBEM_SWEEP_SECONDS", raising=False)
    monkeypatch.delenv("PBEM_MAIL_SECONDS", raising=False)
    app = create_app(SETTINGS)
    assert intervals(app) == {
        "sweep": timedelta(seconds=5),
        "mail": timedelta(seconds=2),
        "prune": timedelta(hours=1),
        "hints": timedelta(seconds=2),  # PBEM_HINT_SECONDS
        "reviews": timedelta(seconds=5),  # with the sweep
    }


def test_the_environment_sets_the_intervals(monkeypatch):
    monkeypatch.setenv("PBEM_SWEEP_SECONDS", "0.5")
    monkeypatch.setenv("PBEM_MAIL_SECONDS", "7")
    app = create_app(SETTINGS)
    assert intervals(app)["sweep"] == timedelta(seconds=0.5)
    assert intervals(app)["mail"] == timedelta(seconds=7)


def test_the_callers_config_sets_the_intervals():
    app = create_app({**SETTINGS, "PBEM_SWEEP_SECONDS": 1, "PBEM_MAIL_SECONDS": 0.25})
    assert intervals(app)["sweep"] == timedelta(seconds=1)
    assert intervals(app)["mail"] == timedelta(seconds=0.25)
