"""A game's history for the pages: where its rounds start, a stretch of its log, the moves
of its last round. What is secret is still the engine's to decide (`engine.visible_log`, as
in `views.log_for`).

The record is append-only: the moves up to a seq never change once written. So each worker
keeps, per game, where its rounds start and the moves of its last round (`Record`), filed
under the game's id and seed and the seq they go up to, and tops that up to the seq the
caller has just read from the game's row with one query for the moves since. A record at
another seq is never shown for this one: it is only ever extended by the moves after it.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from flask import current_app
from sqlalchemy.engine import Connection, Row
from sqlalchemy.orm import selectinload

import engine
from pbem.extensions import db
from pbem.store import queries, reads
from pbem.store.models import Game, Seat


def round_starts(game_id: int) -> list[int]:
    """The seqs at which rounds start: 0 (setup), then each move whose events hold
    `round_started`. Read from the snapshots, which are written exactly there
    (`states.snapshots_of`; setup's at seq 0)."""
    connection = reads.connection()
    seqs = [row.seq for row in queries.SNAPSHOT_SEQS.all(connection, {"game": game_id})]
    return seqs if seqs and seqs[0] == 0 else [0, *seqs]


def _entries(game_id: int, after: int, upto: int) -> list[engine.LogEntry]:
    """The stored log entries with `after < seq <= upto`, each with its events (all of
    them: `engine.visible_log` decides what a reader sees)."""
    rows = queries.LOG_BETWEEN.all(
        reads.connection(), {"game": game_id, "after": after, "upto": upto}
    )
    return [
        {"seq": row.seq, "player": row.colour, "move": row.move, "events": row.events or []}
        for row in rows
    ]


def log_between(
    game_id: int, own: Collection[str], after: int, upto: int, *, events: bool = False
) -> list[engine.ShownLogEntry]:
    """The log entries with `after < seq <= upto`, as `views.log_for` shows them to the
    holder of the seats `own` (none: to anyone), without their events (the pages show the
    moves; where rounds start is `Record.starts`).

    A pick is shown once a revealing event at or after it is in the stretch; cutting the log
    short can only hide more, never less.
    """
    return engine.visible_log(_entries(game_id, after, upto), set(own), events=events)


def round_so_far(game_id: int, own: Collection[str]) -> list[engine.ShownLogEntry]:
    """The round under way up to its last move, as the holder of the seats `own` may see
    it, each move with its events (a reply's `log` command)."""
    last = queries.MAX_ID  # no seq is larger: every move since the round began
    return log_between(game_id, own, round_starts(game_id)[-1], last, events=True)


def moves_between(game_id: int, after: int, upto: int) -> list[Row[Any]]:
    """The logged moves (seq, colour, move) with `after < seq <= upto`, in order."""
    return queries.moves_between(reads.connection(), game_id, after, upto)


#: A story tells at most this many moves (a seat back after weeks away reads the page).
STORY_MOST = 80


def since_last_move(
    connection: Connection, game_id: int, colour: str, upto: int, *, by_person: bool = False
) -> list[engine.LogEntry]:
    """The stored entries after `colour`'s last move (with `by_person`, the last a person
    made: what happened while a bot or the timeouts played the seat), up to `upto` (from the
    start if there is none), the last `STORY_MOST` of them, each with its events: what
    happened since that seat last decided. `engine.visible_log` decides what its reader sees."""
    last_move = queries.SELECT_LAST_PERSON_MOVE_OF if by_person else queries.SELECT_LAST_MOVE_OF
    last = connection.execute(last_move, {"game": game_id, "colour": colour, "upto": upto})
    return stored_log(connection, game_id, max(last.scalar() or 0, upto - STORY_MOST), upto)


#: How far back a seat's own last moves are read for a scoring they set off: a turn's moves.
OWN_RUN_MOST = 40


def since_last_decision(
    connection: Connection, game_id: int, colour: str, upto: int
) -> list[engine.LogEntry]:
    """`since_last_move`, led by the latest move among the seat's own last ones (its
    turn, or the Castillo pick that revealed the picks) that set off a scoring, and the
    seat's moves after it: a scoring the seat's own move set off is as new to it as one the
    others' did, so its breakdown stays in sight until the seat decides again."""
    since = since_last_move(connection, game_id, colour, upto)
    mine_upto = since[0]["seq"] - 1 if since else upto
    earlier = stored_log(connection, game_id, max(mine_upto - OWN_RUN_MOST, 0), mine_upto)
    run: list[engine.LogEntry] = []
    for entry in reversed(earlier):
        if entry["player"] != colour:
            break
        run.insert(0, entry)
    return _led_by_own_scoring(run, since)


def _led_by_own_scoring(
    run: list[engine.LogEntry], since: list[engine.LogEntry]
) -> list[engine.LogEntry]:
    """`since`, led by the latest of the seat's own last moves (`run`) that set off a scoring
    and the moves of `run` after it; `since` alone if none did."""
    scorings = [i for i, entry in enumerate(run) if scored(entry)]
    return run[scorings[-1] :] + since if scorings else since


def new_to_seat(game_id: int, kept: Record, colour: str) -> list[engine.LogEntry]:
    """`since_last_decision` up to `kept.seq`, as a page reads it: from `kept`, the game's
    `record` the page read, where its last round holds all it needs, else on the request's
    read connection."""
    upto = kept.seq
    found = since_last_decision_in(kept.last_round, colour, upto)
    if found is not None:
        return found
    return since_last_decision(reads.connection(), game_id, colour, upto)


def since_last_decision_in(
    entries: Sequence[engine.LogEntry], colour: str, upto: int
) -> list[engine.LogEntry] | None:
    """`since_last_decision` over `entries`, the log's last entries up to `upto` and without
    a gap; None where they do not reach back far enough to tell (the seat's last move, or
    the start of its own run of moves before it, lies earlier)."""
    if not entries or entries[-1]["seq"] != upto:
        return None
    first = entries[0]["seq"]
    mine = [i for i, entry in enumerate(entries) if entry["player"] == colour]
    if not mine and first != 1:
        return None  # the seat's last move (if any) is older than these entries
    after_mine = mine[-1] + 1 if mine else 0  # from move 1: the seat has not moved yet
    since = [e for e in entries[after_mine:] if e["seq"] > upto - STORY_MOST]
    mine_upto = since[0]["seq"] - 1 if since else upto
    run: list[engine.LogEntry] = []
    for entry in reversed(entries[: mine_upto - first + 1]):
        if entry["player"] != colour or entry["seq"] <= mine_upto - OWN_RUN_MOST:
            break
        run.insert(0, entry)
    else:
        if first - 1 > max(mine_upto - OWN_RUN_MOST, 0):
            return None  # the run may go on before these entries
    return _led_by_own_scoring(run, since)


def stored_log(
    connection: Connection, game_id: int, after: int, upto: int
) -> list[engine.LogEntry]:
    """The stored entries with `after < seq <= upto`, read in the caller's transaction."""
    rows = connection.execute(
        queries.SELECT_LOG_BETWEEN, {"game": game_id, "after": after, "upto": upto}
    )
    return [
        {"seq": row.seq, "player": row.colour, "move": row.move, "events": row.events or []}
        for row in rows
    ]


def scored(entry: engine.ShownLogEntry) -> bool:
    """Whether a log entry's move set off a scoring."""
    return any(e.get("type") == "score" for e in entry.get("events") or [])


def starts_a_round(entry: engine.ShownLogEntry) -> bool:
    """Whether a log entry's move started a round (its events hold `round_started`)."""
    return any(event.get("type") == "round_started" for event in entry["events"])


@dataclass(frozen=True)
class Record:
    """A game's record after `seq` moves, as far as the pages need it: where its rounds start
    (0, then each move whose events hold `round_started`), and the stored entries of its last
    round, from the move that started it (from move 1 in the first round). Shared between
    threads: never changed, only replaced by `extended`."""

    seed: int
    seq: int
    starts: tuple[int, ...]
    last_round: tuple[engine.LogEntry, ...]

    def extended(self, entries: list[engine.LogEntry]) -> Record:
        """This record with the entries of the moves after `seq`, in order."""
        starts = self.starts + tuple(e["seq"] for e in entries if starts_a_round(e))
        last_round = self.last_round + tuple(entries)
        if starts[-1] != self.starts[-1]:
            last_round = tuple(e for e in last_round if e["seq"] >= starts[-1])
        return Record(self.seed, self.seq + len(entries), starts, last_round)

    def last_round_log(
        self, own: Collection[str], *, events: bool = False
    ) -> list[engine.ShownLogEntry]:
        """The last round's entries as `log_between` shows them to the holder of `own`:
        the same stretch (from the move that started the round to `seq`)."""
        return engine.visible_log(self.last_round, set(own), events=events)


#: Games whose record a worker keeps: a record holds one round's moves with their events,
#: about 100 KB by a round's end (tracemalloc in a worker), so some 25 MB at most.
RECORDS_KEPT = 256


class _Records:
    """The latest record of up to `size` games, least recently used out first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: LRUCache[int, Record] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, game_id: int, seed: int) -> Record | None:
        with self._lock:
            kept = self._entries.get(game_id)  # a hit counts as a use
            if kept is None or kept.seed != seed:
                return None
            return kept

    def put(self, game_id: int, record: Record) -> None:
        with self._lock:
            kept = self._entries.get(game_id)
            # Two threads may race to store; keep the later of two records of the same game.
            if kept is not None and kept.seed == record.seed and kept.seq > record.seq:
                return
            self._entries[game_id] = record  # the least recently used goes out


def _records() -> _Records:
    records: _Records | None = current_app.extensions.get("pbem_records")
    if records is None:  # made once per app, not for each page that asks
        records = current_app.extensions.setdefault("pbem_records", _Records(RECORDS_KEPT))
    return records


def record(game_id: int, seed: int, seq: int) -> Record:
    """The game's `Record` after `seq` moves, where `seq` is what the caller has just read
    from the game's row: this worker's, topped up by one query for the moves since it, or
    (when it keeps none) read from the snapshots and the last round's moves."""
    records = _records()
    kept = records.get(game_id, seed)
    if kept is not None and kept.seq == seq:
        return kept
    if kept is not None and kept.seq < seq:
        since = _entries(game_id, kept.seq, seq)
        # The moves up to `seq` were committed with the row that says `seq`: all are there.
        if [e["seq"] for e in since] == list(range(kept.seq + 1, seq + 1)):
            extended = kept.extended(since)
            records.put(game_id, extended)
            return extended
    # Nothing kept, or kept at a later seq (another request read the row after this one).
    starts = tuple(s for s in round_starts(game_id) if s <= seq)
    fresh = Record(seed, seq, starts, tuple(_entries(game_id, max(starts[-1] - 1, 0), seq)))
    records.put(game_id, fresh)
    return fresh


def recent_games(status: str, limit: int = 30) -> list[Game]:
    """The games in `status` that moved last, newest first, with their seats' players."""
    query = (
        db.select(Game)
        .where(Game.status == status)
        .order_by(Game.updated_at.desc(), Game.id.desc())
        .limit(limit)
        .options(selectinload(Game.seats).selectinload(Seat.player))
    )
    return list(db.session.execute(query).scalars())
