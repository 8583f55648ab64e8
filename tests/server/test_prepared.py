"""The hot reads run on the driver's cursor (`pbem.store.prepared`) give what SQLAlchemy's own
`Connection.execute` gives for the same statement: the same rows, in the same order, with the
same column names, JSON decoded and nulls kept, on SQLite and on PostgreSQL."""

import random
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy import Integer, bindparam, select

from pbem.extensions import db
from pbem.notify import outbox
from pbem.store import queries
from pbem.store.models import Game
from pbem.store.prepared import Prepared
from pbem.timing import deadlines
from tests.server.helpers import step_randomly


def as_sqlalchemy_gives(connection, prepared: Prepared, params: dict) -> list[tuple]:
    return [tuple(row) for row in connection.execute(prepared.statement, params).all()]


@pytest.fixture
def played(app, api):
    """A 4-player game into its second round (two snapshots), and a stranger."""
    game_id, keys = api.new_game(["red", "yellow", "green", "blue"])
    step_randomly(api, game_id, keys, random.Random(3), 60)
    stranger = api.register("stranger@example.org")
    with app.app_context():
        game = db.session.get(Game, game_id)
        red = next(s.player_id for s in game.seats if s.colour == "red")
        db.session.remove()
    return {"game": game_id, "red": red, "red_key": keys["red"], "stranger": stranger}


def test_each_prepared_read_gives_what_execute_gives(app, played):
    from pbem.game.players import hash_api_key

    game = played["game"]
    cases = [
        (queries.GAME_PAGE, {"game": game, "player": played["red"], "epoch": 0, "sid": "s"}),
        # Signed out everywhere, or this session signed out.
        (queries.GAME_PAGE, {"game": game, "player": played["red"], "epoch": 1, "sid": "s"}),
        (queries.GAME_PAGE, {"game": game, "player": played["red"], "epoch": 0, "sid": "ended"}),
        (queries.GAME_PAGE, {"game": game, "player": None, "epoch": 0, "sid": ""}),
        (queries.GAME_PAGE, {"game": 0, "player": None, "epoch": 0, "sid": ""}),  # no such game
        (queries.GAME_AND_SEATS, {"game": game, "player": played["red"], "epoch": 0}),
        (queries.GAME_AND_SEATS, {"game": game, "player": None, "epoch": 0}),
        (queries.CALLER_AT_GAME, {"game": game, "key_hash": hash_api_key(played["red_key"])}),
        (queries.CALLER_AT_GAME, {"game": game, "key_hash": hash_api_key(played["stranger"])}),
        (queries.STATE, {"game": game}),
        (queries.MOVES_BETWEEN, {"game": game, "after": 2, "upto": 9}),
        (queries.LOG_BETWEEN, {"game": game, "after": 0, "upto": 12}),
        (queries.SNAPSHOT_SEQS, {"game": game}),
        (queries.SNAPSHOT_AT_OR_BEFORE, {"game": game, "seq": 12}),  # a bound LIMIT
        (deadlines.GAME_DEADLINES, {"game": game}),  # a DateTime column
        (deadlines.GAME_SEATS, {"game": game}),  # a Boolean column
        (outbox.RECIPIENTS, {"game": game}),  # a JSON column, often null
    ]
    with app.app_context():
        connection = db.session.connection()
        ended = sa.text("INSERT INTO ended_sessions (sid, ended_at) VALUES ('ended', :at)")
        connection.execute(ended, {"at": datetime(2026, 1, 1)})
        signed_out = queries.GAME_PAGE.first(connection, cases[2][1])
        assert signed_out is not None and signed_out.player_name is None
        assert queries.GAME_PAGE.first(connection, cases[0][1]).player_name is not None
        for prepared, params in cases:
            expected = as_sqlalchemy_gives(connection, prepared, params)
            rows = prepared.all(connection, params)
            assert [tuple(row) for row in rows] == expected, prepared.statement
            names = tuple(prepared.statement.selected_columns.keys())
            assert all(row._fields == names for row in rows)
            first = prepared.first(connection, params)
            assert first == (expected[0] if expected else None)
        db.session.remove()

    # The cases are not empty by accident: JSON came back decoded, and nulls stayed null.
    with app.app_context():
        connection = db.session.connection()
        state = queries.STATE.first(connection, {"game": game}).state
        assert isinstance(state, dict) and state
        log = queries.LOG_BETWEEN.all(connection, {"game": game, "after": 0, "upto": 12})
        assert [row.seq for row in log] == list(range(1, 13))
        assert all(isinstance(row.move, dict) and isinstance(row.events, list) for row in log)
        public = queries.GAME_PAGE.all(connection, {"game": game, "player": None})
        assert len(public) == 4 and {row.player_name for row in public} == {None}
        seats = queries.GAME_AND_SEATS.all(connection, {"game": game, "player": played["red"]})
        assert seats[0].colours == ["red", "yellow", "green", "blue"]
        snapshot_seqs = [row.seq for row in queries.SNAPSHOT_SEQS.all(connection, {"game": game})]
        assert snapshot_seqs[0] == 0 and len(snapshot_seqs) >= 2
        due = deadlines.GAME_DEADLINES.all(connection, {"game": game})
        assert due and all(isinstance(row.due_at, datetime) for row in due)
        assert {type(row.bot) for row in deadlines.GAME_SEATS.all(connection, {"game": game})} == {
            bool
        }
        db.session.remove()


def test_parameters_go_through_their_types(app, played):
    """A parameter whose type converts it (here a JSON-typed one) reaches the driver
    converted, as through `execute`."""
    from sqlalchemy import JSON, String, cast

    games = Game.__table__
    statement = select(games.c.id, cast(bindparam("tag", type_=JSON), String).label("tag")).where(
        games.c.id == bindparam("game", type_=Integer)
    )
    prepared = Prepared(statement)
    with app.app_context():
        connection = db.session.connection()
        params = {"game": played["game"], "tag": {"a": [1, 2]}}
        assert [tuple(r) for r in prepared.all(connection, params)] == as_sqlalchemy_gives(
            connection, prepared, params
        )
        db.session.remove()


def test_every_moment_read_back_is_aware_in_utc(app, api):
    """One column type (UtcDateTime) for every moment: SQLite keeps no zone, PostgreSQL does;
    either way a moment comes back aware, in UTC, through the ORM and through Core."""
    import sqlalchemy as sa

    from pbem.store.models import Game, Seat, UtcDateTime

    api.new_game(["red", "blue", "green"])
    with app.app_context():
        for table in db.metadata.sorted_tables:
            for column in table.columns:
                assert not isinstance(column.type, sa.DateTime) or isinstance(
                    column.type, UtcDateTime
                ), f"{table.name}.{column.name} is a DateTime without UtcDateTime"
        game = db.session.execute(sa.select(Game)).scalars().first()
        core = db.session.execute(sa.select(Game.__table__.c.created_at)).scalar()
        assert game.created_at.utcoffset() == core.utcoffset() == timedelta(0)
        assert db.session.execute(sa.select(Seat.declined_at)).scalar() is None
