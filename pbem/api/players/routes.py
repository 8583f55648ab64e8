"""Players: register and receive an API key."""

from pbem.api.players.schemas import PlayerCreatedSchema, PlayerCreateSchema
from pbem.api.safe_json import Blueprint
from pbem.game.players import register_player

blp = Blueprint("players", __name__, url_prefix="/api/players", description="Players")


@blp.route("", methods=["POST"])
@blp.arguments(PlayerCreateSchema)
@blp.response(201, PlayerCreatedSchema)
@blp.alt_response(409, response="CONFLICT")
def register(data: dict) -> dict:
    """Register: the answer holds your API key, shown this once only."""
    player, key = register_player(data["email"], data["name"])
    return {"id": player.id, "email": player.email, "name": player.name, "api_key": key}
