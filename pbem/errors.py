"""Domain errors: what the service refuses, each with a sentence a person can act on.

They know nothing of HTTP; each door says them its own way (the API as problem+json in
`pbem.api.problems`, a mail door as a reply).
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the service refuses; `detail` is shown to the person as is."""

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(ServiceError):
    """No such game, seat or state."""


class Unauthorized(ServiceError):
    """Who is asking is not known (no key, or a key nobody holds)."""


class Forbidden(ServiceError):
    """Known, but not allowed: another player's seat, another creator's game."""


class Conflict(ServiceError):
    """The game is not in a state that allows this (over, aborted, taken)."""


class StaleSequence(Conflict):
    """The game has moved on since the caller looked; `extra["seq"]` is where it is now."""


class Invalid(ServiceError):
    """The request is well formed but makes no sense for this game."""


class IllegalMoveError(Invalid):
    """The engine refused a move; the detail is its reason, as it may be told."""
