"""Setup: the draws made from the seed, the starting position, bad options."""

import pytest

import engine
from engine.data import REGIONS

FIVE = ["red", "yellow", "green", "blue", "brown"]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_position(n):
    colours = FIVE[:n]
    state = engine.new_game(colours, seed=5)
    homes = [state.grandes[c] for c in colours]
    assert len(set(homes)) == n and state.king not in homes and state.king in REGIONS
    for colour in colours:
        here = state.caballeros[colour]
        assert here["court"] == 7 and here[state.grandes[colour]] == 2
        # 30 in play: 2 at home, 7 in court, 21 in the province (one more marks the score).
        assert sum(here.values()) == 30 and here["province"] == 21
    assert engine.scores(state) == {c: 0 for c in colours}
    view = engine.view(state, None)
    assert view["round"] == 1 and view["rounds_total"] == 9 and view["phase"] == "power_cards"
    assert len(view["action_cards"]["face_up"]) == 5
    assert view["action_cards"]["face_up"][-1] == {"stack": 5, "card": "king"}


def test_same_seed_same_game_other_seed_other_game():
    a = engine.new_game(FIVE, seed=42)
    b = engine.new_game(FIVE, seed=42)
    assert a == b and engine.to_dict(a) == engine.to_dict(b)
    assert any(engine.new_game(FIVE, seed=s) != a for s in range(43, 48))


def test_setup_is_pinned_across_machines():
    # Seed 1 must always give this setup: the draws use our own generator, not `random`.
    state = engine.new_game(["red", "blue", "green"], seed=1)
    pinned = (state.king, state.grandes, state.round_start, state.face_up[1])
    assert pinned == PINNED_SEED_1


PINNED_SEED_1 = (
    "aragon",
    {"red": "old_castile", "blue": "catalonia", "green": "galicia"},
    "red",
    "intrigue_court_two",
)


def test_first_player_option_and_short_game():
    state = engine.new_game(["red", "blue"], seed=3, options={"rounds": 6, "first_player": "blue"})
    assert engine.pending(state) == [{"player": "blue", "kind": "power_card"}]
    assert state.chart == [2, 3, 5, 6, 8, 9]
    assert engine.view(state, None)["round"] == 2


@pytest.mark.parametrize(
    "colours, options, message",
    [
        (["red"], None, "2 to 5"),
        (FIVE + ["red"], None, "2 to 5"),
        (["red", "pink"], None, "Unknown colour"),
        (["red", "red"], None, "repeated"),
        (["red", "blue"], {"rounds": 7}, "9 rounds, or 6"),
        (["red", "blue"], {"first_player": "green"}, "first player"),
        (["red", "blue"], {"speed": 2}, "Unknown game option"),
        (["red", "blue"], {"rounds": []}, "9 rounds, or 6"),
        (["red", "blue"], {"rounds": True}, "9 rounds, or 6"),
        (["red", "blue"], {"variant": ["x"]}, "standard"),
        (["red", "blue"], {"first_player": ["red"]}, "first player"),
        (["red", "blue"], [("rounds", 6)], "must be an object"),
        ([["red"], "blue"], None, "Unknown colour"),
    ],
)
def test_bad_setup_is_refused_with_a_reason(colours, options, message):
    with pytest.raises(ValueError, match=message):
        engine.new_game(colours, seed=1, options=options)


def test_views_hold_the_documented_keys():
    state = engine.new_game(FIVE, seed=8)
    for viewer in [*FIVE, None]:
        view = engine.view(state, viewer)
        assert {
            "round",
            "rounds_total",
            "phase",
            "king",
            "regions",
            "castillo",
            "players",
            "action_cards",
            "veto",
            "pending",
        } <= set(view)
        assert set(view["regions"]) == set(REGIONS)
        for region in view["regions"].values():
            assert {"caballeros", "scoreboard"} <= set(region)
        assert {"caballeros", "scoreboard"} <= set(view["castillo"])
        for colour, seen in view["players"].items():
            expected = {"score", "court", "province", "grande", "power_cards_played"}
            assert expected <= set(seen)
            assert ("hand" in seen) == (colour == viewer)
        assert {"holders", "window"} <= set(view["veto"])
        assert view["pending"] == engine.pending(state)
