"""Hot reads run on the driver's cursor: a SELECT compiled once per dialect, its parameters
and columns converted by the statement's own SQLAlchemy types.

The board page and the move path each read a game's row, a state and a stretch of the log.
On SQLite a query costs SQLAlchemy about 0.1 ms in `Connection.execute` (the statement's
cache key, an execution context, a result with its row processors) against 0.015 ms in the
driver: with the ORM session's own bookkeeping, more than everything else a page after a
move computes. A `Prepared` statement keeps what SQLAlchemy works out per execution (the SQL,
the order of the parameters, which columns need converting) and hands the driver the
rest, on the same connection and in the same transaction as the caller's other statements.

What comes back is what `Connection.execute` would give: the dialect's result processors
decode the JSON columns (SQLite hands back text; psycopg has decoded them already) and
rows are named tuples with the statement's column keys. Parameters go through the types'
bind processors, as they would through `execute`.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Float, Integer, literal_column, null, type_coerce
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql import CompoundSelect, Select

from pbem.store.outage import as_sqlalchemy_error

#: A statement's parameters by name: values only passed on to the driver, never read here.
Params = Mapping[str, object]


@dataclass(frozen=True)
class _Bound:
    """A statement as a dialect's driver takes it: its SQL, and how to make its arguments."""

    sql: str
    positional: tuple[str, ...] | None  # parameter names in order, for qmark/format drivers
    defaults: dict[str, object]  # the values bound in the statement itself (a LIMIT's)
    bind_processors: dict[str, Callable[[Any], Any]]

    def arguments(self, params: Params) -> Any:
        """The driver's arguments for `params`, each converted by its column's type."""
        values: dict[str, object] = {**self.defaults, **params}
        for name, process in self.bind_processors.items():
            values[name] = process(values[name])
        if self.positional is not None:
            return tuple(values[name] for name in self.positional)
        return values


def _bound(statement: Any, dialect: Dialect) -> tuple[Any, _Bound]:
    """`statement` compiled for `dialect` (and the compiled form, for what else it tells)."""
    compiled = statement.compile(dialect=dialect)
    binds = compiled.binds
    bind_processors: dict[str, Callable[[Any], Any]] = {}
    for name, bind in binds.items():
        process = bind.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            bind_processors[name] = process
    positional = None
    if dialect.positional:
        # A positional dialect's compiler lists the parameters in their order.
        assert compiled.positiontup is not None
        positional = tuple(compiled.positiontup)
    return compiled, _Bound(
        sql=str(compiled),
        positional=positional,
        defaults={name: bind.value for name, bind in binds.items()},
        bind_processors=bind_processors,
    )


@dataclass(frozen=True)
class _Compiled:
    bound: _Bound
    result_processors: tuple[tuple[int, Callable[[Any], Any]], ...]  # (column index, decode)
    row: type[tuple[Any, ...]]  # a named tuple class


class _PerDialect:
    """What a statement compiles to, kept by the dialect's id, with the dialect kept beside
    it so the id is never reused. Two threads compiling at once both store the same thing:
    no lock needed."""

    def __init__(self) -> None:
        self._by_dialect: dict[int, tuple[Dialect, Any]] = {}

    def kept(self, dialect: Dialect, make: Callable[[Dialect], Any]) -> Any:
        kept = self._by_dialect.get(id(dialect))
        if kept is not None and kept[0] is dialect:
            return kept[1]
        made = make(dialect)
        self._by_dialect[id(dialect)] = (dialect, made)
        return made


class Prepared:
    """`statement` (a SELECT on Core tables, or a UNION of them), run straight on the
    driver's cursor."""

    def __init__(
        self, statement: Select[*tuple[Any, ...]] | CompoundSelect[*tuple[Any, ...]]
    ) -> None:
        self.statement = statement
        self._per_dialect = _PerDialect()

    def _compiled(self, dialect: Dialect) -> _Compiled:
        compiled: _Compiled = self._per_dialect.kept(dialect, self._compile)
        return compiled

    def _compile(self, dialect: Dialect) -> _Compiled:
        _, bound = _bound(self.statement, dialect)
        result_processors: list[tuple[int, Callable[[Any], Any]]] = []
        for index, column in enumerate(self.statement.selected_columns):
            if isinstance(column.type, Float) and not column.type.asdecimal:
                # Drivers hand back a float column as a float; SQLAlchemy's processor only
                # converts a Decimal, and asks for the column's type code, known only later.
                continue
            process = column.type.dialect_impl(dialect).result_processor(dialect, None)
            if process is not None:
                result_processors.append((index, process))
        return _Compiled(
            bound=bound,
            result_processors=tuple(result_processors),
            row=namedtuple("Row", list(self.statement.selected_columns.keys())),
        )

    def _arguments(self, connection: Connection, params: Params) -> tuple[str, Any]:
        """The SQL and the driver's arguments for `params`."""
        bound = self._compiled(connection.dialect).bound
        return bound.sql, bound.arguments(params)

    def _rows(self, connection: Connection, fetched: Sequence[Any]) -> list[Any]:
        """The driver's rows as named tuples, their columns decoded."""
        compiled = self._compiled(connection.dialect)
        # The named tuple's fields are known only at run time: mypy reads it as a plain tuple.
        make = compiled.row._make  # type: ignore[attr-defined]
        processors = compiled.result_processors
        if not processors:
            return [make(row) for row in fetched]
        rows = []
        for row in fetched:
            decoded = list(row)
            for index, process in processors:
                decoded[index] = process(decoded[index])
            rows.append(make(decoded))
        return rows

    def all(self, connection: Connection, params: Params) -> list[Any]:
        """The rows, as named tuples."""
        sql, args = self._arguments(connection, params)
        cursor = None
        try:
            cursor = connection.connection.cursor()
            try:
                cursor.execute(sql, args)
                fetched = cursor.fetchall()
            finally:
                cursor.close()
        except Exception as error:
            # Past SQLAlchemy, its errors must be made here: a lost connection is a 503.
            raise as_sqlalchemy_error(connection, error, sql, args, cursor) from error
        return self._rows(connection, fetched)

    def first(self, connection: Connection, params: Params) -> Any | None:
        """The first row, or None."""
        rows = self.all(connection, params)
        return rows[0] if rows else None


class Written:
    """`statement` (an INSERT, UPDATE or DELETE on Core tables, every value a bound
    parameter), run straight on the driver's cursor, as `Prepared` runs a SELECT: the move
    path writes a game's row and log this way at every move."""

    def __init__(self, statement: Any) -> None:
        self.statement = statement
        self._per_dialect = _PerDialect()

    def _bound(self, dialect: Dialect) -> _Bound:
        bound: _Bound = self._per_dialect.kept(dialect, lambda d: _bound(self.statement, d)[1])
        return bound

    def run(self, connection: Connection, params: Params) -> int:
        """Run it once: the rows it changed."""
        bound = self._bound(connection.dialect)
        return _written(connection, bound.sql, bound.arguments(params), many=False)

    def run_each(self, connection: Connection, each: Sequence[Params]) -> None:
        """Run it once for each of `each` (the driver's executemany)."""
        if each:
            bound = self._bound(connection.dialect)
            arguments = [bound.arguments(params) for params in each]
            _written(connection, bound.sql, arguments, many=True)


def sends_together(connection: Connection) -> bool:
    """Does the connection's driver send statements together (psycopg's pipeline mode)?"""
    return hasattr(connection.connection.driver_connection, "pipeline")


def written_together(
    connection: Connection, calls: Sequence[tuple[Written, Sequence[Params]]]
) -> list[int]:
    """Run each statement once for each of its parameter sets, all sent together in one
    round trip (psycopg's pipeline mode: for a connection that `sends_together`). The rows
    each changed. A statement that fails raises when all were sent, the ones after it having
    been run or not: the caller rolls the transaction back."""
    sent = []
    for written, each in calls:
        bound = written._bound(connection.dialect)
        sent.append((bound.sql, [bound.arguments(params) for params in each]))

    def send(cursor: Any, sql: str, args: list[Any]) -> None:
        if len(args) == 1:
            cursor.execute(sql, args[0])
        elif args:
            cursor.executemany(sql, args)

    return _pipelined(connection, sent, send, lambda cursor: int(cursor.rowcount))


R = TypeVar("R")


def _pipelined(
    connection: Connection,
    sent: Sequence[tuple[str, Any]],
    send: Callable[[Any, str, Any], None],
    read: Callable[[Any], R],
) -> list[R]:
    """Each (SQL, arguments) of `sent` given to `send` with a cursor of its own, all in one
    round trip (psycopg's pipeline mode); then what `read` reads of each cursor."""
    driver: Any = connection.connection.driver_connection
    cursors: list[Any] = []
    sql, args = sent[0]
    try:
        with driver.pipeline():
            for sql, args in sent:
                cursors.append(driver.cursor())
                send(cursors[-1], sql, args)
        return [read(cursor) for cursor in cursors]
    except Exception as error:
        raise as_sqlalchemy_error(connection, error, sql, args, None) from error
    finally:
        for cursor in cursors:
            cursor.close()


def _written(connection: Connection, sql: str, args: Any, *, many: bool) -> int:
    cursor = None
    try:
        cursor = connection.connection.cursor()
        try:
            if many:
                cursor.executemany(sql, args)
            else:
                cursor.execute(sql, args)
            count: int = cursor.rowcount
        finally:
            cursor.close()
    except Exception as error:
        raise as_sqlalchemy_error(connection, error, sql, args, cursor) from error
    return count


def all_together(
    connection: Connection, calls: Sequence[tuple[Prepared, Params]]
) -> list[list[Any]]:
    """The rows of each statement, sent together: on PostgreSQL in one round trip (psycopg's
    pipeline mode), elsewhere one after another; in the connection's transaction, if it has
    one. A read of several small statements costs its round trips more than its queries: on
    a loaded PostgreSQL each round trip is a quarter of a millisecond."""
    if len(calls) < 2 or not sends_together(connection):
        return [prepared.all(connection, params) for prepared, params in calls]
    sent = [prepared._arguments(connection, params) for prepared, params in calls]
    fetched = _pipelined(
        connection,
        sent,
        lambda cursor, sql, args: cursor.execute(sql, args),
        lambda cursor: cursor.fetchall(),
    )
    return [
        prepared._rows(connection, rows) for (prepared, _), rows in zip(calls, fetched, strict=True)
    ]


def part_columns(part: int, columns: Params, **filled: Any) -> list[Any]:
    """The columns of part `part` of a read of several kinds of rows in one statement (a
    UNION ALL, its rows told apart by the `part` column): its number, then each of `columns`
    (name: a column of that type) in order, the ones it fills from `filled`, the others
    null. A statement rather than several sent together: each costs the driver and the
    server its own work, and rows of different shapes side by side in one row (a join)
    repeat each other's values.

    Only part 0's nulls are cast to their types: PostgreSQL types a union's columns by its
    first part (a bare NULL would be text by the second), and a CAST in every part makes
    the SQL longer than the 4,096 characters psycopg keeps its parsing of. The others are
    typed to SQLAlchemy alone, which decodes each column by its type in part 0."""

    def nothing(like: Any) -> Any:
        return null().cast(like.type) if part == 0 else type_coerce(null(), like.type)

    return [
        literal_column(str(part), Integer).label("part"),
        *(
            (filled[name] if name in filled else nothing(like)).label(name)
            for name, like in columns.items()
        ),
    ]
