"""The organiser's page of a game (`/games/<id>/organise`): give a seat more time, let a
house bot play a seat, hand a seat to another person, or stop the game. Each goes through
`play.lifecycle`, as the API's admin calls do, and is mailed to the table."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.addresses import kept_address
from pbem.errors import Forbidden, Invalid, ServiceError, TooMany
from pbem.game import games, players
from pbem.game.games import get_game
from pbem.languages import _
from pbem.play import lifecycle
from pbem.store.models import Game, Player
from pbem.web.board import colour_chip
from pbem.web.routes import bp, current_player
from pbem.web.status import status_of
from pbem.web.wording import colour_name

#: What the page offers to put a deadline off by, in hours.
EXTENSIONS = (24, 72)


@bp.get("/games/<int:game_id>/organise")
def organise(game_id: int) -> ResponseReturnValue:
    organiser, game = _organiser(game_id)
    return _page(game, organiser, None)


@bp.post("/games/<int:game_id>/organise")
def organise_change(game_id: int) -> ResponseReturnValue:
    organiser, game = _organiser(game_id)
    action, colour = request.form.get("action"), request.form.get("colour", "")
    try:
        if action == "extend":
            raw = request.form.get("hours", "")
            hours = int(raw) if raw.isdigit() and len(raw) < 6 else 0
            lifecycle.extend_deadline(organiser, game_id, colour, hours)
            said = _(
                "%(colour)s has %(hours)s hours more.", colour=colour_name(colour), hours=hours
            )
        elif action == "bot":
            lifecycle.seat_to_bot(organiser, game_id, colour)
            said = _("A bot now plays %(colour)s.", colour=colour_name(colour))
        elif action == "give":
            email = request.form.get("email", "").strip()
            if not email:
                raise Invalid(_("Give the email address of the person who takes the seat."))
            # give_seat checks the address (`kept_address`) and says what is wrong with it.
            lifecycle.give_seat(organiser, game_id, colour, email)
            said = _(
                "The %(colour)s seat is now %(email)s's; they have been mailed.",
                colour=colour_name(colour),
                email=kept_address(email),
            )
        elif action == "abort":
            if request.form.get("sure") != "yes":
                raise Invalid(_('Tick "Yes, stop it for good" to stop the game.'))
            lifecycle.abort_game(organiser, game_id)
            said = _("The game is stopped for good.")
        else:
            raise Invalid(_("This form says nothing to do; reload the page and try again."))
    except ServiceError as error:
        wait = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else {}
        # What was typed for a seat stays in that seat's field, to be mended.
        typed = {"colour": colour, "email": request.form.get("email", "")}
        return _page(get_game(game_id), organiser, error.detail, typed), status_of(error), wait
    flash(_("%(done)s Everyone at the table has been told.", done=said))
    return redirect(url_for("web.organise", game_id=game_id), code=303)


def _organiser(game_id: int) -> tuple[Player, Game]:
    signed = current_player()
    if signed is None:
        raise Forbidden(_("Sign in as the game's organiser to organise it."))
    game = get_game(game_id)
    if game.creator_id != signed.id:
        raise Forbidden(
            _("Only the organiser of game %(id)s (who made it) may organise it.", id=game_id)
        )
    return players.player(signed.id), game


def _page(
    game: Game, organiser: Player, error: str | None, typed: dict[str, str] | None = None
) -> str:
    due = games.earliest_deadlines([game.id])
    seats = [
        {
            **colour_chip(s.colour),
            "name": s.player.name,
            "bot": s.bot,
            "declined": s.declined_at is not None,
            "due": due.get((game.id, s.colour)),
        }
        for s in game.seats
    ]
    return render_template(
        "web/organise.html",
        game=game,
        seats=seats,
        error=error,
        typed=typed,
        extensions=EXTENSIONS,
        active=game.status == "active",
        forming=game.status == "forming",
    )
