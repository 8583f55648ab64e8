"""Benchmark storage on PostgreSQL: what a move costs as written (WAL) and at rest.

A fresh schema is migrated and G games of 4 players are made through the API (in-process,
Flask's test client); then every game is played M moves on, round-robin across the games
(as live games interleave), a minute apart on the service's clock, each move the first
legal one of a pending player, with `expected_seq`. Around the move phase the script reads:

- WAL written: `pg_current_wal_lsn()` before and after, per move, and from `pg_stat_wal`
  the records and full-page images (these are the cluster's: run it on a quiet machine);
- the games table's updates and how many were HOT (heap-only: no index entry written),
  from `pg_stat_user_tables` once the app's connections are closed;
- each table's size with its indexes and TOAST (`pg_total_relation_size`) after a
  VACUUM, per move;
- then the mail: the sender delivers everything queued (to files), the clock moves past
  the outbox's retention, the scheduler's prune runs where the code has one, and the
  sizes are read again after a VACUUM FULL (what a long-lived server holds).

    python bench/storage.py                  # 40 games, 60 moves each
    python bench/storage.py --games 20 --moves 100

PostgreSQL: 127.0.0.1:5432 (trust), database `test`, a schema of its own.
Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import add_players, database  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COLOURS = ["red", "yellow", "green", "blue"]


def make_games(app, client, count: int) -> list[tuple[int, dict[str, str]]]:
    games = []
    for index in range(count):
        made = add_players(app, {f"{c}-{index}@bench.example": c for c in COLOURS})
        keys = {c: made[f"{c}-{index}@bench.example"] for c in COLOURS}
        response = client.post(
            "/api/games",
            json={
                "title": f"bench {index}",
                "seats": [{"email": f"{c}-{index}@bench.example", "colour": c} for c in COLOURS],
            },
            headers={"Authorization": f"Bearer {keys[COLOURS[0]]}"},
        )
        assert response.status_code == 201, response.get_json()
        games.append((response.get_json()["id"], keys))
    return games


def play_one(client, game_id: int, keys: dict[str, str]) -> bool:
    """One move in the game, by its first pending player; False once the game is over."""
    view = client.get(f"/api/games/{game_id}").get_json()
    if view["status"] != "active":
        return False
    colour = view["pending"][0]["player"]
    auth = {"Authorization": f"Bearer {keys[colour]}"}
    legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
    response = client.post(
        f"/api/games/{game_id}/moves",
        json={"expected_seq": legal["seq"], "moves": [legal["moves"][0]]},
        headers=auth,
    )
    assert response.status_code == 201, response.get_json()
    return True


def wal(connection) -> tuple[int, int, int]:
    """The cluster's WAL position, records and full-page images so far."""
    from sqlalchemy import text

    lsn = connection.execute(
        text("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")
    ).scalar()
    records, fpi = connection.execute(text("SELECT wal_records, wal_fpi FROM pg_stat_wal")).one()
    return int(lsn), int(records), int(fpi)


def sizes(connection, schema: str) -> dict[str, int]:
    from sqlalchemy import text

    rows = connection.execute(
        text(
            "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = :schema AND c.relkind = 'r' AND c.relname <> 'alembic_version'"
        ),
        {"schema": schema},
    ).all()
    return {name: int(size) for name, size in rows if size}


def show_sizes(title: str, table_sizes: dict[str, int], moves: int) -> None:
    total = sum(table_sizes.values())
    print(f"  {title}: {total / moves:,.0f} bytes per move ({total / 1024:,.0f} KiB in all)")
    for name, size in sorted(table_sizes.items(), key=lambda item: -item[1]):
        print(f"    {name:<22} {size / moves:>8,.0f} bytes per move")


def prune(app) -> str:
    """The scheduler's prune of the outbox, where this code has one."""
    try:
        from pbem.notify.retention import prune_outbox
    except ImportError:
        return "no prune in this code"
    with app.app_context():
        return f"pruned {prune_outbox()} outbox rows"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--pg-url", default="postgresql+psycopg://127.0.0.1:5432/test")
    args = parser.parse_args()

    import sqlalchemy as sa

    from pbem import create_app
    from pbem.cli import upgrade_database
    from pbem.clock import set_now
    from pbem.extensions import db
    from pbem.notify.sender import deliver_due

    admin = sa.create_engine(args.pg_url, isolation_level="AUTOCOMMIT")
    with database("postgresql", args.pg_url) as url, tempfile.TemporaryDirectory() as mail:
        schema = url.rsplit("search_path%3D", 1)[-1]
        config = {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench-storage",
            "MAIL_FROM": "El Grande <play@bench.example>",
            "PBEM_BASE_URL": "https://bench.example",
            "PBEM_LOG_LEVEL": "WARNING",
        }
        app = create_app(config)
        app.instance_path = mail  # mails are written as files under it
        upgrade_database(app)
        start = datetime.now(UTC).replace(microsecond=0)
        set_now(app, start)
        client = app.test_client()
        games = make_games(app, client, args.games)
        with admin.connect() as connection:
            before, records_before, fpi_before = wal(connection)
        started, moves = time.perf_counter(), 0
        for _ in range(args.moves):
            for game_id, keys in games:
                # A minute between moves, as in a live server (a frozen clock would write
                # the same times again and hide what changes).
                set_now(app, start + timedelta(minutes=moves + 1))
                moves += play_one(client, game_id, keys)
        elapsed = time.perf_counter() - started
        with admin.connect() as connection:
            after, records_after, fpi_after = wal(connection)
        with app.app_context():
            db.engine.dispose()  # a backend's statistics are flushed as it ends
        time.sleep(1.5)
        with admin.connect() as connection:
            updates, hot = connection.execute(
                sa.text(
                    "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables "
                    "WHERE schemaname = :schema AND relname = 'games'"
                ),
                {"schema": schema},
            ).one()
            connection.execute(sa.text(f"VACUUM ANALYZE {schema}.games"))
            played = sizes(connection, schema)
        print(
            f"{moves:,} moves in {args.games} games ({elapsed:.1f} s): "
            f"WAL {(after - before) / moves:,.0f} bytes per move, "
            f"{(records_after - records_before) / moves:.1f} records and "
            f"{(fpi_after - fpi_before) / moves:.2f} full-page images per move "
            "[pg_current_wal_lsn, pg_stat_wal]"
        )
        print(
            f"  games: {updates:,} row updates, {hot:,} HOT ({100 * hot / max(updates, 1):.0f}%) "
            "[pg_stat_user_tables]"
        )
        show_sizes("at rest after the moves (VACUUM)", played, moves)
        with app.app_context():
            sent = 0
            while True:
                delivery = deliver_due()
                sent += delivery.sent
                if not delivery.sent:
                    break
            set_now(app, start + timedelta(days=400))
        said = prune(app)
        with admin.connect() as connection:
            for table in played:
                connection.execute(sa.text(f"VACUUM FULL {schema}.{table}"))
            kept = sizes(connection, schema)
        show_sizes(f"after {sent:,} mails sent, a year on, {said} (VACUUM FULL)", kept, moves)
        with app.app_context():
            db.engine.dispose()
    admin.dispose()


if __name__ == "__main__":
    main()
