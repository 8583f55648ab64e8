"""A web worker's memory over many requests: is there a leak for `max_requests` to guard?

Starts gunicorn as deployed (`deploy/gunicorn.conf.py`) with one worker on a fresh database,
then one client plays random games through the API and looks at them as players do, over
and over: each move a POST, then the mover's view, the legal moves of the next, the board
page of the game at its new seq (signed out), now and then the standings, a player's page and
a health check. New games keep coming, so the worker's kept states, drawn pages and links
see new keys all the time, as on a busy server. The worker's resident memory (VmRSS) is
printed every `--every` requests, with its pid (a new pid would be a restart).

    python bench/worker_memory.py --requests 100000
    python bench/worker_memory.py --requests 20000 --db postgresql

Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from pathlib import Path

from common import Client, database, new_game, players_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api import start_server  # noqa: E402


def worker_of(master: int) -> int:
    """The pid of the master's one worker (read from /proc)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            if f"\nPPid:\t{master}\n" in status:
                return int(entry)
    raise RuntimeError("gunicorn has no worker")


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


class Counted:
    """A client that counts its requests and says when `every` more have gone."""

    def __init__(self, port: int, every: int, master: int) -> None:
        self.client, self.every, self.master = Client(port), every, master
        self.sent = 0
        self.started = time.perf_counter()

    def call(self, method: str, path: str, body=None, key: str | None = None):
        answer = self.client.call(method, path, body, key)
        self._count()
        return answer

    def page(self, path: str) -> None:
        """A page as a browser asks for it (HTML, not JSON)."""
        self.client.connection.request("GET", path)
        self.client.connection.getresponse().read()
        self._count()

    def _count(self) -> None:
        self.sent += 1
        if self.sent % self.every == 0:
            worker = worker_of(self.master)
            print(
                f"  {self.sent:>7} requests  worker {worker}  {resident_mb(worker):7.1f} MB  "
                f"{time.perf_counter() - self.started:6.0f} s",
                flush=True,
            )


def play(counted: Counted, url: str, requests: int, seed: int) -> None:
    rng = random.Random(seed)
    while counted.sent < requests:
        game_id, keys = new_game(counted.client, url, rng)
        _, view = counted.call("GET", f"/api/games/{game_id}")
        while view["status"] == "active" and counted.sent < requests:
            colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
            key = keys[colour]
            _, legal = counted.call("GET", f"/api/games/{game_id}/legal-moves", key=key)
            if not legal["moves"]:
                break
            status, body = counted.call(
                "POST",
                f"/api/games/{game_id}/moves",
                {"expected_seq": legal["seq"], "moves": [rng.choice(legal["moves"])]},
                key=key,
            )
            if status != 201:
                raise RuntimeError(f"move refused: {status} {body}")
            view = body["view"]
            counted.call("GET", f"/api/games/{game_id}", key=key)
            counted.page(f"/games/{game_id}")
            if rng.random() < 0.05:
                counted.page("/ratings")
                counted.page(f"/players/{rng.randint(1, 50)}")
                counted.call("GET", "/api/health/live")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--every", type=int, default=10_000)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--pg", default="postgresql+psycopg://127.0.0.1:5432/test")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with database(args.db, args.pg) as url:
        server, port = start_server(url, 1, None)
        players_app(url)  # untimed: new_game makes its players in this process
        try:
            master = server.pid
            worker = worker_of(master)
            print(f"{args.db}: one gevent worker, {args.requests} requests")
            print(f"        0 requests  worker {worker}  {resident_mb(worker):7.1f} MB")
            counted = Counted(port, args.every, master)
            play(counted, url, args.requests, args.seed)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
