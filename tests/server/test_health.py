"""GET /api/health: the database, the outbox's backlog and the scheduler's heartbeats, with a
503 monitoring can page on; GET /api/health/live touches nothing."""

from datetime import UTC, datetime, timedelta

from pbem import create_app
from pbem.clock import set_now
from pbem.notify.sender import deliver_due
from pbem.schedule.sweep import sweep

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
EMPTY_OUTBOX = {
    "unsent": 0,
    "oldest_age_seconds": None,
    "overdue": 0,
    "retrying": 0,
    "failed_last_day": 0,
}


def test_live_answers_at_once_without_a_database(tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite:////nonexistent/x"})
    response = app.test_client().get("/api/health/live")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_before_any_sweep_the_health_check_fails_saying_to_start_the_scheduler(app, client):
    set_now(app, T0)
    response = client.get("/api/health")
    assert response.status_code == 503
    body = response.get_json()
    assert body["status"] == "failing"
    assert body["database"] == "ok"
    assert body["sweep"] == {"last": None, "age_seconds": None}
    assert body["outbox"] == EMPTY_OUTBOX
    assert "pbem scheduler" in body["problems"][0]


def test_a_recent_sweep_is_healthy_and_a_stale_one_is_a_503(app, client):
    set_now(app, T0)
    with app.app_context():
        sweep()
    body = client.get("/api/health").get_json()
    assert body["status"] == "ok", body
    assert body["problems"] == []
    assert body["sweep"] == {"last": T0.isoformat(), "age_seconds": 0.0}
    assert body["mail"]["last"] is None  # the sender has not run

    set_now(app, T0 + timedelta(seconds=299))
    assert client.get("/api/health").status_code == 200
    set_now(app, T0 + timedelta(seconds=301))
    response = client.get("/api/health")
    assert response.status_code == 503
    assert response.get_json()["sweep"]["age_seconds"] == 301.0
    assert "301 s ago" in response.get_json()["problems"][0]

    with app.app_context():  # the scheduler is back
        sweep()
    assert client.get("/api/health").status_code == 200


def test_the_staleness_limit_is_a_setting(database_url):
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "PBEM_HEALTH_STALE_SECONDS": 10}
    )
    set_now(app, T0)
    with app.app_context():
        sweep()
    set_now(app, T0 + timedelta(seconds=11))
    assert app.test_client().get("/api/health").status_code == 503


def test_the_outbox_backlog_and_its_oldest_row(app, client, api):
    set_now(app, T0)
    with app.app_context():
        sweep()
    api.new_game(["red", "blue", "green"])  # three welcome mails, one decision mail
    set_now(app, T0 + timedelta(seconds=90))
    with app.app_context():
        sweep()
    body = client.get("/api/health").get_json()
    assert body["outbox"]["unsent"] >= 3
    assert body["outbox"]["oldest_age_seconds"] == 90.0

    with app.app_context():
        deliver_due()
    body = client.get("/api/health").get_json()
    assert body["outbox"] == EMPTY_OUTBOX
    assert body["mail"] == {"last": (T0 + timedelta(seconds=90)).isoformat(), "age_seconds": 0.0}


def test_a_database_that_does_not_answer_is_a_503_not_a_500(tmp_path, caplog):
    """The answer is public: the driver's reason (paths, hosts, users) goes to the log only."""
    for url, reason in (
        ("sqlite:////nonexistent/folder/pbem.sqlite", "unable to open database file"),
        (f"sqlite:///{tmp_path}/empty.db", "no such table: heartbeats"),
    ):
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
        caplog.clear()
        response = app.test_client().get("/api/health")
        assert response.status_code == 503, url
        body = response.get_json()
        assert body["database"] == "unreachable or not migrated", body
        assert "pbem doctor" in body["problems"][0]
        assert reason not in response.get_data(as_text=True)
        logged = [r for r in caplog.records if r.getMessage().startswith("health:")]
        assert [r.error for r in logged] == [reason], url


def test_ready_answers_when_the_database_does_and_is_a_503_when_it_does_not(client, caplog):
    """GET /api/health/ready reaches the database (a load balancer's readiness check); one
    that cannot be reached is a 503 whose body names nothing of it."""
    response = client.get("/api/health/ready")
    assert (response.status_code, response.get_json()) == (200, {"status": "ok"})

    url = "sqlite:////nonexistent/folder/pbem.sqlite"
    down = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    caplog.clear()
    answer = down.test_client().get("/api/health/ready")
    assert (answer.status_code, answer.get_json()) == (503, {"status": "failing"})
    logged = [r for r in caplog.records if r.getMessage().startswith("ready:")]
    assert [r.error for r in logged] == ["unable to open database file"]
