"""The CPU of one API move in one process: Flask's test client on SQLite, no gunicorn.

Plays random games through `POST /api/games/{id}/moves` (each seat with its own key, every
move with `expected_seq`, as bench/api.py's clients do) and times each POST with
`time.process_time()`, up to the answer's bytes: the legal-move reads between moves and the
client's decoding of the answer are not timed. Prints the mean and
p50 CPU per move; `--profile` prints cProfile's top entries of the timed POSTs only;
`--floor` times what no server can skip for as many moves (see `floor`) and prints the
ratio. `--db postgresql` plays on PostgreSQL (`--pg-url`).

    python bench/move_cpu.py --moves 2000 --floor --db postgresql
    python bench/move_cpu.py --moves 2000 --profile 25

Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import random
import statistics
import time
from typing import Any

import sqlalchemy as sa
from common import database, new_game, print_profile  # noqa: E402


class TestClient:
    """bench/common.Client's `call`, over Flask's test client."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()

    def send(self, method: str, path: str, body: Any = None, key: str | None = None):
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return self.client.open(path, method=method, json=body, headers=headers)

    def call(self, method: str, path: str, body: Any = None, key: str | None = None):
        answer = self.send(method, path, body, key)
        return answer.status_code, answer.get_json(silent=True)


class Statements:
    """The statements SQLAlchemy sends while `counting` (those of the POSTs alone). The hot
    reads and writes of `pbem.store.prepared` go to the driver's cursor: `watch_prepared`
    counts them."""

    def __init__(self) -> None:
        self.count = 0
        self.counting = False

        self.prepared = 0

    def seen(self, *_: Any) -> None:
        self.count += self.counting

    def watch_prepared(self) -> None:
        """Count the statements run on the driver's cursor too, reads (`Prepared`) and
        writes (`Written`): each one's arguments are made once for each time it runs."""
        from pbem.store.prepared import _Bound

        arguments = _Bound.arguments

        def counted(bound: Any, *args: Any) -> Any:
            self.prepared += self.counting
            return arguments(bound, *args)

        _Bound.arguments = counted  # type: ignore[method-assign]


def play(
    app: Any,
    moves: int,
    seed: int,
    profile: cProfile.Profile | None,
    statements: Statements | None = None,
) -> list[float]:
    """Play random games until `moves` moves were made; the CPU seconds of each POST."""
    statements = statements or Statements()
    client = TestClient(app)
    rng = random.Random(seed)
    cpu: list[float] = []
    while len(cpu) < moves:
        game_id, keys = new_game(client, app, rng)
        _, view = client.call("GET", f"/api/games/{game_id}")
        while view["status"] == "active" and len(cpu) < moves:
            colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
            _, legal = client.call("GET", f"/api/games/{game_id}/legal-moves", key=keys[colour])
            move = rng.choice(legal["moves"])
            body = {"expected_seq": legal["seq"], "moves": [move]}
            path = f"/api/games/{game_id}/moves"
            if profile:
                profile.enable()
            statements.counting = True
            started = time.process_time()
            sent = client.send("POST", path, body, key=keys[colour])
            cpu.append(time.process_time() - started)
            statements.counting = False
            if profile:
                profile.disable()
            # The client's own reading of the answer is not the server's CPU: not timed.
            answer = sent.get_json()
            assert sent.status_code == 201, answer
            view = answer["view"]
    return cpu


def floor(app: Any, moves: int, seed: int) -> list[float]:
    """A move's floor, what no server can skip: the engine's apply, the new state's JSON,
    and one UPDATE of the game's row with an INSERT of the move's row and a COMMIT, on the
    driver's own connection (in one pipeline on PostgreSQL), into tables of the same shape
    made for it. The CPU seconds of each, random moves of random games of 3 to 5."""
    import json

    import engine
    from pbem.extensions import db

    with app.app_context():
        raw = db.engine.raw_connection()
        postgres = db.engine.dialect.name == "postgresql"
    cursor = raw.cursor()
    cursor.execute("CREATE TABLE floor_games (id INTEGER PRIMARY KEY, seq INTEGER, state TEXT)")
    cursor.execute("CREATE TABLE floor_moves (game INTEGER, seq INTEGER, move TEXT)")
    raw.commit()
    mark = "%s" if postgres else "?"
    update = f"UPDATE floor_games SET seq = {mark}, state = {mark} WHERE id = {mark}"
    insert = f"INSERT INTO floor_moves (game, seq, move) VALUES ({mark}, {mark}, {mark})"
    rng = random.Random(seed)
    cpu: list[float] = []
    game = 0
    while len(cpu) < moves:
        game += 1
        colours = ["red", "blue", "green", "yellow", "brown"][: rng.randint(3, 5)]
        state = engine.new_game(colours, seed=rng.randrange(2**31))
        cursor.execute(f"INSERT INTO floor_games VALUES ({mark}, 0, '')", (game,))
        raw.commit()
        seq = 0
        while not engine.is_over(state) and len(cpu) < moves:
            colour = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
            move = rng.choice(engine.legal_moves(state, colour))
            started = time.process_time()
            state, _ = engine.apply(state, colour, move)
            seq += 1
            written = json.dumps(engine.to_dict(state))
            if postgres:
                with raw.driver_connection.pipeline():
                    cursor.execute(update, (seq, written, game))
                    cursor.execute(insert, (game, seq, json.dumps(move)))
            else:
                cursor.execute(update, (seq, written, game))
                cursor.execute(insert, (game, seq, json.dumps(move)))
            raw.commit()
            cpu.append(time.process_time() - started)
    raw.close()
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--warm-up", type=int, default=200, help="moves played first, not timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, help="print this many top entries")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--floor", action="store_true", help="time the move's floor too")
    parser.add_argument(
        "--pg-url",
        default=os.environ.get("BENCH_PG_URL", "postgresql+psycopg://127.0.0.1:5432/test"),
    )
    arguments = parser.parse_args()

    from pbem import create_app
    from pbem.cli import upgrade_database
    from pbem.extensions import db

    with database(arguments.db, arguments.pg_url) as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "PBEM_LOG_LEVEL": "WARNING"})
        upgrade_database(app)
        play(app, arguments.warm_up, arguments.seed + 1000, None)
        statements = Statements()
        with app.app_context():
            sa.event.listen(db.engine, "before_cursor_execute", statements.seen)
        statements.watch_prepared()
        profile = cProfile.Profile() if arguments.profile else None
        cpu = play(app, arguments.moves, arguments.seed, profile, statements)
        floors = floor(app, arguments.moves, arguments.seed) if arguments.floor else []
        with app.app_context():
            db.engine.dispose()
    print(
        f"{arguments.db}, {len(cpu)} moves: CPU per move mean "
        f"{statistics.fmean(cpu) * 1000:.2f} ms, p50 {statistics.median(cpu) * 1000:.2f} ms, "
        f"p90 {statistics.quantiles(cpu, n=10)[-1] * 1000:.2f} ms; "
        f"{statements.count / len(cpu):.1f} statements through SQLAlchemy and "
        f"{statements.prepared / len(cpu):.1f} on the driver's cursor per move"
    )
    if profile:
        print_profile(profile, arguments.profile)
    if arguments.floor:
        mean, under = statistics.fmean(cpu), statistics.fmean(floors)
        print(
            f"  its floor (apply, the state's JSON, UPDATE+INSERT+COMMIT), {len(floors)} moves: "
            f"mean {under * 1000:.2f} ms, p50 {statistics.median(floors) * 1000:.2f} ms; "
            f"a move is {mean / under:.1f}x its floor (goal: at most 5)"
        )


if __name__ == "__main__":
    main()
