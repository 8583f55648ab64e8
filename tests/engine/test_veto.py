"""The Veto, asynchronously: the Italian rules' examples (9.1-9.4) and the window itself."""

import pytest

import engine
from tests.engine.helpers import (
    acting,
    empty_board,
    play,
    refuse,
    set_caballeros,
    special_events,
    waiting,
)

FIVE = ["red", "yellow", "green", "blue", "brown"]
THREE = ["red", "blue", "green"]


@pytest.fixture
def five():
    """Five players, emptied board, king in aragon (seed 1 of a 5-player game is reused)."""
    state = empty_board(engine.new_game(FIVE, seed=3))
    state.king = "aragon"
    state.grandes = {c: "galicia" for c in FIVE}
    for colour in FIVE:
        state = set_caballeros(state, colour, court=4, seville=2, valencia=2)
    return state


def answer_window(state, answers):
    """Answer the open window: {colour: None (allow) or k (veto from k)}."""
    for colour, k in answers.items():
        move = {"type": "allow"} if k is None else {"type": "veto", "from_step": k}
        state, events = engine.apply(state, colour, move)
    return state, events


def test_9_1_a_partial_veto_after_two_of_four_moves(five):
    state = acting(five, "red", "intrigue_four_any", vetoes=("blue",))
    move = {"type": "move_caballero", "colour": "yellow", "from": "seville", "to": "galicia"}
    move2 = {"type": "move_caballero", "colour": "blue", "from": "valencia", "to": "galicia"}
    state, _ = play(state, ("red", move), ("red", move), ("red", move2), ("red", move2))
    assert waiting(state) == [("blue", "veto_window")]
    window = engine.view(state, "green")["veto"]["window"]
    assert [s["step"] for s in window["plan"]] == [1, 2, 3, 4] and window["holders"] == ["blue"]
    assert state.caballeros["yellow"]["galicia"] == 0  # nothing moved before the window closes
    refuse(state, "green", {"type": "veto", "from_step": 1}, "Only a holder")
    refuse(state, "red", {"type": "veto", "from_step": 1}, "Only a holder")
    refuse(state, "blue", {"type": "veto", "from_step": 5}, "1 .*to 4")
    state, events = answer_window(state, {"blue": 3})
    assert special_events(events) == [
        {"type": "special_action", "player": "red", "card": "intrigue_four_any", "vetoed_from": 3}
    ]
    assert state.caballeros["yellow"]["galicia"] == 2 and state.caballeros["blue"]["galicia"] == 0
    assert state.vetoes == [] and "veto" in state.action_discards


def test_9_2_decay_vetoed_by_the_second_opponent_in_order(five):
    state = acting(five, "red", "decay_all_court", stack=2, vetoes=("green",))
    state, _ = play(
        state,
        ("red", {"type": "target", "player": "blue"}),
        ("red", {"type": "target", "player": "green"}),
        ("red", {"type": "target", "player": "yellow"}),
    )
    # brown follows by itself as the last one; green vetoes when its own turn comes: step 2.
    plan = engine.view(state, None)["veto"]["window"]["plan"]
    assert [s["caballeros"][0]["colour"] for s in plan] == ["blue", "green", "yellow", "brown"]
    state, _ = answer_window(state, {"green": 2})
    courts = {c: state.caballeros[c]["court"] for c in FIVE}
    assert courts == {"red": 4, "yellow": 4, "green": 4, "blue": 0, "brown": 4}


def test_9_2_king_rages_with_five_players_the_third_opponent_vetoes(five):
    state = acting(five, "red", "king_rages", stack=2, vetoes=("blue",))
    state, _ = play(state, ("red", {"type": "do_special"}))
    # From red's left: yellow, green, blue, brown; all returns are asked first.
    for colour in ("yellow", "green", "blue", "brown"):
        assert engine.pending(state) == [{"player": colour, "kind": "king_rages"}]
        state, _ = play(state, *[(colour, {"type": "return_caballero", "from": "court"})] * 3)
    state, events = answer_window(state, {"blue": 3})
    courts = {c: state.caballeros[c]["court"] for c in FIVE}
    assert courts == {"red": 4, "yellow": 1, "green": 1, "blue": 4, "brown": 4}
    assert special_events(events)[0]["vetoed_from"] == 3


def test_9_3_chosen_region_vetoed_after_first_place_took_its_points():
    state = empty_board(engine.new_game(THREE + ["yellow"], seed=4))
    state.king = "galicia"
    state.grandes = {c: "valencia" for c in state.colours}
    state = set_caballeros(state, "red", old_castile=4)
    state = set_caballeros(state, "blue", old_castile=3)
    state = set_caballeros(state, "green", old_castile=2)
    state = acting(state, "yellow", "score_chosen_region", stack=2, vetoes=("red",))
    state, _ = play(state, ("yellow", {"type": "special_region", "region": "old_castile"}))
    plan = engine.view(state, "red")["veto"]["window"]["plan"]
    assert [[a["points"] for a in s["awards"]] for s in plan] == [[6], [4], [2]]
    state, events = answer_window(state, {"red": 2})
    assert engine.scores(state) == {"red": 6, "blue": 0, "green": 0, "yellow": 0}


def test_9_3_five_regions_vetoed_after_aragons_first_place():
    state = empty_board(engine.new_game(FIVE, seed=6))
    state.king = "galicia"
    state.grandes = {c: "seville" for c in FIVE}
    state = set_caballeros(state, "red", basque_country=2, aragon=3, valencia=2)
    state = set_caballeros(state, "blue", basque_country=1, aragon=1, valencia=3)
    state = acting(state, "green", "score_five_regions", stack=3, vetoes=("red",))
    state, _ = play(state, ("green", {"type": "do_special"}))
    plan = engine.view(state, None)["veto"]["window"]["plan"]
    assert [(s["place"], s["awards"][0]["player"]) for s in plan] == [
        ("basque_country", "red"),
        ("basque_country", "blue"),
        ("aragon", "red"),
        ("aragon", "blue"),
        ("valencia", "blue"),
        ("valencia", "red"),
    ]
    state, _ = answer_window(state, {"red": 4})  # after Aragon's first place
    assert engine.scores(state)["red"] == 5 + 5 and engine.scores(state)["blue"] == 3


@pytest.mark.parametrize("from_step, blue_left, green_left", [(1, 4, 3), (2, 2, 3)])
def test_9_4_secret_pick_card_vetoed_before_or_after_the_picks(from_step, blue_left, green_left):
    state = empty_board(engine.new_game(THREE + ["yellow"], seed=4))
    state.king = "galicia"
    state = set_caballeros(state, "blue", valencia=4)
    state = set_caballeros(state, "green", granada=3)
    state = acting(state, "red", "secret_two_from_region", stack=2, vetoes=("green",))
    # Blue first; green, the only other opponent with caballeros out, follows by itself.
    state, _ = play(state, ("red", {"type": "target", "player": "blue"}))
    state, _ = play(
        state,
        ("blue", {"type": "secret_pick", "region": "valencia"}),
        ("green", {"type": "secret_pick", "region": "granada"}),
    )
    assert waiting(state) == [("green", "veto_window")]
    state, events = answer_window(state, {"green": from_step})
    assert state.caballeros["blue"]["valencia"] == blue_left
    assert state.caballeros["green"]["granada"] == green_left


def test_a_veto_can_be_vetoed_by_the_other_cards_holder(five):
    state = acting(five, "red", "decay_all_court", stack=2, vetoes=("blue", "green"))
    state, _ = play(
        state,
        ("red", {"type": "target", "player": "blue"}),
        ("red", {"type": "target", "player": "green"}),
        ("red", {"type": "target", "player": "yellow"}),
    )
    state, events = answer_window(state, {"blue": 1, "green": None})
    # blue vetoed: now green (holding the other Veto) may veto blue's veto.
    assert waiting(state) == [("green", "veto_window")]
    refuse(state, "green", {"type": "veto", "from_step": 2}, "only stop the whole")
    state, events = answer_window(state, {"green": 1})
    assert special_events(events)[0]["vetoed_from"] is None
    assert {c: state.caballeros[c]["court"] for c in FIVE} == {
        "red": 4,
        "yellow": 0,
        "green": 0,
        "blue": 0,
        "brown": 0,
    }
    assert state.vetoes == [] and state.action_discards.count("veto") == 2


def test_an_unanswered_counter_window_lets_the_first_veto_stand(five):
    state = acting(five, "red", "court_two", stack=4, vetoes=("blue", "green"))
    state, _ = play(state, ("red", {"type": "do_special"}))
    state, _ = answer_window(state, {"blue": None, "green": 1})
    assert engine.default_move(state, "blue") == {"type": "allow"}
    state, events = answer_window(state, {"blue": None})
    assert special_events(events)[0]["vetoed_from"] == 1
    assert state.caballeros["red"]["court"] == 4
    assert state.vetoes == [{"player": "blue", "expires": 1}]


def test_9_3_the_acting_player_takes_first_place_then_vetoes_the_rest():
    """Italian rules, 4: once begun, a special action is carried out whole unless "b) Un
    avversario, o il giocatore stesso, non pongano un veto mentre l'azione della carta è in
    fieri". 9.3: "È scelta una regione con valori "6-4-2", il rosso ha 4 Caballeros, il blu
    3 e il verde 2. Il rosso prende i 6 punti della prima posizione, quindi gioca una carta
    Veto, per cui né il blu né il verde guadagnano punti." Here red is the acting player."""
    state = empty_board(engine.new_game(THREE + ["yellow"], seed=4))
    state.king = "galicia"
    state.grandes = {c: "valencia" for c in state.colours}
    state = set_caballeros(state, "red", old_castile=4)
    state = set_caballeros(state, "blue", old_castile=3)
    state = set_caballeros(state, "green", old_castile=2)
    state = acting(state, "red", "score_chosen_region", stack=2, vetoes=("red",))
    state, events = play(state, ("red", {"type": "special_region", "region": "old_castile"}))
    # Before, no window opened for the acting player: the plan was scored whole at once.
    assert not special_events(events)
    assert waiting(state) == [("red", "veto_window")]
    assert [m.get("from_step") for m in engine.legal_moves(state, "red")] == [None, 1, 2, 3]
    state, events = answer_window(state, {"red": 2})
    assert engine.scores(state) == {"red": 6, "blue": 0, "green": 0, "yellow": 0}
    assert special_events(events)[0]["vetoed_from"] == 2
    assert [e["player"] for e in events if e["type"] == "veto_played"] == ["red"]
    assert state.vetoes == [] and "veto" in state.action_discards


def test_the_acting_player_who_allows_keeps_their_veto(five):
    """Italian rules, 9: the Veto is discarded "Una volta giocato, o se non è usato prima
    della fine del round successivo": allowing one's own action does not use it."""
    state = acting(five, "red", "court_two", stack=4, vetoes=("red",))
    state, _ = play(state, ("red", {"type": "do_special"}))
    assert waiting(state) == [("red", "veto_window")]
    assert engine.default_move(state, "red") == {"type": "allow"}  # silence allows
    state, events = answer_window(state, {"red": None})
    assert special_events(events)[0]["vetoed_from"] is None
    assert state.caballeros["red"]["court"] == 6
    assert state.vetoes == [{"player": "red", "expires": 1}]


def test_a_veto_of_ones_own_action_stops_a_card_carried_out_whole(five):
    """Italian rules, 4: "una volta iniziata, deve essere eseguita interamente, a meno che
    [...] b) Un avversario, o il giocatore stesso, non pongano un veto": the acting player's
    own Veto stops a card that end_special may not end."""
    state = acting(five, "red", "intrigue_two_own_two_foreign", vetoes=("red",))
    mine = {"type": "move_caballero", "colour": "red", "from": "seville", "to": "galicia"}
    theirs = {"type": "move_caballero", "colour": "blue", "from": "valencia", "to": "galicia"}
    state, _ = play(state, ("red", mine), ("red", mine))
    refuse(state, "red", {"type": "end_special"}, "carried out whole")
    state, _ = play(state, ("red", theirs), ("red", theirs))
    state, _ = answer_window(state, {"red": 3})
    assert state.caballeros["red"]["galicia"] == 2 and state.caballeros["blue"]["galicia"] == 0


def test_the_other_holder_may_veto_a_veto_of_ones_own_action(five):
    """Italian rules, 9: the Veto may be used "per impedire l'utilizzo di un altro Veto"; the
    card: "Impedisci l'attuazione totale o parziale di una qualunque altra azione speciale
    (anche dell'altro Veto)". A self-veto is one like any other."""
    state = empty_board(five)
    state.grandes = {c: "valencia" for c in FIVE}
    state = set_caballeros(state, "red", old_castile=4)
    state = set_caballeros(state, "blue", old_castile=3)
    state = acting(state, "red", "score_chosen_region", stack=2, vetoes=("red", "blue"))
    state, _ = play(state, ("red", {"type": "special_region", "region": "old_castile"}))
    assert waiting(state) == [("red", "veto_window"), ("blue", "veto_window")]
    state, _ = answer_window(state, {"blue": None, "red": 2})
    # Red vetoed the rest of its own scoring: blue, who would lose 4 points, may stop that.
    assert waiting(state) == [("blue", "veto_window")]
    refuse(state, "red", {"type": "veto", "from_step": 1}, "your own veto")
    state, events = answer_window(state, {"blue": 1})
    assert special_events(events)[0]["vetoed_from"] is None
    assert engine.scores(state)["red"] == 6 and engine.scores(state)["blue"] == 4
    assert state.vetoes == [] and state.action_discards.count("veto") == 2


def test_the_acting_player_may_veto_a_veto_of_their_action(five):
    """The other way round: blue vetoes red's action, and red, the acting player holding
    the other Veto, may veto blue's veto; the action then goes ahead whole."""
    state = acting(five, "red", "court_two", stack=4, vetoes=("red", "blue"))
    state, _ = play(state, ("red", {"type": "do_special"}))
    state, _ = answer_window(state, {"red": None, "blue": 1})
    assert waiting(state) == [("red", "veto_window")]
    state, events = answer_window(state, {"red": 1})
    assert special_events(events)[0]["vetoed_from"] is None
    assert state.caballeros["red"]["court"] == 6 and state.vetoes == []


def test_taking_the_veto_card_can_itself_be_vetoed(five):
    state = acting(five, "red", "veto", stack=2, vetoes=("brown",))
    state, _ = play(state, ("red", {"type": "do_special"}))
    state, events = answer_window(state, {"brown": 1})
    assert state.vetoes == [] and not [e for e in events if e["type"] == "veto_kept"]
    state, _ = play(state, ("red", {"type": "end_turn"}))
    # brown's Veto was spent, and red's vetoed card is laid aside with the turn.
    assert state.action_discards.count("veto") == 2


def test_a_window_shows_in_pending_and_the_view(five):
    state = acting(five, "red", "royal_adviser", stack=4, vetoes=("blue", "green"))
    state, _ = play(state, ("red", {"type": "move_king", "to": "valencia"}))
    # Holders answer in any order; pending lists them in seat order.
    assert waiting(state) == [("green", "veto_window"), ("blue", "veto_window")]
    assert engine.pending(state)[0] == {
        "player": "green",
        "kind": "veto_window",
        "acting": "red",
        "card": "royal_adviser",
        "vetoer": None,
        "plan": [{"step": 1, "do": "king", "to": "valencia"}],
    }
    assert engine.legal_moves(state, "blue") == [
        {"type": "allow"},
        {"type": "veto", "from_step": 1},
    ]
    view = engine.view(state, "yellow")
    assert view["veto"]["window"]["plan"] == [{"step": 1, "do": "king", "to": "valencia"}]
    assert view["special"]["stage"] == "window"
    state, _ = answer_window(state, {"blue": None})
    refuse(state, "blue", {"type": "allow"}, "already answered")
    assert waiting(state) == [("green", "veto_window")]
    state, _ = answer_window(state, {"green": None})
    assert state.king == "valencia"


def _cards_in_return_steps(document) -> list[tuple[str, int]]:
    """(colour, card) of every power_card_return step in a JSON document that names its card."""
    found, stack = [], [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("do") == "power_card_return" and "card" in node:
                found.append((node["colour"], node["card"]))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def test_a_self_veto_window_shows_others_that_a_card_comes_back_never_which(five):
    """The acting player holding a Veto answers a window on their own power_card_return: its
    plan is in pending, and every view holds pending. Which card comes back stays the acting
    player's (Rulings); the other holder, the other players and spectators see the step only."""
    state = acting(five, "green", "power_card_return", stack=2, vetoes=("green", "blue"))
    card = state.discards["green"][0]
    state, _ = play(state, ("green", {"type": "return_power_card", "card": card}))
    assert waiting(state) == [("green", "veto_window"), ("blue", "veto_window")]
    public = [{"step": 1, "do": "power_card_return", "colour": "green"}]
    # pending() is public: it goes to every view, the server's game row and its schedulers.
    assert [p["plan"] for p in engine.pending(state)] == [public, public]
    for viewer in (None, "red", "yellow", "blue", "brown"):
        view = engine.view(state, viewer)
        assert _cards_in_return_steps(view) == [], viewer
        assert [p["plan"] for p in view["pending"]] == [public, public]
        assert view["veto"]["window"]["plan"] == public
    mine = engine.view(state, "green")
    own = [{"step": 1, "do": "power_card_return", "colour": "green", "card": card}]
    assert [p["plan"] for p in mine["pending"]] == [own, own]
    assert mine["veto"]["window"]["plan"] == own and mine["special"]["plan"] == own
    # Blue vetoes, green may counter: a counter window has no plan to show.
    state, _ = play(state, ("green", {"type": "allow"}), ("blue", {"type": "veto", "from_step": 1}))
    assert waiting(state) == [("green", "veto_window")]
    for viewer in (None, "red", "yellow", "blue", "brown"):
        assert _cards_in_return_steps(engine.view(state, viewer)) == [], viewer
