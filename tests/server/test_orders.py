"""Orders given in advance: power cards a seat chose before its turn came, played at once
(source `orders`) by whichever door makes the decision pending; a standing `allow` for Veto
windows; both private to the seat until played."""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa

import engine
from pbem import create_app
from pbem.extensions import db
from pbem.game.state_cache import StateCache
from pbem.store.models import Game, Notification, Order
from tests.engine.helpers import acting, empty_board, set_caballeros
from tests.server.conftest import Api, assert_problem, table_snapshot
from tests.server.test_deadlines import put_state

COLOURS = ["red", "blue", "green"]


def start(api, colours=COLOURS):
    game_id, keys = api.new_game(list(colours), options={"first_player": colours[0]})
    return game_id, keys


def orders_path(game_id, colour):
    return f"/api/games/{game_id}/seats/{colour}/orders"


def give(api, game_id, keys, colour, body, as_colour=None):
    return api.client.put(
        orders_path(game_id, colour), json=body, headers=api.auth(keys[as_colour or colour])
    )


def power(api, game_id, keys, colour, card, seq):
    response = api.post_moves(
        game_id, keys[colour], [{"type": "play_power_card", "card": card}], seq
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def log(app, game_id):
    with app.app_context():
        rows = db.session.execute(
            sa.text("SELECT seq, colour, move, source FROM moves WHERE game_id = :g ORDER BY seq"),
            {"g": game_id},
        ).all()
        db.session.remove()
    return [(r.seq, r.colour, engine.format_move(_json(r.move)), r.source) for r in rows]


def _json(value):
    import json

    return json.loads(value) if isinstance(value, str) else value


def pending(api, game_id):
    return [p["player"] for p in api.get(f"/api/games/{game_id}").get_json()["pending"]]


def test_an_order_is_played_at_once_with_source_orders(app, api):
    game_id, keys = start(api)
    given = give(api, game_id, keys, "blue", {"power_cards": [13, 11, 9]})
    assert given.status_code == 200, given.get_json()
    assert given.get_json() == {
        "colour": "blue",
        "power_cards": [13, 11, 9],
        "veto": "ask",
        "played": [],
        "seq": 0,
    }
    answer = power(api, game_id, keys, "red", 5, 0)
    # Red's answer already shows blue's card played: one transaction, seq 2.
    assert answer["seq"] == 2
    assert log(app, game_id) == [(1, "red", "power 5", "api"), (2, "blue", "power 13", "orders")]
    assert pending(api, game_id) == ["green"]
    # The list is used up.
    mine = api.get(orders_path(game_id, "blue"), keys["blue"]).get_json()
    assert mine["power_cards"] == [] and mine["played"] == []


def test_a_card_another_took_this_round_skips_to_the_next(app, api):
    game_id, keys = start(api)
    assert give(api, game_id, keys, "blue", {"power_cards": [13, 11]}).status_code == 200
    power(api, game_id, keys, "red", 13, 0)
    assert log(app, game_id)[1] == (2, "blue", "power 11", "orders")


def test_a_list_with_no_legal_card_asks_the_seat(app, api):
    game_id, keys = start(api)
    assert give(api, game_id, keys, "blue", {"power_cards": [13]}).status_code == 200
    answer = power(api, game_id, keys, "red", 13, 0)
    assert answer["seq"] == 1
    assert pending(api, game_id) == ["blue"]
    # Asked as usual; the list was consulted and is used up.
    assert api.get(orders_path(game_id, "blue"), keys["blue"]).get_json()["power_cards"] == []
    assert power(api, game_id, keys, "blue", 12, 1)["seq"] == 2


def test_an_order_given_while_the_decision_is_pending_is_played_at_once(app, api):
    game_id, keys = start(api)
    given = give(api, game_id, keys, "red", {"power_cards": [12, 7]})
    assert given.status_code == 200, given.get_json()
    assert given.get_json()["played"] == ["power 12"] and given.get_json()["seq"] == 1
    assert given.get_json()["power_cards"] == []
    assert log(app, game_id) == [(1, "red", "power 12", "orders")]


def test_a_chain_of_orders_runs_in_one_transaction_and_an_empty_list_cancels(app, api):
    game_id, keys = start(api, ["red", "blue", "green", "yellow"])
    for colour, cards in (("blue", [10]), ("green", [9]), ("yellow", [8])):
        assert give(api, game_id, keys, colour, {"power_cards": cards}).status_code == 200
    assert give(api, game_id, keys, "yellow", {"power_cards": []}).get_json()["power_cards"] == []
    answer = power(api, game_id, keys, "red", 11, 0)
    assert answer["seq"] == 3
    assert [entry[1:] for entry in log(app, game_id)] == [
        ("red", "power 11", "api"),
        ("blue", "power 10", "orders"),
        ("green", "power 9", "orders"),
    ]
    assert pending(api, game_id) == ["yellow"]


def test_bad_orders_get_a_clear_error_and_change_nothing(app, api):
    game_id, keys = start(api)
    before = table_snapshot(app)
    cases = [
        ({"power_cards": [14]}, "power_cards"),
        ({"power_cards": [3, 3]}, "twice"),
        ({"power_cards": ["9"]}, "power_cards"),
        ({"veto": "sometimes"}, "veto"),
        ({}, "power_cards"),
    ]
    for body, said in cases:
        problem = assert_problem(give(api, game_id, keys, "blue", body), 422)
        assert said in str(problem), (body, problem)
    # Another's seat: refused, and nothing of its orders is said.
    assert give(api, game_id, keys, "blue", {"power_cards": [1]}).status_code == 200
    before = table_snapshot(app)
    for method in (api.client.put, api.client.get):
        kwargs = {"json": {"power_cards": [2]}} if method == api.client.put else {}
        response = method(orders_path(game_id, "blue"), headers=api.auth(keys["green"]), **kwargs)
        problem = assert_problem(response, 403)
        assert "[1]" not in response.get_data(as_text=True) and "power_cards" not in problem
    response = api.client.put(
        orders_path(game_id, "purple"), json={"veto": "allow"}, headers=api.auth(keys["blue"])
    )
    assert_problem(response, 404)
    assert table_snapshot(app) == before


def test_a_card_not_in_hand_is_refused(app, api):
    game_id, keys = start(api)
    power(api, game_id, keys, "red", 5, 0)
    power(api, game_id, keys, "blue", 6, 1)
    power(api, game_id, keys, "green", 7, 2)
    # Round 2's power cards: red no longer holds 5.
    view = api.get(f"/api/games/{game_id}", keys["red"]).get_json()
    assert 5 not in view["players"]["red"]["hand"]
    problem = assert_problem(give(api, game_id, keys, "red", {"power_cards": [5, 4]}), 422)
    assert "5 not in your hand" in problem["detail"]


def test_orders_survive_a_restart(app, api, database_url):
    game_id, keys = start(api)
    assert give(api, game_id, keys, "blue", {"power_cards": [13]}).status_code == 200
    # A new process: nothing held in memory survives, only the rows.
    fresh = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    other = Api(fresh.test_client())
    other.keys = api.keys
    power(other, game_id, keys, "red", 1, 0)
    assert log(fresh, game_id)[-1] == (2, "blue", "power 13", "orders")
    with fresh.app_context():
        db.engine.dispose()


def test_a_dry_run_carries_out_no_orders(app, api):
    game_id, keys = start(api)
    assert give(api, game_id, keys, "blue", {"power_cards": [13]}).status_code == 200
    response = api.post_moves(
        game_id, keys["red"], [{"type": "play_power_card", "card": 2}], 0, dry_run=True
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["seq"] == 1 and body["view"]["players"]["blue"]["power_card"] is None
    assert [p["player"] for p in body["view"]["pending"]] == ["blue"]
    # The order is still there to be played by the real move.
    power(api, game_id, keys, "red", 2, 0)
    assert log(app, game_id)[-1] == (2, "blue", "power 13", "orders")


@pytest.fixture
def slow_engine(monkeypatch):
    """Applying a move takes a while, so both racers read the game before either commits."""
    real = engine.play_batch

    def slow(state, player, moves):
        time.sleep(0.05)
        return real(state, player, moves)

    monkeypatch.setattr(engine, "play_batch", slow)


def race_order_and_reply(app, api, game_id, key):
    """Blue's order and blue's own reply sent at the same moment; their answers."""
    barrier = threading.Barrier(2)
    answers = [None, None]
    headers = api.auth(key)

    def send(index):
        client = app.test_client()
        barrier.wait()
        if index == 0:
            answers[0] = client.put(
                orders_path(game_id, "blue"), json={"power_cards": [13]}, headers=headers
            )
        else:
            body = {"expected_seq": 1, "moves": [{"type": "play_power_card", "card": 12}]}
            answers[1] = client.post(f"/api/games/{game_id}/moves", json=body, headers=headers)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_a_seats_order_and_its_own_reply_racing_play_once(app, api, slow_engine):
    seen = set()
    for attempt in range(6):
        game_id, keys = start(api)
        power(api, game_id, keys, "red", 1, 0)
        order, reply = race_order_and_reply(app, api, game_id, keys["blue"])
        blue = [entry for entry in log(app, game_id) if entry[1] == "blue"]
        assert len(blue) == 1, (attempt, blue)
        assert log(app, game_id)[-1][0] == 2
        seen.add(blue[0][3])
        if blue[0][3] == "orders":
            assert order.status_code == 200 and order.get_json()["played"] == ["power 13"]
            assert_problem(reply, 409)
        else:
            assert reply.status_code == 201 and blue[0][2] == "power 12"
            # The order was saved after the reply, or lost its race and was tried again:
            # either way it played nothing, and it waits for the next round.
            assert order.status_code == 200, order.get_data(as_text=True)
            assert order.get_json()["played"] == []
        assert pending(api, game_id) == ["green"]
    assert seen  # which door wins is up to the race


@pytest.fixture
def slow_orders(monkeypatch):
    """Reading the orders takes a while, so the move reads them before the order commits
    and the order reads the game before the move commits, unless one waits for the other."""
    from pbem.play import chain

    real = chain.standing_of

    def slow(connection, game_id):
        standing = real(connection, game_id)
        time.sleep(0.1)
        return standing

    monkeypatch.setattr(chain, "standing_of", slow)


def test_an_order_given_while_the_move_before_it_is_under_way_is_never_lost(
    app, api, slow_engine, slow_orders
):
    """Blue orders while red's card, which hands blue the decision, is being played: the
    move reads the order, or the order is saved after the move and played at once."""
    for attempt in range(4):
        game_id, keys = start(api)
        barrier = threading.Barrier(2)
        answers = [None, None]

        def send(index, game_id=game_id, barrier=barrier, answers=answers, keys=keys):
            client = app.test_client()
            barrier.wait()
            if index == 0:
                answers[0] = client.put(
                    orders_path(game_id, "blue"),
                    json={"power_cards": [13]},
                    headers=api.auth(keys["blue"]),
                )
            else:
                body = {"expected_seq": 0, "moves": [{"type": "play_power_card", "card": 5}]}
                answers[1] = client.post(
                    f"/api/games/{game_id}/moves", json=body, headers=api.auth(keys["red"])
                )

        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        order, move = answers
        assert order.status_code == 200 and move.status_code == 201, (attempt, answers)
        assert [entry[1:] for entry in log(app, game_id)] == [
            ("red", "power 5", "api"),
            ("blue", "power 13", "orders"),
        ], attempt
        assert pending(api, game_id) == ["green"]


# --- Veto windows answered in advance ----------------------------------------------------


def veto_window(app, api):
    """A game where red has planned royal_adviser's king move and blue and green, each
    holding a Veto, are asked whether to let it pass."""
    game_id, keys = start(api)
    with app.app_context():
        seed = db.session.get(Game, game_id).seed
        db.session.remove()
    board = empty_board(engine.new_game(COLOURS, seed=seed))
    board = set_caballeros(board, "red", court=5)
    state = acting(board, "red", "royal_adviser", stack=4, vetoes=("blue", "green"))
    from engine.data import NEIGHBOURS

    state, _ = engine.apply(
        state, "red", {"type": "move_king", "to": sorted(NEIGHBOURS[state.king])[0]}
    )
    state, _ = (
        engine.apply(state, "red", {"type": "end_special"}) if _can_end(state) else (state, [])
    )
    put_state(app, game_id, state)
    return game_id, keys, state


def _can_end(state):
    return any(m["type"] == "end_special" for m in engine.legal_moves(state, "red"))


def test_veto_allow_answers_a_window_at_once_and_veto_ask_stops_it(app, api):
    game_id, keys, state = veto_window(app, api)
    assert sorted(pending(api, game_id)) == ["blue", "green"]
    given = give(api, game_id, keys, "blue", {"veto": "allow"})
    assert given.status_code == 200, given.get_json()
    assert given.get_json()["played"] == ["allow"] and given.get_json()["veto"] == "allow"
    assert pending(api, game_id) == ["green"]
    assert log(app, game_id)[-1][1:] == ("blue", "allow", "orders")
    # Standing for the round: it is said again as it stands, and `ask` undoes it.
    assert api.get(orders_path(game_id, "blue"), keys["blue"]).get_json()["veto"] == "allow"
    assert give(api, game_id, keys, "blue", {"veto": "ask"}).get_json()["veto"] == "ask"
    assert give(api, game_id, keys, "green", {"veto": "ask"}).get_json()["played"] == []
    assert pending(api, game_id) == ["green"]


def test_a_standing_allow_answers_the_window_the_move_opens(app, api):
    game_id, keys = start(api)
    with app.app_context():
        seed = db.session.get(Game, game_id).seed
        db.session.remove()
    board = set_caballeros(empty_board(engine.new_game(COLOURS, seed=seed)), "red", court=5)
    state = acting(board, "red", "royal_adviser", stack=4, vetoes=("blue", "green"))
    put_state(app, game_id, state)
    for colour in ("blue", "green"):
        assert give(api, game_id, keys, colour, {"veto": "allow"}).get_json()["played"] == []
    from engine.data import NEIGHBOURS

    seq = api.get(f"/api/games/{game_id}").get_json()["seq"]
    to = sorted(NEIGHBOURS[state.king])[0]
    response = api.post_moves(game_id, keys["red"], [{"type": "move_king", "to": to}], seq)
    assert response.status_code == 201, response.get_json()
    sources = [(c, m, s) for _, c, m, s in log(app, game_id)]
    assert ("blue", "allow", "orders") in sources and ("green", "allow", "orders") in sources
    assert "blue" not in pending(api, game_id) and "green" not in pending(api, game_id)


# --- Secrecy -----------------------------------------------------------------------------


def test_no_reader_sees_anothers_orders(app, api):
    game_id, keys = start(api)
    views = {c: api.get(f"/api/games/{game_id}", keys[c]) for c in COLOURS}
    public = api.get(f"/api/games/{game_id}")
    with app.app_context():
        outbox_before = db.session.execute(
            sa.select(sa.func.count()).select_from(Notification)
        ).scalar()
    assert (
        give(api, game_id, keys, "green", {"power_cards": [13, 4], "veto": "allow"}).status_code
        == 200
    )
    # Every other reader's view is the same, to its ETag; the public view too; no mail is
    # queued (so none goes out sooner or later because of it).
    for colour in ("red", "blue"):
        again = api.get(f"/api/games/{game_id}", keys[colour])
        assert again.get_json() == views[colour].get_json()
        assert again.headers["ETag"] == views[colour].headers["ETag"]
    assert api.get(f"/api/games/{game_id}").get_json() == public.get_json()
    with app.app_context():
        after = db.session.execute(sa.select(sa.func.count()).select_from(Notification)).scalar()
        assert after == outbox_before
        stored = db.session.execute(sa.select(Order.colour, Order.power_cards)).all()
        assert [(c, list(p)) for c, p in stored] == [("green", [13, 4])]
    for colour in ("red", "blue"):
        text = api.get(f"/api/games/{game_id}/log", keys[colour]).get_data(as_text=True)
        assert "orders" not in text
    app.extensions["pbem_state_cache"] = StateCache()


# --- A decision answered and opened again in one transaction -----------------------------


def finish_turn(app, game_id, colour):
    """The seat's whole turn, as the engine's default moves (through the play function)."""
    from pbem import play
    from pbem.game.seating import Actor
    from pbem.play.due import plan_for

    def plan(state, acting):
        return plan_for(state, acting, "turn", None)

    with app.app_context():
        outcome = play.submit(Actor.scheduler(colour), game_id, None, plan, source="api")
        db.session.remove()
    return outcome


def test_a_turn_that_orders_bring_back_at_once_is_a_new_decision(app, api):
    from datetime import UTC, datetime, timedelta

    from pbem.clock import set_now
    from pbem.store.models import Deadline

    t0 = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
    set_now(app, t0)
    game_id, keys = start(api)
    for seq, (colour, card) in enumerate((("red", 1), ("blue", 2), ("green", 3))):
        power(api, game_id, keys, colour, card, seq)
    for colour, cards in (("red", [13]), ("blue", [12]), ("green", [11])):
        assert give(api, game_id, keys, colour, {"power_cards": cards}).status_code == 200
    assert pending(api, game_id) == ["green"]
    finish_turn(app, game_id, "green")
    finish_turn(app, game_id, "blue")
    later = t0 + timedelta(hours=30)
    set_now(app, later)
    with app.app_context():
        last_mail = db.session.execute(sa.select(sa.func.max(Notification.id))).scalar()
    outcome = finish_turn(app, game_id, "red")
    # Red's turn ended round 1; the three orders played round 2's power cards, and red, with
    # the 13, has the first turn: a new decision, mailed, with a deadline from now.
    assert sorted(m["card"] for _, m in outcome.ordered) == [11, 12, 13]
    assert pending(api, game_id) == ["red"]
    with app.app_context():
        opened = db.session.execute(
            sa.select(Deadline.opened_at).where(Deadline.game_id == game_id)
        ).scalar_one()
        decisions = (
            db.session.execute(
                sa.select(Notification.payload)
                .where(Notification.kind == "decision", Notification.id > last_mail)
                .order_by(Notification.id)
            )
            .scalars()
            .all()
        )
        db.session.remove()
    assert opened == later
    assert [(d["colour"], d["decision"]["kind"]) for d in decisions] == [("red", "turn")]
    set_now(app, None)


def test_a_seat_given_to_someone_else_loses_its_orders(app, api):
    game_id, keys = start(api)
    assert (
        give(api, game_id, keys, "blue", {"power_cards": [13], "veto": "allow"}).status_code == 200
    )
    newcomer = api.register("newcomer@example.org", "Newcomer")
    response = api.client.put(
        f"/api/games/{game_id}/seats/blue",
        json={"email": "newcomer@example.org"},
        headers=api.auth(keys["red"]),
    )
    assert response.status_code == 200, response.get_json()
    mine = api.get(orders_path(game_id, "blue"), newcomer).get_json()
    assert mine["power_cards"] == [] and mine["veto"] == "ask"
    # The old holder's order does not play for the new one.
    power(api, game_id, keys, "red", 5, 0)
    assert pending(api, game_id) == ["blue"]
