"""What a worker keeps of the pages it draws: `Drawn`, a least-recently-used store by a
key naming all a thing is drawn from, and `kept`, a macro's output by its arguments.

(The pages' Jinja environments are Jinja's and Flask's own. An override that read a dict's
key before its attribute once saved half a board's drawing; with the parts of a page kept
here it saves nothing measurable: bench/page.py, with and without it alternated, p50 4.3 to
5.6 ms with it and 3.9 to 4.5 ms without.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from cachetools import Cache, LRUCache, TTLCache
from flask import current_app
from markupsafe import Markup

from pbem.languages import rendering_locale


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
        self._entries: Cache[Any, Any] = (
            LRUCache(maxsize=size) if seconds is None else TTLCache(maxsize=size, ttl=seconds)
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


def app_drawn(name: str, size: int, seconds: float | None = None) -> Drawn:
    """The current app's `Drawn` called `name`, made on first use: for what is drawn from
    the app's own routes or templates, or read from its database, which another app in the
    process may not share."""
    drawn: Drawn | None = current_app.extensions.get(name)
    if drawn is None:
        drawn = current_app.extensions.setdefault(name, Drawn(size, seconds=seconds))
    return drawn


#: Macros' output by the macro and all its arguments (`kept`).
_KEPT = Drawn(16384)


def kept(macro: Any, *args: Any) -> Markup:
    """`macro(*args)`, drawn once per worker for the same arguments, for macros whose output
    is a function of their arguments alone (they read no globals: no `url_for`, no request).

    The arguments must be plain data (dicts, lists, tuples, strings, numbers, booleans,
    None, Markup), whose `repr` names all of it and tells apart what a template would draw
    differently (`1`, `1.0` and `True`; a string and Markup): the key is that `repr`, so it
    names everything the piece shows."""
    shown: Markup = _KEPT.get((macro, repr(args)), lambda: macro(*args))
    return shown
