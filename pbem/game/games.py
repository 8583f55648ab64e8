"""Games as they are read: one by id, a player's seats in it, a player's games."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any, NotRequired, Protocol, TypedDict

from sqlalchemy import Row, select, update

from pbem.errors import NotFound
from pbem.extensions import db
from pbem.game.players import is_unreachable
from pbem.languages import N_
from pbem.store import queries, reads, tables
from pbem.store.models import Game, Player, Seat
from pbem.store.queries import MAX_ID
from pbem.timing import deadlines


class HasId(Protocol):
    """A player as these reads need one: a `Player`, or the pages' signed-in player."""

    @property
    def id(self) -> int: ...


def get_game(game_id: int) -> Game:
    game = db.session.get(Game, game_id) if 0 < game_id <= MAX_ID else None
    if game is None:
        raise NotFound(
            N_("There is no game %(game)s; GET /api/games lists yours."),
            code="no-such-game",
            game=game_id,
        )
    return game


def read_again(game: Game) -> Game:
    """`game` with its row read again: what others committed since (the game may have moved
    on while a mail was read), or what a rollback left to reload."""
    db.session.refresh(game)
    return game


def has_seat(game_id: int, colour: str) -> bool:
    """Whether game `game_id` has a seat of `colour` (a signed seat address names one)."""
    found = db.session.execute(
        select(Seat.id).where(Seat.game_id == game_id, Seat.colour == colour)
    ).first()
    return found is not None


def locked_game(game_id: int) -> Game:
    """The game, its row locked until the transaction ends (on SQLite: the database's writes),
    for a change that decides between people (a seat joined, accepted, declined or given, a
    game started or stopped): of requests at once, each decides on what the one before it
    committed. Call it before anything else reads the game in the transaction."""
    if not 0 < game_id <= MAX_ID:
        return get_game(game_id)
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(
            select(tables.games.c.id).where(tables.games.c.id == game_id).with_for_update()
        )
    else:
        # SQLite locks the whole database for the first write; busy_timeout makes the
        # others wait for it, as they wait on PostgreSQL for the row.
        connection.execute(
            update(tables.games).where(tables.games.c.id == game_id).values(id=tables.games.c.id)
        )
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


def open_games(limit: int = 100) -> list[Game]:
    """Forming games with an open seat (anyone may join them), the newest first."""
    query = (
        db.select(Game)
        .where(Game.status == "forming", Game.id.in_(db.select(Seat.game_id).where(Seat.open)))
        .order_by(Game.id.desc())
        .limit(limit)
    )
    return list(db.session.execute(query).scalars())


def titles(game_ids: Collection[int]) -> dict[int, str]:
    """The titles of these games, by id (a game there is none of is left out)."""
    query = db.select(Game.id, Game.title).where(Game.id.in_(list(game_ids)))
    return {game_id: title for game_id, title in db.session.execute(query).all()}


def playing(player: HasId) -> list[Row[Any]]:
    """The games the player holds a seat in that are forming or under way (`id`, `title`),
    the newest first."""
    return list(
        db.session.execute(
            db.select(Game.id, Game.title)
            .join(Seat, Seat.game_id == Game.id)
            .where(Seat.player_id == player.id, Game.status.in_(("forming", "active")))
            .distinct()
            .order_by(Game.id.desc())
        ).all()
    )


def earliest_deadlines(game_ids: Collection[int]) -> dict[tuple[int, str], datetime]:
    """Each seat's earliest open deadline in these games, by (game, colour)."""
    return deadlines.earliest(db.session.connection(), game_ids)


# What a page reads on the request's read connection (`pbem.store.reads`): a GET, with no
# ORM session.


def page_rows(game_id: int, reader: queries.ReaderParams) -> list[Row[Any]]:
    """The game's row with each seat and its holder's name, and the signed-in player's name
    (`reader`: their id, session epoch and session id): one query (`queries.game_page`)."""
    return queries.game_page(reads.connection(), game_id, reader)


def pending_deadlines(game_id: int) -> list[Any]:
    """The game's open deadlines, each seat's (`colour`, `due_at`)."""
    return queries.DEADLINES.all(reads.connection(), {"game": game_id})


def seq_and_status(game_id: int, reader: queries.ReaderParams) -> Any | None:
    """What an open page polls: the game's seq and status, and the last word to its table
    for a reader holding a seat (`reader` as for `page_rows`); None if there is no game."""
    return queries.GAME_SEQ.first(reads.connection(), {**reader, "game": game_id})


class SeatSummary(TypedDict):
    colour: str
    player_id: int  # its holder (GET /api/players/{id}: their name, rating, reliability)
    name: str
    invited: bool  # a person who has not claimed an API key yet
    declined: bool
    bot: bool
    open: NotRequired[bool]  # while the game forms
    accepted: NotRequired[bool]  # while the game forms


class GameSummary(TypedDict):
    """A game as `GET /api/games` lists it for one player."""

    id: int
    title: str
    status: str
    seq: int
    colour: str | None
    colours: list[str]
    admin: bool
    seats: list[SeatSummary]
    to_move: list[str]
    your_turn: bool
    options: dict[str, Any]  # the engine's options, as the game was made with them


def _seat_summary(game: Game, seat: Seat) -> SeatSummary:
    summary: SeatSummary = {
        "colour": seat.colour,
        "player_id": seat.player_id,
        "name": seat.player.name,
        # Invited: a person who has not claimed an API key yet (a house bot has none
        # either, and is invited by no one). Declined: the admin should give the seat to
        # someone else (PUT .../seats/{colour}).
        "invited": seat.player.api_key_hash is None and not is_unreachable(seat.player.email),
        "declined": seat.declined_at is not None,
        "bot": seat.bot,
    }
    if game.status == "forming":  # anyone may join it, or its holder has accepted it
        summary["open"], summary["accepted"] = seat.open, seat.accepted_at is not None
    return summary


def game_summary(game: Game, player: Player) -> GameSummary:
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
        "seats": [_seat_summary(game, s) for s in game.seats],
        "to_move": to_move if game.status == "active" else [],
        "your_turn": game.status == "active" and any(c in to_move for c in own),
        "options": game.options,
    }


def seat_banks(game_id: int) -> dict[str, tuple[int, bool]]:
    """A time-bank game's banks by colour, each with whether its clock runs (a decision of
    the seat's is open): its bank as of when it started then. Empty for any other game.
    Read per request: a bank changes with every answer."""
    connection = reads.connection()
    rows = queries.BANKS.all(connection, {"game": game_id})
    if not rows:
        return {}
    running = {d.colour for d in queries.DEADLINES.all(connection, {"game": game_id})}
    return {row.colour: (row.bank_seconds, row.colour in running) for row in rows}
