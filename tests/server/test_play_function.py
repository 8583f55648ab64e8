"""The one play function, through every door's path: batches of several moves, the
scheduler acting for a colour, the record each batch leaves (moves, events, snapshots), and
the admin's refusals."""

from __future__ import annotations

import random

import pytest

import engine
from pbem import play
from pbem.errors import IllegalMoveError, Invalid, StaleSequence
from pbem.extensions import db
from pbem.game.seating import Actor
from pbem.store import queries
from pbem.store.models import Game, Move, Snapshot
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.helpers import play_random_game, replay_log, stored_state


def server_state(app, game_id):
    with app.app_context():
        state = stored_state(db.session.get(Game, game_id))
        db.session.remove()
    return state


def play_power_cards(api, game_id, keys):
    """Every seat plays its first legal power card, one request each."""
    while True:
        view = api.get(f"/api/games/{game_id}").get_json()
        pending = view["pending"][0]
        if pending["kind"] != "power_card":
            return view
        colour = pending["player"]
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        assert (
            api.post_moves(game_id, keys[colour], legal["moves"][:1], legal["seq"]).status_code
            == 201
        )


def a_turn_of_three_moves(state, colour):
    """Three moves of one turn, each legal after the one before (found by the engine)."""
    moves = []
    for _ in range(3):
        legal = engine.legal_moves(state, colour)
        move = next(m for m in legal if m["type"] not in ("end_turn", "skip_special"))
        moves.append(move)
        state, _ = engine.apply(state, colour, move)
    return moves


def test_a_batch_of_three_moves_commits_whole_and_in_order(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    view = play_power_cards(api, game_id, keys)
    colour, seq = view["pending"][0]["player"], view["seq"]
    moves = a_turn_of_three_moves(server_state(app, game_id), colour)

    response = api.post_moves(game_id, keys[colour], moves, seq)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["seq"] == seq + 3 and body["view"]["seq"] == seq + 3

    log = api.get(f"/api/games/{game_id}/log", keys[colour]).get_json()
    assert log["seq"] == seq + 3
    tail = log["moves"][-3:]
    assert [e["seq"] for e in tail] == [seq + 1, seq + 2, seq + 3]
    assert [e["move"] for e in tail] == moves
    assert {e["player"] for e in tail} == {colour}
    # Each move keeps its own events, and together they are the batch's.
    assert [ev for e in tail for ev in e["events"]] == body["events"]
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert engine.to_dict(stored_state(game)) == engine.to_dict(replay_log(game))


def test_the_scheduler_plays_for_a_colour_with_no_player(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    with app.app_context():
        game = db.session.get(Game, game_id)
        state, seq = stored_state(game), game.seq
        colour = engine.pending(state)[0]["player"]
        waiting = next(c for c in game.colours if c != colour)
        move = engine.default_move(state, colour)
        # A colour that is not pending is refused by the rules; a colour not in the game
        # is refused before them. Neither writes anything.
        with pytest.raises(IllegalMoveError):
            play.submit(Actor.scheduler(waiting), game_id, seq, [move], source="timeout")
        with pytest.raises(Invalid):
            play.submit(Actor.scheduler("brown"), game_id, seq, [move], source="timeout")
        outcome = play.submit(Actor.scheduler(colour), game_id, seq, [move], source="timeout")
        assert outcome.colour == colour and outcome.player_id is None and outcome.seq == seq + 1
        row = db.session.execute(db.select(Move).where(Move.game_id == game_id)).scalar_one()
        assert (row.seq, row.colour, row.player_id, row.source) == (
            seq + 1,
            colour,
            None,
            "timeout",
        )
        assert row.move == move and row.events == outcome.events
        # The door checks the seq like any other.
        with pytest.raises(StaleSequence):
            play.submit(Actor.scheduler(colour), game_id, seq, [move], source="timeout")
        db.session.remove()
    entry = api.get(f"/api/games/{game_id}/log").get_json()["moves"][0]
    assert entry["source"] == "timeout" and entry["player"] == colour


def test_a_source_no_door_has_is_a_bug_not_a_move(app, api):
    game_id, _ = api.new_game(["red", "blue"])
    with app.app_context(), pytest.raises(ValueError, match="source"):
        play.submit(Actor.scheduler("red"), game_id, 0, [{"type": "end_turn"}], source="pigeon")


def test_a_past_state_is_read_from_the_nearest_snapshot(app, api, monkeypatch):
    game_id, keys = api.new_game(["red", "blue"], options={"rounds": 6})

    rng = random.Random(8)
    played = []

    def stop_in_round_three(colour, move, body):
        played.append(body["view"]["round_number"])

    # Play into the third round, then read states back.
    class Enough(Exception):
        pass

    def after(colour, move, body):
        stop_in_round_three(colour, move, body)
        if body["view"]["round_number"] >= 3:
            raise Enough

    with pytest.raises(Enough):
        play_random_game(api, game_id, keys, rng, after_move=after)
    with app.app_context():
        snapshots = (
            db.session.execute(
                db.select(Snapshot.seq).where(Snapshot.game_id == game_id).order_by(Snapshot.seq)
            )
            .scalars()
            .all()
        )
        events = {
            m.seq: m.events
            for m in db.session.execute(db.select(Move).where(Move.game_id == game_id)).scalars()
        }
        db.session.remove()
    round_starts = [
        s for s, ev in sorted(events.items()) if any(e["type"] == "round_started" for e in ev)
    ]
    assert snapshots == [0, *round_starts] and len(round_starts) == 2

    reads = []
    real = queries.moves_between

    def spy(connection, game, after, upto):
        reads.append((after, upto))
        return real(connection, game, after, upto)

    monkeypatch.setattr(queries, "moves_between", spy)
    late = round_starts[1] - 1  # the last move of round 2
    view = api.get(f"/api/games/{game_id}/states/{late}").get_json()
    assert reads == [(round_starts[0], late)]  # from round 2's snapshot, not from move 0
    with app.app_context():
        expected = engine.view(replay_log(db.session.get(Game, game_id), late), None)
        db.session.remove()
    assert {k: view[k] for k in expected} == expected


def test_aborting_an_aborted_game_is_a_conflict(app, api):
    game_id, keys = api.new_game(["red", "blue"])
    path = f"/api/games/{game_id}/abort"
    assert api.client.post(path, headers=api.auth(keys["red"])).status_code == 200
    before = table_snapshot(app)
    body = assert_problem(api.client.post(path, headers=api.auth(keys["red"])), 409)
    assert "already aborted" in body["detail"]
    assert table_snapshot(app) == before


def test_a_seat_of_a_finished_game_cannot_be_given(app, api):
    game_id, keys = api.new_game(["red", "blue"])
    api.register("late@example.org", "Late")
    with app.app_context():
        db.session.get(Game, game_id).status = "finished"
        db.session.commit()
    before = table_snapshot(app)
    response = api.client.put(
        f"/api/games/{game_id}/seats/blue",
        json={"email": "late@example.org"},
        headers=api.auth(keys["red"]),
    )
    assert "finished" in assert_problem(response, 409)["detail"]
    assert table_snapshot(app) == before


def test_a_state_past_the_current_seq_is_not_found(api):
    game_id, keys = api.new_game(["red", "blue"])
    body = assert_problem(api.get(f"/api/games/{game_id}/states/1", keys["red"]), 404)
    assert "states 0 to 0" in body["detail"]
    assert api.get(f"/api/games/{game_id}/states/0", keys["red"]).get_json()["seq"] == 0
