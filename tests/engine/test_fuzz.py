"""Whatever arrives as a move, `apply` answers IllegalMove or a new state, never a crash."""

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
    | st.sampled_from(["aragon", "castillo", "king", "", "court", "red"])
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
field_names = st.sampled_from(["card", "count", "region", "to", "stack", "player", "x"])
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
    """A handful of positions from each phase of a random game."""
    state = engine.new_game(["red", "blue", "green", "yellow"], seed=8)
    bot, out = RandomBot(1), [state]
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, player, bot.choose(state, player))
        if len(out) < 40 and state.phase != out[-1].phase or bot.rng.below(25) == 0:
            out.append(state)
    return out + [state]


POSITIONS = positions()


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow], deadline=None)
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
