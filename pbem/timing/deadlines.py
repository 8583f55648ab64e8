"""Deadline rows kept in step with a game's pending decisions, in the transaction of the
change that made them pending (or answered them). A person's decision that a move closes is
kept as a `decisions` row (answered in time or not), in the same transaction: what their
reliability is read from."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import Any, NamedTuple, cast

from sqlalchemy import String, bindparam, delete, func, insert, select
from sqlalchemy.engine import Connection, Row

import engine
from pbem.store import tables
from pbem.store.models import (
    UtcDateTime,
    is_person,
)
from pbem.store.prepared import Prepared, Written
from pbem.timing import bank, policy

_held = tables.seats.alias("held")

# Read with every move (`sync`): prepared, as the move path's other reads are.
GAME_DEADLINES = Prepared(
    select(
        tables.deadlines.c.id,
        tables.deadlines.c.colour,
        tables.deadlines.c.decision,
        tables.deadlines.c.opened_at,
        tables.deadlines.c.due_at,
        tables.deadlines.c.reminders_sent,
        tables.deadlines.c.moved,
    ).where(tables.deadlines.c.game_id == bindparam("game"))
)
GAME_SEATS = Prepared(
    select(
        tables.seats.c.colour,
        tables.seats.c.player_id,
        tables.seats.c.bot,
        tables.seats.c.timeouts,
        tables.seats.c.bank_seconds,
        tables.seats.c.bank_at,
    ).where(tables.seats.c.game_id == bindparam("game"))
)
#: A seat's bank settled, or its clock started (`bank`).
SET_BANK = (
    tables.seats.update()
    .where(
        tables.seats.c.game_id == bindparam("game"),
        tables.seats.c.colour == bindparam("seat_colour"),
    )
    .values(bank_seconds=bindparam("seconds"), bank_at=bindparam("since"))
)


# Written with every move that opens or closes a decision: on the driver's cursor, as the
# move path's other writes are (`store.prepared.Written`), which spares SQLAlchemy's
# compiling and caching of each (about a sixth of a move's CPU went to them).
CLOSE_DEADLINE = Written(delete(tables.deadlines).where(tables.deadlines.c.id == bindparam("row")))
OPEN_DEADLINE = Written(
    insert(tables.deadlines).values(
        game_id=bindparam("game_id"),
        colour=bindparam("colour"),
        decision=bindparam("decision"),
        opened_at=bindparam("opened_at"),
        due_at=bindparam("due_at"),
        next_at=bindparam("next_at"),
        reminders_sent=bindparam("reminders_sent"),
        extended_hours=0,
        moved=0,
    )
)
#: The absences of a game's seats' holders (once each: one person may hold two seats).
SEATS_AWAY = Prepared(
    select(tables.absences.c.player_id, tables.absences.c.starts_at, tables.absences.c.ends_at)
    .distinct()
    .select_from(
        tables.absences.join(tables.seats, tables.seats.c.player_id == tables.absences.c.player_id)
    )
    .where(tables.seats.c.game_id == bindparam("game"))
)

#: A closed decision of a seat, kept if a person holds the seat (a house bot's is not).
RECORD_DECISION_ROW = insert(tables.decisions).from_select(
    ["player_id", "game_id", "colour", "decision", "due_at", "closed_at", "how"],
    select(
        tables.seats.c.player_id,
        tables.seats.c.game_id,
        tables.seats.c.colour,
        bindparam("decision", type_=String()),
        bindparam("due_at", type_=UtcDateTime()),
        bindparam("closed_at", type_=UtcDateTime()),
        bindparam("how", type_=String()),
    )
    .select_from(tables.seats.join(tables.players, tables.players.c.id == tables.seats.c.player_id))
    .where(
        tables.seats.c.game_id == bindparam("game"),
        tables.seats.c.colour == bindparam("colour"),
        is_person(tables.players.c.email),
    ),
)
RECORD_DECISION = Written(RECORD_DECISION_ROW)


def ending(source: str, due_at: datetime, moment: datetime) -> str:
    """How a decision answered by a move from `source` at `moment` closed (DECISION_ENDINGS):
    the server playing for the seat is a timeout, or a bot's move; a game abandoned while
    it waited leaves it unanswered; any other source is its holder (or their orders)
    answering, in time or late."""
    if source in ("timeout", "scheduler"):
        return "timeout"
    if source in ("bot", "abandoned"):
        return source
    return "in_time" if moment <= due_at else "late"


def sync(
    connection: Connection,
    game_id: int,
    timing: policy.StoredTiming,
    state: engine.State,
    moment: datetime,
    reopened: Collection[tuple[str, str]] = (),
    answered_by: Mapping[str, str] | None = None,
) -> dict[str, datetime]:
    """Make the game's deadline rows its pending decisions: new ones get a deadline from the
    policy (a bot's seat is due at once), answered ones are deleted. `reopened`: decisions
    (colour, key) answered and opened again since the rows were written, which are new.
    `answered_by`: the colours that moved, with their moves' source; a decision of theirs
    that closes is kept for its holder, if a person (one closed by another's move is not
    theirs to answer). Returns each pending colour's deadline."""
    timing = policy.timing_of(timing)
    pending: dict[tuple[str, str], engine.Pending] = {}
    if not engine.is_over(state):
        for entry in engine.pending(state):
            pending.setdefault((entry["player"], policy.decision_key(entry)), entry)
    rows = GAME_DEADLINES.all(connection, {"game": game_id})
    existing = {(r.colour, r.decision): r for r in rows}
    closed = [r for key, r in existing.items() if key in reopened or key not in pending]
    if closed:
        CLOSE_DEADLINE.run_each(connection, [{"row": r.id} for r in closed])
        _record(connection, game_id, closed, answered_by or {}, moment)
    existing = {key: r for key, r in existing.items() if key in pending and key not in reopened}
    due = {c: r.due_at for (c, _), r in existing.items() if (c, _) in pending}
    fresh = [key for key in pending if key not in existing]
    clock = bank.clock_of(timing)
    if not fresh and clock is None:
        return due
    # Read once, for the clocks and the new rows alike.
    seats = seats_of(connection, game_id)
    away = _away(SEATS_AWAY.all(connection, {"game": game_id}))
    banked: dict[tuple[str, str], datetime] = {}
    if clock is not None:
        seated = Seated(seats, away)
        banked = _run_clocks(
            connection,
            game_id,
            timing,
            clock,
            seated,
            closed,
            existing,
            fresh,
            answered_by or {},
            moment,
        )
        due.update({colour: at for (colour, _), at in banked.items()})
    if fresh:
        new_rows = []
        for colour, decision in fresh:
            seat = seats[colour]
            due_at = banked.get((colour, decision)) or policy.due(
                timing, pending[colour, decision]["kind"], moment, away.get(seat.player_id, [])
            )
            due[colour] = due_at
            # A reminder due when the decision opens would only repeat its decision mail.
            passed = policy.reminders_owed(timing, due_at, moment)
            new_rows.append(
                {
                    "game_id": game_id,
                    "colour": colour,
                    "decision": decision,
                    "opened_at": moment,
                    "due_at": due_at,
                    "next_at": moment if seat.bot else policy.next_look(timing, due_at, passed),
                    "reminders_sent": passed,
                }
            )
        OPEN_DEADLINE.run_each(connection, new_rows)
    return due


class Seated(NamedTuple):
    """A game's seats by colour, and their holders' absences by player."""

    seats: dict[str, Row[Any]]
    away: dict[int, list[tuple[datetime, datetime]]]


def _run_clocks(
    connection: Connection,
    game_id: int,
    timing: policy.Timing,
    clock: bank.Clock,
    seated: Seated,
    closed: list[Row[Any]],
    kept: Mapping[tuple[str, str], Row[Any]],
    fresh: list[tuple[str, str]],
    answered_by: Mapping[str, str],
    moment: datetime,
) -> dict[tuple[str, str], datetime]:
    """A time-bank game's clocks after a change (`pbem.timing.bank` says the rules): the
    banks of the seats that answered are settled, the clocks of seats given a decision
    with none open start, and each decision of those seats, fresh or still open, is due
    when its seat's bank runs out (the open ones' rows are moved here). Returns those
    deadlines, by (colour, decision)."""
    seats, away = seated
    banks = {c: (bank.held(clock, s.bank_seconds), s.bank_at) for c, s in seats.items()}
    restarted: set[str] = set()
    for colour in {r.colour for r in closed if r.colour in answered_by}:
        source, (seconds, since) = answered_by[colour], banks[colour]
        if source == "abandoned":
            continue
        if source != "bot":  # a bot's answer leaves the holder's bank as it was
            start = since or min(r.opened_at for r in closed if r.colour == colour)
            used = bank.counted(timing, start, moment, away.get(seats[colour].player_id, []))
            seconds = bank.settled(clock, seconds, used, source in ("timeout", "scheduler"))
        banks[colour] = (seconds, moment)
        restarted.add(colour)
    running = {colour for colour, _ in kept}
    restarted |= {colour for colour, _ in fresh if colour not in running}
    for colour in restarted:
        banks[colour] = (banks[colour][0], moment)
    if restarted:
        connection.execute(
            SET_BANK,
            [
                {"game": game_id, "seat_colour": c, "seconds": banks[c][0], "since": moment}
                for c in sorted(restarted)
            ],
        )
    due: dict[tuple[str, str], datetime] = {}
    for colour, decision in [*fresh, *kept]:
        seconds, since = banks[colour]
        if colour in restarted or (colour, decision) in fresh:
            player = seats[colour].player_id
            due[colour, decision] = bank.runs_out(
                timing, since or moment, seconds, away.get(player, [])
            )
    for key, row in kept.items():
        if key in due and due[key] != row.due_at:
            next_at = (
                moment
                if seats[key[0]].bot
                else policy.next_look(timing, due[key], row.reminders_sent or [])
            )
            connection.execute(
                tables.deadlines.update()
                .where(tables.deadlines.c.id == row.id)
                .values(due_at=due[key], next_at=next_at, moved=row.moved + 1)
            )
    return due


def close_abandoned(connection: Connection, game_id: int, moment: datetime) -> None:
    """A game abandoned by silence: each decision still open closes unanswered, kept
    against its holder (a person) as a decision they never made."""
    rows = GAME_DEADLINES.all(connection, {"game": game_id})
    connection.execute(delete(tables.deadlines).where(tables.deadlines.c.game_id == game_id))
    _record(connection, game_id, rows, {row.colour: "abandoned" for row in rows}, moment)


def _record(
    connection: Connection,
    game_id: int,
    closed: list[Row[Any]],
    answered_by: Mapping[str, str],
    moment: datetime,
) -> None:
    """Keep the closed decisions of the colours that moved (one statement for all)."""
    kept = [
        {
            "game": game_id,
            "colour": row.colour,
            "decision": row.decision,
            "due_at": row.due_at,
            "closed_at": moment,
            "how": ending(answered_by[row.colour], row.due_at, moment),
        }
        for row in closed
        if row.colour in answered_by
    ]
    RECORD_DECISION.run_each(connection, kept)


def seats_of(connection: Connection, game_id: int) -> dict[str, Row[Any]]:
    return {r.colour: r for r in GAME_SEATS.all(connection, {"game": game_id})}


def absences_of(
    connection: Connection, player_ids: list[int]
) -> dict[int, list[tuple[datetime, datetime]]]:
    rows = connection.execute(
        select(
            tables.absences.c.player_id, tables.absences.c.starts_at, tables.absences.c.ends_at
        ).where(tables.absences.c.player_id.in_(player_ids))
    ).all()
    return _away(rows)


def _away(rows: Collection[Any]) -> dict[int, list[tuple[datetime, datetime]]]:
    """Absence rows (player_id, starts_at, ends_at), by player."""
    out: dict[int, list[tuple[datetime, datetime]]] = {}
    for row in rows:
        out.setdefault(row.player_id, []).append((row.starts_at, row.ends_at))
    return out


def recompute(connection: Connection, game_id: int, timing: policy.StoredTiming) -> None:
    """Push the game's open deadlines through the policy again (a new absence, a bot taking
    or leaving a seat): each is re-derived from when it opened (a time-bank game's, from
    its seat's bank)."""
    timing = policy.timing_of(timing)
    clock = bank.clock_of(timing)
    seats = seats_of(connection, game_id)
    away = absences_of(connection, [s.player_id for s in seats.values()])
    rows = connection.execute(
        select(tables.deadlines).where(tables.deadlines.c.game_id == game_id)
    ).all()
    for row in rows:
        seat = seats[row.colour]
        opened = row.opened_at
        kind = row.decision.partition(":")[0]
        if clock is not None:  # when the seat's bank runs out, its clock since it started
            seconds = bank.held(clock, seat.bank_seconds)
            start = seat.bank_at or opened
            due_at = bank.runs_out(timing, start, seconds, away.get(seat.player_id, []))
        else:
            due_at = policy.due(timing, kind, opened, away.get(seat.player_id, []))
        due_at += timedelta(hours=row.extended_hours)  # what the organiser added stays
        next_at = opened if seat.bot else policy.next_look(timing, due_at, row.reminders_sent)
        connection.execute(
            tables.deadlines.update()
            .where(tables.deadlines.c.id == row.id)
            .values(due_at=due_at, next_at=next_at, moved=row.moved + (due_at != row.due_at))
        )


def extend(
    connection: Connection, game_id: int, colour: str, hours: int, timing: policy.StoredTiming
) -> list[datetime]:
    """Put off the seat's open deadlines by `hours` (the organiser's grace): the new
    deadlines; none when the seat has nothing pending."""
    timing = policy.timing_of(timing)
    rows = connection.execute(
        select(tables.deadlines).where(
            tables.deadlines.c.game_id == game_id, tables.deadlines.c.colour == colour
        )
    ).all()
    moved = []
    for row in rows:
        due_at = row.due_at + timedelta(hours=hours)
        connection.execute(
            tables.deadlines.update()
            .where(tables.deadlines.c.id == row.id)
            .values(
                due_at=due_at,
                next_at=policy.next_look(timing, due_at, row.reminders_sent),
                extended_hours=row.extended_hours + hours,
                moved=row.moved + 1,
            )
        )
        moved.append(due_at)
    return moved


def earliest(connection: Connection, game_ids: Collection[int]) -> dict[tuple[int, str], datetime]:
    """Each seat's earliest open deadline in these games, by (game, colour): what a list of
    games or an organiser shows as when a seat must answer."""
    due: dict[tuple[int, str], datetime] = {}
    if not game_ids:
        return due
    rows = connection.execute(
        select(
            tables.deadlines.c.game_id, tables.deadlines.c.colour, tables.deadlines.c.due_at
        ).where(tables.deadlines.c.game_id.in_(list(game_ids)))
    )
    for game_id, colour, due_at in rows:
        key = (game_id, colour)
        due[key] = min(due.get(key, due_at), due_at)
    return due


def owed_by(connection: Connection, player_id: int) -> list[Row[Any]]:
    """The decisions the player owes now: their own seats' open deadlines (not a seat a bot
    plays for them) in active games, each with its game's title, language and timing,
    soonest first. Nothing of another seat's."""
    query = (
        select(
            tables.deadlines.c.game_id,
            tables.deadlines.c.colour,
            tables.deadlines.c.decision,
            tables.deadlines.c.opened_at,
            tables.deadlines.c.due_at,
            tables.deadlines.c.moved,
            tables.games.c.title,
            tables.games.c.language,
            tables.games.c.timing,
            # How many seats they hold in the game: a two-colour game's event names its seat.
            select(func.count())
            .where(_held.c.game_id == tables.deadlines.c.game_id, _held.c.player_id == player_id)
            .scalar_subquery()
            .label("seats_held"),
        )
        .select_from(
            tables.deadlines.join(
                tables.seats,
                (tables.seats.c.game_id == tables.deadlines.c.game_id)
                & (tables.seats.c.colour == tables.deadlines.c.colour),
            ).join(tables.games, tables.games.c.id == tables.deadlines.c.game_id)
        )
        .where(
            tables.seats.c.player_id == player_id,
            tables.seats.c.bot.is_(False),
            tables.games.c.status == "active",
        )
        .order_by(tables.deadlines.c.due_at, tables.deadlines.c.game_id, tables.deadlines.c.colour)
    )
    return cast("list[Row[Any]]", list(connection.execute(query).all()))
