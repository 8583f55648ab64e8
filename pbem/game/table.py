"""The table beside the board, as read: the players' words to it (`table_talk`, each with
its writer's name) and a player's private notes on a game.

Both belong to the game's seats alone, and who may read them is decided here: the words to
the table are read by whoever holds a seat in the game (they were written to the players,
as the mails that pass them on are sent to the players), a player's notes by that player
alone. A reader reads no words of a seat they muted in that game, of a player they block,
or of a player suspended or banned (`unheard`, and the reads here, say so in one place).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from sqlalchemy import ColumnElement, and_, bindparam, exists, or_, select
from sqlalchemy.engine import Connection

from pbem.clock import now
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


def heard_by(reader: ColumnElement[int], game_id: ColumnElement[int]) -> ColumnElement[bool]:
    """Whether `reader` reads a word to the table (a row of `table_talk` joined with its
    writer's `players` row) in game `game_id`: not from a seat they muted there, not from
    someone they block, and not from a writer kept away (suspended now, or banned)."""
    talk, players = tables.table_talk.c, tables.players.c
    return and_(
        ~exists().where(
            tables.talk_mutes.c.player_id == reader,
            tables.talk_mutes.c.game_id == game_id,
            tables.talk_mutes.c.colour == talk.colour,
        ),
        ~exists().where(
            tables.blocks.c.blocker_id == reader, tables.blocks.c.blocked_id == talk.player_id
        ),
        players.banned_at.is_(None),
        or_(players.suspended_until.is_(None), players.suspended_until <= bindparam("now")),
    )


def messages(
    connection: Connection,
    game_id: int,
    reader: int,
    *,
    after: int = 0,
    limit: int = MOST_PER_PAGE,
) -> list[Message]:
    """The game's words to the table that `reader` reads, after the one numbered `after`,
    oldest first."""
    rows = connection.execute(
        _MESSAGES.where(
            tables.table_talk.c.game_id == game_id,
            tables.table_talk.c.id > after,
            heard_by(bindparam("reader", reader), bindparam("game", game_id)),
        )
        .order_by(tables.table_talk.c.id)
        .limit(limit),
        {"now": now()},
    ).all()
    return [Message(*row) for row in rows]


#: A page's table: the game's last words to it that its reader reads, newest first, and
#: the reader's notes.
_LATEST_TALK = Prepared(
    _MESSAGES.where(
        tables.table_talk.c.game_id == bindparam("game"),
        heard_by(bindparam("player"), bindparam("game")),
    )
    .order_by(tables.table_talk.c.id.desc())
    .limit(bindparam("count"))
)
_NOTES = Prepared(
    select(tables.notes.c.text).where(
        tables.notes.c.player_id == bindparam("player"), tables.notes.c.game_id == bindparam("game")
    )
)


_MUTED = Prepared(
    select(tables.talk_mutes.c.colour)
    .where(
        tables.talk_mutes.c.player_id == bindparam("player"),
        tables.talk_mutes.c.game_id == bindparam("game"),
    )
    .order_by(tables.talk_mutes.c.colour)
)


@dataclass(frozen=True)
class TableRead:
    """What a page shows beside the board for one reader."""

    talk: list[Message]  # the last words they read, oldest first
    notes: str
    muted: list[str]  # the colours whose words they muted


def talk_and_notes(game_id: int, player_id: int, count: int) -> TableRead:
    """What a page shows beside the board of a game the player holds a seat in (the caller
    checks that): the last `count` words to the table they read, the player's notes and the
    seats they muted, read together on the request's read connection."""
    at = {"game": game_id, "player": player_id}
    talk, notes, muted = all_together(
        reads.connection(),
        [
            (_LATEST_TALK, {**at, "count": count, "now": now()}),
            (_NOTES, at),
            (_MUTED, at),
        ],
    )
    return TableRead(
        [Message(*row) for row in reversed(talk)],
        notes[0].text if notes else "",
        [row.colour for row in muted],
    )


def read_messages(
    actor: Actor, game_id: int, *, after: int, limit: int
) -> tuple[list[Message], bool]:
    """A seat's reading of the table: up to `limit` words after `after`, and whether more
    follow them."""
    seated = seated_at(actor, game_id)
    assert seated.player_id is not None  # a seat's holder is a player
    found = messages(
        db.session.connection(), game_id, seated.player_id, after=after, limit=limit + 1
    )
    return found[:limit], len(found) > limit


def unheard(connection: Connection, game_id: int, colour: str, speaker_id: int) -> set[int]:
    """Who reads none of what the `colour` seat's holder (`speaker_id`) says in game
    `game_id`, so no mail or push passes it on to them: those who muted the seat there and
    those who block the speaker."""
    muted = select(tables.talk_mutes.c.player_id).where(
        tables.talk_mutes.c.game_id == game_id, tables.talk_mutes.c.colour == colour
    )
    blocking = select(tables.blocks.c.blocker_id).where(tables.blocks.c.blocked_id == speaker_id)
    return set(connection.execute(muted.union(blocking)).scalars())


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
