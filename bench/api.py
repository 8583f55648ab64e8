"""Benchmark the REST API under gunicorn: N concurrent clients playing random games.

For each database (SQLite in a temporary folder, PostgreSQL in a schema of its own) this
starts gunicorn on a fresh database and runs four phases, N client threads in each: random
games played (each seat through its own key, every move a POST with `expected_seq`);
GET /api/health/live; a player's view of a game (GET /api/games/{id} with a key); the same
view sent back its ETag (a 304). The games the views read are made first, untimed. Each
phase runs `--slices` times for its share of `--seconds`, the phases in turn, so a shared
machine slowing down or speeding up meanwhile weighs on every phase alike. A slice's phases
share its N keep-alive connections, so they meet the same split of them between gunicorn's
workers (which race to accept them: 4+4 one slice, 8+0 the next), printed for each slice.
Prints the rate and p50/mean/p99 latency of each, the ratios of the p50s to health's (and
the view's in each slice, and its mean's to health's), and the workers' CPU per request of
each (from /proc, gunicorn's parsing and writing included) beside health's, and on
PostgreSQL what its processes on this machine spent per request. The baseline is the
liveness answer, which touches nothing (as GET /api/health did before it read the database
and the scheduler's heartbeats). `--percentiles` adds each phase's p5 to p90.

With 8 clients on 2 cores a phase keeps the machine busy, and a p50 is mostly time spent
queued: the p50 ratios move with what else the machine does (health's p50 swung from 0.7
to 1.6 ms between runs of one sitting). The CPU per request says what each costs.

    python bench/api.py --clients 8 --seconds 20 --db sqlite --db postgresql

`BENCH_TREE=DIR` serves another checkout's code (an earlier release's, to compare in one
sitting; its `pbem` is found first on `PYTHONPATH`). `GET /api/health/ready`, one trivial
round trip to the database through the same stack, is the floor a view is compared with.

`BENCH_LOG_LEVEL=info` keeps the server's request lines (on stderr), with each request's
`ms` and `cpu_ms`, to see where the time went.

Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from common import (  # noqa: E402
    Client,
    database,
    free_port,
    in_slices,
    new_game,
    players_app,
    print_cpu_per_request,
    print_slice_ratios,
    wait_until_live,
)

ROOT = Path(__file__).resolve().parent.parent


def play(
    client: Client, url: str, seed: int, stop_at: float, latencies: list[float], errors: list[str]
):
    """Play random games until `stop_at` through `client` (the server's database at `url`);
    record the latency of every move POST."""
    rng = random.Random(seed)
    while time.perf_counter() < stop_at:
        game_id, keys = new_game(client, url, rng)
        _, view = client.call("GET", f"/api/games/{game_id}")
        while view["status"] == "active" and time.perf_counter() < stop_at:
            colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
            _, legal = client.call("GET", f"/api/games/{game_id}/legal-moves", key=keys[colour])
            if not legal["moves"]:
                # An engine bug (a pending seat with nothing to play) must not end this
                # client's thread and quietly leave fewer clients running: count it and
                # start another game.
                errors.append(
                    f"game {game_id} seq {legal['seq']}: {colour} is pending but has no legal move"
                )
                break
            move = rng.choice(legal["moves"])
            started = time.perf_counter()
            status, body = client.call(
                "POST",
                f"/api/games/{game_id}/moves",
                {"expected_seq": legal["seq"], "moves": [move]},
                key=keys[colour],
            )
            latencies.append(time.perf_counter() - started)
            if status != 201:
                errors.append(f"{status} {body}")
                _, view = client.call("GET", f"/api/games/{game_id}")
                continue
            view = body["view"]


def health(
    client: Client,
    stop_at: float,
    latencies: list[float],
    errors: list[str],
    path: str = "/api/health/live",
):
    while time.perf_counter() < stop_at:
        started = time.perf_counter()
        status, _ = client.call("GET", path)
        latencies.append(time.perf_counter() - started)
        if status != 200:
            errors.append(str(status))


def viewer(port: int, url: str, seed: int) -> tuple[int, dict[str, str]]:
    """A new game of 3 and a player's key (not the game's maker): a bot's (game id, headers)."""
    game_id, keys = new_game(Client(port), url, random.Random(seed), players=3)
    return game_id, {"Authorization": f"Bearer {keys['yellow']}"}


def view(
    client: Client,
    game: tuple[int, dict[str, str]],
    stop_at: float,
    latencies,
    errors,
    conditional: bool = False,
):
    """A bot's poll: GET /api/games/{id} with a player's key (`viewer`'s), over and over;
    `conditional` sends back the ETag, as a bot that polls cheaply would (304)."""
    game_id, headers = game[0], dict(game[1])
    wanted = 200
    if conditional:
        answer, _ = client.send("GET", f"/api/games/{game_id}", None, headers)
        if answer.headers["ETag"] is None:
            errors.append("no ETag: each poll is a whole view")
        else:
            headers["If-None-Match"] = answer.headers["ETag"]
            wanted = 304
    while time.perf_counter() < stop_at:
        started = time.perf_counter()
        answer, _ = client.send("GET", f"/api/games/{game_id}", None, headers)
        latencies.append(time.perf_counter() - started)
        if answer.status != wanted:
            errors.append(str(answer.status))


def run_clients(work, count: int, seconds: float) -> tuple[list[float], list[str], float]:
    """Run `work(index, stop_at, latencies, errors)` in `count` threads for `seconds`."""
    latencies: list[float] = []
    errors: list[str] = []
    started = time.perf_counter()
    stop_at = started + seconds
    threads = [
        threading.Thread(target=work, args=(i, stop_at, latencies, errors)) for i in range(count)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors, time.perf_counter() - started


def figures(name: str, latencies: list[float], elapsed: float, errors: list[str]) -> dict:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    mean = statistics.fmean(ordered) * 1000
    rate = len(ordered) / elapsed
    print(
        f"  {name:<14} {len(ordered):>7} requests  {rate:>8.1f}/s  p50 {p50:7.2f} ms  "
        f"mean {mean:7.2f} ms  p99 {p99:7.2f} ms  errors {len(errors)}"
    )
    if errors:
        print(f"    first error: {errors[0][:300]}")
    return {"p50": p50, "p99": p99, "mean": mean, "rate": rate}


def percentiles(latencies: list[float]) -> str:
    """p5 to p90 of `latencies` (seconds), in ms: where a p50 sits in its spread."""
    ordered = sorted(latencies)
    cuts = (5, 25, 50, 75, 90)
    return "  ".join(f"p{cut} {ordered[len(ordered) * cut // 100] * 1000:.2f}" for cut in cuts)


def start_server(
    database_url: str, workers: int | None, threads: int | None, worker_class: str | None = None
) -> tuple[subprocess.Popen, int]:
    """gunicorn with deploy/gunicorn.conf.py; `workers`/`threads`/`worker_class` override its
    defaults."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "PBEM_LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "warning"),
    }
    if workers is not None:
        env["WEB_CONCURRENCY"] = str(workers)
    if threads is not None:
        env["PBEM_THREADS"] = str(threads)
    if worker_class is not None:
        env["PBEM_WORKER_CLASS"] = worker_class
    tree = Path(os.environ.get("BENCH_TREE", ROOT))  # another checkout's code, to compare
    if tree != ROOT:
        env["PYTHONPATH"] = str(tree)
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [bin_dir / "pbem", "db", "upgrade"], env=env, check=True, capture_output=True, cwd=tree
    )
    port = free_port()
    env["PBEM_BIND"] = f"127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            bin_dir / "gunicorn",
            "-c",
            str(tree / "deploy" / "gunicorn.conf.py"),
            "pbem:create_app()",
        ],
        env=env,
        cwd=tree,
        start_new_session=True,
    )
    wait_until_live(server, port, "gunicorn")
    return server, port


def bench(label: str, database_url: str, args) -> None:
    server, port = start_server(database_url, args.workers, args.threads, args.worker_class)
    players_app(database_url)  # untimed: new_game makes its players in this process
    try:
        workers = args.workers or "deploy default"
        threads = args.threads or "deploy default"
        kind = args.worker_class or "deploy default"
        print(
            f"{label}: gunicorn {workers} workers ({kind}) x {threads} threads, "
            f"{args.clients} clients, {args.seconds:g} s each in {args.slices} slices"
        )
        # Untimed: the games the bots read, one a client for each kind of read.
        games = [viewer(port, database_url, 1000 + i) for i in range(2 * args.clients)]
        # Each phase: work(client, turn, index, stop_at, latencies, errors). A slice's phases
        # share its clients' connections: gunicorn's workers split a slice's connections
        # between them as they race to accept (4+4, 6+2, even 8+0), and each phase of the
        # slice then meets the same split. Each turn's moves start new games (the seed
        # tells them apart); the reads read the same ones.
        works = {
            "POST moves": lambda client, turn, i, *rest: play(
                client, database_url, 100 * turn + i, *rest
            ),
            "GET health": lambda client, turn, i, *rest: health(client, *rest),
            "GET ready": lambda client, turn, i, *rest: health(
                client, *rest, path="/api/health/ready"
            ),
            "GET view": lambda client, turn, i, *rest: view(client, games[i], *rest),
            "GET view 304": lambda client, turn, i, *rest: view(
                client, games[args.clients + i], *rest, conditional=True
            ),
        }
        slice_clients: dict[int, list[Client]] = {}

        def clients_of(turn: int) -> list[Client]:
            if turn not in slice_clients:
                for client in slice_clients.pop(turn - 1, []):
                    client.close()
                slice_clients[turn] = [Client(port) for _ in range(args.clients)]
            return slice_clients[turn]

        def clients(work):  # a slice of a phase: each of the slice's clients doing `work`
            def run(turn: int, seconds: float):
                mine = clients_of(turn)
                return run_clients(
                    lambda i, *rest: work(mine[i], turn, i, *rest), args.clients, seconds
                )

            return run

        phases = {name: clients(work) for name, work in works.items()}
        ran = in_slices(phases, args.slices, args.seconds, server.pid, port)
        for client in slice_clients.pop(args.slices - 1, []):
            client.close()
        results = {
            name: figures(name, phase.latencies, phase.seconds, phase.errors)
            for name, phase in ran.items()
        }
        ping = results["GET health"]["p50"]
        print(
            f"  move p50 / health p50 = {results['POST moves']['p50'] / ping:.2f}  (goal: within 3)"
        )
        print(
            f"  view p50 / health p50 = {results['GET view']['p50'] / ping:.2f}  (goal: within 3)"
        )
        print(f"  304 p50 / health p50 = {results['GET view 304']['p50'] / ping:.2f}")
        # The honest floor of a read: one trivial round trip through the same stack.
        floor = results["GET ready"]["p50"]
        for name in ("GET view", "GET view 304"):
            print(f"  {name} p50 / ready p50 = {results[name]['p50'] / floor:.2f}  (goal: 1.5)")
        # With N clients always waiting on an answer, a phase's mean latency is N over its
        # rate, whatever the order requests are served in; the p50 also says how skewed the
        # latencies are (health's mean is 2-3 times its p50: most answers come at once, and
        # the rest wait behind a worker's other connections or a worker the OS paused).
        print(
            f"  view mean / health mean = "
            f"{results['GET view']['mean'] / results['GET health']['mean']:.2f}"
        )
        print_slice_ratios(ran, "GET view")
        print_slice_ratios(ran, "GET view", "GET ready")
        # A move's CPU includes the legal moves its client reads before it and its share of
        # the games the clients start.
        print_cpu_per_request(
            ran,
            works,
            {"POST moves": "  (with the legal moves read before it)"},
            database=label == "PostgreSQL",
        )
        if args.percentiles:
            for name, phase in ran.items():
                print(f"  {name} latencies: {percentiles(phase.latencies)}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--slices", type=int, default=4, help="turns each phase takes")
    # By default the server runs as deployed: deploy/gunicorn.conf.py decides.
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--worker-class", default=None, help="gevent, gthread, sync")
    parser.add_argument("--db", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument(
        "--percentiles", action="store_true", help="each phase's p5, p25, p50, p75 and p90"
    )
    parser.add_argument(
        "--pg-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgresql+psycopg://127.0.0.1:5432/test"),
    )
    args = parser.parse_args()
    for db in args.db or ["sqlite", "postgresql"]:
        with database(db, args.pg_url) as url:
            bench("SQLite" if db == "sqlite" else "PostgreSQL", url, args)


if __name__ == "__main__":
    main()
