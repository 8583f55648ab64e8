"""Structured logs: one JSON line per request and per background job, with the game id."""

from __future__ import annotations

import io
import json
import logging
from datetime import timedelta

import pytest

from pbem import create_app
from pbem.clock import set_now
from pbem.schedule import runner
from tests.server.test_deadlines import T0, new_game


@pytest.fixture
def log_lines():
    """What the `pbem` loggers write, as a list that fills as they write."""
    stream = io.StringIO()
    (handler,) = [h for h in logging.getLogger("pbem").handlers if getattr(h, "pbem", False)]
    handler.setStream(stream)
    return lambda: [line for line in stream.getvalue().splitlines() if line]


def test_each_request_is_one_json_line_with_its_game(app, api, log_lines):
    game_id, keys = api.new_game(["red", "blue", "green"])
    api.client.get(f"/api/games/{game_id}", headers=api.auth(keys["red"]))
    api.client.get(f"/games/{game_id}")
    api.client.get("/api/games/999999")
    lines = [json.loads(line) for line in log_lines()]
    requests = [line for line in lines if line["event"] == "request"][-3:]
    assert [(r["method"], r["path"], r["status"], r.get("game_id")) for r in requests] == [
        ("GET", f"/api/games/{game_id}", 200, game_id),
        ("GET", f"/games/{game_id}", 200, game_id),
        ("GET", "/api/games/999999", 404, 999999),
    ]
    assert all(
        r["level"] == "info" and r["ms"] >= 0 and r["ts"].endswith("+00:00") for r in requests
    )
    # What the request computed, apart from what it waited for: never more than its time.
    assert all(0 <= r["cpu_ms"] <= r["ms"] + 0.05 for r in requests), requests
    assert any(r["cpu_ms"] > 0 for r in requests)


def test_a_signed_token_in_a_path_is_not_logged(app, log_lines):
    token = "eyJzZWF0IjoxfQ.secret-signature"
    app.test_client().get(f"/games/1/sign-in/{token}")
    app.test_client().get(f"/mail/unsubscribe/{token}")
    lines = log_lines()
    assert [json.loads(line)["path"] for line in lines] == [
        "/games/1/sign-in/<token>",
        "/mail/unsubscribe/<token>",
    ]
    assert not any("secret-signature" in line for line in lines)


def test_a_sweep_logs_each_action_with_its_game_and_one_line_for_the_job(
    mail_app, mail_api, log_lines
):
    game_id, _ = new_game(mail_api, mail_app)
    set_now(mail_app, T0 + timedelta(hours=49))  # the power-card deadline has passed
    runner._sweep_job(mail_app)
    lines = [json.loads(line) for line in log_lines()]
    actions = [line for line in lines if line.get("job") == "sweep" and line["event"] != "job"]
    assert actions and all(a["game_id"] == game_id for a in actions)
    assert any("timed out" in a["event"] for a in actions)
    (job,) = [line for line in lines if line["event"] == "job"]
    assert job["job"] == "sweep" and job["actions"] == len(actions) and job["ms"] > 0


def test_a_failing_job_logs_its_traceback_and_the_scheduler_goes_on(app, log_lines):
    def broken():
        raise RuntimeError("the database went away")

    runner._run_job(app, "sweep", broken)
    (line,) = [json.loads(line) for line in log_lines()]
    assert line["level"] == "error" and line["job"] == "sweep"
    assert "RuntimeError: the database went away" in line["error"]


def test_text_logs_for_a_terminal(database_url, log_lines):
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "PBEM_LOG_FORMAT": "text"}
    )
    stream = io.StringIO()
    (handler,) = [h for h in logging.getLogger("pbem").handlers if getattr(h, "pbem", False)]
    handler.setStream(stream)
    app.test_client().get("/api/health/live")
    (line,) = stream.getvalue().splitlines()
    assert " INFO request " in line and "path=/api/health/live" in line and "status=200" in line
    with pytest.raises(json.JSONDecodeError):
        json.loads(line)
