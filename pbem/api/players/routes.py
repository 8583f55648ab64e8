"""Players: register and receive an API key, mail preferences, a new key by mail."""

from pbem.api import KEY_REQUIRED
from pbem.api.auth import current_player
from pbem.api.players.schemas import (
    AcceptedSchema,
    KeyResetSchema,
    PlayerCreatedSchema,
    PlayerCreateSchema,
    PreferencesSchema,
)
from pbem.api.safe_json import Blueprint
from pbem.game import players

blp = Blueprint("players", __name__, url_prefix="/api/players", description="Players")


@blp.route("", methods=["POST"])
@blp.arguments(PlayerCreateSchema)
@blp.response(201, PlayerCreatedSchema)
@blp.alt_response(409, response="CONFLICT")
def register(data: dict) -> dict:
    """Register: the answer holds your API key, shown this once only."""
    player, key = players.register_player(data["email"], data["name"])
    return {"id": player.id, "email": player.email, "name": player.name, "api_key": key}


@blp.route("/me/preferences", methods=["GET"])
@blp.response(200, PreferencesSchema)
@blp.doc(security=KEY_REQUIRED)
def get_preferences() -> dict:
    """Which events mail you, how often, and your webhooks."""
    return players.preferences_of(current_player())


@blp.route("/me/preferences", methods=["PUT"])
@blp.arguments(PreferencesSchema)
@blp.response(200, PreferencesSchema)
@blp.doc(security=KEY_REQUIRED)
def set_preferences(data: dict) -> dict:
    """Change the preferences given; the others stay as they are."""
    return players.set_preferences(current_player(), data)


@blp.route("/key-reset", methods=["POST"])
@blp.arguments(KeyResetSchema)
@blp.response(202, AcceptedSchema)
def key_reset(data: dict) -> dict:
    """Mail a new API key to a registered email (the old key stops working). The answer is
    the same whether the email is registered or not."""
    players.reset_key_by_mail(data["email"])
    return {
        "detail": f"If {data['email']} is registered, a new API key is on its way to it; the "
        "old key stops working now. At most 3 keys are sent per hour."
    }
