"""For tests that run the server as processes: JSON calls over HTTP, and waiting for a state."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any


def call(base: str, method: str, path: str, key: str | None = None, body: Any = None) -> Any:
    """One JSON request to a running server; an HTTP error raises (an OSError)."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(
        base + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers=headers,
    )
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.load(response)


def wait_for(predicate: Callable[[], Any], seconds: float, what: str) -> Any:
    """Poll `predicate` until it returns something true, and return that; an OSError (not
    listening yet, a 503) counts as not yet."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            found = predicate()
        except OSError:
            found = None
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {seconds} s")


def view_if_pending(base: str, game_id: int, key: str, colour: str) -> Any:
    """The game as `key` sees it if `colour` must act now, else None (for `wait_for`)."""
    view = call(base, "GET", f"/api/games/{game_id}", key)
    return view if any(p["player"] == colour for p in view["pending"]) else None


def play_first_legal(base: str, game_id: int, key: str) -> Any:
    """Play the first of the key's legal moves; the answer of POST .../moves."""
    legal = call(base, "GET", f"/api/games/{game_id}/legal-moves", key)
    body = {"expected_seq": legal["seq"], "moves": [legal["moves"][0]]}
    return call(base, "POST", f"/api/games/{game_id}/moves", key, body)
