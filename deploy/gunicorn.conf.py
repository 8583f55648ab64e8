"""gunicorn settings for the web processes.

    gunicorn -c deploy/gunicorn.conf.py 'pbem:create_app()'

Every setting can be overridden from the environment (or on the command line). Run
`pbem db upgrade` once before starting the workers: the app factory never migrates, so many
workers starting together do not race on the schema.
"""

import gc
import os

bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
# Workers: gevent's, one connection per greenlet. A client that stops sending (a body
# announced at 1,000 bytes and 2 sent, or headers a byte at a time) then holds a greenlet
# waiting on its socket, not a process: sync workers were held until the arbiter killed them
# after `timeout` (gunicorn's HTML 500), and two such clients held both. Requests are short
# and mostly CPU (the engine, the ORM, JSON, a page) plus one small transaction, so one runs at
# a time per process as with sync workers, and psycopg 3 waits on PostgreSQL cooperatively
# (on gevent's loop: pbem.store.green). A body may pause at most PBEM_BODY_PAUSE_SECONDS
# (`pbem.bodies`), and a worker holds at most `worker_connections` clients: past that, new
# ones wait in the listen queue. A proxy in front
# still has to bound headers' time and connections per client (deploy/README.md).
# Measured against gthread on PostgreSQL, gevent serves more moves and views a second:
# deploy/README.md, "Web workers".
#
# One worker per core (at least two, so one slow request never holds up every other). More
# workers did not use the cores better: the database runs on the same host (compose, or the
# systemd units' usual setup) and takes a core while a worker waits on it. And each worker keeps
# its own states and drawn pages (`state_cache`, `web.pages`), so with twice the workers each
# sees a game half as often and draws more of a page anew. With the database on another host,
# raise WEB_CONCURRENCY.


def _cores() -> int:
    """The cores this process may run on (a container's or systemd unit's CPU set, where
    the system says; macOS does not)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


workers = int(os.environ.get("WEB_CONCURRENCY", max(2, _cores())))
threads = int(os.environ.get("PBEM_THREADS", "1"))
# PBEM_WORKER_CLASS=sync (or PBEM_THREADS above 1, for gthread) where gevent cannot be used.
worker_class = os.environ.get("PBEM_WORKER_CLASS") or ("gthread" if threads > 1 else "gevent")
worker_connections = 200
timeout = 30
graceful_timeout = 20
keepalive = 5
# Restart workers seldom: a restart empties the worker's state cache, drawn pages and
# compiled templates, which a busy server then pays for again. Measured with
# bench/worker_memory.py (one worker, 300,000 requests of play, an earlier release): 84 MB at
# start, 140 MB after 25,000 requests as its caches fill, then 1.5 MB more per 10,000 and
# slowing (162.5 MB at 200,000; +0.7 MB over the last 25,000); on a later one, 150,000
# requests: 105, 188 at 30,000, 214.5 MB at the end; on this one, with a game's seats kept as
# its one latest drawing and the macros' store at 4,096: 106, 155 at 30,000, 170 MB at the
# end, still about +1.2 MB per 10,000 from 60,000: the bench plays one game after another, and
# the store of games' last rounds (256 games, about 100 KB each) fills only after 256 of them
# (cut to 8 in a scratch copy: 152.3 MB at 30,000, 157.0 MB at 120,000). docs/scaling.md lists
# each store and its bound. So restarts are a guard only: 2,000,000
# requests is over an hour for one worker at full load (about 480 a second there), and a day
# or more at a club's pace; jitter keeps workers apart.
max_requests = 2_000_000
max_requests_jitter = 200_000
accesslog = os.environ.get("PBEM_ACCESS_LOG")  # "-" for stdout; off by default
errorlog = "-"
loglevel = os.environ.get("PBEM_LOG_LEVEL", "info")
# gunicorn's control socket (gunicornc) is per instance or off: by default every instance
# under one user opens $HOME/.gunicorn/gunicorn.ctl (or $XDG_RUNTIME_DIR's), and a second
# instance takes the first's over. Off unless PBEM_CONTROL_SOCKET names this instance's.
control_socket = os.environ.get("PBEM_CONTROL_SOCKET") or "gunicorn.ctl"
control_socket_disable = not os.environ.get("PBEM_CONTROL_SOCKET")


def on_starting(server) -> None:
    # Links in mails come from PBEM_BASE_URL alone (never a request's Host): without it
    # they point at 127.0.0.1, useless to players. Said once, by the master, at start.
    if not os.environ.get("PBEM_BASE_URL"):
        server.log.warning(
            "PBEM_BASE_URL is not set: links in mails point at http://127.0.0.1:5000; set it "
            "to the address players reach (pbem doctor checks it)"
        )


def post_worker_init(worker) -> None:
    # The app is loaded, and what loading it made (modules, the ORM's mappings, compiled
    # templates) lives as long as the worker: out of the collector's sight, a full
    # collection walks only what requests made since. Under bench/web.py a worker's full
    # collections took 25 ms in all instead of 300 (some 2% of its CPU).
    gc.freeze()
