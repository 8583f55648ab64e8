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
import string
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from itertools import groupby
from typing import Any, NotRequired, TypedDict

import marshmallow as ma

import engine
from pbem import texts
from pbem.addresses import kept_address
from pbem.errors import Invalid
from pbem.extensions import db
from pbem.game.games import get_game
from pbem.game.players import house_bot_number, is_unreachable, newcomer, normal_email
from pbem.game.states import rules_options, snapshots_of
from pbem.play import ratings, talk
from pbem.play.batch import HUMAN_SOURCES, move_row
from pbem.play.lifecycle import check_seat_holders
from pbem.store import queries
from pbem.store.models import (
    GAME_STATUSES,
    MOVE_SOURCES,
    Game,
    IdleLimit,
    Move,
    Player,
    Seat,
    Snapshot,
    TableTalk,
    utcnow,
)
from pbem.store.queries import MoveRow, SnapshotRow
from pbem.timing import bank, deadlines, policy
from pbem.timing.schemas import TimingSchema

FORMAT_NAME = "elgrande-pbem-game"
FORMAT_VERSION = 1
FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"

SECRET_SEED_WARNING = (
    "This game was still running when exported: the seed fixes its decks, so whoever reads "
    "this file knows every card to come. Keep it private, and delete it once imported."
)


#: The statuses a game file may have: a game that was played. One still forming has no
#: record worth moving (its invitations and acceptances are not in the file).
IMPORTED_STATUSES = tuple(status for status in GAME_STATUSES if status != "forming")


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


class TalkDocument(TypedDict):
    seq: int  # the move it was written after (0: before the first)
    colour: str
    text: str
    source: str  # one of TALK_SOURCES
    time: str  # ISO 8601, UTC


class GameDocument(TypedDict):
    format: str  # FORMAT
    exported_at: str
    title: str
    status: str  # one of IMPORTED_STATUSES
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
    # The words to the table, oldest first: the record holds what the players said as well
    # as what they played. A file written before they were exported has none. (A player's
    # private notes are theirs, not the game's: never exported.)
    talk: NotRequired[list[TalkDocument]]


#: Where a word to the table came from: a mail reply, the page or the API.
TALK_SOURCES = ("email", "web", "api")


class ImportRefused(Invalid):
    """The document cannot be imported; the detail says why and what to do, in English as
    written (`pbem import` is the operator's command: its sentences are in no catalog)."""

    code = "import-refused"

    def __init__(self, message: str) -> None:
        super().__init__(message, render=str)


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def export_game(game_id: int, *, with_seed: bool = False) -> GameDocument:
    """The game as a document: its seed only if it is finished or `with_seed` is given."""
    game = get_game(game_id)
    moves = db.session.execute(
        db.select(Move).where(Move.game_id == game.id).order_by(Move.seq)
    ).scalars()
    talk = db.session.execute(
        db.select(TableTalk).where(TableTalk.game_id == game.id).order_by(TableTalk.id)
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
        "talk": [
            {
                "seq": t.seq,
                "colour": t.colour,
                "text": t.text,
                "source": t.source,
                "time": _iso(t.created_at),
            }
            for t in talk
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
    errors = _DOCUMENT.validate(data)
    if errors:
        raise ImportRefused(_refusal(errors, data, _DOCUMENT))
    document: GameDocument = data  # every field checked by the schema
    _check_together(document)
    return document


def _check_together(document: GameDocument) -> None:
    """The checks across fields, once each field is of its kind: seats, holders, the log."""
    seats = document["seats"]
    colours = [s["colour"] for s in seats]
    if len(set(colours)) != len(colours):
        raise ImportRefused("Each seat needs its own colour; a colour is given twice.")
    for index, seat in enumerate(seats, 1):
        email = normal_email(seat["email"])
        if is_unreachable(email) and house_bot_number(email) is None:
            raise ImportRefused(f"Seat {index}'s email {email} cannot receive mail.")
    try:
        check_seat_holders(document["options"], [_kept(s["email"]) for s in seats])
    except Invalid as error:
        raise ImportRefused(error.detail) from None
    for number, entry in enumerate(document["log"], start=1):
        if entry["seq"] != number:
            raise ImportRefused(
                f"Log entry {number} has seq {entry['seq']}: the log must number its moves "
                "1, 2, 3 ... in order, with none missing."
            )
        if entry["colour"] not in colours:
            raise ImportRefused(
                f"Move {number} is played by {entry['colour']!r}, which holds no seat (the "
                f"seats are {', '.join(colours)})."
            )
    for number, said in enumerate(document.get("talk", []), start=1):
        if said["colour"] not in colours:
            raise ImportRefused(
                f"Word to the table {number} is written by {said['colour']!r}, which holds "
                f"no seat (the seats are {', '.join(colours)})."
            )
        if said["seq"] > len(document["log"]):
            raise ImportRefused(
                f"Word to the table {number} was written after move {said['seq']}, which "
                f"the log (of {len(document['log'])} moves) does not reach."
            )


# --- the document's schema ------------------------------------------------------------------
#
# Its messages are templates that `_refusal` fills in with string.Template, once, for the
# field that failed: $key (the field), $where (admin, seat 2, log entry 3), $place (" of
# seat 2", or nothing at the top), $index (the seat's or entry's number), $value (the value's
# repr, cut to 60 characters) and $repr (all of it). No message holds the file's text itself.

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

_NOT_OURS = (
    f'This is not an El Grande game export: it has no "format": "{FORMAT}"; pbem import reads '
    "the files pbem export writes."
)


def _messages(message: str) -> dict[str, Any]:
    """A field's messages for a value that is missing, null or of another JSON kind."""
    return {"required": message, "null": message, "invalid": message}


def _kind(what: str) -> dict[str, Any]:
    return _messages(f'The field "$key"$place must be {what}; it is $value.')


def _string(**kwargs: Any) -> ma.fields.String:
    return ma.fields.String(required=True, error_messages=_kind("a string"), **kwargs)


def _integer(messages: dict[str, Any] | None = None, **kwargs: Any) -> ma.fields.Integer:
    # strict: 3.0 is no whole number here (and marshmallow refuses a bool as an int).
    messages = {**_kind("a whole number"), **(messages or {})}
    return ma.fields.Integer(strict=True, required=True, error_messages=messages, **kwargs)


def _object() -> ma.fields.Dict:
    return ma.fields.Dict(required=True, error_messages=_kind("an object"))


def _items(schema: type[ma.Schema], item: str) -> ma.fields.List[Any]:
    """A list of objects; `item` names one in a message (seat 2, log entry 3)."""
    return ma.fields.List(
        ma.fields.Nested(schema),
        required=True,
        error_messages=_kind("a list"),
        metadata={"item": item},
    )


def _format(marker: str) -> None:
    name, _, version = marker.partition("/")
    if name != FORMAT_NAME:
        raise ma.ValidationError(_NOT_OURS)
    if version != str(FORMAT_VERSION):
        raise ma.ValidationError(
            f"This file is in format $repr, which this server does not know; it reads "
            f"{FORMAT!r}. Import it with the version of the server that exported it."
        )


def _text(longest: int, message: str) -> Callable[[str], None]:
    """A name or a title as a new game's is kept (`texts.fault`: no control or direction
    character, something to read), of 1 to `longest` characters, not counting the spaces
    around it."""

    def check(value: str) -> None:
        if not 1 <= len(value.strip()) <= longest or texts.fault(value.strip()) is not None:
            raise ma.ValidationError(message)

    return check


def _email(value: str) -> None:
    email = normal_email(value)
    if not 3 <= len(email) <= 254 or "@" not in email or _CONTROL.search(email):
        raise ma.ValidationError("The email of $where ($value) is not an email address.")
    if is_unreachable(email):
        return  # a house bot's, or refused by _check_together, which names the seat
    try:
        kept_address(email)
    except Invalid as error:
        detail = error.detail.replace("$", "$$")  # a template: the address may hold a $
        raise ma.ValidationError(
            f"The email of $where ($value) is not an address mail can reach: {detail}"
        ) from None


def _kept(email: str) -> str:
    """A seat's or the admin's address as a new game's would be kept (`kept_address`); one on
    .invalid as it is, for `newcomer` to make the house bot it names or refuse it."""
    email = normal_email(email)
    return email if is_unreachable(email) else kept_address(email)


def _utc(text: str) -> datetime:
    """An ISO 8601 time, as `datetime.fromisoformat` reads it; a naive one is UTC."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class _Boolean(ma.fields.Boolean):
    """true or false, and nothing else (marshmallow's also takes 1 and "yes")."""

    def _deserialize(self, value: Any, *args: Any, **kwargs: Any) -> bool:
        if isinstance(value, bool):
            return value
        raise self.make_error("invalid")


class _Time(ma.fields.Field[datetime]):
    """A moment as a string in ISO 8601, such as 2026-12-24T18:00:00+00:00."""

    default_error_messages = {
        "iso": 'The field "$key"$place must be an ISO 8601 time such as '
        "2026-12-24T18:00:00+00:00; it is $value."
    }

    def _deserialize(self, value: Any, *args: Any, **kwargs: Any) -> datetime:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        try:
            return _utc(value)
        except ValueError:
            raise self.make_error("iso") from None


class _Policy(ma.fields.Nested):
    """The timing policy: an object, checked by its own schema."""

    def _deserialize(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):  # refused as any field's kind is
            raise self.make_error("invalid")
        return super()._deserialize(value, *args, **kwargs)


class _SeatSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE  # keys this server does not read are ignored

    error_messages = {"type": "Seat $index is not an object."}

    colour = _string()
    name = _string(
        validate=_text(
            100,
            "The name of seat $index must be 1 to 100 characters on one line, with something "
            "to read and no control or direction characters (such as U+202E).",
        )
    )
    email = _string(validate=_email)
    bot = _Boolean(required=True, error_messages=_kind("true or false"))


class _LogEntrySchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    error_messages = {"type": "Log entry $index is not an object."}

    seq = _integer()
    colour = _string()
    move = _object()  # the engine checks the move itself when the log is replayed
    source = _string(
        validate=ma.validate.OneOf(
            MOVE_SOURCES, error="Move $index has the source $repr, none of {choices}."
        )
    )
    time = _Time(required=True, error_messages=_kind("a string"))


def _words(value: str) -> None:
    """A word to the table as the page, the API or a mail keeps one."""
    if not 1 <= len(value) <= talk.LONGEST or _CONTROL.search(value.replace("\n", "")):
        raise ma.ValidationError(
            f"The text of $where must be 1 to {talk.LONGEST} characters of plain text."
        )


class _TalkSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    error_messages = {"type": "Word to the table $index is not an object."}

    seq = _integer(validate=ma.validate.Range(0, 2**31 - 1, error="$where has no move seq."))
    colour = _string()
    text = _string(validate=_words)
    source = _string(
        validate=ma.validate.OneOf(
            TALK_SOURCES, error="Word to the table $index has the source $repr, none of {choices}."
        )
    )
    time = _Time(required=True, error_messages=_kind("a string"))


class _DocumentSchema(ma.Schema):
    """A `GameDocument`, field by field, in the order its faults are told."""

    class Meta:
        unknown = ma.EXCLUDE  # exported_at, seed_is_secret, warning: not read

    error_messages = {"type": _NOT_OURS}

    format = ma.fields.String(required=True, validate=_format, error_messages=_messages(_NOT_OURS))
    title = _string(
        validate=_text(
            200,
            "The title must be 1 to 200 characters on one line, with something to read and no "
            "control or direction characters (such as U+202E).",
        )
    )
    status = _string(
        validate=ma.validate.OneOf(
            IMPORTED_STATUSES, error="The status $repr is none of {choices}."
        )
    )
    options = _object()
    timing = _Policy(TimingSchema, required=True, error_messages=_kind("an object"))
    created_at = _Time(required=True, error_messages=_kind("a string"))
    finished_at = _Time(allow_none=True, error_messages=_kind("a string"))  # null while running
    admin = _string(validate=_email)
    seats = _items(_SeatSchema, "seat")
    seed = _integer(
        validate=ma.validate.Range(
            0, 2**63 - 1, error="The seed must be a whole number from 0 to 2**63 - 1."
        ),
        messages={
            "required": "The file holds no seed: the game was not finished when it was exported "
            "without --with-seed, and its decks cannot be rebuilt without it. Export it again "
            "with `pbem export GAME --with-seed`.",
        },
    )
    log = _items(_LogEntrySchema, "log entry")
    talk = ma.fields.List(
        ma.fields.Nested(_TalkSchema),
        error_messages=_kind("a list"),
        metadata={"item": "word to the table"},
    )


_DOCUMENT = _DocumentSchema()


def _refusal(
    errors: Mapping[Any, Any], data: Any, schema: ma.Schema, where: str = "", index: int = 0
) -> str:
    """The first of `errors` (what `schema` found in `data`), in the order the schema declares
    its fields, as one sentence."""
    key = next(key for key in [*schema.fields, "_schema"] if key in errors)
    found, field = errors[key], schema.fields.get(key)
    if isinstance(field, ma.fields.List) and isinstance(found, dict):  # by the item's index
        number = min(found)
        assert isinstance(field.inner, ma.fields.Nested)
        item = f"{field.metadata['item']} {number + 1}"
        return _refusal(found[number], data[key][number], field.inner.schema, item, number + 1)
    if isinstance(found, dict):  # the timing policy's own messages, naming its keys
        return f"The timing policy is not valid: {_one_line(found)}"
    value = data.get(key) if isinstance(data, dict) else data
    return string.Template(found[0]).substitute(
        key=key,
        where=where or key,
        place=f" of {where}" if where else "",
        index=index,
        value=f"{value!r:.60}",
        repr=repr(value),
    )


def _one_line(messages: Mapping[str, Any]) -> str:
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
        self.moves: list[MoveRow] = []
        self.snapshots: list[SnapshotRow] = []


def _replay(document: GameDocument) -> _Replay:
    colours = [s["colour"] for s in document["seats"]]
    try:
        first = engine.new_game(
            colours, seed=document["seed"], options=rules_options(document["options"])
        )
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
            when = _utc(entry["time"])
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
    emails = [_kept(s["email"]) for s in document["seats"]]
    admin = _kept(document["admin"])
    wanted = [*emails, admin]
    players = {
        p.email: p
        for p in db.session.execute(db.select(Player).where(Player.email.in_(wanted))).scalars()
    }
    names = {_kept(s["email"]): s["name"].strip() for s in document["seats"]}
    # Unknown emails are invited, as a new game's are; they keep the name they had there.
    for email in dict.fromkeys(e for e in wanted if e not in players):
        players[email] = newcomer(email)
        if not is_unreachable(email):  # a house bot keeps its own name
            players[email].name = names.get(email, players[email].name)
    active = status == "active"
    last_pending = engine.pending(replay.last) if active else []
    logged = bool(replay.moves)
    created_at = _utc(document["created_at"])
    finished_at = document.get("finished_at")
    ended_at = _utc(finished_at) if not active and finished_at else None
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
    )
    game.seats = [
        # A time-bank game's banks are not in its file: each seat starts again with the bank.
        Seat(
            player_id=players[email].id,
            colour=seat["colour"],
            position=i,
            bot=seat["bot"],
            bank_seconds=bank.starting_seconds(timing),
        )
        for i, (email, seat) in enumerate(zip(emails, document["seats"], strict=True))
    ]
    db.session.add(game)
    db.session.flush()
    db.session.add(Snapshot(game_id=game.id, seq=0, state=game.state))
    if active:
        db.session.add(IdleLimit(game_id=game.id, abandon_at=policy.abandon_at(timing, now)))
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
    _write_talk(document, game)
    if status == "finished":  # rated as it ends here, as a game that finished in play is
        ratings.rate_game(connection, game.id, replay.last, replay.moves[-1]["created_at"])
    if active:
        deadlines.sync(connection, game.id, timing, replay.last, now)
    return game.id


def _write_talk(document: GameDocument, game: Game) -> None:
    """The words to the table, each by its seat's holder here (as a person's moves are), and
    no mail: the players read them when they were written."""
    holders = {s.colour: s.player_id for s in game.seats}
    db.session.add_all(
        TableTalk(
            game_id=game.id,
            seq=said["seq"],
            colour=said["colour"],
            player_id=holders[said["colour"]],
            text=said["text"],
            source=said["source"],
            created_at=_utc(said["time"]),
        )
        for said in document.get("talk", [])
    )
