"""Games: create, list, view, and the admin's abort and seat changes."""

from flask import current_app, jsonify
from flask_smorest import Blueprint

from pbem import services
from pbem.auth import current_player
from pbem.errors import NotFound
from pbem.resources import KEY_OPTIONAL, KEY_REQUIRED
from pbem.resources.games.schemas import (
    COLOURS,
    GameCreateSchema,
    GameListSchema,
    GameSummarySchema,
    GameViewSchema,
    SeatChangeSchema,
    ViewerColourSchema,
)

blp = Blueprint("games", __name__, url_prefix="/api/games", description="Games")


@blp.route("", methods=["POST"])
@blp.arguments(GameCreateSchema)
@blp.response(201, GameSummarySchema)
@blp.doc(security=KEY_REQUIRED)
def create(data: dict) -> dict:
    """Create a game; you must hold one of its seats, and you become its admin."""
    player = current_player()
    game = services.create_game(
        player,
        data["title"],
        data["seats"],
        options=data["options"],
        timing=data["timing"],
        default_timing=current_app.config["PBEM_DEFAULT_TIMING"],
    )
    return services.game_summary(game, player)


@blp.route("", methods=["GET"])
@blp.response(200, GameListSchema)
@blp.doc(security=KEY_REQUIRED)
def list_mine() -> dict:
    """Your games, with who must move in each."""
    player = current_player()
    return {"games": [services.game_summary(g, player) for g in services.games_of(player)]}


@blp.route("/<int:game_id>", methods=["GET"])
@blp.arguments(ViewerColourSchema(), location="query")
@blp.response(200, GameViewSchema)
@blp.doc(security=KEY_OPTIONAL)
def show(query: dict, game_id: int):
    """The game as you see it (the public view without a key); `viewer` says as which colour."""
    player = current_player(required=False)
    game = services.get_game(game_id)
    # Returned as a response so the engine's view goes out whole, not cut to the schema.
    return jsonify(services.current_view(game, player, query.get("colour")))


@blp.route("/<int:game_id>/abort", methods=["POST"])
@blp.response(200, GameSummarySchema)
@blp.doc(security=KEY_REQUIRED)
def abort(game_id: int) -> dict:
    """Admin: stop the game for good."""
    player = current_player()
    return services.game_summary(services.abort_game(player, game_id), player)


@blp.route("/<int:game_id>/seats/<string:colour>", methods=["PUT"])
@blp.arguments(SeatChangeSchema)
@blp.response(200, GameSummarySchema)
@blp.doc(security=KEY_REQUIRED)
def give_seat(data: dict, game_id: int, colour: str) -> dict:
    """Admin: give a seat to another registered player."""
    player = current_player()
    if colour not in COLOURS:
        raise NotFound(f"{colour} is not a colour; seats are {', '.join(COLOURS)}.")
    return services.game_summary(services.give_seat(player, game_id, colour, data["email"]), player)
