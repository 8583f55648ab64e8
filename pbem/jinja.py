"""Jinja as every template here is drawn in: the pages' (Flask's environment), the
board's and the mails'.

What the templates show mostly reaches them as plain dicts (an engine's view, a region
seen, a player's seat) and is read there as attributes: `view.king`, `seen.caballeros`.
Jinja's own `getattr` asks for an attribute first and reads the key only after catching
the AttributeError that a dict raises; a decision mail's board table reads about a hundred
such keys, and raising and catching each was a twentieth of composing the mail.
"""

from __future__ import annotations

from typing import Any

import jinja2
from flask.templating import Environment as _FlaskEnvironment

#: All a plain dict has as attributes: its methods and what it has from `object`.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _KeysOfPlainDicts:
    """`getattr` that reads a plain dict's key at once where Jinja's would fail first and
    then read it: the same answers, with no exception raised for each."""

    undefined: type[jinja2.Undefined]

    def getattr(self, obj: Any, attribute: str) -> Any:
        # A plain dict has no other attribute: `obj.keys` still means the method, a subclass
        # (an OrderedDict) and every other object are looked at as Jinja does.
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        # Jinja's own `Environment.getattr`, written out: through `super()` each of the
        # other look-ups (a page's rows are named tuples) would cost a call more.
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)


class Environment(_KeysOfPlainDicts, jinja2.Environment):
    """A Jinja environment of our own (the board's, the mails')."""


class FlaskEnvironment(_KeysOfPlainDicts, _FlaskEnvironment):
    """The app's environment, for its pages (`App.jinja_environment`)."""
