"""Hints on the page: the Hint button asks (`pbem.play.advice.ask_hint`, as every door
does), and the page's script asks for the hint's part until the scheduler has worked it
out; without the script, the page shows it when next opened."""

from __future__ import annotations

from typing import Any

from flask import current_app, redirect, url_for
from flask.typing import ResponseReturnValue

from pbem.errors import Forbidden
from pbem.game import advice as reading
from pbem.game.seating import Actor
from pbem.languages import _
from pbem.play import advice
from pbem.web.routes import bp, colour_arg, current_player


def _signed_in() -> int:
    player = current_player()
    if player is None:
        raise Forbidden(_("Sign in (with your seat's link or your API key) to ask for a hint."))
    return player.id


@bp.post("/games/<int:game_id>/hint")
def ask_hint(game_id: int) -> ResponseReturnValue:
    """Ask for a hint for the decision waiting on the reader's seat; back to the board."""
    colour = colour_arg()
    advice.ask_hint(Actor.by_player(_signed_in()), game_id, "web", colour)
    return redirect(url_for("web.game", game_id=game_id, colour=colour, _anchor="hint"), code=303)


@bp.get("/games/<int:game_id>/hint")
def hint_part(game_id: int) -> ResponseReturnValue:
    """The hint's part of the board page, for its script: 202 while it is worked out."""
    colour = colour_arg()
    asked = advice.ask_hint(Actor.by_player(_signed_in()), game_id, "web", colour)
    panel = {"asked": True, **reading.hint_words(game_id, reading.game_seed(game_id), asked)}
    parts: Any = current_app.jinja_env.get_template("web/_game_body.html").module
    return str(parts.hint_box(panel, game_id, "", colour)), 200 if asked["answered"] else 202
