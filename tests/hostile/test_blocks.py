"""A block and a join at once, against gunicorn on PostgreSQL: the two end at one table only
if the join came first (its seat was taken before the block was kept, both under the
players' row locks); else the join is refused with `blocked`, changing nothing."""

from __future__ import annotations

from collections import Counter
from functools import partial

from tests.hostile.conftest import at_once
from tests.hostile.test_seats import forming_game

ROUNDS = 12


def test_a_block_and_a_join_at_once_seat_them_together_only_if_the_join_came_first(server):
    tally: Counter[str] = Counter()
    for _ in range(ROUNDS):
        organiser, key = server.player("organiser")
        joiner, joiner_key = server.player("joiner")
        (joiner_id,) = [
            r[0] for r in server.rows("SELECT id FROM players WHERE email = :e", e=joiner)
        ]
        game_id = forming_game(
            server, key, [{"colour": "red", "email": organiser}, {"colour": "blue", "open": True}]
        )
        block, join = at_once(
            [
                partial(server.call, "PUT", f"/api/players/me/blocks/{joiner_id}", key),
                partial(server.call, "POST", f"/api/games/{game_id}/seats/blue/join", joiner_key),
            ]
        )
        assert block.status_code == 200, block.text
        (kept,) = server.rows("SELECT created_at FROM blocks WHERE blocked_id = :j", j=joiner_id)
        seat = server.rows(
            "SELECT player_id, accepted_at FROM seats WHERE game_id = :g AND colour = 'blue'",
            g=game_id,
        )[0]
        if join.status_code == 200:
            tally["join first"] += 1
            assert seat.player_id == joiner_id and seat.accepted_at <= kept.created_at
        else:
            tally["block first"] += 1
            assert join.status_code == 403 and join.json()["code"] == "blocked", join.text
            assert seat.player_id != joiner_id
        # Whichever won, from now on the joiner takes no seat at the organiser's tables.
        again = forming_game(
            server, key, [{"colour": "red", "email": organiser}, {"colour": "blue", "open": True}]
        )
        later = server.call("POST", f"/api/games/{again}/seats/blue/join", joiner_key)
        assert later.status_code == 403 and later.json()["code"] == "blocked"
    print(f"block and join: {dict(tally)}")
