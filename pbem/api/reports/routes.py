"""Reports: a word to the table, a player's name or a game's title, sent to the moderators'
queue (`pbem moderation`, the operator's page)."""

from typing import Any

from flask import Response, jsonify

from pbem.api.auth import KEY_REQUIRED, current_player
from pbem.api.reports.schemas import ReportInSchema, ReportSchema
from pbem.api.safe_json import Blueprint
from pbem.languages import _
from pbem.play import moderation

blp = Blueprint("reports", __name__, url_prefix="/api/reports", description="Reports")


@blp.route("", methods=["POST"])
@blp.arguments(ReportInSchema())
@blp.response(201, ReportSchema)
@blp.alt_response(404, response="NOT_FOUND", description="Nothing you can see has that id")
@blp.alt_response(429, response="TOO_MANY_REQUESTS")
@blp.doc(security=KEY_REQUIRED)
def report(data: dict[str, Any]) -> Response:
    """Report a word to the table of a game you sit at (`talk`), a player's name (`name`)
    or a game's title (`title`) to the moderators, who read every report; nobody else is
    told. The same report again, while the first waits, answers with the first's number."""
    filed = moderation.report(current_player(), data["kind"], data["id"], data["reason"])
    response = jsonify({"id": filed.id, "detail": arrived()})
    response.status_code = 200 if filed.again else 201
    return response


def arrived() -> str:
    return _(
        "Your report has reached the moderators; they read every one. Nobody else is told "
        "who reported it."
    )
