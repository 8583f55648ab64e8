"""Moves racing at one seq against gunicorn on PostgreSQL: the game's row and its log are
written in one round trip (`store.prepared.written_together`), the log rows sent whether or
not the claim on the row took. One move wins; every other is a clear 409, and the log stays
whole: no seq twice, none missing, none from a request that lost, and no mail queued by
a request that lost."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial

from tests.hostile.conftest import at_once, statuses

ROUNDS = 4


COLOURS = ("red", "blue", "green")


def new_game(server) -> tuple[int, dict[str, str], dict[str, str]]:
    """A game of three fresh players, made by red; its id, each colour's key and address."""
    made = {colour: server.player(colour) for colour in COLOURS}
    body = {
        "title": "Racing moves",
        "seats": [{"colour": colour, "email": made[colour][0]} for colour in COLOURS],
    }
    answer = server.call("POST", "/api/games", made["red"][1], body)
    assert answer.status_code == 201, answer.text
    keys = {colour: key for colour, (_, key) in made.items()}
    return answer.json()["id"], keys, {colour: address for colour, (address, _) in made.items()}


def test_moves_sent_at_once_at_one_seq_play_one(server):
    game_id, keys, addresses = new_game(server)
    for _ in range(ROUNDS):
        view = server.call("GET", f"/api/games/{game_id}").json()
        colour = view["pending"][0]["player"]
        legal = server.call("GET", f"/api/games/{game_id}/legal-moves", keys[colour]).json()
        seq, moves = legal["seq"], legal["moves"]
        sent = [
            partial(
                server.call,
                "POST",
                f"/api/games/{game_id}/moves",
                keys[colour],
                {"expected_seq": seq, "moves": [moves[i % len(moves)]]},
            )
            for i in range(8)
        ]
        responses = at_once(sent)
        assert statuses(responses) == Counter({201: 1, 409: 7}), statuses(responses)
        refused = [r.json() for r in responses if r.status_code == 409]
        assert {r["code"] for r in refused} <= {"stale-sequence", "another-move-first"}
        assert all("seq" in r["detail"] for r in refused)
        winner = next(i for i, r in enumerate(responses) if r.status_code == 201)
        logged = server.rows(
            "SELECT seq, move FROM moves WHERE game_id = :id ORDER BY seq", id=game_id
        )
        # The log holds each seq once, the last one the winner's move.
        assert [row[0] for row in logged] == list(range(1, seq + 2))
        logged_move = logged[-1][1]
        if isinstance(logged_move, str):  # SQLite hands JSON back as text
            logged_move = json.loads(logged_move)
        assert logged_move == moves[winner % len(moves)]
        assert server.rows("SELECT seq FROM games WHERE id = :id", id=game_id)[0][0] == seq + 1
        # No mail from a request that lost: a seat is told of each decision once, and of
        # none at a seq the game has not reached.
        told = [
            (recipient, (payload if isinstance(payload, dict) else json.loads(payload))["seq"])
            for recipient, payload in server.rows(
                "SELECT recipient, payload FROM outbox WHERE game_id = :id AND kind = 'decision'",
                id=game_id,
            )
        ]
        assert len(told) == len(set(told)), Counter(told).most_common(3)
        assert all(at <= seq + 1 for _, at in told)
        pending = server.call("GET", f"/api/games/{game_id}").json()["pending"]
        waiting = {addresses[p["player"]] for p in pending}
        assert {recipient for recipient, at in told if at == seq + 1} <= waiting
