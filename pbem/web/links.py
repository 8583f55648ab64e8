"""Links the pages carry, built once per worker.

`url_for` walks the app's URL map on every call; a page after a move carries the same few
links its game's page carried before (to the page now, to a seq, to play), and every page the
stylesheets, the script, home and sign out. They depend on nothing but the app's routes, the
script root the app is served under and the values given, so each is built once and kept.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, urlsplit

from flask import request, url_for

from pbem.kept import app_drawn

#: Links kept per app: some for every page, a few for each game recently shown.
LINKS_KEPT = 4096
#: Script roots whose frame links are kept (one, unless a proxy mounts the app twice).
SITES_KEPT = 16


def link(endpoint: str, **values: Any) -> str:
    """`url_for(endpoint, **values)`, built once per app for the same script root and
    values (a relative link: never `_external`)."""
    key = (request.script_root, endpoint, *values.items())
    built: str = app_drawn("pbem_links", LINKS_KEPT).get(key, lambda: url_for(endpoint, **values))
    return built


#: Stands for the id in a link built once for many ids: no route's fixed part holds it.
_ID_MARK = 918273645


def id_links(endpoint: str, name: str) -> Callable[[int], str]:
    """`url_for(endpoint, **{name: id})` for a list's many ids (its games, its players):
    the link is built once with a mark in the id's place, then each id is written in."""
    parts = link(endpoint, **{name: _ID_MARK}).split(str(_ID_MARK))
    if len(parts) != 2:  # a script root holding the mark: build each one
        return lambda value: link(endpoint, **{name: value})
    before, after = parts
    return lambda value: f"{before}{int(value)}{after}"


def site() -> dict[str, str]:
    """The links every page's frame carries (stylesheets, script, home, sign out), as one
    dict built once per script root: a template reads them as `site.home`, with no call.
    Shared by every request: read it, never change it."""
    links: dict[str, str] = app_drawn("pbem_site_links", SITES_KEPT).get(
        request.script_root,
        lambda: {
            "board_css": link("web.static", filename="board.css"),
            "pages_css": link("web.static", filename="pages.css"),
            "board_js": link("web.static", filename="board.js"),
            "favicon": link("web.static", filename="favicon.svg"),
            "manifest": link("web.manifest"),
            "installs": link("web.static", filename="install.js"),
            "worker": link("web.push_worker"),
            "home": link("web.index"),
            "rules": link("web.rules"),
            "sign_out": link("web.sign_out"),
        },
    )
    return links


#: What a path of this site may hold when it is given back as a redirect: printable ASCII
#: without spaces or backslashes. Browsers drop tabs and newlines from a URL and read `\\` as
#: `/`, so `/\t/evil.test` or `/\\evil.test` would leave the site; Werkzeug refuses a header
#: with a newline in it (a 500). Nothing this site links to needs any of them.
_PATH_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-._~!$&'()*+,;=:@/?#%[]")
#: Longer than any link the pages make.
_MAX_PATH = 2000


def own_path(target: str | None) -> str | None:
    """`target` as a path of this site (`/games/1?colour=red`, as `request.full_path` gives
    it) to redirect to, or None when it is anything else: another site in any form a browser
    would follow (`//evil.test`, a backslash, a tab or newline, `https://evil.test`,
    `javascript:`), or text no link of ours holds. An absolute URL to this very host and
    script root comes back as its path. The one test for every redirect to a value a
    request gave."""
    if not target or len(target) > _MAX_PATH:
        return None
    parts = urlsplit(target) if target.isascii() else None
    if parts is not None and parts.scheme in ("http", "https") and parts.netloc == request.host:
        prefix = f"{parts.scheme}://{parts.netloc}{request.script_root}"
        target = target[len(prefix) :] if target.startswith(prefix) else ""
    if not set(target) <= _PATH_CHARACTERS or not target.startswith("/"):
        return None
    # Refused decoded too, so no layer that decodes once more (a proxy, a browser's address
    # bar) can make another site of it.
    decoded = unquote(target)
    if decoded.startswith(("//", "/\\")) or not decoded.isprintable():
        return None
    return target
