"""The typed shapes of engine.types against what the engine registers and what it produces.

Every move form (engine.moves.FORMS) has its TypedDict and every move TypedDict its form,
with the same fields, required-ness and types, so a new move type cannot lack its type. The
events, pending lists, legal moves, views and logs of random games have the shapes their
types say, so the types cannot drift from the engine either.
"""

from functools import cache
from types import NoneType, UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import engine
from engine.bots import RandomBot
from engine.moves import FORMS
from engine.notation import NOTATION
from engine.rng import Rng
from engine.types import (
    EVENT_TYPES,
    MOVE_TYPES,
    Event,
    HiddenLogEntry,
    LogEntry,
    Move,
    Pending,
    ShownLogEntry,
    View,
)

from .test_notation import _rare_positions
from .test_random_games import game_setups

# -- moves against their forms ------------------------------------------------------------


def test_every_move_form_has_a_typed_dict_and_every_typed_dict_a_form():
    assert sorted(MOVE_TYPES) == sorted(FORMS)
    assert set(get_args(Move)) == set(MOVE_TYPES.values())


@pytest.mark.parametrize("move_type", sorted(FORMS))
def test_a_move_typed_dict_has_exactly_its_form_s_fields(move_type):
    form, typed = FORMS[move_type], MOVE_TYPES[move_type]
    hints = get_type_hints(typed)
    assert hints.pop("type") == Literal[move_type]
    assert hints == {**form.required, **form.optional}
    assert typed.__required_keys__ == {"type", *form.required}
    assert typed.__optional_keys__ == set(form.optional)


@pytest.mark.parametrize("move_type", sorted(NOTATION))
def test_a_notation_slot_reads_its_field_s_type(move_type):
    # engine.notation builds the moves a line spells from its slots: a number slot must be
    # an int field and a name slot a str field for those moves to be of their type.
    fields = {**FORMS[move_type].required, **FORMS[move_type].optional}
    for slot in NOTATION[move_type].slots:
        assert fields[slot.field] is (int if slot.kind == "number" else str), slot


def test_every_event_typed_dict_is_keyed_by_its_type():
    assert set(get_args(Event)) == set(EVENT_TYPES.values())
    for name, typed in EVENT_TYPES.items():
        assert get_type_hints(typed)["type"] == Literal[name]


# -- what the engine produces ---------------------------------------------------------------


@cache
def _hints(typed: Any) -> dict[str, Any]:
    return get_type_hints(typed)


def conforms(value: Any, hint: Any) -> bool:
    """Whether JSON-like `value` has the shape of the type `hint` (TypedDicts, unions,
    Literals, lists, dicts and scalars; a TypedDict's keys exactly as it declares)."""
    if is_typeddict(hint):
        hints = _hints(hint)
        return (
            isinstance(value, dict)
            and hint.__required_keys__ <= value.keys() <= hints.keys()
            and all(conforms(item, hints[key]) for key, item in value.items())
        )
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return any(type(value) is type(a) and value == a for a in args)
    if origin in (Union, UnionType):
        return any(conforms(value, a) for a in args)
    if origin is list:
        return isinstance(value, list) and all(conforms(item, args[0]) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items()
        )
    if hint is Any:
        return True
    if hint is NoneType:
        return value is None
    return type(value) is hint  # int, str, bool: a bool is no int here


def check_move(move: Any) -> str:
    assert conforms(move, MOVE_TYPES[move["type"]]), move
    return move["type"]


def check_events(events: list[Event]) -> set[str]:
    for event in events:
        assert conforms(event, EVENT_TYPES[event["type"]]), event
    return {event["type"] for event in events}


def test_random_games_produce_the_shapes_their_types_say():
    setups = list(game_setups())
    moves: set[str] = set()
    events: set[str] = set()
    # Every 5th game from the second: two-colour ones among them, and every move and event
    # type (a Veto expires in the second).
    for colours, seed, options in setups[1::5]:
        bot, rng = RandomBot(seed), Rng(17)
        state = engine.new_game(colours, seed=seed, options=options)
        log: list[LogEntry] = []
        while not engine.is_over(state):
            waiting = engine.pending(state)
            assert conforms(waiting, list[Pending]), waiting
            for w in waiting:
                moves |= {check_move(m) for m in engine.legal_moves(state, w["player"])}
            if len(log) % 10 == 0:
                for viewer in [*state.colours, None]:
                    shown = engine.view(state, viewer)
                    assert conforms(shown, View), (viewer, shown)
            player = waiting[rng.below(len(waiting))]["player"]
            move = bot.choose(state, player)
            state, new = engine.apply(state, player, move)
            events |= check_events(new)
            log.append({"seq": len(log) + 1, "player": player, "move": move, "events": new})
        assert conforms(engine.view(state, None), View)
        for colour in state.colours:
            for entry in engine.visible_log(log, {colour}):
                wanted = HiddenLogEntry if "hidden" in entry else LogEntry
                assert conforms(entry, wanted) and conforms(entry, ShownLogEntry), entry
    for state, player in _rare_positions():
        moves |= {check_move(m) for m in engine.legal_moves(state, player)}
    assert moves == set(MOVE_TYPES), set(MOVE_TYPES) - moves
    assert events == set(EVENT_TYPES), set(EVENT_TYPES) - events
