"""What a caller may see of a game: the engine's views, legal moves, the log and the record.

Every answer is the engine's for the caller's colour (`engine.view`, `engine.visible_log`):
nothing here decides what is secret.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NotRequired, TypedDict, cast

import engine
from pbem.clock import now
from pbem.errors import Conflict, Forbidden, NotFound
from pbem.extensions import db
from pbem.game.games import seats_of
from pbem.game.players import unknown_key
from pbem.game.seating import Actor, resolve_colour, seating
from pbem.game.states import current_state, state_at
from pbem.languages import N_, later
from pbem.store import queries, reads
from pbem.store.models import Game, Move, Player
from pbem.words import status_word


class DeadlineEntry(TypedDict):
    player: str
    decision: str  # the pending decision's key (`policy.decision_key`)
    due: str | None  # ISO 8601, UTC


class SeatClock(TypedDict):
    """A seat's time bank (time-bank games only): `bank_seconds` as of `running_since` when
    a decision of the seat's is open (its clock runs down from then), else as it stands."""

    bank_seconds: int
    running_since: NotRequired[str | None]  # ISO 8601, UTC


class UndeliveredMail(TypedDict):
    recipient: str
    kind: str
    queued: str | None
    attempts: int
    error: str | None


class GameView(engine.View):
    """The spec's `GameView`: the engine's view with the game's id, title, seq and status;
    read now (not at an earlier seq), the deadlines and who is away beside it, and for the
    game's maker the mail that could not be delivered."""

    id: int
    title: str
    seq: int
    status: str
    deadlines: NotRequired[list[DeadlineEntry]]
    away: NotRequired[dict[str, str | None]]
    clock: NotRequired[dict[str, SeatClock]]
    undelivered: NotRequired[list[UndeliveredMail]]


class LegalMoves(TypedDict):
    seq: int
    colour: str | None
    moves: list[engine.Move]


class ShownMove(TypedDict):
    """A log entry as its reader may see it, with where the move came from and when."""

    seq: int
    player: str
    move: engine.Move | engine.HiddenMove  # only its type where the reader may not see it
    events: list[engine.Event]
    hidden: NotRequired[bool]
    source: str
    time: str | None


class Log(TypedDict):
    seq: int
    moves: list[ShownMove]


def _pending_colours(state: engine.State) -> set[str]:
    return {p["player"] for p in engine.pending(state)}


def game_view(
    state: engine.State, colour: str | None, *, game_id: int, title: str, seq: int, status: str
) -> GameView:
    """The API's game view: the engine's view with the game's id, title, seq and status
    beside it (the spec's `GameView`)."""
    # The engine's view is whole; what is read beside it (deadlines, away) comes later.
    return cast(
        GameView,
        {**engine.view(state, colour), "id": game_id, "title": title, "seq": seq, "status": status},
    )


def _view(game: Game, state: engine.State, colour: str | None, seq: int) -> GameView:
    return game_view(state, colour, game_id=game.id, title=game.title, seq=seq, status=game.status)


@dataclass(frozen=True)
class CallersView:
    """The game as its caller sees it now, read in a few statements: `etag` says what the
    view holds (it changes whenever the answer would), `build()` makes the view itself (the
    state is read only then, so a client whose copy is current costs no state)."""

    etag: str
    build: Callable[[], GameView]


def callers_view(key_hash: str | None, game_id: int, colour: str | None) -> CallersView:
    """The view for whoever holds the key (none: the public) now, as `colour` (one of theirs)
    or their pending colour. One statement reads the game, the caller and their seats, the
    deadlines, who is away, the banks and, for the game's maker, the undelivered mail
    (`queries.CALLER_VIEW_OF_GAME`; the mail is read for any key, which costs less than a
    second read for the maker)."""
    params = {"game": queries.id_or_zero(game_id), "moment": now()}
    if key_hash is not None:
        read = queries.CALLER_VIEW_OF_GAME.all(reads.connection(), {**params, "key_hash": key_hash})
    else:
        read = queries.PUBLIC_VIEW_OF_GAME.all(reads.connection(), {**params, "player": None})
    parts: list[list[Any]] = [[] for _ in range(queries.VIEW_PART_UNDELIVERED + 1)]
    for row in read:
        parts[row.part].append(row)
    rows, deadlines, away, banks, undelivered = parts
    if key_hash is not None and not rows:
        raise unknown_key()
    if not rows or rows[0].game_id is None:
        raise NotFound(
            N_("There is no game %(game)s; GET /api/games lists yours."),
            code="no-such-game",
            game=game_id,
        )
    game = rows[0]
    own = [r.own_colour for r in rows if r.own_colour is not None]
    pending = {p["player"] for p in game.pending or []}
    viewer = resolve_colour(game_id, own, colour, pending, acting=False)
    deadlines_now: list[DeadlineEntry] = [
        {"player": d.colour, "decision": d.decision, "due": _isoformat(d.due_at)} for d in deadlines
    ]
    away_now: dict[str, str | None] = {a.colour: _isoformat(a.until) for a in away}
    clock_now = clocks_of(banks, {d.colour for d in deadlines})
    undelivered_now: list[UndeliveredMail] | None = None
    if key_hash is not None and game.creator_id == game.player_id:
        undelivered_now = [
            {
                "recipient": n.recipient,
                "kind": n.kind,
                "queued": _isoformat(n.created_at),
                "attempts": n.attempts,
                "error": n.last_error,
            }
            for n in undelivered
        ]
    shown = [
        *(game.seq, game.status, game.title, viewer),
        *(deadlines_now, away_now, clock_now, undelivered_now),
    ]
    digest = hashlib.blake2b(json.dumps(shown, sort_keys=True).encode(), digest_size=12)

    def build() -> GameView:
        state = current_state(game.game_id, game.seed, game.seq)
        view = game_view(
            state, viewer, game_id=game.game_id, title=game.title, seq=game.seq, status=game.status
        )
        view["deadlines"], view["away"] = deadlines_now, away_now
        if clock_now:
            view["clock"] = clock_now
        if undelivered_now is not None:
            view["undelivered"] = undelivered_now
        return view

    return CallersView(etag=f"{game.seq}-{digest.hexdigest()}", build=build)


def clocks_of(banks: Sequence[Any], running: Collection[str]) -> dict[str, SeatClock]:
    """Each seat's bank as the view gives it (`queries.BANKS`'s rows); `running`: the
    colours with a decision open, whose clocks run down from when they started."""
    shown: dict[str, SeatClock] = {}
    for row in banks:
        shown[row.colour] = {"bank_seconds": row.bank_seconds}
        if row.colour in running:
            shown[row.colour]["running_since"] = _isoformat(row.bank_at) if row.bank_at else None
    return shown


def view_at(game: Game, player: Player | None, seq: int, colour: str | None = None) -> GameView:
    """The caller's view as it was after move `seq`; `colour` as for `current_view`."""
    return view_of_seats(game, [s.colour for s in seats_of(game, player)], seq, colour)


def view_of_seats(game: Any, own: list[str], seq: int, colour: str | None = None) -> GameView:
    """The view after move `seq` of whoever holds the seats `own` (none: the public view);
    `colour` as for `current_view`. `game` is a Game or a row with its id, seq, seed, title
    and status."""
    if not 0 <= seq <= game.seq:
        raise NotFound(
            N_("Game %(game)s has states 0 to %(last)s; there is no state %(seq)s."),
            code="no-such-state",
            game=game.id,
            last=game.seq,
            seq=seq,
        )
    state = current_state(game.id, game.seed, game.seq) if seq == game.seq else state_at(game, seq)
    viewer = resolve_colour(game.id, own, colour, _pending_colours(state), acting=False)
    return _view(game, state, viewer, seq)


def legal_moves_for(actor: Actor, game_id: int, colour: str | None = None) -> LegalMoves:
    """Every move one of the actor's seats may make now (`colour` picks the seat of a
    person holding two; default: the one pending now). One query finds the actor, the game
    and the seats."""
    seats = seating(actor, game_id, read_only=True)
    game = seats.game
    if not seats.own:
        raise Forbidden(
            N_("You have no seat in game %(game)s; only its players have moves."),
            code="not-seated-for-moves",
            game=game_id,
        )
    if game.status != "active":
        mine = resolve_colour(game_id, seats.own, colour, (), acting=False)
        return {"seq": game.seq, "colour": mine, "moves": []}
    state = current_state(game_id, game.seed, game.seq)
    mine = resolve_colour(game_id, seats.own, colour, _pending_colours(state), acting=False)
    assert mine is not None  # `own` is not empty: one of its colours
    return {"seq": game.seq, "colour": mine, "moves": engine.legal_moves(state, mine)}


def _moves_of(game: Game) -> list[Move]:
    query = db.select(Move).where(Move.game_id == game.id).order_by(Move.seq)
    return list(db.session.execute(query).scalars())


def log_for(game: Game, player: Player | None) -> Log:
    """The log as the caller may see it, each move with its events."""
    logged = _moves_of(game)
    entries: list[engine.LogEntry] = [
        {"seq": m.seq, "player": m.colour, "move": m.move, "events": m.events or []} for m in logged
    ]
    shown = engine.visible_log(entries, {s.colour for s in seats_of(game, player)})
    return {
        "seq": game.seq,
        "moves": [
            {**entry, "source": m.source, "time": _isoformat(m.created_at)}
            for entry, m in zip(shown, logged, strict=True)
        ],
    }


class RecordedMove(TypedDict):
    seq: int
    player: str
    move: engine.Move
    source: str


class Record(TypedDict):
    """A finished game's setup and log in full (the spec's `Record`)."""

    id: int
    title: str
    colours: list[str]
    seed: int
    options: dict[str, Any]  # the engine's options, as the game was made with them
    seats: list[dict[str, str | int]]  # each seat's colour, its holder's id and name
    moves: list[RecordedMove]
    scores: dict[str, int]


def record_of(game: Game) -> Record:
    """Setup and log in full, once the game is over: enough to replay it anywhere."""
    if game.status != "finished":
        raise Conflict(
            N_(
                "Game %(game)s is %(status)s; its full record (with the seed and every "
                "secret) is published only once it is over."
            ),
            code="record-not-public-yet",
            game=game.id,
            status=later(status_word, game.status),
        )
    return {
        "id": game.id,
        "title": game.title,
        "colours": game.colours,
        "seed": game.seed,
        "options": game.options,
        "seats": [
            {"colour": s.colour, "player_id": s.player_id, "name": s.player.name}
            for s in game.seats
        ],
        "moves": [
            {"seq": m.seq, "player": m.colour, "move": m.move, "source": m.source}
            for m in _moves_of(game)
        ],
        "scores": engine.scores(current_state(game.id, game.seed, game.seq)),
    }


def _isoformat(moment: datetime) -> str:
    return moment.isoformat()
