"""The one play function: every door into a game (the API, a mail, the scheduler) plays
moves through `submit`, which checks and commits them the same way for all.

It knows nothing of HTTP: it takes an `Actor` and returns an `Outcome`, or raises a domain
error (`pbem.errors`). The engine plays the batch (`engine.play_batch`, pure) and decides
what may be said of it; `_commit` holds the SQL.

A door that must see the game before it knows its moves (a mail's lines are read against
the state; a timeout plays the default move of each step) passes a `Plan` instead of the
moves: submit loads the state once, asks the plan, and plays what it returns, so no door
loads a state or plays a batch of its own first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

import engine
from pbem.errors import IllegalMoveError, Invalid, NotActive, NothingToPlay, StaleSequence
from pbem.extensions import db
from pbem.game.seating import Actor, Seating, resolve_colour, seating
from pbem.game.state_cache import state_cache
from pbem.game.states import current_state, snapshots_of
from pbem.game.views import GameView, game_view
from pbem.languages import N_, _, later
from pbem.notify import after_moves
from pbem.play import advice, chain, ratings, tournaments
from pbem.store import queries
from pbem.store.models import MOVE_SOURCES, utcnow
from pbem.store.queries import MoveRow, SnapshotRow
from pbem.timing import deadlines, policy
from pbem.words import card_in_play, refusals, status_word

#: Sources that are a person playing (their seat's timeouts in a row start again at 0).
HUMAN_SOURCES = frozenset({"api", "email", "web", "admin"})

WITHHELD = N_(
    "These moves are legal. Their result would reveal hidden information (new action cards "
    "or others' secret picks), so a dry run does not show it; the view is the game as it is now."
)


@dataclass
class Outcome:
    """What a played (or dry-run) batch did, as the acting seat may see it."""

    game_id: int
    player_id: int | None  # who played it (None: the scheduler)
    colour: str
    seq: int  # the game's seq after the batch (as it would be, for a dry run)
    events: list[engine.Event]
    view: GameView
    dry_run: bool = False
    withheld: str | None = None  # why a dry run shows the game as it is now
    moves: list[engine.Move] = field(default_factory=list)
    #: The moves other seats' orders played at once after the batch: (colour, move).
    ordered: list[tuple[str, engine.Move]] = field(default_factory=list)
    #: The whole state after the batch, secrets included: for the server's own use inside
    #: the transaction (`AlsoWrite`), never shown to anyone as it is.
    after: engine.State | None = field(default=None, repr=False)
    #: The batch's moves as log entries, each with its events as the acting seat may see
    #: them (none for a dry run that would uncover something): what an answer says it did.
    entries: list[engine.LogEntry] = field(default_factory=list)
    #: The action card in play before the batch (`words.card_in_play`): the card its
    #: first moves answer.
    card_before: str | None = None


#: Called inside the batch's transaction, just before it commits, to write more rows with it.
AlsoWrite = Callable[[Connection, Outcome], None]

#: The moves to play, decided from the game as it is now (`state`, the acting `colour`).
#: It may raise a ServiceError to refuse, or engine.IllegalMove for a move it cannot read.
Plan = Callable[[engine.State, str], list[engine.Move]]


def submit(
    actor: Actor,
    game_id: int,
    expected_seq: int | None,
    moves: list[engine.Move] | Plan,
    *,
    source: str,
    colour: str | None = None,
    dry_run: bool = False,
    also_write: AlsoWrite | None = None,
) -> Outcome:
    """Play `moves` (or what a `Plan` returns) as one seat of the actor's, all or none, from
    `expected_seq` (None: from wherever the game is, for a plan that reads it).

    `colour` names the seat for a person holding two (else the one of theirs that must act).
    A stale `expected_seq` raises StaleSequence and changes nothing; so does losing a race to
    another writer. A plan that returns no moves raises NothingToPlay. A dry run plays the
    batch and commits nothing.
    """
    if source not in MOVE_SOURCES:
        raise ValueError(f"unknown move source {source!r}")
    if not moves:
        raise Invalid(N_("There are no moves to play: send at least one."), code="no-moves")
    seats = seating(actor, game_id)
    game = seats.game
    if game.status != "active":
        raise NotActive(
            N_("Game %(game)s is %(status)s; no more moves can be played."),
            code="game-not-active",
            game=game_id,
            status=later(status_word, game.status),
        )
    if expected_seq is not None and expected_seq != game.seq:
        raise StaleSequence(
            N_(
                "The game has moved on: it is at seq %(seq)s, not %(expected)s. Fetch the "
                "game again and choose your moves from its current state."
            ),
            code="stale-sequence",
            seq=game.seq,
            expected=expected_seq,
        )
    before = current_state(game_id, game.seed, game.seq)
    pending = {p["player"] for p in engine.pending(before)}
    colour = resolve_colour(game_id, seats.own, colour or actor.colour, pending, acting=True)
    try:
        chosen = moves(before, colour) if callable(moves) else moves
        if not chosen:
            raise NothingToPlay(
                N_("There is nothing for %(colour)s to play in game %(game)s now."),
                code="nothing-to-play",
                colour=colour,
                game=game_id,
            )
        batch = engine.play_batch(before, colour, chosen)
    except engine.IllegalMove as error:
        # The engine refuses in English; every door shows it in its reader's language.
        raise IllegalMoveError(error.message, seq=game.seq, render=refusals.translated) from None

    # A dry run carries out no orders: what they would play is their seats' secret.
    ordered = chain.Chain()
    if not dry_run:
        carried = chain.carry_out(db.session.connection(), game_id, game.seq, batch)
        if carried is None:
            db.session.rollback()
            _lost_race(game_id)
        ordered = carried or ordered
    outcome = _outcome(seats, colour, before, batch, ordered, dry_run)
    if dry_run:
        db.session.rollback()
        return outcome
    if not _commit(seats, batch, ordered, source, outcome, also_write):
        _lost_race(game_id)
    # Only now, with the batch committed, may this worker remember the new state.
    state_cache().put(game_id, game.seed, outcome.seq, outcome.after or batch.state)
    return outcome


def _outcome(
    seats: Seating,
    colour: str,
    before: engine.State,
    batch: engine.Batch[engine.State],
    ordered: chain.Chain,
    dry_run: bool,
) -> Outcome:
    """The batch (and the orders it set off) as the acting seat sees it: a dry run that would
    uncover something shows the game as it is now (else a player could peek, then play
    something else)."""
    game = seats.game
    batches = [batch, *ordered.batches]
    after = batches[-1].state
    new_seq = game.seq + sum(len(b.played) for b in batches)
    withheld = dry_run and batch.reveals_hidden
    shown, seq = (before, game.seq) if withheld else (after, new_seq)
    status = "finished" if engine.is_over(shown) else "active"
    view = game_view(shown, colour, game_id=game.game_id, title=game.title, seq=seq, status=status)
    entries: list[engine.LogEntry] = [
        {
            "seq": game.seq + 1 + index,
            "player": colour,
            "move": played.move,
            "events": engine.visible_events(played.events, [colour], committed=not dry_run),
        }
        for index, played in enumerate(batch.played)
    ]
    if dry_run and batch.reveals_hidden:
        entries = [{**entry, "events": []} for entry in entries]
    return Outcome(
        game_id=game.game_id,
        player_id=seats.player_id,
        colour=colour,
        seq=new_seq,
        events=engine.visible_events(
            [e for b in batches for e in b.events], [colour], committed=not dry_run
        ),
        view=view,
        dry_run=dry_run,
        withheld=_(WITHHELD) if withheld else None,
        moves=[played.move for played in batch.played],
        ordered=[(b.player, p.move) for b in ordered.batches for p in b.played],
        after=after,
        entries=entries,
        card_before=card_in_play(engine.view(before, colour)),
    )


def _rows(
    seats: Seating,
    batch: engine.Batch[engine.State],
    ordered: chain.Chain,
    source: str,
    now: datetime,
) -> tuple[list[MoveRow], list[SnapshotRow]]:
    """The log's rows (and snapshots) of the batch, then of each batch orders played."""
    moves: list[MoveRow] = []
    snapshots: list[SnapshotRow] = []
    played_by = [(batch, seats.player_id, source)]
    played_by += [(b, p, "orders") for b, p in zip(ordered.batches, ordered.players, strict=True)]
    for each, player_id, how in played_by:
        first = seats.game.seq + 1 + len(moves)
        snapshots += snapshots_of(each, first)
        moves += [
            move_row(first + index, each.player, player_id, played, how, now)
            for index, played in enumerate(each.played)
        ]
    return moves, snapshots


def _commit(
    seats: Seating,
    batch: engine.Batch[engine.State],
    ordered: chain.Chain,
    source: str,
    outcome: Outcome,
    also_write: AlsoWrite | None,
) -> bool:
    """Append the batch and what orders played after it, their events and snapshots, and
    move the game's row on, in one transaction. False (nothing written) if another writer
    got there first."""
    game, now, colour = seats.game, utcnow(), batch.player
    after = outcome.after or batch.state
    finished = engine.is_over(after)
    connection = db.session.connection()
    moves, snapshots = _rows(seats, batch, ordered, source, now)
    moved = queries.append_batch(
        connection,
        game.game_id,
        game.seq,
        state=engine.to_dict(after),
        pending=[] if finished else engine.pending(after),
        status="finished" if finished else "active",
        moves=moves,
        snapshots=snapshots,
        now=now,
        abandon_at=policy.abandon_at(game.timing, now) if source in HUMAN_SOURCES else None,
    )
    if not moved:
        db.session.rollback()
        return False
    if source in HUMAN_SOURCES and seats.timeouts.get(colour):
        connection.execute(queries.RESET_TIMEOUTS, {"game": game.game_id, "seat_colour": colour})
    steps = [(b.before, b.state) for b in (batch, *ordered.batches)]
    reopened = policy.answered_along(steps) if ordered.batches else set()
    answered_by = {**{b.player: "orders" for b in ordered.batches}, colour: source}
    due = deadlines.sync(connection, game.game_id, game.timing, after, now, reopened, answered_by)
    after_moves.after_batch(
        connection,
        game_id=game.game_id,
        before=batch.before,
        batch=batch,
        seq=outcome.seq,
        due=due,
        chain=ordered.batches,
    )
    chain.spend(connection, game.game_id, ordered.spent)
    if finished:
        ratings.rate_game(connection, game.game_id, after, now)
        tournaments.game_ended(game.game_id, after)  # its table's result; the next round
        advice.review_later(game.game_id)  # the scheduler reviews it, out of this request
    if also_write is not None:
        also_write(connection, outcome)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


def move_row(
    seq: int,
    colour: str,
    player_id: int | None,
    played: engine.Played[engine.State],
    source: str,
    created_at: datetime,
) -> MoveRow:
    """The row of one move in the log (table `moves`), as every write path stores it: the
    play function, and an import replaying a file."""
    return {
        "seq": seq,
        "colour": colour,
        "player_id": player_id,
        "move": played.move,
        "events": played.events,
        "source": source,
        "created_at": created_at,
    }


def _lost_race(game_id: int) -> None:
    seq = db.session.connection().execute(queries.SELECT_SEQ, {"game": game_id}).scalar()
    raise StaleSequence(
        N_(
            "Another move was committed first; the game is now at seq %(seq)s. Fetch the game "
            "again and choose your moves from its current state."
        ),
        code="another-move-first",
        seq=seq,
    )


__all__ = ["HUMAN_SOURCES", "Actor", "AlsoWrite", "Outcome", "Plan", "submit"]
