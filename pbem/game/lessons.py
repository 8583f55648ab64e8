"""A game that teaches (`learn`): the lessons due to a seat at its decision, read from the
game's log (`pbem.words.lessons` decides which and says them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from pbem.extensions import db
from pbem.game import history
from pbem.game.seating import Actor, resolve_colour, seating
from pbem.game.states import teaches
from pbem.store import tables
from pbem.words.lessons import Lesson, lessons, lessons_due


def seat_lessons(
    game_id: int, options: Any, colour: str, seq: int, kind: str, names: Mapping[str, str]
) -> list[Lesson]:
    """The lessons due to `colour` at its decision of `kind` at `seq`: none unless the game
    teaches (its `options`)."""
    if not teaches(options):
        return []
    log = history.stored_log(db.session.connection(), game_id, 0, seq)
    return lessons(lessons_due(log, colour, kind), log, colour, names)


def lesson_panel(game_id: int, colour: str, seq: int, names: Mapping[str, str]) -> list[Lesson]:
    """What the page teaches `colour` at `seq`, its decision as the game's row says it."""
    game = db.session.execute(
        select(tables.games.c.options, tables.games.c.pending).where(tables.games.c.id == game_id)
    ).one()
    kind = next((p["kind"] for p in game.pending if p["player"] == colour), None)
    if kind is None:
        return []
    return seat_lessons(game_id, game.options, colour, seq, kind, names)


def lessons_of_seat(actor: Actor, game_id: int, colour: str | None) -> list[Lesson]:
    """What the decision waiting on the actor's seat teaches (`GET .../lessons`): none in a
    game that does not teach, or when no decision waits on the seat."""
    seated = seating(actor, game_id, read_only=True)
    game = db.session.execute(
        select(tables.games.c.seq, tables.games.c.pending).where(tables.games.c.id == game_id)
    ).one()
    waiting = [p["player"] for p in game.pending]
    chosen = resolve_colour(game_id, seated.own, colour, waiting, acting=False)
    if chosen is None:  # no seat of theirs: nothing is taught to a spectator
        return []
    names = {
        seat.colour: seat.name
        for seat in db.session.execute(
            select(tables.seats.c.colour, tables.players.c.name.label("name"))
            .join(tables.players, tables.players.c.id == tables.seats.c.player_id)
            .where(tables.seats.c.game_id == game_id)
        )
    }
    return lesson_panel(game_id, chosen, game.seq, names)
