"""Orders are a seat's secret until played: at moments of engine games written into the
server (`tests.server.positions`), seats that are not to move give orders, and every other
reader's every endpoint and board page reads the same, byte for byte, before and after,
and no mail is queued for them (so none goes out sooner or later because of them); the game
then goes on through the API until orders are played. The clock stands still meanwhile: a
page that shows a seat's record as it was a minute ago reads the same both times because
nothing changed, not because the minute had not passed."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from pbem.clock import set_now
from pbem.extensions import db
from pbem.store.models import Game, Notification
from tests.secret_oracle import play_in_engine
from tests.server.helpers import stored_state
from tests.server.positions import import_at
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


def give_orders_and_compare(app, api, pages, game_id, keys, colours, rng) -> int:
    """Each seat not to move may give orders (at random); every other reader's reads are
    the same before and after. How many gave orders."""
    view = api.get(f"/api/games/{game_id}").get_json()
    pending = {p["player"] for p in view["pending"]}
    given = 0
    for giver in [c for c in colours if c not in pending]:
        if rng.random() < 0.3:
            continue
        with app.app_context():
            state = stored_state(db.session.get(Game, game_id))
            db.session.remove()
        before = everything_read(app, api, pages, game_id, keys, colours, giver, view["seq"])
        response = api.client.put(
            f"/api/games/{game_id}/seats/{giver}/orders",
            json=random_orders(state, giver, rng),
            headers=api.auth(keys[giver]),
        )
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["played"] == []
        after = everything_read(app, api, pages, game_id, keys, colours, giver, view["seq"])
        assert after == before, f"orders of {giver} showed at seq {view['seq']}"
        given += 1
    return given


def play_on(api, game_id, keys, rng, moves: int) -> None:
    for _ in range(moves):
        view = api.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            return
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        response = api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"])
        assert response.status_code == 201, response.get_json()


@pytest.mark.parametrize(
    ("colours", "seed"), [(["red", "blue", "green"], 31), (["red", "yellow", "green", "blue"], 32)]
)
def test_no_reader_learns_anothers_orders_before_they_are_played(app, api, colours, seed):
    set_now(app, datetime(2026, 12, 2, 12, 0, tzinfo=UTC))
    rng = random.Random(seed)
    game = play_in_engine(colours, seed, rng, lambda moves: [], options={"rounds": 6})
    given = played_by_orders = 0
    for seq in (0, len(game.log) // 3, 2 * len(game.log) // 3):
        game_id, keys = import_at(app, api, game, seq)
        pages = {}
        for colour in colours[:2]:
            pages[colour] = app.test_client()
            sign_in_seat(app, pages[colour], game_id, colour)
        for _ in range(3):
            given += give_orders_and_compare(app, api, pages, game_id, keys, colours, rng)
            play_on(api, game_id, keys, rng, 12)
        with app.app_context():
            played_by_orders += db.session.execute(
                sa.text("SELECT count(*) FROM moves WHERE game_id = :g AND source = 'orders'"),
                {"g": game_id},
            ).scalar()
            db.session.remove()
    # The games went where orders are: many given, and some played.
    assert given >= 8 and played_by_orders >= 3, (given, played_by_orders)
