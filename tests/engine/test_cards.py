"""Every card type's special action: what it does, and a move it refuses."""

import pytest

import engine
from engine.data import CARD_STACKS
from tests.engine.helpers import (
    acting,
    empty_board,
    play,
    refuse,
    set_caballeros,
    special_events,
    step_quickly,
)

THREE = ["red", "blue", "green"]


@pytest.fixture
def board():
    """Seed 1, emptied: king in aragon; grandes red old_castile, blue catalonia, green galicia."""
    state = empty_board(engine.new_game(THREE, seed=1))
    state = set_caballeros(state, "red", seville=3, granada=2, aragon=1, court=5)
    state = set_caballeros(state, "blue", seville=2, valencia=4, aragon=2, court=6)
    return set_caballeros(state, "green", granada=3, galicia=1, castillo=2, court=3)


def here(state, colour, place):
    return state.caballeros[colour][place]


# -- stack 1: intrigue ---------------------------------------------------------------------


def test_intrigue_own_region_takes_all_out_and_some_may_go_back(board):
    state = acting(board, "red", "intrigue_own_region")
    refuse(state, "red", {"type": "special_region", "region": "aragon"}, "leave the king's region")
    refuse(state, "red", {"type": "special_region", "region": "valencia"}, "no caballeros in")
    state, _ = play(
        state,
        ("red", {"type": "special_region", "region": "seville"}),
        ("red", {"type": "move_caballero", "colour": "red", "from": "seville", "to": "castillo"}),
    )
    refuse(state, "red", {"type": "end_special"}, "Place every caballero")
    refuse(
        state,
        "red",
        {"type": "move_caballero", "colour": "red", "from": "seville", "to": "aragon"},
        "enter the king's region",
    )
    refuse(
        state,
        "red",
        {"type": "move_caballero", "colour": "blue", "from": "seville", "to": "granada"},
        "your own caballeros only",
    )
    state, events = play(
        state,
        ("red", {"type": "move_caballero", "colour": "red", "from": "seville", "to": "seville"}),
        ("red", {"type": "move_caballero", "colour": "red", "from": "seville", "to": "galicia"}),
    )
    assert special_events(events) == [
        {
            "type": "special_action",
            "player": "red",
            "card": "intrigue_own_region",
            "vetoed_from": None,
        }
    ]
    assert (
        here(state, "red", "seville"),
        here(state, "red", "castillo"),
        here(state, "red", "galicia"),
    ) == (1, 1, 1)


def test_intrigue_court_two_places_anywhere_but_the_kings_region(board):
    state = acting(board, "red", "intrigue_court_two")
    refuse(state, "red", {"type": "special_place", "to": "aragon"}, "enter the king's region")
    state, _ = play(
        state,
        ("red", {"type": "place", "to": "new_castile"}),
        ("red", {"type": "special_place", "to": "galicia"}),
    )
    refuse(state, "red", {"type": "place", "to": "valencia"}, "special action is under way")
    state, events = play(state, ("red", {"type": "special_place", "to": "seville"}))
    # 1 next to the king + 2 anywhere: three from court in all; the turn is over.
    assert here(state, "red", "galicia") == 1 and here(state, "red", "seville") == 4
    assert here(state, "red", "court") == 2
    assert {"type": "turn_ended", "player": "red"} in events


def test_intrigue_either_card_needs_its_option_first(board):
    state = acting(board, "red", "intrigue_court_two_or_own_region")
    refuse(state, "red", {"type": "special_place", "to": "galicia"}, "First choose")
    refuse(state, "red", {"type": "special_option", "option": "both"}, "court_two or own_region")
    state, _ = play(state, ("red", {"type": "special_option", "option": "own_region"}))
    refuse(state, "red", {"type": "special_place", "to": "galicia"}, "not a move of the own_region")
    state, _ = play(
        state,
        ("red", {"type": "special_region", "region": "granada"}),
        ("red", {"type": "move_caballero", "colour": "red", "from": "granada", "to": "valencia"}),
        ("red", {"type": "move_caballero", "colour": "red", "from": "granada", "to": "valencia"}),
    )
    assert here(state, "red", "valencia") == 2 and here(state, "red", "granada") == 0


def test_intrigue_five_from_one_region_any_colours_up_to_five(board):
    state = acting(board, "red", "intrigue_five_from_region")
    refuse(state, "red", {"type": "special_region", "region": "castillo"}, "leave the castillo")
    state, _ = play(state, ("red", {"type": "special_region", "region": "seville"}))
    refuse(
        state,
        "red",
        {"type": "move_caballero", "colour": "blue", "from": "valencia", "to": "granada"},
        "out of seville only",
    )
    for colour in ("blue", "blue", "red", "red", "red"):
        state, events = play(
            state,
            (
                "red",
                {
                    "type": "move_caballero",
                    "colour": colour,
                    "from": "seville",
                    "to": "new_castile",
                },
            ),
        )
    assert here(state, "blue", "new_castile") == 2 and here(state, "red", "new_castile") == 3
    assert special_events(events)  # the fifth move ended the plan by itself


def test_intrigue_five_may_stop_early(board):
    state = acting(board, "red", "intrigue_five_from_region")
    state, events = play(
        state,
        ("red", {"type": "special_region", "region": "valencia"}),
        ("red", {"type": "move_caballero", "colour": "blue", "from": "valencia", "to": "castillo"}),
        ("red", {"type": "end_special"}),
    )
    assert here(state, "blue", "castillo") == 1 and special_events(events)


def test_intrigue_three_foreign_refuses_own(board):
    state = acting(board, "red", "intrigue_three_foreign")
    refuse(
        state,
        "red",
        {"type": "move_caballero", "colour": "red", "from": "seville", "to": "galicia"},
        "does not move your own",
    )
    state, _ = play(
        state,
        ("red", {"type": "move_caballero", "colour": "green", "from": "granada", "to": "seville"}),
        ("red", {"type": "end_special"}),
    )
    assert here(state, "green", "seville") == 1


def test_intrigue_three_any_stops_at_three(board):
    state = acting(board, "red", "intrigue_three_any")
    move = {"type": "move_caballero", "colour": "blue", "from": "valencia", "to": "galicia"}
    state, _ = play(state, ("red", move), ("red", move))
    refuse(
        state,
        "red",
        {"type": "move_caballero", "colour": "blue", "from": "aragon", "to": "galicia"},
        "leave the king's region",
    )
    state, events = play(state, ("red", move))
    assert here(state, "blue", "galicia") == 3 and special_events(events)


def test_intrigue_two_own_two_foreign_is_carried_out_whole(board):
    state = acting(board, "red", "intrigue_two_own_two_foreign")
    own = {"type": "move_caballero", "colour": "red", "from": "seville", "to": "valencia"}
    # A caballero may go back where it came from (Italian rule 4).
    back = {"type": "move_caballero", "colour": "red", "from": "valencia", "to": "seville"}
    state, _ = play(state, ("red", own), ("red", back))
    refuse(state, "red", own, "moves 2 caballeros of your own, no more")
    refuse(state, "red", {"type": "end_special"}, "carried out whole")
    refuse(state, "red", {"type": "end_turn"}, "carried out whole")
    foreign = {"type": "move_caballero", "colour": "blue", "from": "valencia", "to": "castillo"}
    state, events = play(state, ("red", foreign), ("red", foreign))
    assert here(state, "red", "seville") == 3 and here(state, "blue", "castillo") == 2
    assert special_events(events)


def test_intrigue_four_own_refuses_foreign_and_castillo_sources(board):
    state = acting(board, "green", "intrigue_four_own")
    refuse(
        state,
        "green",
        {"type": "move_caballero", "colour": "red", "from": "seville", "to": "galicia"},
        "does not move your opponents",
    )
    refuse(
        state,
        "green",
        {"type": "move_caballero", "colour": "green", "from": "castillo", "to": "galicia"},
        "leave the castillo only at general scoring",
    )
    state, _ = play(
        state,
        (
            "green",
            {"type": "move_caballero", "colour": "green", "from": "granada", "to": "castillo"},
        ),
        ("green", {"type": "end_special"}),
    )
    assert here(state, "green", "castillo") == 3


def test_intrigue_four_any_moves_into_the_castillo(board):
    state = acting(board, "blue", "intrigue_four_any")
    move = {"type": "move_caballero", "colour": "red", "from": "granada", "to": "castillo"}
    state, _ = play(state, ("blue", move), ("blue", move))
    refuse(state, "blue", move, "no red caballero in granada")
    state, _ = play(state, ("blue", {"type": "end_special"}))
    assert here(state, "red", "castillo") == 2 and here(state, "red", "granada") == 0


# -- stack 2 ---------------------------------------------------------------------------------


def test_veto_is_kept_and_expires_at_the_end_of_the_next_round(board):
    state = acting(board, "red", "veto", stack=2)
    state, events = play(state, ("red", {"type": "do_special"}), ("red", {"type": "end_turn"}))
    assert {"type": "veto_kept", "player": "red"} in events
    assert "veto" not in state.action_discards  # kept before its player, not laid aside
    assert engine.view(state, None)["veto"]["holders"] == [{"player": "red", "expires": 2}]
    # Played to the end of round 2 without using it, it is laid aside.
    expired = []
    while state.round < 3 and not expired:
        state, events = step_quickly(state)
        expired = [e for e in events if e["type"] == "veto_expired"]
        if state.round == 2 and engine.view(state, None)["phase"] == "power_cards":
            assert state.vetoes  # still held at the start of the next round
    assert expired == [{"type": "veto_expired", "player": "red"}]
    assert state.vetoes == [] and state.round == 3 and state.action_discards.count("veto") == 1


def test_decay_all_court_in_the_order_the_acting_player_chooses(board):
    state = acting(board, "red", "decay_all_court", stack=2)
    refuse(state, "red", {"type": "target", "player": "red"}, "hits your opponents")
    refuse(state, "red", {"type": "target", "player": "pink"}, "not a colour")
    state, events = play(state, ("red", {"type": "target", "player": "green"}))
    assert here(state, "green", "court") == 0 and here(state, "blue", "court") == 0
    assert here(state, "red", "court") == 5
    moved = [(e["player"], e["count"]) for e in events if e["type"] == "caballeros_moved"]
    assert moved == [("green", 3), ("blue", 6)]


def test_decay_three_court_takes_three_or_fewer(board):
    state = set_caballeros(board, "green", court=2)
    empty = set_caballeros(state, "green", court=0)
    empty = acting(empty, "red", "decay_three_court", stack=2)
    refuse(empty, "red", {"type": "target", "player": "green"}, "would do nothing to green")
    state = acting(state, "red", "decay_three_court", stack=2)
    state, _ = play(state, ("red", {"type": "target", "player": "blue"}))
    assert here(state, "blue", "court") == 3 and here(state, "green", "court") == 0


def test_king_rages_goes_round_from_the_left(board):
    state = acting(board, "red", "king_rages", stack=2)
    refuse(state, "red", {"type": "target", "player": "blue"}, 'start it with "special"')
    state, _ = play(state, ("red", {"type": "do_special"}))
    assert engine.pending(state) == [{"player": "blue", "kind": "king_rages"}]
    refuse(state, "green", {"type": "return_caballero", "from": "court"}, "blue's to return")
    refuse(state, "blue", {"type": "return_caballero", "from": "aragon"}, "king's region")
    refuse(state, "blue", {"type": "return_caballero", "from": "castillo"}, "castillo")
    state, _ = play(
        state,
        ("blue", {"type": "return_caballero", "from": "valencia"}),
        ("blue", {"type": "return_caballero", "from": "valencia"}),
        ("blue", {"type": "return_caballero", "from": "court"}),
    )
    assert engine.pending(state) == [{"player": "green", "kind": "king_rages"}]
    assert here(state, "blue", "valencia") == 4  # nothing happens until every return is in
    refuse(state, "green", {"type": "return_caballero", "from": "seville"}, "no caballero left")
    state, events = play(state, *[("green", {"type": "return_caballero", "from": "granada"})] * 3)
    assert here(state, "blue", "valencia") == 2 and here(state, "blue", "court") == 5
    assert here(state, "green", "granada") == 0
    assert events.index(special_events(events)[0]) < next(
        i for i, e in enumerate(events) if e["type"] == "caballeros_moved"
    )


def test_one_from_each_opponent_chosen_by_the_acting_player(board):
    state = acting(board, "red", "one_from_each_opponent", stack=2)
    refuse(
        state,
        "red",
        {"type": "remove_caballero", "colour": "red", "region": "seville"},
        "not yours",
    )
    refuse(
        state,
        "red",
        {"type": "remove_caballero", "colour": "blue", "region": "aragon"},
        "king's region",
    )
    state, _ = play(
        state, ("red", {"type": "remove_caballero", "colour": "blue", "region": "seville"})
    )
    refuse(
        state,
        "red",
        {"type": "remove_caballero", "colour": "blue", "region": "valencia"},
        "blue is done",
    )
    state, _ = play(
        state, ("red", {"type": "remove_caballero", "colour": "green", "region": "galicia"})
    )
    assert here(state, "blue", "seville") == 1 and here(state, "green", "galicia") == 0


def test_secret_two_from_region_picks_are_hidden_and_conditioned(board):
    state = set_caballeros(board, "green", granada=3, galicia=1, castillo=2)
    state = acting(state, "red", "secret_two_from_region", stack=2)
    state, _ = play(state, ("red", {"type": "target", "player": "green"}))
    assert {p["player"] for p in engine.pending(state)} == {"blue", "green"}
    refuse(state, "green", {"type": "secret_pick", "region": "galicia"}, "at least 2")
    refuse(state, "blue", {"type": "secret_pick", "region": "aragon"}, "king's region")
    refuse(state, "red", {"type": "secret_pick", "region": "seville"}, "no secret pick")
    state, events = play(
        state,
        ("blue", {"type": "secret_pick", "region": "seville"}),
        ("blue", {"type": "secret_pick", "region": "valencia"}),
    )
    assert "valencia" not in str(engine.view(state, "green")["special"])
    assert engine.view(state, "blue")["special"]["picks"]["blue"]["region"] == "valencia"
    assert all("valencia" not in str(e) for e in events)
    state, events = play(state, ("green", {"type": "secret_pick", "region": "granada"}))
    assert here(state, "blue", "valencia") == 2 and here(state, "green", "granada") == 1
    assert {
        "type": "secret_picks_revealed",
        "card": "secret_two_from_region",
        "picks": {"blue": "valencia", "green": "granada"},
    } in events


def test_secret_two_allows_a_single_when_no_region_holds_two(board):
    state = set_caballeros(board, "green", granada=1, galicia=1)
    state = acting(state, "red", "secret_two_from_region", stack=2)
    state, _ = play(
        state,
        ("red", {"type": "target", "player": "green"}),
        ("green", {"type": "secret_pick", "region": "galicia"}),
        ("blue", {"type": "secret_pick", "region": "seville"}),
    )
    assert here(state, "green", "galicia") == 0 and here(state, "blue", "seville") == 0


def test_secret_all_from_region_returns_all_there(board):
    state = acting(board, "red", "secret_all_from_region", stack=2)
    state, _ = play(state, ("red", {"type": "target", "player": "blue"}))
    refuse(state, "green", {"type": "secret_pick", "region": "seville"}, "no caballeros in")
    state, _ = play(
        state,
        ("green", {"type": "secret_pick", "region": "granada"}),
        ("blue", {"type": "secret_pick", "region": "valencia"}),
    )
    assert here(state, "green", "granada") == 0 and here(state, "blue", "valencia") == 0
    assert here(state, "green", "province") == 30 - 1 - 2 - 3


@pytest.mark.parametrize("stack", [2, 3])
def test_score_chosen_region_includes_the_kings_region_and_castillo(board, stack):
    state = acting(board, "red", "score_chosen_region", stack=stack)
    refuse(state, "red", {"type": "special_region", "region": "lisbon"}, "not a region")
    king, _ = play(state, ("red", {"type": "special_region", "region": "aragon"}))
    # aragon 5/4/1: blue 2 first (+2 king's bonus), red 1 second.
    assert engine.scores(king) == {"red": 4, "blue": 5 + 2, "green": 0}
    castle, _ = play(state, ("red", {"type": "special_region", "region": "castillo"}))
    assert engine.scores(castle) == {"red": 0, "blue": 0, "green": 5}
    assert here(castle, "green", "castillo") == 2


# -- stack 3 ---------------------------------------------------------------------------------


def test_score_four_regions_reads_the_scoreboard_lying_there(board):
    state = board.copy()
    state.mobile_scoreboards.update({"8/4/0": "galicia", "4/0/0": "granada"})
    state = acting(state, "red", "score_four_regions", stack=3)
    refuse(
        state,
        "red",
        {"type": "special_region", "region": "galicia"},
        "not a move of the score_four_regions",
    )
    state, events = play(state, ("red", {"type": "do_special"}))
    refuse(state, "red", {"type": "do_special"}, "already done")
    scored = {e["place"] for e in events if e["type"] == "score"}
    # galicia now 8/4/0 is out; granada now 4/0/0 is in; seville (4/3/1) too.
    assert scored == {"granada", "seville"}
    assert engine.scores(state) == {"red": 4 + 0, "blue": 3, "green": 4}


def test_score_five_regions_never_the_castillo(board):
    state = acting(board, "red", "score_five_regions", stack=3)
    state, events = play(state, ("red", {"type": "do_special"}))
    scored = [e["place"] for e in events if e["type"] == "score"]
    assert "castillo" not in scored and set(scored) == {"aragon", "valencia"}


def test_score_six_seven_regions(board):
    state = acting(board, "blue", "score_six_seven_regions", stack=3)
    state, events = play(state, ("blue", {"type": "do_special"}))
    assert {e["place"] for e in events if e["type"] == "score"} == {"granada"}
    assert engine.scores(state) == {"red": 3, "blue": 0, "green": 6}


def test_score_castillo_leaves_its_caballeros_inside(board):
    state = acting(board, "red", "score_castillo", stack=3)
    state, _ = play(state, ("red", {"type": "do_special"}))
    assert engine.scores(state)["green"] == 5 and here(state, "green", "castillo") == 2


def test_score_first_places_only_a_sole_first_scores(board):
    state = set_caballeros(board, "blue", seville=3)  # seville: red 3, blue 3: a tie
    state = acting(state, "red", "score_first_places", stack=3)
    state, events = play(state, ("red", {"type": "do_special"}))
    scored = {(e["place"], e["player"], e["reason"]) for e in events if e["type"] == "score"}
    assert ("seville", "red", "rank") not in scored and ("seville", "blue", "rank") not in scored
    assert ("valencia", "blue", "rank") in scored and ("aragon", "blue", "king_bonus") in scored
    assert not any(place == "aragon" and who == "red" for place, who, _ in scored)  # second
    assert not any(place == "castillo" for place, _, _ in scored)


def test_score_most_caballeros_scores_every_region_tied_for_most(board):
    state = set_caballeros(board, "red", granada=3)  # granada 6, seville 5, valencia 4
    state = set_caballeros(state, "blue", valencia=6)  # valencia 6 too
    state = acting(state, "red", "score_most_caballeros", stack=3)
    state, events = play(state, ("red", {"type": "do_special"}))
    assert {e["place"] for e in events if e["type"] == "score"} == {"granada", "valencia"}


def test_score_fewest_caballeros_skips_empty_regions(board):
    state = acting(board, "red", "score_fewest_caballeros", stack=3)
    state, events = play(state, ("red", {"type": "do_special"}))
    assert {e["place"] for e in events if e["type"] == "score"} == {"galicia"}


# -- stack 4 and 5 -------------------------------------------------------------------------


def test_mobile_scoreboard_placed_then_only_moved(board):
    state = acting(board, "red", "mobile_scoreboard", stack=4)
    refuse(
        state,
        "red",
        {"type": "move_scoreboard", "scoreboard": "8/4/0", "to": "aragon"},
        "may enter the king's region",
    )
    refuse(
        state,
        "red",
        {"type": "move_scoreboard", "scoreboard": "9/9/9", "to": "seville"},
        "no mobile scoreboard",
    )
    state, _ = play(
        state, ("red", {"type": "move_scoreboard", "scoreboard": "8/4/0", "to": "castillo"})
    )
    assert engine.view(state, None)["castillo"]["scoreboard"] == [8, 4, 0]
    again = acting(state, "blue", "mobile_scoreboard", stack=4)
    refuse(
        again,
        "blue",
        {"type": "move_scoreboard", "scoreboard": "4/0/0", "to": "castillo"},
        "one may not cover the other",
    )
    refuse(
        again,
        "blue",
        {"type": "move_scoreboard", "scoreboard": "8/4/0", "to": "castillo"},
        "already lies",
    )
    moves = engine.legal_moves(again, "blue")
    assert not [m for m in moves if m["type"] == "move_scoreboard" and m["to"] in ("aragon",)]
    again, _ = play(
        again, ("blue", {"type": "move_scoreboard", "scoreboard": "8/4/0", "to": "seville"})
    )
    assert again.mobile_scoreboards == {"8/4/0": "seville", "4/0/0": None}
    stuck = again.copy()
    stuck.king = "seville"
    stuck = acting(stuck, "green", "mobile_scoreboard", stack=4)
    refuse(
        stuck,
        "green",
        {"type": "move_scoreboard", "scoreboard": "8/4/0", "to": "granada"},
        "may not leave",
    )


def test_royal_adviser_moves_the_king_one_region(board):
    state = acting(board, "red", "royal_adviser", stack=4)
    refuse(state, "red", {"type": "move_king", "to": "galicia"}, "bordering aragon")
    refuse(state, "red", {"type": "move_king", "to": "castillo"}, "never into the castillo")
    state, events = play(state, ("red", {"type": "move_king", "to": "valencia"}))
    assert state.king == "valencia" and {"type": "king_moved", "to": "valencia"} in events


def test_king_card_puts_the_king_anywhere(board):
    state = acting(board, "red", "king", stack=5)
    refuse(state, "red", {"type": "move_king", "to": "aragon"}, "already in aragon")
    state, _ = play(state, ("red", {"type": "move_king", "to": "galicia"}))
    assert state.king == "galicia"
    # Placement now follows the new king.
    targets = {m["to"] for m in engine.legal_moves(state, "red") if m["type"] == "place"}
    assert targets == {"old_castile", "basque_country", "castillo"}


def test_eviction_moves_opponents_to_secret_regions(board):
    state = acting(board, "red", "eviction", stack=4)
    refuse(state, "red", {"type": "special_region", "region": "aragon"}, "king's region")
    refuse(state, "red", {"type": "special_region", "region": "old_castile"}, "No opponent")
    state, _ = play(state, ("red", {"type": "special_region", "region": "granada"}))
    # Only green is in granada: no order to give, the pick is asked at once.
    assert engine.pending(state) == [{"player": "green", "kind": "secret_pick"}]
    refuse(state, "green", {"type": "secret_pick", "region": "granada"}, "must leave granada")
    refuse(state, "green", {"type": "secret_pick", "region": "aragon"}, "king's region")
    state, _ = play(state, ("green", {"type": "secret_pick", "region": "seville"}))
    assert here(state, "green", "seville") == 3 and here(state, "red", "granada") == 2


def test_grande_moves_but_not_into_or_out_of_the_kings_region(board):
    state = acting(board, "red", "grande", stack=4)
    refuse(state, "red", {"type": "move_grande", "to": "aragon"}, "enter the king's region")
    refuse(state, "red", {"type": "move_grande", "to": "castillo"}, "never in the castillo")
    refuse(state, "red", {"type": "move_grande", "to": "old_castile"}, "already in")
    moved, _ = play(state, ("red", {"type": "move_grande", "to": "catalonia"}))
    assert moved.grandes["red"] == "catalonia" == moved.grandes["blue"]
    stuck = board.copy()
    stuck.grandes["red"] = "aragon"
    stuck = acting(stuck, "red", "grande", stack=4)
    refuse(stuck, "red", {"type": "move_grande", "to": "seville"}, "nothing may leave")


def test_power_card_return_is_private(board):
    state = acting(board, "red", "power_card_return", stack=4)
    refuse(state, "red", {"type": "return_power_card", "card": 5}, "have not played")
    state, events = play(state, ("red", {"type": "return_power_card", "card": 13}))
    assert 13 in state.hands["red"]
    assert events[1] == {"type": "power_card_returned", "player": "red"}
    assert "13" not in str(events)
    for viewer in ("blue", "green", None):
        seen = engine.view(state, viewer)["players"]["red"]
        assert "returned_cards" not in seen and "hand" not in seen
        assert seen["power_cards_played"] == [13] and seen["hand_size"] == 13
    assert engine.view(state, "red")["players"]["red"]["returned_cards"] == [13]


def test_power_card_return_is_hidden_in_a_veto_window(board):
    state = acting(board, "red", "power_card_return", stack=4, vetoes=("blue",))
    state, _ = play(state, ("red", {"type": "return_power_card", "card": 13}))
    plan = engine.view(state, "blue")["veto"]["window"]["plan"]
    assert plan == [{"step": 1, "do": "power_card_return", "colour": "red"}]
    assert engine.view(state, "red")["veto"]["window"]["plan"][0]["card"] == 13
    assert engine.pending(state)[0]["plan"] == plan  # blue's notice hides the card too


def test_court_two_from_province(board):
    state = acting(board, "red", "court_two", stack=4)
    state, _ = play(state, ("red", {"type": "do_special"}))
    assert here(state, "red", "court") == 7
    refuse(state, "red", {"type": "do_special"}, "already done")


def test_secret_scoring_skips_regions_picked_twice(board):
    state = acting(board, "red", "secret_scoring", stack=4)
    state, _ = play(state, ("red", {"type": "do_special"}))
    assert {p["player"] for p in engine.pending(state)} == set(THREE)
    refuse(state, "red", {"type": "secret_pick", "region": "castillo"}, "not a region")
    state, events = play(
        state,
        ("red", {"type": "secret_pick", "region": "seville"}),
        ("blue", {"type": "secret_pick", "region": "seville"}),
        ("green", {"type": "secret_pick", "region": "aragon"}),
    )
    assert {e["place"] for e in events if e["type"] == "score"} == {"aragon"}


def test_skipping_a_special_action_does_nothing(board):
    state = acting(board, "red", "decay_all_court", stack=2)
    state, events = play(state, ("red", {"type": "skip_special"}))
    assert here(state, "blue", "court") == 6 and not special_events(events)
    assert {"type": "special_skipped", "player": "red", "card": "decay_all_court"} in events
    refuse(state, "red", {"type": "target", "player": "blue"}, "already done")


def test_a_card_move_that_belongs_to_another_card_is_refused(board):
    state = acting(board, "red", "court_two", stack=4)
    refuse(state, "red", {"type": "move_king", "to": "galicia"}, "not a move of the court_two")


def test_the_either_card_offers_only_an_option_that_can_do_something(board):
    # Red's only caballeros on the board stand in aragon, the king's region.
    state = set_caballeros(board, "red", seville=0, granada=0)
    state = acting(state, "red", "intrigue_court_two_or_own_region")
    options = [
        m["option"] for m in engine.legal_moves(state, "red") if m["type"] == "special_option"
    ]
    assert options == ["court_two"]
    refuse(
        state,
        "red",
        {"type": "special_option", "option": "own_region"},
        "no caballeros in a region they may leave",
    )


def _positions():
    """Boards from random games, plus a bare one where the actor has nothing anywhere."""
    from engine.bots import RandomBot

    out = []
    for seed in range(8):
        state = engine.new_game(
            ["red", "yellow", "green", "blue", "brown"][: 2 + seed % 4], seed=seed
        )
        bot = RandomBot(seed)
        for step in range(400):
            if engine.is_over(state) or state.phase != "power_cards" and step > 40 * (1 + seed):
                break
            player = engine.pending(state)[0]["player"]
            state, _ = engine.apply(state, player, bot.choose(state, player))
        if state.phase == "power_cards":
            out.append(state)
    bare = empty_board(engine.new_game(THREE, seed=3))
    for colour in THREE:
        bare = set_caballeros(bare, colour, court=0)
    return out + [bare]


@pytest.mark.parametrize("card", sorted(CARD_STACKS))
def test_no_special_action_can_leave_a_player_without_a_move(card):
    """Every card, from varied boards, played at random to the end of the turn: whoever is
    pending always has a legal move, and the turn always ends."""
    from engine.bots import RandomBot

    bot = RandomBot(len(card))
    for board_ in _positions():
        actor = board_.colours[0]
        holders = tuple(board_.colours[1:2])
        start = acting(board_, actor, card, stack=min(CARD_STACKS[card]), vetoes=holders)
        # Every first move (each option, region, target...), then random moves after it.
        for first in engine.legal_moves(start, actor):
            state, _ = engine.apply(start, actor, first)
            for _step in range(200):
                if state.turn is None or state.turn["player"] != actor:
                    break
                waiting = engine.pending(state)
                assert waiting
                player = waiting[0]["player"]
                moves = engine.legal_moves(state, player)
                assert moves, (card, first, waiting, state.special)
                state, _ = engine.apply(state, player, bot.choose(state, player))
            else:
                raise AssertionError(f"{card}: the turn never ended")
