"""gunicorn settings for the web processes.

    gunicorn -c deploy/gunicorn.conf.py 'pbem:create_app()'

Every setting can be overridden from the environment (or on the command line). Run
`pbem db upgrade` once before starting the workers: the app factory never migrates, so many
workers starting together do not race on the schema.
"""

import multiprocessing
import os

bind = os.environ.get("PBEM_BIND", "127.0.0.1:8000")
# Requests are short and mostly CPU (the engine) plus one small transaction: about one
# process per core, with a few threads each to cover database waits.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("PBEM_THREADS", "2"))
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
