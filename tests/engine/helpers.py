"""Small helpers for engine tests: build positions and check refusals."""

from __future__ import annotations

import re
from typing import Any

import pytest

import engine
from engine.data import LOCATIONS


def refuse(state: engine.State, player: str, move: Any, pattern: str) -> engine.IllegalMove:
    """Assert `move` is refused with a message matching `pattern`, and nothing changed."""
    before = engine.to_dict(state)
    with pytest.raises(engine.IllegalMove) as info:
        engine.apply(state, player, move)
    assert re.search(pattern, str(info.value), re.IGNORECASE), str(info.value)
    assert engine.to_dict(state) == before
    return info.value


def play(state: engine.State, *moves: tuple[str, dict[str, Any]]) -> tuple[engine.State, list]:
    events: list = []
    for player, move in moves:
        state, new = engine.apply(state, player, move)
        events.extend(new)
    return state, events


def play_power_cards(state: engine.State, values: dict[str, int]) -> tuple[engine.State, list]:
    """Play this round's power cards, each pending player playing its value from `values`."""
    events: list = []
    while state.phase == "power_cards":
        player = engine.pending(state)[0]["player"]
        state, new = engine.apply(
            state, player, {"type": "play_power_card", "card": values[player]}
        )
        events.extend(new)
    return state, events


def set_caballeros(state: engine.State, colour: str, **where: int) -> engine.State:
    """A copy of `state` with `colour`'s caballeros moved to the given counts.

    The difference is taken from (or given to) the province so the 30 still add up.
    """
    state = state.copy()
    here = state.caballeros[colour]
    for location, n in where.items():
        assert location in LOCATIONS, location
        here["province"] -= n - here[location]
        here[location] = n
    assert here["province"] >= 0 and sum(here.values()) == 30
    return state


def empty_board(state: engine.State) -> engine.State:
    """A copy with every caballero on the board sent back to the province."""
    state = state.copy()
    for colour in state.colours:
        here = state.caballeros[colour]
        for location in list(here):
            if location not in ("province", "court"):
                here["province"] += here[location]
                here[location] = 0
    return state
