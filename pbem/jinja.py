"""Jinja as every template here is drawn in: the pages' (Flask's environment), the
board's and the mails'.

What the templates show mostly reaches them as plain dicts (an engine's view, a region
seen, a player's seat) and is read there as attributes: `view.king`, `seen.caballeros`.
Jinja's own `getattr` asks for an attribute first and reads the key only after catching
the AttributeError that a dict raises; a decision mail's board table reads about a hundred
such keys, and raising and catching each was a twentieth of composing the mail.

And one filter every template has: `isolated`, for what a person wrote shown beside other
words (a name, a title, a line of table talk): in a page's HTML a `<bdi>` around it, in a
mail's text and HTML parts `texts.isolated` (the mail's own `MailEnvironment`: a tag between
a quotation mark and a word is what spam filters count as obfuscation), so that a character
of direction in it turns nothing around it.

And in a mail, `wordwrap` wraps each text once (`WRAPPED_KEPT` of them kept): a decision
mail's text part wraps the same cards' texts for every reader.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2
from flask.templating import Environment as _FlaskEnvironment
from jinja2.filters import do_wordwrap
from jinja2.nodes import EvalContext
from markupsafe import Markup

from pbem import texts

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


@jinja2.pass_eval_context
def isolated(eval_context: EvalContext, value: Any) -> Any:
    """`{{ name|isolated }}`: in an autoescaped template (HTML) the value in a `<bdi>`, which
    takes its direction from its own first letter and lends none of it to the words around
    it; in a text template the value as `texts.isolated` writes it."""
    if eval_context.autoescape:
        return Markup("<bdi>%s</bdi>") % value
    return texts.isolated(str(value))


class _Isolating:
    """An environment whose templates have `isolated`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters["isolated"] = isolated  # type: ignore[attr-defined]


class Environment(_Isolating, _KeysOfPlainDicts, jinja2.Environment):
    """A Jinja environment of our own (the board's)."""


def isolated_in_mail(value: Any) -> Any:
    """`{{ name|isolated }}` in a mail, HTML part or text: the value as `texts.isolated`
    writes it (escaped where the template escapes). Isolated by characters rather than a
    tag: SpamAssassin counts a tag that splits a word from a quotation mark ("&ldquo;<bdi>")
    as obfuscation, which marked each mail naming a game 0.6."""
    return texts.isolated(str(value))


#: How many wrapped texts a worker keeps (a text of a few hundred characters each).
WRAPPED_KEPT = 2048


@lru_cache(maxsize=WRAPPED_KEPT)
def _wrapped(text: str, width: int, break_long_words: bool, wrapstring: str, hyphens: bool) -> str:
    # The environment is Jinja's for its newline only, which `wrapstring` has already said.
    return do_wordwrap(_PLAIN, text, width, break_long_words, wrapstring, hyphens)


_PLAIN = jinja2.Environment()


@jinja2.pass_environment
def wordwrap(
    environment: jinja2.Environment,
    value: Any,
    width: int = 79,
    break_long_words: bool = True,
    wrapstring: str | None = None,
    break_on_hyphens: bool = True,
) -> str:
    """Jinja's `wordwrap`, each text wrapped once: most of what a mail wraps is the same for
    every reader of a position (the cards' texts, the round's cards, the King's line)."""
    if wrapstring is None:
        wrapstring = environment.newline_sequence
    return _wrapped(str(value), width, break_long_words, wrapstring, break_on_hyphens)


class MailEnvironment(Environment):
    """The mails' environment: `isolated` by characters, in both parts, and `wordwrap` kept."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters["isolated"] = isolated_in_mail
        self.filters["wordwrap"] = wordwrap


class FlaskEnvironment(_Isolating, _KeysOfPlainDicts, _FlaskEnvironment):
    """The app's environment, for its pages (`App.jinja_environment`)."""
