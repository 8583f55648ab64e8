"""Vacation, as read: a player's absences (declared and withdrawn by `pbem.play.absences`).

The others see only that a player is away and until when, never why. How far absences push
a game's deadlines is capped by the game's allowance (`vacation_days`, see policy.due).
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from sqlalchemy import select

from pbem.extensions import db
from pbem.store.models import Absence, Player

#: An absence as the API shows it, its times in ISO 8601 (`from` is a keyword of Python's,
#: hence the functional form).
AbsenceShown = TypedDict("AbsenceShown", {"id": int, "from": str, "until": str})


def absences_of(player: Player) -> list[AbsenceShown]:
    rows = db.session.execute(
        select(Absence).where(Absence.player_id == player.id).order_by(Absence.starts_at)
    ).scalars()
    return [{"id": a.id, "from": _iso(a.starts_at), "until": _iso(a.ends_at)} for a in rows]


def _iso(moment: datetime) -> str:
    return moment.isoformat()
