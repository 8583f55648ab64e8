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


def acting(
    state: engine.State,
    player: str,
    card: str,
    *,
    stack: int | None = None,
    vetoes: tuple[str, ...] = (),
) -> engine.State:
    """A copy of `state` in which `player` has just chosen `card` and may act.

    The other colours follow in seat order; `vetoes` hold an unexpired Veto card each.
    """
    from engine.data import CARD_STACKS

    state = state.copy()
    seats = state.colours
    order = seats[seats.index(player) :] + seats[: seats.index(player)]
    state.phase = "turn"
    state.power_played = {}
    for colour in order:  # each plays its highest card not yet played this round
        value = max(v for v in state.hands[colour] if v not in state.power_played.values())
        state.hands[colour].remove(value)
        state.discards[colour].append(value)
        state.power_played[colour] = value
    state.turn_order = order
    state.last_round_lowest = order[-1]
    state.turn_index = 0
    stack = stack or min(CARD_STACKS[card])
    state.face_up = {s: (None if s == stack else c) for s, c in state.face_up.items()}
    state.taken = [{"player": player, "card": card, "stack": stack}]
    state.turn = {
        "player": player,
        "step": "act",
        "draw_limit": 0,
        "drawn": 0,
        "card": card,
        "stack": stack,
        "place_limit": stack,
        "placed": 0,
        "placement": "open",
        "special": "open",
    }
    state.vetoes = [{"player": c, "expires": state.round_index + 1} for c in vetoes]
    return state


def special_events(events: list) -> list:
    return [e for e in events if e["type"] == "special_action"]


def waiting(state: engine.State) -> list[tuple[str, str]]:
    """Who must act now and on what, without the details pending() adds."""
    return [(p["player"], p["kind"]) for p in engine.pending(state)]


def step_quickly(state: engine.State) -> tuple[engine.State, list]:
    """The first pending player makes a do-little move: choose a card or end the turn where
    they can, else their first legal move. For tests that only need time to pass."""
    player = engine.pending(state)[0]["player"]
    moves = engine.legal_moves(state, player)
    move = next((m for m in moves if m["type"] in ("end_turn", "choose_card")), moves[0])
    return engine.apply(state, player, move)
