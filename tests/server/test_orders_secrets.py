"""Orders are a seat's secret until played: through whole games where seats give orders at
random moments, every other reader's every endpoint and board page reads the same, byte for
byte, before and after the orders are given, and no mail is queued for them (so none goes
out sooner or later because of them)."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.store.models import Game, Notification
from tests.server.helpers import MAX_MOVES, stored_state
from tests.web.helpers import sign_in_seat


def paths_for(game_id: int, seq: int, holds: bool) -> list[str]:
    paths = [
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/log",
        f"/api/games/{game_id}/states/{seq}",
    ]
    if holds:
        paths += [f"/api/games/{game_id}/legal-moves", "/api/games"]
    return paths


def everything_read(app, api, pages, game_id, keys, colours, giver, seq) -> dict:
    """What every reader but `giver` gets from every endpoint and their board page."""
    read = {}
    readers = [(c, keys[c]) for c in colours if c != giver] + [(None, None)]
    for colour, key in readers:
        for path in paths_for(game_id, seq, colour is not None):
            response = api.get(path, key)
            read[(colour, path)] = (response.status_code, response.get_data(as_text=True))
        if colour is not None:
            # Another seat's orders are refused, saying nothing of them.
            response = api.get(f"/api/games/{game_id}/seats/{giver}/orders", key)
            read[(colour, "orders")] = (response.status_code, response.get_data(as_text=True))
    for colour, client in pages.items():
        if colour != giver:
            read[(colour, "page")] = client.get(f"/games/{game_id}").get_data(as_text=True)
    with app.app_context():
        read["outbox"] = db.session.execute(sa.select(sa.func.max(Notification.id))).scalar()
        db.session.remove()
    return read


def random_orders(state, colour: str, rng: random.Random) -> dict:
    hand = list(state.hands[colour])
    rng.shuffle(hand)
    body = {"power_cards": hand[: rng.randint(0, len(hand))]}
    if rng.random() < 0.5:
        body["veto"] = rng.choice(["allow", "ask"])
    return body


@pytest.mark.parametrize(
    ("colours", "seed"), [(["red", "blue", "green"], 31), (["red", "yellow", "green", "blue"], 32)]
)
def test_no_reader_learns_anothers_orders_before_they_are_played(app, api, colours, seed):
    rng = random.Random(seed)
    game_id, keys = api.new_game(colours, options={"rounds": 6})
    pages = {}
    for colour in colours[:2]:
        pages[colour] = app.test_client()
        sign_in_seat(app, pages[colour], game_id, colour)
    given = played_by_orders = 0
    for _ in range(MAX_MOVES):
        view = api.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            break
        with app.app_context():
            state = stored_state(db.session.get(Game, game_id))
            db.session.remove()
        pending = {p["player"] for p in view["pending"]}
        idle = [c for c in colours if c not in pending]
        if idle and rng.random() < 0.3:
            giver = rng.choice(idle)
            before = everything_read(app, api, pages, game_id, keys, colours, giver, view["seq"])
            body = random_orders(state, giver, rng)
            response = api.client.put(
                f"/api/games/{game_id}/seats/{giver}/orders",
                json=body,
                headers=api.auth(keys[giver]),
            )
            assert response.status_code == 200, response.get_json()
            assert response.get_json()["played"] == []
            after = everything_read(app, api, pages, game_id, keys, colours, giver, view["seq"])
            assert after == before, f"orders of {giver} showed at seq {view['seq']}"
            given += 1
            continue
        colour = rng.choice(sorted(pending))
        legal = api.get(
            f"/api/games/{game_id}/legal-moves?colour={colour}", keys[colour]
        ).get_json()
        move = rng.choice(legal["moves"])
        response = api.post_moves(game_id, keys[colour], [move], legal["seq"], colour=colour)
        assert response.status_code == 201, response.get_json()
    with app.app_context():
        played_by_orders = db.session.execute(
            sa.text("SELECT count(*) FROM moves WHERE game_id = :g AND source = 'orders'"),
            {"g": game_id},
        ).scalar()
        db.session.remove()
    assert api.get(f"/api/games/{game_id}").get_json()["status"] == "finished"
    # The game went where orders are: many given, and some played.
    assert given >= 10 and played_by_orders >= 3, (given, played_by_orders)
