"""Domain errors as HTTP statuses for the pages: the API's (`pbem.errors`), but for one."""

from __future__ import annotations

from pbem.errors import ServiceError


def status_of(error: ServiceError) -> int:
    # A page has no key to ask again for: refused, as for another's seat.
    return 403 if error.status == 401 else error.status
