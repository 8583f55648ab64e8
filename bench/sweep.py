"""Benchmark the sweep: its time with K due decisions among N live games.

For each setup a fresh database (SQLite in a temporary folder, or a PostgreSQL schema of
its own) is migrated with `pbem.cli.upgrade_database`; ONE real game is made through the
API, then its rows (players, the game, seats, the snapshot at seq 0, deadlines) are copied
with Core INSERTs to make N live games. Exactly K games have one deadline due (its
`due_at` and `next_at` a minute in the past); every other deadline is a day or more away.
`sweep()` is then timed in the app context with the clock set (`set_now`), called until
nothing due is left (it takes at most 500 rows a pass, as `pbem scheduler` calls it). Each
due decision is a timeout: the engine's default move is played and a mail queued.

Setups: 100 due among 1,000 and among 10,000 live games (goal: the two times within 1.5x
of each other, the sweep being O(due), not O(games)), and 1,000 due among 10,000. On a
shared machine one timing is noisy: a setup of R rounds has R groups of K games falling
due an hour apart, each round sweeps one group, and the best round counts.

    python bench/sweep.py                              # PostgreSQL
    python bench/sweep.py --db sqlite --db postgresql
    python bench/sweep.py --db sqlite --time-bank --setup 50:5:1   # small, time-bank games

`--time-bank`: the games play with a time bank (`timing.clock`), so each timeout also
settles its seat's bank and starts the next seat's clock. `--setup LIVE:DUE:ROUNDS` (again
for more) replaces the setups above.

PostgreSQL: 127.0.0.1:5432 (trust), database `test`, a schema of its own per setup.
Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import add_players, database  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, bench/ comes first on the path, and bench/engine.py is not the engine.
sys.path.insert(0, str(ROOT))

COLOURS = ["red", "yellow", "green"]
CONFIG = {
    "SECRET_KEY": "bench-sweep",
    "MAIL_FROM": "El Grande <play@bench.example>",
    "PBEM_BASE_URL": "https://bench.example",
}
#: Rows per INSERT statement while copying the games.
CHUNK = 1000
#: (live games, due decisions, rounds)
SETUPS = [(1_000, 100, 3), (10_000, 100, 3), (10_000, 1_000, 1)]
ROUND = timedelta(hours=1)


#: The clock of a time-bank game (`--time-bank`): /games/new's defaults.
CLOCK = {"bank_hours": 120, "increment_hours": 24, "cap_hours": 240}


def make_template(app, time_bank: bool = False) -> None:
    """One real game, made through the API as a player would (`time_bank`: with a clock;
    its seats' banks are copied with them)."""
    client = app.test_client()
    made = add_players(app, {f"{c}@bench.example": c for c in COLOURS})
    keys = {c: made[f"{c}@bench.example"] for c in COLOURS}
    response = client.post(
        "/api/games",
        json={
            "title": "bench",
            "seats": [{"email": f"{c}@bench.example", "colour": c} for c in COLOURS],
            **({"timing": {"clock": CLOCK}} if time_bank else {}),
        },
        headers={"Authorization": f"Bearer {keys[COLOURS[0]]}"},
    )
    assert response.status_code == 201, response.get_json()


def _chunks(rows: list[dict]) -> Iterator[list[dict]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start : start + CHUNK]


def copy_games(app, live: int, due: int, rounds: int, moment: datetime) -> dict[str, float]:
    """Copy the template game to `live` games in all; `due` of them (the template not among
    them) with their first seat's deadline due at `moment`, and as many more at each
    further round (`ROUND` apart). The template is due half an hour before, for a warm-up
    sweep."""
    from sqlalchemy import delete, func, insert, select, text, update

    from pbem.extensions import db
    from pbem.store.models import (
        Deadline,
        Game,
        IdleLimit,
        Notification,
        Player,
        Seat,
        Snapshot,
    )

    players, games, seats = Player.__table__, Game.__table__, Seat.__table__
    idle_limits = IdleLimit.__table__
    snapshots, deadlines, outbox = Snapshot.__table__, Deadline.__table__, Notification.__table__
    started = time.perf_counter()
    with app.app_context():
        connection = db.session.connection()
        game = connection.execute(select(games)).one()._asdict()
        game_seats = [r._asdict() for r in connection.execute(select(seats)).all()]
        snapshot = connection.execute(select(snapshots)).one()._asdict()
        rows = [r._asdict() for r in connection.execute(select(deadlines)).all()]
        assert rows, "the template game has no deadlines"
        first = min(rows, key=lambda r: r["id"])
        player_id = connection.execute(select(func.max(players.c.id))).scalar()
        seat_id = connection.execute(select(func.max(seats.c.id))).scalar()
        far = {"opened_at": moment, "due_at": moment + timedelta(hours=48)}
        far["next_at"] = far["due_at"] - timedelta(hours=24)
        soon = {
            "opened_at": moment - timedelta(hours=48),
            "due_at": moment - timedelta(minutes=1),
            "next_at": moment - timedelta(minutes=1),
            "reminders_sent": [24, 4],
        }
        warm = {k: v - timedelta(minutes=30) for k, v in soon.items() if k != "reminders_sent"}
        # The template: every deadline far, its first one due for the warm-up sweep.
        connection.execute(update(deadlines).values(**far))
        connection.execute(update(deadlines).where(deadlines.c.id == first["id"]).values(**warm))
        connection.execute(update(games).values(updated_at=moment))
        connection.execute(update(idle_limits).values(abandon_at=moment + timedelta(days=30)))
        new_players, new_games, new_seats, new_snapshots, new_deadlines = [], [], [], [], []
        new_idle_limits = []
        for index in range(1, live):
            game_id = game["id"] + index
            new_games.append({**game, "id": game_id, "title": f"bench {index}"})
            new_snapshots.append({**snapshot, "game_id": game_id})
            new_idle_limits.append({"game_id": game_id, "abandon_at": moment + timedelta(days=30)})
            for seat in game_seats:
                player_id += 1
                seat_id += 1
                new_players.append(
                    {
                        "id": player_id,
                        "email": f"{seat['colour']}-{index}@bench.example",
                        "name": seat["colour"],
                        "api_key_hash": None,
                        "preferences": {},
                        "created_at": moment,
                    }
                )
                new_seats.append(
                    {**seat, "id": seat_id, "game_id": game_id, "player_id": player_id}
                )
            for row in rows:
                copy = {k: v for k, v in row.items() if k != "id"}
                copy.update(game_id=game_id, **far)
                if index <= due * rounds and row["id"] == first["id"]:
                    later = ROUND * ((index - 1) // due)
                    copy.update({k: v + later for k, v in soon.items() if k != "reminders_sent"})
                    copy["reminders_sent"] = soon["reminders_sent"]
                new_deadlines.append(copy)
        for table, batch in (
            (players, new_players),
            (games, new_games),
            (seats, new_seats),
            (snapshots, new_snapshots),
            (idle_limits, new_idle_limits),
            (deadlines, new_deadlines),
        ):
            for chunk in _chunks(batch):
                connection.execute(insert(table), chunk)
        connection.execute(delete(outbox))  # the template's welcome mails
        if connection.dialect.name == "postgresql":
            for table in ("players", "games", "seats"):
                connection.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"(SELECT max(id) FROM {table}))"
                    )
                )
        db.session.commit()
        if connection.dialect.name == "postgresql":
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
                c.execute(text("ANALYZE"))
        db.session.remove()
    return {"copy": time.perf_counter() - started}


def explain(app, moment: datetime) -> list[str]:
    """PostgreSQL's plans for the sweep's due query and its abandon query."""
    from sqlalchemy import select

    from pbem.extensions import db
    from pbem.store.models import Deadline, IdleLimit

    deadlines, idle_limits = Deadline.__table__, IdleLimit.__table__
    queries = {
        "due": select(deadlines.c.id)
        .where(deadlines.c.next_at <= moment)
        .order_by(deadlines.c.next_at)
        .limit(500),
        "abandon": select(idle_limits.c.game_id).where(idle_limits.c.abandon_at <= moment),
    }
    lines = []
    with app.app_context():
        connection = db.session.connection()
        for name, query in queries.items():
            compiled = query.compile(connection, compile_kwargs={"literal_binds": True})
            plan = connection.exec_driver_sql(f"EXPLAIN ANALYZE {compiled}").scalars().all()
            lines.append(f"    EXPLAIN {name}: " + "\n      ".join(plan))
        db.session.remove()
    return lines


def bench(
    label: str,
    database_url: str,
    live: int,
    due: int,
    rounds: int,
    show_plans: bool,
    time_bank: bool = False,
) -> float:
    """Time `rounds` sweeps of `due` decisions among `live` games; the best round's time."""
    from sqlalchemy import func, select

    from pbem import create_app
    from pbem.cli import upgrade_database
    from pbem.clock import set_now
    from pbem.extensions import db
    from pbem.schedule.sweep import sweep
    from pbem.store.models import Deadline, Game, Notification

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, **CONFIG})
    upgrade_database(app)
    make_template(app, time_bank)
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)
    copied = copy_games(app, live, due, rounds, start)
    deadlines, outbox = Deadline.__table__, Notification.__table__

    def count(table, *where) -> int:
        return db.session.execute(select(func.count()).select_from(table).where(*where)).scalar()

    with app.app_context():
        # Warm-up: the template's one due decision, so imports and first compilations are
        # not timed.
        set_now(app, start - timedelta(minutes=30))
        warmed = len(sweep())
        live_now = count(Game.__table__, Game.status == "active")
        db.session.remove()
    # The plans with the first round's rows due, before the sweep acts on them.
    plans = explain(app, start) if show_plans and "postgresql" in database_url else []
    times = []
    for round_ in range(rounds):
        moment = start + round_ * ROUND
        with app.app_context():
            set_now(app, moment)
            before = count(deadlines, deadlines.c.next_at <= moment)
            mails_before = count(outbox)
            db.session.remove()
            passes, lines = 0, 0
            started = time.perf_counter()
            while True:
                done = sweep()
                passes += 1
                lines += len(done)
                if not done:
                    break
            elapsed = time.perf_counter() - started
            left = count(deadlines, deadlines.c.next_at <= moment)
            mails = count(outbox) - mails_before
            db.session.remove()
        times.append(elapsed)
        print(
            f"{label}: {live_now:>6,} live games, {before:>5,} due: {lines:>5,} acted on in "
            f"{elapsed:6.2f} s ({1000 * elapsed / max(lines, 1):6.2f} ms per due decision; "
            f"round {round_ + 1} of {rounds}, {passes} sweep passes incl. the empty last), "
            f"{mails:,} mails queued, {left} left due  "
            f"[copy {copied['copy']:.1f} s, warm-up {warmed}]",
            flush=True,
        )
    with app.app_context():
        db.engine.dispose()
    best = min(times)
    print(
        f"{label}: {live_now:>6,} live games, {due:>5,} due: best {best:.2f} s "
        f"({1000 * best / due:.2f} ms per due decision) of {rounds} round(s)",
        flush=True,
    )
    for line in plans:
        print(line)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument(
        "--pg-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgresql+psycopg://127.0.0.1:5432/test"),
    )
    parser.add_argument("--explain", action="store_true", help="print PostgreSQL's plans")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per setup")
    parser.add_argument("--time-bank", action="store_true", help="games with a time bank")
    parser.add_argument(
        "--setup", action="append", metavar="LIVE:DUE:ROUNDS", help="instead of the setups"
    )
    args = parser.parse_args()
    setups = [tuple(map(int, s.split(":"))) for s in args.setup] if args.setup else SETUPS
    for kind in args.db or ["postgresql"]:
        label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[kind]
        label += " (time bank)" if args.time_bank else ""
        times = {}
        for live, due, rounds in setups:
            with database(kind, args.pg_url) as url:
                times[live, due] = bench(
                    label, url, live, due, args.rounds or rounds, args.explain, args.time_bank
                )
        if not {(10_000, 100), (1_000, 100)} <= set(times):
            continue
        ratio = times[10_000, 100] / times[1_000, 100]
        print(
            f"{label}: 100 due among 10,000 vs among 1,000 live games: {ratio:.2f}x  "
            f"(goal: within 1.5x)"
        )


if __name__ == "__main__":
    main()
