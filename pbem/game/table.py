"""The table beside the board, as read: the players' words to it (`table_talk`, each with
its writer's name) and a player's private notes on a game.

Both belong to the game's seats alone, and who may read them is decided here: the words to
the table are read by whoever holds a seat in the game (they were written to the players,
as the mails that pass them on are sent to the players), a player's notes by that player
alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from pbem.errors import Forbidden
from pbem.extensions import db
from pbem.game.seating import Actor, Seating, seating
from pbem.languages import N_
from pbem.store import reads, tables
from pbem.store.prepared import Prepared, all_together

#: At most this many words to the table in one answer of the API.
MOST_PER_PAGE = 200


class Notes(TypedDict):
    text: str
    updated_at: datetime | None  # None: never written


@dataclass(frozen=True)
class Message:
    """A word to the table: who wrote it (their name then and now: the player's), as which
    colour, after which move, from which door, and when."""

    id: int
    seq: int
    colour: str
    name: str
    text: str
    source: str
    created_at: datetime


def seated_at(actor: Actor, game_id: int, *, read_only: bool = True) -> Seating:
    """The game and the actor's seats in it; refused (403) to anyone holding none."""
    seated = seating(actor, game_id, read_only=read_only)
    if not seated.own:
        raise Forbidden(
            N_(
                "You hold no seat in game %(game)s: its table talk and notes are for its "
                "players alone."
            ),
            code="not-seated-at-table",
            game=game_id,
        )
    return seated


#: The words to the table with their writers' names, as a `Message` holds them.
_MESSAGES = select(
    tables.table_talk.c.id,
    tables.table_talk.c.seq,
    tables.table_talk.c.colour,
    tables.players.c.name,
    tables.table_talk.c.text,
    tables.table_talk.c.source,
    tables.table_talk.c.created_at,
).join(tables.players, tables.players.c.id == tables.table_talk.c.player_id)


def messages(
    connection: Connection, game_id: int, *, after: int = 0, limit: int = MOST_PER_PAGE
) -> list[Message]:
    """The game's words to the table after the one numbered `after`, oldest first."""
    rows = connection.execute(
        _MESSAGES.where(tables.table_talk.c.game_id == game_id, tables.table_talk.c.id > after)
        .order_by(tables.table_talk.c.id)
        .limit(limit)
    ).all()
    return [Message(*row) for row in rows]


#: A page's table: the game's last words to it, newest first, and one player's notes.
_LATEST_TALK = Prepared(
    _MESSAGES.where(tables.table_talk.c.game_id == bindparam("game"))
    .order_by(tables.table_talk.c.id.desc())
    .limit(bindparam("count"))
)
_NOTES = Prepared(
    select(tables.notes.c.text).where(
        tables.notes.c.player_id == bindparam("player"), tables.notes.c.game_id == bindparam("game")
    )
)


def talk_and_notes(game_id: int, player_id: int, count: int) -> tuple[list[Message], str]:
    """What a page shows beside the board of a game the player holds a seat in (the caller
    checks that): the last `count` words to the table, oldest first, and the player's notes,
    read together on the request's read connection."""
    talk, notes = all_together(
        reads.connection(),
        [
            (_LATEST_TALK, {"game": game_id, "count": count}),
            (_NOTES, {"game": game_id, "player": player_id}),
        ],
    )
    return [Message(*row) for row in reversed(talk)], notes[0].text if notes else ""


def read_messages(
    actor: Actor, game_id: int, *, after: int, limit: int
) -> tuple[list[Message], bool]:
    """A seat's reading of the table: up to `limit` words after `after`, and whether more
    follow them."""
    seated_at(actor, game_id)
    found = messages(db.session.connection(), game_id, after=after, limit=limit + 1)
    return found[:limit], len(found) > limit


def notes_of(connection: Connection, player_id: int, game_id: int) -> tuple[str, datetime | None]:
    """The player's notes on the game and when they last changed (none yet: empty, None)."""
    row = connection.execute(
        select(tables.notes.c.text, tables.notes.c.updated_at).where(
            tables.notes.c.player_id == player_id, tables.notes.c.game_id == game_id
        )
    ).first()
    return ("", None) if row is None else (row.text, row.updated_at)


def read_notes(actor: Actor, game_id: int) -> Notes:
    """The asking seat's own notes on the game: never anyone else's."""
    seated = seated_at(actor, game_id)
    assert seated.player_id is not None  # a seat's holder is a player
    text, updated_at = notes_of(db.session.connection(), seated.player_id, game_id)
    return {"text": text, "updated_at": updated_at}
