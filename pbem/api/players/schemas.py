import marshmallow as ma

from pbem.api.fields import Text


class PlayerCreateSchema(ma.Schema):
    email = ma.fields.Email(required=True, validate=ma.validate.Length(max=254))
    name = Text(100, required=True, metadata={"description": "How other players see you"})


class PlayerCreatedSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    email = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    api_key = ma.fields.String(
        required=True,
        metadata={"description": "Send as `Authorization: Bearer <api_key>`. Shown only once."},
    )
