"""Words to the table: lines a seat's holder wrote that were no move, kept in the game's
record and passed on to the other players."""

from __future__ import annotations

from sqlalchemy import insert
from sqlalchemy.engine import Connection

from pbem.clock import now
from pbem.notify import outbox
from pbem.store.models import TableTalk

#: A word to the table is at most this long (longer is cut, and the writer told).
LONGEST = 500
#: At most this many lines of one mail are passed on.
MOST_LINES = 20


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
    if not kept:
        return []
    moment = now()
    connection.execute(
        insert(TableTalk.__table__),
        [
            {
                "game_id": game_id,
                "seq": seq,
                "colour": colour,
                "player_id": player_id,
                "text": line,
                "source": source,
                "created_at": moment,
            }
            for line in kept
        ],
    )
    outbox.table_talk(connection, game_id=game_id, title=title, colour=colour, lines=kept, seq=seq)
    return kept
