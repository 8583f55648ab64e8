"""Vacation: a player declares when they are away, and deadlines falling inside move after
it; or withdraws an absence, and they move back.

The others see only that a player is away and until when, never why (`timing.away`). How
far absences push a game's deadlines is capped by the game's allowance (`vacation_days`, see
`timing.policy.due`). The caller commits.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

from pbem.clock import now
from pbem.errors import Invalid, NotFound
from pbem.extensions import db
from pbem.game.games import locked_game
from pbem.languages import N_
from pbem.store.models import Absence, Game, Player, Seat
from pbem.store.queries import MAX_ID
from pbem.timing import deadlines

#: One absence may not be longer than this (the allowance caps what it pushes anyway).
LONGEST = timedelta(days=90)


def declare(player: Player, starts: datetime, ends: datetime) -> Absence:
    """Record an absence and push the player's pending deadlines past it."""
    if ends <= starts:
        raise Invalid(
            N_("An absence ends after it starts: give `until` later than `from`."),
            code="absence-ends-before-start",
        )
    if ends - starts > LONGEST:
        raise Invalid(
            N_("An absence is at most %(days)s days; declare two if you must."),
            code="absence-too-long",
            days=LONGEST.days,
        )
    if ends <= now():
        raise Invalid(N_("That absence is over already; give dates to come."), code="absence-over")
    absence = Absence(player_id=player.id, starts_at=starts, ends_at=ends)
    db.session.add(absence)
    db.session.flush()
    _recompute(player)
    return absence


def cancel(player: Player, absence_id: int) -> None:
    absence = db.session.get(Absence, absence_id) if 0 < absence_id <= MAX_ID else None
    if absence is None or absence.player_id != player.id:
        raise NotFound(
            N_("You have no absence %(absence)s; GET /api/players/me/absences lists yours."),
            code="no-such-absence",
            absence=absence_id,
        )
    db.session.delete(absence)
    db.session.flush()
    _recompute(player)


def _recompute(player: Player) -> None:
    """The player's deadlines in each game going, moved by their absences: each game's row
    locked before its deadlines (one lock order), the games in id order."""
    seated = select(Seat.game_id).where(Seat.player_id == player.id)
    going = db.session.execute(
        select(Game.id).where(Game.id.in_(seated), Game.status == "active").order_by(Game.id)
    ).scalars()
    for game_id in list(going):
        game = locked_game(game_id)
        if game.status == "active":
            deadlines.recompute(db.session.connection(), game.id, game.timing)
