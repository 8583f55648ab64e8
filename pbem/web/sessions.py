"""The pages' session cookie: Flask's signed cookie, re-signed less often.

A signed-in session is permanent (`signin.sign_in`), and Flask by default sends a freshly
signed cookie with every response to such a session, to push its expiry on: serialising,
compressing and signing it cost a board page read from the worker's memory as much as a
fifth of its time. Here an unchanged session's cookie is sent again only once it is
`REFRESH_AFTER` old, so a reader active within the last `PERMANENT_SESSION_LIFETIME` still
stays signed in (to within `REFRESH_AFTER`), and any change to the session (signing in or
out, a flash message, a CSRF token) is sent at once, as before. What the cookie holds, how it
is signed and when it stops being accepted are Flask's own.

As the same cookie then comes back with each request for up to an hour, each worker checks
its signature once and keeps what it holds (by the exact cookie and signing key), copying
that for each request and still refusing it once it is older than the session's lifetime.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask, Request, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, URLSafeTimedSerializer

from pbem.kept import Drawn

#: How old an unchanged session's cookie may grow before a response signs it anew.
REFRESH_AFTER = timedelta(hours=1)


class _Session(SecureCookieSession):
    #: When the cookie this session was read from was signed (None: a new session).
    signed_at: datetime | None = None


#: Cookies whose signature a worker has checked, with what they hold.
VERIFIED_KEPT = 4096
_INVALID = ("invalid",)


def _copied(value: Any) -> Any:
    """A copy of a session's payload for one request to change, its dicts and lists new:
    what `copy.deepcopy` gives for the JSON a session cookie holds, at a fraction of the cost
    (the page's poll opens one every few seconds). Anything else in it is immutable (strings,
    numbers, and the tuples of strings that flashed messages are)."""
    if type(value) is dict:
        return {key: _copied(item) for key, item in value.items()}
    if type(value) is list:
        return [_copied(item) for item in value]
    return value


def _verify(serializer: URLSafeTimedSerializer, cookie: str, max_age: timedelta) -> tuple[Any, ...]:
    """What `cookie` holds and when it was signed, or `_INVALID` (a bad or expired
    signature, as Flask's own sessions read it)."""
    try:
        loaded: tuple[Any, datetime] = serializer.loads(
            cookie, max_age=int(max_age.total_seconds()), return_timestamp=True
        )
        return loaded
    except BadSignature:
        return _INVALID


class SessionInterface(SecureCookieSessionInterface):
    session_class = _Session

    def __init__(self) -> None:
        self._serializers: dict[tuple[object, ...], URLSafeTimedSerializer | None] = {}
        self._verified = Drawn(VERIFIED_KEPT, in_language=False)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        # Flask builds one for every request, and again to save it: one per key suffices.
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        serializer = self._serializers.get(keys)
        if serializer is None:
            serializer = self._serializers[keys] = super().get_signing_serializer(app)
        return serializer

    def open_session(self, app: Flask, request: Request) -> _Session | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        max_age = app.permanent_session_lifetime
        # The same cookie comes back with each request until it is signed anew: its
        # signature is checked once per worker, and its payload kept to copy from.
        key = (id(serializer), cookie)
        verified = self._verified.get(key, lambda: _verify(serializer, cookie, max_age))
        if verified is _INVALID:
            return self.session_class()
        data, signed_at = verified
        if datetime.now(UTC) - signed_at > max_age:
            return self.session_class()  # as itsdangerous says: expired
        session = self.session_class(_copied(data))
        session.signed_at = signed_at
        return session

    def get_cookie_secure(self, app: Flask) -> bool:
        # Secure whenever the pages are served over https: PBEM_BASE_URL says so, or the
        # request came that way (gunicorn believes nginx's X-Forwarded-Proto).
        base = app.config.get("PBEM_BASE_URL") or ""
        secure = app.config["SESSION_COOKIE_SECURE"] or base.startswith("https://")
        return bool(secure or (has_request_context() and request.is_secure))

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed_at: Any = getattr(session, "signed_at", None)
        return signed_at is None or datetime.now(UTC) - signed_at >= REFRESH_AFTER
