"""Reading request bodies: JSON that Python could parse but the service could not live with
is refused as a 400 with a sentence, never let through to fail later as a 500.

- a 5,000-digit number (Python refuses to turn it into text again: an error message or a
  log line quoting it would fail);
- arrays or objects nested a thousand deep (the parser runs out of stack: RecursionError);
- a lone surrogate such as "\\ud800" (valid JSON, but not text: no database stores it);
- a key given twice in one object (JSON allows it; which one was meant is anyone's guess).
"""

from __future__ import annotations

import json
from typing import Any

import flask
import flask_smorest
from flask.json.provider import DefaultJSONProvider
from webargs.flaskparser import FlaskParser, is_json_request
from webargs.flaskparser import abort as flask_abort

from pbem.languages import _

#: More digits than any id, seq or card number needs, and far below Python's 4,300 limit.
MAX_DIGITS = 30
#: Deeper than any move or game body (which nest three or four levels).
MAX_DEPTH = 32


class UnacceptableJSON(ValueError):
    """Flask turns a ValueError from `loads` into 400 Bad Request with this message."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise UnacceptableJSON(
            _(
                "A number in the body has %(digits)s digits; numbers here have at most %(most)s.",
                digits=len(text),
                most=MAX_DIGITS,
            )
        )
    return int(text)


def _check(value: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise UnacceptableJSON(_("The body nests deeper than %(most)s levels.", most=MAX_DEPTH))
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise UnacceptableJSON(
                _(
                    "The body holds a \\u escape of a lone surrogate (such as \\ud800), which "
                    "is not a character; send real text."
                )
            ) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check(key, depth + 1)
            _check(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check(item, depth + 1)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object, refused when a key comes twice: `{"expected_seq": 9, "expected_seq": 0}`
    would otherwise be read as the last one, not as the client may have meant."""
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            raise UnacceptableJSON(
                _(
                    "The key %(key)s appears twice in one object of the body; send it once.",
                    key=repr(key),
                )
            )
        seen.add(key)
    raise AssertionError("unreachable: fewer keys than pairs means one came twice")


class SafeJSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        if isinstance(s, bytes):
            s = s.decode("utf-8")
        try:
            value = json.loads(s, parse_int=_parse_int, object_pairs_hook=_object, **kwargs)
        except RecursionError:
            raise UnacceptableJSON(
                _("The body nests deeper than %(most)s levels.", most=MAX_DEPTH)
            ) from None
        _check(value)
        return value


class SafeParser(FlaskParser):
    """webargs' parser reads bodies with `json.loads` itself: read them safely instead."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        # Only operations that take a body read one, and each needs it: a body of another
        # type, or none, is refused rather than read as an empty object (which a PUT of
        # preferences would have answered 200, having changed nothing).
        if not is_json_request(req):
            if req.content_length or req.headers.get("Transfer-Encoding"):
                flask_abort(
                    415,
                    messages={
                        "body": ["Send the body as JSON, with Content-Type: application/json."]
                    },
                )
            flask_abort(400, messages={"body": ["This request needs a JSON body."]})
        try:
            return flask.current_app.json.loads(req.get_data(cache=True))
        except UnacceptableJSON as error:
            flask_abort(400, exc=error, messages={"json": [str(error)]})
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            self._handle_invalid_json_error(error, req)


class Blueprint(flask_smorest.Blueprint):
    """The API's blueprints: flask-smorest's, reading arguments with `SafeParser`."""

    ARGUMENTS_PARSER = SafeParser()
