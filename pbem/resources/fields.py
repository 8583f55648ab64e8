"""Fields shared by the resources' schemas."""

import re

import marshmallow as ma

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def no_control_characters(value: str) -> None:
    """Names and titles are shown in mails and pages; PostgreSQL refuses NUL in text."""
    if _CONTROL.search(value):
        raise ma.ValidationError("Must not contain control characters such as tabs or NUL.")


def Text(max_length: int, **kwargs) -> ma.fields.String:  # noqa: N802 (reads as a field type)
    """A one-line string of 1 to `max_length` characters."""
    return ma.fields.String(
        validate=[ma.validate.Length(min=1, max=max_length), no_control_characters], **kwargs
    )
