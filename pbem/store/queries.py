"""The move path's statements, built once: Core on the tables, so rows come back as tuples
and the ORM's identity map and unit of work stay out of the way. The move path reads a
game's row, the asking player's seats and a state far more often than anything else, and
the ORM's bookkeeping for a Game entity costs more than the engine's work on a move.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict, cast

from sqlalchemy import (
    CompoundSelect,
    Integer,
    Select,
    String,
    Table,
    and_,
    bindparam,
    exists,
    func,
    insert,
    literal_column,
    null,
    select,
    type_coerce,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import Insert as PgInsert
from sqlalchemy.dialects.sqlite import Insert as SqliteInsert
from sqlalchemy.engine import Connection, CursorResult, Result, Row
from sqlalchemy.exc import IntegrityError

import engine
from pbem.store import tables
from pbem.store.prepared import (
    Prepared,
    Written,
    part_columns,
    sends_together,
    written_together,
)

#: Ids and sequence numbers in URLs are checked against this before they reach the database:
#: a 20-digit id is "not found", not an integer overflow in the driver.
MAX_ID = 2**31 - 1


class ReaderParams(TypedDict):
    """Who a page's session says reads, as the queries that check it bind them."""

    player: int | None  # None: nobody signed in
    epoch: int
    sid: str


class MoveRow(TypedDict):
    """One move of the log as every write path appends it (`append_batch`), its game aside."""

    seq: int
    colour: str
    player_id: int | None  # None: played by a bot, a timeout or an imported file
    move: engine.Move
    events: list[engine.Event]
    source: str  # one of MOVE_SOURCES
    created_at: datetime


class SnapshotRow(TypedDict):
    """The whole state (secrets included) after move `seq`, kept at the start of a round."""

    seq: int
    state: dict[str, Any]  # engine.to_dict's JSON


# What every read of a game by the move path or the API names it by.
_GAME_NAMED = (
    tables.games.c.id.label("game_id"),
    tables.games.c.seq,
    tables.games.c.status,
    tables.games.c.title,
)
# What the move path reads of a game and of the caller's seats in it (never the big state).
_GAME_AND_SEAT_COLUMNS = (
    *_GAME_NAMED,
    tables.games.c.colours,
    tables.games.c.seed,
    tables.games.c.timing,
    tables.seats.c.colour.label("own_colour"),
    tables.seats.c.timeouts.label("own_timeouts"),
)


def _game_and_seats(*columns: Any) -> Select[Any]:
    """A game and the seats player `player` holds in it: one row per seat, in seat order, or
    one row with a null `own_colour` when they hold none (or when no player is asking)."""
    return (
        select(*columns)
        .select_from(
            tables.games.outerjoin(
                tables.seats,
                and_(
                    tables.seats.c.game_id == tables.games.c.id,
                    tables.seats.c.player_id == bindparam("player"),
                ),
            )
        )
        .where(tables.games.c.id == bindparam("game"))
        .order_by(tables.seats.c.position)
    )


def _caller_at_game(*columns: Any) -> Select[Any]:
    """The same, found from the hash of the caller's API key: one round trip answers who
    asks, whether the game exists and which seats they hold. The game columns are null when
    there is no such game; no row at all means no player holds the key."""
    return (
        select(tables.players.c.id.label("player_id"), *columns)
        .select_from(
            tables.players.outerjoin(
                tables.games, tables.games.c.id == bindparam("game")
            ).outerjoin(
                tables.seats,
                and_(
                    tables.seats.c.game_id == tables.games.c.id,
                    tables.seats.c.player_id == tables.players.c.id,
                ),
            )
        )
        .where(tables.players.c.api_key_hash == bindparam("key_hash"))
        .order_by(tables.seats.c.position)
    )


SELECT_GAME_AND_SEATS = _game_and_seats(*_GAME_AND_SEAT_COLUMNS)
SELECT_CALLER_AT_GAME = _caller_at_game(*_GAME_AND_SEAT_COLUMNS)
# What the API's view of a game (`SELECT_CALLER_VIEW_OF_GAME`) reads of the game and the
# caller's seats: who must act (so the viewer's colour is known before the state is read) and
# who made the game (who is told of undelivered mail), not what only a move needs.
_VIEW_COLUMNS = (
    *_GAME_NAMED,
    tables.games.c.seed,
    tables.games.c.pending,
    tables.games.c.creator_id,
    tables.seats.c.colour.label("own_colour"),
)

_me = tables.players.alias("me")


def _session_live() -> Any:
    """The reader's session (`sid`) was not signed out: checked inside each query that reads
    the signed-in player, so it costs no round trip of its own."""
    return ~exists().where(tables.ended_sessions.c.sid == bindparam("sid", type_=String))


# A game as its page shows it, with every seat and the name of its holder, and the name of
# the signed-in player `player` (null if none, if their session's `epoch` is past, or if
# the session `sid` was signed out): one
# row per seat, in seat order (no row: no such game). Not the big state, nor the setup
# (colours, options) each row would repeat.
_newest_decision = (
    select(func.max(tables.decisions.c.id))
    .where(tables.decisions.c.player_id == tables.seats.c.player_id)
    .scalar_subquery()
)

SELECT_GAME_PAGE = (
    select(
        _me.c.name.label("player_name"),
        tables.games.c.id,
        tables.games.c.seq,
        tables.games.c.seed,
        tables.games.c.status,
        tables.games.c.title,
        tables.games.c.creator_id,
        tables.games.c.options,
        tables.seats.c.colour.label("seat_colour"),
        tables.seats.c.player_id.label("seat_player"),
        tables.players.c.name.label("seat_name"),
        # What the holder's record beside their name is drawn from, so that the record kept
        # drawn is kept by it (`web.beside.seats_shown`): validated by every read of the
        # page, on whatever node the record changed. Their newest decision (the ix on
        # player and id answers it) and their rating.
        tables.seats.c.open.label("seat_open"),
        _newest_decision.label("seat_decided"),
        tables.player_ratings.c.mu.label("seat_mu"),
        tables.player_ratings.c.sigma.label("seat_sigma"),
        tables.player_ratings.c.games.label("seat_rated"),
    )
    .select_from(
        tables.games.outerjoin(tables.seats, tables.seats.c.game_id == tables.games.c.id)
        .outerjoin(tables.players, tables.players.c.id == tables.seats.c.player_id)
        .outerjoin(
            tables.player_ratings, tables.player_ratings.c.player_id == tables.seats.c.player_id
        )
        .outerjoin(
            _me,
            and_(
                _me.c.id == bindparam("player"),
                _me.c.session_epoch == bindparam("epoch", type_=Integer),
                _session_live(),
            ),
        )
    )
    .where(tables.games.c.id == bindparam("game"))
    .order_by(tables.seats.c.position)
)

# The signed-in player, while their session's epoch is still theirs (see Player.session_epoch)
# and the session `sid` was not signed out.
SELECT_PLAYER_NAME = select(tables.players.c.id, tables.players.c.name).where(
    tables.players.c.id == bindparam("player"),
    tables.players.c.session_epoch == bindparam("epoch", type_=Integer),
    _session_live(),
)

# The seq comes back with the state so a cached state is always filed under its own seq.
SELECT_STATE = select(tables.games.c.seq, tables.games.c.state).where(
    tables.games.c.id == bindparam("game")
)
SELECT_SEQ = select(tables.games.c.seq).where(tables.games.c.id == bindparam("game"))

SELECT_SNAPSHOT_AT_OR_BEFORE = (
    select(tables.snapshots.c.seq, tables.snapshots.c.state)
    .where(
        tables.snapshots.c.game_id == bindparam("game"), tables.snapshots.c.seq <= bindparam("seq")
    )
    .order_by(tables.snapshots.c.seq.desc())
    .limit(1)
)

SELECT_MOVES_BETWEEN = (
    select(tables.moves.c.seq, tables.moves.c.colour, tables.moves.c.move)
    .where(
        tables.moves.c.game_id == bindparam("game"),
        tables.moves.c.seq > bindparam("after"),
        tables.moves.c.seq <= bindparam("upto"),
    )
    .order_by(tables.moves.c.seq)
)

# A stretch of the log as the pages show it: each move with its events.
SELECT_LOG_BETWEEN = SELECT_MOVES_BETWEEN.add_columns(tables.moves.c.events)

# What an open game page polls: the game's seq and status (public to anyone).
# What a page polls: the game's seq and status, and for a reader holding a seat (`player`
# at their session's `epoch`, in session `sid` not signed out; null: nobody signed in) the
# id of the last word to the table, so talk shows without a move.
SELECT_GAME_SEQ = select(
    tables.games.c.seq,
    tables.games.c.status,
    select(func.max(tables.table_talk.c.id))
    .where(
        tables.table_talk.c.game_id == tables.games.c.id,
        exists().where(
            tables.seats.c.game_id == tables.games.c.id,
            tables.seats.c.player_id == bindparam("player", type_=Integer),
            tables.players.c.id == tables.seats.c.player_id,
            tables.players.c.session_epoch == bindparam("epoch", type_=Integer),
            _session_live(),
        ),
    )
    .scalar_subquery()
    .label("talk"),
).where(tables.games.c.id == bindparam("game"))

# Where a seat's story starts (`history.since_last_move`): its last move up to a seq.
SELECT_LAST_MOVE_OF = select(func.max(tables.moves.c.seq)).where(
    tables.moves.c.game_id == bindparam("game"),
    tables.moves.c.colour == bindparam("colour"),
    tables.moves.c.seq <= bindparam("upto"),
)

# Where the story of a bot's stint starts: the seat's last move a person made.
SELECT_LAST_PERSON_MOVE_OF = SELECT_LAST_MOVE_OF.where(
    tables.moves.c.source.not_in(("bot", "timeout"))
)

# Where a game's rounds start: a snapshot is written at setup (seq 0) and after each move
# that started a round (`states.snapshots_of`).
SELECT_SNAPSHOT_SEQS = (
    select(tables.snapshots.c.seq)
    .where(tables.snapshots.c.game_id == bindparam("game"))
    .order_by(tables.snapshots.c.seq)
)

# Beside a game's page and view: each pending decision's deadline, and a time-bank game's
# banks.
SELECT_DEADLINES = (
    select(tables.deadlines.c.colour, tables.deadlines.c.decision, tables.deadlines.c.due_at)
    .where(tables.deadlines.c.game_id == bindparam("game"))
    .order_by(tables.deadlines.c.due_at)
)
# A time-bank game's banks, each seat's as of when its clock last started (`bank_at`);
# no row for a game of fixed deadlines.
_BANKED = (tables.seats.c.game_id == bindparam("game"), tables.seats.c.bank_seconds.is_not(None))
SELECT_BANKS = (
    select(tables.seats.c.colour, tables.seats.c.bank_seconds, tables.seats.c.bank_at)
    .where(*_BANKED)
    .order_by(tables.seats.c.position)
)
# The messages the sender gave up on, told to the game's maker.
_UNDELIVERED = (
    tables.outbox.c.game_id == bindparam("game"),
    tables.outbox.c.status == "failed",
    # A push that failed is its player's device's business (often a subscription that
    # ended), and its endpoint is theirs alone: not the game's maker's to see.
    tables.outbox.c.channel != "push",
)

# A game's whole view in one statement (`views.callers_view`), a row per thing read, told
# apart by `part`: the game with the caller's seats (`_caller_at_game`, or `_game_and_seats`
# for the public: no row of part 0 means no player holds the key), then the pending
# deadlines, the seats whose holder is away at `moment` (until when), the banks and, for a
# caller, the undelivered mail (`prepared.part_columns`). Sent as five statements, even
# together in one round trip, they cost the worker 0.23 ms of CPU, against 0.13 ms.
VIEW_PART_GAME, VIEW_PART_DEADLINE, VIEW_PART_AWAY, VIEW_PART_BANK, VIEW_PART_UNDELIVERED = range(5)
_VIEW_FILLED = {
    "place": tables.seats.c.position,
    **{column.name: column for column in _VIEW_COLUMNS},
    "decision": tables.deadlines.c.decision,
    "due_at": tables.deadlines.c.due_at,
    "until": tables.absences.c.ends_at,
    "bank_seconds": tables.seats.c.bank_seconds,
    "bank_at": tables.seats.c.bank_at,
    "recipient": tables.outbox.c.recipient,
    "kind": tables.outbox.c.kind,
    "created_at": tables.outbox.c.created_at,
    "attempts": tables.outbox.c.attempts,
    "last_error": tables.outbox.c.last_error,
    "colour": tables.seats.c.colour,
}


def _view_part(part: int, place: Any, **filled: Any) -> list[Any]:
    """A part's columns in the view's order (the caller's id aside, which comes first):
    its number, `place` (what orders its rows) and what it reads, nulls elsewhere."""
    return part_columns(part, _VIEW_FILLED, place=place, **filled)


def _view_row(part: int, place: Any, **filled: Any) -> Select[Any]:
    """A part after the first, which reads no caller."""
    return select(
        type_coerce(null(), Integer).label("player_id"), *_view_part(part, place, **filled)
    )


def _view_of_game(first: Select[Any], *, mail: bool) -> CompoundSelect[Any]:
    """The view's read with `first` as its part 0; the undelivered mail read if `mail`."""
    parts: list[Select[Any]] = [
        first,
        _view_row(
            VIEW_PART_DEADLINE,
            type_coerce(null(), Integer),
            colour=tables.deadlines.c.colour,
            decision=tables.deadlines.c.decision,
            due_at=tables.deadlines.c.due_at,
        ).where(tables.deadlines.c.game_id == bindparam("game")),
        _view_row(
            VIEW_PART_AWAY,
            tables.seats.c.position,
            colour=tables.seats.c.colour,
            until=func.max(tables.absences.c.ends_at),
        )
        .select_from(
            tables.seats.join(
                tables.absences, tables.absences.c.player_id == tables.seats.c.player_id
            )
        )
        .where(
            tables.seats.c.game_id == bindparam("game"),
            tables.absences.c.starts_at <= bindparam("moment"),
            tables.absences.c.ends_at > bindparam("moment"),
        )
        .group_by(tables.seats.c.colour, tables.seats.c.position),
        _view_row(
            VIEW_PART_BANK,
            tables.seats.c.position,
            colour=tables.seats.c.colour,
            bank_seconds=tables.seats.c.bank_seconds,
            bank_at=tables.seats.c.bank_at,
        ).where(*_BANKED),
    ]
    if mail:
        parts.append(
            _view_row(
                VIEW_PART_UNDELIVERED,
                tables.outbox.c.id,
                recipient=tables.outbox.c.recipient,
                kind=tables.outbox.c.kind,
                created_at=tables.outbox.c.created_at,
                attempts=tables.outbox.c.attempts,
                last_error=tables.outbox.c.last_error,
            ).where(*_UNDELIVERED)
        )
    order = ("part", "place", "due_at")
    return union_all(*parts).order_by(*(literal_column(name) for name in order))


_GAME_IN_VIEW = _view_part(
    VIEW_PART_GAME, tables.seats.c.position, **{column.name: column for column in _VIEW_COLUMNS}
)
SELECT_CALLER_VIEW_OF_GAME = _view_of_game(
    _caller_at_game(*_GAME_IN_VIEW).order_by(None), mail=True
)
SELECT_PUBLIC_VIEW_OF_GAME = _view_of_game(
    _game_and_seats(null().cast(Integer).label("player_id"), *_GAME_IN_VIEW).order_by(None),
    mail=False,
)

# The reads of every page and every move, run on the driver's cursor (`prepared`).
GAME_AND_SEATS = Prepared(SELECT_GAME_AND_SEATS)
CALLER_AT_GAME = Prepared(SELECT_CALLER_AT_GAME)
DEADLINES = Prepared(SELECT_DEADLINES)
BANKS = Prepared(SELECT_BANKS)
CALLER_VIEW_OF_GAME = Prepared(SELECT_CALLER_VIEW_OF_GAME)
PUBLIC_VIEW_OF_GAME = Prepared(SELECT_PUBLIC_VIEW_OF_GAME)
GAME_PAGE = Prepared(SELECT_GAME_PAGE)
STATE = Prepared(SELECT_STATE)
MOVES_BETWEEN = Prepared(SELECT_MOVES_BETWEEN)
GAME_SEQ = Prepared(SELECT_GAME_SEQ)
LOG_BETWEEN = Prepared(SELECT_LOG_BETWEEN)
SNAPSHOT_SEQS = Prepared(SELECT_SNAPSHOT_SEQS)
SNAPSHOT_AT_OR_BEFORE = Prepared(SELECT_SNAPSHOT_AT_OR_BEFORE)

# The conditional update is where two racing writers are told apart: the database lets one
# of them change the row from `expected_seq`; the other finds no such row and leaves.
CLAIM_SEQ = Written(
    update(tables.games)
    .where(
        tables.games.c.id == bindparam("game"),
        tables.games.c.seq == bindparam("expected_seq"),
        tables.games.c.status == "active",
    )
    .values(
        seq=bindparam("new_seq"),
        state=bindparam("state"),
        pending=bindparam("pending"),
        status=bindparam("status"),
        updated_at=bindparam("updated_at"),
    )
)

# A person's move (not the server's) puts off abandoning the game. Its own narrow row: the
# game's row is then updated in place (see models.IdleLimit). Unchanged, it is not written.
PUT_OFF_ABANDONING = Written(
    update(tables.idle_limits)
    .where(
        tables.idle_limits.c.game_id == bindparam("game"),
        tables.idle_limits.c.abandon_at < bindparam("abandon_at"),
    )
    .values(abandon_at=bindparam("abandon_at"))
)

# `seat_colour`, not `colour`: an UPDATE keeps its columns' own names for the SET clause.
RESET_TIMEOUTS = (
    update(tables.seats)
    .where(
        tables.seats.c.game_id == bindparam("game"),
        tables.seats.c.colour == bindparam("seat_colour"),
    )
    .values(timeouts=0)
)


def _insert_all(table: Table, *columns: str) -> Written:
    """An INSERT of `columns` into `table`, each a parameter of its own name."""
    return Written(insert(table).values({name: bindparam(name) for name in columns}))


APPEND_MOVES = _insert_all(
    tables.moves, "game_id", "seq", "colour", "player_id", "move", "events", "source", "created_at"
)
INSERT_SNAPSHOTS = _insert_all(tables.snapshots, "game_id", "seq", "state")
INSERT_ANSWER = insert(tables.idempotency_records)


def id_or_zero(game_id: int) -> int:
    """An id no row has, for ids the database's integer cannot even hold."""
    return game_id if 0 < game_id <= MAX_ID else 0


def game_and_seats(
    connection: Connection,
    game_id: int,
    *,
    player_id: int | None = None,
    key_hash: str | None = None,
) -> list[Row[Any]]:
    """The game's row and the seats of the player (by id, or by the hash of their API key)
    in it, one row per seat; see SELECT_GAME_AND_SEATS and SELECT_CALLER_AT_GAME."""
    if key_hash is not None:
        return CALLER_AT_GAME.all(connection, {"game": id_or_zero(game_id), "key_hash": key_hash})
    return GAME_AND_SEATS.all(connection, {"game": id_or_zero(game_id), "player": player_id})


def game_page(connection: Connection, game_id: int, reader: ReaderParams) -> list[Row[Any]]:
    """The game's row with each seat and its holder's name, and the signed-in player's
    name (`reader`: their id, session epoch and session id); see SELECT_GAME_PAGE."""
    return GAME_PAGE.all(connection, {**reader, "game": id_or_zero(game_id)})


def snapshot_at_or_before(connection: Connection, game_id: int, seq: int) -> Row[Any] | None:
    return SNAPSHOT_AT_OR_BEFORE.first(connection, {"game": game_id, "seq": seq})


def moves_between(connection: Connection, game_id: int, after: int, upto: int) -> list[Row[Any]]:
    """The logged moves with `after < seq <= upto`, in order."""
    return MOVES_BETWEEN.all(connection, {"game": game_id, "after": after, "upto": upto})


def append_batch(
    connection: Connection,
    game_id: int,
    expected_seq: int,
    *,
    state: dict[str, Any],
    pending: list[engine.Pending],
    status: str,
    moves: list[MoveRow],
    snapshots: list[SnapshotRow],
    now: datetime,
    abandon_at: datetime | None,
) -> bool:
    """Move the game from `expected_seq` on by `moves` (rows without `game_id`), with the
    new state and any snapshots. False if another writer moved it first: the caller rolls
    its transaction back (on PostgreSQL the log's rows may have been sent with the claim)."""
    claim = {
        "game": game_id,
        "expected_seq": expected_seq,
        "new_seq": expected_seq + len(moves),
        "state": state,
        "pending": pending,
        "status": status,
        "updated_at": now,
    }
    put_off = [{"game": game_id, "abandon_at": abandon_at}] if abandon_at is not None else []
    rows = [{"game_id": game_id, **m} for m in moves]
    kept = [{"game_id": game_id, **s} for s in snapshots]
    if sends_together(connection):
        # One round trip: the log is written whether or not the claim took; if it did not,
        # another writer's moves hold those seqs (the unique (game, seq)), or the caller
        # rolls back what was written.
        try:
            claimed, *_ = written_together(
                connection,
                [(CLAIM_SEQ, [claim]), (PUT_OFF_ABANDONING, put_off), (APPEND_MOVES, rows)]
                + [(INSERT_SNAPSHOTS, kept)],
            )
        except IntegrityError:
            return False
        return claimed == 1
    if CLAIM_SEQ.run(connection, claim) != 1:
        return False
    for params in put_off:
        PUT_OFF_ABANDONING.run(connection, params)
    APPEND_MOVES.run_each(connection, rows)
    INSERT_SNAPSHOTS.run_each(connection, kept)
    return True


def changed(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE changed. Session.execute is typed as returning any
    Result; for these statements it is a CursorResult, which counts them."""
    return cast(CursorResult[Any], result).rowcount


def insert_or_else(connection: Connection, table: Table) -> PgInsert | SqliteInsert:
    """An INSERT into `table` in the connection's own dialect, which can say what to do on a
    conflict (`on_conflict_do_nothing`, `on_conflict_do_update`): both databases speak it,
    SQLAlchemy only through each dialect's construct."""
    if connection.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)
