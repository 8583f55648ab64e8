"""Text written when a mail is rendered rather than when it is gathered: what a reply's
answer or a game-wide notice says is gathered before each mail is rendered in its
recipient's language, so those lines are lazy (`languages.lazy_`, or `Later`)."""

from __future__ import annotations

from pbem.languages import Later, is_lazy

__all__ = ["Later", "shown"]


def shown(value: object) -> object:
    """A mail template's value as it is shown: a lazy text written out now, as a plain
    string, which autoescape then escapes (Flask-Babel's lazy string would pass as markup)."""
    return str(value) if is_lazy(value) else value
