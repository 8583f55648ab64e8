"""Benchmark the record pages on a large server: a player's page and the standings with
10,000 players and 100,000 finished games, on PostgreSQL, under gunicorn as deployed.

A fresh schema is migrated and filled in bulk (rows as the server writes them, numbers
drawn at random): P players with ratings, G finished games with a result for each of
their 3-5 people, 40 closed decisions and about 20 action cards chosen per player, and a
few thousand games still going with their seats (each person's kept rating history too).
Then one client asks, each kind of request over and over for a slice of time, the kinds in
turn so the machine's ups and downs fall on all alike: GET /api/health/live (the baseline,
which reads nothing), a random player's page, its API answer, the standings (all games, and
4-player games), and the standings' 40th page. Prints each one's p50 and p99, its p50 as a
multiple of health's (and the player's page's in each slice), and what gunicorn's workers
spent on each request beside what they spent on health's (and what PostgreSQL's processes
on this machine spent meanwhile). The standings' pages are kept per worker until a game is
rated (or a minute passes): after the warm-up turns each is a kept page and one read of the
newest result's id. A player's record as drawn is kept in the database until a game of
theirs ends: the warm-up looks at every player's page once (as a site's readers do between
games), and "drawn again" is a player's page just after a game of theirs ended (the bench
raises their `record_seq` first, untimed).

    python bench/ratings.py                          # 10,000 players, 100,000 games
    python bench/ratings.py --players 2000 --games 20000 --seconds 14

PostgreSQL: 127.0.0.1:5432 (trust), database `test`, a schema of its own.
Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import (  # noqa: E402
    Client,
    Phase,
    database,
    in_slices,
    print_cpu_per_request,
    print_slice_ratios,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api import start_server  # noqa: E402

CARDS = [f"card_{n}" for n in range(43)]
CHUNK = 20_000


def fill(url: str, players: int, games: int, seed: int) -> None:
    """The tables the record pages read, filled in bulk as the server would have left them."""
    import sqlalchemy as sa

    from pbem.game.ratings import HISTORY_POINTS, ordinal
    from pbem.store.models import (
        CardPlay,
        Decision,
        Game,
        GameRating,
        Player,
        PlayerRating,
        Seat,
    )

    rng = random.Random(seed)
    engine = sa.create_engine(url)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with engine.begin() as connection:

        def put(table, rows) -> None:
            for first in range(0, len(rows), CHUNK):
                connection.execute(sa.insert(table.__table__), rows[first : first + CHUNK])

        put(
            Player,
            [
                {
                    "id": p,
                    "email": f"p{p}@example.org",
                    "name": f"Player {p}",
                    "preferences": {},
                    "created_at": start,
                    "session_epoch": 0,
                    "email_proved_at": start,
                    "email_version": 0,
                }
                for p in range(1, players + 1)
            ],
        )
        rated: dict[int, list[int]] = {p: [0, 0, 0, 0, 0] for p in range(1, players + 1)}
        shown: dict[int, list[float]] = {p: [] for p in range(1, players + 1)}
        game_rows, result_rows = [], []
        for g in range(1, games + 1):
            ended = start + timedelta(minutes=5 * g)
            seated = rng.sample(range(1, players + 1), rng.choice((3, 4, 5)))
            game_rows.append(_game(g, seated[0], "finished", ended, len(seated)))
            for place, p in enumerate(seated, start=1):
                mu = rng.gauss(25, 4)
                moved = mu + rng.gauss(0, 1)
                if not shown[p]:
                    shown[p].append(ordinal(mu, 6.0))
                shown[p].append(ordinal(moved, 5.8))
                result_rows.append(
                    {
                        "game_id": g,
                        "player_id": p,
                        "players": len(seated),
                        "rank": place,
                        "score": rng.randint(30, 120),
                        "mu_before": mu,
                        "sigma_before": 6.0,
                        "mu_after": moved,
                        "sigma_after": 5.8,
                        "bot_finished": False,
                        "rated": True,
                        "rated_at": ended,
                    }
                )
                rated[p][0] += 1
                rated[p][len(seated) - 1] += 1
        going = games // 20
        for g in range(games + 1, games + going + 1):
            game_rows.append(_game(g, rng.randint(1, players), "active", start, 4))
        put(Game, game_rows)
        put(GameRating, result_rows)
        put(
            Seat,
            [
                {
                    "game_id": g,
                    "player_id": p,
                    "colour": colour,
                    "position": i,
                    "timeouts": 0,
                    "bot": False,
                    "open": False,
                    "accepted_at": start,
                }
                for g in range(games + 1, games + going + 1)
                for i, (p, colour) in enumerate(
                    zip(
                        rng.sample(range(1, players + 1), 4),
                        ("red", "yellow", "green", "blue"),
                        strict=True,
                    )
                )
            ],
        )
        ratings = []
        for p, (count, _one, two, three, four) in rated.items():
            mu, sigma = rng.gauss(25, 4), max(1.5, 8.33 - 0.1 * count)
            ratings.append(
                {
                    "player_id": p,
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": ordinal(mu, sigma),
                    "games": count,
                    "games_2": 0,
                    "games_3": two,
                    "games_4": three,
                    "games_5": four,
                    # As the server keeps it: the last games' and the one before them.
                    "history": shown[p][-(HISTORY_POINTS + 1) :] or None,
                    "updated_at": start,
                }
            )
        put(PlayerRating, ratings)
        hows = ["in_time"] * 17 + ["late", "timeout", "bot"]
        put(
            Decision,
            [
                {
                    "player_id": p,
                    "game_id": rng.randint(1, games),
                    "colour": "red",
                    "decision": "turn",
                    "due_at": start,
                    "closed_at": start,
                    "how": rng.choice(hows),
                }
                for p in range(1, players + 1)
                for _ in range(40)
            ],
        )
        put(
            CardPlay,
            [
                {
                    "player_id": p,
                    "card": card,
                    "plays": rng.randint(1, 30),
                    "points": rng.randint(0, 600),
                }
                for p in range(1, players + 1)
                for card in rng.sample(CARDS, 20)
            ],
        )
        if connection.dialect.name == "postgresql":
            for table in ("players", "games", "seats", "game_ratings", "player_ratings"):
                connection.execute(sa.text(f"ANALYZE {table}"))
            connection.execute(sa.text("ANALYZE decisions"))
            connection.execute(sa.text("ANALYZE card_plays"))
            # The ids were given: the sequences must start past them, as the server's would.
            for table in ("players", "games"):
                connection.execute(
                    sa.text(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"(SELECT max(id) FROM {table}))"
                    )
                )
    engine.dispose()


def _game(game_id: int, creator: int, status: str, moment: datetime, seats: int) -> dict:
    return {
        "id": game_id,
        "title": f"Game {game_id}",
        "options": {},
        "timing": {},
        "seed": game_id,
        "status": status,
        "creator_id": creator,
        "colours": ["red", "yellow", "green", "blue", "brown"][:seats],
        "pending": [],
        "seq": 300,
        "created_at": moment,
        "updated_at": moment,
    }


#: A player's page whose kept drawing a game's end made stale: drawn again, and kept.
DRAWN_AGAIN = "GET /players/<id> drawn again"

#: Each kind of request the bench asks, and the path of one (a random player's).
KINDS: dict[str, Callable[[random.Random, int], str]] = {
    "GET health": lambda _rng, _players: "/api/health/live",
    "GET /players/<id>": lambda rng, players: f"/players/{rng.randint(1, players)}",
    DRAWN_AGAIN: lambda rng, players: f"/players/{rng.randint(1, players)}",
    "GET /api/players/<id>": lambda rng, players: f"/api/players/{rng.randint(1, players)}",
    "GET /ratings": lambda _rng, _players: "/ratings",
    "GET /ratings?players=4": lambda _rng, _players: "/ratings?players=4",
    "GET /ratings?page=40": lambda _rng, _players: "/ratings?page=40",
    "GET /api/ratings": lambda _rng, _players: "/api/ratings",
}


def look_at_every_player(port: int, players: int, clients: int = 4) -> None:
    """Every player's page asked once, by a few clients at once: each drawn and kept."""
    from concurrent.futures import ThreadPoolExecutor

    def look(first: int) -> None:
        client = Client(port)
        for player in range(first, players + 1, clients):
            client.connection.request("GET", f"/players/{player}")
            response = client.connection.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"/players/{player}: {response.status}")

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(look, range(1, clients + 1)))


def measure(
    url: str, server_pid: int, port: int, players: int, seconds: float, slices: int, seed: int
) -> dict[str, Phase]:
    """Each kind of request asked over and over by one client for its share of `seconds`,
    the kinds in turn `slices` times (after every player's page was looked at once, and
    every kind asked 20 times, untimed, to warm the workers' caches and connections): each
    request's seconds and the workers' CPU."""
    import sqlalchemy as sa

    rng = random.Random(seed)
    client = Client(port)
    began = time.perf_counter()
    look_at_every_player(port, players)
    print(f"every player's page looked at once in {time.perf_counter() - began:.1f} s")
    bench_engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    ending = bench_engine.connect()
    game_ended = sa.text("UPDATE players SET record_seq = record_seq + 1 WHERE id = :player")

    def ask(path: str) -> None:
        client.connection.request("GET", path)
        response = client.connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status}")

    def asking(kind: str) -> Callable[[int, float], tuple[list[float], list[str], float]]:
        def run(_turn: int, share: float) -> tuple[list[float], list[str], float]:
            latencies: list[float] = []
            began = time.perf_counter()
            while time.perf_counter() - began < share:
                path = KINDS[kind](rng, players)
                if kind == DRAWN_AGAIN:
                    ending.execute(game_ended, {"player": int(path.rsplit("/", 1)[1])})
                started = time.perf_counter()
                ask(path)
                latencies.append(time.perf_counter() - started)
            return latencies, [], time.perf_counter() - began

        return run

    for _ in range(20):
        for path in KINDS.values():
            ask(path(rng, players))
    try:
        return in_slices({kind: asking(kind) for kind in KINDS}, slices, seconds, server_pid)
    finally:
        ending.close()
        bench_engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=28.0, help="all kinds together")
    parser.add_argument("--slices", type=int, default=8, help="turns each kind takes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default="postgresql+psycopg://127.0.0.1:5432/test")
    args = parser.parse_args()
    with database("postgresql", args.pg) as url:
        env = {**os.environ, "DATABASE_URL": url}
        import subprocess

        bin_dir = Path(sys.executable).parent
        subprocess.run(
            [bin_dir / "pbem", "db", "upgrade"], env=env, check=True, capture_output=True
        )
        began = time.perf_counter()
        fill(url, args.players, args.games, args.seed)
        print(
            f"filled: {args.players} players, {args.games} finished games "
            f"in {time.perf_counter() - began:.1f} s"
        )
        server, port = start_server(url, None, None)
        try:
            ran = measure(url, server.pid, port, args.players, args.seconds, args.slices, args.seed)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    base = statistics.median(ran["GET health"].latencies)
    for name, phase in ran.items():
        ordered = sorted(phase.latencies)
        p50, p99 = statistics.median(ordered), ordered[int(len(ordered) * 0.99) - 1]
        print(
            f"  {name:<24} {len(ordered):6} requests  p50 {p50 * 1000:6.2f} ms  "
            f"p99 {p99 * 1000:6.2f} ms  {p50 / base:5.2f}x health"
        )
    print_slice_ratios(ran, "GET /players/<id>")
    print_cpu_per_request(ran, [name for name in KINDS if name != "GET health"], database=True)


if __name__ == "__main__":
    main()
