"""Links the pages carry, built once per worker.

`url_for` walks the app's URL map on every call; a page after a move carries the same few
links its game's page carried before (to the page now, to a seq, to play), and every page the
stylesheets, the script, home and sign out. They depend on nothing but the app's routes, the
script root the app is served under and the values given, so each is built once and kept.
"""

from __future__ import annotations

from typing import Any

from flask import request, url_for

from pbem.web.templating import app_drawn

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
            "home": link("web.index"),
            "sign_out": link("web.sign_out"),
        },
    )
    return links
