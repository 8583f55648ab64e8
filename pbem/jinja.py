"""Jinja as every template here is drawn in: the pages' (Flask's environment), the
board's and the mails'.

What the templates show mostly reaches them as plain dicts (an engine's view, a region
seen, a player's seat) and is read there as attributes: `view.king`, `seen.caballeros`.
Jinja's own `getattr` asks for an attribute first and reads the key only after catching
the AttributeError that a dict raises; a decision mail's board table reads about a hundred
such keys, and raising and catching each was a twentieth of composing the mail.

And what `{{ value }}` writes where autoescaping is on is the escaped text itself, where
Jinja makes a `Markup` of it first (a call into Python for each of the hundreds of values
a page writes), only to join it into the page at once.

And one filter every template has: `isolated`, for what a person wrote shown beside other
words (a name, a title, a line of table talk): in a page's HTML a `<bdi>` around it, in a
mail's text and HTML parts `texts.isolated` (the mail's own `MailEnvironment`: a tag between
a quotation mark and a word is what spam filters count as obfuscation), so that a character
of direction in it turns nothing around it.
"""

from __future__ import annotations

from typing import Any

import jinja2
from flask.templating import Environment as _FlaskEnvironment
from jinja2.compiler import CodeGenerator, Frame
from jinja2.nodes import EvalContext
from markupsafe import Markup, escape

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


def written(value: Any) -> str:
    """What `{{ value }}` writes in an autoescaped template: the text of markupsafe's
    `escape(value)`, with no `Markup` made of a string's or a number's."""
    kind = type(value)
    if kind is str:
        text: str = value
        # markupsafe's own escaping, as its pure-Python version writes it.
        return (
            text.replace("&", "&amp;")
            .replace(">", "&gt;")
            .replace("<", "&lt;")
            .replace("'", "&#39;")
            .replace('"', "&#34;")
        )
    if kind is int:
        return str(value)
    if kind is Markup:
        safe: Markup = value
        return safe
    return escape(value)


class _WritesText(CodeGenerator):
    """Jinja's code generator, writing an autoescaped `{{ value }}` through `written` where
    Jinja writes `escape(value)` (the same text, not made a `Markup`). Jinja's own native
    types' generator changes the same step."""

    def _output_child_pre(self, node: Any, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
            self.write("environment.written(")
            if finalize.src is not None:
                self.write(finalize.src)
            return
        super()._output_child_pre(node, frame, finalize)


@jinja2.pass_eval_context
def isolated(eval_context: EvalContext, value: Any) -> Any:
    """`{{ name|isolated }}`: in an autoescaped template (HTML) the value in a `<bdi>`, which
    takes its direction from its own first letter and lends none of it to the words around
    it; in a text template the value as `texts.isolated` writes it."""
    if eval_context.autoescape:
        return Markup("<bdi>%s</bdi>") % value
    return texts.isolated(str(value))


class _WrittenAsText:
    """An environment whose templates write their values by `written`, and have `isolated`."""

    code_generator_class: type[CodeGenerator] = _WritesText
    written = staticmethod(written)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters["isolated"] = isolated  # type: ignore[attr-defined]


class Environment(_WrittenAsText, _KeysOfPlainDicts, jinja2.Environment):
    """A Jinja environment of our own (the board's)."""


def isolated_in_mail(value: Any) -> Any:
    """`{{ name|isolated }}` in a mail, HTML part or text: the value as `texts.isolated`
    writes it (escaped where the template escapes). Isolated by characters rather than a
    tag: SpamAssassin counts a tag that splits a word from a quotation mark ("&ldquo;<bdi>")
    as obfuscation, which marked each mail naming a game 0.6."""
    return texts.isolated(str(value))


class MailEnvironment(Environment):
    """The mails' environment: `isolated` by characters, in both parts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters["isolated"] = isolated_in_mail


class FlaskEnvironment(_WrittenAsText, _KeysOfPlainDicts, _FlaskEnvironment):
    """The app's environment, for its pages (`App.jinja_environment`)."""
