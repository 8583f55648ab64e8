"""GET /api/health: is the installation working; GET /api/health/live: is this process up;
GET /api/health/ready: does it reach its database."""

from typing import Any

from flask import current_app

from pbem.api.health.schemas import HealthSchema, LiveSchema
from pbem.api.safe_json import Blueprint
from pbem.store.health import HealthReport, database_answers, report

blp = Blueprint("health", __name__, url_prefix="/api/health", description="Health and liveness")


@blp.route("")
@blp.response(200, HealthSchema)
@blp.alt_response(503, schema=HealthSchema, description="Something needs a person: see problems")
def health() -> tuple[HealthReport, int]:
    """The database, the outbox's backlog and the scheduler's last passes.

    503 when the database does not answer or the scheduler has not swept for
    `PBEM_HEALTH_STALE_SECONDS` (300): what monitoring should page someone for.
    """
    answer = report(current_app.config["PBEM_HEALTH_STALE_SECONDS"])
    return answer, 200 if answer["status"] == "ok" else 503


@blp.route("/live")
@blp.response(200, LiveSchema)
def live() -> dict[str, Any]:
    """Answer at once, touching nothing: for a load balancer, and the baseline the benches
    compare a move's and a page's latency with."""
    return {"status": "ok"}


@blp.route("/ready")
@blp.response(200, LiveSchema)
@blp.alt_response(503, schema=LiveSchema, description="The database does not answer")
def ready() -> tuple[dict[str, Any], int]:
    """One trivial round trip to the database: for a load balancer to send requests only
    to a node that reaches it (`failing`: 503), and the floor the benches compare a view
    with, since every view makes at least one."""
    if database_answers():
        return {"status": "ok"}, 200
    return {"status": "failing"}, 503
