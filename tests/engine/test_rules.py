"""The round and the turn: what the rules allow and, above all, what they refuse."""

import pytest

import engine
from engine.data import NEIGHBOURS
from engine.driver import play_random_game
from tests.engine.helpers import (
    empty_board,
    play,
    play_power_cards,
    refuse,
    set_caballeros,
    step_quickly,
)

THREE = ["red", "blue", "green"]


@pytest.fixture
def game():
    # Seed 1: king in aragon; red home old_castile, blue catalonia, green galicia; red starts.
    return engine.new_game(THREE, seed=1)


def at_turn(state, values=None):
    values = values or {"red": 13, "blue": 9, "green": 1}
    state, _ = play_power_cards(state, values)
    return state


def test_power_cards_go_in_seat_order_from_the_starting_player(game):
    assert engine.pending(game) == [{"player": "red", "kind": "power_card"}]
    state, _ = play(game, ("red", {"type": "play_power_card", "card": 5}))
    assert engine.pending(state) == [{"player": "blue", "kind": "power_card"}]


def test_a_repeated_power_card_value_is_refused(game):
    state, _ = play(game, ("red", {"type": "play_power_card", "card": 5}))
    refuse(state, "blue", {"type": "play_power_card", "card": 5}, "red already played.*twice")
    assert {"type": "play_power_card", "card": 5} not in engine.legal_moves(state, "blue")


def test_a_power_card_out_of_turn_is_refused(game):
    refuse(game, "blue", {"type": "play_power_card", "card": 5}, "not your turn.*waiting for red")


def test_a_power_card_not_in_hand_is_refused(game):
    refuse(game, "red", {"type": "play_power_card", "card": 14}, "no power card 14")
    state = game.copy()
    state.hands["red"].remove(7)
    refuse(state, "red", {"type": "play_power_card", "card": 7}, "not in your hand")


def test_turns_go_by_power_card_highest_first_and_lowest_starts_next_round(game):
    state = at_turn(game, {"red": 2, "blue": 11, "green": 6})
    assert state.turn_order == ["blue", "green", "red"]
    assert engine.pending(state)[0] == {"player": "blue", "kind": "turn", "step": "draw"}
    while state.phase == "turn":
        player = engine.pending(state)[0]["player"]
        move = engine.legal_moves(state, player)[0]
        if move["type"] == "take_caballeros":
            move = {"type": "take_caballeros", "count": 0}
        elif move["type"] != "choose_card":
            move = {"type": "end_turn"}
        state, _ = engine.apply(state, player, move)
    assert state.round == 2
    assert engine.pending(state) == [{"player": "red", "kind": "power_card"}]


def test_drawing_is_limited_by_the_power_card_and_the_province(game):
    state = at_turn(game, {"red": 13, "blue": 9, "green": 1})  # red 13: draws 0, skips the draw
    assert engine.pending(state)[0]["step"] == "choose_card"
    state, _ = play(
        state, ("red", {"type": "choose_card", "card": "king"}), ("red", {"type": "end_turn"})
    )
    # blue played 9: up to 2.
    assert [m["count"] for m in engine.legal_moves(state, "blue")] == [2, 1, 0]
    refuse(state, "blue", {"type": "take_caballeros", "count": 3}, "at most 2")
    refuse(state, "blue", {"type": "take_caballeros", "count": -1}, "negative")
    state, events = play(state, ("blue", {"type": "take_caballeros", "count": 2}))
    assert state.caballeros["blue"]["court"] == 9 and state.caballeros["blue"]["province"] == 19
    assert {"type": "caballeros_taken", "player": "blue", "count": 2, "from": "province"} in events


def test_a_short_province_may_be_made_up_from_own_regions_but_not_the_kings(game):
    state = game.copy()
    # Blue has only 1 caballero left in the province, 3 in seville, 2 in aragon (the king's).
    state = set_caballeros(state, "blue", seville=3, aragon=2, court=7, catalonia=2)
    state = set_caballeros(state, "blue", court=7 + state.caballeros["blue"]["province"] - 1)
    assert state.caballeros["blue"]["province"] == 1
    state = at_turn(state, {"red": 13, "blue": 1, "green": 12})
    state, _ = play(
        state, ("red", {"type": "choose_card", "card": "king"}), ("red", {"type": "end_turn"})
    )
    green_card = engine.legal_moves(state, "green")[0]  # green played 12: nothing to draw
    state, _ = play(state, ("green", green_card), ("green", {"type": "end_turn"}))
    refuse(state, "blue", {"type": "take_caballeros", "count": 2}, "Only 1 of your caballeros")
    refuse(
        state,
        "blue",
        {"type": "take_from_region", "region": "seville"},
        "cannot take caballeros from a region at this point",
    )
    state, _ = play(state, ("blue", {"type": "take_caballeros", "count": 1}))
    regions = {
        m["region"] for m in engine.legal_moves(state, "blue") if m["type"] == "take_from_region"
    }
    assert regions == {"seville", "catalonia"}  # not aragon: the king's region
    refuse(
        state,
        "blue",
        {"type": "take_from_region", "region": "aragon"},
        "Nothing may leave the king's region",
    )
    refuse(state, "blue", {"type": "take_from_region", "region": "castillo"}, "not a region")
    refuse(state, "blue", {"type": "take_from_region", "region": "granada"}, "no caballeros in")
    for _ in range(5):  # power card 1 draws 6: 1 from the province, 5 from the board
        state, _ = play(
            state,
            (
                "blue",
                {"type": "take_from_region", "region": "seville"}
                if state.caballeros["blue"]["seville"]
                else {"type": "take_from_region", "region": "catalonia"},
            ),
        )
    refuse(state, "blue", {"type": "take_from_region", "region": "catalonia"}, "already taken")
    assert state.caballeros["blue"]["aragon"] == 2


@pytest.mark.parametrize(
    "king, reachable",
    [
        # English and Italian books, example 1 and 2.
        ("galicia", {"old_castile", "basque_country", "castillo"}),
        ("new_castile", {"old_castile", "seville", "granada", "valencia", "aragon", "castillo"}),
    ],
)
def test_caballeros_from_court_go_next_to_the_king_or_into_the_castillo(game, king, reachable):
    state = game.copy()
    state.king = king
    state = at_turn(state)
    state, _ = play(state, ("red", {"type": "choose_card", "card": "king"}))
    targets = {m["to"] for m in engine.legal_moves(state, "red") if m["type"] == "place"}
    assert targets == reachable
    assert NEIGHBOURS[king] | {"castillo"} == reachable
    refuse(state, "red", {"type": "place", "to": king}, "Nothing may enter the king's region")
    far = next(r for r in NEIGHBOURS if r not in reachable and r != king)
    refuse(state, "red", {"type": "place", "to": far}, "bordering the king's region")
    refuse(state, "red", {"type": "place", "to": "madrid"}, "not a region or the castillo")


def test_placement_is_limited_by_the_cards_stack_and_ends_the_turn(game):
    state = at_turn(game)
    state, _ = play(
        state, ("red", {"type": "choose_card", "card": "king"}), ("red", {"type": "skip_special"})
    )
    for _ in range(5):
        state, events = play(state, ("red", {"type": "place", "to": "castillo"}))
    assert state.caballeros["red"]["castillo"] == 5
    # Five placed and the special skipped: the turn ended by itself.
    assert {"type": "turn_ended", "player": "red"} in events
    assert engine.pending(state)[0]["player"] == "blue"


def test_a_card_not_face_up_is_refused(game):
    state = at_turn(game)
    face_up = {c["card"] for c in engine.view(state, "red")["action_cards"]["face_up"]}
    absent = next(c for c in ("veto", "grande", "eviction", "court_two") if c not in face_up)
    refuse(state, "red", {"type": "choose_card", "card": absent}, "not among this round")
    refuse(state, "red", {"type": "choose_card", "card": "flying_carpet"}, "no action card")
    refuse(
        state, "red", {"type": "choose_card", "card": "king", "stack": 2}, "not face up on stack 2"
    )
    state, _ = play(
        state, ("red", {"type": "choose_card", "card": "king"}), ("red", {"type": "end_turn"})
    )
    refuse(state, "blue", {"type": "choose_card", "card": "king"}, "at this point of your turn")


def test_leftover_action_cards_are_discarded_and_the_king_card_returns(game):
    state = at_turn(game)
    first_round = [c["card"] for c in engine.view(state, None)["action_cards"]["face_up"]]
    while state.round == 1:
        state, _ = step_quickly(state)
    assert sorted(state.action_discards) == sorted(c for c in first_round if c != "king")
    assert state.face_up[5] == "king"


def test_castillo_picks_are_secret_changeable_and_refuse_the_kings_region(game):
    state = empty_board(game)
    state = set_caballeros(state, "red", castillo=3, seville=1)
    state = set_caballeros(state, "blue", castillo=2)
    state.round_index = 2  # chart round 3: general scoring follows
    state = at_turn(state)
    while state.phase == "turn":
        state, _ = step_quickly(state)
    assert state.phase == "castillo_pick"
    assert {p["player"] for p in engine.pending(state)} == {"red", "blue"}
    refuse(state, "green", {"type": "castillo_pick", "region": "seville"}, "you have none there")
    refuse(state, "red", {"type": "castillo_pick", "region": state.king}, "king's region")
    refuse(state, "red", {"type": "castillo_pick", "region": "castillo"}, "not a region")
    state, events = play(
        state,
        ("red", {"type": "castillo_pick", "region": "granada"}),
        ("red", {"type": "castillo_pick", "region": "seville"}),
    )
    assert events == [{"type": "secret_pick_made", "player": "red", "for": "castillo"}] * 2
    assert engine.pending(state) == [{"player": "blue", "kind": "castillo_pick"}]
    blue_view = engine.view(state, "blue")
    assert blue_view["castillo_pick"]["red"] == {"picked": True}
    assert engine.view(state, "red")["castillo_pick"]["red"]["region"] == "seville"
    state, events = play(state, ("blue", {"type": "castillo_pick", "region": "seville"}))
    kinds = [(e["type"], e.get("place")) for e in events]
    # The Castillo is scored first, with its caballeros still inside, then they move,
    # then the regions in track order.
    assert kinds[:3] == [("secret_pick_made", None), ("score", "castillo"), ("score", "castillo")]
    assert kinds[3] == ("castillo_revealed", None)
    assert {"type": "castillo_revealed", "picks": {"red": "seville", "blue": "seville"}} in events
    assert state.caballeros["red"]["seville"] == 4 and state.caballeros["blue"]["seville"] == 2
    scored = [e["place"] for e in events if e["type"] == "score"]
    assert scored[:2] == ["castillo", "castillo"] and "seville" in scored
    assert state.scores["red"] >= 5 + 4 and state.scores["blue"] >= 3
    assert state.round == 4 and state.phase == "power_cards"


def test_general_scoring_without_castillo_caballeros_needs_no_pick(game):
    state = game.copy()
    state.round_index = 2
    state = at_turn(state)
    while state.phase == "turn":
        state, events = step_quickly(state)
    assert state.phase == "power_cards" and state.round == 4
    homes = {e["place"] for e in events if e["type"] == "score"}
    assert homes == {"old_castile", "catalonia", "galicia"}


def test_the_short_game_plays_chart_rounds_2_3_5_6_8_9_with_three_scorings():
    rounds, scorings = [], []
    state = engine.new_game(THREE, seed=9, options={"rounds": 6})
    view = engine.view(state, None)
    rounds.append(view["round"])
    numbers = [view["round_number"]]  # the game's own count, which people read
    assert view["scoring_rounds"] == [2, 4, 6] and view["rounds_total"] == 6
    bot_state, log = play_random_game(THREE, seed=9, options={"rounds": 6}, bot_seed=4)
    for player, move in log:
        state, events = engine.apply(state, player, move)
        rounds += [e["round"] for e in events if e["type"] == "round_started"]
        numbers += [e["round_number"] for e in events if e["type"] == "round_started"]
        scorings += [
            (e["round"], e["round_number"]) for e in events if e["type"] == "general_scoring"
        ]
        if any(e["type"] == "round_started" for e in events):
            assert engine.view(state, "red")["round_number"] == numbers[-1]
    assert rounds == [2, 3, 5, 6, 8, 9] and numbers == [1, 2, 3, 4, 5, 6]
    assert scorings == [(3, 2), (6, 4), (9, 6)]
    assert engine.is_over(state) and state == bot_state


def test_the_whole_game_scores_after_its_rounds_3_6_and_9():
    view = engine.view(engine.new_game(THREE, seed=9), None)
    assert view["scoring_rounds"] == [3, 6, 9] and view["chart"] == list(range(1, 10))


def test_game_end_winners_share_a_tie():
    state, _ = play_random_game(THREE, seed=2, bot_seed=2)
    assert engine.is_over(state) and engine.pending(state) == []
    tied = state.copy()
    tied.scores = {"red": 40, "blue": 40, "green": 12}
    assert engine.winners(tied) == ["red", "blue"]
    assert engine.view(tied, None)["winners"] == ["red", "blue"]
    refuse(state, "red", {"type": "end_turn"}, "game is over")
    assert engine.legal_moves(state, "red") == [] and engine.default_move(state, "red") is None


@pytest.mark.parametrize(
    "move, message",
    [
        ({"type": "fly"}, 'Unknown move type "fly"'),
        ({"card": 3}, 'needs a "type"'),
        ([1, 2], "must be an object"),
        ("end_turn", "must be an object"),
        (None, "must be an object"),
        ({"type": "play_power_card"}, 'needs the field "card"'),
        ({"type": "play_power_card", "card": "9"}, "must be a whole number, not text"),
        ({"type": "play_power_card", "card": True}, "must be a whole number"),
        ({"type": "play_power_card", "card": 9.0}, "must be a whole number"),
        ({"type": "play_power_card", "card": 9, "extra": 1}, 'no field "extra"'),
        ({"type": "place", "to": 3}, "must be a text string"),
        ({"type": 7}, 'needs a "type"'),
    ],
)
def test_malformed_moves_are_refused_with_what_to_send(game, move, message):
    refuse(game, "red", move, message)


def test_an_unknown_player_or_region_is_refused(game):
    refuse(game, "pink", {"type": "play_power_card", "card": 3}, "not a player of this game")
    refuse(game, None, {"type": "play_power_card", "card": 3}, "not a player of this game")
    state = at_turn(game)
    state, _ = play(state, ("red", {"type": "choose_card", "card": "king"}))
    refuse(state, "red", {"type": "place", "to": "atlantis"}, '"atlantis" is not a region')


def test_moves_in_the_wrong_phase_name_who_is_awaited(game):
    refuse(game, "red", {"type": "place", "to": "castillo"}, "waiting for red to play a power card")
    refuse(game, "red", {"type": "castillo_pick", "region": "seville"}, "no Castillo pick")
    state = at_turn(game)
    refuse(state, "blue", {"type": "end_turn"}, "not your turn: waiting for red")
    refuse(state, "red", {"type": "play_power_card", "card": 3}, "start of a round")


def test_default_moves_are_legal_and_cautious(game):
    assert engine.default_move(game, "red") == {"type": "play_power_card", "card": 1}
    assert engine.default_move(game, "blue") is None
    state = at_turn(game, {"red": 1, "blue": 9, "green": 5})
    assert engine.default_move(state, "blue") == {"type": "take_caballeros", "count": 2}


def test_reveals_hidden_names_the_moves_that_uncover_secrets(game):
    state = at_turn(game)
    quiet = []
    while state.round == 1:
        state, events = step_quickly(state)
        if state.round == 1:
            quiet += events
    assert not engine.reveals_hidden(quiet)
    assert engine.reveals_hidden(events)  # the last turn of round 1 turned up round 2's cards
    assert engine.reveals_hidden([{"type": "castillo_revealed", "picks": {}}])
    assert engine.reveals_hidden([{"type": "secret_picks_revealed", "picks": {}}])
    assert not engine.reveals_hidden([{"type": "secret_pick_made", "player": "red"}])


def test_board_push_plays_in_place_like_apply(game):
    board = game.copy()
    move = board.legal_moves("red")[0]
    assert board.legal_moves("red") == engine.legal_moves(game, "red")
    applied, events = engine.apply(game, "red", move)
    assert board.push("red", move) == events
    assert board == applied and board != game
    with pytest.raises(engine.IllegalMove):
        board.push("red", move)  # now it is blue's power card
