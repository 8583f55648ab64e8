from typing import Any, NotRequired, TypedDict

import marshmallow as ma

import engine
from pbem.api.fields import Flag, no_control_characters
from pbem.api.games.schemas import COLOURS
from pbem.api.typed import Typed

#: A batch bigger than this is not a turn: the longest turn is a few dozen atomic moves.
MAX_BATCH = 200


class MovesInSchema(ma.Schema):
    expected_seq = ma.fields.Integer(
        required=True,
        strict=True,
        validate=ma.validate.Range(min=0, max=2**31 - 1),
        metadata={"description": "The game's seq you last saw; a stale one gets 409"},
    )
    moves = ma.fields.List(
        Typed("Move"),
        required=True,
        validate=ma.validate.Length(min=1, max=MAX_BATCH),
        metadata={"description": 'Atomic moves, e.g. [{"type": "play_power_card", "card": 9}]'},
    )
    # No `load_default`: the spec would then call the field's default a value every body
    # has, and clients generated from it (openapi-typescript) would require it.
    dry_run = Flag(metadata={"description": "Show the result, commit nothing (default false)"})
    colour = ma.fields.String(
        validate=ma.validate.OneOf(COLOURS),
        metadata={
            "description": "Which of your colours plays (needed only in a two-colour game "
            "when both or neither of your colours must act now)"
        },
    )

    @ma.post_load
    def _not_a_dry_run_unless_asked(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {"dry_run": False, **data}


class MovesIn(TypedDict):
    """A `MovesInSchema` as loaded: the moves checked against the engine's types."""

    expected_seq: int
    moves: list[engine.Move]
    dry_run: bool
    colour: NotRequired[str]


class IdempotencyHeaderSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    idempotency_key = ma.fields.String(
        data_key="Idempotency-Key",
        validate=[ma.validate.Length(min=1, max=200), no_control_characters],
        metadata={"description": "Repeat it to get the first answer again, not a second play"},
    )


class IdempotencyHeader(TypedDict, total=False):
    idempotency_key: str


class MoveResultSchema(ma.Schema):
    seq = ma.fields.Integer(required=True)
    events = ma.fields.List(Typed("Event"), required=True)
    view = Typed("GameView", required=True)
    dry_run = ma.fields.Boolean()
    withheld = ma.fields.String(
        metadata={"description": "Why a dry run's result is not shown (it would reveal a secret)"}
    )


class LegalMovesSchema(ma.Schema):
    seq = ma.fields.Integer(required=True)
    colour = ma.fields.String(required=True, metadata={"description": "The seat they are for"})
    moves = ma.fields.List(Typed("Move"), required=True)


class LogEntrySchema(ma.Schema):
    seq = ma.fields.Integer(required=True)
    player = ma.fields.String(required=True, metadata={"description": "The seat's colour"})
    move = ma.fields.Dict(required=True)
    events = ma.fields.List(
        Typed("Event"), required=True, metadata={"description": "What the move made happen"}
    )
    source = ma.fields.String(required=True)
    time = ma.fields.String(required=True)
    hidden = ma.fields.Boolean(metadata={"description": "Part of the move is secret to you"})


class LogSchema(ma.Schema):
    seq = ma.fields.Integer(required=True)
    moves = ma.fields.List(ma.fields.Nested(LogEntrySchema), required=True)


class RecordMoveSchema(ma.Schema):
    seq = ma.fields.Integer(required=True)
    player = ma.fields.String(required=True)
    move = ma.fields.Dict(required=True)
    source = ma.fields.String(required=True)


class RecordSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    colours = ma.fields.List(ma.fields.String(), required=True)
    seed = ma.fields.Integer(required=True)
    options = ma.fields.Dict(required=True)
    seats = ma.fields.List(ma.fields.Dict(), required=True)
    moves = ma.fields.List(ma.fields.Nested(RecordMoveSchema), required=True)
    scores = ma.fields.Dict(required=True)
