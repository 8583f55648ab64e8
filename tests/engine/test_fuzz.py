"""Whatever arrives as a move, `apply` answers IllegalMove or a new state, never a crash."""

import contextlib
import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.bots import RandomBot
from engine.moves import FORMS

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 20)
    | st.floats(allow_nan=False)
    | st.sampled_from(
        [
            "aragon",
            "castillo",
            "king",
            "",
            "court",
            "red",
            "blue",
            "yellow",
            "province",
            "lisbon",
            "8/4/0",
            "4/0/0",
            "court_two",
            "own_region",
        ]
    )
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
field_names = st.sampled_from(
    [
        "card",
        "count",
        "region",
        "to",
        "stack",
        "player",
        "x",
        "colour",
        "from",
        "option",
        "scoreboard",
        "from_step",
    ]
)
moves = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(sorted(FORMS)) | st.text(max_size=6)},
        optional={
            "card": json_values,
            "count": json_values,
            "region": json_values,
            "to": json_values,
            "stack": json_values,
        },
    ),
    st.dictionaries(field_names, json_values, max_size=4),
)


def positions():
    """Positions from every phase and every special-action stage of random games."""
    out = []
    stages = set()
    for seed in range(12):
        state = engine.new_game(["red", "blue", "green", "yellow"], seed=seed)
        bot = RandomBot(seed)
        while not engine.is_over(state):
            player = engine.pending(state)[0]["player"]
            state, _ = engine.apply(state, player, bot.choose(state, player))
            frame = state.special
            key = (state.phase, frame and frame["card"], frame and frame["stage"])
            if key not in stages or bot.rng.below(60) == 0:
                stages.add(key)
                out.append(state)
        out.append(state)
    return out


POSITIONS = positions()


def test_positions_cover_every_special_stage():
    stages = {(p.special["card"], p.special["stage"]) for p in POSITIONS if p.special}
    assert {card for card, _ in stages} >= {"king_rages", "eviction", "intrigue_four_any"}
    assert {stage for _, stage in stages} == {"planning", "inputs", "window"}


#: Moves thrown at the positions each run; ENGINE_FUZZ_EXAMPLES=20000 for a longer hunt.
EXAMPLES = int(os.environ.get("ENGINE_FUZZ_EXAMPLES", "1200"))


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.sampled_from(range(len(POSITIONS))),
    st.sampled_from(["red", "blue", "green", "yellow", "brown", None, 3]),
    moves,
)
def test_apply_never_crashes_and_never_mutates(index, player, move):
    state = POSITIONS[index]
    before = engine.to_dict(state)
    try:
        engine.apply(state, player, move)
    except engine.IllegalMove as refusal:
        assert str(refusal).endswith((".", ")")) and len(str(refusal)) > 15
    assert engine.to_dict(state) == before


BAD_VALUES = [
    None,
    True,
    -1,
    0,
    99,
    "",
    "lisbon",
    "castillo",
    "province",
    "court",
    "king",
    "red",
    "brown",
    "8/4/0",
    [],
    {},
    2.5,
]


def test_every_field_of_every_legal_move_swapped_for_junk():
    """Each legal move with one field replaced by junk: refused or played, never a crash."""
    tried = 0
    for state in POSITIONS:
        for waiting in engine.pending(state):
            player = waiting["player"]
            before = engine.to_dict(state)
            for move in engine.legal_moves(state, player)[:40]:
                for field in [f for f in move if f != "type"]:
                    for junk in BAD_VALUES:
                        with contextlib.suppress(engine.IllegalMove):
                            engine.apply(state, player, {**move, field: junk})
                        tried += 1
                for other in ("red", "blue", "green", "yellow", "brown"):
                    with contextlib.suppress(engine.IllegalMove):
                        engine.apply(state, other, move)
            assert engine.to_dict(state) == before
    assert tried > 5000


@settings(max_examples=500, deadline=None)
@given(
    st.lists(json_values, max_size=6) | json_values,
    st.integers() | json_values,
    st.none()
    | st.dictionaries(
        st.sampled_from(["rounds", "variant", "first_player", "x"]),
        json_values | st.sampled_from([6, 9, "two_colour", "red"]),
    )
    | json_values,
)
def test_new_game_refuses_junk_with_value_error_only(colours, seed, options):
    try:
        state = engine.new_game(colours, seed=seed, options=options)
    except ValueError as refusal:
        assert str(refusal)
    else:
        assert engine.pending(state)


def _scramble(value):
    """Empty every list and dict inside `value`, as a careless client might."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scramble(item)
        value.clear()
    elif isinstance(value, list):
        for item in value:
            _scramble(item)
        value.clear()


def test_views_share_nothing_with_the_state():
    """States may be cached and shared (the server does): a view must be a copy."""
    for state in POSITIONS:
        before = engine.to_dict(state)
        # Snapshots by value: the scrambling below must not reach them.
        views = {v: json.loads(json.dumps(engine.view(state, v))) for v in [*state.colours, None]}
        pending = json.loads(json.dumps(engine.pending(state)))
        moves = {
            w["player"]: json.loads(json.dumps(engine.legal_moves(state, w["player"])))
            for w in pending
        }
        for viewer in views:
            _scramble(engine.view(state, viewer))
        _scramble(engine.pending(state))
        for player in moves:
            _scramble(engine.legal_moves(state, player))
        assert engine.to_dict(state) == before
        assert {viewer: engine.view(state, viewer) for viewer in views} == views
        assert engine.pending(state) == pending
        assert {p: engine.legal_moves(state, p) for p in moves} == moves


def _every_move():
    """Every move the forms allow over a small domain of field values."""
    import itertools

    from engine.data import CARD_STACKS, COLOURS, PLACES

    domains = {
        "card": [*range(0, 15), *sorted(CARD_STACKS)],
        "count": list(range(-1, 8)),
        "region": [*PLACES, "lisbon"],
        "to": [*PLACES, "court"],
        "from": [*PLACES, "court", "province"],
        "colour": list(COLOURS),
        "player": list(COLOURS),
        "stack": [1, 2, 3, 4, 5],
        "option": ["court_two", "own_region", "both"],
        "scoreboard": ["8/4/0", "4/0/0"],
        "from_step": list(range(0, 8)),
    }
    for form in FORMS.values():
        names = list(form.required)
        for values in itertools.product(*(domains[n] for n in names)):
            move = {"type": form.type, **dict(zip(names, values, strict=True))}
            # `card` is an int for power cards, text for action cards.
            if all(
                isinstance(move[n], form.required[n]) and not isinstance(move[n], bool)
                for n in names
            ):
                yield move


EVERY_MOVE = list(_every_move())


def test_legal_moves_are_exactly_the_moves_apply_accepts():
    checked = 0
    for state in POSITIONS[::2]:
        for player in state.colours:
            legal = engine.legal_moves(state, player)
            accepted = []
            for move in EVERY_MOVE:
                try:
                    engine.apply(state, player, move)
                except engine.IllegalMove:
                    continue
                accepted.append(move)
            # choose_card is listed with its stack; the same move without it is accepted too.
            listed = [
                {k: v for k, v in m.items() if k != "stack"} if m["type"] == "choose_card" else m
                for m in legal
            ]
            assert sorted(map(str, accepted)) == sorted(map(str, listed)), (player, state.phase)
            checked += 1
    assert checked > 100
