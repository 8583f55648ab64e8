"""End to end: whole games over HTTP, each seat through its own key."""

import random

import pytest

import engine
from tests.server.helpers import play_random_game, replay_record

COLOURS = ["red", "yellow", "green", "blue", "brown"]


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (5, 12)])
def test_whole_game_scores_match_the_replayed_record(api, players, seed):
    game_id, keys = api.new_game(COLOURS[:players])
    played = play_random_game(api, game_id, keys, random.Random(seed))

    final = api.get(f"/api/games/{game_id}", keys["red"]).get_json()
    assert final["status"] == "finished"
    assert final["seq"] == played
    record = api.get(f"/api/games/{game_id}/record").get_json()
    assert [m["seq"] for m in record["moves"]] == list(range(1, played + 1))
    replayed = replay_record(record)
    assert engine.is_over(replayed)
    expected = engine.scores(replayed)
    assert {c: final["players"][c]["score"] for c in COLOURS[:players]} == expected
    assert record["scores"] == expected


def test_the_game_list_says_whose_move_it_is(api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    view = api.get(f"/api/games/{game_id}").get_json()
    to_move = {p["player"] for p in view["pending"]}
    for colour, key in keys.items():
        (summary,) = api.get("/api/games", key).get_json()["games"]
        assert summary["id"] == game_id
        assert summary["colour"] == colour
        assert summary["colours"] == [colour]
        assert summary["admin"] == (colour == "red")
        assert set(summary["to_move"]) == to_move
        assert summary["your_turn"] == (colour in to_move)


def test_states_give_each_seat_its_view_as_it_was(api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    seen = []
    rng = random.Random(5)
    for _ in range(12):
        view = api.get(f"/api/games/{game_id}").get_json()
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        response = api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"])
        assert response.status_code == 201
        seen.append((colour, response.get_json()["view"]))
    for colour, view in seen:
        assert api.get(f"/api/games/{game_id}/states/{view['seq']}", keys[colour]).get_json() == {
            **view,
            "status": "active",
        }
    public = api.get(f"/api/games/{game_id}/states/0").get_json()
    state = engine.new_game(["red", "blue", "green"], seed=0)
    assert public["seq"] == 0
    assert set(public) >= set(engine.view(state, None))
