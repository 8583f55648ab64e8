from datetime import datetime
from typing import NotRequired, TypedDict

import marshmallow as ma

from engine.bots import LEVELS
from pbem.api.fields import Address, Flag, OutgoingUrl, Text
from pbem.game.ratings import LAST_PAGE
from pbem.languages import LANGUAGES
from pbem.store.queries import MAX_ID


class PlayerCreateSchema(ma.Schema):
    email = Address(required=True)
    name = Text(
        100, kind="name", required=True, metadata={"description": "How other players see you"}
    )


class PlayerCreate(TypedDict):
    """A `PlayerCreateSchema` as loaded."""

    email: str
    name: str


class MailChoicesSchema(ma.Schema):
    decision = Flag(metadata={"description": "A decision is yours (default on)"})
    every_move = Flag(metadata={"description": "Every batch others play (off)"})
    scoring = Flag(metadata={"description": "After each general scoring (on)"})
    game_over = Flag(metadata={"description": "The final scores (on)"})
    table_talk = Flag(metadata={"description": "Words the other players write to the table (on)"})


class PushChoicesSchema(ma.Schema):
    decision = Flag(metadata={"description": "A decision is yours (default on)"})
    table_talk = Flag(metadata={"description": "Words the other players write to the table (on)"})
    game_over = Flag(metadata={"description": "A game of yours ended (on)"})


class WebhookSchema(ma.Schema):
    game_id = ma.fields.Integer(
        required=True, strict=True, validate=ma.validate.Range(min=1, max=MAX_ID)
    )
    url = OutgoingUrl(
        "Discord's or Slack's incoming-webhook URL: https (or http where the operator allows "
        "it), to a public address, for a game you play in"
    )
    format = ma.fields.String(
        load_default="discord",
        validate=ma.validate.OneOf(("discord", "slack")),
        metadata={"description": 'discord posts {"content": ...}, slack {"text": ...}'},
    )


class PreferencesSchema(ma.Schema):
    mail = ma.fields.Nested(MailChoicesSchema)
    push = ma.fields.Nested(
        PushChoicesSchema,
        metadata={"description": "What is pushed to the browsers you subscribed"},
    )
    digest_hours = ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=0, max=168),
        metadata={
            "description": "0: every mail at once; N: all but your own decisions gathered "
            "into one mail at most every N hours"
        },
    )
    webhooks = ma.fields.List(ma.fields.Nested(WebhookSchema), validate=ma.validate.Length(max=50))
    language = ma.fields.String(
        allow_none=True,
        validate=ma.validate.OneOf(list(LANGUAGES)),
        metadata={
            "description": "Your mails' and pages' language (null: each game's, else English; "
            "pages follow the browser)"
        },
    )
    muted_games = ma.fields.List(
        ma.fields.Integer(strict=True, validate=ma.validate.Range(min=1, max=MAX_ID)),
        validate=ma.validate.Length(max=1000),
        metadata={"description": "Games that send you no mail"},
    )


#: base64url, padded or not, as browsers give a subscription's keys.
_BASE64URL = ma.validate.Regexp(r"^[A-Za-z0-9_-]+={0,2}$", error="Not base64url.")


class PushKeysSchema(ma.Schema):
    p256dh = ma.fields.String(
        required=True,
        validate=[ma.validate.Length(min=86, max=88), _BASE64URL],
        metadata={"description": "The browser's P-256 public key (65 bytes), base64url"},
    )
    auth = ma.fields.String(
        required=True,
        validate=[ma.validate.Length(min=22, max=24), _BASE64URL],
        metadata={"description": "The browser's 16-byte auth secret, base64url"},
    )


class PushKeys(TypedDict):
    p256dh: str
    auth: str


class PushSubscriptionInSchema(ma.Schema):
    """A browser's `PushSubscription.toJSON()`, as it gives it."""

    endpoint = OutgoingUrl(
        "The push service's address for this browser: https (or http where the operator "
        "allows it), at a public address"
    )
    keys = ma.fields.Nested(PushKeysSchema, required=True)
    expirationTime = ma.fields.Float(  # noqa: N815 (the browser's name for it)
        allow_none=True,
        load_default=None,
        metadata={"description": "As the browser gives it; not used"},
    )


class PushSubscriptionIn(TypedDict):
    """A `PushSubscriptionInSchema` as loaded."""

    endpoint: str
    keys: PushKeys


class PushSubscriptionSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    host = ma.fields.String(
        required=True, metadata={"description": "The push service's host (no more is shown)"}
    )
    created_at = ma.fields.AwareDateTime(required=True)


class PushSubscriptionListSchema(ma.Schema):
    subscriptions = ma.fields.List(ma.fields.Nested(PushSubscriptionSchema), required=True)


class KeyResetSchema(ma.Schema):
    email = Address(required=True)


class KeyReset(TypedDict):
    email: str


class AcceptedSchema(ma.Schema):
    detail = ma.fields.String(required=True)


class Accepted(TypedDict):
    """What was taken on, to be done by mail (the same answer whoever the address is)."""

    detail: str


class CalendarSchema(ma.Schema):
    url = ma.fields.String(
        required=True,
        metadata={
            "description": "Your private calendar feed of your deadlines (iCalendar, ends "
            "`.ics`): one event for each decision you owe, with an alarm at the game's first "
            "reminder. Add it to a calendar program as a calendar from a URL; whoever has it "
            "sees your deadlines, so keep it to yourself (POST makes a new one)"
        },
    )


class AbsenceInSchema(ma.Schema):
    starts = ma.fields.AwareDateTime(
        required=True,
        data_key="from",
        default_timezone=None,
        metadata={"description": "When you leave (ISO 8601 with a time zone)"},
    )
    ends = ma.fields.AwareDateTime(
        required=True,
        data_key="until",
        metadata={
            "description": "When you are back (ISO 8601 with a time zone), after `from`: an "
            "absence that ends when it starts is refused (422)"
        },
    )


class AbsenceIn(TypedDict):
    """An `AbsenceInSchema` as loaded (`from` and `until` by their Python names)."""

    starts: datetime
    ends: datetime


class AbsenceSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    starts = ma.fields.String(required=True, data_key="from")
    ends = ma.fields.String(required=True, data_key="until")


class AbsenceListSchema(ma.Schema):
    absences = ma.fields.List(ma.fields.Nested(AbsenceSchema), required=True)


class Absence(TypedDict):
    """An absence as shown: its bounds as ISO 8601 text."""

    id: int
    starts: str
    ends: str


class Absences(TypedDict):
    absences: list[Absence]


#: The most a page of finished games or of the standings holds.
MOST_PER_PAGE = 100


class RatingSchema(ma.Schema):
    mu = ma.fields.Float(required=True, metadata={"description": "openskill's skill estimate"})
    sigma = ma.fields.Float(required=True, metadata={"description": "How unsure it is"})
    ordinal = ma.fields.Float(
        required=True,
        metadata={"description": "The rating shown: the conservative mu - 3 sigma"},
    )
    games = ma.fields.Integer(required=True, metadata={"description": "Rated games"})
    provisional = ma.fields.Boolean(
        required=True, metadata={"description": "Fewer than 5 rated games"}
    )


class PlayerSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)
    bot = ma.fields.Boolean(required=True, metadata={"description": "A house bot (never rated)"})
    rating = ma.fields.Nested(RatingSchema, required=True)
    reliability = ma.fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "The share of their last 100 decisions answered before the "
            "deadline, 0 to 1 (null before their first)"
        },
    )
    decisions = ma.fields.Integer(
        required=True, metadata={"description": "How many decisions the reliability is over"}
    )


class PageQuerySchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    page = ma.fields.Integer(
        load_default=1,
        validate=ma.validate.Range(1, LAST_PAGE),
        metadata={"description": "Which page, from 1"},
    )
    per_page = ma.fields.Integer(
        load_default=50,
        validate=ma.validate.Range(1, MOST_PER_PAGE),
        metadata={"description": f"How many on a page (1 to {MOST_PER_PAGE}; default 50)"},
    )


class StandingsQuerySchema(PageQuerySchema):
    players = ma.fields.Integer(
        validate=ma.validate.Range(2, 5),
        metadata={
            "description": "Only people with 5 rated games of this many players (2 to 5; "
            "a two-colour game is one of 2)"
        },
    )


class PageQuery(TypedDict):
    page: int
    per_page: int


class StandingsQuery(PageQuery):
    players: NotRequired[int]


class FinishedGameSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    ended = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "ISO 8601, UTC"}
    )
    players = ma.fields.Integer(
        required=True, metadata={"description": "Its players, house bots included"}
    )
    rank = ma.fields.Integer(
        required=True, metadata={"description": "Their place, 1 first (a tie shares a place)"}
    )
    score = ma.fields.Integer(required=True, metadata={"description": "Their final score"})
    bot_finished = ma.fields.Boolean(
        required=True, metadata={"description": "A bot finished their seat"}
    )
    rated = ma.fields.Boolean(
        required=True,
        metadata={"description": "false: no other person played in it, so no rating moved"},
    )
    rating_change = ma.fields.Float(
        required=True, metadata={"description": "What it did to their ordinal"}
    )
    ordinal = ma.fields.Float(required=True, metadata={"description": "Their ordinal after it"})


class CurrentGameSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    status = ma.fields.String(required=True, metadata={"description": "forming or active"})
    colours = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "The seats they hold"}
    )


class PlayerGamesSchema(ma.Schema):
    finished = ma.fields.List(
        ma.fields.Nested(FinishedGameSchema),
        required=True,
        metadata={"description": "A page of them, the last ended first"},
    )
    current = ma.fields.List(ma.fields.Nested(CurrentGameSchema), required=True)
    more = ma.fields.Boolean(
        required=True, metadata={"description": "More finished games are on the next page"}
    )


class StandingSchema(ma.Schema):
    place = ma.fields.Integer(required=True)
    id = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)
    rating = ma.fields.Nested(RatingSchema, required=True)


class StandingsSchema(ma.Schema):
    players = ma.fields.List(
        ma.fields.Nested(StandingSchema),
        required=True,
        metadata={"description": "The best rating (ordinal) first"},
    )
    more = ma.fields.Boolean(required=True, metadata={"description": "More are on the next page"})


class HouseBotSchema(ma.Schema):
    level = ma.fields.String(
        required=True,
        validate=ma.validate.OneOf(list(LEVELS)),
        metadata={"description": "The house bot's level, as a game's seat names it"},
    )
    rating = ma.fields.Nested(
        RatingSchema,
        required=True,
        metadata={
            "description": "From its rated games against people (the model's prior before "
            "the first): `games` counts them"
        },
    )


class HouseBotsSchema(ma.Schema):
    house_bots = ma.fields.List(
        ma.fields.Nested(HouseBotSchema),
        required=True,
        metadata={"description": "Every level, the weakest first"},
    )


class BlockedSchema(ma.Schema):
    player_id = ma.fields.Integer(required=True, metadata={"description": "Whom you block"})
    name = ma.fields.String(required=True)
    since = ma.fields.DateTime(required=True)


class BlocksSchema(ma.Schema):
    blocks = ma.fields.List(ma.fields.Nested(BlockedSchema), required=True)
