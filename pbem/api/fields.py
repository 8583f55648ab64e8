"""Fields shared by the resources' schemas, and the rules a schema states beyond its fields."""

from __future__ import annotations

import re
from typing import Any

import marshmallow as ma
from apispec import BasePlugin
from email_validator import SPECIAL_USE_DOMAIN_NAMES

from pbem import texts
from pbem.addresses import MAX_LENGTH, kept_address
from pbem.errors import Invalid

#: Headers and other one-line strings that are no name (an Idempotency-Key): no control
#: characters, which PostgreSQL (NUL) or a log line would not live with. A Regexp validator,
#: so the spec carries it as a `pattern`.
no_control_characters = ma.validate.Regexp(
    r"^[^\x00-\x1f\x7f-\x9f]*$", error="Must not contain control characters such as tabs or NUL."
)


class Refusal(str):
    """A field's message that is a service's refusal: its sentence, with the refusal's `code`
    beside it (`pbem.api.problems` gives the problem that code)."""

    code: str

    def __new__(cls, sentence: str, code: str) -> Refusal:
        refusal = super().__new__(cls, sentence)
        refusal.code = code
        return refusal


class _Text(ma.fields.String):
    """A name or a title, read as `pbem.texts.kept_text` keeps it (stripped; a control or
    direction character, or nothing to read, refused with its sentence and code)."""

    def __init__(self, kind: texts.Kind, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind: texts.Kind = kind

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        typed = super()._deserialize(value, attr, data, **kwargs)
        try:
            return texts.kept_text(typed, self.kind)
        except Invalid as error:
            raise ma.ValidationError(Refusal(error.detail, error.code)) from None


def Text(max_length: int, *, kind: texts.Kind, **kwargs: Any) -> ma.fields.String:  # noqa: N802 (reads as a field type)
    """A name or a title (`kind`) of 1 to `max_length` characters once the blank around it is
    trimmed, on one line, with no character of direction and something to read. The spec
    says as much as a pattern can (`texts.PATTERN`); the rest (combining marks alone, say)
    is refused by `kept_text` all the same."""
    validate = [ma.validate.Length(min=1, max=max_length), _THE_TEXT_RULE]
    return _Text(kind, validate=validate, **kwargs)


class _Pattern(ma.validate.Regexp):
    """The spec's `pattern`; an empty text is the length's to refuse, alone."""

    def __call__(self, value: Any) -> Any:
        return super().__call__(value) if value else value


#: Never refuses what `kept_text` let through: it is there for the spec's `pattern`.
_THE_TEXT_RULE = _Pattern(texts.PATTERN, error="Not one line of text to read.")


#: What no URL holds besides spaces: controls, and the invisible and direction characters.
_NOT_IN_URLS = r"\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff"


def OutgoingUrl(description: str) -> ma.fields.URL:  # noqa: N802 (reads as a field type)
    """An http(s) URL of at most 2,000 characters and no space, that the server will post to
    (a webhook, a push service): whether its host may be reached is the caller's to check."""
    return ma.fields.URL(
        required=True,
        schemes={"http", "https"},
        require_tld=False,
        validate=[
            ma.validate.Length(min=1, max=2000),
            # No space, control (NUL) or invisible character: a URL has none, and a NUL
            # would fail the host's look-up (a 500) or the post.
            ma.validate.Regexp(rf"^https?://[^\s{_NOT_IN_URLS}]+$"),
        ],
        metadata={"description": description},
    )


def _in_any_case(word: str) -> str:
    # JSON Schema's patterns (ECMA 262) have no flag for case: each letter as a class.
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c) for c in word)


#: The special-use domains email-validator refuses (.test, .invalid, .onion ...), in any
#: case: `kept_address` refuses an address under one, and the spec says so as a `pattern`.
_SPECIAL_USE = "|".join(map(_in_any_case, SPECIAL_USE_DOMAIN_NAMES))
_NOT_SPECIAL_USE = ma.validate.Regexp(
    rf"^(?!.*[.@](?:{_SPECIAL_USE})$)", error="Not an address mail can reach."
)


class Address(ma.fields.String):
    """An email address, read as `pbem.addresses.kept_address` keeps it (so a refusal is a
    422 naming the field, with the sentence it gives); said in the spec as a string of
    format email, at most 254 characters, under no special-use domain."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"format": "email", **kwargs.pop("metadata", {})}
        # Never refuse (kept_address did first): they are there for the spec's maxLength
        # and pattern.
        kwargs.setdefault("validate", [ma.validate.Length(max=MAX_LENGTH), _NOT_SPECIAL_USE])
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        typed = super()._deserialize(value, attr, data, **kwargs)
        try:
            return kept_address(typed)
        except Invalid as error:
            raise ma.ValidationError(error.detail) from None


class Flag(ma.fields.Boolean):
    """A boolean sent as JSON's true or false, as the spec says: not 0, 1, "yes" or "on",
    which marshmallow's Boolean also reads (a client sending 0 meant something else)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class SchemaRules(BasePlugin):
    """Puts a schema's `OPENAPI_RULES` (JSON Schema a field cannot say, such as "this field or
    that one") into its component in the spec."""

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> Any:
        return getattr(kwargs.get("schema"), "OPENAPI_RULES", None)
