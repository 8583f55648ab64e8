import marshmallow as ma

from pbem.api.fields import Text
from pbem.schedule.policy import WEEKDAYS

#: Seat colours, in the words of elgrande.md.
COLOURS = ("red", "yellow", "green", "blue", "brown")


class SeatInSchema(ma.Schema):
    email = ma.fields.Email(
        validate=ma.validate.Length(max=254),
        metadata={"description": "The seat's player (invited if they have no account)"},
    )
    bot = ma.fields.Boolean(
        metadata={
            "description": "true instead of an email: a house bot plays the seat (a seat "
            "has an email or this, not both)"
        }
    )
    colour = ma.fields.String(required=True, validate=ma.validate.OneOf(COLOURS))


class GameOptionsSchema(ma.Schema):
    rounds = ma.fields.Integer(validate=ma.validate.OneOf((9, 6)))
    variant = ma.fields.String(validate=ma.validate.OneOf(("standard", "two_colour")))
    first_player = ma.fields.String(validate=ma.validate.OneOf(COLOURS))


def _hours(what: str) -> ma.fields.Integer:
    return ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=1, max=24 * 60),
        metadata={"description": f"Hours {what} may wait before the server plays for it"},
    )


class TimingSchema(ma.Schema):
    """The game's timing policy; what is left out takes the documented default."""

    power_card_hours = _hours("a power card (default 48)")
    turn_hours = _hours("a turn (default 72)")
    pick_hours = _hours("a secret pick or a King-rages return (default 48)")
    veto_hours = _hours("a Veto window (default 24; silence is allow)")
    reminders = ma.fields.List(
        ma.fields.Integer(strict=True, validate=ma.validate.Range(min=1, max=24 * 60)),
        validate=ma.validate.Length(max=5),
        metadata={"description": "Reminders, as hours before the deadline (default [24, 4])"},
    )
    quiet_days = ma.fields.List(
        ma.fields.String(validate=ma.validate.OneOf(WEEKDAYS)),
        validate=ma.validate.Length(max=6),
        metadata={"description": "Weekdays no deadline falls on: it moves on a day"},
    )
    on_timeout = ma.fields.String(
        validate=ma.validate.OneOf(("default_move", "bot")),
        metadata={"description": "What a timeout plays: the engine's default move, or a bot's"},
    )
    bot_after_timeouts = ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=1, max=100),
        metadata={"description": "Timeouts in a row after which a bot takes the seat (3)"},
    )
    abandon_after_days = ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=1, max=365),
        metadata={"description": "Days with no person's move before the game is abandoned"},
    )
    vacation_days = ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=0, max=90),
        metadata={"description": "Days of absence per player that push deadlines (14)"},
    )


class GameCreateSchema(ma.Schema):
    title = Text(200, required=True)
    seats = ma.fields.List(
        ma.fields.Nested(SeatInSchema),
        required=True,
        validate=ma.validate.Length(min=2, max=5),
        metadata={
            "description": "In seat order; the caller must be one of them. An email with no "
            "account is invited: its first mail lets it claim an API key, or decline."
        },
    )
    options = ma.fields.Nested(GameOptionsSchema, load_default=dict)
    timing = ma.fields.Nested(TimingSchema, load_default=dict)


class SeatOutSchema(ma.Schema):
    colour = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    invited = ma.fields.Boolean(
        metadata={"description": "Its holder was invited by email and has no API key yet"}
    )
    declined = ma.fields.Boolean(
        metadata={"description": "Its holder declined it: the admin should give it on"}
    )
    bot = ma.fields.Boolean(metadata={"description": "A bot plays it (for now)"})


class GameSummarySchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    status = ma.fields.String(required=True, metadata={"description": "active, finished, aborted"})
    seq = ma.fields.Integer(required=True)
    colour = ma.fields.String(
        allow_none=True,
        metadata={"description": "Your seat's colour; null if you hold none or two"},
    )
    colours = ma.fields.List(
        ma.fields.String(),
        required=True,
        metadata={"description": "Your seats' colours in seat order (two in a two-colour game)"},
    )
    admin = ma.fields.Boolean(required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatOutSchema), required=True)
    to_move = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "Colours that must act now"}
    )
    your_turn = ma.fields.Boolean(
        required=True, metadata={"description": "Whether any of your colours must act now"}
    )
    options = ma.fields.Dict(required=True)


class GameListSchema(ma.Schema):
    games = ma.fields.List(ma.fields.Nested(GameSummarySchema), required=True)


class GameViewSchema(ma.Schema):
    """The engine's view for the caller, with the game's id, title, seq and status added."""

    class Meta:
        unknown = ma.INCLUDE

    id = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    seq = ma.fields.Integer(required=True)
    status = ma.fields.String(required=True)
    viewer = ma.fields.String(
        allow_none=True,
        metadata={"description": "The colour this view is for; null for the public view"},
    )
    round = ma.fields.Integer()
    rounds_total = ma.fields.Integer()
    phase = ma.fields.Raw()
    players = ma.fields.Dict()
    pending = ma.fields.List(ma.fields.Dict())


class ViewerColourSchema(ma.Schema):
    """`?colour=`: which of your colours to see or act as, when you hold two."""

    class Meta:
        unknown = ma.EXCLUDE

    colour = ma.fields.String(
        validate=ma.validate.OneOf(COLOURS),
        metadata={
            "description": "One of your own colours (two-colour games; default: your colour "
            "that must act now, else your first)"
        },
    )


class SeatChangeSchema(ma.Schema):
    email = ma.fields.Email(
        required=True,
        validate=ma.validate.Length(max=254),
        metadata={"description": "Who takes the seat over (invited by mail if not registered)"},
    )


class SeatBotSchema(ma.Schema):
    bot = ma.fields.Boolean(
        required=True,
        metadata={"description": "true: a bot plays your seat; false: you take it back"},
    )
