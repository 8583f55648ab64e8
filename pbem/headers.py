"""The headers every answer carries against being framed, sniffed or followed: pages may run
only this site's scripts and styles, nothing may show them in a frame, and what a page's
address holds goes no further than this site.

Set once for the app (`init_app`); a page whose address carries a credential (a seat's
sign-in link, a link from a mail) asks for no referrer at all with `no_referrer()`, which
also keeps it out of every cache (`no_store()`, alone for an answer that shows a key).
"""

from __future__ import annotations

from flask import Flask, Response, g, request

#: The pages' policy: scripts, styles, images and forms of this site only, no plugins, no
#: `<base>`, and never inside another site's frame. Pages keep no inline script or style.
#: `worker-src`: /me's service worker (Web Push), from this site (said, not left to the
#: fallback to `script-src`, which differs between browsers' versions). `manifest-src`:
#: the web app manifest, which makes the site installable.
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
#: Everything else (JSON, the API's docs, whose Swagger UI runs an inline script): never
#: framed, and nothing it may load on its own.
OTHER_POLICY = "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

_NO_REFERRER = "pbem_no_referrer"
_NO_STORE = "pbem_no_store"


def no_referrer(kept_privately: bool = False) -> None:
    """This request's page is reached by an address holding a credential: no `Referer` from
    it, even to this site, and no copy kept (`no_store`) unless `kept_privately`: an answer
    fetched again and again by its one reader (a calendar feed) says its own Cache-Control."""
    setattr(g, _NO_REFERRER, True)
    if not kept_privately:
        no_store()


def no_store() -> None:
    """This answer shows a credential or is reached by one: no browser, proxy or back button
    may keep a copy (`Cache-Control: no-store`), whatever it answers, errors included."""
    setattr(g, _NO_STORE, True)


def _protect(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    page = response.mimetype == "text/html" and request.blueprint != "api-docs"
    headers.setdefault("Content-Security-Policy", PAGE_POLICY if page else OTHER_POLICY)
    headers["Referrer-Policy"] = "no-referrer" if g.get(_NO_REFERRER) else "same-origin"
    if g.get(_NO_STORE):
        headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    app.after_request(_protect)
