"""psycopg's waits in a gevent worker, on gevent's own loop.

Once gevent has patched `select` (gunicorn's gevent worker does, before it loads the app),
psycopg waits on the database through the patched `select.poll`: cooperative, but each
wait makes a poll object, registers the socket and asks it again, all in gevent's Python
layer. A page's reads sent together (`prepared.all_together`, psycopg's pipeline mode) wait
a dozen times: under gevent a player's view cost its worker about a quarter more CPU than
under threads, and the machine served half the views a second
(`bench/api.py --db postgresql`, gevent against gthread).

`wait_on_hub` waits as psycopg's own C wait does where it can, and leaves the waiting to
gevent only when it must: it asks the socket once without blocking (the standard library's
own poll, not gevent's), and if it is not ready it parks the greenlet on one watcher of
gevent's loop until it is. A wait with a time limit (connecting) is psycopg's own.
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable, Generator
from typing import Any

#: poll()'s events for what psycopg waits for (its `Wait`: 1 read, 2 write, 3 both, the
#: values gevent's loop takes as they are).
_POLL_EVENTS = {1: select.POLLIN, 2: select.POLLOUT, 3: select.POLLIN | select.POLLOUT}
#: psycopg's `Ready` values: what the socket is ready for.
_READY_R, _READY_W = 1, 2


def gevent_patched() -> bool:
    """Has gevent patched `select` in this process (a gevent worker)?"""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("select"))


def install() -> bool:
    """Make psycopg wait with `wait_on_hub`, in a process gevent has patched, where psycopg
    chose a wait of its own for gevent; True if it now does."""
    if not gevent_patched():
        return False
    from psycopg import waiting

    current = waiting.wait
    name = getattr(current, "__name__", "")
    if name == "wait_on_hub":
        return True
    if name not in ("wait_poll", "wait_select", "wait_selector"):
        return False  # a psycopg that waits in some other way: left as it chose
    waiting.wait = _waiting_on_hub(current)
    return True


def _waiting_on_hub(own_wait: Callable[..., Any]) -> Callable[..., Any]:
    from gevent import get_hub
    from gevent.monkey import get_original

    poll = get_original("select", "poll")

    def wait_on_hub(
        gen: Generator[Any, Any, Any],
        fileno: int,
        interval: float = 0.0,
        timeout: float | None = None,
    ) -> Any:
        """psycopg's `wait`: run `gen`, a generator of the socket states it waits for, until
        it returns, parking the greenlet on gevent's loop while the socket is not ready."""
        if timeout is not None:
            return own_wait(gen, fileno, interval=interval, timeout=timeout)
        hub = get_hub()
        try:
            wanted = next(gen)
            ready_now = poll()
            ready_now.register(fileno, _POLL_EVENTS[wanted])
            while True:
                events = ready_now.poll(0)
                if not events:
                    watcher = hub.loop.io(fileno, int(wanted))
                    try:
                        hub.wait(watcher)
                    finally:
                        watcher.close()
                    events = ready_now.poll(0)
                ready = 0
                for _, event in events:
                    if event & (select.POLLIN | select.POLLHUP | select.POLLERR):
                        ready |= _READY_R  # a closed socket is read, and psycopg says why
                    if event & select.POLLOUT:
                        ready |= _READY_W
                wanted = gen.send(ready)
                ready_now.modify(fileno, _POLL_EVENTS[wanted])
        except StopIteration as done:
            return done.value

    return wait_on_hub
