import marshmallow as ma


class LiveSchema(ma.Schema):
    status = ma.fields.String(required=True)


class JobSchema(ma.Schema):
    last = ma.fields.String(allow_none=True, metadata={"description": "ISO 8601, UTC"})
    age_seconds = ma.fields.Float(allow_none=True)


class OutboxSchema(ma.Schema):
    unsent = ma.fields.Integer(metadata={"description": "mails and webhooks not yet sent"})
    oldest_age_seconds = ma.fields.Float(allow_none=True)


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"description": "ok or failing"})
    database = ma.fields.String(required=True)
    outbox = ma.fields.Nested(OutboxSchema, allow_none=True)
    sweep = ma.fields.Nested(JobSchema, allow_none=True)
    mail = ma.fields.Nested(JobSchema, allow_none=True)
    problems = ma.fields.List(ma.fields.String(), required=True)
