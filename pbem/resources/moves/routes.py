"""A game's moves: legal moves, submitting a batch, the log, past states, the record."""

from flask import jsonify
from flask_smorest import Blueprint

from pbem import services
from pbem.auth import api_key_hash, current_player
from pbem.resources import KEY_OPTIONAL, KEY_REQUIRED
from pbem.resources.games.schemas import GameViewSchema, ViewerColourSchema
from pbem.resources.moves.schemas import (
    IdempotencyHeaderSchema,
    LegalMovesSchema,
    LogSchema,
    MoveResultSchema,
    MovesInSchema,
    RecordSchema,
)

blp = Blueprint("moves", __name__, url_prefix="/api/games/<int:game_id>", description="Moves")


@blp.route("/legal-moves", methods=["GET"])
@blp.arguments(ViewerColourSchema(), location="query")
@blp.response(200, LegalMovesSchema)
@blp.doc(security=KEY_REQUIRED)
def legal_moves(query: dict, game_id: int) -> dict:
    """Every move your seat may make now (none when it is not your turn); `colour` says which
    seat when you hold two."""
    return services.legal_moves_by_key(game_id, api_key_hash(), query.get("colour"))


@blp.route("/moves", methods=["POST"])
# Schema instances, not classes: webargs would build a new schema object (fields and all)
# for every request from a class, which was a tenth of a move's time in the app.
@blp.arguments(IdempotencyHeaderSchema(), location="headers")
@blp.arguments(MovesInSchema())
@blp.response(201, MoveResultSchema)
@blp.alt_response(200, schema=MoveResultSchema, description="A dry run, or a repeated request")
@blp.alt_response(409, response="CONFLICT")
@blp.doc(security=KEY_REQUIRED)
def submit(headers: dict, data: dict, game_id: int):
    """Play a batch of moves as your seat: all of them, or none."""
    status, body = services.submit_moves(
        game_id,
        data["moves"],
        data["expected_seq"],
        api_key_hash=api_key_hash(),
        colour=data.get("colour"),
        dry_run=data["dry_run"],
        idempotency_key=headers.get("idempotency_key"),
    )
    response = jsonify(body)
    response.status_code = status
    return response


@blp.route("/log", methods=["GET"])
@blp.response(200, LogSchema)
@blp.doc(security=KEY_OPTIONAL)
def log(game_id: int) -> dict:
    """The move log, with other players' unrevealed secrets left out."""
    player = current_player(required=False)
    return services.log_for(services.get_game(game_id), player)


@blp.route("/states/<int:seq>", methods=["GET"])
@blp.arguments(ViewerColourSchema(), location="query")
@blp.response(200, GameViewSchema)
@blp.doc(security=KEY_OPTIONAL)
def state_at(query: dict, game_id: int, seq: int):
    """The game as you would have seen it after move `seq`."""
    player = current_player(required=False)
    game = services.get_game(game_id)
    return jsonify(services.view_at(game, player, seq, query.get("colour")))


@blp.route("/record", methods=["GET"])
@blp.response(200, RecordSchema)
@blp.doc(security=KEY_OPTIONAL)
def record(game_id: int) -> dict:
    """Setup (with the seed) and the whole log, once the game is over."""
    return services.record_of(services.get_game(game_id))
