"""Words to the table: lines a seat's holder wrote that were no move (in a mail), or a
message written on the page or through the API, kept in the game's record and passed on to
the other players."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from pbem.clock import now
from pbem.errors import Conflict, Forbidden, Invalid, TooMany
from pbem.extensions import db
from pbem.game import table
from pbem.game.seating import Actor, held_colours
from pbem.languages import N_, later
from pbem.notify import game_mails
from pbem.store import limits, tables
from pbem.texts import invisible
from pbem.words import status_word

#: A word to the table is at most this long (a mail's longer line is cut, and the writer
#: told; a longer message from the page or the API is refused).
LONGEST = 500
#: At most this many lines of one mail are passed on, or lines in one message.
MOST_LINES = 20
#: At most this many messages by one player to one game's table in `WINDOW`, from the
#: page, the API and mails together (a mail's words are one message): enough for a
#: conversation, too few to flood the others' mailboxes.
MOST_PER_WINDOW = 6
WINDOW = timedelta(minutes=1)
#: The games whose table is open: a finished game's players may still say "well played";
#: an aborted or abandoned game has nobody left at its table.
OPEN_STATUSES = ("active", "finished")

# Control characters but the line break and the tab: a NUL would not even be stored.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def say(
    connection: Connection,
    *,
    game_id: int,
    title: str,
    colour: str,
    player_id: int,
    lines: list[str],
    seq: int,
    source: str = "email",
) -> list[str]:
    """Keep `lines` in the game's record at move `seq` and queue them to the others; the
    caller commits. Returns the lines as kept (cut to `LONGEST`, at most `MOST_LINES`)."""
    kept = [line[:LONGEST] for line in lines[:MOST_LINES]]
    _say(connection, game_id, title, colour, player_id, kept, seq, source)
    return kept


def _say(
    connection: Connection,
    game_id: int,
    title: str,
    colour: str,
    player_id: int,
    lines: list[str],
    seq: int,
    source: str,
) -> list[int]:
    """Keep `lines` as they are and queue them to the others; their ids."""
    if not lines:
        return []
    moment = now()
    rows = [
        {
            "game_id": game_id,
            "seq": seq,
            "colour": colour,
            "player_id": player_id,
            "text": line,
            "source": source,
            "created_at": moment,
        }
        for line in lines
    ]
    ids = list(
        connection.execute(
            insert(tables.table_talk).returning(tables.table_talk.c.id), rows
        ).scalars()
    )
    game_mails.table_talk(
        connection,
        game_id=game_id,
        title=title,
        colour=colour,
        lines=lines,
        seq=seq,
        said_at=moment,
    )
    return ids


def write(
    actor: Actor, game_id: int, text: Any, *, colour: str | None, source: str
) -> table.Message:
    """A message to the table from the page or the API, as one of the writer's seats
    (`colour`; a person holding two must name it), kept and passed on; the caller commits.
    Refused, changing nothing: from anyone without a seat, as another's colour, in a game
    whose table is closed, empty, too long, or more often than `MOST_PER_WINDOW`."""
    seated = table.seated_at(actor, game_id, read_only=False)
    game, own = seated.game, seated.own
    assert seated.player_id is not None  # a seat's holder is a player
    if colour is not None and colour not in own:
        raise Forbidden(
            N_(
                "You hold %(own)s in game %(game)s, not %(colour)s: you write to the "
                "table as your own colour only."
            ),
            code="talk-not-your-colour",
            own=later(held_colours, own),
            game=game_id,
            colour=colour,
        )
    if colour is None:
        if len(own) > 1:
            raise Invalid(
                N_('You hold %(own)s in game %(game)s; say which of them writes with "colour".'),
                code="talk-which-colour",
                own=later(held_colours, own),
                game=game_id,
            )
        colour = own[0]
    if game.status not in OPEN_STATUSES:
        raise Conflict(
            N_("Game %(game)s was %(status)s: its table is closed."),
            code="table-closed",
            game=game_id,
            status=later(status_word, game.status),
        )
    words = checked_text(text)
    connection = db.session.connection()
    refused = pace_refusal(connection, game_id, seated.player_id)
    if refused is not None:
        raise refused
    (message_id,) = _say(
        connection, game_id, game.title, colour, seated.player_id, [words], game.seq, source
    )
    (message,) = table.messages(
        connection, game_id, seated.player_id, after=message_id - 1, limit=1
    )
    return message


def last_said(game_id: int, colour: str) -> int | None:
    """The id of the last word the `colour` seat wrote to game `game_id`'s table, if any."""
    talk = tables.table_talk.c
    found = db.session.connection().execute(
        select(func.max(talk.id)).where(talk.game_id == game_id, talk.colour == colour)
    )
    return found.scalar()


def checked_text(text: Any) -> str:
    """A message's text as kept: its line breaks made plain and the blank around it
    trimmed; refused when it is no text, empty, too long or holds control characters."""
    if not isinstance(text, str):
        raise Invalid(N_('A message needs its words as "text", a string.'), code="message-not-text")
    words = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not words:
        raise Invalid(
            N_("This message is empty; write something to say to the table."), code="message-empty"
        )
    if invisible(words):
        raise Invalid(
            N_(
                "This message holds only invisible characters (such as zero-width spaces); "
                "write something to say to the table."
            ),
            code="message-invisible",
        )
    if len(words) > LONGEST:
        raise Invalid(
            N_(
                "This message is %(length)s characters long; the table takes at most "
                "%(most)s. Shorten it, or say it in two."
            ),
            code="message-too-long",
            length=len(words),
            most=LONGEST,
        )
    if words.count("\n") >= MOST_LINES:
        raise Invalid(
            N_("This message has more than %(most)s lines; join some of them."),
            code="message-too-many-lines",
            most=MOST_LINES,
        )
    if _CONTROL.search(words):
        raise Invalid(
            N_("This message holds control characters; write plain text."),
            code="message-control-characters",
        )
    return words


def pace_refusal(connection: Connection, game_id: int, player_id: int) -> TooMany | None:
    """Count one message of the player's to the game's table, whichever door it came by
    (the page, the API, a mail's words), and say why it is refused past `MOST_PER_WINDOW`
    in this minute (with when the next is taken), or None. Counted and checked in one
    statement (`limits.take`), so messages sent at once cannot all slip under it; the
    caller's transaction rolls back a refused one's count with it."""
    moment = now()
    key = f"talk:game:{game_id}:player:{player_id}"
    if limits.take(connection, key, MOST_PER_WINDOW, WINDOW, moment):
        return None
    seconds = int(WINDOW.total_seconds())
    wait = max(1, seconds - int(moment.timestamp()) % seconds)
    return TooMany(
        N_(
            "You have written %(count)s messages to this table in the last minute, the most it "
            "takes; write again in %(wait)s seconds."
        ),
        code="too-many-messages",
        count=MOST_PER_WINDOW,
        wait=wait,
        retry_after=wait,
    )
