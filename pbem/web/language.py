"""Which language a page is in: the reader's own choice (kept in their session: chosen on
`/me`, which also keeps it for their mails, or by the language links at a page's foot), else
the browser's Accept-Language, else English. Read from the session and the request alone, so
choosing costs a page no query."""

from __future__ import annotations

from flask import has_request_context, request, session

from pbem.languages import DEFAULT, LANGUAGES, known

#: The session's key for the reader's language.
SESSION_KEY = "lang"


def page_language() -> str:
    """Flask-Babel's locale selector for pages (and the API's problem messages)."""
    if not has_request_context():
        return DEFAULT
    chosen = known(session.get(SESSION_KEY)) if request.cookies else None
    if chosen:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT


def keep_language(language: str | None) -> None:
    """The session's language from now on (None: follow the browser again)."""
    code = known(language)
    if code:
        session[SESSION_KEY] = code
    else:
        session.pop(SESSION_KEY, None)
