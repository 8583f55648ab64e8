"""gunicorn settings for the web processes.

    gunicorn -c deploy/gunicorn.conf.py 'pbem:create_app()'

Every setting can be overridden from the environment (or on the command line). Run
`pbem db upgrade` once before starting the workers: the app factory never migrates, so many
workers starting together do not race on the schema.
"""

import gc
import os

bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
# Requests are short and mostly CPU (the engine, the ORM, JSON, drawing a page) plus one small
# transaction, so one request at a time per process: with the GIL a second thread only queues
# behind the first. Measured with bench/api.py on 2 cores, gthread workers also balanced badly:
# a worker accepts every keep-alive connection that arrives while it is awake, and all 8 bench
# clients ended up in one process (one core busy, the other idle; move p50 17 ms against 8 ms
# with sync workers). Sync workers take a connection only when idle, so load spreads over every
# core. Sync workers do not hold connections open and assume a buffering proxy (nginx) in front
# of them for slow clients, as gunicorn's documentation says.
#
# One worker per core (at least two, so one slow request never holds up every other). More
# workers did not use the cores better: the database runs on the same host (compose, or the
# systemd units' usual setup) and takes a core while a worker waits on it. And each worker keeps
# its own states and drawn pages (`state_cache`, `web.pages`), so with twice the workers each
# sees a game half as often and draws more of a page anew. On 2 cores, one worker per core
# against two, over several runs: bench/api.py move p50 7.6-9.4 ms against 9.1-9.7 on SQLite
# (p99 28-35 against 47-64, and more moves a second), 12.4 against 13.4 ms on PostgreSQL;
# bench/web.py the board page after a move 6.6 against 8-9 ms; health the same. With the
# database on another host, raise WEB_CONCURRENCY.


def _cores() -> int:
    """The cores this process may run on (a container's or systemd unit's CPU set, where
    the system says; macOS does not)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


workers = int(os.environ.get("WEB_CONCURRENCY", max(2, _cores())))
threads = int(os.environ.get("PBEM_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = 30
graceful_timeout = 20
keepalive = 5
# Restart workers now and then to bound any slow leak.
max_requests = 10000
max_requests_jitter = 1000
accesslog = os.environ.get("PBEM_ACCESS_LOG")  # "-" for stdout; off by default
errorlog = "-"
loglevel = os.environ.get("PBEM_LOG_LEVEL", "info")


def post_worker_init(worker) -> None:
    # The app is loaded, and what loading it made (modules, the ORM's mappings, compiled
    # templates) lives as long as the worker: out of the collector's sight, a full
    # collection walks only what requests made since. Under bench/web.py a worker's full
    # collections took 25 ms in all instead of 300 (some 2% of its CPU).
    gc.freeze()
