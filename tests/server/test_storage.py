"""Storage that does not grow without bound: a move rewrites the game's row in place (no
indexed column of it changes), a person's move puts off abandoning the game in a narrow row
of its own, the migration moves the old column's values there, and delivered mail leaves the
outbox after the retention."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

import engine
from pbem import create_app, play
from pbem.clock import set_now
from pbem.extensions import db
from pbem.game.seating import Actor
from pbem.notify.retention import prune_outbox
from pbem.store import queries
from pbem.store.models import Game, IdleLimit, Notification
from tests.server.test_deadlines import T0, at, first_pending, new_game
from tests.server.test_mail_out import deliver


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _abandon_at(app, game_id: int) -> datetime | None:
    with app.app_context():
        row = db.session.get(IdleLimit, game_id)
        db.session.remove()
        return _aware(row.abandon_at) if row else None


def _indexed_columns(connection, table: str) -> set[str]:
    inspector = sa.inspect(connection)
    columns = set(inspector.get_pk_constraint(table)["constrained_columns"])
    for index in [*inspector.get_indexes(table), *inspector.get_unique_constraints(table)]:
        columns.update(c for c in index["column_names"] if c)
    return columns


def test_no_column_a_move_writes_on_the_games_row_is_indexed(app):
    sql = str(queries.CLAIM_SEQ.statement.compile())
    written = set(re.findall(r"(\w+)=", sql.split(" SET ", 1)[1].split(" WHERE ", 1)[0]))
    assert {"seq", "state", "pending", "updated_at"} <= written
    with app.app_context(), db.engine.connect() as connection:
        indexed = _indexed_columns(connection, "games")
    assert "id" in indexed
    assert written & indexed == set()


def test_a_persons_move_puts_off_abandoning_and_the_servers_moves_do_not(mail_app, mail_api):
    game_id, keys = new_game(
        mail_api, mail_app, timing={"abandon_after_days": 5, "power_card_hours": 1000}
    )
    assert _abandon_at(mail_app, game_id) == T0 + timedelta(days=5)
    # Three days on, a person plays: the game now lasts until five days after that.
    set_now(mail_app, T0 + timedelta(days=3))
    colour = first_pending(mail_api, game_id)
    legal = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    played = mail_api.post_moves(game_id, keys[colour], [legal["moves"][0]], legal["seq"])
    assert played.status_code == 201, played.get_json()
    assert _abandon_at(mail_app, game_id) == T0 + timedelta(days=8)
    # The server playing for a seat (as a timeout or a bot would) does not put it off.
    set_now(mail_app, T0 + timedelta(days=4))
    with mail_app.app_context():
        colour = first_pending(mail_api, game_id)
        outcome = play.submit(
            Actor.scheduler(colour),
            game_id,
            None,
            default_moves,
            source="timeout",
        )
        db.session.remove()
    assert outcome.moves
    assert _abandon_at(mail_app, game_id) == T0 + timedelta(days=8)
    assert not any("abandoned" in line for line in at(mail_app, 8 * 24 - 1))
    assert f"game {game_id}: abandoned" in " ".join(at(mail_app, 8 * 24))
    assert _abandon_at(mail_app, game_id) is None  # the limit is gone with the game


def default_moves(state: engine.State, colour: str) -> list[engine.Move]:
    """A plan: the engine's default move for `colour` (what a timeout plays)."""
    move = engine.default_move(state, colour)
    assert move is not None
    return [move]


def test_a_limit_falling_due_after_its_game_ended_is_only_deleted(mail_app, mail_api):
    game_id, keys = new_game(mail_api, mail_app, timing={"abandon_after_days": 5})
    admin = keys["red"]
    aborted = mail_api.client.post(f"/api/games/{game_id}/abort", headers=mail_api.auth(admin))
    assert aborted.status_code == 200, aborted.get_json()
    assert _abandon_at(mail_app, game_id) is not None
    assert at(mail_app, 5 * 24) == []
    assert _abandon_at(mail_app, game_id) is None
    with mail_app.app_context():
        assert db.session.get(Game, game_id).status == "aborted"
        db.session.remove()


def test_a_move_on_postgresql_updates_the_games_row_in_place(database_url, api, app):
    """PostgreSQL's own count, read inside the move's transaction: the game's row was
    updated once, and heap-only (HOT: no index written)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("HOT updates are PostgreSQL's")
    game_id, keys = api.new_game(["red", "blue", "green"])
    counted: dict[str, int] = {}

    def count(connection, outcome):
        row = connection.execute(
            sa.text(
                "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables "
                "WHERE relid = 'games'::regclass"
            )
        ).one()
        counted.update(updates=row[0], hot=row[1])

    with app.app_context():
        set_now(app, datetime.now(UTC) + timedelta(hours=1))  # abandon_at moves on too
        colour = first_pending(api, game_id)
        player = db.session.execute(
            sa.text("SELECT player_id FROM seats WHERE game_id = :g AND colour = :c"),
            {"g": game_id, "c": colour},
        ).scalar_one()
        db.session.remove()
        play.submit(
            Actor.by_player(player, colour),
            game_id,
            None,
            default_moves,
            source="api",
            also_write=count,
        )
        db.session.remove()
    assert counted == {"updates": 1, "hot": 1}


def test_the_migration_moves_abandon_at_into_idle_limits(tmp_path):
    url = f"sqlite:///{tmp_path}/old.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "migration-test"})
    with app.app_context():
        upgrade(revision="f2b6c8d4e0a7")
        moment = datetime(2026, 12, 1, tzinfo=UTC)
        with db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO players (id, email, name, preferences, created_at) "
                    "VALUES (1, 'a@example.org', 'A', '{}', :t)"
                ),
                {"t": moment},
            )
            for game_id, status in ((1, "active"), (2, "finished")):
                connection.execute(
                    sa.text(
                        "INSERT INTO games (id, title, options, timing, seed, status, creator_id,"
                        " colours, pending, seq, created_at, updated_at, abandon_at) VALUES "
                        "(:id, 'G', '{}', '{}', 1, :status, 1, '[]', '[]', 0, :t, :t, :a)"
                    ),
                    {"id": game_id, "status": status, "t": moment, "a": moment},
                )
        upgrade()
        with db.engine.connect() as connection:
            rows = connection.execute(sa.text("SELECT game_id FROM idle_limits")).all()
            assert [r[0] for r in rows] == [1]
            assert "abandon_at" not in {
                c["name"] for c in sa.inspect(connection).get_columns("games")
            }
        downgrade(revision="f2b6c8d4e0a7")
        with db.engine.connect() as connection:
            back = connection.execute(sa.text("SELECT id, abandon_at FROM games ORDER BY id")).all()
        assert back[0][0] == 1 and back[0][1] is not None and back[1][1] is None
        db.engine.dispose()


def _statuses(app) -> list[str]:
    with app.app_context():
        rows = db.session.execute(sa.select(Notification.status)).scalars().all()
        db.session.remove()
    return sorted(rows)


def _prune(app, moment: datetime) -> int:
    set_now(app, moment)
    with app.app_context():
        pruned = prune_outbox()
        db.session.remove()
    return pruned


def test_delivered_mail_leaves_the_outbox_after_the_retention(mail_app, mail_api):
    new_game(mail_api, mail_app)  # at T0: every seat is mailed
    assert deliver(mail_app).sent >= 3
    with mail_app.app_context():
        sent = (
            db.session.execute(
                sa.select(Notification.id).where(Notification.status == "sent").order_by("id")
            )
            .scalars()
            .all()
        )
        outbox = Notification.__table__
        # One failed for good (its game's admin is shown it), one folded into a digest, and
        # one still waiting to be sent.
        db.session.execute(sa.update(outbox).where(outbox.c.id == sent[0]).values(status="failed"))
        db.session.execute(
            sa.update(outbox).where(outbox.c.id == sent[1]).values(status="digested")
        )
        db.session.execute(
            sa.update(outbox).where(outbox.c.id == sent[2]).values(status="queued", sent_at=None)
        )
        db.session.commit()
        db.session.remove()
    kept = ["failed", "queued"]
    assert mail_app.config["PBEM_OUTBOX_KEEP_DAYS"] == 30
    assert _prune(mail_app, T0 + timedelta(days=29, hours=23)) == 0
    assert _prune(mail_app, T0 + timedelta(days=30, seconds=1)) == len(sent) - 2
    assert _statuses(mail_app) == kept
    assert _prune(mail_app, T0 + timedelta(days=400)) == 0
    assert _statuses(mail_app) == kept


def test_a_day_of_delivered_mail_is_kept_whatever_the_setting(mail_app, mail_api):
    mail_app.config["PBEM_OUTBOX_KEEP_DAYS"] = 0
    new_game(mail_api, mail_app)
    sent = deliver(mail_app).sent
    assert _prune(mail_app, T0 + timedelta(hours=23)) == 0
    assert _prune(mail_app, T0 + timedelta(days=1, seconds=1)) == sent
    assert _statuses(mail_app) == []
