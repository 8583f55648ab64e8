"""The per-worker state cache never serves a state the database has moved past, and a batch
that is not committed never reaches it."""

import pytest
from sqlalchemy.exc import IntegrityError

import engine
from pbem import create_app
from pbem.extensions import db
from pbem.game.state_cache import StateCache
from pbem.game.states import current_state
from pbem.store.models import Game
from tests.server.conftest import Api, assert_problem
from tests.server.helpers import replay_log, stored_state


def turn(api, game_id, keys):
    """The first pending seat, its legal moves and the seq they belong to."""
    view = api.get(f"/api/games/{game_id}").get_json()
    colour = view["pending"][0]["player"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    return colour, legal["moves"], legal["seq"]


def cached_seq(app, game_id) -> int | None:
    """The seq this app instance's cache holds for the game (None if it holds nothing)."""
    with app.app_context():
        seed = db.session.get(Game, game_id).seed
        cache = app.extensions["pbem_state_cache"]
        held = [seq for seq in range(200) if cache.get(game_id, seed, seq) is not None]
        db.session.remove()
    assert len(held) <= 1
    return held[0] if held else None


def logged_state(app, game_id):
    """The state the log replays to, bypassing every cache."""
    with app.app_context():
        state = replay_log(db.session.get(Game, game_id))
        db.session.remove()
    return state


@pytest.fixture
def other_worker(app, database_url):
    """A second app instance on the same database: another gunicorn worker."""
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_move_committed_by_another_worker_is_seen_here(app, api, other_worker):
    here = api
    there = Api(other_worker.test_client())
    game_id, keys = here.new_game(["red", "blue", "green"])

    colour, moves, seq = turn(here, game_id, keys)
    assert here.post_moves(game_id, keys[colour], [moves[0]], seq).status_code == 201
    assert cached_seq(app, game_id) == seq + 1

    # The other worker plays the next move; this worker still holds the older state.
    colour, moves, seq = turn(there, game_id, keys)
    answer = there.post_moves(game_id, keys[colour], [moves[0]], seq)
    assert answer.status_code == 201
    assert cached_seq(app, game_id) == seq

    # This worker answers from the new seq: the view and the legal moves are the other's.
    view = here.get(f"/api/games/{game_id}", keys[colour]).get_json()
    assert view == there.get(f"/api/games/{game_id}", keys[colour]).get_json()
    assert view["seq"] == seq + 1
    colour, moves, seq = turn(here, game_id, keys)
    assert moves == turn(there, game_id, keys)[1]
    # And a move played here is applied to the new state, not to the cached old one.
    before = logged_state(app, game_id)
    answer = here.post_moves(game_id, keys[colour], [moves[0]], seq)
    assert answer.status_code == 201
    expected, _ = engine.apply(before, colour, moves[0])
    assert engine.to_dict(logged_state(app, game_id)) == engine.to_dict(expected)
    assert answer.get_json()["view"] == {
        **engine.view(expected, colour),
        "id": game_id,
        "title": view["title"],
        "seq": seq + 1,
        "status": "active",
    }


def test_a_stale_post_after_another_workers_move_is_refused(app, api, other_worker):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = turn(api, game_id, keys)
    # Both workers hold the seq-0 state; the other one commits first.
    there = Api(other_worker.test_client())
    assert there.post_moves(game_id, keys[colour], [moves[0]], seq).status_code == 201
    body = assert_problem(api.post_moves(game_id, keys[colour], [moves[0]], seq), 409)
    assert body["seq"] == seq + 1


def test_a_refused_or_dry_batch_leaves_the_cache_alone(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = turn(api, game_id, keys)
    assert cached_seq(app, game_id) == seq

    # An illegal second move: the first one was applied in memory, but nothing is kept.
    assert_problem(
        api.post_moves(
            game_id, keys[colour], [moves[0], {"type": "play_power_card", "card": 99}], seq
        ),
        422,
    )
    # A dry run shows the next state without committing it.
    assert api.post_moves(game_id, keys[colour], [moves[0]], seq, dry_run=True).status_code == 200
    assert cached_seq(app, game_id) == seq
    with app.app_context():
        state = stored_state(db.session.get(Game, game_id))
        assert engine.to_dict(state) == engine.to_dict(logged_state(app, game_id))


def test_a_commit_that_fails_does_not_reach_the_cache(app, api, monkeypatch):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = turn(api, game_id, keys)

    def failing_commit():
        raise IntegrityError("COMMIT", {}, Exception("simulated: another writer won"))

    monkeypatch.setattr(db.session, "commit", failing_commit)
    body = assert_problem(api.post_moves(game_id, keys[colour], [moves[0]], seq), 409)
    monkeypatch.undo()
    assert body["seq"] == seq
    assert cached_seq(app, game_id) == seq
    # The game goes on from the committed state.
    assert api.post_moves(game_id, keys[colour], [moves[0]], seq).status_code == 201


def test_the_cache_keeps_the_latest_state_and_forgets_the_oldest_game():
    cache = StateCache(size=2)
    cache.put(1, 11, 5, "game 1 at 5")
    cache.put(1, 11, 4, "game 1 at 4, stored late by a slower thread")
    assert cache.get(1, 11, 5) == "game 1 at 5"
    assert cache.get(1, 11, 4) is None
    # Same id, another seed: a deleted game's id reused by a new game.
    assert cache.get(1, 99, 5) is None
    cache.put(2, 22, 0, "game 2")
    cache.put(3, 33, 0, "game 3")
    assert cache.get(1, 11, 5) is None and len(cache) == 2


def test_a_row_that_moved_on_is_not_filed_under_the_older_seq(app, api):
    """The state column read on a miss belongs to the row's seq at that moment; asking for an
    older seq (the row moved on since the caller read it) gets that seq's state, replayed."""
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = turn(api, game_id, keys)
    assert api.post_moves(game_id, keys[colour], [moves[0]], seq).status_code == 201
    app.extensions["pbem_state_cache"] = StateCache()
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = current_state(game_id, game.seed, seq)
        assert engine.to_dict(state) == engine.to_dict(replay_log(game, seq))
        db.session.remove()
    assert cached_seq(app, game_id) == seq
