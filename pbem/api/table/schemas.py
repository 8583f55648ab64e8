from typing import NotRequired, TypedDict

import marshmallow as ma

from pbem.api.games.schemas import COLOURS
from pbem.game.table import MOST_PER_PAGE, Message
from pbem.play import notes, talk
from pbem.store.queries import MAX_ID


class MessageInSchema(ma.Schema):
    text = ma.fields.String(
        required=True,
        validate=ma.validate.Length(
            min=1,
            max=talk.LONGEST,
            error=f"A message is 1 to {talk.LONGEST} characters; shorten it, or say it in two.",
        ),
        metadata={
            "description": f"Plain text, at most {talk.LONGEST} characters and "
            f"{talk.MOST_LINES} lines (the blank around it is trimmed)"
        },
    )
    colour = ma.fields.String(
        validate=ma.validate.OneOf(COLOURS),
        metadata={"description": "Which of your colours writes (needed when you hold two)"},
    )


class MessageIn(TypedDict):
    text: str
    colour: NotRequired[str]


class MessageSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    seq = ma.fields.Integer(
        required=True, metadata={"description": "The game's seq when it was written"}
    )
    colour = ma.fields.String(required=True, metadata={"description": "The writer's colour"})
    name = ma.fields.String(required=True, metadata={"description": "The writer's name"})
    text = ma.fields.String(required=True, metadata={"description": "As written: plain text"})
    source = ma.fields.String(required=True, metadata={"description": "web, api or email"})
    created_at = ma.fields.DateTime(required=True)


class MessagesQuerySchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    after = ma.fields.Integer(
        load_default=0,
        validate=ma.validate.Range(0, MAX_ID),
        metadata={"description": "Only those after the message with this id (default: 0)"},
    )
    limit = ma.fields.Integer(
        load_default=100,
        validate=ma.validate.Range(1, MOST_PER_PAGE),
        metadata={"description": f"At most this many (1 to {MOST_PER_PAGE}; default 100)"},
    )


class MessagesQuery(TypedDict):
    after: int
    limit: int


class Messages(TypedDict):
    """A page of the table's words, and whether more follow."""

    messages: list[Message]
    more: bool


class MessagesSchema(ma.Schema):
    messages = ma.fields.List(
        ma.fields.Nested(MessageSchema), required=True, metadata={"description": "Oldest first"}
    )
    more = ma.fields.Boolean(
        required=True,
        metadata={"description": "More follow: ask again with `after` the last one's id"},
    )


class NotesInSchema(ma.Schema):
    text = ma.fields.String(
        required=True,
        validate=ma.validate.Length(
            max=notes.LONGEST,
            error=f"Notes hold at most {notes.LONGEST} characters; shorten them.",
        ),
        metadata={"description": "Your notes, replacing what you kept (empty: none)"},
    )


class NotesIn(TypedDict):
    text: str


class NotesSchema(ma.Schema):
    text = ma.fields.String(required=True, metadata={"description": "Empty until you write"})
    updated_at = ma.fields.DateTime(
        required=True, allow_none=True, metadata={"description": "null until you write"}
    )


class MutesSchema(ma.Schema):
    muted = ma.fields.List(
        ma.fields.String(),
        required=True,
        metadata={"description": "The colours whose words to this table you do not read"},
    )
