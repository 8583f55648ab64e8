"""Numbers raised with a change that no other row's number follows (`models.Counter`): what
a worker keeps drawn of such a thing is kept by its counter, read with the rest of what
it is drawn from, so that a change made through one node shows at the next read on any.

- `STANDINGS`: raised when a person is renamed and when the ratings are rebuilt; the
  standings are kept by it beside the newest rated result (`game.ratings`).
"""

from __future__ import annotations

from sqlalchemy import Integer, func, select
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from pbem.store import tables
from pbem.store.queries import insert_or_else

STANDINGS = "standings"


def raise_counter(connection: Connection, name: str) -> None:
    """Raise `name` by one in the caller's transaction (made at 1 if there is none yet)."""
    statement = insert_or_else(connection, tables.counters).values(name=name, value=1)
    connection.execute(
        statement.on_conflict_do_update(
            index_elements=[tables.counters.c.name],
            set_={"value": tables.counters.c.value + 1},
        )
    )


def counter_value(name: str) -> ColumnElement[int]:
    """The counter `name` as a scalar subquery (0 before it is first raised): to read it in
    the same statement as the rest."""
    return func.coalesce(
        select(tables.counters.c.value).where(tables.counters.c.name == name).scalar_subquery(),
        0,
        type_=Integer,
    )
