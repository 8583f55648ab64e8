"""Random play over HTTP, shared by the end-to-end and leak tests."""

from __future__ import annotations

import random
from collections.abc import Callable

import engine

MAX_MOVES = 5000


def play_random_game(
    api,
    game_id: int,
    keys: dict[str, str],
    rng: random.Random,
    after_move: Callable[[str, dict, dict], None] | None = None,
) -> int:
    """Play to the end: a random pending seat picks a random legal move through its own key.

    `keys` is {colour: key}; in a two-colour game a person's two colours share a key. Such a
    person names the colour (`?colour=` and `colour` in the body) only when both of theirs
    are pending, so the server's choice of the one pending colour is played through too.
    `after_move(colour, move, response_body)` is called after each committed move. Returns
    the number of moves played.
    """
    played = 0
    while played < MAX_MOVES:
        view = api.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            return played
        to_move = sorted({p["player"] for p in view["pending"]})
        colour = rng.choice(to_move)
        key = keys[colour]
        mine_to_move = [c for c in to_move if keys[c] == key]
        extra = {"colour": colour} if len(mine_to_move) > 1 else {}
        path = f"/api/games/{game_id}/legal-moves" + (f"?colour={colour}" if extra else "")
        legal = api.get(path, key).get_json()
        assert legal["seq"] == view["seq"] and legal["colour"] == colour, (colour, legal)
        assert legal["moves"], f"{colour} is pending but has no legal move at {view['seq']}"
        move = rng.choice(legal["moves"])
        response = api.post_moves(game_id, key, [move], legal["seq"], **extra)
        assert response.status_code == 201, (move, response.get_json())
        body = response.get_json()
        assert body["seq"] == legal["seq"] + 1
        played += 1
        if after_move:
            after_move(colour, move, body)
    raise AssertionError(f"game {game_id} did not end within {MAX_MOVES} moves")


def step_randomly(api, game_id: int, keys: dict, rng: random.Random, count: int) -> None:
    """Play `count` moves: a random pending seat picks a random legal move."""
    for _ in range(count):
        view = api.get(f"/api/games/{game_id}").get_json()
        assert view["status"] == "active", "the game ended; step fewer moves"
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        response = api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], view["seq"])
        assert response.status_code == 201


def replay_record(record: dict):
    """The final state from a game's published record, through the engine alone."""
    options = record["options"] or None
    state = engine.new_game(record["colours"], seed=record["seed"], options=options)
    for number, entry in enumerate(record["moves"], start=1):
        assert entry["seq"] == number
        state, _ = engine.apply(state, entry["player"], entry["move"])
    return state


def replay_log(game, upto: int | None = None):
    """The state after the first `upto` logged moves (all by default), replayed from setup
    through the engine alone: no cache, no snapshot. Needs an app context."""
    from pbem.extensions import db
    from pbem.store.models import Move

    query = db.select(Move).where(Move.game_id == game.id).order_by(Move.seq)
    if upto is not None:
        query = query.where(Move.seq <= upto)
    state = engine.new_game(game.colours, seed=game.seed, options=game.options or None)
    for move in db.session.execute(query).scalars():
        state, _ = engine.apply(state, move.colour, move.move)
    return state


def stored_state(game):
    """The state the server holds for a game now (cache, row or snapshot). Needs an app
    context."""
    from pbem.game.states import current_state

    return current_state(game.id, game.seed, game.seq)


def said_forms(move: dict) -> set[str]:
    """Every way a page or mail may tell `move` in the language being rendered: in the
    notation, and in words under any card (or none), to its mover or of another. A secret
    move is told by none of them to anyone else."""
    from engine.data import CARD_STACKS
    from pbem.words.moves import describe_move

    forms = {engine.format_move(move)}
    for card in (None, *CARD_STACKS):
        forms |= {describe_move(move, own=own, card=card) for own in (True, False)}
    return forms
