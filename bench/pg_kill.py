"""The PostgreSQL connection-kill drill: clients play under gunicorn while every few seconds
every connection the app holds is terminated (`pg_terminate_backend`), as a database
restart or failover would. Prints the answers by status, and checks the log against what was
acknowledged: a move answered 201 must be in the log (lost: 0), and each seq once.

    python bench/pg_kill.py --clients 8 --seconds 30 --every 2

Figures, not a test: tests/server/test_database_outage.py checks the answers one by one.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import signal
import threading
import time
from urllib.parse import quote

import sqlalchemy as sa
from api import start_server  # noqa: E402
from common import Client, database, new_game, players_app  # noqa: E402

APPLICATION = "pbem_kill_drill"


def play(
    port: int, url: str, seed: int, stop_at: float, answers: collections.Counter, acked: set
) -> None:
    """Play random games until `stop_at`, counting every answer; remember acknowledged moves.
    The players are made in `url` (the server's database, without its application name, so
    the killer leaves those connections alone)."""
    client = Client(port)
    rng = random.Random(seed)
    while time.perf_counter() < stop_at:
        try:
            game_id, keys = new_game(client, url, rng)
        except Exception:  # noqa: BLE001 (a 503 while making the game: try again)
            answers["game not made"] += 1
            continue
        while time.perf_counter() < stop_at:
            status, view = client.call("GET", f"/api/games/{game_id}")
            answers[f"GET {status}"] += 1
            if status != 200:
                continue
            if view["status"] != "active":
                break
            colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
            status, legal = client.call(
                "GET", f"/api/games/{game_id}/legal-moves", key=keys[colour]
            )
            answers[f"GET {status}"] += 1
            if status != 200 or not legal["moves"]:
                continue
            body = {"expected_seq": legal["seq"], "moves": [rng.choice(legal["moves"])]}
            status, answer = client.call(
                "POST", f"/api/games/{game_id}/moves", body, key=keys[colour]
            )
            answers[f"POST {status}"] += 1
            if status == 201:
                for seq in range(legal["seq"] + 1, answer["seq"] + 1):
                    acked.add((game_id, seq))


def killer(admin: sa.Engine, every: float, stop_at: float, kills: list[int]) -> None:
    while time.perf_counter() < stop_at:
        time.sleep(every)
        with admin.connect() as connection:
            killed = connection.execute(
                sa.text(
                    "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM "
                    "pg_stat_activity WHERE application_name = :name"
                ),
                {"name": APPLICATION},
            ).scalar()
        kills.append(int(killed or 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--every", type=float, default=2.0, help="seconds between kills")
    parser.add_argument("--pg-url", default="postgresql+psycopg://127.0.0.1:5432/test")
    args = parser.parse_args()
    with database("postgresql", args.pg_url) as url:
        app_url = f"{url}&application_name={quote(APPLICATION)}"
        server, port = start_server(app_url, None, None)
        players_app(url)  # untimed: new_game makes its players in this process
        admin = sa.create_engine(args.pg_url, poolclass=sa.pool.NullPool)
        answers: collections.Counter[str] = collections.Counter()
        acked: set[tuple[int, int]] = set()
        kills: list[int] = []
        try:
            stop_at = time.perf_counter() + args.seconds
            threads = [
                threading.Thread(target=play, args=(port, url, i, stop_at, answers, acked))
                for i in range(args.clients)
            ]
            threads.append(
                threading.Thread(target=killer, args=(admin, args.every, stop_at, kills))
            )
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        logged = sa.create_engine(url, poolclass=sa.pool.NullPool)
        with logged.connect() as connection:
            rows = connection.execute(sa.text("SELECT game_id, seq FROM moves")).all()
        logged.dispose()
        admin.dispose()
    in_log = collections.Counter((game_id, seq) for game_id, seq in rows)
    print(f"PostgreSQL, {args.clients} clients, {args.seconds:g} s, kills every {args.every:g} s")
    print(f"  kills: {len(kills)}, connections terminated: {sum(kills)}")
    print(f"  answers: {dict(sorted(answers.items()))}")
    print(f"  requests answered: {sum(v for k, v in answers.items() if k[0] in 'GP')}")
    print(f"  503s: {sum(v for k, v in answers.items() if k.endswith(' 503'))}")
    print(f"  500s: {sum(v for k, v in answers.items() if k.endswith(' 500'))}")
    print(f"  moves acknowledged: {len(acked)}, in the log: {len(in_log)}")
    print(f"  moves lost (acknowledged, not in the log): {len(acked - set(in_log))}")
    print(f"  seqs logged twice: {sum(1 for n in in_log.values() if n > 1)}")


if __name__ == "__main__":
    main()
