"""Acting on what is due: a deadline row's reminder, its timeout (the engine's default move,
or a bot's), a bot seat's decision, a Veto window closing; and idle games abandoned, forming
games that never filled cancelled. The scheduler's sweep (`pbem.schedule.sweep`) finds what
is due and calls these, one deadline at a time.

Each due deadline row is claimed in a transaction of its own (`FOR UPDATE SKIP LOCKED` on
PostgreSQL, so a second sweep running at once passes it by) and acted on through the one
play function, whose commit also releases the claim: `act_on` ends its own transaction.
Acting twice is impossible besides: a move carries the game's seq, so a second sweep's move
for the same decision is stale. Every action is mailed to the players it concerns, in the
same transaction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, delete, select, update
from sqlalchemy.engine import Connection

import engine
from pbem.clock import now
from pbem.errors import NothingToPlay
from pbem.extensions import db
from pbem.game.seating import Actor
from pbem.notify import game_mails
from pbem.play.batch import Outcome, submit
from pbem.play.house_bots import HouseBot, house_bot
from pbem.store import queries, tables
from pbem.store.health import beat
from pbem.store.models import Game, Seat
from pbem.timing import deadlines, policy
from pbem.words import SECRET_MOVES

#: A decision played out by the server takes at most this many moves (a whole turn).
MOST_MOVES = 60


def due_deadlines(moment: datetime, limit: int) -> list[tuple[int, Any, str, str]]:
    """The deadline rows due by `moment`, the earliest first: each as (id, next_at, colour,
    decision), which together know a row (SQLite may give a new row a deleted one's id, and
    a bot's next decision may open at the moment its last was due)."""
    rows = db.session.execute(
        select(
            tables.deadlines.c.id,
            tables.deadlines.c.next_at,
            tables.deadlines.c.colour,
            tables.deadlines.c.decision,
        )
        .where(tables.deadlines.c.next_at <= moment)
        .order_by(tables.deadlines.c.next_at)
        .limit(limit)
    ).all()
    return [(row.id, row.next_at, row.colour, row.decision) for row in rows]


def swept() -> None:
    """Note that a sweep ran to its end (the health report's heartbeat); the caller commits."""
    beat("sweep")


def _claim(deadline_id: int) -> Row[Any] | None:
    """The deadline row, claimed. On PostgreSQL its game's row is locked first, then the
    deadline: every writer of a game's rows takes them in that order (the move path's
    UPDATE of the game, `locked_game` for seat changes), so the sweep never holds a
    deadline that a move waits for while it waits for that move's game. Both are skipped
    if locked: a second sweep, or a move under way, has them; the next pass looks again."""
    query = select(tables.deadlines).where(tables.deadlines.c.id == deadline_id)
    if db.session.get_bind().dialect.name == "postgresql":
        game = select(tables.deadlines.c.game_id).where(tables.deadlines.c.id == deadline_id)
        locked = db.session.execute(
            select(tables.games.c.id)
            .where(tables.games.c.id == game.scalar_subquery())
            .with_for_update(skip_locked=True)
        ).first()
        if locked is None:
            return None
        query = query.with_for_update(skip_locked=True)
    return db.session.execute(query).first()


@dataclass
class BotTime:
    """The time a sweep pass gives bots to think, all its bot seats together: one decision
    at least (so a short budget still moves the games on), then until `until`, a
    `time.monotonic()` moment."""

    until: float
    thought: bool = False

    def allows(self) -> bool:
        return not self.thought or time.monotonic() < self.until


def act_on(deadline_id: int, moment: datetime, bot_time: BotTime | None = None) -> str | None:
    """Claim the deadline row and do what it is due for (remind, play for the seat), in a
    transaction of its own, committed here: a line saying what was done, or None (taken by
    another sweep, answered meanwhile, not due yet, its game over, or a bot's to answer once
    the pass's time for bots, `bot_time`, has gone: the next pass takes it). A ServiceError
    means the game moved on under it: the caller rolls back, and the next sweep sees it."""
    row = _claim(deadline_id)
    if row is None or row.next_at > moment:
        db.session.rollback()  # taken by another sweep, answered, or already handled
        return None
    game = db.session.get_one(Game, row.game_id)
    seat = next(s for s in game.seats if s.colour == row.colour)
    timing = policy.timing_of(game.timing)
    if game.status != "active":
        db.session.execute(delete(tables.deadlines).where(tables.deadlines.c.id == row.id))
        db.session.commit()
        return None
    due_at = row.due_at
    if seat.bot or moment >= due_at:
        until = None
        if bot_time is not None and _bot_plays(seat, timing):
            if not bot_time.allows():
                db.session.rollback()  # left due: the next pass gives its bot time
                return None
            bot_time.thought, until = True, bot_time.until
        return _play_for(game, seat, row, timing, until)
    return _remind(game, seat, row, timing, due_at, moment)


def _remind(
    game: Game,
    seat: Seat,
    row: Row[Any],
    timing: policy.Timing,
    due_at: datetime,
    moment: datetime,
) -> str | None:
    sent = list(row.reminders_sent or [])
    owed = policy.reminders_owed(timing, due_at, moment, sent)
    sent += owed
    db.session.execute(
        update(tables.deadlines)
        .where(tables.deadlines.c.id == row.id)
        .values(reminders_sent=sent, next_at=policy.next_look(timing, due_at, sent))
    )
    if owed:
        game_mails.reminder(db.session.connection(), game=game, seat=seat, due_at=due_at)
    db.session.commit()
    if owed:
        return f"game {game.id}: reminded {seat.colour} ({min(owed)} h before the deadline)"
    return None


def plan_for(
    state: engine.State,
    colour: str,
    decision: str,
    bot: HouseBot | None,
    until: float | None = None,
) -> list[engine.Move]:
    """The moves the server makes for `colour` to answer `decision`: the engine's default
    move each step, or the bot's, until that decision is no longer theirs. A bot stops
    thinking at `until` (a `time.monotonic()` moment) once it has one move: the rest of the
    decision stays open, due at once, for the next pass."""
    moves: list[engine.Move] = []
    while len(moves) < MOST_MOVES:
        if moves and until is not None and time.monotonic() >= until:
            break
        mine = [
            p
            for p in engine.pending(state)
            if p["player"] == colour and policy.decision_key(p) == decision
        ]
        if not mine:
            break
        move = bot.choose(state, colour) if bot else engine.default_move(state, colour)
        if move is None:
            break
        state, _ = engine.apply(state, colour, move)
        moves.append(move)
    return moves


def _bot_plays(seat: Seat, timing: policy.Timing) -> bool:
    """Whether a bot answers the seat's decision when it is due: a bot's seat, or a seat
    whose timeouts the game plays with a bot's move."""
    return seat.bot or timing["on_timeout"] == "bot"


def _play_for(
    game: Game, seat: Seat, row: Row[Any], timing: policy.Timing, until: float | None
) -> str | None:
    level = seat.bot_level if seat.bot and seat.bot_level else timing["takeover_bot"]
    bot = house_bot(level, game.seed % 2**31 + game.seq) if _bot_plays(seat, timing) else None
    timed_out = not seat.bot
    kind = row.decision.partition(":")[0]

    def plan(state: engine.State, colour: str) -> list[engine.Move]:
        return plan_for(state, colour, row.decision, bot, until)

    def tell(connection: Connection, outcome: Outcome) -> None:
        if not timed_out:
            return
        timeouts = seat.timeouts + 1
        takes_over = timeouts >= timing["bot_after_timeouts"]
        connection.execute(
            update(tables.seats)
            .where(tables.seats.c.id == seat.id)
            .values(timeouts=timeouts, bot=takes_over)
        )
        if takes_over:  # the bot answers the seat's open decisions at once
            deadlines.recompute(connection, game.id, game.timing)
        game_mails.timed_out(
            connection,
            game=game,
            seat=seat,
            kind=kind,
            moves=outcome.moves,
            seq=outcome.seq,
            bot_now=takes_over,
            card=outcome.card_before,
        )

    source = "timeout" if timed_out else "bot"
    try:
        outcome = submit(
            Actor.scheduler(seat.colour), game.id, game.seq, plan, source=source, also_write=tell
        )
    except NothingToPlay:  # the decision is no longer the seat's: its deadline goes
        db.session.execute(delete(tables.deadlines).where(tables.deadlines.c.id == row.id))
        db.session.commit()
        return None
    said = public_moves(seat.colour, outcome.moves)
    if timed_out:
        return f"game {game.id}: {seat.colour} timed out on {kind}; played {said}"
    return f"game {game.id}: the bot played {said} for {seat.colour}"


def public_moves(colour: str, moves: list[engine.Move]) -> str:
    """`colour`'s moves as every player may see them: a secret pick (or a power card taken
    back) by its kind alone, "Castillo disk (secret)", in English.

    The sweep's line is logged at INFO (the demo's log, a log shipper) and printed by
    `pbem sweep`: neither may tell anyone a seat's pick before the table learns it. The
    engine decides what is hidden (`engine.visible_log`, as for a spectator); the entries
    carry no events, so a pick stays hidden here even when its batch revealed the picks
    (the board and the mails show them then)."""
    entries: list[engine.LogEntry] = [
        {"seq": number, "player": colour, "move": move, "events": []}
        for number, move in enumerate(moves)
    ]
    said = []
    for move, shown in zip(moves, engine.visible_log(entries, ()), strict=True):
        hidden = shown.get("hidden")
        kind = move["type"]
        said.append(
            SECRET_MOVES.get(kind, f"{kind} (secret)") if hidden else engine.format_move(move)
        )
    return "; ".join(said)


def abandon_idle_games() -> list[str]:
    """Games no person has moved in for their policy's days: abandoned, everyone told; and
    games still forming when their time to fill ran out: cancelled, everyone told. An idle
    limit that comes due is deleted, whatever became of its game meanwhile."""
    moment = now()
    due = (
        db.session.execute(
            select(tables.idle_limits.c.game_id).where(tables.idle_limits.c.abandon_at <= moment)
        )
        .scalars()
        .all()
    )
    lines = []
    for game_id in due:
        # Deleted only if still due: a person who moved meanwhile has put it off.
        gone = queries.changed(
            db.session.execute(
                delete(tables.idle_limits).where(
                    tables.idle_limits.c.game_id == game_id,
                    tables.idle_limits.c.abandon_at <= moment,
                )
            )
        )
        abandoned = gone and queries.changed(
            db.session.execute(
                update(tables.games)
                .where(tables.games.c.id == game_id, tables.games.c.status == "active")
                .values(status="abandoned", pending=[], updated_at=moment)
            )
        )
        if abandoned:
            deadlines.close_abandoned(db.session.connection(), game_id, moment)
            game_mails.abandoned(db.session.connection(), game=db.session.get(Game, game_id))
            lines.append(f"game {game_id}: abandoned, no player having moved in it for too long")
        elif gone and queries.changed(
            db.session.execute(
                update(tables.games)
                .where(tables.games.c.id == game_id, tables.games.c.status == "forming")
                .values(status="cancelled", pending=[], updated_at=moment)
            )
        ):
            game_mails.cancelled(db.session.connection(), game=db.session.get(Game, game_id))
            lines.append(f"game {game_id}: cancelled, its seats not all taken in time")
        db.session.commit()
    return lines
