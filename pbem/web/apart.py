"""Keeping others away from the page: a player blocked (from their page) or unblocked (there
or from one's own), a seat's talk muted in one game (beside the table's talk), and a report
of a line of talk, a name or a title, written on a page of its own. Thin: `pbem.play.apart`
and `pbem.play.moderation` do the rest."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.errors import Forbidden, NotFound, ServiceError
from pbem.game import players
from pbem.game.seating import Actor
from pbem.languages import _
from pbem.play import apart, moderation
from pbem.store.queries import MAX_ID
from pbem.web.links import own_path
from pbem.web.routes import bp, current_player
from pbem.web.status import status_of


def _signed_in(doing: str) -> int:
    player = current_player()
    if player is None:
        raise Forbidden(_("Sign in (with a link mailed to you) to %(doing)s.", doing=doing))
    return player.id


@bp.post("/players/<int:player_id>/block")
def block_player(player_id: int) -> ResponseReturnValue:
    """Block the player (the form's `unblock` undoes it), then back where the form was."""
    me = players.find_player(_signed_in(_("block a player")))
    assert me is not None  # signed in: there
    back = own_path(request.form.get("next")) or url_for("web.player_page", player_id=player_id)
    if request.form.get("unblock"):
        apart.unblock(me, player_id)
        flash(_("You no longer block this player."))
        return redirect(back, code=303)
    blocked = apart.block(me, player_id)
    flash(
        _(
            "You block %(name)s: neither of you will be seated at a game the other holds, and "
            "you will read none of their words to the table. Games under way go on; they are "
            "not told.",
            name=blocked.name,
        )
    )
    return redirect(back, code=303)


@bp.post("/games/<int:game_id>/mutes")
def mute_seat(game_id: int) -> ResponseReturnValue:
    """Mute the seat the button names (`mute` or `unmute`: its colour) in this game."""
    reader = _signed_in(_("mute a seat"))
    colour = request.form.get("mute") or request.form.get("unmute") or ""
    apart.mute(Actor.by_player(reader), game_id, colour, bool(request.form.get("mute")))
    seat = request.form.get("as") or None
    return redirect(url_for("web.game", game_id=game_id, colour=seat, _anchor="table-talk"), 303)


@bp.route("/report", methods=["GET", "POST"])
def report() -> ResponseReturnValue:
    """What is reported (`kind`, `id`) with a box for why; sent, back to `next` with a word
    that it arrived."""
    reporter = _signed_in(_("report something to the moderators"))
    kind = request.values.get("kind", "")
    target = request.values.get("id", "")
    if kind not in moderation.KINDS or not target.isdigit() or int(target) > MAX_ID:
        raise NotFound(_("There is nothing to report at this address."))
    back = own_path(request.values.get("next")) or url_for("web.index")
    shown = moderation.reported_text(reporter, kind, int(target))
    reason = request.form.get("reason", "")
    if request.method == "POST":
        me = players.find_player(reporter)
        assert me is not None
        try:
            moderation.report(me, kind, int(target), reason)
        except ServiceError as error:
            page = _report_page(kind, target, shown, back, reason, error.detail)
            return page, status_of(error)
        flash(
            _(
                "Your report has reached the moderators; they read every one. Nobody else "
                "is told who reported it."
            )
        )
        return redirect(back, code=303)
    return _report_page(kind, target, shown, back, reason, None)


def _report_page(
    kind: str, target: str, shown: str, back: str, reason: str, error: str | None
) -> str:
    return render_template(
        "web/report.html",
        kind=kind,
        target=target,
        shown=shown,
        back=back,
        reason=reason,
        error=error,
        longest=moderation.LONGEST_REASON,
    )
