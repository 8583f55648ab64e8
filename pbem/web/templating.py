"""The pages' Jinja environments: Jinja's own, with `a.b` on a dict reading its key first.

The pages' templates read the dicts `board` and `pages` build (places, stacks, log rows,
choices) as `row.name`. Jinja tries an attribute first and looks up the key only after
catching AttributeError, once per dot: that was half the time to draw a board. A dict's key
and a dict's method cannot be told apart this way, so these templates never call a dict's
methods (`.items()`, `.get()`); a name that is not a key still falls back to the attribute.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import jinja2
from cachetools import LRUCache
from flask import current_app
from flask.templating import Environment as FlaskEnvironment
from markupsafe import Markup

from pbem.languages import rendering_locale


class _DictKeysFirst:
    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        # Jinja's own order for the rest (an attribute, else an item), the attribute tried
        # here first: `super()` costs more than the lookup, on a path taken at every dot.
        try:
            return getattr(obj, attribute)
        except AttributeError:
            return jinja2.Environment.getattr(self, obj, attribute)  # type: ignore[arg-type]


class Environment(_DictKeysFirst, jinja2.Environment):
    """For `board`'s own rendering (snapshots, standalone pages)."""


class AppEnvironment(_DictKeysFirst, FlaskEnvironment):
    """For the app's templates: set as `app.jinja_environment` before `app.jinja_env` is
    first used."""


class Drawn:
    """Things drawn once per worker, by a key that names everything they are drawn from (and
    the language they are drawn in):
    the least recently used out first. A key holds the game's id, seed and seq, so a move
    (a new seq) makes new keys rather than stale entries: nothing needs invalidating."""

    def __init__(self, size: int, in_language: bool = True) -> None:
        self.size = size
        self.in_language = in_language  # False: what is kept holds no words (and is read
        # before the reader's language is known, e.g. the session it is kept in)
        self._entries: LRUCache[Any, Any] = LRUCache(maxsize=size)
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


def app_drawn(name: str, size: int) -> Drawn:
    """The current app's `Drawn` called `name`, made on first use: for what is drawn from
    the app's own routes or templates, which another app in the process may not share."""
    drawn: Drawn | None = current_app.extensions.get(name)
    if drawn is None:
        drawn = current_app.extensions.setdefault(name, Drawn(size))
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
