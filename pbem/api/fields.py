"""Fields shared by the resources' schemas."""

from typing import Any

import marshmallow as ma

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
