"""A page's frame, drawn once per reader: the board page's, and the record pages'.

`web/game.html` is `web/base.html` (the stylesheets, the header with who is signed in and the
sign-out form, flash messages, the script) around the page's title and body. All of the frame
is the same from one of a reader's pages to the next: only the title and body change with the
game and the move. So the frame is rendered once, with markers for the title and the body, cut
at the markers, and kept by everything it shows: the script root its links are under, the
signed-in player, their CSRF token, the flash messages, and for someone signed out the page
that signing in comes back to. A page after a move then costs the body alone.

A kept frame holds a session's CSRF token, so it is only ever served to a request whose
session holds that same token (the token is in the key).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from flask import get_flashed_messages, render_template, request
from markupsafe import Markup, escape

from pbem.kept import app_drawn
from pbem.web.csrf import csrf_token
from pbem.web.signin import SignedIn

#: Frames kept per app: a reader's keep hitting theirs (it changes only when they sign in or
#: out, or a flash message comes), so a few per reader active at once.
FRAMES_KEPT = 2048


def framed(
    template: str, title: str, body: Callable[[str | None], Markup], me: SignedIn | None
) -> str:
    """`template` (one that extends `web/base.html` and shows `title` and `body` as given)
    with `title` escaped and `body(csrf_token)` in it, `me` being the signed-in player (None:
    nobody). `body` gets the session's CSRF token, or None when nobody is signed in (a form
    that posts needs someone signed in)."""
    # The token is made (if the session has none) before it is read into the key, so a frame
    # is never kept under "no token" while holding one.
    token = csrf_token() if me is not None else None
    flashes = tuple(get_flashed_messages())  # the template reads the same list again
    key = (
        template,
        request.script_root,
        me,
        token,
        flashes,
        # Signed out, a game's header has a sign-in link that comes back to it (base.html);
        # any other page's frame is the same whatever its path.
        None if me is not None else (request.endpoint, _back_to()),
    )
    frames = app_drawn("pbem_frames", FRAMES_KEPT)
    before_title, between, after = frames.get(key, lambda: _cut(template))
    return "".join((before_title, escape(title), between, body(token), after))


def _back_to() -> str | None:
    return request.full_path if request.endpoint == "web.game" else None


def _cut(template: str) -> tuple[str, str, str]:
    # Markers drawn at random for each frame: no name or flash message in it can hold one.
    title, body = (Markup(f"\x00{secrets.token_hex(8)}\x00") for _ in range(2))
    html = render_template(template, title=title, body=body)
    before_title, rest = html.split(title)
    between, after = rest.split(body)
    return before_title, between, after
