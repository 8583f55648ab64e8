import marshmallow as ma

from pbem.play import tournaments

FORMATS = ("swiss", "groups", "heats")


class TournamentEntrySchema(ma.Schema):
    most = ma.fields.Integer(
        strict=True,
        validate=ma.validate.Range(min=3, max=tournaments.MOST_ENTRANTS),
        metadata={"description": "How many may enter (the tournament starts once full)"},
    )
    min_reliability = ma.fields.Float(
        validate=ma.validate.Range(min=0, max=1),
        metadata={"description": "The share of decisions an entrant must answer in time"},
    )
    min_rating = ma.fields.Float(
        validate=ma.validate.Range(min=-100, max=100),
        metadata={"description": "The shown rating (ordinal) an entrant must have"},
    )
    invited = ma.fields.List(
        ma.fields.Email(),
        validate=ma.validate.Length(max=tournaments.MOST_ENTRANTS),
        metadata={"description": "Only these addresses may enter (empty: anyone)"},
    )


class TournamentInSchema(ma.Schema):
    title = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=200))
    format = ma.fields.String(
        load_default="swiss",
        validate=ma.validate.OneOf(FORMATS),
        metadata={"description": "swiss (by boards), groups (pools), heats (to a final)"},
    )
    table_size = ma.fields.Integer(
        strict=True, load_default=4, validate=ma.validate.Range(min=3, max=5)
    )
    rounds = ma.fields.Integer(
        strict=True, load_default=3, validate=ma.validate.Range(min=1, max=tournaments.MOST_ROUNDS)
    )
    options = ma.fields.Dict(
        load_default=dict, metadata={"description": "The games' rules options, as a game's"}
    )
    timing = ma.fields.Dict(
        load_default=dict, metadata={"description": "The games' timing, as a game's"}
    )
    entry = ma.fields.Nested(TournamentEntrySchema, load_default=dict)
    round_days = ma.fields.Integer(
        strict=True,
        load_default=21,
        validate=ma.validate.Range(min=1, max=90),
        metadata={"description": "Days a round has before the next opens anyway"},
    )
    starts_at = ma.fields.AwareDateTime(
        load_default=None,
        allow_none=True,
        metadata={"description": "When it starts by itself (none: when full or started)"},
    )


class CreatedSchema(ma.Schema):
    id = ma.fields.Integer(required=True)


class EnteredSchema(ma.Schema):
    entrants = ma.fields.Integer(required=True, metadata={"description": "How many now"})


class TournamentResultSchema(ma.Schema):
    round = ma.fields.Integer(required=True)
    points = ma.fields.Float(required=True)
    share = ma.fields.Float(required=True)


class TournamentStandingSchema(ma.Schema):
    place = ma.fields.Integer(required=True)
    player_id = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True)
    points = ma.fields.Float(required=True)
    tiebreak = ma.fields.Float(required=True)
    games = ma.fields.Integer(required=True)
    reached = ma.fields.Integer(required=True)
    skipped = ma.fields.String(allow_none=True, required=True)
    rating_at_entry = ma.fields.Float(required=True)
    rounds = ma.fields.List(ma.fields.Nested(TournamentResultSchema), required=True)


class TournamentTableSchema(ma.Schema):
    table = ma.fields.Integer(required=True)
    game_id = ma.fields.Integer(required=True)
    players = ma.fields.List(ma.fields.Integer(), required=True)
    names = ma.fields.List(ma.fields.String(), required=True)
    status = ma.fields.String(required=True)
    scores = ma.fields.List(ma.fields.Integer(), allow_none=True, required=True)
    points = ma.fields.List(ma.fields.Float(), allow_none=True, required=True)


class TournamentRoundSchema(ma.Schema):
    number = ma.fields.Integer(required=True)
    tables = ma.fields.List(ma.fields.Nested(TournamentTableSchema), required=True)
    byes = ma.fields.List(ma.fields.Integer(), required=True)


class TournamentSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    organiser_id = ma.fields.Integer(required=True)
    format = ma.fields.String(required=True)
    explained = ma.fields.String(required=True)
    table_size = ma.fields.Integer(required=True)
    rounds_total = ma.fields.Integer(required=True)
    round = ma.fields.Integer(required=True, metadata={"description": "The round under way"})
    status = ma.fields.String(required=True, metadata={"description": "open, running, finished"})
    round_due_at = ma.fields.DateTime(allow_none=True, required=True)
    starts_at = ma.fields.DateTime(allow_none=True, required=True)
    entry = ma.fields.Dict(required=True)
    entrants = ma.fields.Integer(required=True)
    options = ma.fields.Dict(required=True)
    formula = ma.fields.String(required=True)
    rounds = ma.fields.List(ma.fields.Nested(TournamentRoundSchema), required=True)
    standings = ma.fields.List(ma.fields.Nested(TournamentStandingSchema), required=True)


class TournamentListedSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    title = ma.fields.String(required=True)
    format = ma.fields.String(required=True)
    status = ma.fields.String(required=True)
    table_size = ma.fields.Integer(required=True)
    rounds = ma.fields.Integer(required=True)
    current_round = ma.fields.Integer(required=True)


class TournamentsSchema(ma.Schema):
    tournaments = ma.fields.List(ma.fields.Nested(TournamentListedSchema), required=True)
