"""CSRF tokens for the pages' forms: one random token per session, sent back as a hidden
field with every POST. The check runs for the web blueprint only, so the API (which takes
no cookies, only keys) never needs one."""

from __future__ import annotations

import hmac
import secrets

from flask import abort, request, session

from pbem.languages import _

FIELD = "csrf_token"
_KEY = "csrf"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def csrf_token() -> str:
    """This session's token (made on first use)."""
    token = session.get(_KEY)
    if not isinstance(token, str):
        token = session[_KEY] = secrets.token_urlsafe(32)
    return token


def check_csrf() -> None:
    """Refuse (400) a state-changing request whose form lacks this session's token."""
    if request.method not in UNSAFE_METHODS:
        return
    expected = session.get(_KEY)
    sent = request.form.get(FIELD, "").encode("utf-8", "surrogatepass")
    if not isinstance(expected, str) or not hmac.compare_digest(sent, expected.encode()):
        abort(
            400,
            _(
                "This form has expired or did not come from this site (its security token does "
                "not match); reload the page and try again."
            ),
        )
