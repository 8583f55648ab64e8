"""What a worker keeps (`pbem.kept.Drawn`) is kept by its key alone, at most `size` entries,
the least recently used out first, and never for a time: a clock passing changes nothing,
so no two reads of a slow test see different things, and a change made through another node
shows by the new key the next read makes (docs/scaling.md: "What each worker keeps")."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime, timedelta

from flask import Flask

from pbem.clock import set_now
from pbem.kept import Drawn, app_drawn


def test_what_is_kept_is_kept_by_its_key_and_its_bound_alone():
    app = Flask(__name__)
    moment = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    set_now(app, moment)
    kept = Drawn(2, in_language=False)
    drawn: list[str] = []

    def draw(key: str):
        def make() -> str:
            drawn.append(key)
            return key

        return make

    with app.app_context():
        assert kept.get("a", draw("a")) == "a"
        set_now(app, moment + timedelta(days=30))  # a month on: still kept
        assert kept.get("a", draw("a")) == "a"
        kept.get("b", draw("b"))
        kept.get("a", draw("a"))  # used again: "b" is now the least recently used
        kept.get("c", draw("c"))  # over the bound: "b" goes out
        kept.get("a", draw("a"))
        kept.get("b", draw("b"))
    assert drawn == ["a", "b", "c", "b"]


def test_no_store_can_be_asked_to_keep_for_a_time():
    """Neither `Drawn` nor `app_drawn` takes a lifetime: a cache that a clock expires would
    serve what another node changed until it did."""
    for made in (Drawn, app_drawn):
        assert not {"seconds", "ttl"} & set(inspect.signature(made).parameters)
