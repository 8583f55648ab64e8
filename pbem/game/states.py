"""Engine states of stored games: from this worker's cache, the game's row, or a snapshot
and the few moves after it. Never a replay from move 0 once a game has snapshots.

States handed out here may be shared between threads (the cache keeps them): callers treat
them as read-only, which the engine promises (`apply` copies; views and legal moves read).
"""

from __future__ import annotations

from typing import Any

import engine
from pbem.extensions import db
from pbem.game.state_cache import state_cache
from pbem.store import queries, reads
from pbem.store.models import Game
from pbem.store.queries import SnapshotRow

#: A game's options that are the server's, not the rules': `hints` (its players may ask the
#: strong bot for a hint; such a game is never rated) and `learn` (a game that teaches: each
#: new kind of decision explained the first time, `pbem.words.lessons`). The engine is never
#: given them.
SERVER_OPTIONS = frozenset({"hints", "learn"})


def rules_options(options: dict[str, Any] | None) -> dict[str, Any] | None:
    """The options the engine sets a game up with (None: none): a game's, less the server's."""
    rules = {k: v for k, v in (options or {}).items() if k not in SERVER_OPTIONS}
    return rules or None


def hints_allowed(options: dict[str, Any] | None) -> bool:
    return bool((options or {}).get("hints"))


def teaches(options: dict[str, Any] | None) -> bool:
    return bool((options or {}).get("learn"))


def new_state(game: Any) -> engine.State:
    """The state at setup, from the game's colours, seed and options."""
    return engine.new_game(game.colours, seed=game.seed, options=rules_options(game.options))


def current_state(game_id: int, seed: int, seq: int) -> engine.State:
    """The state of the game after `seq` moves, where `seq` is what the caller has just read
    from the game's row.

    On a cache miss the state column is read together with the row's seq in one statement,
    so the state stored in the cache always belongs to the seq stored with it. If the row
    has moved past `seq` in the meantime, the state at `seq` is rebuilt from the record (a
    move built on it then loses at its conditional update).
    """
    cache = state_cache()
    state = cache.get(game_id, seed, seq)
    if state is not None:
        return state
    row = queries.STATE.first(reads.connection(), {"game": game_id})
    if row is not None and row.seq == seq and row.state is not None:
        state = engine.from_dict(row.state, copy=False)  # just decoded: no one else holds it
    else:
        state = state_at(db.session.get(Game, game_id), seq)
    cache.put(game_id, seed, seq, state)
    return state


def state_at(game: Any, seq: int) -> engine.State:
    """The state after move `seq`: the latest snapshot at or before it, then the moves after.

    A game without snapshots (made before they existed) is replayed from its setup.
    """
    connection = reads.connection()
    snapshot = queries.snapshot_at_or_before(connection, game.id, seq)
    if snapshot is not None:
        state, after = engine.from_dict(snapshot.state, copy=False), snapshot.seq
    else:
        # Replayed from setup, which takes the game's colours and options: read here, as the
        # rows callers pass (a page's) leave those out.
        state, after = new_state(db.session.get(Game, game.id)), 0
    for row in queries.moves_between(connection, game.id, after, seq):
        state, _ = engine.apply(state, row.colour, row.move)
    return state


def snapshots_of(batch: engine.Batch[engine.State], first_seq: int) -> list[SnapshotRow]:
    """Snapshot rows for a batch whose first move is `first_seq`: one after each move that
    started a round."""
    return [
        {"seq": first_seq + index, "state": engine.to_dict(played.state)}
        for index, played in enumerate(batch.played)
        if any(event["type"] == "round_started" for event in played.events)
    ]
