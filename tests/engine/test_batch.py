"""A batch of moves played whole or not at all, and what its refusal may say.

The reason the rules give is quoted unless an earlier move of the batch uncovered something
(the next round's action cards, others' secret picks): then nothing of it may be told, since
nothing of the batch is played. A move after a turn that ended by itself is told so.
"""

from __future__ import annotations

import pytest

import engine
from tests.engine.helpers import acting, empty_board, set_caballeros, step_quickly

THREE = ["red", "blue", "green"]


@pytest.fixture
def board():
    """Seed 1, emptied: king in aragon (so old_castile, basque_country, catalonia, valencia
    and new_castile border it)."""
    state = empty_board(engine.new_game(THREE, seed=1))
    state = set_caballeros(state, "red", seville=3, court=5)
    state = set_caballeros(state, "blue", valencia=4, court=6)
    return set_caballeros(state, "green", granada=3, court=3)


def refusal(state, player, moves) -> str:
    with pytest.raises(engine.IllegalMove) as caught:
        engine.play_batch(state, player, moves)
    return caught.value.message


def test_a_batch_plays_each_move_on_the_state_the_last_one_left(board):
    state = acting(board, "red", "intrigue_court_two", stack=1)
    moves = [{"type": "skip_special"}, {"type": "place", "to": "valencia"}]
    batch = engine.play_batch(state, "red", moves)
    assert [played.move for played in batch.played] == moves
    assert batch.state.caballeros["red"]["valencia"] == 1
    assert batch.played[0].state.caballeros["red"]["valencia"] == 0
    assert batch.events == batch.played[0].events + batch.played[1].events
    assert state.caballeros["red"]["valencia"] == 0  # the state given is not changed


def test_one_caballero_too_many_quotes_the_place_limit(board):
    """The card's number is the place limit: the rules' own reason is given, not a vague one."""
    state = acting(board, "red", "intrigue_court_two", stack=1)
    moves = [{"type": "place", "to": "valencia"}, {"type": "place", "to": "valencia"}]
    with pytest.raises(engine.IllegalMove) as caught:
        engine.apply(engine.apply(state, "red", moves[0])[0], "red", moves[1])
    message = refusal(state, "red", moves)
    assert message.startswith('Move 2 of 2 ({"to": "valencia", "type": "place"}) is illegal: ')
    assert caught.value.message in message
    assert "uncovers" not in message and message.endswith("Nothing was played.")


def test_a_move_after_the_turn_ended_by_itself_says_so(board):
    """Placing the last caballero the card allows, with the special action done, ends the
    turn by itself: a further end_turn has no turn to belong to."""
    state = acting(board, "red", "intrigue_court_two", stack=1)
    moves = [
        {"type": "skip_special"},
        {"type": "place", "to": "valencia"},
        {"type": "end_turn"},
    ]
    message = refusal(state, "red", moves)
    assert message.startswith('Move 3 of 3 ({"type": "end_turn"}) is illegal: ')
    assert "your turn ended by itself after move 2" in message
    assert "uncovers" not in message


def test_end_special_then_too_many_places_names_the_real_reason(board):
    """The batch from the issue: end_special, place, place, end_turn on a card whose place
    limit is 1."""
    state = acting(board, "red", "intrigue_court_two", stack=1)
    moves = [
        {"type": "skip_special"},
        {"type": "place", "to": "valencia"},
        {"type": "place", "to": "valencia"},
        {"type": "end_turn"},
    ]
    message = refusal(state, "red", moves)
    assert message.startswith("Move 3 of 4 ")
    assert "your turn ended by itself after move 2" in message
    assert "uncovers" not in message


def test_after_a_move_that_uncovers_the_next_cards_nothing_is_quoted():
    state = engine.new_game(["red", "blue"], seed=4)
    while True:  # to the last turn of round 1
        nxt, events = step_quickly(state)
        if any(e["type"] == "round_started" for e in events):
            break
        state = nxt
    player = engine.pending(state)[0]["player"]
    finishing = next(m for m in engine.legal_moves(state, player) if m["type"] == "end_turn")
    after, events = engine.apply(state, player, finishing)
    next_cards = next(e for e in events if e["type"] == "round_started")["action_cards"]
    message = refusal(state, player, [finishing, {"type": "choose_card", "card": next_cards[0]}])
    assert "which uncovers the next round's action cards" in message
    assert not any(card in message for card in next_cards)
    assert after.round != state.round


def test_a_single_move_is_the_move():
    state = engine.new_game(THREE, seed=2)
    player = engine.pending(state)[0]["player"]
    message = refusal(state, player, [{"type": "end_turn"}])
    assert message.startswith('The move ({"type": "end_turn"}) is illegal: ')
