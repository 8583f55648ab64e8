"""Scoring a place: the rule books' worked examples and the bonuses."""

import engine
from engine.scoring import rank_points, score_place, scoreboard
from tests.engine.helpers import empty_board, set_caballeros

FIVE = ["red", "yellow", "green", "blue", "brown"]


def points(counts, values, players=5):
    return {colour: pts for colour, _rank, pts in rank_points(counts, values, players)}


def test_three_tie_for_first_all_take_second_value():
    # 5/3/1: red, blue, yellow 4 each, green 3 -> 3, 3, 3, 1 (English and Italian books).
    assert points({"red": 4, "blue": 4, "yellow": 4, "green": 3}, (5, 3, 1)) == {
        "red": 3,
        "blue": 3,
        "yellow": 3,
        "green": 1,
    }


def test_tie_after_two_places_slides_to_fourth():
    # 6/4/2: red 4, blue 3, yellow and green 2 -> 6, 4, 0, 0.
    assert points({"red": 4, "blue": 3, "yellow": 2, "green": 2}, (6, 4, 2)) == {
        "red": 6,
        "blue": 4,
        "yellow": 0,
        "green": 0,
    }


def test_tie_for_second_takes_third_value_and_pushes_next_to_fourth():
    # Italian book, 4/3/1: red 4, blue and yellow 3, green 2 -> 4, 1, 1, 0.
    assert points({"red": 4, "blue": 3, "yellow": 3, "green": 2}, (4, 3, 1)) == {
        "red": 4,
        "blue": 1,
        "yellow": 1,
        "green": 0,
    }


def test_player_limits_two_and_three_players():
    assert points({"red": 3, "blue": 1}, (6, 4, 2), players=2) == {"red": 6, "blue": 0}
    assert points({"red": 3, "blue": 2, "green": 1}, (6, 4, 2), players=3) == {
        "red": 6,
        "blue": 4,
        "green": 0,
    }
    # Two tied for first in a 3-player game take the second value.
    assert points({"red": 2, "blue": 2, "green": 1}, (6, 4, 2), players=3) == {
        "red": 4,
        "blue": 4,
        "green": 0,
    }
    # In a 2-player game a tie for first scores nothing.
    assert points({"red": 2, "blue": 2}, (6, 4, 2), players=2) == {"red": 0, "blue": 0}


def test_no_caballeros_no_points():
    assert points({"red": 0, "blue": 2}, (5, 3, 1)) == {"blue": 5}


def _board(king="galicia"):
    state = engine.new_game(FIVE, seed=11)
    state = empty_board(state)
    state.king = king
    state.grandes = {c: "seville" for c in FIVE}
    return state


def test_king_bonus_to_a_sole_first_place():
    state = set_caballeros(_board(king="old_castile"), "red", old_castile=3)
    state = set_caballeros(state, "blue", old_castile=2)
    events = score_place(state, "old_castile")
    assert state.scores["red"] == 6 + 2 and state.scores["blue"] == 4
    assert {
        "type": "score",
        "player": "red",
        "points": 2,
        "place": "old_castile",
        "reason": "king_bonus",
    } in events


def test_king_bonus_lost_on_a_tie_for_first():
    state = set_caballeros(_board(king="old_castile"), "red", old_castile=3)
    state = set_caballeros(state, "blue", old_castile=3)
    events = score_place(state, "old_castile")
    assert state.scores["red"] == 4 and state.scores["blue"] == 4
    assert not [e for e in events if e["reason"] != "rank"]


def test_home_bonus_to_the_grandes_sole_first_place_only():
    state = _board()
    state.grandes["red"] = "granada"
    state = set_caballeros(state, "red", granada=2)
    state = set_caballeros(state, "blue", granada=1)
    state.grandes["blue"] = "granada"
    events = score_place(state, "granada")
    assert state.scores == {"red": 6 + 2, "yellow": 0, "green": 0, "blue": 3, "brown": 0}
    assert [e["reason"] for e in events] == ["rank", "home_bonus", "rank"]


def test_home_bonus_lost_on_a_tie_even_for_two_grandes_there():
    state = _board()
    state.grandes.update(red="granada", blue="granada")
    state = set_caballeros(state, "red", granada=2)
    state = set_caballeros(state, "blue", granada=2)
    score_place(state, "granada")
    assert state.scores["red"] == 3 and state.scores["blue"] == 3


def test_castillo_has_no_bonus_and_its_own_scoreboard():
    state = _board()
    state.grandes["red"] = "castillo"  # impossible in play; shows no home bonus is read there
    state = set_caballeros(state, "red", castillo=4)
    events = score_place(state, "castillo")
    assert events == [
        {"type": "score", "player": "red", "points": 5, "place": "castillo", "reason": "rank"}
    ]


def test_a_mobile_scoreboard_replaces_the_printed_one():
    state = _board()
    assert scoreboard(state, "granada") == (6, 3, 1)
    state.mobile_scoreboards["4/0/0"] = "granada"
    assert scoreboard(state, "granada") == (4, 0, 0)
    state = set_caballeros(state, "red", granada=2)
    state = set_caballeros(state, "blue", granada=1)
    score_place(state, "granada")
    assert state.scores["red"] == 4 and state.scores["blue"] == 0
