"""Domain errors: what the service refuses, each with a sentence a person can act on.

They raise no responses; each door says them its own way (the API as problem+json in
`pbem.api.problems`, a page as an error page, a mail door as a reply). `status` and `kind`
are what an HTTP door answers with, kept here so that the API and the pages agree.

An error is raised with its sentence untranslated, as Django's `ValidationError` is: the
English text marked with `N_` (the catalogs' msgid), the values for its placeholders, and a
short stable `code` naming the refusal (`game-not-active`). `detail` says it in the language
being rendered when the door reads it, so a refusal raised while one reader's language is
active is told to another in theirs. A placeholder's value that is itself words (a status,
a colour) is given with `languages.later`, to be written in that language too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.languages import _


class ServiceError(Exception):
    """A request the service refuses. Raised with the sentence's msgid, marked with `N_`, a
    `code`, and the values of its placeholders, as `_()` takes them:
    `Conflict(N_("Game %(game)s was %(status)s: its table is closed."), code="table-closed",
    game=7, status=later(status_word, game.status))`. `detail` is the sentence in the
    language being rendered when it is read; `extra` is what a door adds beside it (the API
    puts it in the problem's body), kept apart from the sentence's values. `render`, if
    given, says the message in `_`'s stead (an engine refusal, read by `pbem.words.refusals`).
    """

    status = 400
    kind = "bad-request"
    #: The refusal's name where a raise gives none; each raise in the domain gives its own.
    code = "bad-request"

    def __init__(
        self,
        message: str,
        /,
        *,
        code: str | None = None,
        extra: Mapping[str, Any] | None = None,
        render: Callable[[str], str] | None = None,
        **params: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.params = params
        self.extra = dict(extra or {})
        self.render = render
        if code is not None:
            self.code = code

    @property
    def detail(self) -> str:
        """The sentence, in the language being rendered now."""
        if self.render is not None:
            return self.render(self.message)
        if not isinstance(self.message, str):
            return self.message  # a door's own lazy text (`lazy_`): said when it is shown
        return _(self.message, **self.params)

    def __str__(self) -> str:
        # The sentence, so that an error given as another's placeholder value is said in
        # the same language as the sentence around it.
        return self.detail


class NotFound(ServiceError):
    """No such game, seat or state."""

    status, kind, code = 404, "not-found", "not-found"


class Unauthorized(ServiceError):
    """Who is asking is not known (no key, or a key nobody holds)."""

    status, kind, code = 401, "unauthorized", "unauthorized"


class Forbidden(ServiceError):
    """Known, but not allowed: another player's seat, another creator's game."""

    status, kind, code = 403, "forbidden", "forbidden"


class Conflict(ServiceError):
    """The game is not in a state that allows this (over, aborted, taken)."""

    status, kind, code = 409, "conflict", "conflict"


class NotActive(Conflict):
    """The game is over, aborted or abandoned: nothing more can be played in it."""

    code = "game-not-active"


class StaleSequence(Conflict):
    """The game has moved on since the caller looked; `seq` is where it is now (told in the
    sentence as `%(seq)s`, and in `extra["seq"]`)."""

    kind = code = "stale-sequence"

    def __init__(
        self, message: str, /, *, seq: int | None, code: str | None = None, **params: Any
    ) -> None:
        super().__init__(message, code=code, extra={"seq": seq}, seq=seq, **params)


class TooMany(ServiceError):
    """Too many requests of one kind in a short while; `retry_after` is the seconds until
    one more is taken (a door says it as `Retry-After`)."""

    status, kind, code = 429, "too-many", "too-many"

    def __init__(
        self, message: str, /, *, retry_after: int, code: str | None = None, **params: Any
    ) -> None:
        super().__init__(message, code=code, **params)
        self.retry_after = retry_after


class Invalid(ServiceError):
    """The request is well formed but makes no sense for this game."""

    status, kind, code = 422, "invalid", "invalid"


class NothingToPlay(Invalid):
    """A plan found nothing to play (the decision it answers is no longer the seat's)."""

    code = "nothing-to-play"


class IllegalMoveError(Invalid):
    """The engine refused a move; the message is its reason in its own words (English),
    said in the reader's language by `render` when read; `extra["seq"]` is the game's seq."""

    kind = code = "illegal-move"

    def __init__(
        self, message: str, /, *, seq: int, render: Callable[[str], str] | None = None
    ) -> None:
        super().__init__(message, extra={"seq": seq}, render=render)
