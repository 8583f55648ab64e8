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
from pbem.store.models import (
    Absence,
    Deadline,
    EndedSession,
    Game,
    IdempotencyRecord,
    IdleLimit,
    Move,
    Notification,
    Player,
    Seat,
    Snapshot,
    TableTalk,
)
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


_games = Game.__table__
_seats = Seat.__table__
_players = Player.__table__
_moves = Move.__table__
_snapshots = Snapshot.__table__
_idle_limits = IdleLimit.__table__

# What every read of a game by the move path or the API names it by.
_GAME_NAMED = (_games.c.id.label("game_id"), _games.c.seq, _games.c.status, _games.c.title)
# What the move path reads of a game and of the caller's seats in it (never the big state).
_GAME_AND_SEAT_COLUMNS = (
    *_GAME_NAMED,
    _games.c.colours,
    _games.c.seed,
    _games.c.timing,
    _seats.c.colour.label("own_colour"),
    _seats.c.timeouts.label("own_timeouts"),
)


def _game_and_seats(*columns: Any) -> Select[Any]:
    """A game and the seats player `player` holds in it: one row per seat, in seat order, or
    one row with a null `own_colour` when they hold none (or when no player is asking)."""
    return (
        select(*columns)
        .select_from(
            _games.outerjoin(
                _seats,
                and_(_seats.c.game_id == _games.c.id, _seats.c.player_id == bindparam("player")),
            )
        )
        .where(_games.c.id == bindparam("game"))
        .order_by(_seats.c.position)
    )


def _caller_at_game(*columns: Any) -> Select[Any]:
    """The same, found from the hash of the caller's API key: one round trip answers who
    asks, whether the game exists and which seats they hold. The game columns are null when
    there is no such game; no row at all means no player holds the key."""
    return (
        select(_players.c.id.label("player_id"), *columns)
        .select_from(
            _players.outerjoin(_games, _games.c.id == bindparam("game")).outerjoin(
                _seats, and_(_seats.c.game_id == _games.c.id, _seats.c.player_id == _players.c.id)
            )
        )
        .where(_players.c.api_key_hash == bindparam("key_hash"))
        .order_by(_seats.c.position)
    )


SELECT_GAME_AND_SEATS = _game_and_seats(*_GAME_AND_SEAT_COLUMNS)
SELECT_CALLER_AT_GAME = _caller_at_game(*_GAME_AND_SEAT_COLUMNS)
# What the API's view of a game (`SELECT_CALLER_VIEW_OF_GAME`) reads of the game and the
# caller's seats: who must act (so the viewer's colour is known before the state is read) and
# who made the game (who is told of undelivered mail), not what only a move needs.
_VIEW_COLUMNS = (
    *_GAME_NAMED,
    _games.c.seed,
    _games.c.pending,
    _games.c.creator_id,
    _seats.c.colour.label("own_colour"),
)

_me = _players.alias("me")
_ended = EndedSession.__table__


def _session_live() -> Any:
    """The reader's session (`sid`) was not signed out: checked inside each query that reads
    the signed-in player, so it costs no round trip of its own."""
    return ~exists().where(_ended.c.sid == bindparam("sid", type_=String))


# A game as its page shows it, with every seat and the name of its holder, and the name of
# the signed-in player `player` (null if none, if their session's `epoch` is past, or if
# the session `sid` was signed out): one
# row per seat, in seat order (no row: no such game). Not the big state, nor the setup
# (colours, options) each row would repeat.
SELECT_GAME_PAGE = (
    select(
        _me.c.name.label("player_name"),
        _games.c.id,
        _games.c.seq,
        _games.c.seed,
        _games.c.status,
        _games.c.title,
        _games.c.creator_id,
        _seats.c.colour.label("seat_colour"),
        _seats.c.player_id.label("seat_player"),
        _players.c.name.label("seat_name"),
    )
    .select_from(
        _games.outerjoin(_seats, _seats.c.game_id == _games.c.id)
        .outerjoin(_players, _players.c.id == _seats.c.player_id)
        .outerjoin(
            _me,
            and_(
                _me.c.id == bindparam("player"),
                _me.c.session_epoch == bindparam("epoch", type_=Integer),
                _session_live(),
            ),
        )
    )
    .where(_games.c.id == bindparam("game"))
    .order_by(_seats.c.position)
)

# The signed-in player, while their session's epoch is still theirs (see Player.session_epoch)
# and the session `sid` was not signed out.
SELECT_PLAYER_NAME = select(_players.c.id, _players.c.name).where(
    _players.c.id == bindparam("player"),
    _players.c.session_epoch == bindparam("epoch", type_=Integer),
    _session_live(),
)

# The seq comes back with the state so a cached state is always filed under its own seq.
SELECT_STATE = select(_games.c.seq, _games.c.state).where(_games.c.id == bindparam("game"))
SELECT_SEQ = select(_games.c.seq).where(_games.c.id == bindparam("game"))

SELECT_SNAPSHOT_AT_OR_BEFORE = (
    select(_snapshots.c.seq, _snapshots.c.state)
    .where(_snapshots.c.game_id == bindparam("game"), _snapshots.c.seq <= bindparam("seq"))
    .order_by(_snapshots.c.seq.desc())
    .limit(1)
)

SELECT_MOVES_BETWEEN = (
    select(_moves.c.seq, _moves.c.colour, _moves.c.move)
    .where(
        _moves.c.game_id == bindparam("game"),
        _moves.c.seq > bindparam("after"),
        _moves.c.seq <= bindparam("upto"),
    )
    .order_by(_moves.c.seq)
)

# A stretch of the log as the pages show it: each move with its events.
SELECT_LOG_BETWEEN = SELECT_MOVES_BETWEEN.add_columns(_moves.c.events)

# What an open game page polls: the game's seq and status (public to anyone).
_talk = TableTalk.__table__
# What a page polls: the game's seq and status, and for a reader holding a seat (`player`
# at their session's `epoch`, in session `sid` not signed out; null: nobody signed in) the
# id of the last word to the table, so talk shows without a move.
SELECT_GAME_SEQ = select(
    _games.c.seq,
    _games.c.status,
    select(func.max(_talk.c.id))
    .where(
        _talk.c.game_id == _games.c.id,
        exists().where(
            _seats.c.game_id == _games.c.id,
            _seats.c.player_id == bindparam("player", type_=Integer),
            _players.c.id == _seats.c.player_id,
            _players.c.session_epoch == bindparam("epoch", type_=Integer),
            _session_live(),
        ),
    )
    .scalar_subquery()
    .label("talk"),
).where(_games.c.id == bindparam("game"))

# Where a seat's story starts (`history.since_last_move`): its last move up to a seq.
SELECT_LAST_MOVE_OF = select(func.max(_moves.c.seq)).where(
    _moves.c.game_id == bindparam("game"),
    _moves.c.colour == bindparam("colour"),
    _moves.c.seq <= bindparam("upto"),
)

# Where the story of a bot's stint starts: the seat's last move a person made.
SELECT_LAST_PERSON_MOVE_OF = SELECT_LAST_MOVE_OF.where(_moves.c.source.not_in(("bot", "timeout")))

# Where a game's rounds start: a snapshot is written at setup (seq 0) and after each move
# that started a round (`states.snapshots_of`).
SELECT_SNAPSHOT_SEQS = (
    select(_snapshots.c.seq)
    .where(_snapshots.c.game_id == bindparam("game"))
    .order_by(_snapshots.c.seq)
)

# Beside a game's page and view: each pending decision's deadline, and a time-bank game's
# banks.
_deadlines = Deadline.__table__
_absences = Absence.__table__
_outbox = Notification.__table__
SELECT_DEADLINES = (
    select(_deadlines.c.colour, _deadlines.c.decision, _deadlines.c.due_at)
    .where(_deadlines.c.game_id == bindparam("game"))
    .order_by(_deadlines.c.due_at)
)
# A time-bank game's banks, each seat's as of when its clock last started (`bank_at`);
# no row for a game of fixed deadlines.
_BANKED = (_seats.c.game_id == bindparam("game"), _seats.c.bank_seconds.is_not(None))
SELECT_BANKS = (
    select(_seats.c.colour, _seats.c.bank_seconds, _seats.c.bank_at)
    .where(*_BANKED)
    .order_by(_seats.c.position)
)
# The messages the sender gave up on, told to the game's maker.
_UNDELIVERED = (
    _outbox.c.game_id == bindparam("game"),
    _outbox.c.status == "failed",
    # A push that failed is its player's device's business (often a subscription that
    # ended), and its endpoint is theirs alone: not the game's maker's to see.
    _outbox.c.channel != "push",
)

# A game's whole view in one statement (`views.callers_view`), a row per thing read, told
# apart by `part`: the game with the caller's seats (`_caller_at_game`, or `_game_and_seats`
# for the public: no row of part 0 means no player holds the key), then the pending
# deadlines, the seats whose holder is away at `moment` (until when), the banks and, for a
# caller, the undelivered mail (`prepared.part_columns`). Sent as five statements, even
# together in one round trip, they cost the worker 0.23 ms of CPU, against 0.13 ms.
VIEW_PART_GAME, VIEW_PART_DEADLINE, VIEW_PART_AWAY, VIEW_PART_BANK, VIEW_PART_UNDELIVERED = range(5)
_VIEW_FILLED = {
    "place": _seats.c.position,
    **{column.name: column for column in _VIEW_COLUMNS},
    "decision": _deadlines.c.decision,
    "due_at": _deadlines.c.due_at,
    "until": _absences.c.ends_at,
    "bank_seconds": _seats.c.bank_seconds,
    "bank_at": _seats.c.bank_at,
    "recipient": _outbox.c.recipient,
    "kind": _outbox.c.kind,
    "created_at": _outbox.c.created_at,
    "attempts": _outbox.c.attempts,
    "last_error": _outbox.c.last_error,
    "colour": _seats.c.colour,
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
            colour=_deadlines.c.colour,
            decision=_deadlines.c.decision,
            due_at=_deadlines.c.due_at,
        ).where(_deadlines.c.game_id == bindparam("game")),
        _view_row(
            VIEW_PART_AWAY,
            _seats.c.position,
            colour=_seats.c.colour,
            until=func.max(_absences.c.ends_at),
        )
        .select_from(_seats.join(_absences, _absences.c.player_id == _seats.c.player_id))
        .where(
            _seats.c.game_id == bindparam("game"),
            _absences.c.starts_at <= bindparam("moment"),
            _absences.c.ends_at > bindparam("moment"),
        )
        .group_by(_seats.c.colour, _seats.c.position),
        _view_row(
            VIEW_PART_BANK,
            _seats.c.position,
            colour=_seats.c.colour,
            bank_seconds=_seats.c.bank_seconds,
            bank_at=_seats.c.bank_at,
        ).where(*_BANKED),
    ]
    if mail:
        parts.append(
            _view_row(
                VIEW_PART_UNDELIVERED,
                _outbox.c.id,
                recipient=_outbox.c.recipient,
                kind=_outbox.c.kind,
                created_at=_outbox.c.created_at,
                attempts=_outbox.c.attempts,
                last_error=_outbox.c.last_error,
            ).where(*_UNDELIVERED)
        )
    order = ("part", "place", "due_at")
    return union_all(*parts).order_by(*(literal_column(name) for name in order))


_GAME_IN_VIEW = _view_part(
    VIEW_PART_GAME, _seats.c.position, **{column.name: column for column in _VIEW_COLUMNS}
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
    update(_games)
    .where(
        _games.c.id == bindparam("game"),
        _games.c.seq == bindparam("expected_seq"),
        _games.c.status == "active",
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
    update(_idle_limits)
    .where(
        _idle_limits.c.game_id == bindparam("game"),
        _idle_limits.c.abandon_at < bindparam("abandon_at"),
    )
    .values(abandon_at=bindparam("abandon_at"))
)

# `seat_colour`, not `colour`: an UPDATE keeps its columns' own names for the SET clause.
RESET_TIMEOUTS = (
    update(_seats)
    .where(_seats.c.game_id == bindparam("game"), _seats.c.colour == bindparam("seat_colour"))
    .values(timeouts=0)
)


def _insert_all(table: Table, *columns: str) -> Written:
    """An INSERT of `columns` into `table`, each a parameter of its own name."""
    return Written(insert(table).values({name: bindparam(name) for name in columns}))


APPEND_MOVES = _insert_all(
    _moves, "game_id", "seq", "colour", "player_id", "move", "events", "source", "created_at"
)
INSERT_SNAPSHOTS = _insert_all(_snapshots, "game_id", "seq", "state")
INSERT_ANSWER = insert(IdempotencyRecord.__table__)


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
