"""What a worker keeps for a while (`pbem.kept.Drawn` with `seconds`) expires by the one
clock (`pbem.clock`), not the process's: a test that sets the time decides what is still
kept, so a page read twice in a slow test shows the same records."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from flask import Flask

from pbem.clock import set_now
from pbem.kept import Drawn


def test_what_is_kept_a_while_expires_by_the_apps_clock():
    app = Flask(__name__)
    moment = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    set_now(app, moment)
    kept = Drawn(8, in_language=False, seconds=60)
    drawn: list[int] = []

    def draw() -> int:
        drawn.append(len(drawn))
        return drawn[-1]

    with app.app_context():
        assert kept.get("seats", draw) == 0
        time.sleep(0.05)  # the process's time runs on; the app's does not
        set_now(app, moment + timedelta(seconds=59))
        assert kept.get("seats", draw) == 0
        set_now(app, moment + timedelta(seconds=61))
        assert kept.get("seats", draw) == 1  # a minute on by the app's clock: drawn anew
    assert drawn == [0, 1]
