"""What a worker keeps of what it draws (a page's part, an answer's body): `Drawn`, a
least-recently-used store by a key naming all a thing is drawn from, and `app_drawn`, one
such store per app. The pages and the API keep theirs here."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from cachetools import Cache, LRUCache, TTLCache
from flask import current_app

from pbem.clock import now
from pbem.languages import rendering_locale


def _clock_seconds() -> float:
    return now().timestamp()


class Drawn:
    """Things drawn once per worker, by a key that names everything they are drawn from (and
    the language they are drawn in):
    the least recently used out first. A key holds the game's id, seed and seq, so a move
    (a new seq) makes new keys rather than stale entries: nothing needs invalidating. What
    changes with no key to name it (a player's record) is kept `seconds` at most."""

    def __init__(self, size: int, in_language: bool = True, seconds: float | None = None) -> None:
        self.size = size
        self.in_language = in_language  # False: what is kept holds no words (and is read
        # before the reader's language is known, e.g. the session it is kept in)
        # Kept by the one clock (`pbem.clock`), not the process's: a test that sets the time
        # decides what has expired, and no comparison of two reads flakes on a slow machine.
        self._entries: Cache[Any, Any] = (
            LRUCache(maxsize=size)
            if seconds is None
            else TTLCache(maxsize=size, ttl=seconds, timer=_clock_seconds)
        )
        self._lock = threading.Lock()

    def get(self, key: Any, draw: Callable[[], Any]) -> Any:
        if self.in_language:
            # Drawn in the reader's language: the same thing in another is another.
            key = (rendering_locale(), key)
        with self._lock:
            hit = self._entries.get(key)  # a hit counts as a use
        if hit is not None:
            return hit
        drawn = draw()
        with self._lock:
            self._entries[key] = drawn  # the least recently used goes out
        return drawn


def app_drawn(
    name: str, size: int, seconds: float | None = None, in_language: bool = True
) -> Drawn:
    """The current app's `Drawn` called `name`, made on first use: for what is drawn from
    the app's own routes or templates, or read from its database, which another app in the
    process may not share."""
    drawn: Drawn | None = current_app.extensions.get(name)
    if drawn is None:
        made = Drawn(size, in_language=in_language, seconds=seconds)
        drawn = current_app.extensions.setdefault(name, made)
    return drawn
