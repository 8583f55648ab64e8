"""Domain errors as HTTP statuses for the pages, matching what the API answers."""

from __future__ import annotations

from pbem.errors import (
    Conflict,
    Forbidden,
    IllegalMoveError,
    Invalid,
    NotFound,
    ServiceError,
    Unauthorized,
)

#: Most specific first; StaleSequence is a Conflict (409) and IllegalMoveError an Invalid.
STATUSES: tuple[tuple[type[ServiceError], int], ...] = (
    (IllegalMoveError, 422),
    (NotFound, 404),
    (Unauthorized, 403),  # a page has no key to ask again for: refused, as for another's seat
    (Forbidden, 403),
    (Conflict, 409),
    (Invalid, 422),
    (ServiceError, 400),
)


def status_of(error: ServiceError) -> int:
    return next(status for cls, status in STATUSES if isinstance(error, cls))
