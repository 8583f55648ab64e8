"""A per-process cache of the latest engine state of recently played games.

Reading a game's state column and rebuilding the engine state from it costs more than the
engine's own work on a move, and most requests for a game come right after its last move.
So each app instance (one per gunicorn worker) keeps the state it last read or committed for
each game, keyed by game id, seed and seq.

Why this is safe without any invalidation: the move log is append-only, so the state after
`seq` moves of a game is one fixed value. A caller asks for the seq it has just read from the
game's row in its own query; an entry for any other seq is simply not used, so a move
committed by another worker makes this worker's entry miss rather than go stale. The seed is
part of the key because ids can be reused when rows are deleted (SQLite does so), and a
game's seed is 62 random bits. An entry is stored only from a committed row or after a
successful commit, so a rolled-back batch never reaches the cache.

The cached states are shared between the threads of a worker: callers must treat them as
read-only, which the engine's API already promises (`apply` copies, `view` and `legal_moves`
only read).
"""

from __future__ import annotations

import threading

from cachetools import LRUCache
from flask import Flask, current_app

import engine

#: Games kept per worker; a state is a few KiB, so this bounds the cache to a few MiB.
DEFAULT_SIZE = 1024


class StateCache:
    """The latest known state of up to `size` games, least recently used out first."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: LRUCache[int, tuple[int, int, engine.State]] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, game_id: int, seed: int, seq: int) -> engine.State | None:
        """The state of game `game_id` after `seq` moves, if this worker holds exactly it."""
        with self._lock:
            entry = self._entries.get(game_id)  # a hit counts as a use
            if entry is None or entry[0] != seed or entry[1] != seq:
                return None
            return entry[2]

    def put(self, game_id: int, seed: int, seq: int, state: engine.State) -> None:
        """Remember `state` as the game after `seq` moves (only ever from committed data)."""
        with self._lock:
            entry = self._entries.get(game_id)
            # Two threads may race to store; keep the later of two states of the same game.
            if entry is not None and entry[0] == seed and entry[1] > seq:
                return
            self._entries[game_id] = (seed, seq, state)  # the least recently used goes out

    def __len__(self) -> int:
        return len(self._entries)


def init_app(app: Flask) -> None:
    app.extensions["pbem_state_cache"] = StateCache(
        app.config.get("PBEM_STATE_CACHE_SIZE", DEFAULT_SIZE)
    )


def state_cache() -> StateCache:
    """The current app's cache."""
    cache: StateCache = current_app.extensions["pbem_state_cache"]
    return cache
