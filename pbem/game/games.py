"""Games as they are read: one by id, a player's seats in it, a player's games."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import select, update

from pbem.errors import NotFound
from pbem.extensions import db
from pbem.game.players import is_unreachable
from pbem.languages import N_, _
from pbem.store.models import Game, Player, Seat
from pbem.store.queries import MAX_ID


class HasId(Protocol):
    """A player as these reads need one: a `Player`, or the pages' signed-in player."""

    @property
    def id(self) -> int: ...


#: A game's status as a sentence says it ("Game 12 is over"): the word for a game.
STATUS_WORDS: dict[str, str] = {
    "forming": N_("forming"),
    "active": N_("active"),
    "finished": N_("finished"),
    "aborted": N_("aborted"),
    "abandoned": N_("abandoned"),
    "cancelled": N_("cancelled"),
}


def status_word(status: str) -> str:
    """A game's status in the current language (English: the status itself)."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def get_game(game_id: int) -> Game:
    game = db.session.get(Game, game_id) if 0 < game_id <= MAX_ID else None
    if game is None:
        raise NotFound(
            N_("There is no game %(game)s; GET /api/games lists yours."),
            code="no-such-game",
            game=game_id,
        )
    return game


def locked_game(game_id: int) -> Game:
    """The game, its row locked until the transaction ends (on SQLite: the database's writes),
    for a change that decides between people (a seat joined, accepted, declined or given, a
    game started or stopped): of requests at once, each decides on what the one before it
    committed. Call it before anything else reads the game in the transaction."""
    if not 0 < game_id <= MAX_ID:
        return get_game(game_id)
    connection = db.session.connection()
    games = Game.__table__
    if connection.dialect.name == "postgresql":
        connection.execute(select(games.c.id).where(games.c.id == game_id).with_for_update())
    else:
        # SQLite locks the whole database for the first write; busy_timeout makes the
        # others wait for it, as they wait on PostgreSQL for the row.
        connection.execute(update(games).where(games.c.id == game_id).values(id=games.c.id))
    game = db.session.get(Game, game_id, populate_existing=True)
    if game is None:
        return get_game(game_id)
    return game


def seats_of(game: Game, player: HasId | None) -> list[Seat]:
    """The player's seats in the game, in seat order: one, or two in the two-colour variant."""
    if player is None:
        return []
    return [s for s in game.seats if s.player_id == player.id]


def games_of(player: HasId) -> list[Game]:
    """The games where the player holds a seat, each once (they may hold two in a game)."""
    seated = db.select(Seat.game_id).where(Seat.player_id == player.id)
    return list(
        db.session.execute(db.select(Game).where(Game.id.in_(seated)).order_by(Game.id)).scalars()
    )


def game_summary(game: Game, player: Player) -> dict[str, Any]:
    own = [s.colour for s in seats_of(game, player)]
    to_move = sorted({p["player"] for p in game.pending or []})
    return {
        "id": game.id,
        "title": game.title,
        "status": game.status,
        "seq": game.seq,
        # `colour` is kept for clients written before two-colour games: it names the one
        # seat of a one-seat player and is null for a player holding two.
        "colour": own[0] if len(own) == 1 else None,
        "colours": own,
        "admin": game.creator_id == player.id,
        "seats": [
            {
                "colour": s.colour,
                "name": s.player.name,
                # Invited: a person who has not claimed an API key yet (a house bot has
                # none either, and is invited by no one). Declined: the admin should give
                # the seat to someone else (PUT .../seats/{colour}).
                "invited": s.player.api_key_hash is None and not is_unreachable(s.player.email),
                "declined": s.declined_at is not None,
                "bot": s.bot,
                # While the game forms: anyone may join it, or its holder has accepted it.
                **(
                    {"open": s.open, "accepted": s.accepted_at is not None}
                    if game.status == "forming"
                    else {}
                ),
            }
            for s in game.seats
        ],
        "to_move": to_move if game.status == "active" else [],
        "your_turn": game.status == "active" and any(c in to_move for c in own),
        "options": game.options,
    }
