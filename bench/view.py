"""A player's view in one process: `GET /api/games/{id}` with a player's key against
`GET /api/health/live`, through Flask's test client (no HTTP server, no other clients).

`--games` games of 4 players are played some moves on; then each round reads, in turn, every
game's view as one of its players, the same view again with its ETag (`If-None-Match`: a
304), and health/live, so the machine's ups and downs fall on all three alike. The first
rounds warm up; the p50s of the rest are printed, with the view's as a multiple of
health/live's.

    python bench/view.py --db sqlite --db postgresql [--games 20] [--rounds 40]

PostgreSQL: 127.0.0.1:5432 (trust), database `test`, a schema of its own.
Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from common import add_players, database  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COLOURS = ["red", "yellow", "green", "blue"]
WARM_UP = 5


def make_game(app, client, index: int, moves: int) -> tuple[int, str]:
    """A game played `moves` moves on; its id and the key of its red seat."""
    made = add_players(app, {f"{c}-{index}@bench.example": c for c in COLOURS})
    keys = {c: made[f"{c}-{index}@bench.example"] for c in COLOURS}
    seats = [{"email": f"{c}-{index}@bench.example", "colour": c} for c in COLOURS]
    response = client.post(
        "/api/games",
        json={"title": f"bench {index}", "seats": seats},
        headers={"Authorization": f"Bearer {keys['red']}"},
    )
    game_id = response.get_json()["id"]
    for _ in range(moves):
        view = client.get(f"/api/games/{game_id}").get_json()
        auth = {"Authorization": f"Bearer {keys[view['pending'][0]['player']]}"}
        legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
        client.post(
            f"/api/games/{game_id}/moves",
            json={"expected_seq": legal["seq"], "moves": [legal["moves"][0]]},
            headers=auth,
        )
    return game_id, keys["red"]


def timed(call) -> float:
    started = time.perf_counter()
    response = call()
    elapsed = time.perf_counter() - started
    assert response.status_code in (200, 304), response.status_code
    return elapsed


def bench(kind: str, url: str, games: int, rounds: int) -> None:
    from pbem import create_app
    from pbem.cli import upgrade_database

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench-view",
            "PBEM_BASE_URL": "https://bench.example",
            "PBEM_LOG_LEVEL": "WARNING",
        }
    )
    upgrade_database(app)
    client = app.test_client()
    made = [make_game(app, client, index, 30) for index in range(games)]
    times: dict[str, list[float]] = {"view": [], "304": [], "health/live": []}
    for round_ in range(rounds):
        for game_id, key in made:
            auth = {"Authorization": f"Bearer {key}"}
            path = f"/api/games/{game_id}"
            view = timed(lambda: client.get(path, headers=auth))  # noqa: B023
            # A server from before ETags (to compare with) has none: its 304 is not timed.
            tag = client.get(path, headers=auth).headers.get("ETag")
            again = tag and timed(
                lambda: client.get(path, headers={**auth, "If-None-Match": tag})  # noqa: B023
            )
            live = timed(lambda: client.get("/api/health/live"))
            if round_ >= WARM_UP:
                times["view"].append(view)
                times["health/live"].append(live)
                if again:
                    times["304"].append(again)
    p50 = {name: statistics.median(values) * 1000 for name, values in times.items() if values}
    live = p50["health/live"]
    conditional = (
        f"304 p50 {p50['304']:.2f} ms ({p50['304'] / live:.1f}x)" if "304" in p50 else "no ETag"
    )
    print(
        f"{kind}: view p50 {p50['view']:.2f} ms ({p50['view'] / live:.1f}x health/live), "
        f"{conditional}, health/live p50 {live:.2f} ms  [{len(times['view'])} reads each]",
        flush=True,
    )
    with app.app_context():
        from pbem.extensions import db

        db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--pg-url", default="postgresql+psycopg://127.0.0.1:5432/test")
    args = parser.parse_args()
    for kind in args.db or ["sqlite"]:
        with database(kind, args.pg_url) as url:
            bench(kind, url, args.games, args.rounds)


if __name__ == "__main__":
    main()
