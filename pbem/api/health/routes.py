"""GET /api/health: is the web process up."""

from flask_smorest import Blueprint

from pbem.api.health.schemas import HealthSchema

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Liveness")


@blp.route("")
@blp.response(200, HealthSchema)
def health() -> dict:
    """Answer at once, touching nothing: the baseline a move's latency is compared with."""
    return {"status": "ok"}
