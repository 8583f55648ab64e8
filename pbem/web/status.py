"""Domain errors as HTTP statuses for the pages: the API's (`pbem.api.problems`), but for one."""

from __future__ import annotations

from pbem.api.problems import status_of as api_status_of
from pbem.errors import ServiceError


def status_of(error: ServiceError) -> int:
    status, _ = api_status_of(error)
    # A page has no key to ask again for: refused, as for another's seat.
    return 403 if status == 401 else status
