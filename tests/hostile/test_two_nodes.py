"""Two nodes on one PostgreSQL, as an installation grows: two gunicorn instances (as
deployed, under one user) and two schedulers, 8 clients each playing its own game with every
move sent to one node and read back at once through the other. No move acknowledged is lost
or played twice, every read through the other node shows the move just made, and neither
instance opens a control socket.

PostgreSQL only (TEST_DATABASE_URL), where the two nodes' transactions really run at once."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import requests
import sqlalchemy as sa

from pbem import create_app
from pbem.cli import upgrade_database
from pbem.extensions import db
from tests.hostile.conftest import (
    REPO,
    SECRET,
    game_of_three,
    players_for,
    random_move,
    start_gunicorn,
    together,
)
from tests.server.conftest import own_schema

SECONDS = 10.0
CLIENTS = 8
PBEM = str(Path(sys.executable).parent / "pbem")


def test_two_nodes_lose_nothing_do_nothing_twice_and_read_each_others_moves(tmp_path):
    base_url = os.environ.get("TEST_DATABASE_URL")
    if not base_url:
        pytest.skip("two nodes race on PostgreSQL: set TEST_DATABASE_URL")
    with own_schema(base_url, "pbem_two_nodes_") as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET})
        upgrade_database(app)
        keys = players_for(app, "n", CLIENTS * 3)
        home = {"HOME": str(tmp_path / "home"), "XDG_RUNTIME_DIR": ""}
        nodes, processes = [], []
        try:
            for name in ("a", "b"):
                base, web = start_gunicorn(url, tmp_path / name, home)
                nodes.append(base)
                processes.append(web)
            env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "TEST_"))}
            env.update(DATABASE_URL=url, SECRET_KEY=SECRET, PBEM_BASE_URL=nodes[0],
                       PBEM_SWEEP_SECONDS="1", PBEM_MAIL_SECONDS="1", **home)  # fmt: skip
            for name in ("a", "b"):
                log = (tmp_path / f"scheduler-{name}.log").open("w")
                env["PBEM_INSTANCE_PATH"] = str(tmp_path / name)
                processes.append(
                    subprocess.Popen(
                        [PBEM, "scheduler"],
                        cwd=REPO,
                        env=dict(env),
                        stdout=subprocess.DEVNULL,
                        stderr=log,
                    )  # fmt: skip
                )
            acknowledged, counts, stale = _play(nodes, keys)
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(timeout=30)
        print(f"two nodes: {dict(counts)}, {len(acknowledged)} moves acknowledged")
        assert len(acknowledged) > 100, counts
        assert not [s for s in counts if isinstance(s, int) and s >= 500], counts
        assert not stale, stale[:5]  # each move read back at once through the other node
        with app.app_context():
            logged = db.session.execute(sa.text("SELECT game_id, seq FROM moves")).all()
            db.engine.dispose()
        # Every move acknowledged is in the log once, and nothing else is.
        assert sorted(map(tuple, logged)) == sorted(acknowledged)
        assert not (tmp_path / "home" / ".gunicorn").exists()
        for name in ("a", "b"):
            assert "Traceback" not in (tmp_path / f"scheduler-{name}.log").read_text()


def _play(nodes: list[str], keys: list[str]):
    """CLIENTS threads for SECONDS, each its own game: a random legal move sent to a random
    node, then the game read through the other. The (game, seq) of every move answered 201,
    the statuses, and each read that did not show the move just made."""
    acknowledged: list[tuple[int, int]] = []
    counts: Counter = Counter()
    stale: list[tuple[int, int, int]] = []
    lock = threading.Lock()
    stop = time.monotonic() + SECONDS

    def client(n: int) -> None:
        rng = random.Random(n)
        mine = keys[3 * n : 3 * n + 3]
        session = requests.Session()
        game = game_of_three(session, nodes[0], "n", n, mine[0])
        while time.monotonic() < stop:
            auth = {"Authorization": f"Bearer {rng.choice(mine)}"}
            here, there = rng.sample(nodes, 2)
            legal, played = random_move(session, here, game, auth, rng)
            if played is None:
                continue
            seen = session.get(f"{there}/api/games/{game}", headers=auth, timeout=30)
            with lock:
                counts[legal.status_code] += 1
                counts[played.status_code] += 1
                counts[seen.status_code] += 1
                if played.status_code == 201:
                    seq = played.json()["seq"]
                    acknowledged.append((game, seq))
                    if seen.json()["seq"] < seq:
                        stale.append((game, seq, seen.json()["seq"]))

    together(CLIENTS, client)
    return acknowledged, counts, stale
