"""The web processes as deployed (gunicorn with deploy/gunicorn.conf.py) against what goes
wrong on the wire: clients that stop sending do not hold up anyone else, and a broken chunk
or a short body is a problem+json answer, never a 500. bench/hostile.py sends the whole list."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from pbem import create_app
from tests.deploy.helpers import DEPLOY, REPO
from tests.processes import call, wait_for
from tests.server.conftest import add_player_now
from tests.server.mail_helpers import free_port


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """gunicorn with the deployed settings on a fresh SQLite database, its bodies allowed a
    one-second pause; yields its base URL, a player's key and a game."""
    folder = tmp_path_factory.mktemp("wire")
    database_url = f"sqlite:///{folder}/pbem.sqlite"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "wire-test",
        "PBEM_INSTANCE_PATH": str(folder),
        "PBEM_BODY_PAUSE_SECONDS": "1",
        "WEB_CONCURRENCY": "2",
        "PBEM_LOG_LEVEL": "warning",
    }
    subprocess.run(
        [sys.executable, "-m", "pbem.cli", "db", "upgrade"], env=env, check=True, cwd=REPO
    )
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(DEPLOY / "gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{port}", "pbem:create_app()"],
        env=env, cwd=REPO, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: call(base, "GET", "/api/health/live"), 30, "gunicorn up")
        # Players with keys as `pbem players add` makes them, in the server's database:
        # POST /api/players mails a link instead of answering a key.
        app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": env["SECRET_KEY"]})
        keys = {c: add_player_now(app, f"{c}@example.com", c) for c in ("red", "blue", "green")}
        seats = [{"colour": c, "email": f"{c}@example.com"} for c in keys]
        game = call(base, "POST", "/api/games", keys["red"], {"title": "wire", "seats": seats})
        yield {"port": port, "base": base, "keys": keys, "game": game["id"], "server": server}
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    # Nothing that happened on the wire is the server's error.
    assert "[ERROR]" not in errors and '"level": "error"' not in errors, errors[-3000:]


def _send(port: int, data: bytes, wait: float = 20) -> tuple[int, bytes, float]:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        answer = b""
        while b"\r\n\r\n" not in answer or not _whole(answer):
            piece = sock.recv(65536)
            if not piece:
                break
            answer += piece
    status = int(re.match(rb"HTTP/1\.1 (\d{3})", answer).group(1))
    return status, answer.split(b"\r\n\r\n", 1)[1], time.monotonic() - started


def _whole(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    length = re.search(rb"(?i)content-length: (\d+)", head)
    return length is None or len(body) >= int(length.group(1))


def _post(web, headers: str, body: bytes) -> bytes:
    return (
        f"POST /api/games/{web['game']}/moves HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {web['keys']['red']}\r\nContent-Type: application/json\r\n"
        f"{headers}Connection: close\r\n\r\n"
    ).encode() + body


def test_a_broken_chunk_is_a_400_problem(web):
    status, body, _ = _send(
        web["port"], _post(web, "Transfer-Encoding: chunked\r\n", b"zz\r\n{}\r\n0\r\n\r\n")
    )
    assert status == 400
    assert "could not be read" in json.loads(body)["detail"]


def test_clients_that_stop_sending_hold_up_nobody(web):
    """Four clients (twice the workers) announce 1,000 bytes and send 2; meanwhile others are
    answered at once, and each stalled one gets a 408 once its body has paused a second."""
    stalled: list[tuple[int, bytes, float]] = []
    threads = [
        threading.Thread(
            target=lambda: stalled.append(
                _send(web["port"], _post(web, "Content-Length: 1000\r\n", b"{}"))
            )
        )
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.3)  # the stalled requests are in
    started = time.monotonic()
    view = call(web["base"], "GET", f"/api/games/{web['game']}")
    assert view["seq"] == 0
    assert time.monotonic() - started < 0.9  # answered while all four still wait
    for thread in threads:
        thread.join(15)
    assert [s[0] for s in stalled] == [408] * 4
    assert all("stopped arriving" in json.loads(s[1])["detail"] for s in stalled)
    assert all(s[2] < 5 for s in stalled)


def test_a_newline_in_next_signs_in_and_stays_home(web):
    """Werkzeug refuses a header with a newline: the target must be refused before."""
    with socket.create_connection(("127.0.0.1", web["port"])) as sock:
        sock.sendall(b"GET /sign-in HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        page = b""
        while piece := sock.recv(65536):
            page += piece
    cookie = re.search(rb"Set-Cookie: (session=[^;]+)", page).group(1).decode()
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    form = f"csrf_token={token}&api_key={web['keys']['blue']}&next=/%0D%0A/x".encode()
    request = (
        "POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        f"Cookie: {cookie}\r\nContent-Length: {len(form)}\r\nConnection: close\r\n\r\n"
    ).encode() + form
    with socket.create_connection(("127.0.0.1", web["port"])) as sock:
        sock.sendall(request)
        head = sock.recv(65536).split(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1.1 303")
    assert re.search(rb"\r\nLocation: /\r\n", head + b"\r\n"), head
