from typing import Any, TypedDict

import marshmallow as ma

from engine.bots import LEVELS
from pbem.api.fields import Address, Flag, Text
from pbem.languages import LANGUAGES
from pbem.timing.schemas import TimingSchema

#: Seat colours, in the words of elgrande.md.
COLOURS = ("red", "yellow", "green", "blue", "brown")


#: A seat a house bot plays: `"bot": true`.
_BOT_SEAT: dict[str, Any] = {"required": ["bot"], "properties": {"bot": {"enum": [True]}}}
#: A seat anyone may join while the game forms: `"open": true`.
_OPEN_SEAT: dict[str, Any] = {"required": ["open"], "properties": {"open": {"enum": [True]}}}


class SeatInSchema(ma.Schema):
    email = Address(
        metadata={"description": "The seat's player (invited if they have no account)"},
    )
    bot = Flag(
        metadata={
            "description": "true instead of an email: a house bot plays the seat (a seat "
            "has an email or this, not both)"
        }
    )
    open = Flag(
        metadata={
            "description": "true instead of an email: anyone may join the seat while the game "
            'forms (with "forming": true)'
        }
    )
    level = ma.fields.String(
        validate=ma.validate.OneOf(list(LEVELS)),
        metadata={
            "description": "With bot: how well the house bot plays ("
            + ", ".join(LEVELS)
            + "); left out, the game's timing.takeover_bot"
        },
    )
    name = Text(
        100,
        kind="name",
        metadata={
            "description": "With an email: the name the table sees for someone who has no "
            "account yet (they may choose another); one who has an account keeps their own"
        },
    )
    colour = ma.fields.String(required=True, validate=ma.validate.OneOf(COLOURS))

    # One of an email, "bot": true or "open": true, never two or none (play.lifecycle refuses
    # the rest). Said as one `not` beside the properties (not a `oneOf` of shapes, nor an
    # `anyOf`, which generated clients turn into unions or refuse), so a client still has one
    # SeatIn class.
    OPENAPI_RULES = {
        "not": {
            "anyOf": [
                {**_BOT_SEAT, "required": ["email", "bot"]},
                {**_OPEN_SEAT, "required": ["email", "open"]},
                {
                    "required": ["bot", "open"],
                    "properties": {**_BOT_SEAT["properties"], **_OPEN_SEAT["properties"]},
                },
                {"not": {"anyOf": [{"required": ["email"]}, _BOT_SEAT, _OPEN_SEAT]}},
            ]
        }
    }


class GameOptionsSchema(ma.Schema):
    rounds = ma.fields.Integer(validate=ma.validate.OneOf((9, 6)))
    variant = ma.fields.String(validate=ma.validate.OneOf(("standard", "two_colour")))
    first_player = ma.fields.String(validate=ma.validate.OneOf(COLOURS))
    hints = ma.fields.Boolean(
        metadata={
            "description": "Its players may ask the strong bot for a hint "
            "(`GET /api/games/{id}/hint`); a game with hints is never rated"
        }
    )
    learn = ma.fields.Boolean(
        metadata={
            "description": "A game that teaches: each new kind of decision is explained the "
            "first time a seat meets it, on the page and in the decision mail, and the first "
            "scoring is walked through; never rated"
        }
    )


class JoinMinimumsSchema(ma.Schema):
    min_reliability = ma.fields.Float(
        validate=ma.validate.Range(min=0, max=1),
        metadata={
            "description": "The share of their last 100 decisions a player must have answered "
            "in time to take an open seat (0 to 1)"
        },
    )
    min_rating = ma.fields.Float(
        validate=ma.validate.Range(min=-50, max=100),
        metadata={"description": "The shown rating (mu - 3 sigma) a player must have"},
    )


class GameCreateSchema(ma.Schema):
    title = Text(200, kind="title", required=True)
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
    join = ma.fields.Nested(
        JoinMinimumsSchema,
        load_default=dict,
        metadata={"description": "What a player must have to join one of its open seats"},
    )
    forming = Flag(
        load_default=False,
        metadata={
            "description": "true: the game forms first (status forming, no deadlines) and "
            "begins once every seat is taken and accepted, or its admin starts it"
        },
    )
    language = ma.fields.String(
        load_default=None,
        allow_none=True,
        validate=ma.validate.OneOf(list(LANGUAGES)),
        metadata={
            "description": "The language of its mails for a player who chose none (null: English)"
        },
    )


class SeatOutSchema(ma.Schema):
    colour = ma.fields.String(required=True)
    player_id = ma.fields.Integer(
        required=True,
        metadata={"description": "Its holder: GET /api/players/{player_id} for their rating"},
    )
    name = ma.fields.String(required=True)
    invited = ma.fields.Boolean(
        metadata={"description": "Its holder was invited by email and has no API key yet"}
    )
    declined = ma.fields.Boolean(
        metadata={"description": "Its holder declined it: the admin should give it on"}
    )
    bot = ma.fields.Boolean(metadata={"description": "A bot plays it (for now)"})
    open = ma.fields.Boolean(
        metadata={"description": "Only while the game forms: anyone may join it"}
    )
    accepted = ma.fields.Boolean(
        metadata={"description": "Only while the game forms: its holder has accepted it"}
    )


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


class ViewerColour(TypedDict, total=False):
    """A `ViewerColourSchema` as loaded: `colour` only when asked for."""

    colour: str


class SeatChangeSchema(ma.Schema):
    email = Address(
        required=True,
        metadata={"description": "Who takes the seat over (invited by mail if not registered)"},
    )


class SeatChange(TypedDict):
    email: str


class SeatBotSchema(ma.Schema):
    bot = Flag(
        required=True,
        metadata={"description": "true: a bot plays your seat; false: you take it back"},
    )


class SeatBot(TypedDict):
    bot: bool


class OrdersInSchema(ma.Schema):
    """A seat's orders given in advance; a part left out stays as it is."""

    power_cards = ma.fields.List(
        ma.fields.Integer(strict=True, validate=ma.validate.Range(min=1, max=13)),
        validate=ma.validate.Length(max=13),
        metadata={
            "description": "Power cards in the order you want them: at your next power card the "
            "first still in your hand and not played this round is played at once; [] cancels"
        },
    )
    veto = ma.fields.String(
        validate=ma.validate.OneOf(("allow", "ask")),
        metadata={
            "description": "allow: every Veto window offered to you this round is answered "
            "allow at once; ask (the default): you are asked"
        },
    )


class OrdersSchema(ma.Schema):
    """Your seat's orders as they stand (no one else may read them)."""

    colour = ma.fields.String(required=True)
    power_cards = ma.fields.List(ma.fields.Integer(), required=True)
    veto = ma.fields.String(required=True, validate=ma.validate.OneOf(("allow", "ask")))
    played = ma.fields.List(
        ma.fields.String(),
        required=True,
        metadata={"description": "What your orders played at once, in the notation"},
    )
    seq = ma.fields.Integer(required=True, metadata={"description": "The game's seq now"})


class SeatClockSchema(ma.Schema):
    """A seat's time bank in a time-bank game (`GameView.clock`)."""

    bank_seconds = ma.fields.Integer(
        required=True,
        metadata={
            "description": "Seconds in the seat's bank: as of running_since while a decision "
            "of the seat's is open (its clock runs down from then, stopped by quiet days and "
            "absences), else as it stands"
        },
    )
    running_since = ma.fields.DateTime(
        allow_none=True,
        metadata={"description": "When the seat's clock started; absent while none is open"},
    )
