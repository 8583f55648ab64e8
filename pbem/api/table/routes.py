"""The table beside the board: the players' words to it, and each player's private notes.

Both are for the game's seats alone (403 to anyone else): the words to the table were
written to the players, as the mails that pass them on go to the players."""

from flask import Response, jsonify

from pbem.api.auth import KEY_REQUIRED, api_key_hash
from pbem.api.safe_json import Blueprint
from pbem.api.table.schemas import (
    MessageIn,
    MessageInSchema,
    Messages,
    MessageSchema,
    MessagesQuery,
    MessagesQuerySchema,
    MessagesSchema,
    MutesSchema,
    NotesIn,
    NotesInSchema,
    NotesSchema,
)
from pbem.game import table
from pbem.game.seating import Actor
from pbem.play import apart, notes, talk

blp = Blueprint(
    "table", __name__, url_prefix="/api/games/<int:game_id>", description="Table talk and notes"
)

_FORBIDDEN = {"description": "You hold no seat in this game, or not that colour"}


@blp.route("/messages", methods=["GET"])
@blp.arguments(MessagesQuerySchema(), location="query")
@blp.response(200, MessagesSchema)
@blp.alt_response(403, response="FORBIDDEN", description=_FORBIDDEN["description"])
@blp.doc(security=KEY_REQUIRED)
def messages(query: MessagesQuery, game_id: int) -> Messages:
    """The words the players wrote to the table (on the page, through the API, or in a mail
    reply), oldest first; for the game's players alone."""
    found, more = table.read_messages(
        Actor.by_key(api_key_hash()), game_id, after=query["after"], limit=query["limit"]
    )
    return {"messages": found, "more": more}  # the schema reads each Message's fields


@blp.route("/messages", methods=["POST"])
@blp.arguments(MessageInSchema())
@blp.response(201, MessageSchema)
@blp.alt_response(403, response="FORBIDDEN", description=_FORBIDDEN["description"])
@blp.alt_response(409, response="CONFLICT", description="The game was aborted or abandoned")
@blp.alt_response(
    429,
    response="TOO_MANY_REQUESTS",
    description=f"More than {talk.MOST_PER_WINDOW} messages in a minute: try again after "
    "`Retry-After` seconds",
)
@blp.doc(security=KEY_REQUIRED)
def write(data: MessageIn, game_id: int) -> Response:
    """Write to the table as your seat: kept in the game's record, shown on its page and
    passed on by mail to the other players (as their preferences say). Plain text; a person
    holding two colours names the one that writes."""
    message = talk.write(
        Actor.by_key(api_key_hash()),
        game_id,
        data["text"],
        colour=data.get("colour"),
        source="api",
    )
    response = jsonify(MessageSchema().dump(message))
    response.status_code = 201
    return response


@blp.route("/notes", methods=["GET"])
@blp.response(200, NotesSchema)
@blp.alt_response(403, response="FORBIDDEN", description="You hold no seat in this game")
@blp.doc(security=KEY_REQUIRED)
def read_notes(game_id: int) -> table.Notes:
    """Your private notes on the game: nobody else ever sees them."""
    return table.read_notes(Actor.by_key(api_key_hash()), game_id)


@blp.route("/notes", methods=["PUT"])
@blp.arguments(NotesInSchema())
@blp.response(200, NotesSchema)
@blp.alt_response(403, response="FORBIDDEN", description="You hold no seat in this game")
@blp.doc(security=KEY_REQUIRED)
def keep_notes(data: NotesIn, game_id: int) -> table.Notes:
    """Replace your private notes on the game (empty text clears them)."""
    kept = notes.keep(Actor.by_key(api_key_hash()), game_id, data["text"])
    return kept


@blp.route("/mutes", methods=["GET"])
@blp.response(200, MutesSchema)
@blp.alt_response(403, response="FORBIDDEN", description="You hold no seat in this game")
@blp.doc(security=KEY_REQUIRED)
def mutes(game_id: int) -> dict[str, list[str]]:
    """The seats whose words to this table you have muted."""
    return {"muted": apart.mutes(Actor.by_key(api_key_hash()), game_id)}


@blp.route("/mutes/<colour>", methods=["PUT"])
@blp.response(200, MutesSchema)
@blp.alt_response(403, response="FORBIDDEN", description="You hold no seat in this game")
@blp.alt_response(404, response="NOT_FOUND", description="The game has no such seat")
@blp.doc(security=KEY_REQUIRED)
def mute(game_id: int, colour: str) -> dict[str, list[str]]:
    """Read no more of this seat's words to the table, on the page, here and by mail
    (whoever holds it); the others still do, and nobody is told."""
    muted = apart.mute(Actor.by_key(api_key_hash()), game_id, colour, True)
    return {"muted": muted}


@blp.route("/mutes/<colour>", methods=["DELETE"])
@blp.response(200, MutesSchema)
@blp.alt_response(403, response="FORBIDDEN", description="You hold no seat in this game")
@blp.doc(security=KEY_REQUIRED)
def unmute(game_id: int, colour: str) -> dict[str, list[str]]:
    """Read this seat's words to the table again (from now on, and what it wrote before)."""
    muted = apart.mute(Actor.by_key(api_key_hash()), game_id, colour, False)
    return {"muted": muted}
