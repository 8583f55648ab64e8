"""Entries for a tournament's last place at once, against gunicorn on PostgreSQL: one
winner, the others 409 `tournament-full`, and nothing else changed (the entries, one
round drawn once)."""

from __future__ import annotations

from collections import Counter
from functools import partial

from tests.hostile.conftest import at_once, statuses

ROUNDS = 4


def test_entries_at_once_for_the_last_place_have_one_winner(server):
    for _ in range(ROUNDS):
        _organiser, key = server.player("organiser")
        body = {"title": "Race cup", "table_size": 3, "rounds": 1, "entry": {"most": 3}}
        made = server.call("POST", "/api/tournaments", key, body)
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        for _n in range(2):
            _address, entrant = server.player("early")
            assert server.call("POST", f"/api/tournaments/{tid}/entries", entrant).ok
        late = [server.player("late")[1] for _ in range(8)]
        responses = at_once(
            [partial(server.call, "POST", f"/api/tournaments/{tid}/entries", k) for k in late]
        )
        assert statuses(responses) == Counter({200: 1, 409: 7}), [r.text for r in responses]
        assert all(
            r.json()["code"] in ("tournament-full", "tournament-closed")
            for r in responses
            if r.status_code == 409
        )
        (count,) = server.rows(
            "SELECT count(*) FROM tournament_entries WHERE tournament_id = :t", t=tid
        )[0]
        tables = server.rows(
            "SELECT game_id FROM tournament_tables WHERE tournament_id = :t", t=tid
        )
        assert count == 3 and len(tables) == 1  # full, so started: one table, drawn once
