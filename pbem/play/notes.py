"""A player's private notes on a game, kept as they write them: theirs alone to read."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import delete, insert, update
from sqlalchemy.exc import IntegrityError

from pbem.clock import now
from pbem.errors import Invalid
from pbem.extensions import db
from pbem.game import table
from pbem.game.seating import Actor
from pbem.languages import N_
from pbem.store import tables

#: A player's notes on one game hold at most this many characters.
LONGEST = 10_000

# Control characters but the line break and the tab: a NUL would not even be stored.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def keep(actor: Actor, game_id: int, text: Any) -> table.Notes:
    """Replace the asking seat's notes on the game with `text` (empty: none kept); the
    caller commits. Refused, changing nothing, to anyone without a seat in the game, and
    for a text that is no string, too long, or holds control characters."""
    seated = table.seated_at(actor, game_id, read_only=False)
    player_id = seated.player_id
    assert player_id is not None  # a seat's holder is a player
    if not isinstance(text, str):
        raise Invalid(N_('Notes are a string, given as "text".'), code="notes-not-text")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > LONGEST:
        raise Invalid(
            N_(
                "These notes are %(length)s characters long; a game's notes hold at most "
                "%(most)s. Shorten them; nothing was saved."
            ),
            code="notes-too-long",
            length=len(text),
            most=LONGEST,
        )
    if _CONTROL.search(text):
        raise Invalid(
            N_("These notes hold control characters; write plain text."),
            code="notes-control-characters",
        )
    connection = db.session.connection()
    mine = (tables.notes.c.player_id == player_id) & (tables.notes.c.game_id == game_id)
    moment = now()
    if not text.strip():
        connection.execute(delete(tables.notes).where(mine))
        return {"text": "", "updated_at": None}
    changed = connection.execute(
        update(tables.notes).where(mine).values(text=text, updated_at=moment)
    )
    if not changed.rowcount:
        row = {"player_id": player_id, "game_id": game_id, "text": text, "updated_at": moment}
        try:
            with db.session.begin_nested():  # a savepoint: the same form sent twice at once
                connection.execute(insert(tables.notes).values(**row))
        except IntegrityError:  # the other request's row came first: this text replaces it
            connection.execute(
                update(tables.notes).where(mine).values(text=text, updated_at=moment)
            )
    return {"text": text, "updated_at": moment}
