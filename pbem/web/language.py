"""Which language a page is in: the reader's own choice (kept in their session: chosen on
`/me`, which also keeps it for their mails, or by the language links at a page's foot), else
the browser's Accept-Language, else English. Read from the session and the request alone, so
choosing costs a page no query."""

from __future__ import annotations

from functools import lru_cache

from flask import has_request_context, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from pbem.errors import NotFound
from pbem.languages import DEFAULT, LANGUAGES, known
from pbem.web.links import own_path
from pbem.web.routes import bp
from pbem.web.signin import LANGUAGE_KEY


def page_language() -> str:
    """Flask-Babel's locale selector for pages (and the API's problem messages)."""
    if not has_request_context():
        return DEFAULT
    chosen = known(session.get(LANGUAGE_KEY)) if request.cookies else None
    if chosen:
        return chosen
    return _accepted(request.headers.get("Accept-Language", ""))


@lru_cache(maxsize=256)
def _accepted(header: str) -> str:
    """The best of our languages for an Accept-Language header: worked out once per header
    (browsers send a few different ones; parsing and matching cost a page more than its
    language's catalog does)."""
    return parse_accept_header(header, LanguageAccept).best_match(LANGUAGES) or DEFAULT


@bp.get("/language/<code>")
def choose_language(code: str) -> ResponseReturnValue:
    """The language links at a page's foot: pages in `code` for this session, back on the
    page they were followed from. (A player's mails follow the choice on `/me`.)"""
    chosen = known(code)
    if chosen is None or chosen != code:
        raise NotFound(f"There is no language {code!r} here; there are {', '.join(LANGUAGES)}.")
    keep_language(chosen)
    back = own_path(request.referrer) or url_for("web.index")
    return redirect(back, code=303)


def keep_language(language: str | None) -> None:
    """The session's language from now on (None: follow the browser again)."""
    code = known(language)
    if code:
        session[LANGUAGE_KEY] = code
    else:
        session.pop(LANGUAGE_KEY, None)
