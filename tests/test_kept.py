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


def test_a_subjects_latest_drawing_replaces_its_last_and_the_bound_counts_subjects():
    """`latest`: a game's seats drawn again when what they are drawn from moved on, in
    place of the drawing before, which no read asks for again; while the key stays, the
    drawing is used again."""
    app = Flask(__name__)
    kept = Drawn(2, in_language=False)
    drawn: list[tuple[str, int]] = []

    def draw(subject: str, key: int):
        def make() -> str:
            drawn.append((subject, key))
            return f"{subject}{key}"

        return make

    with app.app_context():
        assert kept.latest("g1", 1, draw("g1", 1)) == "g11"
        assert kept.latest("g1", 1, draw("g1", 1)) == "g11"  # the same key: kept
        assert kept.latest("g1", 2, draw("g1", 2)) == "g12"  # moved on: drawn anew
        assert kept.latest("g2", 1, draw("g2", 1)) == "g21"
        # Two subjects, one drawing each: the first drawing of g1 went, nothing else did.
        assert len(kept._entries) == 2
        assert kept.latest("g1", 2, draw("g1", 2)) == "g12"
        assert kept.latest("g1", 1, draw("g1", 1)) == "g11"  # an older key: drawn again
    assert drawn == [("g1", 1), ("g1", 2), ("g2", 1), ("g1", 1)]


def test_no_store_can_be_asked_to_keep_for_a_time():
    """Neither `Drawn` nor `app_drawn` takes a lifetime: a cache that a clock expires would
    serve what another node changed until it did."""
    for made in (Drawn, app_drawn):
        assert not {"seconds", "ttl"} & set(inspect.signature(made).parameters)
