"""Notifications on this device (Web Push) from `/me`: the service worker, served from the
site's root so that its scope covers every page, and the route `push.js` stores a browser's
subscription through (the session's player, the form's CSRF token). `play.push` checks and
keeps it; `notify.push` sends."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, request
from flask.typing import ResponseReturnValue

from pbem.errors import Invalid
from pbem.game import players
from pbem.languages import _
from pbem.play import push
from pbem.web.routes import bp, current_player


@bp.get("/push-worker.js")
def push_worker() -> Response:
    """The service worker: shows a push and opens its game's page when it is clicked. From
    the root, as a worker's scope is at most the folder its script is served from."""
    worker = bp.send_static_file("push-worker.js")
    worker.mimetype = "text/javascript"
    # A browser checks for a new worker at least daily; no-cache makes it check each time.
    worker.headers["Cache-Control"] = "no-cache"
    return worker


def _subscription(raw: str) -> tuple[str, str, str] | None:
    """A browser's `PushSubscription` as JSON: its endpoint and keys, or None."""
    try:
        given: Any = json.loads(raw)
        endpoint, keys = given["endpoint"], given["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
    except (ValueError, KeyError, TypeError):
        return None
    if not all(isinstance(value, str) for value in (endpoint, p256dh, auth)):
        return None
    return endpoint, p256dh, auth


@bp.post("/me/push-subscriptions")
def push_subscribe() -> ResponseReturnValue:
    """Keep the subscription `push.js` made on `/me` (a form field `subscription`, its JSON),
    for the signed-in player; answers JSON `{"detail": ...}`, a sentence for the page."""
    signed = current_player()
    player = players.find_player(signed.id) if signed is not None else None
    if player is None:
        return {"detail": _("Sign in again, then try once more.")}, 401
    given = _subscription(request.form.get("subscription", ""))
    if given is None:
        return {"detail": _("Your browser's subscription could not be read; try again.")}, 422
    try:
        push.subscribe(player, *given)
    except Invalid as error:
        return {"detail": error.detail}, error.status
    said = _(
        "This device is notified from now on: when a decision is yours, when someone writes "
        "to your table, and when a game ends."
    )
    return {"detail": said}, 201
