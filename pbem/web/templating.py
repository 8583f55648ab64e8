"""The pages' Jinja environments: Jinja's own, with `a.b` on a dict reading its key first.

The pages' templates read the dicts `board` and `pages` build (places, stacks, log rows,
choices) as `row.name`. Jinja tries an attribute first and looks up the key only after
catching AttributeError, once per dot: that was half the time to draw a board. A dict's key
and a dict's method cannot be told apart this way, so these templates never call a dict's
methods (`.items()`, `.get()`); a name that is not a key still falls back to the attribute.
"""

from __future__ import annotations

from typing import Any

import jinja2
from flask.templating import Environment as FlaskEnvironment


class _DictKeysFirst:
    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)  # type: ignore[misc]


class Environment(_DictKeysFirst, jinja2.Environment):
    """For `board`'s own rendering (snapshots, standalone pages)."""


class AppEnvironment(_DictKeysFirst, FlaskEnvironment):
    """For the app's templates: set as `app.jinja_environment` before `app.jinja_env` is
    first used."""
