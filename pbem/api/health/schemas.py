import marshmallow as ma


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True)
