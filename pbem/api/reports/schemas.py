import marshmallow as ma

from pbem.play import moderation
from pbem.store.queries import MAX_ID


class ReportInSchema(ma.Schema):
    kind = ma.fields.String(
        required=True,
        validate=ma.validate.OneOf(moderation.KINDS),
        metadata={"description": "talk (a word to the table), name (a player's) or title"},
    )
    id = ma.fields.Integer(
        required=True,
        strict=True,
        validate=ma.validate.Range(min=1, max=MAX_ID),
        metadata={"description": "The message's id, the player's id, or the game's id"},
    )
    reason = ma.fields.String(
        load_default="",
        validate=ma.validate.Length(max=moderation.LONGEST_REASON),
        metadata={"description": "Why, in your words (the moderators read it)"},
    )


class ReportSchema(ma.Schema):
    id = ma.fields.Integer(required=True, metadata={"description": "The report's number"})
    detail = ma.fields.String(required=True, metadata={"description": "What happens next"})
