"""Tournaments on the pages: the list, one tournament (its format explained, the standings
with the formula, each round's tables with links to their games; enter, leave and, for its
organiser, start), and a form making one. Thin: `pbem.play.tournaments` does the rest."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.errors import Forbidden, ServiceError
from pbem.game import players
from pbem.game import tournaments as reading
from pbem.languages import _
from pbem.play import tournaments
from pbem.web.routes import bp, current_player
from pbem.web.status import status_of

#: What the new tournament's form offers.
SIZES, ROUNDS = (3, 4, 5), tuple(range(1, tournaments.MOST_ROUNDS + 1))


@bp.app_context_processor
def _tournament_words() -> dict[str, Any]:
    def named(names: dict[str, str]) -> Any:
        return lambda key: _(names[key]) if key in names else key

    return {
        "format_name": named(reading.FORMAT_NAMES),
        "tournament_status": named(reading.STATUS_NAMES),
        "skipped_why": named(reading.SKIPPED_NAMES),
    }


@bp.get("/tournaments")
def tournaments_page() -> str:
    """Every tournament, the newest first, and a link to make one."""
    return render_template("web/tournaments.html", listed=reading.listed())


@bp.get("/tournaments/<int:tournament_id>")
def tournament_page(tournament_id: int) -> str:
    """One tournament, as anyone may read it; signed in, its buttons."""
    return _page(tournament_id, None)


def _page(tournament_id: int, error: str | None) -> str:
    shown = reading.tournament(tournament_id)
    me = current_player()
    entered = me is not None and any(s["player_id"] == me.id for s in shown["standings"])
    return render_template(
        "web/tournament.html",
        t=shown,
        me=me,
        entered=entered,
        organises=me is not None and me.id == shown["organiser_id"],
        error=error,
    )


@bp.post("/tournaments/<int:tournament_id>")
def tournament_act(tournament_id: int) -> ResponseReturnValue:
    """The page's buttons: `action` enter, leave or start."""
    signed = current_player()
    if signed is None:
        raise Forbidden(_("Sign in (with a link mailed to you) to enter a tournament."))
    me = players.find_player(signed.id)
    assert me is not None
    action = request.form.get("action", "")
    try:
        if action == "enter":
            tournaments.enter(me, tournament_id)
            said = _("You have entered. You are mailed each round's table and deadline.")
        elif action == "leave":
            tournaments.leave(me, tournament_id)
            said = _("You have left the tournament.")
        else:
            tournaments.start(me, tournament_id)
            said = _("The tournament has started: round 1 is drawn.")
    except ServiceError as error:
        return _page(tournament_id, error.detail), status_of(error)
    flash(said)
    return redirect(url_for("web.tournament_page", tournament_id=tournament_id), code=303)


@bp.route("/tournaments/new", methods=["GET", "POST"])
def new_tournament() -> ResponseReturnValue:
    """The form making a tournament (signed in); made, its page."""
    signed = current_player()
    if signed is None:
        return redirect(url_for("web.sign_in", next="/tournaments/new"), code=303)
    if request.method == "GET":
        return _form({}, None)
    form = request.form
    asked: dict[str, Any] = {
        "title": form.get("title", ""),
        "format": form.get("format", "swiss"),
        "table_size": _number(form.get("table_size"), 4),
        "rounds": _number(form.get("rounds"), 3),
        "round_days": _number(form.get("round_days"), 21),
        "options": {"rounds": 6} if form.get("short") else {},
        "entry": {"most": _number(form.get("most"), 12)},
    }
    me = players.find_player(signed.id)
    assert me is not None
    try:
        made = tournaments.create(me, asked)  # type: ignore[arg-type]
    except ServiceError as error:
        return _form(form, error.detail), status_of(error)
    return redirect(url_for("web.tournament_page", tournament_id=made.id), code=303)


def _number(typed: str | None, default: int) -> int:
    return int(typed) if typed and typed.isdigit() and len(typed) < 4 else default


def _form(typed: Any, error: str | None) -> str:
    return render_template(
        "web/new_tournament.html",
        typed=typed,
        error=error,
        sizes=SIZES,
        rounds=ROUNDS,
        explained={f: _(text) for f, text in reading.EXPLAINED.items()},
    )
