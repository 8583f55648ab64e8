"""The server as deployed, tried as an adversary would: gunicorn with deploy/gunicorn.conf.py
(gevent workers) on PostgreSQL, requests sent at the same moment from many threads.

These tests need PostgreSQL (`TEST_DATABASE_URL`), where concurrent requests really run in
parallel transactions; on SQLite, whose writes are one at a time, they are skipped. CI runs
them in its PostgreSQL pass. Mail is not sent: the outbox's rows are what each test counts.
"""

from __future__ import annotations

import email
import os
import re
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
import sqlalchemy as sa

from pbem import create_app
from pbem.cli import upgrade_database
from pbem.extensions import db
from pbem.game.players import add_player
from tests.processes import wait_for
from tests.server.conftest import own_schema
from tests.server.mail_helpers import free_port

REPO = Path(__file__).resolve().parents[2]
SECRET = "hostile-test-secret"


@dataclass
class Server:
    """A running gunicorn, its database (an app in this process reads and writes it
    directly) and what the test made there."""

    base: str
    url: str
    app: Any
    process: subprocess.Popen[str]
    made: Counter[str] = field(default_factory=Counter)

    def player(self, name: str) -> tuple[str, str]:
        """A fresh proved player (as `pbem players add` makes one): its address and key."""
        self.made[name] += 1
        address = f"{name}-{self.made[name]}-{os.getpid()}@players.example.org"
        with self.app.app_context():
            _player, key = add_player(address, name.title())
            db.session.commit()
            db.session.remove()
        return address, key

    def call(
        self, method: str, path: str, key: str | None = None, body: Any = None, **kw: Any
    ) -> requests.Response:
        headers = dict(kw.pop("headers", {}))
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return requests.request(
            method, self.base + path, json=body, headers=headers, timeout=30, **kw
        )

    def rows(self, statement: str, **params: Any) -> list[Any]:
        with self.app.app_context():
            found = db.session.execute(sa.text(statement), params).all()
            db.session.remove()
        return list(found)

    def execute(self, statement: str, **params: Any) -> None:
        with self.app.app_context():
            db.session.execute(sa.text(statement), params)
            db.session.commit()
            db.session.remove()

    def mails(self, game_id: int | None = None, kind: str | None = None) -> list[Any]:
        """The outbox's mails (recipient, kind, message), of a game and kind if given, once
        composed as the sender composes them before it sends (no sender runs here)."""
        from pbem.notify.sender import compose_queued

        with self.app.app_context():
            compose_queued()
            db.session.remove()
        query = "SELECT recipient, kind, message FROM outbox WHERE channel = 'mail'"
        if game_id is not None:
            query += f" AND game_id = {int(game_id)}"
        if kind is not None:
            query += " AND kind = :kind"
        return self.rows(query + " ORDER BY id", kind=kind)


def link_in(message: str, path: str) -> str:
    """The path of the first link under `path` in a queued mail's text part."""
    parsed = email.message_from_string(message)
    text = next(
        part.get_payload(decode=True).decode()
        for part in parsed.walk()
        if part.get_content_type() == "text/plain"
    )
    found = re.search(rf"https?://\S+?({re.escape(path)}\S+)", text)
    assert found, text
    return urlsplit(found[0]).path


def at_once(calls: list[Callable[[], requests.Response]]) -> list[requests.Response]:
    """Run the calls together: each thread waits at a barrier, then sends."""
    barrier = threading.Barrier(len(calls))

    def send(call: Callable[[], requests.Response]) -> requests.Response:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        responses = list(pool.map(send, calls))
    # The race's figures, for `pytest tests/hostile -s | grep ^race`.
    test = os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[-1].split(" ")[0]
    print(f"race {test}: {len(responses)} requests, {dict(sorted(statuses(responses).items()))}")
    return responses


def statuses(responses: list[requests.Response]) -> Counter[int]:
    return Counter(r.status_code for r in responses)


def start_gunicorn(url: str, folder: Path, extra: dict[str, str] | None = None) -> tuple:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": SECRET,
        "PBEM_INSTANCE_PATH": str(folder),
        "PBEM_BASE_URL": base,
        "WEB_CONCURRENCY": "2",
        "PBEM_LOG_LEVEL": "warning",
        **(extra or {}),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(REPO / "deploy" / "gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{port}", "pbem:create_app()"],
        env=env, cwd=REPO, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    wait_for(lambda: requests.get(base + "/api/health/live", timeout=2).ok, 30, "gunicorn up")
    return base, process


@contextmanager
def running_server(tmp_path_factory, name: str, extra: dict[str, str]) -> Iterator[Server]:
    """gunicorn as deployed (`extra`: settings beside the usual) on a PostgreSQL schema of
    its own, migrated, and an app in this process on the same database; skipped without
    TEST_DATABASE_URL. On leaving, no request may have made a worker fail."""
    base_url = os.environ.get("TEST_DATABASE_URL")
    if not base_url:
        pytest.skip("the hostile tests race on PostgreSQL: set TEST_DATABASE_URL")
    folder = tmp_path_factory.mktemp(name)
    with own_schema(base_url, f"pbem_{name.replace('-', '_')}_") as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET})
        upgrade_database(app)
        base, process = start_gunicorn(url, folder, extra)
        try:
            yield Server(base, url, app, process)
        finally:
            process.terminate()
            _, errors = process.communicate(timeout=30)
            with app.app_context():
                db.engine.dispose()
            assert "Traceback" not in errors, errors[-4000:]


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[Server]:
    """One gunicorn for a test worker's hostile tests (each makes players and games of its
    own): starting one takes seconds."""
    with running_server(tmp_path_factory, "hostile", {"PBEM_PROXY_HOPS": "1"}) as running:
        yield running


def players_for(app: Any, prefix: str, count: int) -> list[str]:
    """`count` proved players `<prefix><n>@players.example.org`, as `pbem players add`
    makes them: their keys, in order."""
    with app.app_context():
        keys = [add_player(f"{prefix}{n}@players.example.org", f"{prefix.title()}{n}")[1]
                for n in range(count)]  # fmt: skip
        db.session.commit()
        db.session.remove()
    return keys


def game_of_three(session: requests.Session, base: str, prefix: str, n: int, key: str) -> int:
    """Client `n`'s own game (players `3n`, `3n+1`, `3n+2` of `players_for`), made by the
    first of them through `base`: its id."""
    emails = [f"{prefix}{3 * n + i}@players.example.org" for i in range(3)]
    seats = [
        {"email": e, "colour": c} for e, c in zip(emails, ("red", "blue", "green"), strict=True)
    ]
    made = session.post(f"{base}/api/games", json={"title": f"{prefix} {n}", "seats": seats},
                        headers={"Authorization": f"Bearer {key}"}, timeout=30)  # fmt: skip
    assert made.status_code == 201, made.text
    return int(made.json()["id"])


def together(count: int, client: Callable[[int], None]) -> None:
    """`client(0)` ... `client(count - 1)`, each in a thread of its own, until all are done."""
    threads = [threading.Thread(target=client, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def random_move(
    session: requests.Session, base: str, game: int, auth: dict[str, str], rng: Any
) -> tuple[requests.Response, requests.Response | None]:
    """Read the seat's legal moves through `base` and play one of them at random, with the
    seq they were read at: the read, and the move's answer (None: the seat has none now)."""
    legal = session.get(f"{base}/api/games/{game}/legal-moves", headers=auth, timeout=30)
    body = legal.json() if legal.ok else {}
    if not body.get("moves"):
        return legal, None
    played = session.post(
        f"{base}/api/games/{game}/moves",
        json={"moves": [rng.choice(body["moves"])], "expected_seq": body["seq"]},
        headers=auth,
        timeout=30,
    )
    return legal, played
