"""A game that forms before it begins: an invitation's "accept the seat" link, the list of
games that need players (`/games/open`) with a Join button, and the organiser's "start
now"; and every invitation's "never invite me again". Each goes through `play`; the game
begins (deadlines, first mails) once every seat is taken and accepted."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TypedDict

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem import tokens
from pbem.errors import Forbidden, NotFound
from pbem.game import games, players, ratings
from pbem.game.games import get_game
from pbem.headers import no_referrer
from pbem.languages import _, number_text, share_text
from pbem.play import lifecycle, strangers
from pbem.store.models import Game
from pbem.timing import policy
from pbem.web import another_account, signin
from pbem.web.beside import FormingSeat, forming_seats, seated_people
from pbem.web.routes import bp, current_player
from pbem.web.wording import colour_name


@bp.route("/games/<int:game_id>/accept/<token>", methods=["GET", "POST"])
def accept(game_id: int, token: str) -> ResponseReturnValue:
    """An invitation's link: GET asks (mail scanners follow links), POST accepts the seat and
    signs its holder in. Signed in as someone else, it asks first whose account to go on
    with (`another_account`)."""
    no_referrer()
    read = tokens.read_accept_token(token)
    if read is None or read[0] != game_id:
        raise NotFound(_("This invitation link is not valid; use the link in the mail again."))
    colour, player_id = read[1], read[2]
    game = get_game(game_id)
    if game.status != "forming" and _holds(game, colour, player_id):
        # Opened after the game began: the seat is theirs, so the link leads to it (through
        # the seat link's page, which asks before it signs in).
        token = tokens.seat_link_token(game_id, colour, player_id)
        return redirect(url_for("web.seat_sign_in", game_id=game_id, token=token), code=303)
    asked = _asked_first(game, colour, player_id)
    if asked is not None:
        return asked
    if request.method == "GET":
        return render_template(
            "web/accept.html", game=game, colour=colour, seats=forming_seats(game)
        )
    lifecycle.accept_seat(game_id, colour, player_id, by_link=True)
    signin.sign_in(player_id)
    if game.status == "active":
        flash(
            _(
                "You accepted %(colour)s, the last seat to be taken: %(title)s has begun.",
                colour=colour_name(colour),
                title=game.title,
            )
        )
    else:
        flash(
            _(
                "You accepted %(colour)s. The game begins once every seat is taken and accepted.",
                colour=colour_name(colour),
            )
        )
    return redirect(url_for("web.game", game_id=game_id), code=303)


def _asked_first(game: Game, colour: str, player_id: int) -> ResponseReturnValue | None:
    """Whose account to go on with, asked of someone else signed in, while the link would
    accept a seat (a link that can accept nothing only says so)."""
    if game.status != "forming" or not _holds(game, colour, player_id):
        return None
    what = _(
        "The link accepts their invitation to “%(title)s”, for the %(colour)s seat.",
        title=game.title,
        colour=colour_name(colour),
    )
    return another_account.asked(current_player(), player_id, what)


def _holds(game: Game, colour: str, player_id: int) -> bool:
    return any(s.colour == colour and s.player_id == player_id for s in game.seats)


@bp.get("/games/open")
def open_games() -> str:
    """Forming games with open seats, newest first, with what a player needs to choose."""
    found = games.open_games(limit=100)
    shown = ratings.beside_names(seated_people(found))  # one read for every listed seat
    listed = [_listed(game, shown) for game in found]
    return render_template("web/open_games.html", games=listed, signed_in_now=current_player())


@bp.post("/games/<int:game_id>/join")
def join(game_id: int) -> ResponseReturnValue:
    signed = current_player()
    if signed is None:
        raise Forbidden(_("Sign in to join a game."))
    colour = request.form.get("colour", "")
    game = lifecycle.join_seat(players.player(signed.id), game_id, colour)
    seat = {"title": game.title, "colour": colour_name(colour)}
    if game.status == "active":
        flash(_("You joined %(title)s as %(colour)s. It has begun.", **seat))
    else:
        flash(_("You joined %(title)s as %(colour)s. It begins once every seat is taken.", **seat))
    return redirect(url_for("web.game", game_id=game_id), code=303)


@bp.post("/games/<int:game_id>/start")
def start(game_id: int) -> ResponseReturnValue:
    """The organiser starts a forming game now (open seats to house bots)."""
    signed = current_player()
    if signed is None:
        raise Forbidden(_("Sign in as the game's organiser to start it."))
    lifecycle.start_game(players.player(signed.id), game_id)
    flash(_("The game has begun: everyone has been mailed."))
    return redirect(url_for("web.game", game_id=game_id), code=303)


class ListedGame(TypedDict):
    """A forming game as the list of open games shows it."""

    id: int
    title: str
    seats: list[FormingSeat]
    rounds: int
    pace: str
    since: str
    organiser: str
    asks: list[str]  # what a player must have to join it


def _listed(game: Game, shown: Mapping[int, ratings.BesideName]) -> ListedGame:
    timing = policy.timing_of(game.timing)
    waited: datetime = game.created_at
    return {
        "id": game.id,
        "title": game.title,
        "seats": forming_seats(game, shown),
        "rounds": (game.options or {}).get("rounds", 9),
        "pace": _("%(hours)s h a turn", hours=timing["turn_hours"]),
        "since": waited.isoformat(),
        "organiser": game.creator.name,
        "asks": _asks(game),
    }


def _asks(game: Game) -> list[str]:
    asks = []
    if game.min_reliability is not None:
        asks.append(
            _(
                "Open to players who answer at least %(share)s of their decisions in time.",
                share=share_text(game.min_reliability),
            )
        )
    if game.min_rating is not None:
        asks.append(
            _("Open to players rated at least %(rating)s.", rating=number_text(game.min_rating))
        )
    return asks


@bp.route("/never-invite/<token>", methods=["GET", "POST"])
def never_invite(token: str) -> ResponseReturnValue:
    """An invitation's "never invite me again": GET asks (mail scanners follow links), POST
    refuses every later invitation to the address, from anyone."""
    no_referrer()
    email = tokens.read_never_invite_token(token)
    if email is None:
        raise NotFound(_("This link is not valid; use the link in the invitation again."))
    if request.method == "POST":
        strangers.never_invite(email)
    done = strangers.is_suppressed(email)
    # no_referrer above also keeps the page (the address, the form's token) uncached.
    return render_template("web/never_invite.html", email=email, done=done)
