"""Submitting moves: sequence numbers, whole batches, idempotency, dry runs."""

import sqlalchemy as sa

import engine
from pbem.extensions import db
from pbem.store.models import Game, Notification, Player
from tests.server.conftest import assert_problem, table_snapshot
from tests.server.helpers import stored_state


def first_turn(api, game_id, keys):
    """The seat that must act first, its legal moves and the seq they belong to."""
    view = api.get(f"/api/games/{game_id}").get_json()
    colour = view["pending"][0]["player"]
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    return colour, legal["moves"], legal["seq"]


def test_a_stale_expected_seq_is_refused_and_changes_nothing(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = first_turn(api, game_id, keys)
    assert api.post_moves(game_id, keys[colour], [moves[0]], seq).status_code == 201
    colour, moves, _ = first_turn(api, game_id, keys)
    before = table_snapshot(app)
    body = assert_problem(api.post_moves(game_id, keys[colour], [moves[0]], seq), 409)
    assert body["seq"] == seq + 1
    assert "seq 1" in body["detail"]
    assert table_snapshot(app) == before


def test_a_batch_with_one_illegal_move_plays_none(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = first_turn(api, game_id, keys)
    before = table_snapshot(app)
    batch = [moves[0], {"type": "play_power_card", "card": 99}]
    body = assert_problem(api.post_moves(game_id, keys[colour], batch, seq), 422)
    assert body["type"] == "/problems/illegal-move"
    assert "Move 2 of 2" in body["detail"] and "Nothing was played" in body["detail"]
    assert table_snapshot(app) == before
    assert api.get(f"/api/games/{game_id}").get_json()["seq"] == seq


def test_a_batch_applies_whole_in_order(api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = first_turn(api, game_id, keys)
    # After a power card the same seat usually goes on; build the batch through the engine.
    state = api_state(api, game_id)
    batch = [moves[0]]
    state, _ = engine.apply(state, colour, moves[0])
    follow = engine.legal_moves(state, colour)
    if follow:
        batch.append(follow[-1])
    response = api.post_moves(game_id, keys[colour], batch, seq)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["seq"] == seq + len(batch)
    log = api.get(f"/api/games/{game_id}/log", keys[colour]).get_json()["moves"]
    assert [entry["move"] for entry in log] == batch
    assert all(entry["player"] == colour for entry in log)


def api_state(api, game_id):
    """The engine state behind a game, rebuilt from the database rows (test-only access)."""
    with api.client.application.app_context():
        return stored_state(db.session.get(Game, game_id))


def test_a_repeated_idempotency_key_gets_the_first_answer(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = first_turn(api, game_id, keys)
    first = api.post_moves(game_id, keys[colour], [moves[0]], seq, idempotency_key="turn-1")
    assert first.status_code == 201
    before = table_snapshot(app)
    again = api.post_moves(game_id, keys[colour], [moves[0]], seq, idempotency_key="turn-1")
    assert again.status_code == 201
    assert again.get_json() == first.get_json()
    assert table_snapshot(app) == before

    # The same key with another request is a mistake, not a replay.
    other = api.post_moves(game_id, keys[colour], [moves[-1]], seq, idempotency_key="turn-1")
    body = assert_problem(other, 422)
    assert "Idempotency-Key" in body["detail"]
    assert table_snapshot(app) == before


def test_a_dry_run_shows_the_result_and_commits_nothing(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = first_turn(api, game_id, keys)
    before = table_snapshot(app)
    dry = api.post_moves(game_id, keys[colour], [moves[0]], seq, dry_run=True)
    assert dry.status_code == 200
    assert dry.get_json()["dry_run"] is True
    assert dry.get_json()["seq"] == seq + 1
    assert table_snapshot(app) == before
    real = api.post_moves(game_id, keys[colour], [moves[0]], seq)
    assert real.status_code == 201
    assert {k: v for k, v in dry.get_json().items() if k != "dry_run"} == real.get_json()


def test_a_finished_or_aborted_game_takes_no_moves(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    colour, moves, seq = first_turn(api, game_id, keys)
    assert_problem(
        api.client.post(f"/api/games/{game_id}/abort", headers=api.auth(keys["blue"])), 403
    )
    response = api.client.post(f"/api/games/{game_id}/abort", headers=api.auth(keys["red"]))
    assert response.status_code == 200 and response.get_json()["status"] == "aborted"
    before = table_snapshot(app)
    body = assert_problem(api.post_moves(game_id, keys[colour], [moves[0]], seq), 409)
    assert "aborted" in body["detail"]
    assert api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()["moves"] == []
    assert table_snapshot(app) == before


def test_the_admin_gives_a_seat_to_another_player(api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    newcomer = api.register("newcomer@example.org", "Newcomer")
    assert_problem(
        api.client.put(
            f"/api/games/{game_id}/seats/blue",
            json={"email": "newcomer@example.org"},
            headers=api.auth(keys["green"]),
        ),
        403,
    )
    response = api.client.put(
        f"/api/games/{game_id}/seats/blue",
        json={"email": "newcomer@example.org"},
        headers=api.auth(keys["red"]),
    )
    assert response.status_code == 200
    blue = {"colour": "blue", "name": "Newcomer", "invited": False, "declined": False, "bot": False}
    seats = response.get_json()["seats"]
    assert blue in [{k: v for k, v in seat.items() if k != "player_id"} for seat in seats]
    # The old key lost the seat, the new one has it.
    assert_problem(api.get(f"/api/games/{game_id}/legal-moves", keys["blue"]), 403)
    legal = api.get(f"/api/games/{game_id}/legal-moves", newcomer).get_json()
    assert legal["colour"] == "blue"


def test_registering_a_known_address_answers_as_for_a_new_one(app, api):
    """The answer says nothing of who plays here, and hands out no key: the address's owner
    gets a link, and the player stays as it was until they follow it."""
    key = api.register("someone@example.org", "Someone")
    known = api.client.post("/api/players", json={"email": "Someone@example.org", "name": "Again"})
    new = api.client.post("/api/players", json={"email": "nobody@example.org", "name": "New"})
    assert known.status_code == new.status_code == 202
    assert "api_key" not in known.get_json() and "api_key" not in new.get_json()
    said = [r.get_json()["detail"].lower() for r in (known, new)]
    assert said[0].replace("someone", "x") == said[1].replace("nobody", "x")
    assert api.get("/api/games", key).status_code == 200  # the key still works
    with app.app_context():
        names = db.session.execute(sa.select(Player.email, Player.name)).all()
        mailed = db.session.execute(sa.select(Notification.recipient)).scalars().all()
    assert sorted(names) == [("someone@example.org", "Someone")]
    assert sorted(mailed) == ["nobody@example.org", "someone@example.org"]


def test_creating_a_game_checks_its_seats(app, api):
    key = api.register("host@example.org", "Host")
    api.register("guest@example.org", "Guest")
    before = table_snapshot(app)
    cases = [
        ([("guest@example.org", "red"), ("other@example.org", "blue")], "must take one"),
        ([("host@example.org", "red"), ("guest@example.org", "red")], "colour"),
        ([("host@example.org", "red"), ("host@example.org", "blue")], "own player"),
    ]
    for seats, words in cases:
        body = {"title": "t", "seats": [{"email": e, "colour": c} for e, c in seats]}
        response = api.client.post("/api/games", json=body, headers=api.auth(key))
        assert words in assert_problem(response, 422)["detail"]
    assert table_snapshot(app) == before


def to_last_turn_of_round(api, game_id, keys):
    """Play quick moves until the round's last player may end their turn (and the round)."""
    while True:
        view = api.get(f"/api/games/{game_id}").get_json()
        colour = view["pending"][0]["player"]
        turn = view["turn"]
        if turn and turn["player"] == view["turn_order"][-1] and turn["step"] == "act":
            return colour, view
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        move = next(
            (m for m in legal["moves"] if m["type"] in ("choose_card", "end_turn")),
            legal["moves"][0],
        )
        assert api.post_moves(game_id, keys[colour], [move], legal["seq"]).status_code == 201


def test_a_dry_run_never_reveals_the_next_action_cards(app, api):
    """The last player of a round must not peek at next round's cards with a dry run."""
    game_id, keys = api.new_game(["red", "blue"])
    colour, view = to_last_turn_of_round(api, game_id, keys)
    seq = view["seq"]
    before = table_snapshot(app)
    dry = api.post_moves(game_id, keys[colour], [{"type": "end_turn"}], seq, dry_run=True)
    body = dry.get_json()
    assert dry.status_code == 200 and body["dry_run"] is True and body["seq"] == seq + 1
    assert body["events"] == [] and "reveal hidden information" in body["withheld"]
    assert body["view"]["action_cards"] == view["action_cards"] and body["view"]["seq"] == seq
    assert table_snapshot(app) == before
    real = api.post_moves(game_id, keys[colour], [{"type": "end_turn"}], seq).get_json()
    assert any(e["type"] == "round_started" for e in real["events"])
    assert real["view"]["action_cards"] != view["action_cards"]


def test_a_refused_batch_tells_nothing_a_move_in_it_uncovered(app, api):
    """[end the round, choose a card] refused must not list the next round's cards."""
    game_id, keys = api.new_game(["red", "blue"])
    colour, view = to_last_turn_of_round(api, game_id, keys)
    before = table_snapshot(app)
    batch = [{"type": "end_turn"}, {"type": "choose_card", "card": "flying_carpet"}]
    body = assert_problem(api.post_moves(game_id, keys[colour], batch, view["seq"]), 422)
    assert "which uncovers the next round's action cards" in body["detail"]
    assert "stack" not in body["detail"] and "flying_carpet" not in body["detail"]
    assert table_snapshot(app) == before
