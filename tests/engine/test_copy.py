"""`Board.copy` (so `apply`) shares with the original only what no rule ever changes."""

from dataclasses import fields

import engine
from engine.bots import RandomBot

# Fixed by setup for the whole game.
SHARED = {"colours", "options", "chart", "teams"}
# Lists whose entries are only ever added or removed whole, never changed.
ENTRIES_SHARED = {"taken", "vetoes"}


def containers(value, depth_limit=None):
    """The ids of every dict and list inside `value` (itself included)."""
    if isinstance(value, dict | list):
        yield id(value)
        if depth_limit == 0:
            return
        inner = value.values() if isinstance(value, dict) else value
        for item in inner:
            yield from containers(item, None if depth_limit is None else depth_limit - 1)


def test_a_copy_shares_no_container_a_move_may_change():
    bot = RandomBot(3)
    state = engine.new_game(["red", "blue", "green", "yellow"], seed=3)
    specials = 0
    while not engine.is_over(state):
        copy = state.copy()
        assert copy == state and type(copy) is type(state)
        for f in fields(state):
            if f.name in SHARED:
                continue
            limit = 0 if f.name in ENTRIES_SHARED else None
            mine = set(containers(getattr(state, f.name), limit))
            assert not mine & set(containers(getattr(copy, f.name), limit)), f.name
        specials += state.special is not None
        player = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, player, bot.choose(state, player))
    assert specials
