import marshmallow as ma

from pbem.api.fields import Address, Flag, Text
from pbem.languages import LANGUAGES
from pbem.store.queries import MAX_ID


class PlayerCreateSchema(ma.Schema):
    email = Address(required=True)
    name = Text(100, required=True, metadata={"description": "How other players see you"})


class MailChoicesSchema(ma.Schema):
    decision = Flag(metadata={"description": "A decision is yours (default on)"})
    every_move = Flag(metadata={"description": "Every batch others play (off)"})
    scoring = Flag(metadata={"description": "After each general scoring (on)"})
    game_over = Flag(metadata={"description": "The final scores (on)"})
    table_talk = Flag(metadata={"description": "Words the other players write to the table (on)"})


class WebhookSchema(ma.Schema):
    game_id = ma.fields.Integer(
        required=True, strict=True, validate=ma.validate.Range(min=1, max=MAX_ID)
    )
    url = ma.fields.URL(
        required=True,
        schemes={"http", "https"},
        require_tld=False,
        validate=[ma.validate.Length(min=1, max=2000), ma.validate.Regexp(r"^https?://\S+$")],
        metadata={
            "description": "Discord's or Slack's incoming-webhook URL: https (or http where "
            "the operator allows it), to a public address, for a game you play in"
        },
    )
    format = ma.fields.String(
        load_default="discord",
        validate=ma.validate.OneOf(("discord", "slack")),
        metadata={"description": 'discord posts {"content": ...}, slack {"text": ...}'},
    )


class PreferencesSchema(ma.Schema):
    mail = ma.fields.Nested(MailChoicesSchema)
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


class KeyResetSchema(ma.Schema):
    email = Address(required=True)


class AcceptedSchema(ma.Schema):
    detail = ma.fields.String(required=True)


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


class AbsenceSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    starts = ma.fields.String(required=True, data_key="from")
    ends = ma.fields.String(required=True, data_key="until")


class AbsenceListSchema(ma.Schema):
    absences = ma.fields.List(ma.fields.Nested(AbsenceSchema), required=True)
