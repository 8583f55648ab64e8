"""deploy/systemd/: the units systemd-analyze accepts, commands that run, the hardening."""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.deploy.helpers import (
    DEPLOY,
    REPO,
    SERVER_ROOT,
    SERVER_VENV_BIN,
    VENV_BIN,
    local_path,
    parse_pbem,
    read_unit,
    value,
    values,
    words,
)

UNITS = DEPLOY / "systemd"
SERVICES = ("pbem-web", "pbem-scheduler", "pbem-mailin", "pbem-mail-imap", "pbem-migrate")
LONG_RUNNING = ("pbem-web", "pbem-scheduler", "pbem-mailin", "pbem-mail-imap")
INSTANCE = SERVER_ROOT + "/instance"
HARDENING = {
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "ReadWritePaths": INSTANCE,
}


def unit(name: str):
    return read_unit(UNITS / name)


def exec_start(name: str) -> list[str]:
    return shlex.split(value(unit(name + ".service"), "Service", "ExecStart"))


def copies_for_this_machine(tmp_path: Path) -> list[Path]:
    """The units with their executables in this venv (systemd-analyze checks they exist)."""
    copies = []
    for source in sorted(UNITS.glob("pbem-*")):
        copy = tmp_path / source.name
        copy.write_text(source.read_text().replace(SERVER_VENV_BIN, f"{VENV_BIN}/"))
        copies.append(copy)
    return copies


def systemd_analyze() -> str:
    tool = shutil.which("systemd-analyze")
    if not tool:
        pytest.skip("systemd-analyze is not installed (Debian: apt-get install systemd)")
    return tool


def verify(tool: str, units: list[Path]) -> str:
    result = subprocess.run(
        [tool, "verify", *[unit.name for unit in units]],
        cwd=units[0].parent,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return f"exit {result.returncode}\n{result.stdout}{result.stderr}".strip()


def test_systemd_analyze_verify_finds_nothing_wrong(tmp_path):
    # Unknown keys and bad values are only warnings (exit 0): any output at all fails.
    tool = systemd_analyze()
    assert verify(tool, copies_for_this_machine(tmp_path)) == "exit 0"


def test_systemd_analyze_verify_would_see_a_mistake(tmp_path):
    tool = systemd_analyze()
    copies = copies_for_this_machine(tmp_path)
    scheduler = tmp_path / "pbem-scheduler.service"
    scheduler.write_text(scheduler.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    assert "restart specifier" in verify(tool, copies)


def test_each_service_runs_this_venvs_executable_with_arguments_it_accepts(monkeypatch):
    from gunicorn.config import Config
    from gunicorn.util import import_app

    for name in SERVICES:
        command = exec_start(name)
        assert command[0].startswith(SERVER_VENV_BIN), name
        executable = local_path(command[0])
        assert executable.is_file() and os.access(executable, os.X_OK), executable
    assert parse_pbem(exec_start("pbem-migrate")[1:]).db_command == "upgrade"
    assert parse_pbem(exec_start("pbem-scheduler")[1:]).command == "scheduler"
    mailin = parse_pbem(exec_start("pbem-mailin")[1:])
    # LMTP, as Postfix's lmtp transport and deploy/pbem-deliver.py speak it.
    assert (mailin.mail_command, mailin.host, mailin.lmtp) == ("smtpd", "127.0.0.1", True)
    assert parse_pbem(exec_start("pbem-mail-imap")[1:]).mail_command == "imap"
    web = exec_start("pbem-web")
    assert Path(web[0]).name == "gunicorn"
    options = Config().parser().parse_args(web[1:])
    assert local_path(options.config) == DEPLOY / "gunicorn.conf.py"
    monkeypatch.setenv("SECRET_KEY", "x" * 40)  # none written into the checkout
    monkeypatch.setenv("DATABASE_URL", "sqlite://")
    assert import_app(options.args[0]).name == "pbem"


def test_each_service_is_hardened_and_reads_the_same_settings():
    for name in SERVICES:
        service = unit(name + ".service")
        for key, expected in HARDENING.items():
            assert value(service, "Service", key) == expected, f"{name}: {key}"
        assert value(service, "Service", "User") == "pbem", name
        assert value(service, "Service", "WorkingDirectory") == SERVER_ROOT, name
        assert value(service, "Service", "EnvironmentFile") == "/etc/pbem/pbem.env", name
    for name in LONG_RUNNING:
        assert value(unit(name + ".service"), "Service", "Restart") == "on-failure", name
    assert value(unit("pbem-migrate.service"), "Service", "Type") == "oneshot"


def test_the_writable_folder_is_the_apps_instance_folder():
    # In an editable install (pip install -e /srv/pbem, as deploy/README.md says) Flask's
    # instance folder is the checkout's instance/: the one folder the units let it write.
    import pbem

    if Path(pbem.__file__).resolve().parents[1] != REPO:
        pytest.skip("pbem is not installed editable from this checkout")
    from pbem import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x" * 40})
    assert local_path(INSTANCE) == Path(app.instance_path)


def test_every_service_migrates_first():
    for name in LONG_RUNNING:
        service = unit(name + ".service")
        assert "pbem-migrate.service" in words(service, "Unit", "Requires"), name
        assert "pbem-migrate.service" in words(service, "Unit", "After"), name


def test_the_web_service_takes_its_socket_from_the_socket_unit():
    socket_unit = unit("pbem-web.socket")
    web = unit("pbem-web.service")
    # The same name: systemd starts pbem-web.service for pbem-web.socket.
    assert "pbem-web.socket" in words(web, "Unit", "Requires")
    assert "pbem-web.socket" in words(web, "Unit", "After")
    assert value(web, "Service", "Type") == "notify"  # gunicorn calls sd_notify
    (listen,) = values(socket_unit, "Socket", "ListenStream")
    nginx = (DEPLOY / "nginx" / "pbem.conf").read_text(encoding="utf-8")
    assert re.search(rf"server unix:{re.escape(listen)}\b", nginx), "nginx's upstream"
    assert value(socket_unit, "Install", "WantedBy") == "sockets.target"


def test_gunicorn_serves_on_a_socket_handed_over_as_systemd_does(tmp_path):
    """pbem-web.service's command under systemd-socket-activate: gunicorn takes the socket it
    is given (LISTEN_FDS) and answers on it."""
    from pbem import create_app
    from pbem.cli import upgrade_database

    tool = shutil.which("systemd-socket-activate")
    if not tool:
        pytest.skip("systemd-socket-activate is not installed (Debian: apt-get install systemd)")
    database = f"sqlite:///{tmp_path}/web.sqlite"
    upgrade_database(create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "x" * 40}))
    path = tmp_path / "web.sock"
    command = [
        str(local_path(word)) if word.startswith("/") else word for word in exec_start("pbem-web")
    ]
    # The unit's own Environment= (PBEM_CONTROL_SOCKET, gunicorn's control socket), with its
    # RuntimeDirectory= made in tmp_path, then what pbem.env would hold.
    web = unit("pbem-web.service")
    runtime = "/run/" + value(web, "Service", "RuntimeDirectory")
    (tmp_path / "runtime").mkdir()
    settings = dict(line.split("=", 1) for line in values(web, "Service", "Environment"))
    settings = {name: s.replace(runtime, str(tmp_path / "runtime")) for name, s in settings.items()}
    settings |= {
        "DATABASE_URL": database,
        "SECRET_KEY": "x" * 40,
        "WEB_CONCURRENCY": "1",
        "PBEM_BIND": "127.0.0.1:1",  # must be ignored for the socket handed over
    }
    # systemd-socket-activate passes on only the variables named with -E.
    environment = [f"-E{name}={setting}" for name, setting in settings.items()]
    process = subprocess.Popen(
        [tool, "-l", str(path), *environment, *command],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        response = answer_when_listening(path, "/api/health/live", seconds=20)
        assert response.status == 200
        assert json.loads(response.read()) == {"status": "ok"}
    finally:
        # SIGINT: gunicorn's quick stop (socket-activate has exec'd into its arbiter).
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=30)
    assert f"Listening at: unix:{path}" in out, out
    assert str(tmp_path / "runtime" / "gunicorn.ctl") in out, out


def answer_when_listening(path, url: str, seconds: float) -> http.client.HTTPResponse:
    """GET url on the Unix socket at path once something listens there. The socket's file
    appears at bind(), a moment before listen(): a connection in between is refused, so a
    refusal (or no file yet) is retried until the time is up."""
    deadline = time.monotonic() + seconds
    while True:
        connection = UnixHTTPConnection(str(path))
        try:
            connection.request("GET", url)
            return connection.getresponse()
        except (FileNotFoundError, ConnectionRefusedError):
            connection.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: str):
        super().__init__("localhost", timeout=20)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(20)
        self.sock.connect(self.path)
