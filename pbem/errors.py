"""Domain errors: what the service refuses, each with a sentence a person can act on.

They raise no responses; each door says them its own way (the API as problem+json in
`pbem.api.problems`, a page as an error page, a mail door as a reply). `status` and `kind`
are what an HTTP door answers with, kept here so that the API and the pages agree.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the service refuses; `detail` is shown to the person as is."""

    status = 400
    kind = "bad-request"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(ServiceError):
    """No such game, seat or state."""

    status, kind = 404, "not-found"


class Unauthorized(ServiceError):
    """Who is asking is not known (no key, or a key nobody holds)."""

    status, kind = 401, "unauthorized"


class Forbidden(ServiceError):
    """Known, but not allowed: another player's seat, another creator's game."""

    status, kind = 403, "forbidden"


class Conflict(ServiceError):
    """The game is not in a state that allows this (over, aborted, taken)."""

    status, kind = 409, "conflict"


class NotActive(Conflict):
    """The game is over, aborted or abandoned: nothing more can be played in it."""


class StaleSequence(Conflict):
    """The game has moved on since the caller looked; `extra["seq"]` is where it is now."""

    kind = "stale-sequence"


class TooMany(ServiceError):
    """Too many requests of one kind in a short while; `retry_after` is the seconds until
    one more is taken (a door says it as `Retry-After`)."""

    status, kind = 429, "too-many"

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class Invalid(ServiceError):
    """The request is well formed but makes no sense for this game."""

    status, kind = 422, "invalid"


class NothingToPlay(Invalid):
    """A plan found nothing to play (the decision it answers is no longer the seat's)."""


class IllegalMoveError(Invalid):
    """The engine refused a move; the detail is its reason, as it may be told."""

    kind = "illegal-move"
