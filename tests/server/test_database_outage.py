"""The database going away under a request: on PostgreSQL, the app's connection is
terminated (`pg_terminate_backend`) just after the request takes it from the pool, where
the pool's pre-ping cannot see it. A GET is tried again and answers; anything else is a 503
with Retry-After and writes nothing; the next request works."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from tests.server.conftest import assert_problem, table_snapshot
from tests.web.helpers import move_form, offered_moves, page, sign_in_seat


@pytest.fixture
def terminate_next_checkout(app, database_url):
    """`arm(n)`: the next `n` connections the app takes from its pool are killed by the
    server right after they are handed out (as a restart or failover would)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("terminating a server's connections needs PostgreSQL (TEST_DATABASE_URL)")
    admin = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
    armed = {"left": 0, "killed": 0}

    def kill(dbapi_connection, _record, _proxy):
        if armed["left"] <= 0:
            return
        armed["left"] -= 1
        pid = dbapi_connection.info.backend_pid
        with admin.connect() as connection:
            connection.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            for _ in range(100):  # the backend ends a moment later
                alive = connection.execute(
                    sa.text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
                ).scalar()
                if not alive:
                    break
                time.sleep(0.01)
        armed["killed"] += 1

    with app.app_context():
        sa.event.listen(db.engine, "checkout", kill)

    def arm(count: int = 1) -> dict[str, int]:
        armed["left"] = count
        return armed

    yield arm
    admin.dispose()


def _pending(api, game_id):
    return api.get(f"/api/games/{game_id}").json["pending"][0]["player"]


def test_a_get_meets_a_dead_connection_and_answers_all_the_same(api, terminate_next_checkout):
    game_id, keys = api.new_game(["red", "blue", "green"])
    expected = api.get(f"/api/games/{game_id}", key=keys["red"]).json
    armed = terminate_next_checkout(1)
    response = api.get(f"/api/games/{game_id}", key=keys["red"])
    assert armed["killed"] == 1
    assert response.status_code == 200
    assert response.json == expected


def test_a_move_meets_a_dead_connection_503_and_nothing_written(app, api, terminate_next_checkout):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = _pending(api, game_id)
    legal = api.get(f"/api/games/{game_id}/legal-moves", key=keys[colour]).json
    before = table_snapshot(app)
    armed = terminate_next_checkout(1)
    response = api.post_moves(game_id, keys[colour], [legal["moves"][0]], legal["seq"])
    assert armed["killed"] == 1
    body = assert_problem(response, 503)
    assert body["type"] == "/problems/database-unavailable"
    assert "nothing was changed" in body["detail"]
    assert int(response.headers["Retry-After"]) > 0
    assert table_snapshot(app) == before
    # The next request takes a live connection: the same move is played.
    response = api.post_moves(game_id, keys[colour], [legal["moves"][0]], legal["seq"])
    assert response.status_code == 201 and response.json["seq"] == 1


def test_pages_meet_a_dead_connection(app, api, client, terminate_next_checkout):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = _pending(api, game_id)
    sign_in_seat(app, client, game_id, colour)
    terminate_next_checkout(1)
    board = client.get(f"/games/{game_id}")
    assert board.status_code == 200 and "El Grande" in board.get_data(as_text=True)
    doc = page(client, f"/games/{game_id}")
    form = {**move_form(doc), "move": offered_moves(doc)[0]}
    terminate_next_checkout(1)
    response = client.post(f"/games/{game_id}/moves", data=form)
    assert response.status_code == 503
    assert "nothing was changed" in response.get_data(as_text=True)
    assert response.headers["Retry-After"]
    assert api.get(f"/api/games/{game_id}").json["seq"] == 0
    assert client.post(f"/games/{game_id}/moves", data=form).status_code == 303
    assert api.get(f"/api/games/{game_id}").json["seq"] == 1


def test_outage_errors_are_told_from_bugs():
    from pbem.store.outage import is_outage

    lost = sa.exc.OperationalError("SELECT 1", {}, Exception("server closed the connection"))
    assert is_outage(lost)
    assert is_outage(sa.exc.TimeoutError("QueuePool limit reached"))
    invalidated = sa.exc.DBAPIError("SELECT 1", {}, Exception("x"), connection_invalidated=True)
    assert is_outage(invalidated)
    assert not is_outage(sa.exc.IntegrityError("INSERT", {}, Exception("duplicate key")))
    assert not is_outage(sa.exc.ProgrammingError("SELECT", {}, Exception("syntax error")))
    assert not is_outage(ValueError("a bug"))


class _Victim(Exception):
    """What psycopg raises for a deadlock's victim: SQLSTATE 40P01."""

    sqlstate = "40P01"


def test_a_deadlocks_victim_is_played_again_in_place_not_answered_503(app, api, monkeypatch):
    """PostgreSQL aborts one transaction of a deadlock: nothing of it was written, so the
    request runs again at once and answers as if nothing happened."""
    from pbem.play import batch
    from pbem.store.outage import is_deadlock

    victim = sa.exc.OperationalError("UPDATE deadlines", {}, _Victim("deadlock detected"))
    assert is_deadlock(victim) and not is_deadlock(ValueError("a bug"))
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour = _pending(api, game_id)
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).json
    real, calls = batch._commit, []

    def deadlocked_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            db.session.rollback()
            raise victim
        return real(*args, **kwargs)

    monkeypatch.setattr(batch, "_commit", deadlocked_once)
    played = api.post_moves(game_id, keys[colour], legal["moves"][:1], legal["seq"])
    assert played.status_code == 201, played.json
    assert played.json["seq"] == legal["seq"] + 1 and len(calls) == 2
    assert api.get(f"/api/games/{game_id}").json["seq"] == legal["seq"] + 1  # played once
