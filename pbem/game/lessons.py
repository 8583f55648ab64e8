"""A game that teaches (`learn`): the lessons due to a seat at its decision on the page and
by the API, read from the game's log (`pbem.words.lessons` decides which and says them; the
decision mail reads the log it has already)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from pbem.extensions import db
from pbem.game import history
from pbem.game.seating import Actor, resolve_colour, seating
from pbem.game.states import teaches
from pbem.store import tables
from pbem.words.lessons import Lesson, lessons_at


def lesson_panel(game_id: int, colour: str, seq: int, names: Mapping[str, str]) -> list[Lesson]:
    """What the page teaches `colour` at `seq`, its decision as the game's row says it."""
    return _due(game_id, _teaching(game_id), colour, seq, names)


def lessons_of_seat(actor: Actor, game_id: int, colour: str | None) -> list[Lesson]:
    """What the decision waiting on the actor's seat teaches (`GET .../lessons`): none in a
    game that does not teach, or when no decision waits on the seat."""
    seated = seating(actor, game_id, read_only=True)
    game = _teaching(game_id)
    waiting = [p["player"] for p in game.pending]
    chosen = resolve_colour(game_id, seated.own, colour, waiting, acting=False)
    if chosen is None or not teaches(game.options):  # a spectator, or nothing to teach
        return []
    names = {
        seat.colour: seat.name
        for seat in db.session.execute(
            select(tables.seats.c.colour, tables.players.c.name.label("name"))
            .join(tables.players, tables.players.c.id == tables.seats.c.player_id)
            .where(tables.seats.c.game_id == game_id)
        )
    }
    return _due(game_id, game, chosen, game.seq, names)


def _teaching(game_id: int) -> Any:
    """What decides a seat's lessons in the game's row: its options, what waits, its seq."""
    games = tables.games.c
    return db.session.execute(
        select(games.options, games.pending, games.seq).where(games.id == game_id)
    ).one()


def _due(game_id: int, game: Any, colour: str, seq: int, names: Mapping[str, str]) -> list[Lesson]:
    kind = next((p["kind"] for p in game.pending if p["player"] == colour), None)
    if kind is None or not teaches(game.options):
        return []
    log = history.stored_log(db.session.connection(), game_id, 0, seq)
    return lessons_at(log, colour, kind, names)
