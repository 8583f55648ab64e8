"""Memos that live for one call of the facade, never on a state.

`legal_moves` checks every candidate move against the same board, and each check of a
special action's move wants the board as the plan so far would leave it. Computing that once
per call pays; storing it on the board would write to a state that a server shares between
threads. So a call opens a memo here (a context variable: each thread, and each nested
call, sees its own) and everything below it may use it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import TypeVar, cast

T = TypeVar("T")

_MEMO: ContextVar[dict[Hashable, object] | None] = ContextVar("engine_memo", default=None)


class per_call:  # noqa: N801  (used as a function: `with per_call():`)
    """A fresh memo for the duration of the `with` block (kept if one is already open).

    A class rather than a @contextmanager generator: it is entered twice a move, and the
    generator machinery cost more than the memo saved on simple moves.
    """

    __slots__ = ("token",)

    def __enter__(self) -> None:
        self.token = _MEMO.set({}) if _MEMO.get() is None else None

    def __exit__(self, *exc: object) -> None:
        if self.token is not None:
            _MEMO.reset(self.token)


def cached(key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()`, remembered under `key` while a memo is open; computed afresh otherwise.

    The key must name everything the result depends on (the board's identity is enough only
    while nothing changes the board, as within one read-only call).
    """
    memo = _MEMO.get()
    if memo is None:
        return compute()
    if key not in memo:
        memo[key] = compute()
    # Each key is only ever stored by one `compute`, so its value has that compute's type.
    return cast(T, memo[key])
