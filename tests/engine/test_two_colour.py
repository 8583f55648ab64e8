"""The two-colour variant for two players (French rules, first part)."""

import pytest

import engine
from engine.bots import RandomBot
from engine.data import CARD_STACKS
from engine.flow import team_results
from engine.scoring import score_place
from tests.engine.helpers import (
    acting,
    empty_board,
    play,
    refuse,
    set_caballeros,
    step_quickly,
    waiting,
)

COLOURS = ["blue", "green", "yellow", "brown"]  # blue+green one player, yellow+brown the other


@pytest.fixture
def game():
    return engine.new_game(
        COLOURS, seed=2, options={"variant": "two_colour", "first_player": "yellow"}
    )


def test_setup_decks_rounds_and_alternating_order(game):
    assert game.teams == [["blue", "green"], ["yellow", "brown"]]
    assert game.hands["blue"] == [1, 3, 5, 7, 9, 11, 13]
    assert game.hands["green"] == [1, 2, 4, 6, 8, 10, 12]
    assert game.chart == [2, 3, 5, 6, 8, 9]
    values = {"yellow": 9, "green": 12, "brown": 2, "blue": 13}
    order = []
    state = game
    while state.phase == "power_cards":
        player = engine.pending(state)[0]["player"]
        order.append(player)
        state, _ = engine.apply(state, player, {"type": "play_power_card", "card": values[player]})
    # Yellow is n°2 of the cycle blue, yellow, green, brown: "2-3-4-1".
    assert order == ["yellow", "green", "brown", "blue"]
    # Turns by value: blue 13, green 12, yellow 9, brown 2; one person may act twice in a row.
    assert state.turn_order == ["blue", "green", "yellow", "brown"]


# The seating: blue and yellow are one person's, green and brown the other's, so
# the numbered cycle is n°1 blue, n°2 green, n°3 yellow, n°4 brown.
PAIRED = ["blue", "yellow", "green", "brown"]


def power_card_round(state, values=None):
    """Play one round of power cards; return the colours in the order asked, and the state.

    Without `values`, each colour plays its highest card no one has played this round.
    """
    order = []
    while state.phase == "power_cards":
        player = engine.pending(state)[0]["player"]
        order.append(player)
        taken = set(state.power_played.values())
        card = values[player] if values else max(v for v in state.hands[player] if v not in taken)
        state, _ = engine.apply(state, player, {"type": "play_power_card", "card": card})
    return order, state


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        ("blue", ["blue", "green", "yellow", "brown"]),  # n°1: 1-2-3-4
        ("green", ["green", "yellow", "brown", "blue"]),  # n°2: 2-3-4-1
        ("yellow", ["yellow", "brown", "blue", "green"]),  # n°3: 3-4-1-2
        ("brown", ["brown", "blue", "green", "yellow"]),  # n°4: 4-1-2-3
    ],
)
def test_power_cards_go_round_the_numbered_colours_from_the_one_that_begins(first, expected):
    """French rules, "Marqueurs pour indiquer l'ordre d'un tour de jeu": "Les marqueurs
    sont distribués une fois pour toute en début de partie. [...] Si, en cours de partie,
    c'est la couleur « n°2 » qui doit commencer, l'ordre de jeu des cartes de pouvoir est
    alors 2-3-4-1. Si [...] c'est la couleur « n°3 » [...] alors 3-4-1-2." The numbers
    alternate between the two people: "1ère couleur du joueur 1, 1ère couleur du joueur 2,
    2ème couleur du joueur 1, 2ème couleur joueur 2"."""
    state = engine.new_game(
        PAIRED, seed=5, options={"variant": "two_colour", "first_player": first}
    )
    order, _ = power_card_round(state)
    assert order == expected


def test_the_starting_colour_plays_first_not_its_persons_first_colour():
    """The old order began with the first colour of the person owning the starting colour,
    then alternated: with n°3 (yellow) to begin it asked blue first, and with n°2 (green)
    it gave green, blue, brown, yellow."""
    state = engine.new_game(
        PAIRED, seed=5, options={"variant": "two_colour", "first_player": "yellow"}
    )
    assert waiting(state) == [("yellow", "power_card")]
    refuse(state, "blue", {"type": "play_power_card", "card": 13}, "not your turn")
    state = engine.new_game(
        PAIRED, seed=5, options={"variant": "two_colour", "first_player": "green"}
    )
    order, _ = power_card_round(state)
    assert order != ["green", "blue", "brown", "yellow"]


def test_in_later_rounds_the_lowest_card_begins_and_the_cycle_holds():
    """French rules: "Si, en cours de partie, c'est la couleur « n°3 » qui doit commencer,
    l'ordre de jeu des cartes de pouvoir est alors 3-4-1-2": later rounds are begun by the
    colour that played the lowest card, and go round the same cycle from it."""
    state = engine.new_game(
        PAIRED, seed=5, options={"variant": "two_colour", "first_player": "blue"}
    )
    # yellow (n°3) plays the lowest card of round one.
    _, state = power_card_round(state, {"blue": 13, "green": 11, "yellow": 1, "brown": 10})
    while state.phase != "power_cards":
        state, _ = step_quickly(state)
    assert state.round_start == "yellow"
    order, _ = power_card_round(state)
    assert order == ["yellow", "brown", "blue", "green"]


def test_a_repeated_value_only_when_the_hand_has_nothing_else(game):
    state = game.copy()
    state.round_start = "brown"  # n°4: brown, blue, yellow, green ("4-1-2-3")
    state.power_played = {"brown": 2, "blue": 1, "yellow": 4}
    state.hands["green"] = [1, 2, 6]
    refuse(state, "green", {"type": "play_power_card", "card": 1}, "no value may be played twice")
    state.hands["green"] = [1, 2]
    state, _ = play(state, ("green", {"type": "play_power_card", "card": 1}))
    # blue played 1 first: of the two 1s, blue acts first.
    assert state.turn_order == ["yellow", "brown", "blue", "green"]


def test_the_final_score_rule_and_its_tie_break(game):
    state = game.copy()
    state.scores = {"blue": 85, "green": 96, "yellow": 87, "brown": 91}
    results = team_results(state)
    # French example: (85+96)/2 = 90 less 2 for 11 points apart; (87+91)/2 = 89 less 0.
    assert [r["score"] for r in results] == [88, 89]
    assert engine.winners(state) == ["yellow", "brown"]
    state.scores = {"blue": 90, "green": 90, "yellow": 92, "brown": 89}  # 90 vs 90: tie
    assert [r["score"] for r in team_results(state)] == [90, 90]
    assert engine.winners(state) == ["yellow", "brown"]  # the better best colour, 92


def test_cards_against_all_opponents_hit_one_chosen_colour(game):
    state = empty_board(game)
    for colour in COLOURS:
        state = set_caballeros(state, colour, court=4)
    state = acting(state, "blue", "decay_all_court", stack=2)
    refuse(state, "blue", {"type": "target", "player": "green"}, "hits your opponents")
    state, _ = play(state, ("blue", {"type": "target", "player": "brown"}))
    courts = {c: state.caballeros[c]["court"] for c in COLOURS}
    assert courts == {"blue": 4, "green": 4, "yellow": 4, "brown": 0}


def test_own_means_the_colour_whose_turn_it_is(game):
    state = empty_board(game)
    state.king = "aragon"
    for colour in COLOURS:
        state = set_caballeros(state, colour, seville=2)
    state = acting(state, "blue", "intrigue_four_own")
    refuse(
        state,
        "blue",
        {"type": "move_caballero", "colour": "green", "from": "seville", "to": "granada"},
        "colour whose turn it is",
    )
    state3 = acting(state, "blue", "intrigue_three_foreign")
    refuse(
        state3,
        "blue",
        {"type": "move_caballero", "colour": "green", "from": "seville", "to": "granada"},
        "colour whose turn it is",
    )


@pytest.fixture
def spread(game):
    """King in aragon; each colour has 2 caballeros in seville and 3 in court; green, blue's
    partner, is alone in granada."""
    state = empty_board(game)
    state.king = "aragon"
    for colour in COLOURS:
        state = set_caballeros(state, colour, seville=2, court=3)
    return set_caballeros(state, "green", granada=2)


@pytest.mark.parametrize(
    "card", ["intrigue_three_any", "intrigue_four_any", "intrigue_three_foreign"]
)
def test_any_colours_cards_never_move_the_partner_colour(spread, card):
    """French rules: "lorsqu'une action touche la couleur du joueur, seule la couleur en
    cours est concernée". Blue acting, green is not blue's colour for this action, nor an
    opponent's: "Sposta fino a 4 Caballeros, tuoi e/o avversari" (Italian card text) moves
    neither."""
    state = acting(spread, "blue", card)
    moved = {m["colour"] for m in engine.legal_moves(state, "blue") if "colour" in m}
    assert "green" not in moved and "yellow" in moved
    green = {"type": "move_caballero", "colour": "green", "from": "seville", "to": "granada"}
    refuse(state, "blue", green, "other colour: only the colour whose turn it is")
    # Before, intrigue_three_any and intrigue_four_any took this move (room under "any").
    state, _ = play(
        state, ("blue", {**green, "colour": "yellow"}), ("blue", {"type": "end_special"})
    )
    assert state.caballeros["green"] == spread.caballeros["green"]


def test_five_from_one_region_leaves_the_partner_colour_behind(spread):
    """Italian card text: "Prendi da una regione fino a 5 Caballeros, tuoi e/o avversari";
    French rules: "seule la couleur en cours est concernée"."""
    state = acting(spread, "blue", "intrigue_five_from_region")
    moves = engine.legal_moves(state, "blue")
    regions = [m["region"] for m in moves if m["type"] == "special_region"]
    # Granada holds only green's caballeros: nothing there this card may move.
    assert "seville" in regions and "granada" not in regions
    refuse(state, "blue", {"type": "special_region", "region": "granada"}, "may move")
    state, _ = play(state, ("blue", {"type": "special_region", "region": "seville"}))
    assert {m["colour"] for m in engine.legal_moves(state, "blue") if "colour" in m} == {
        "blue",
        "yellow",
        "brown",
    }
    refuse(
        state,
        "blue",
        {"type": "move_caballero", "colour": "green", "from": "seville", "to": "valencia"},
        "other colour",
    )


@pytest.mark.parametrize("card", sorted(CARD_STACKS))
def test_no_special_action_moves_or_removes_the_partners_caballeros(spread, card):
    """French rules: "seule la couleur en cours est concernée", and "lorsqu'une action
    concerne tous les adversaires, le joueur choisit une seule des 2 couleurs de son
    adversaire": every card, from every first move, played at random to the end of blue's
    turn, leaves green's caballeros where they were."""
    bot = RandomBot(len(card))
    start = acting(spread, "blue", card, stack=min(CARD_STACKS[card]), vetoes=("yellow",))
    for first in engine.legal_moves(start, "blue"):
        state, _ = engine.apply(start, "blue", first)
        while state.turn is not None and state.turn["player"] == "blue":
            player = engine.pending(state)[0]["player"]
            state, _ = engine.apply(state, player, bot.choose(state, player))
        assert state.caballeros["green"] == spread.caballeros["green"], (card, first)


def test_a_partner_colour_cannot_veto_but_the_acting_colour_can(game):
    """French rules: "lorsqu'une action touche la couleur du joueur, seule la couleur en
    cours est concernée". Italian rules, 4 b: a veto by "un avversario, o il giocatore
    stesso". Blue acting is the player itself; green, blue's partner colour, is neither."""
    state = empty_board(game)
    state = set_caballeros(state, "blue", court=3)
    state = acting(state, "blue", "court_two", stack=4, vetoes=("blue", "green", "yellow"))
    state, _ = play(state, ("blue", {"type": "do_special"}))
    assert waiting(state) == [("blue", "veto_window"), ("yellow", "veto_window")]
    refuse(state, "green", {"type": "veto", "from_step": 1}, "partner colour may not veto")
    assert engine.legal_moves(state, "green") == []
    state, events = play(
        state, ("yellow", {"type": "allow"}), ("blue", {"type": "veto", "from_step": 1})
    )
    # Blue vetoed its own action: yellow may veto that veto, green (the same person) not.
    assert waiting(state) == [("yellow", "veto_window")]
    refuse(state, "green", {"type": "veto", "from_step": 1}, "your own veto")
    state, _ = play(state, ("yellow", {"type": "allow"}))
    assert state.caballeros["blue"]["court"] == 3
    assert [v["player"] for v in state.vetoes] == ["green", "yellow"]


def test_a_partner_colour_may_veto_an_opponents_veto(game):
    """A veto of blue's action is yellow's, and green is yellow's opponent: Italian rules,
    9, the Veto may be used "per impedire l'utilizzo di un altro Veto"."""
    state = empty_board(game)
    state = set_caballeros(state, "blue", court=3)
    state = acting(state, "blue", "court_two", stack=4, vetoes=("green", "yellow", "brown"))
    state, _ = play(state, ("blue", {"type": "do_special"}))
    assert waiting(state) == [("yellow", "veto_window"), ("brown", "veto_window")]
    state, _ = play(
        state, ("yellow", {"type": "veto", "from_step": 1}), ("brown", {"type": "allow"})
    )
    # Brown is yellow's partner colour: only green may veto yellow's veto.
    assert waiting(state) == [("green", "veto_window")]
    refuse(state, "brown", {"type": "veto", "from_step": 1}, "your own veto")
    state, _ = play(state, ("green", {"type": "veto", "from_step": 1}))
    assert state.caballeros["blue"]["court"] == 5


def test_bad_variant_setups_are_refused():
    with pytest.raises(ValueError, match="needs 4 colours"):
        engine.new_game(["red", "blue"], seed=1, options={"variant": "two_colour"})
    with pytest.raises(ValueError, match="6 rounds"):
        engine.new_game(COLOURS, seed=1, options={"variant": "two_colour", "rounds": 9})
    with pytest.raises(ValueError, match="standard"):
        engine.new_game(COLOURS, seed=1, options={"variant": "three_colour"})


def test_places_score_with_all_three_values(game):
    """English rules: "When playing with 2 players, only the first number of the scoreboard
    is scored. [...] With 3 players, the first two numbers are used." The two-colour
    variant has two people but four colours on the board, so it scores as four players."""
    state = empty_board(game)
    state.king = "galicia"
    state.grandes = {c: "valencia" for c in COLOURS}
    for colour, n in zip(COLOURS, (4, 3, 2, 1), strict=True):
        state = set_caballeros(state, colour, old_castile=n)
    score_place(state, "old_castile")  # 6/4/2
    assert state.scores == {"blue": 6, "green": 4, "yellow": 2, "brown": 0}
