"""Memos that live for one call of the facade, never on a state.

`legal_moves` checks every candidate move against the same board, and each check of a
special action's move wants the board as the plan so far would leave it. Computing that once
per call pays; storing it on the board would write to a state that a server shares between
threads. So a call opens a memo here (a context variable: each thread, and each nested
call, sees its own) and everything below it may use it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")

_MEMO: ContextVar[dict[Hashable, object] | None] = ContextVar("engine_memo", default=None)


@contextmanager
def per_call() -> Iterator[None]:
    """A fresh memo for the duration of the `with` block (kept if one is already open)."""
    if _MEMO.get() is not None:
        yield
        return
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


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
    return memo[key]  # type: ignore[return-value]
