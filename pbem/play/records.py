"""A player's record as their page drew it, kept (`DrawnRecord`) so that every worker serves
it from the page's first read until a finished game changes it (the game's ending
transaction raises the player's `record_seq`; `pbem.play.ratings`).

The page that found nothing kept for its language and drawing draws the record and keeps
it here, in a transaction of its own: keeping it is a saving, not a change anyone asked
for, so a database too busy to take it (SQLite's lock, a lost connection) leaves the page
drawn all the same and the next view to try again.
"""

from __future__ import annotations

import sqlalchemy.exc
from flask import current_app
from sqlalchemy.engine import Connection
from sqlalchemy.sql.expression import Executable

from pbem.extensions import db
from pbem.game.ratings import Drawn, DrawnAs
from pbem.store import outage, tables
from pbem.store.queries import insert_or_else

#: The INSERT that writes over what was kept for a player and language, per dialect: built
#: once, since building it costs more than running it.
_UPSERTS: dict[str, Executable] = {}


def _upsert(connection: Connection) -> Executable:
    name = connection.dialect.name
    if name not in _UPSERTS:
        statement = insert_or_else(connection, tables.drawn_records)
        columns = ("drawing", "record_seq", "chart", "games", "body", "body_of")
        _UPSERTS[name] = statement.on_conflict_do_update(
            index_elements=[tables.drawn_records.c.player_id, tables.drawn_records.c.language],
            set_={column: statement.excluded[column] for column in columns},
        )
    return _UPSERTS[name]


def keep_drawn_record(player_id: int, drawn_as: DrawnAs, record_seq: int, drawn: Drawn) -> bool:
    """Keep `drawn`, the record of `player_id` at `record_seq` as drawn `drawn_as`, over what
    was kept for that language before; committed here. False: the database could not take
    it just now (nothing was kept)."""
    row = {"player_id": player_id, "language": drawn_as.language, "drawing": drawn_as.drawing}
    row |= {"record_seq": record_seq, "chart": drawn.chart, "games": drawn.games}
    row |= {"body": drawn.body, "body_of": drawn.body_of}
    try:
        connection = db.session.connection()
        connection.execute(_upsert(connection), row)
        db.session.commit()
    except (sqlalchemy.exc.DBAPIError, sqlalchemy.exc.TimeoutError) as error:
        if not outage.is_outage(error):
            raise
        db.session.remove()  # its transaction spent (or its connection lost): a new one next
        current_app.logger.warning("a drawn record not kept: %s", str(error).splitlines()[0])
        return False
    return True
