"""psycopg 3 waits on PostgreSQL cooperatively in a gevent worker (deploy/gunicorn.conf.py's
default worker class): while one request's statement runs in the database, the worker's
other greenlets run. psycopg does this itself from 3.1.14 on, once gevent has patched the
standard library (as gunicorn's gevent worker does before it loads the app); the app then
has it wait on gevent's loop (`pbem.store.green`), which must keep every property of
psycopg's own wait."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

URL = os.environ.get("TEST_DATABASE_URL", "")

pytestmark = pytest.mark.skipif(
    not URL.startswith("postgresql"), reason="PostgreSQL only: set TEST_DATABASE_URL"
)

#: Run after gevent's patching, psycopg's own wait or the app's (`green.install`).
PREAMBLE = """
from gevent import monkey
monkey.patch_all()
import json, sys, time
import gevent
import sqlalchemy as sa
from psycopg import waiting
from pbem.store import green
installed = green.install() if sys.argv[2] == "app" else False
engine = sa.create_engine(sys.argv[1], pool_size=4)
with engine.connect() as connection:  # connected before any clock starts
    connection.execute(sa.text("SELECT 1"))
"""

#: Two greenlets each wait 0.4 s in the database through SQLAlchemy (as the app's queries
#: do), while a third counts 10 ms ticks: one after the other they would take 0.8 s and the
#: ticks would stop while each waits.
OVERLAP = """
ticks = []

spans = []

def wait_in_database():
    with engine.connect() as connection:
        connection.execute(sa.text("SELECT 1"))
        began = time.monotonic()
        connection.execute(sa.text("SELECT pg_sleep(0.4)"))
        spans.append((began, time.monotonic()))

def tick():
    while len(ticks) < 200:
        ticks.append(time.monotonic())
        gevent.sleep(0.01)

ticker = gevent.spawn(tick)
started = time.monotonic()
gevent.joinall([gevent.spawn(wait_in_database), gevent.spawn(wait_in_database)])
elapsed = time.monotonic() - started
during = sum(1 for t in ticks if started <= t <= started + elapsed)
ticker.kill()
overlapped = max(b for b, _ in spans) < min(e for _, e in spans)
print(json.dumps({"elapsed": elapsed, "ticks": during, "installed": installed,
                  "overlapped": overlapped,
                  "wait": waiting.wait.__name__}))
"""

#: What a wait must still do: statements sent together come back each with its rows, an
#: error is raised and leaves the connection usable, and a connection the server ends is an
#: OperationalError, not a hang.
BEHAVIOUR = """
import psycopg
found = {}
with engine.connect() as connection:
    raw = connection.connection.dbapi_connection
    with raw.pipeline():
        cursors = [raw.cursor() for _ in range(5)]
        for number, cursor in enumerate(cursors):
            cursor.execute("SELECT %s::int * 10, repeat('x', 100000)", (number,))
    found["together"] = [cursor.fetchone()[0] for cursor in cursors]
    try:
        connection.execute(sa.text("SELECT 1 / 0"))
    except sa.exc.DataError as error:
        found["error"] = type(error.orig).__name__
    connection.rollback()
    found["after"] = connection.execute(sa.text("SELECT 42")).scalar()
doomed = psycopg.connect(sys.argv[1].replace("+psycopg", ""))
doomed_pid = doomed.execute("SELECT pg_backend_pid()").fetchone()[0]
with engine.connect() as other:
    other.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": doomed_pid})
    other.commit()
try:
    doomed.execute("SELECT 1")
except psycopg.OperationalError:
    found["ended"] = "OperationalError"
found["wait"] = waiting.wait.__name__
print(json.dumps(found))
"""


def run(body: str, which: str) -> dict:
    script = textwrap.dedent(PREAMBLE) + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", script, URL, which], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("which", ["psycopg", "app"])
def test_a_statement_waiting_on_postgresql_lets_other_greenlets_run(which):
    figures = run(OVERLAP, which)
    assert figures["wait"] == ("wait_on_hub" if which == "app" else "wait_poll")
    # The second wait began before the first ended (one after the other, it could not).
    assert figures["overlapped"], figures
    assert figures["ticks"] >= 20, figures  # and the ticker ran while they waited


def test_the_apps_wait_keeps_what_psycopgs_does():
    assert run(BEHAVIOUR, "app") == {
        "together": [0, 10, 20, 30, 40],
        "error": "DivisionByZero",
        "after": 42,
        "ended": "OperationalError",
        "wait": "wait_on_hub",
    }


def test_outside_gevent_psycopg_keeps_its_own_wait(app):
    from psycopg import waiting

    from pbem.store import green

    assert green.install() is False
    assert waiting.wait.__name__ == "wait_c"
