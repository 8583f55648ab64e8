"""Random play over HTTP, shared by the end-to-end and leak tests."""

from __future__ import annotations

import random
from collections.abc import Callable

import engine

MAX_MOVES = 5000


def play_random_game(
    api, game_id: int, keys: dict[str, str], rng: random.Random,
    after_move: Callable[[str, dict, dict], None] | None = None,
) -> int:
    """Play to the end: a random pending seat picks a random legal move through its own key.

    `after_move(colour, move, response_body)` is called after each committed move. Returns
    the number of moves played.
    """
    played = 0
    while played < MAX_MOVES:
        view = api.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            return played
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        assert legal["seq"] == view["seq"] and legal["colour"] == colour
        assert legal["moves"], f"{colour} is pending but has no legal move at {view['seq']}"
        move = rng.choice(legal["moves"])
        response = api.post_moves(game_id, keys[colour], [move], legal["seq"])
        assert response.status_code == 201, (move, response.get_json())
        body = response.get_json()
        assert body["seq"] == legal["seq"] + 1
        played += 1
        if after_move:
            after_move(colour, move, body)
    raise AssertionError(f"game {game_id} did not end within {MAX_MOVES} moves")


def replay_record(record: dict):
    """The final state from a game's published record, through the engine alone."""
    options = record["options"] or None
    state = engine.new_game(record["colours"], seed=record["seed"], options=options)
    for number, entry in enumerate(record["moves"], start=1):
        assert entry["seq"] == number
        state, _ = engine.apply(state, entry["player"], entry["move"])
    return state
