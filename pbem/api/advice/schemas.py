import marshmallow as ma

from pbem.api.typed import Typed


class HintMoveSchema(ma.Schema):
    move = Typed("Move", required=True)
    value = ma.fields.Float(
        required=True,
        metadata={
            "description": "What the search expects of it: your points against your rivals' "
            "(the best of theirs weighs most) where the round's end left its playouts"
        },
    )
    text = ma.fields.String(required=True, metadata={"description": "The move in words"})
    playouts = ma.fields.Integer(
        required=True, metadata={"description": "Deals of what you cannot see it was played in"}
    )


class HintSchema(ma.Schema):
    colour = ma.fields.String(required=True)
    seq = ma.fields.Integer(required=True, metadata={"description": "The decision's position"})
    answered = ma.fields.Boolean(required=True)
    moved_on = ma.fields.Boolean(
        required=True,
        metadata={"description": "The seat decided before the hint was worked out"},
    )
    moves = ma.fields.List(
        ma.fields.Nested(HintMoveSchema),
        required=True,
        metadata={"description": "Best first; empty while it is worked out"},
    )
    lines = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "The hint in words"}
    )
    detail = ma.fields.String(required=True, metadata={"description": "What it is, or when"})


class FlaggedSchema(ma.Schema):
    seq = ma.fields.Integer(
        required=True, metadata={"description": "Moves played before the decision: the replay"}
    )
    round_number = ma.fields.Integer(required=True)
    played = Typed("Move", required=True)
    better = Typed("Move", required=True)
    played_value = ma.fields.Float(required=True)
    better_value = ma.fields.Float(required=True)
    at_stake = ma.fields.Float(
        required=True, metadata={"description": "better_value - played_value, in points"}
    )
    text = ma.fields.String(required=True)


class SeatReviewSchema(ma.Schema):
    colour = ma.fields.String(required=True)
    reviewed = ma.fields.Integer(required=True, metadata={"description": "Decisions looked at"})
    decisions = ma.fields.Integer(
        required=True, metadata={"description": "Decisions of the kinds reviewed"}
    )
    summary = ma.fields.String(required=True)
    flagged = ma.fields.List(ma.fields.Nested(FlaggedSchema), required=True)


class ReviewSchema(ma.Schema):
    done = ma.fields.Boolean(required=True)
    playouts = ma.fields.Integer(
        required=True, metadata={"description": "Deals each candidate was played in"}
    )
    cpu_seconds = ma.fields.Float(required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatReviewSchema), required=True)
    detail = ma.fields.String(required=True)


class LessonSchema(ma.Schema):
    kind = ma.fields.String(
        required=True,
        metadata={
            "description": "power_card, court, action_card, placing, special_action, king, "
            "castillo, secret_disk, veto or scoring"
        },
    )
    title = ma.fields.String(required=True)
    paragraphs = ma.fields.List(ma.fields.String(), required=True)
    scores = ma.fields.List(
        ma.fields.String(),
        required=True,
        metadata={"description": "The scoring lesson's breakdown of the first scoring, else []"},
    )


class LessonsSchema(ma.Schema):
    lessons = ma.fields.List(
        ma.fields.Nested(LessonSchema),
        required=True,
        metadata={"description": "In the order they are shown; empty when nothing is due"},
    )
