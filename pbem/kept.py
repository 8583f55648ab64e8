"""What a worker keeps of what it draws (a page's part, an answer's body): `Drawn`, a
least-recently-used store by a key naming all a thing is drawn from, and `app_drawn`, one
such store per app. The pages and the API keep theirs here."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from cachetools import LRUCache
from flask import current_app

from pbem.languages import rendering_locale


class Drawn:
    """Things drawn once per worker, by a key that names everything they are drawn from (and
    the language they are drawn in), at most `size` of them, the least recently used out
    first. A key holds what the request read from the database (a game's id, seed and seq;
    a seat holder's newest decision and rating), so a change through any node makes new
    keys rather than stale entries: nothing needs invalidating, and nothing is kept for a
    time (a clock would let a stale entry be read, and a slow test flake)."""

    def __init__(self, size: int, in_language: bool = True) -> None:
        self.size = size
        self.in_language = in_language  # False: what is kept holds no words (and is read
        # before the reader's language is known, e.g. the session it is kept in)
        self._entries: LRUCache[Any, Any] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def _keyed(self, key: Any) -> Any:
        # Drawn in the reader's language: the same thing in another is another.
        return (rendering_locale(), key) if self.in_language else key

    def get(self, key: Any, draw: Callable[[], Any]) -> Any:
        key = self._keyed(key)
        with self._lock:
            hit = self._entries.get(key)  # a hit counts as a use
        if hit is not None:
            return hit
        drawn = draw()
        with self._lock:
            self._entries[key] = drawn  # the least recently used goes out
        return drawn

    def latest(self, subject: Any, key: Any, draw: Callable[[], Any]) -> Any:
        """`draw()` kept as `subject`'s one drawing (a game's seats), by `key`: while the
        key read now is the one it was drawn from, it is used again; another key draws it
        anew in its place. So a subject whose key moves on (each move) leaves no drawing
        behind that no read will ask for again, and `size` counts subjects."""
        subject = self._keyed(subject)
        with self._lock:
            hit = self._entries.get(subject)
        if hit is not None and hit[0] == key:
            return hit[1]
        drawn = draw()
        with self._lock:
            self._entries[subject] = (key, drawn)
        return drawn


def app_drawn(name: str, size: int, in_language: bool = True) -> Drawn:
    """The current app's `Drawn` called `name`, made on first use: for what is drawn from
    the app's own routes or templates, or read from its database, which another app in the
    process may not share."""
    drawn: Drawn | None = current_app.extensions.get(name)
    if drawn is None:
        made = Drawn(size, in_language=in_language)
        drawn = current_app.extensions.setdefault(name, made)
    return drawn
