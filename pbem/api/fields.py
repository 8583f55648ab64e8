"""Fields shared by the resources' schemas, and the rules a schema states beyond its fields."""

from typing import Any

import marshmallow as ma
from apispec import BasePlugin

from pbem.addresses import MAX_LENGTH, kept_address
from pbem.errors import Invalid

#: Names and titles are shown in mails and pages, and PostgreSQL refuses NUL in text: no
#: control characters. A Regexp validator, so the spec carries it as a `pattern`.
no_control_characters = ma.validate.Regexp(
    r"^[^\x00-\x1f\x7f]*$", error="Must not contain control characters such as tabs or NUL."
)


def Text(max_length: int, **kwargs: Any) -> ma.fields.String:  # noqa: N802 (reads as a field type)
    """A one-line string of 1 to `max_length` characters."""
    return ma.fields.String(
        validate=[ma.validate.Length(min=1, max=max_length), no_control_characters], **kwargs
    )


def OutgoingUrl(description: str) -> ma.fields.URL:  # noqa: N802 (reads as a field type)
    """An http(s) URL of at most 2,000 characters and no space, that the server will post to
    (a webhook, a push service): whether its host may be reached is the caller's to check."""
    return ma.fields.URL(
        required=True,
        schemes={"http", "https"},
        require_tld=False,
        validate=[ma.validate.Length(min=1, max=2000), ma.validate.Regexp(r"^https?://\S+$")],
        metadata={"description": description},
    )


class Address(ma.fields.String):
    """An email address, read as `pbem.addresses.kept_address` keeps it (so a refusal is a
    422 naming the field, with the sentence it gives); said in the spec as a string of
    format email, at most 254 characters."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"format": "email", **kwargs.pop("metadata", {})}
        # Never refuses (kept_address did first): it is there for the spec's maxLength.
        kwargs.setdefault("validate", ma.validate.Length(max=MAX_LENGTH))
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
