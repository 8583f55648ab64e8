"""The operator's page: the reports waiting, each with what may be done about it (warn,
suspend, ban, or dismiss), and the last actions taken. For players with the operator flag
(`pbem moderation operator EMAIL`) alone: anyone else finds no page here."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.errors import NotFound, ServiceError
from pbem.game import players
from pbem.languages import _
from pbem.play import moderation
from pbem.store.models import Player
from pbem.web.routes import bp, current_player
from pbem.web.status import status_of

#: What the page offers for a report.
ACTIONS = ("warn", "suspend", "ban", "dismiss")


def _operator() -> Player:
    signed = current_player()
    player = players.find_player(signed.id) if signed is not None else None
    if player is None or not player.operator:
        raise NotFound(_("There is no page here."))
    return player


@bp.get("/operator")
def operator_page() -> ResponseReturnValue:
    """The queue of reports, the oldest first."""
    _operator()
    return _page(None)


def _page(error: str | None) -> str:
    return render_template(
        "web/operator.html",
        reports=moderation.waiting_reports(),
        recent=moderation.recent_actions(20),
        ladder=moderation.SUSPENSION_DAYS,
        error=error,
    )


@bp.post("/operator/reports/<int:report_id>")
def operator_act(report_id: int) -> ResponseReturnValue:
    """Act on one report (the form's `action`, `days` and `reason`), logged as this
    operator's."""
    operator = _operator()
    action = request.form.get("action", "")
    days = request.form.get("days", "").strip()
    try:
        if action not in ACTIONS:
            raise NotFound(_("Choose what to do about the report."))
        moderation.act(
            moderation.report_subject(report_id),
            action,
            reason=request.form.get("reason", ""),
            moderator=f"{operator.name} (player {operator.id}, the operator's page)",
            days=int(days) if days.isdigit() and 0 < int(days) <= 3650 else None,
            report_id=report_id,
        )
    except ServiceError as error:
        return _page(error.detail), status_of(error)
    flash(_("Done: report %(id)s is closed, and the action logged.", id=report_id))
    return redirect(url_for("web.operator_page"), code=303)
