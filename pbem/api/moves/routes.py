"""A game's moves: legal moves, submitting a batch, the log, past states, the record."""

from flask import Response, jsonify

from pbem import play
from pbem.api import idempotency
from pbem.api.auth import KEY_OPTIONAL, KEY_REQUIRED, api_key_hash, current_player
from pbem.api.games.schemas import ViewerColour, ViewerColourSchema
from pbem.api.moves.schemas import (
    IdempotencyHeader,
    IdempotencyHeaderSchema,
    LegalMovesSchema,
    LogSchema,
    MoveResultSchema,
    MovesIn,
    MovesInSchema,
    RecordSchema,
)
from pbem.api.safe_json import Blueprint
from pbem.game import views
from pbem.game.games import get_game
from pbem.game.seating import Actor

blp = Blueprint("moves", __name__, url_prefix="/api/games/<int:game_id>", description="Moves")


@blp.route("/legal-moves", methods=["GET"])
@blp.arguments(ViewerColourSchema(), location="query")
@blp.response(200, LegalMovesSchema)
@blp.doc(security=KEY_REQUIRED)
def legal_moves(query: ViewerColour, game_id: int) -> views.LegalMoves:
    """Every move your seat may make now (none when it is not your turn); `colour` says which
    seat when you hold two."""
    return views.legal_moves_for(Actor.by_key(api_key_hash()), game_id, query.get("colour"))


def _answer(outcome: play.Outcome) -> idempotency.Answer:
    """The HTTP status and body of a played batch."""
    body = {"seq": outcome.seq, "events": outcome.events, "view": outcome.view}
    if outcome.dry_run:
        body["dry_run"] = True
        if outcome.withheld:
            body["withheld"] = outcome.withheld
    return (200 if outcome.dry_run else 201), body


@blp.route("/moves", methods=["POST"])
# Schema instances, not classes: webargs would build a new schema object (fields and all)
# for every request from a class, which was a tenth of a move's time in the app.
@blp.arguments(IdempotencyHeaderSchema(), location="headers")
@blp.arguments(MovesInSchema())
@blp.response(201, MoveResultSchema)
@blp.alt_response(200, schema=MoveResultSchema, description="A dry run, or a repeated request")
@blp.alt_response(409, response="CONFLICT")
@blp.doc(security=KEY_REQUIRED)
def submit(headers: IdempotencyHeader, data: MovesIn, game_id: int) -> Response:
    """Play a batch of moves as your seat: all of them, or none."""
    key_hash = api_key_hash()
    key = headers.get("idempotency_key")
    # The request's hash is needed only to replay or record an answer under a key.
    hashed = idempotency.request_hash(game_id, data) if key else ""
    status, body = idempotency.once(
        key_hash,
        key,
        hashed,
        lambda also_write: play.submit(
            Actor.by_key(key_hash),
            game_id,
            data["expected_seq"],
            data["moves"],
            source="api",
            colour=data.get("colour"),
            dry_run=data["dry_run"],
            also_write=also_write,
        ),
        _answer,
    )
    response = jsonify(body)
    response.status_code = status
    return response


@blp.route("/log", methods=["GET"])
@blp.response(200, LogSchema)
@blp.doc(security=KEY_OPTIONAL)
def log(game_id: int) -> views.Log:
    """The move log with each move's events, other players' unrevealed secrets left out."""
    return views.log_for(get_game(game_id), current_player(required=False))


@blp.route("/states/<int:seq>", methods=["GET"])
@blp.arguments(ViewerColourSchema(), location="query")
@blp.response(200, "GameView")
@blp.doc(security=KEY_OPTIONAL)
def state_at(query: ViewerColour, game_id: int, seq: int) -> Response:
    """The game as you would have seen it after move `seq`."""
    player = current_player(required=False)
    return jsonify(views.view_at(get_game(game_id), player, seq, query.get("colour")))


@blp.route("/record", methods=["GET"])
@blp.response(200, RecordSchema)
@blp.doc(security=KEY_OPTIONAL)
def record(game_id: int) -> views.Record:
    """Setup (with the seed) and the whole log, once the game is over."""
    return views.record_of(get_game(game_id))
