"""GET /api/health: is the web process up."""

from pbem.api.health.schemas import HealthSchema
from pbem.api.safe_json import Blueprint

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Liveness")


@blp.route("")
@blp.response(200, HealthSchema)
def health() -> dict:
    """Answer at once, touching nothing: the baseline a move's latency is compared with."""
    return {"status": "ok"}
