"""Request bodies read whole, and in bounded time, before the app sees them.

A body is read by the WSGI server as the app asks for it, so whatever goes wrong on the wire
would surface inside a view as an exception, a 500 (gunicorn's `InvalidChunkSize` for a
chunk size of `zz`), or a worker blocked on a client that announced 1,000 bytes and sent 2.
Reading it here first, with a time limit on each wait for the client, turns each of those
into a problem+json answer with `Connection: close`, and the app reads from memory.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import socket
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

#: How long the body may pause before the request is given up (seconds): far more than any
#: client on a slow phone needs between two packets, and it frees the thread.
BODY_PAUSE_SECONDS = 10.0
#: Read from the server's input at most this much at a time.
_PIECE = 16 * 1024

log = logging.getLogger("pbem.bodies")

StartResponse = Callable[..., Any]
WSGIApp = Callable[["WSGIEnvironment", StartResponse], Iterable[bytes]]


def too_large(limit: int | None) -> str:
    """The sentence for a body over the limit (also the API's 413)."""
    return (
        f"The request body is larger than the {limit} bytes this server accepts; "
        "send fewer moves per request."
    )


class _Refused(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class WholeBodies:
    """WSGI middleware: the body of every request that has one is read here, up to `limit()`
    bytes (the app's MAX_CONTENT_LENGTH, read per request so a test may change it), waiting at
    most `pause` seconds for each piece where the server hands over its socket (gunicorn)."""

    def __init__(
        self, app: WSGIApp, limit: Callable[[], int | None], pause: float = BODY_PAUSE_SECONDS
    ) -> None:
        self.app = app
        self.limit = limit
        self.pause = pause

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        length = environ.get("CONTENT_LENGTH") or ""
        if not chunked and length in ("", "0"):
            return self.app(environ, start_response)
        try:
            body = self._read(environ, None if chunked else length)
        except _Refused as refused:
            return _problem(start_response, refused.status, refused.detail)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["wsgi.input_terminated"] = True
        return self.app(environ, start_response)

    def _read(self, environ: WSGIEnvironment, length: str | None) -> bytes:
        limit = self.limit()
        if length is not None and not length.isdigit():
            raise _Refused(400, f"The Content-Length header {length[:40]!r} is not a number.")
        announced = int(length) if length is not None else None
        if announced is not None and limit is not None and announced > limit:
            raise _Refused(413, too_large(limit))
        wire: socket.socket | None = environ.get("gunicorn.socket")
        before = wire.gettimeout() if wire is not None else None
        if wire is not None:
            wire.settimeout(self.pause)
        try:
            body = _read_up_to(environ["wsgi.input"], announced, limit)
        except TimeoutError:
            raise _Refused(
                408, f"The request body stopped arriving for {self.pause:g} seconds; send it again."
            ) from None
        except _Refused:
            raise
        except Exception as error:  # noqa: BLE001 (each server has its own errors for a bad body)
            log.info("unreadable request body: %s: %s", type(error).__name__, error)
            raise _Refused(
                400,
                "The request body could not be read (a broken chunked encoding or a "
                "connection cut short); send it again, whole.",
            ) from None
        finally:
            if wire is not None:
                # Closed under us, the answer will not reach it anyway.
                with contextlib.suppress(OSError):
                    wire.settimeout(before)
        if announced is not None and len(body) < announced:
            raise _Refused(
                400,
                f"The request body ended after {len(body)} of the {announced} bytes its "
                "Content-Length announced; send it again, whole.",
            )
        return body


def _read_up_to(stream: Any, announced: int | None, limit: int | None) -> bytes:
    """The body: `announced` bytes (or to the end when chunked), refused past `limit`."""
    pieces = []
    size = 0
    wanted = announced if announced is not None else (limit + 1 if limit is not None else None)
    while wanted is None or size < wanted:
        piece = stream.read(_PIECE if wanted is None else min(_PIECE, wanted - size))
        if not piece:
            break
        pieces.append(piece)
        size += len(piece)
    if limit is not None and size > limit:
        raise _Refused(413, too_large(limit))
    return b"".join(pieces)


#: Each refusal's title and problem type, as the API's problems name them.
_KINDS = {
    400: ("Bad Request", "/problems/unreadable-body"),
    408: ("Request Timeout", "/problems/body-timeout"),
    413: ("Content Too Large", "/problems/too-large"),
}


def _problem(start_response: StartResponse, status: int, detail: str) -> list[bytes]:
    title, kind = _KINDS[status]
    body = json.dumps({"type": kind, "title": title, "status": status, "detail": detail}).encode()
    start_response(
        f"{status} {title}",
        [
            ("Content-Type", "application/problem+json"),
            ("Content-Length", str(len(body))),
            # What is left of the body on the wire is not a request: the connection ends here.
            ("Connection", "close"),
        ],
    )
    return [body]
