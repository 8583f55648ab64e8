"""The services: every change to the database goes through here, one transaction per call.

`submit_moves` is the one function that appends to a game's move log. The REST API calls it
now; the mail-in handler and the scheduler (timeouts, bots) will call it too, with another
`source`, so every door into a game checks and commits moves the same way.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

import engine
from pbem.auth import new_api_key, unknown_key
from pbem.errors import (
    Conflict,
    Forbidden,
    IllegalMoveError,
    Invalid,
    NotFound,
    StaleSequence,
)
from pbem.extensions import db
from pbem.models import Game, IdempotencyRecord, Move, Player, Seat, utcnow
from pbem.state_cache import state_cache
from pbem.visibility import visible_log

# Ids and sequence numbers in URLs are checked against this before they reach the database:
# a 20-digit id is "not found", not an integer overflow in the driver.
MAX_ID = 2**31 - 1


# --- players -------------------------------------------------------------------------------


def register_player(email: str, name: str) -> tuple[Player, str]:
    """A new player and their API key (returned once, stored only as a hash)."""
    email = email.strip().lower()
    if db.session.execute(db.select(Player.id).where(Player.email == email)).first():
        raise Conflict(
            f"A player with the email {email} is already registered; use the API key you "
            "were given for it."
        )
    key, key_hash = new_api_key()
    player = Player(email=email, name=name.strip(), api_key_hash=key_hash, preferences={})
    db.session.add(player)
    try:
        db.session.commit()
    except IntegrityError:
        # Two registrations raced; the other one won.
        db.session.rollback()
        raise Conflict(f"A player with the email {email} is already registered.") from None
    return player, key


# --- games ---------------------------------------------------------------------------------


def get_game(game_id: int) -> Game:
    game = db.session.get(Game, game_id) if 0 < game_id <= MAX_ID else None
    if game is None:
        raise NotFound(f"There is no game {game_id}; GET /api/games lists yours.")
    return game


def seats_of(game: Game, player: Player | None) -> list[Seat]:
    """The player's seats in the game, in seat order: one, or two in the two-colour variant."""
    if player is None:
        return []
    return [s for s in game.seats if s.player_id == player.id]


def _check_seat_holders(game_options: dict, holders: list[str]) -> None:
    """Refuse a seating where one person holds seats they may not: `holders` names who holds
    each seat (their email), in seat order.

    One seat per person, except in the two-colour variant, where the engine gives colours 0
    and 1 to one person and 2 and 3 to the other: there the pairs must match exactly.
    """
    if game_options.get("variant") == "two_colour":
        if len(holders) != 4:
            raise Invalid(
                f"A two-colour game has exactly 4 seats (2 colours for each of its 2 players), "
                f"not {len(holders)}."
            )
        first, second = holders[:2], holders[2:]
        if len(set(first)) == 1 and len(set(second)) == 1 and first[0] != second[0]:
            return
        if len(set(holders)) == 4:
            return  # four people, as in a game of four: allowed, each holds one colour
        raise Invalid(
            "In a two-colour game one person holds seats 1 and 2 and the other seats 3 and 4 "
            "(the same email twice in each pair, a different email in each pair); this "
            "seating pairs them differently."
        )
    if len(set(holders)) != len(holders):
        raise Invalid(
            "Each seat needs its own player; an email is given twice. Only a two-colour game "
            '(options {"variant": "two_colour"}) lets one player hold two seats.'
        )


def create_game(
    creator: Player,
    title: str,
    seats: list[dict],
    options: dict | None = None,
    timing: dict | None = None,
    default_timing: dict | None = None,
) -> Game:
    """A new game: `seats` are `{email, colour}` in seat order; the creator must hold one."""
    emails = [s["email"].strip().lower() for s in seats]
    colours = [s["colour"] for s in seats]
    if len(set(colours)) != len(colours):
        raise Invalid("Each seat needs its own colour; a colour is given twice.")
    _check_seat_holders(options or {}, emails)
    if creator.email not in emails:
        raise Invalid(f"You ({creator.email}) must take one of the seats of a game you create.")
    players = {
        p.email: p
        for p in db.session.execute(db.select(Player).where(Player.email.in_(emails))).scalars()
    }
    unknown = list(dict.fromkeys(e for e in emails if e not in players))
    if unknown:
        raise Invalid(
            "These emails are not registered players: "
            + ", ".join(unknown)
            + ". Each player must first register with POST /api/players."
        )
    options = dict(options or {})
    if "first_player" in options and options["first_player"] not in colours:
        raise Invalid(f"first_player {options['first_player']} is not one of the seats' colours.")
    seed = secrets.randbits(62)
    try:
        state = engine.new_game(colours, seed=seed, options=options or None)
    except (ValueError, engine.IllegalMove) as error:
        raise Invalid(f"The engine cannot set up this game: {error}") from None
    game = Game(
        title=title.strip(),
        options=options,
        timing={**(default_timing or {}), **(timing or {})},
        seed=seed,
        status="active",
        creator_id=creator.id,
        colours=colours,
        state=engine.to_dict(state),
        pending=engine.pending(state),
        seq=0,
    )
    game.seats = [
        Seat(player_id=players[email].id, colour=colour, position=i)
        for i, (email, colour) in enumerate(zip(emails, colours, strict=True))
    ]
    db.session.add(game)
    db.session.commit()
    return game


def games_of(player: Player) -> list[Game]:
    """The games where the player holds a seat, each once (they may hold two in a game)."""
    seated = db.select(Seat.game_id).where(Seat.player_id == player.id)
    return list(
        db.session.execute(db.select(Game).where(Game.id.in_(seated)).order_by(Game.id)).scalars()
    )


def game_summary(game: Game, player: Player) -> dict:
    own = [s.colour for s in seats_of(game, player)]
    to_move = sorted({p["player"] for p in game.pending or []})
    return {
        "id": game.id,
        "title": game.title,
        "status": game.status,
        "seq": game.seq,
        # `colour` is kept for clients written before two-colour games: it names the one
        # seat of a one-seat player and is null for a player holding two.
        "colour": own[0] if len(own) == 1 else None,
        "colours": own,
        "admin": game.creator_id == player.id,
        "seats": [{"colour": s.colour, "name": s.player.name} for s in game.seats],
        "to_move": to_move if game.status == "active" else [],
        "your_turn": game.status == "active" and any(c in to_move for c in own),
        "options": game.options,
    }


def abort_game(admin: Player, game_id: int) -> Game:
    game = get_game(game_id)
    _require_admin(game, admin)
    if game.status != "active":
        raise Conflict(f"Game {game.id} is already {game.status}.")
    game.status = "aborted"
    game.pending = []
    game.updated_at = utcnow()
    db.session.commit()
    return game


def give_seat(admin: Player, game_id: int, colour: str, email: str) -> Game:
    """Hand the seat `colour` to the registered player `email` (a replacement player).

    In a two-colour game where one person holds both colours of a pair, the whole pair goes
    to the new player: a person is replaced, not half of one.
    """
    game = get_game(game_id)
    _require_admin(game, admin)
    if game.status != "active":
        raise Conflict(f"Game {game.id} is {game.status}; its seats can no longer change.")
    seat = next((s for s in game.seats if s.colour == colour), None)
    if seat is None:
        raise NotFound(f"Game {game.id} has no {colour} seat.")
    email = email.strip().lower()
    player = db.session.execute(db.select(Player).where(Player.email == email)).scalar_one_or_none()
    if player is None:
        raise Invalid(f"{email} is not a registered player; they must register first.")
    moving = [seat]
    if (game.options or {}).get("variant") == "two_colour":
        pair = game.seats[:2] if seat.position < 2 else game.seats[2:]
        if all(s.player_id == seat.player_id for s in pair):
            moving = pair
    if any(s.player_id == player.id for s in game.seats if s not in moving):
        raise Conflict(f"{email} already holds a seat in game {game.id}.")
    for s in moving:
        s.player_id = player.id
    game.updated_at = utcnow()
    db.session.commit()
    return game


def _require_admin(game: Game, player: Player) -> None:
    if game.creator_id != player.id:
        raise Forbidden(f"Only the creator of game {game.id} may administer it.")


# --- state -----------------------------------------------------------------------------------


def _moves_of(game: Game, upto: int | None = None) -> list[Move]:
    query = db.select(Move).where(Move.game_id == game.id)
    if upto is not None:
        query = query.where(Move.seq <= upto)
    return list(db.session.execute(query.order_by(Move.seq)).scalars())


def replay(game: Game, upto: int | None = None) -> Any:
    """The state after the first `upto` moves (all by default), from the log alone."""
    state = engine.new_game(game.colours, seed=game.seed, options=game.options or None)
    for move in _moves_of(game, upto):
        state, _ = engine.apply(state, move.colour, move.move)
    return state


def load_state(game: Game) -> Any:
    """The state after `game.seq` moves: this worker's cache, the row's state column, or a
    replay of the log, in that order of cost."""
    return _state_at(game.id, game.seed, game.seq, game)


def _state_at(game_id: int, seed: int, seq: int, game: Game | None = None) -> Any:
    """The state of the game after `seq` moves, where `seq` is what the caller has just read
    from the game's row.

    On a cache miss the state column is read together with the row's seq in one statement,
    so the state stored in the cache always belongs to the seq stored with it. If the row
    has moved past `seq` in the meantime, the state at `seq` is replayed from the log (a move
    POST built on it then loses at its conditional update and answers 409).
    """
    cache = state_cache()
    state = cache.get(game_id, seed, seq)
    if state is not None:
        return state
    row = db.session.connection().execute(_SELECT_STATE, {"game": game_id}).first()
    if row is not None and row.seq == seq and row.state is not None:
        state = engine.from_dict(row.state)
    else:
        state = replay(game if game is not None else get_game(game_id), seq)
    cache.put(game_id, seed, seq, state)
    return state


def view_of(game: Game, state: Any, colour: str | None, seq: int) -> dict:
    view = engine.view(state, colour)
    view.update(id=game.id, title=game.title, seq=seq, status=game.status)
    return view


def _asked_colour(game_id: int, own: list[str], asked: str | None) -> None:
    """Refuse a `colour` the caller does not hold (nobody may look or act as another seat)."""
    if asked is None or asked in own:
        return
    if not own:
        raise Forbidden(
            f"You have no seat in game {game_id}, so you cannot see or act as {asked}; leave "
            "out `colour` for the public view."
        )
    raise Forbidden(
        f"You hold {' and '.join(own)} in game {game_id}, not {asked}; name one of your own "
        "colours."
    )


def viewer_colour(state: Any, own: list[str], asked: str | None) -> str | None:
    """The colour whose view a caller holding the seats `own` gets.

    `asked` (one of their own colours, already checked by `_asked_colour`) if given; else
    their only colour; else, for a player holding two, the one pending in `state`, or the
    first in seat order if both or neither is.
    """
    if asked is not None:
        return asked
    if len(own) <= 1:
        return own[0] if own else None
    pending = {p["player"] for p in engine.pending(state)}
    return next((c for c in own if c in pending), own[0])


def current_view(game: Game, player: Player | None, colour: str | None = None) -> dict:
    """The view for the caller: as `colour` (one of theirs) or their pending colour."""
    own = [s.colour for s in seats_of(game, player)]
    _asked_colour(game.id, own, colour)
    state = load_state(game)
    return view_of(game, state, viewer_colour(state, own, colour), game.seq)


def view_at(game: Game, player: Player | None, seq: int, colour: str | None = None) -> dict:
    """The caller's view as it was after `seq` moves; `colour` as for `current_view`."""
    own = [s.colour for s in seats_of(game, player)]
    _asked_colour(game.id, own, colour)
    if not 0 <= seq <= game.seq:
        raise NotFound(f"Game {game.id} has states 0 to {game.seq}; there is no state {seq}.")
    state = load_state(game) if seq == game.seq else replay(game, seq)
    return view_of(game, state, viewer_colour(state, own, colour), seq)


def legal_moves_by_key(game_id: int, api_key_hash: str, colour: str | None = None) -> dict:
    """Every move one of the caller's seats may make now: caller, game and seats in one query.

    `colour` picks the seat of a player holding two (default: the one pending now).
    """
    rows = _caller_at_game(game_id, api_key_hash, read_only=True)
    row = rows[0]
    if row.game_id is None:
        raise NotFound(f"There is no game {game_id}; GET /api/games lists yours.")
    own = _own_colours(rows)
    if not own:
        raise Forbidden(f"You have no seat in game {game_id}; only its players may do this.")
    _asked_colour(game_id, own, colour)
    if row.status != "active":
        return {"seq": row.seq, "colour": colour or own[0], "moves": []}
    state = _state_at(game_id, row.seed, row.seq)
    colour = viewer_colour(state, own, colour)
    return {"seq": row.seq, "colour": colour, "moves": engine.legal_moves(state, colour)}


def log_for(game: Game, player: Player | None) -> dict:
    entries = [
        {
            "seq": m.seq,
            "player": m.colour,
            "move": m.move,
            "source": m.source,
            "time": _isoformat(m.created_at),
        }
        for m in _moves_of(game)
    ]
    viewers = {s.colour for s in seats_of(game, player)}
    return {
        "seq": game.seq,
        "moves": visible_log(entries, viewers, finished=game.status == "finished"),
    }


def record_of(game: Game) -> dict:
    """Setup and log in full, once the game is over: enough to replay it anywhere."""
    if game.status != "finished":
        raise Conflict(
            f"Game {game.id} is {game.status}; its full record (with the seed and every "
            "secret) is published only once it is over."
        )
    return {
        "id": game.id,
        "title": game.title,
        "colours": game.colours,
        "seed": game.seed,
        "options": game.options,
        "seats": [{"colour": s.colour, "name": s.player.name} for s in game.seats],
        "moves": [
            {"seq": m.seq, "player": m.colour, "move": m.move, "source": m.source}
            for m in _moves_of(game)
        ],
        "scores": engine.scores(load_state(game)),
    }


def _isoformat(moment: datetime) -> str:
    # SQLite hands back naive datetimes; every time we store is UTC.
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


# --- the move log ------------------------------------------------------------------------

# The move path's statements, built once: Core on the tables, so rows come back as tuples
# and the ORM's identity map and unit of work stay out of the way.
_games = Game.__table__
_seats = Seat.__table__
_players = Player.__table__

# What the move path reads of a game and of the caller's seats in it (never the big state).
_GAME_AND_SEAT_COLUMNS = (
    _games.c.id.label("game_id"),
    _games.c.seq,
    _games.c.status,
    _games.c.title,
    _games.c.colours,
    _games.c.seed,
    _seats.c.colour.label("own_colour"),
)

_SELECT_GAME_AND_SEAT = (
    select(*_GAME_AND_SEAT_COLUMNS)
    .select_from(
        _games.outerjoin(
            _seats,
            and_(_seats.c.game_id == _games.c.id, _seats.c.player_id == bindparam("player")),
        )
    )
    .where(_games.c.id == bindparam("game"))
    .order_by(_seats.c.position)
)

# The same, found from the hash of the caller's API key: one round trip answers who asks,
# whether the game exists and which seats they hold. The game columns are null when there is
# no such game; no row at all means no player holds the key. Both queries give one row per
# seat the player holds (two in the two-colour variant), in seat order, or one row with a
# null `own_colour` when they hold none.
_SELECT_CALLER_AT_GAME = (
    select(_players.c.id.label("player_id"), *_GAME_AND_SEAT_COLUMNS)
    .select_from(
        _players.outerjoin(_games, _games.c.id == bindparam("game")).outerjoin(
            _seats, and_(_seats.c.game_id == _games.c.id, _seats.c.player_id == _players.c.id)
        )
    )
    .where(_players.c.api_key_hash == bindparam("key_hash"))
    .order_by(_seats.c.position)
)

# The seq comes back with the state so a cached state is always filed under its own seq.
_SELECT_STATE = select(_games.c.seq, _games.c.state).where(_games.c.id == bindparam("game"))

_CLAIM_SEQ = (
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

_APPEND_MOVE = insert(Move.__table__)
_RECORD_ANSWER = insert(IdempotencyRecord.__table__)


def _id_or_zero(game_id: int) -> int:
    # An id no row has, for ids the database's integer cannot even hold.
    return game_id if 0 < game_id <= MAX_ID else 0


def _own_colours(rows: list[Any]) -> list[str]:
    return [r.own_colour for r in rows if r.own_colour is not None]


def _caller_at_game(game_id: int, key_hash: str, *, read_only: bool = False) -> list[Any]:
    """The caller (by key hash), the game and the caller's seats in it, in one query: one
    row per seat (see `_SELECT_CALLER_AT_GAME`).

    `read_only` requests (the first use of the session's connection) run without a
    transaction: one SELECT is consistent on its own, and on PostgreSQL this saves the BEGIN
    and ROLLBACK round trips around it.
    """
    options = {"isolation_level": "AUTOCOMMIT"} if read_only else None
    rows = (
        db.session.connection(execution_options=options)
        .execute(_SELECT_CALLER_AT_GAME, {"game": _id_or_zero(game_id), "key_hash": key_hash})
        .all()
    )
    if not rows:
        raise unknown_key()
    return rows


def _request_hash(game_id: int, payload: dict) -> str:
    canonical = json.dumps({"game": game_id, **payload}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _stored_answer(player_id: int, key: str, request_hash: str) -> tuple[int, dict] | None:
    record = db.session.execute(
        db.select(IdempotencyRecord).where(
            IdempotencyRecord.player_id == player_id, IdempotencyRecord.key == key
        )
    ).scalar_one_or_none()
    if record is None:
        return None
    if record.request_hash != request_hash:
        raise Invalid(
            "This Idempotency-Key was already used for a different request; use a new key "
            "for each new batch of moves."
        )
    return record.status_code, json.loads(record.response)


def submit_moves(
    game_id: int,
    moves: list[dict],
    expected_seq: int,
    *,
    player: Player | None = None,
    api_key_hash: str | None = None,
    colour: str | None = None,
    source: str = "api",
    dry_run: bool = False,
    idempotency_key: str | None = None,
) -> tuple[int, dict]:
    """Apply a batch of moves for one seat and append them to the log, all or nothing.

    Who asks is `player`, or the player holding the key whose hash is `api_key_hash` (the
    REST route: the player is then found in the same query as the game and seat; an unknown
    key is 401). With neither, it is the scheduler's timeout or bot move, which must name
    `colour`; a player acts only for their own seats, and one holding two (the two-colour
    variant) names the colour, or leaves it to be the one of theirs that is pending. The batch
    is checked against `expected_seq`, the sequence number the client last saw: if another
    move got in first the answer is 409 and nothing is written. Returns (HTTP status, body),
    where the body is `{seq, events, view}` with the view for the acting seat.
    """
    # One query, returning plain tuples: the game's row without its big state column, and
    # the asking player's seat in it. This is the hot path; the ORM's bookkeeping for a Game
    # entity costs more than the engine's work on a move.
    if api_key_hash is not None:
        rows = _caller_at_game(game_id, api_key_hash)
        player_id = rows[0].player_id
    else:
        player_id = player.id if player is not None else None
        rows = (
            db.session.connection()
            .execute(_SELECT_GAME_AND_SEAT, {"game": _id_or_zero(game_id), "player": player_id})
            .all()
        )
    game = rows[0] if rows else None
    asked_by_player = player_id is not None
    # The request's hash is needed only to replay or record an answer under a key.
    request_hash = ""
    if idempotency_key and asked_by_player:
        payload = {
            "moves": moves,
            "expected_seq": expected_seq,
            "colour": colour,
            "dry_run": dry_run,
        }
        request_hash = _request_hash(game_id, payload)
        stored = _stored_answer(player_id, idempotency_key, request_hash)
        if stored is not None:
            return stored
    if game is None or game.game_id is None:
        raise NotFound(f"There is no game {game_id}; GET /api/games lists yours.")
    own: list[str] = []
    if asked_by_player:
        own = _own_colours(rows)
        if not own:
            raise Forbidden(f"You have no seat in game {game_id}; only its players may move.")
        if colour is not None and colour not in own:
            raise Forbidden(
                f"You hold {' and '.join(own)} in game {game_id}; you cannot move for {colour}."
            )
        if colour is None and len(own) == 1:
            colour = own[0]
    elif colour not in game.colours:
        raise Invalid(f"Game {game_id} has no {colour} seat.")
    if game.status != "active":
        raise Conflict(f"Game {game_id} is {game.status}; no more moves can be played.")
    if expected_seq != game.seq:
        raise StaleSequence(
            f"The game has moved on: it is at seq {game.seq}, not {expected_seq}. Fetch the "
            "game again and choose your moves from its current state.",
            seq=game.seq,
        )

    state = before = _state_at(game_id, game.seed, game.seq)
    if colour is None:
        # A player holding two colours who did not say which: the one that must act now.
        pending = [c for c in own if c in {p["player"] for p in engine.pending(state)}]
        if len(pending) != 1:
            which = "both" if pending else "neither"
            raise Invalid(
                f"You hold {' and '.join(own)} in game {game_id}, and {which} of them must "
                'act now; say which colour these moves are for with "colour" in the body.'
            )
        colour = pending[0]
    events: list[dict] = []
    revealed_by = None  # the batch's first move whose result uncovered something hidden
    for index, move in enumerate(moves):
        try:
            state, new_events = engine.apply(state, colour, move)
        except engine.IllegalMove as error:
            where = f"Move {index + 1} of {len(moves)}" if len(moves) > 1 else "The move"
            if revealed_by is not None:
                # The engine's reason could name what move `revealed_by` uncovered (the new
                # action cards, say); nothing is committed, so nothing of it may be told.
                raise IllegalMoveError(
                    f"{where} is illegal in the position after move {revealed_by + 1}, which "
                    "uncovers hidden information. Nothing was played: send the moves up to "
                    f"move {revealed_by + 1} alone, then choose the rest.",
                    seq=game.seq,
                ) from None
            raise IllegalMoveError(
                f"{where} ({json.dumps(move, sort_keys=True)}) is illegal: {error} "
                "Nothing was played.",
                seq=game.seq,
            ) from None
        if revealed_by is None and engine.reveals_hidden(new_events):
            revealed_by = index
        events.extend(new_events)

    new_seq = game.seq + len(moves)
    finished = engine.is_over(state)
    status = "finished" if finished else "active"
    # Showing an uncommitted result that turns up the next action cards or others' secret
    # picks would let a player peek and then play something else: such a dry run shows the
    # game as it is now.
    withheld = dry_run and engine.reveals_hidden(events)
    view = engine.view(before if withheld else state, colour)
    if withheld:
        view.update(id=game_id, title=game.title, seq=game.seq, status=game.status)
    else:
        view.update(id=game_id, title=game.title, seq=new_seq, status=status)
    body: dict[str, Any] = {"seq": new_seq, "events": [] if withheld else events, "view": view}
    if dry_run:
        db.session.rollback()
        body["dry_run"] = True
        if withheld:
            body["withheld"] = (
                "These moves are legal. Their result would reveal hidden information (new "
                "action cards or others' secret picks), so a dry run does not show it; the "
                "view is the game as it is now."
            )
        return 200, body

    now = utcnow()
    connection = db.session.connection()
    # The conditional update is where two racing writers are told apart: the database lets
    # one of them change the row from `expected_seq`; the other finds no such row and leaves.
    claimed = connection.execute(
        _CLAIM_SEQ,
        {
            "game": game_id,
            "expected_seq": expected_seq,
            "new_seq": new_seq,
            "state": engine.to_dict(state),
            "pending": [] if finished else engine.pending(state),
            "status": status,
            "updated_at": now,
        },
    ).rowcount
    if claimed != 1:
        db.session.rollback()
        return _lost_race(game_id, player_id, idempotency_key, request_hash)
    # Plain INSERTs, not the unit of work: nothing here needs the objects afterwards.
    connection.execute(
        _APPEND_MOVE,
        [
            {
                "game_id": game_id,
                "seq": expected_seq + 1 + i,
                "colour": colour,
                "player_id": player_id,
                "move": move,
                "source": source,
                "created_at": now,
            }
            for i, move in enumerate(moves)
        ],
    )
    if idempotency_key and asked_by_player:
        connection.execute(
            _RECORD_ANSWER,
            {
                "player_id": player_id,
                "key": idempotency_key,
                "request_hash": request_hash,
                "status_code": 201,
                "response": json.dumps(body),
                "created_at": now,
            },
        )
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return _lost_race(game_id, player_id, idempotency_key, request_hash)
    # Only now, with the batch committed, may this worker remember the new state.
    state_cache().put(game_id, game.seed, new_seq, state)
    return 201, body


def _lost_race(
    game_id: int, player_id: int | None, idempotency_key: str | None, request_hash: str
) -> tuple[int, dict]:
    """Another writer committed first: the same request's answer if it was ours, else 409."""
    if idempotency_key and player_id is not None:
        stored = _stored_answer(player_id, idempotency_key, request_hash)
        if stored is not None:
            return stored
    game = get_game(game_id)
    db.session.refresh(game)
    raise StaleSequence(
        f"Another move was committed first; the game is now at seq {game.seq}. Fetch the "
        "game again and choose your moves from its current state.",
        seq=game.seq,
    )
