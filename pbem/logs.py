"""Structured logs: one JSON object per line, one line per request and per background job.

Each line has `ts`, `level`, `logger`, `event` and what the event knows (`game_id` whenever a
game is concerned), so an operator can follow one game through the web, mail and scheduler
processes with `grep '"game_id": 12'` or a log shipper. `PBEM_LOG_FORMAT=text` gives plain
lines for a person at a terminal; `PBEM_LOG_LEVEL` sets the level (INFO).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, g, request
from flask.logging import default_handler

#: Attributes every LogRecord has: anything else on a record came from `extra=`.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    """What the record was given with `extra=`."""
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        line.update(_fields(record))
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = " ".join(f"{k}={v}" for k, v in record.__dict__.items() if k not in _STANDARD)
        text = f"{self.formatTime(record)} {record.levelname} {record.getMessage()} {fields}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text.rstrip()


def log_to(logger: logging.Logger, handlers: list[logging.Handler]) -> None:
    """`logger`'s records to `handlers` alone, in place of those given it here before (and
    of Flask's default one): configuring again replaces, never doubles, each line."""
    for old in list(logger.handlers):
        if old is default_handler or getattr(old, "pbem", False):
            logger.removeHandler(old)
            if old is not default_handler and old not in handlers:
                old.close()  # a log file's: closed, not left open (the handler is ours)
    for handler in handlers:
        handler.pbem = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.propagate = False


def configure_logging(app: Flask) -> None:
    """Send the `pbem` loggers' records to stderr, formatted as `PBEM_LOG_FORMAT` says."""
    handler = logging.StreamHandler(sys.stderr)
    chosen = app.config["PBEM_LOG_FORMAT"]
    # "auto": a person at a terminal reads lines; a log shipper reads JSON.
    text = chosen == "text" or (chosen == "auto" and sys.stderr.isatty())
    handler.setFormatter(TextFormatter() if text else JsonFormatter())
    root = logging.getLogger("pbem")  # app.logger, and every pbem.* module's logger
    log_to(root, [handler])
    root.setLevel(app.config["PBEM_LOG_LEVEL"].upper())


def _loggable_path() -> str:
    """The path, with a signed token (seat sign-in and mail links) shown as `<token>`: a log
    read by an operator or shipped elsewhere must not hold what signs a player in."""
    token = (request.view_args or {}).get("token")
    return request.path.replace(token, "<token>") if token else request.path


def init_app(app: Flask) -> None:
    configure_logging(app)

    @app.before_request
    def start_clock() -> None:
        g.pbem_started = time.perf_counter()
        # CPU time of this thread apart from wall time: what the request computed, not
        # what it waited for (the database, a busy core).
        g.pbem_cpu_started = time.thread_time()

    @app.after_request
    def log_request(response: Response) -> Response:
        started = g.get("pbem_started")
        fields: dict[str, Any] = {
            "method": request.method,
            "path": _loggable_path(),
            "status": response.status_code,
            "ms": round((time.perf_counter() - started) * 1000, 2) if started else None,
        }
        cpu_started = g.get("pbem_cpu_started")
        if cpu_started is not None:
            fields["cpu_ms"] = round((time.thread_time() - cpu_started) * 1000, 2)
        game_id = (request.view_args or {}).get("game_id")
        if game_id is not None:
            fields["game_id"] = game_id
        app.logger.info("request", extra=fields)
        return response
