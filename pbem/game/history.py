"""A game's history for the pages: where its rounds start, a stretch of its log, the
names at its seats. Each a single query; what is secret is still the engine's to decide
(`engine.visible_log`, as in `views.log_for`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy.orm import selectinload

import engine
from pbem.extensions import db
from pbem.store.models import Game, Move, Seat, Snapshot


def round_starts(game_id: int) -> list[int]:
    """The seqs at which rounds start: 0 (setup), then each move whose events hold
    `round_started`. Read from the snapshots, which are written exactly there
    (`states.snapshots_of`; setup's at seq 0)."""
    query = db.select(Snapshot.seq).where(Snapshot.game_id == game_id).order_by(Snapshot.seq)
    seqs = list(db.session.connection().execute(query).scalars())
    return seqs if seqs and seqs[0] == 0 else [0, *seqs]


def log_between(game_id: int, own: Collection[str], after: int, upto: int) -> list[dict[str, Any]]:
    """The log entries with `after < seq <= upto`, as `views.log_for` shows them to the
    holder of the seats `own` (none: to anyone).

    A pick is shown once a revealing event at or after it is in the stretch; cutting the log
    short can only hide more, never less.
    """
    query = (
        db.select(Move.seq, Move.colour, Move.move, Move.events)
        .where(Move.game_id == game_id, Move.seq > after, Move.seq <= upto)
        .order_by(Move.seq)
    )
    entries: list[engine.LogEntry] = [
        {"seq": row.seq, "player": row.colour, "move": row.move, "events": row.events or []}
        for row in db.session.connection().execute(query)
    ]
    return engine.visible_log(entries, set(own))


def recent_games(status: str, limit: int = 30) -> list[Game]:
    """The games in `status` that moved last, newest first, with their seats' players."""
    query = (
        db.select(Game)
        .where(Game.status == status)
        .order_by(Game.updated_at.desc(), Game.id.desc())
        .limit(limit)
        .options(selectinload(Game.seats).selectinload(Seat.player))
    )
    return list(db.session.execute(query).scalars())
