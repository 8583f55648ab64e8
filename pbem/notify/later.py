"""Text written when a mail is rendered rather than when it is gathered: what a reply's
answer or a game-wide notice says is gathered before each mail is rendered in its
recipient's language, so those lines are lazy (`languages.lazy_`, or `Later`)."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel.speaklater import LazyString


class Later:
    """Text made when it is shown (in the language being rendered then), by `make`."""

    def __init__(self, make: Callable[[], str]) -> None:
        self.make = make

    def __str__(self) -> str:
        return self.make()


def shown(value: object) -> object:
    """A mail template's value as it is shown: a lazy text written out now, as a plain
    string, which autoescape then escapes (a LazyString would pass as markup)."""
    return str(value) if isinstance(value, LazyString | Later) else value
