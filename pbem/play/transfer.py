"""One game as a JSON document, to back it up or move it to another installation.

`export_game` writes the setup, the seats and the log; `import_game` builds the game again
here by replaying that log through the engine, storing the same rows the move path stores
(moves with their events, snapshots at each round's start), in one transaction.

The seed fixes every deck, so it is a secret while the game runs: a running game is exported
without it unless the operator asks (to move a live game), and the document then says so.
The log of a running game holds secret picks not yet revealed, too: such a file is for the
operator's eyes, seed or not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from itertools import groupby
from typing import Any, NotRequired, TypedDict

import marshmallow as ma

import engine
from pbem.errors import Invalid
from pbem.extensions import db
from pbem.game.games import get_game
from pbem.game.players import house_bot_number, is_unreachable, newcomer, normal_email
from pbem.game.states import snapshots_of
from pbem.play.batch import HUMAN_SOURCES, move_row
from pbem.play.lifecycle import check_seat_holders
from pbem.store import queries
from pbem.store.models import (
    GAME_STATUSES,
    MOVE_SOURCES,
    Game,
    Move,
    Player,
    Seat,
    Snapshot,
    utcnow,
)
from pbem.timing import deadlines, policy
from pbem.timing.schemas import TimingSchema

FORMAT_NAME = "elgrande-pbem-game"
FORMAT_VERSION = 1
FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"

SECRET_SEED_WARNING = (
    "This game was still running when exported: the seed fixes its decks, so whoever reads "
    "this file knows every card to come. Keep it private, and delete it once imported."
)


class SeatDocument(TypedDict):
    colour: str
    name: str
    email: str
    bot: bool


class LogEntryDocument(TypedDict):
    seq: int
    colour: str
    move: engine.Move  # an object, checked by the engine when the log is replayed
    source: str  # one of MOVE_SOURCES
    time: str  # ISO 8601, UTC


class GameDocument(TypedDict):
    format: str  # FORMAT
    exported_at: str
    title: str
    status: str  # one of GAME_STATUSES
    options: dict[str, Any]
    timing: dict[str, Any]
    created_at: str
    finished_at: str | None  # when it ended (finished, aborted, abandoned); null while running
    admin: str  # the email of the player who administers it
    seats: list[SeatDocument]  # in seat order
    # Present once the game is finished, or for a running game exported `with_seed`; the
    # two keys after it then mark the file as holding a secret.
    seed: NotRequired[int]
    seed_is_secret: NotRequired[bool]
    warning: NotRequired[str]
    log: list[LogEntryDocument]


class ImportRefused(Invalid):
    """The document cannot be imported; the detail says why and what to do."""


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def export_game(game_id: int, *, with_seed: bool = False) -> GameDocument:
    """The game as a document: its seed only if it is finished or `with_seed` is given."""
    game = get_game(game_id)
    moves = db.session.execute(
        db.select(Move).where(Move.game_id == game.id).order_by(Move.seq)
    ).scalars()
    document: GameDocument = {
        "format": FORMAT,
        "exported_at": _iso(utcnow()),
        "title": game.title,
        "status": game.status,
        "options": dict(game.options or {}),
        "timing": dict(game.timing or {}),
        "created_at": _iso(game.created_at),
        # The row's last change is when it ended: the final move, the abort or the sweep.
        "finished_at": None if game.status == "active" else _iso(game.updated_at),
        "admin": game.creator.email,
        "seats": [
            {"colour": s.colour, "name": s.player.name, "email": s.player.email, "bot": s.bot}
            for s in game.seats
        ],
        "log": [
            {
                "seq": m.seq,
                "colour": m.colour,
                "move": m.move,
                "source": m.source,
                "time": _iso(m.created_at),
            }
            for m in moves
        ],
    }
    if game.status == "finished" or with_seed:
        document["seed"] = game.seed
    if game.status != "finished" and with_seed:
        document["seed_is_secret"] = True
        document["warning"] = SECRET_SEED_WARNING
    return document


def export_json(game_id: int, *, with_seed: bool = False) -> str:
    """`export_game` as the text of a file."""
    return json.dumps(export_game(game_id, with_seed=with_seed), indent=2, ensure_ascii=False)


def parse_document(text: str | bytes) -> GameDocument:
    """The document in `text`, checked; ImportRefused says what is wrong with it."""
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError) as error:  # JSONDecodeError is a ValueError
        raise ImportRefused(
            f"This is not JSON ({error}); pbem import reads the files pbem export writes."
        ) from None
    return check_document(data)


def check_document(data: Any) -> GameDocument:
    """`data` if it is a document of this format, with every field of the right kind."""
    marker = data.get("format") if isinstance(data, dict) else None
    name, _, version = marker.partition("/") if isinstance(marker, str) else ("", "", "")
    if name != FORMAT_NAME:
        raise ImportRefused(
            f'This is not an El Grande game export: it has no "format": "{FORMAT}"; pbem '
            "import reads the files pbem export writes."
        )
    if version != str(FORMAT_VERSION):
        raise ImportRefused(
            f"This file is in format {marker!r}, which this server does not know; it reads "
            f"{FORMAT!r}. Import it with the version of the server that exported it."
        )
    _field(data, "title", str)
    if not 1 <= len(data["title"].strip()) <= 200 or _CONTROL.search(data["title"]):
        raise ImportRefused("The title must be 1 to 200 characters on one line.")
    if _field(data, "status", str) not in GAME_STATUSES:
        raise ImportRefused(f"The status {data['status']!r} is none of {', '.join(GAME_STATUSES)}.")
    _field(data, "options", dict)
    try:
        TimingSchema().load(_field(data, "timing", dict))
    except ma.ValidationError as error:
        raise ImportRefused(f"The timing policy is not valid: {_one_line(error)}") from None
    _time(data, "created_at")
    if data.get("finished_at") is not None:
        _time(data, "finished_at")
    _email(_field(data, "admin", str), "admin")
    seats = _field(data, "seats", list)
    for index, seat in enumerate(seats, start=1):
        where = f"seat {index}"
        if not isinstance(seat, dict):
            raise ImportRefused(f"Seat {index} is not an object.")
        _field(seat, "colour", str, where)
        name = _field(seat, "name", str, where)
        if not 1 <= len(name.strip()) <= 100 or _CONTROL.search(name):
            raise ImportRefused(f"The name of seat {index} must be 1 to 100 characters.")
        _email(_field(seat, "email", str, where), where)
        _field(seat, "bot", bool, where)
    colours = [s["colour"] for s in seats]
    if len(set(colours)) != len(colours):
        raise ImportRefused("Each seat needs its own colour; a colour is given twice.")
    for index, seat in enumerate(seats, 1):
        email = normal_email(seat["email"])
        if is_unreachable(email) and house_bot_number(email) is None:
            raise ImportRefused(f"Seat {index}'s email {email} cannot receive mail.")
    try:
        check_seat_holders(data["options"], [normal_email(s["email"]) for s in seats])
    except Invalid as error:
        raise ImportRefused(error.detail) from None
    if "seed" not in data:
        raise ImportRefused(
            "The file holds no seed: the game was not finished when it was exported without "
            "--with-seed, and its decks cannot be rebuilt without it. Export it again with "
            "`pbem export GAME --with-seed`."
        )
    seed = _field(data, "seed", int)
    if not 0 <= seed < 2**63:
        raise ImportRefused("The seed must be a whole number from 0 to 2**63 - 1.")
    for number, entry in enumerate(_field(data, "log", list), start=1):
        where = f"log entry {number}"
        if not isinstance(entry, dict):
            raise ImportRefused(f"Log entry {number} is not an object.")
        if _field(entry, "seq", int, where) != number:
            raise ImportRefused(
                f"Log entry {number} has seq {entry['seq']}: the log must number its moves "
                "1, 2, 3 ... in order, with none missing."
            )
        if _field(entry, "colour", str, where) not in colours:
            raise ImportRefused(
                f"Move {number} is played by {entry['colour']!r}, which holds no seat (the "
                f"seats are {', '.join(colours)})."
            )
        _field(entry, "move", dict, where)
        if _field(entry, "source", str, where) not in MOVE_SOURCES:
            raise ImportRefused(
                f"Move {number} has the source {entry['source']!r}, none of "
                f"{', '.join(MOVE_SOURCES)}."
            )
        _time(entry, "time", where)
    document: GameDocument = data  # every field checked above
    return document


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_KINDS = {str: "a string", int: "a whole number", bool: "true or false", dict: "an object"}


def _field(data: Mapping[str, Any], key: str, kind: type, where: str = "") -> Any:
    value = data.get(key)
    # bool is an int in Python, not in JSON.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        what = _KINDS.get(kind, "a list")
        place = f" of {where}" if where else ""
        raise ImportRefused(f'The field "{key}"{place} must be {what}; it is {value!r:.60}.')
    return value


def _time(data: Mapping[str, Any], key: str, where: str = "") -> datetime:
    try:
        moment = datetime.fromisoformat(_field(data, key, str, where))
    except ValueError:
        place = f" of {where}" if where else ""
        raise ImportRefused(
            f'The field "{key}"{place} must be an ISO 8601 time such as '
            f"2026-12-24T18:00:00+00:00; it is {data[key]!r:.60}."
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _email(value: str, where: str) -> None:
    email = normal_email(value)
    if not 3 <= len(email) <= 254 or "@" not in email or _CONTROL.search(email):
        raise ImportRefused(f"The email of {where} ({value!r:.60}) is not an email address.")


def _one_line(error: ma.ValidationError) -> str:
    messages = error.normalized_messages()  # type: ignore[no-untyped-call]  # marshmallow's is unannotated
    return "; ".join(f"{key}: {' '.join(map(str, texts))}" for key, texts in messages.items())


def import_game(document: GameDocument) -> int:
    """Create the game of a checked `document` here; returns its new id.

    The log is replayed through the engine before anything is written; every row is then
    written in one transaction, and no mail is queued (the players have had theirs). A
    running game's pending decisions get fresh deadlines from now: its clock starts again
    in its new home.
    """
    replay = _replay(document)
    try:
        game_id = _write(document, replay)
    except BaseException:
        db.session.rollback()
        raise
    # One transaction of its own, whoever calls it: a file imports whole or not at all.
    db.session.commit()
    return game_id


class _Replay:
    """The engine's account of a document's log: first and last states, and the rows."""

    def __init__(self, first: engine.State, last: engine.State) -> None:
        self.first, self.last = first, last
        self.moves: list[dict[str, Any]] = []
        self.snapshots: list[dict[str, Any]] = []


def _replay(document: GameDocument) -> _Replay:
    colours = [s["colour"] for s in document["seats"]]
    try:
        first = engine.new_game(colours, seed=document["seed"], options=document["options"] or None)
    except (ValueError, engine.IllegalMove) as error:
        raise ImportRefused(f"The engine cannot set up this game: {error}") from None
    replay = _Replay(first, first)
    state = first
    # Runs of one colour's moves are batches, as the move path stores them.
    for colour, run in groupby(document["log"], key=lambda entry: entry["colour"]):
        before, played = state, []
        entries = list(run)
        for entry in entries:
            try:
                state, events = engine.apply(state, colour, entry["move"])
            except engine.IllegalMove as error:
                quoted = json.dumps(entry["move"], sort_keys=True)[:200]
                raise ImportRefused(
                    f"The engine refuses move {entry['seq']} ({colour} {quoted}): {error.message}"
                ) from None
            played.append(engine.Played(entry["move"], events, state))
            # Who submitted a person's move is not in the file: its seat's holder, set below.
            when = _time(entry, "time")
            replay.moves.append(
                move_row(entry["seq"], colour, None, played[-1], entry["source"], when)
            )
        batch = engine.Batch(colour, before, played)
        replay.snapshots.extend(snapshots_of(batch, entries[0]["seq"]))
    replay.last = state
    if engine.is_over(state) != (document["status"] == "finished"):
        moves = len(document["log"])
        raise ImportRefused(
            f"The file says the game is {document['status']}, but its {moves} moves "
            + ("end the game." if engine.is_over(state) else "do not end it.")
        )
    return replay


def _write(document: GameDocument, replay: _Replay) -> int:
    status, timing = document["status"], policy.timing_of(document["timing"])
    now = utcnow()
    emails = [normal_email(s["email"]) for s in document["seats"]]
    admin = normal_email(document["admin"])
    wanted = [*emails, admin]
    players = {
        p.email: p
        for p in db.session.execute(db.select(Player).where(Player.email.in_(wanted))).scalars()
    }
    names = {normal_email(s["email"]): s["name"].strip() for s in document["seats"]}
    # Unknown emails are invited, as a new game's are; they keep the name they had there.
    for email in dict.fromkeys(e for e in wanted if e not in players):
        players[email] = newcomer(email)
        if not is_unreachable(email):  # a house bot keeps its own name
            players[email].name = names.get(email, players[email].name)
    active = status == "active"
    last_pending = engine.pending(replay.last) if active else []
    logged = bool(replay.moves)
    created_at = _time(document, "created_at")
    ended_at = (
        _time(document, "finished_at") if not active and document.get("finished_at") else None
    )
    game = Game(
        title=document["title"].strip(),
        options=dict(document["options"]),
        timing=timing,
        seed=document["seed"],
        # A game with moves starts at setup and is moved on by append_batch below, which
        # claims only an active game's row; one without is written as it ends.
        status="active" if logged else status,
        creator_id=players[admin].id,
        colours=[s["colour"] for s in document["seats"]],
        state=engine.to_dict(replay.first),
        pending=engine.pending(replay.first) if logged else last_pending,
        seq=0,
        created_at=created_at,
        updated_at=created_at if logged else ended_at or now,
        abandon_at=policy.abandon_at(timing, now) if active else None,
    )
    game.seats = [
        Seat(player_id=players[email].id, colour=seat["colour"], position=i, bot=seat["bot"])
        for i, (email, seat) in enumerate(zip(emails, document["seats"], strict=True))
    ]
    db.session.add(game)
    db.session.flush()
    db.session.add(Snapshot(game_id=game.id, seq=0, state=game.state))
    db.session.flush()
    connection = db.session.connection()
    if logged:
        holders = {s.colour: s.player_id for s in game.seats}
        for row in replay.moves:
            row["player_id"] = holders[row["colour"]] if row["source"] in HUMAN_SOURCES else None
        moved = queries.append_batch(
            connection,
            game.id,
            0,
            state=engine.to_dict(replay.last),
            pending=last_pending,
            status=status,
            moves=replay.moves,
            snapshots=replay.snapshots,
            now=ended_at or now,
            abandon_at=None,
        )
        assert moved, "a game made in this transaction is claimed by no one else"
    if active:
        deadlines.sync(connection, game.id, timing, replay.last, now)
    return game.id
