"""Move notation: every move has a line, the line reads back as the move, and a person's
abbreviations, accents, typos and several moves at once are read (or refused) helpfully."""

from __future__ import annotations

import re

import pytest

import engine
from engine.bots import RandomBot
from engine.moves import FORMS
from engine.notation import NOTATION, WRITTEN
from engine.rng import Rng
from tests.engine.helpers import acting, empty_board, play_power_cards, set_caballeros, step_quickly

COLOURS_BY_COUNT = {
    3: ["red", "blue", "green"],
    4: ["red", "yellow", "green", "blue"],
    5: ["red", "yellow", "green", "blue", "brown"],
}


def refused(text: str, state: engine.State, player: str, pattern: str) -> str:
    with pytest.raises(engine.NotationError) as info:
        engine.parse_move(text, state, player)
    message = str(info.value)
    assert re.search(pattern, message, re.IGNORECASE), message
    return message


# -- every move type has a notation --------------------------------------------------------


@pytest.mark.parametrize("move_type", sorted(FORMS))
def test_every_form_has_a_notation(move_type):
    notation = NOTATION.get(move_type)
    assert notation is not None, f"{move_type} has no line in engine.notation.NOTATION"
    form = FORMS[move_type]
    assert {slot.field for slot in notation.slots} == {*form.required, *form.optional}


def test_notation_names_no_unknown_type():
    assert set(NOTATION) <= set(FORMS)


# -- the round trip in random games --------------------------------------------------------


#: Games of each number of colours (and of the two-colour variant) read back: every legal
#: move at every third step of the first of each, and at every step of every game a move
#: of each type and one at random, in every language.
SEEDS = 5


def _games():
    for colours in COLOURS_BY_COUNT.values():
        for seed in range(SEEDS):
            yield colours, seed, {"rounds": 6 if seed % 2 else 9}
    for seed in range(SEEDS):
        yield COLOURS_BY_COUNT[4], 100 + seed, {"variant": "two_colour", "rounds": 6}


def _check_state(
    state: engine.State, player: str, rng: Rng, seen: set[str], every: bool = False
) -> None:
    moves = engine.legal_moves(state, player)
    for language in ("en", *WRITTEN):
        lines = [engine.format_move(m, language) for m in moves]
        # Two distinct legal moves never read alike.
        assert len(set(lines)) == len(lines), sorted(lines)
        # Reading a line is slower than writing one: outside `every` game, read back one
        # move of each type plus one at random.
        pairs = list(zip(moves, lines, strict=True))
        by_type = {}
        for move, line in pairs:
            by_type.setdefault(move["type"], (move, line))
        sample = pairs if every else [*by_type.values(), rng.choice(pairs)]
        for move, line in sample:
            assert engine.parse_move(line, state, player) == move, line
            seen.add(move["type"])


def test_every_legal_move_reads_back_as_itself():
    seen: set[str] = set()
    rng = Rng(5)
    games = list(_games())
    assert len(games) >= 20
    for number, (colours, seed, options) in enumerate(games):
        bot = RandomBot(seed)
        state = engine.new_game(colours, seed=seed, options=options)
        step = 0
        while not engine.is_over(state):
            # In full: every third step of the first game of each kind, in every language.
            full = number % SEEDS == 0 and step % 3 == 0
            for waiting in engine.pending(state):
                _check_state(state, waiting["player"], rng, seen, every=full)
            step += 1
            player = engine.pending(state)[0]["player"]
            state, _ = engine.apply(state, player, bot.choose(state, player))
    for state, player in _rare_positions():
        _check_state(state, player, rng, seen, every=True)
    assert seen == set(FORMS), sorted(set(FORMS) - seen)


def _rare_positions():
    """Positions whose moves random games seldom reach."""
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=4)
    # The province ran short: take one of your own from a region.
    short = set_caballeros(state, "red", court=7 + state.caballeros["red"]["province"])
    short, _ = play_power_cards(short, {"red": 1, "blue": 13, "green": 12})
    while engine.pending(short)[0]["player"] != "red":
        short, _ = step_quickly(short)
    short, _ = engine.apply(short, "red", {"type": "take_caballeros", "count": 0})
    yield short, "red"
    # Two score_chosen_region cards face up: the stack tells them apart.
    both = acting(state, "red", "king")
    both.face_up = {2: "score_chosen_region", 3: "score_chosen_region", 4: "grande", 5: "king"}
    both.turn.update(step="choose_card", card=None, stack=None)
    yield both, "red"
    yield acting(state, "red", "intrigue_court_two_or_own_region"), "red"
    yield acting(state, "red", "power_card_return"), "red"


def test_rare_positions_are_what_they_claim():
    types = [{m["type"] for m in engine.legal_moves(s, p)} for s, p in _rare_positions()]
    assert "take_from_region" in types[0]
    assert "choose_card" in types[1]
    assert "special_option" in types[2]


def test_a_card_in_two_stacks_is_written_with_its_stack():
    state, player = list(_rare_positions())[1]
    lines = sorted(engine.format_move(m) for m in engine.legal_moves(state, player))
    assert "card score_chosen_region 2" in lines and "card score_chosen_region 3" in lines
    assert "card king" in lines  # a card in one stack needs no number
    refused("card score_chosen", state, player, r"score_chosen_region 2.*score_chosen_region 3")
    assert engine.parse_move("card score 3", state, player) == {
        "type": "choose_card",
        "card": "score_chosen_region",
        "stack": 3,
    }


# -- names: accents, case, prefixes, aliases -----------------------------------------------


@pytest.fixture
def turn():
    """Red acts with an intrigue card; the king is in aragon."""
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    state = acting(state, "red", "intrigue_three_any")
    state.king = "aragon"
    return state


@pytest.mark.parametrize("text", ["place Valéncia", "place val", "PLACE VALENCIA", "pl va"])
def test_accents_case_and_prefixes(turn, text):
    assert engine.parse_move(text, turn, "red") == {"type": "place", "to": "valencia"}


@pytest.mark.parametrize("text", ["power 9.", "Power 9!", "power 9"])
def test_a_number_may_end_a_sentence(text):
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    assert engine.parse_move(text, state, "red") == {"type": "play_power_card", "card": 9}


def test_a_number_is_digits():
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    for text in ("power 9.5", "power nine", "power #9", "power ."):
        refused(text, state, "red", r"is not a number")


@pytest.mark.parametrize("text", ["Aragón", "arag", "ARAGON"])
def test_aragon_however_written(text):
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    state = acting(state, "red", "grande")
    state.king = "seville"
    assert engine.parse_move(f"grande {text}", state, "red") == {
        "type": "move_grande",
        "to": "aragon",
    }


@pytest.mark.parametrize(
    "text, region",
    [
        ("place old castile", "old_castile"),
        ("place new castile", "new_castile"),
        ("place Old-Castile", "old_castile"),
        ("place n c", "new_castile"),
        ("place basque country", "basque_country"),
        ("place país vasco", "basque_country"),
        ("place cataluña", "catalonia"),
        ("place castilla la nueva", "new_castile"),
        ("place castle", "castillo"),
    ],
)
def test_natural_and_other_language_names(turn, text, region):
    assert engine.parse_move(text, turn, "red") == {"type": "place", "to": region}


def test_an_ambiguous_prefix_is_refused_naming_the_candidates(turn):
    refused("place g", turn, "red", r'"g" could be galicia or granada')
    refused("place castilla", turn, "red", r"new_castile or old_castile")


def test_a_board_name_is_not_settled_by_what_is_legal(turn):
    # With the king in seville granada is legal and galicia is not; `g` is still refused
    # rather than guessed, so a player who meant galicia hears why it is illegal.
    turn.king = "seville"
    assert {"type": "place", "to": "granada"} in engine.legal_moves(turn, "red")
    assert {"type": "place", "to": "galicia"} not in engine.legal_moves(turn, "red")
    refused("place g", turn, "red", "galicia or granada")


def test_a_short_verb_is_settled_by_what_is_legal():
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    player = engine.pending(state)[0]["player"]
    # `p` is power, place or pick: only power is legal in the power card phase.
    assert engine.parse_move("p 9", state, player) == {"type": "play_power_card", "card": 9}


def test_a_short_card_is_settled_by_what_is_face_up(turn):
    turn.turn.update(step="choose_card", card=None, stack=None)
    turn.face_up = {1: "intrigue_four_own", 2: "veto", 3: "score_castillo", 4: "grande", 5: "king"}
    assert engine.parse_move("card score", turn, "red") == {
        "type": "choose_card",
        "card": "score_castillo",
        "stack": 3,
    }
    assert engine.parse_move("choose intrigue", turn, "red")["card"] == "intrigue_four_own"
    # Neither decay card is face up: the line is read as both and refused.
    refused("card dec", turn, "red", r'"card decay_all_court" or "card decay_three_court"')


def test_an_illegal_but_well_formed_line_is_read_so_the_rules_explain(turn):
    assert {"type": "place", "to": "galicia"} not in engine.legal_moves(turn, "red")
    move = engine.parse_move("place galicia", turn, "red")
    assert move == {"type": "place", "to": "galicia"}
    with pytest.raises(engine.IllegalMove, match="(?i)king"):
        engine.apply(turn, "red", move)


def test_a_typo_gets_a_did_you_mean(turn):
    refused("plase aragon", turn, "red", r'"plase" is not a move \(did you mean "place"')
    refused("place valenica", turn, "red", r'"valenica" is not a region.*"place valencia"')
    refused("mvoe red seville>castillo", turn, "red", r'did you mean "move red seville>castillo')


def test_a_short_line_says_how_to_write_it(turn):
    refused("move red", turn, "red", r'written like "move red seville>castillo"')


def test_veto_alone_vetoes_the_whole_action():
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    assert engine.parse_move("veto", state, "red") == {"type": "veto", "from_step": 1}
    assert engine.parse_move("veto 2", state, "red") == {"type": "veto", "from_step": 2}


def test_format_refuses_a_malformed_move():
    with pytest.raises(engine.IllegalMove, match="Unknown move type"):
        engine.format_move({"type": "fly"})


def test_parse_move_reads_one_move_only(turn):
    refused("place aragon; done", turn, "red", "one at a time")
    refused("   ", turn, "red", "empty")


# -- several moves -------------------------------------------------------------------------


def _turn_with_draw():
    """Red's turn in round 1, power cards played: red (11) may draw 1 and acts first."""
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    state = empty_board(state)
    state, _ = play_power_cards(state, {"red": 11, "blue": 1, "green": 2})
    return state


def test_several_moves_on_one_line():
    state = _turn_with_draw()
    player = engine.pending(state)[0]["player"]
    assert player == "red"
    king = state.king
    near = sorted(engine.data.NEIGHBOURS[king])[0]
    before = engine.to_dict(state)
    moves = engine.parse_moves(f"take 1; card king; place {near}; place {near}", state, "red")
    assert moves == [
        {"type": "take_caballeros", "count": 1},
        {"type": "choose_card", "card": "king", "stack": 5},
        {"type": "place", "to": near},
        {"type": "place", "to": near},
    ]
    assert engine.to_dict(state) == before  # read on a copy


def test_one_move_per_line_with_comments_and_quotes():
    state = _turn_with_draw()
    text = "# my turn\n\n> take 2\ntake 1\n  card KING   # the king, of course\n"
    assert engine.parse_moves(text, state, "red") == [
        {"type": "take_caballeros", "count": 1},
        {"type": "choose_card", "card": "king", "stack": 5},
    ]
    assert engine.parse_moves("\n# nothing\n", state, "red") == []


def test_a_bad_line_is_named():
    state = _turn_with_draw()
    expected = r'Line 2 \("card kong"\).*Did you mean "card king"'
    with pytest.raises(engine.NotationError, match=expected):
        engine.parse_moves("take 1\ncard kong", state, "red")
    with pytest.raises(engine.IllegalMove, match=r'Line 1 \("take 9"\)') as info:
        engine.parse_moves("take 9", state, "red")
    assert not isinstance(info.value, engine.NotationError)  # the rules refused it


def test_an_error_after_a_revealing_move_does_not_quote_what_it_revealed():
    # The last turn of round 1 ends and round 2's action cards are turned up: a later
    # line's error must not be answered with them (no candidates, no "did you mean").
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    while state.round_index == 0:
        player = engine.pending(state)[0]["player"]
        moves = engine.legal_moves(state, player)
        ending = next((m for m in moves if m["type"] in ("end_turn", "choose_card")), moves[0])
        after, events = engine.apply(state, player, ending)
        if engine.reveals_hidden(events):
            break
        state = after
    else:
        pytest.fail("round 1 never ended")
    line = engine.format_move(ending)
    with pytest.raises(engine.NotationError) as info:
        engine.parse_moves(f"{line}\ncard sc", state, player)
    message = str(info.value)
    assert "Line 2" in message and "reveals new information" in message
    for card in after.face_up.values():
        if card:
            assert card not in message, message
    # Without the revealing move first, the same kind of error names the candidates.
    with pytest.raises(engine.NotationError, match="not a move|could be|did you mean"):
        engine.parse_moves("card sc", state, player)


def test_other_spellings_of_the_verbs(turn):
    assert engine.parse_move("end turn", turn, "red") == {"type": "end_turn"}
    assert engine.parse_move("do", turn, "red") == {"type": "do_special"}
    assert engine.parse_move("end special", turn, "red") == {"type": "end_special"}
    assert engine.parse_move("return 9", turn, "red") == {"type": "return_power_card", "card": 9}
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    player = engine.pending(state)[0]["player"]
    assert engine.parse_move("play 9", state, player) == {"type": "play_power_card", "card": 9}


def test_pick_is_a_castillo_pick_when_that_is_what_is_legal():
    bot = RandomBot(3)
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=3)
    while state.phase != "castillo_pick":
        player = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, player, bot.choose(state, player))
    player = engine.pending(state)[0]["player"]
    region = next(m["region"] for m in engine.legal_moves(state, player))
    expected = {"type": "castillo_pick", "region": region}
    assert engine.parse_move(f"pick {region}", state, player) == expected
    # Elsewhere `pick` is the secret-disk pick.
    other = engine.new_game(COLOURS_BY_COUNT[3], seed=3)
    assert engine.parse_move("pick valencia", other, "red")["type"] == "secret_pick"


# -- the notation in a reader's own words (engine.notation.WRITTEN) ------------------------


def test_a_russian_line_is_in_russian_words(turn):
    assert engine.format_move({"type": "place", "to": "old_castile"}, "ru") == (
        "поставить Старая Кастилия"
    )
    move = {"type": "move_caballero", "colour": "red", "from": "seville", "to": "castillo"}
    assert engine.format_move(move, "ru") == "переместить красный Севилья>Кастильо"
    assert engine.format_move({"type": "choose_card", "card": "king", "stack": 5}, "ru") == (
        "карта Король"
    )
    assert engine.format_move({"type": "play_power_card", "card": 9}, "ru") == "сила 9"
    assert engine.format_move({"type": "return_caballero", "from": "court"}, "ru") == (
        "вернуть двор"
    )
    # Languages the notation is not written in yet keep the English line.
    assert engine.format_move(move, "de") == "move red seville>castillo"


@pytest.mark.parametrize(
    "russian, english",
    [
        ("поставить Валенсия", "place valencia"),
        ("Поставить валенсия", "place val"),
        ("переместить красный Севилья>Кастильо", "move red seville>castillo"),
        ("переместить Красный севилья > кастильо", "move r sev>castillo"),
        ("убрать синий Арагон", "remove blue aragon"),
        ("король Галисия", "king galicia"),
        ("отправить Кастильо", "send castillo"),
        ("завершить", "stop"),
        ("готово", "done"),
    ],
)
def test_a_russian_line_plays_the_move_of_the_english_one(turn, russian, english):
    assert engine.parse_move(russian, turn, "red") == engine.parse_move(english, turn, "red")


def test_russian_and_english_lines_mix_in_one_answer():
    state = engine.new_game(COLOURS_BY_COUNT[3], seed=7)
    player = engine.pending(state)[0]["player"]
    assert engine.parse_moves("сила 9", state, player) == engine.parse_moves(
        "power 9", state, player
    )
    option = list(_rare_positions())[2]
    assert engine.parse_move("вариант своя область", *option) == engine.parse_move(
        "option own_region", *option
    )


def test_a_russian_verb_is_read_only_in_full(turn):
    # Cut short, a verb would swallow table talk: "в" (in) starts взять, вернуть, выбрать.
    refused("пост Валенсия", turn, "red", r'"пост" is not a move')
    for words in ("В следующий раз повезёт!", "Всем удачи", "С днём рождения", "Привет!"):
        assert engine.reads_as_words(words, turn, "red"), words
    assert not engine.reads_as_words("поставить Валенсия", turn, "red")
