"""gunicorn's control socket (gunicornc) as deploy/gunicorn.conf.py sets it: off unless
PBEM_CONTROL_SOCKET names one for the instance, so two instances under one user never share
(gunicorn's default is one per user, $HOME/.gunicorn/gunicorn.ctl, the second taking the
first's over)."""

from __future__ import annotations

import os

import requests

from pbem import create_app
from pbem.cli import upgrade_database
from tests.hostile.conftest import start_gunicorn


def test_two_instances_under_one_user_keep_their_own_control_socket_or_none(tmp_path):
    url = f"sqlite:///{tmp_path}/pbem.sqlite"
    upgrade_database(create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x" * 40}))
    home = tmp_path / "home"
    home.mkdir()
    own = tmp_path / "second.ctl"
    shared = {"HOME": str(home), "XDG_RUNTIME_DIR": ""}
    first, first_process = start_gunicorn(url, tmp_path / "one", shared)
    second, second_process = start_gunicorn(
        url, tmp_path / "two", {**shared, "PBEM_CONTROL_SOCKET": str(own)}
    )
    try:
        for base in (first, second):
            assert requests.get(base + "/api/health/live", timeout=5).ok
        # The first has none (not gunicorn's per-user default), the second its own.
        assert not (home / ".gunicorn").exists(), list((home / ".gunicorn").iterdir())
        assert own.is_socket()
    finally:
        for process in (first_process, second_process):
            process.terminate()
            process.communicate(timeout=30)
    assert not any(name.endswith(".ctl") for name in os.listdir(tmp_path / "one"))
