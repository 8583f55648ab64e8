"""The installation as processes: the commands compose's services and the systemd units run
(migrate, web under gunicorn, the scheduler, mail in by SMTP), started on this machine against
its PostgreSQL and an SMTP catcher, play a game against bots end to end, then stop cleanly.

Docker is not here, so the commands are read from deploy/compose.yaml and run with this venv's
executables; the systemd units are checked to run the same ones.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import smtplib
import subprocess

import pytest
import sqlalchemy as sa
import yaml

from engine.notation import format_move
from pbem import create_app
from pbem.mailin.reply import recipient_of, reply_to
from tests.deploy.helpers import DEPLOY, REPO, VENV_BIN, local_path, read_unit, value
from tests.processes import call, play_first_legal, view_if_pending, wait_for
from tests.server.conftest import add_player_now, own_schema
from tests.server.mail_helpers import SmtpServer, free_port

SERVICES = ("migrate", "web", "scheduler", "mailin")
UNITS = {
    "migrate": "pbem-migrate.service",
    "web": "pbem-web.service",
    "scheduler": "pbem-scheduler.service",
    "mailin": "pbem-mailin.service",
}
POSTGRES = os.environ.get("TEST_DATABASE_URL") or "postgresql+psycopg://127.0.0.1:5432/test"


def compose_commands() -> dict[str, list[str]]:
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    return {name: services[name]["command"] for name in SERVICES}


def unit_command(name: str) -> list[str]:
    unit = read_unit(DEPLOY / "systemd" / UNITS[name])
    return shlex.split(value(unit, "Service", "ExecStart"))


def test_the_units_run_the_commands_compose_runs():
    """Only where each listens and where the checkout lies may differ, and the protocol
    mail comes in by: the unit takes LMTP from Postfix, compose SMTP (swaks, any MX)."""
    for name, command in compose_commands().items():
        unit = [a for a in unit_command(name) if not (name == "mailin" and a == "--lmtp")]
        assert local_path(unit[0]).name == command[0], name
        unit_args = [
            local_path(a).relative_to(REPO).as_posix() if a.startswith("/srv/") else a
            for a in unit[1:]
        ]
        listen = {"--host", "--port"}
        assert [a for i, a in enumerate(unit_args) if not (i and unit_args[i - 1] in listen)] == [
            a for i, a in enumerate(command[1:]) if not (i and command[i] in listen)
        ], name


@pytest.fixture
def database_url():
    """A schema of its own on this machine's PostgreSQL."""
    try:
        sa.create_engine(POSTGRES).connect().close()
    except sa.exc.OperationalError as error:
        pytest.skip(f"no PostgreSQL at {POSTGRES}: {error.orig}")
    with own_schema(POSTGRES, "pbem_e2e_") as url:
        yield url


def test_the_services_play_a_game_against_bots_and_stop_cleanly(database_url, tmp_path):
    smtp = SmtpServer()
    smtp.start()
    web_port, mail_port = free_port(), free_port()
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "SMTP", "TEST_", "MAIL"))
    }
    env.update(
        DATABASE_URL=database_url,
        SECRET_KEY="e2e-" + "s" * 40,
        MAIL_FROM="El Grande <play@pbem.example>",
        PBEM_BASE_URL=f"http://127.0.0.1:{web_port}",
        SMTP_URL=smtp.url,
        PBEM_INSTANCE_PATH=str(tmp_path / "instance"),
        PBEM_SWEEP_SECONDS="0.5",
        PBEM_MAIL_SECONDS="0.5",
        PBEM_BIND=f"127.0.0.1:{web_port}",
        WEB_CONCURRENCY="2",
        PATH=f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}",
    )
    commands = compose_commands()
    listen = {"--host": "127.0.0.1", "--port": str(mail_port)}
    commands["mailin"] = [
        listen.get(commands["mailin"][i - 1], a) if i else a
        for i, a in enumerate(commands["mailin"])
    ]
    base = f"http://127.0.0.1:{web_port}"

    migrated = subprocess.run(
        commands["migrate"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert migrated.returncode == 0, migrated.stderr
    running: dict[str, subprocess.Popen] = {}
    logs = {name: tmp_path / f"{name}.log" for name in ("web", "scheduler", "mailin")}
    try:
        for name in ("web", "scheduler", "mailin"):
            running[name] = subprocess.Popen(
                commands[name],
                cwd=REPO,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=logs[name].open("w"),
            )
        health = wait_for(
            lambda: call(base, "GET", "/api/health"), 30, "a healthy installation (web, sweep)"
        )
        assert health["database"] == "ok" and health["sweep"]["age_seconds"] < 5

        # A player with a key as the operator makes one (`pbem players add`), in the services'
        # database: POST /api/players mails a link instead of answering a key.
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": env["SECRET_KEY"]})
        key = add_player_now(app, "me@example.org", "Me")
        seats = [{"email": "me@example.org", "colour": "red"}]
        # Greedy bots, red's too once handed over: the strong one would take minutes here.
        seats += [{"colour": c, "bot": True, "level": "greedy"} for c in ("blue", "green")]
        game = call(
            base,
            "POST",
            "/api/games",
            key,
            {
                "title": "End to end",
                "seats": seats,
                "options": {"rounds": 6},
                "timing": {"takeover_bot": "greedy"},
            },
        )
        game_id = game["id"]

        def my_decision():
            return view_if_pending(base, game_id, key, "red")

        # One decision by the API; the bots answer theirs through the scheduler.
        wait_for(my_decision, 30, "red's first decision")
        played = play_first_legal(base, game_id, key)

        # The next by a reply to the decision mail the scheduler sends, through mail in. A
        # decision mail's Message-ID names the seq that opened the decision.
        def decision_mail():
            for mail in reversed(smtp.inbox.to("me@example.org")):
                opened = re.search(r"\.s(\d+)\.", str(mail["Message-ID"]))
                if opened and int(opened.group(1)) >= played["seq"]:
                    return mail
            return None

        view = wait_for(my_decision, 30, "red's second decision")
        mail = wait_for(decision_mail, 30, "the second decision mail")
        legal = call(base, "GET", f"/api/games/{game_id}/legal-moves", key)
        reply = reply_to(mail.as_bytes(), format_move(legal["moves"][0]))
        with smtplib.SMTP("127.0.0.1", mail_port, timeout=15) as client:
            client.sendmail("me@example.org", [recipient_of(reply)], reply)
        wait_for(
            lambda: call(base, "GET", f"/api/games/{game_id}", key)["seq"] > view["seq"],
            30,
            "the move mailed in",
        )
        log = call(base, "GET", f"/api/games/{game_id}/log", key)["moves"]
        assert [e["source"] for e in log if e["player"] == "red"][:2] == ["api", "email"]

        # Then the bot plays red too, and the game runs to its end.
        call(base, "PUT", f"/api/games/{game_id}/seats/red/bot", key, {"bot": True})
        final = wait_for(
            lambda: (
                (v := call(base, "GET", f"/api/games/{game_id}", key))["status"] == "finished" and v
            ),
            240,
            "the game played to its end",
        )
        assert final["winners"]
        wait_for(
            lambda: any(
                "the game is over" in str(m["Subject"]) for m in smtp.inbox.to("me@example.org")
            ),
            30,
            "the game-over mail",
        )
    finally:
        for process in running.values():
            process.send_signal(signal.SIGTERM)
        codes = {name: process.wait(timeout=40) for name, process in running.items()}
        smtp.stop()
    assert codes == {"web": 0, "scheduler": 0, "mailin": 0}, {
        name: logs[name].read_text()[-2000:] for name in logs
    }
    # The scheduler's log is JSON lines, its actions with their game.
    lines = [
        json.loads(line)
        for line in logs["scheduler"].read_text().splitlines()
        if line.startswith("{")
    ]
    assert any(line.get("game_id") == game_id and line.get("job") == "sweep" for line in lines)
