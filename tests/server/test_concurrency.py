"""Two writers at the same `expected_seq`: one wins, one gets 409, the log stays whole.

Runs on whichever database the suite runs on (SQLite by default, PostgreSQL with
TEST_DATABASE_URL); `.ci/run` runs it on both.
"""

import threading
import time

import pytest
import sqlalchemy as sa

import engine
from pbem.extensions import db

ROUNDS = 8


@pytest.fixture(autouse=True)
def slow_engine(monkeypatch):
    """Make applying a move take a while, so both racers have read the game and passed the
    early seq check before either commits: the database must then tell them apart."""
    real_apply = engine.apply

    def slow_apply(state, player, move):
        time.sleep(0.05)
        return real_apply(state, player, move)

    monkeypatch.setattr(engine, "apply", slow_apply)


def race(app, requests):
    """Send the requests at the same moment from threads; return the responses in order."""
    barrier = threading.Barrier(len(requests))
    responses = [None] * len(requests)

    def send(index, path, body, headers):
        client = app.test_client()
        barrier.wait()
        responses[index] = client.post(path, json=body, headers=headers)

    threads = [threading.Thread(target=send, args=(i, *r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return responses


def log_seqs(app, game_id):
    with app.app_context():
        return [
            row[0]
            for row in db.session.execute(
                sa.text("SELECT seq FROM moves WHERE game_id = :g ORDER BY seq"), {"g": game_id}
            )
        ]


def test_two_moves_at_the_same_seq_one_wins(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    for _ in range(ROUNDS):
        view = api.get(f"/api/games/{game_id}").get_json()
        colour = view["pending"][0]["player"]
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        # Two different legal moves from the same seat, as from two devices.
        first, second = legal["moves"][0], legal["moves"][-1]
        path = f"/api/games/{game_id}/moves"
        headers = api.auth(keys[colour])
        responses = race(
            app,
            [
                (path, {"expected_seq": legal["seq"], "moves": [first]}, headers),
                (path, {"expected_seq": legal["seq"], "moves": [second]}, headers),
            ],
        )
        codes = sorted(r.status_code for r in responses)
        if first == second:
            assert codes[0] == 201
        else:
            assert codes == [201, 409], [r.get_json() for r in responses]
            loser = next(r for r in responses if r.status_code == 409)
            assert loser.mimetype == "application/problem+json"
            assert loser.get_json()["seq"] == legal["seq"] + 1
        seqs = log_seqs(app, game_id)
        assert seqs == list(range(1, len(seqs) + 1))
        assert seqs[-1] == legal["seq"] + 1


def test_the_same_idempotency_key_twice_at_once_plays_once(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    view = api.get(f"/api/games/{game_id}").get_json()
    colour = view["pending"][0]["player"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    headers = {**api.auth(keys[colour]), "Idempotency-Key": "same-request"}
    body = {"expected_seq": legal["seq"], "moves": legal["moves"][:1]}
    path = f"/api/games/{game_id}/moves"
    responses = race(app, [(path, body, headers), (path, body, headers)])
    assert [r.status_code for r in responses] == [201, 201], [r.get_json() for r in responses]
    assert responses[0].get_json() == responses[1].get_json()
    assert log_seqs(app, game_id) == [1]
