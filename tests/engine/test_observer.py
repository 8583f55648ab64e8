"""The observer keeps every secret, where secrecy is decided: at every step of whole games
played in the engine (three, five and two-colour four players, leaning to the Castillo; and
one leaning to taking a power card back), every reader's view, legal moves, log and events
are held to what the rules' own record says is secret then (`tests.secret_oracle`). The
doors render these (tests/server/test_secrets.py, tests/web/test_page_secrets.py read them
at the moments a secret is open)."""

from __future__ import annotations

import json
import random

import pytest

import engine
from tests.secret_oracle import (
    EngineGame,
    people_of,
    play_in_engine,
    seed_with_face_up,
    take_a_card_back,
    to_castillo,
)


def read_as_json(document):
    return json.loads(json.dumps(document))


def check_every_step(game: EngineGame) -> int:
    """Every reader's view, legal moves, log and events at every step; how many steps held
    another's open secret."""
    people = people_of(game.colours, game.two_colour)
    opened = 0
    for moment in game.moments:
        secrets, state = moment.secrets, moment.state
        opened += bool(secrets.open_picks or secrets.returns)
        entries = game.entries(moment.seq)
        for person in [*people, frozenset()]:
            where = f"seq {moment.seq}, {sorted(person) or 'nobody'}"
            for colour in sorted(person) or [None]:
                secrets.check(read_as_json(engine.view(state, colour)), person, f"view {where}")
                if colour is not None:
                    moves = engine.legal_moves(state, colour)
                    secrets.check(read_as_json(moves), person, f"legal moves {where}")
            shown = engine.visible_log(entries, person)
            secrets.check(read_as_json(shown), person, f"log {where}")
        if moment.seq:
            events = engine.visible_events(game.events[moment.seq - 1], [], committed=True)
            secrets.check(read_as_json(events), frozenset(), f"events at {moment.seq}")
    return opened


@pytest.mark.parametrize(
    ("colours", "seed", "options"),
    [
        (["red", "blue", "green"], 21, {"rounds": 6}),
        (["red", "yellow", "green", "blue", "brown"], 22, {"rounds": 6}),
        (["red", "yellow", "green", "blue"], 23, {"rounds": 6, "variant": "two_colour"}),
    ],
    ids=["three", "five", "two-colour"],
)
def test_no_reader_sees_anothers_secret_at_any_step(colours, seed, options):
    game = play_in_engine(colours, seed, random.Random(seed), to_castillo, options=options)
    assert engine.is_over(game.moments[-1].state)
    assert check_every_step(game) > 0
    game.first("pick")  # a secret pick was in while others were still to pick


def test_no_reader_learns_which_power_card_came_back():
    colours = ["red", "blue", "green"]
    seed = seed_with_face_up("power_card_return", colours)
    game = play_in_engine(colours, seed, random.Random(3), take_a_card_back, lean=0.95)
    game.first("return")
    assert check_every_step(game) > 0
