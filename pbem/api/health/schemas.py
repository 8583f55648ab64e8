import marshmallow as ma


class LiveSchema(ma.Schema):
    status = ma.fields.String(required=True)


class JobSchema(ma.Schema):
    last = ma.fields.String(allow_none=True, metadata={"description": "ISO 8601, UTC"})
    age_seconds = ma.fields.Float(allow_none=True)


class OutboxSchema(ma.Schema):
    unsent = ma.fields.Integer(metadata={"description": "mails and webhooks not yet sent"})
    oldest_age_seconds = ma.fields.Float(allow_none=True)
    overdue = ma.fields.Integer(
        metadata={"description": "rows due longer than the stale limit, or stuck sending"}
    )
    retrying = ma.fields.Integer(metadata={"description": "rows to be tried again after a failure"})
    failed_last_day = ma.fields.Integer(
        metadata={"description": "rows that failed for good in the last day (each its own)"}
    )


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"description": "ok or failing"})
    database = ma.fields.String(required=True)
    outbox = ma.fields.Nested(OutboxSchema, allow_none=True)
    sweep = ma.fields.Nested(JobSchema, allow_none=True)
    mail = ma.fields.Nested(JobSchema, allow_none=True)
    problems = ma.fields.List(ma.fields.String(), required=True)
