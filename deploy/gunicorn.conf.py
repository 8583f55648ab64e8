"""gunicorn settings for the web processes.

    gunicorn -c deploy/gunicorn.conf.py 'pbem:create_app()'

Every setting can be overridden from the environment (or on the command line). Run
`pbem db upgrade` once before starting the workers: the app factory never migrates, so many
workers starting together do not race on the schema.
"""

import multiprocessing
import os

bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
# Requests are short and mostly CPU (the engine, the ORM, JSON) plus one small transaction,
# so one request at a time per process: with the GIL a second thread only queues behind the
# first. Measured with bench/api.py on 2 cores, gthread workers also balanced badly: a worker
# accepts every keep-alive connection that arrives while it is awake, and all 8 bench clients
# ended up in one process (one core busy, the other idle; move p50 17 ms against 8 ms with
# sync workers). Sync workers take a connection only when idle, so load spreads over every
# core; two per core keep a core busy while the other one waits on the database. Sync
# workers do not hold connections open and assume a buffering proxy (nginx) in front of them
# for slow clients, as gunicorn's documentation says.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2))
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
