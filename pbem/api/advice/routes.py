"""Advice from the strong bot: a hint for the decision waiting on your seat (in a game that
allows them), and a finished game's review. Both are worked out by the scheduler, never in
the request: the first GET asks, and answers 202 until it is done. And in a game that
teaches, what the decision waiting on your seat teaches."""

from typing import Any

from flask import Response, jsonify

from pbem.api.advice.schemas import HintSchema, LessonsSchema, ReviewSchema
from pbem.api.auth import KEY_REQUIRED, api_key_hash
from pbem.api.games.schemas import ViewerColour, ViewerColourSchema
from pbem.api.safe_json import Blueprint
from pbem.game import advice as reading
from pbem.game import lessons
from pbem.game.seating import Actor
from pbem.play import advice

blp = Blueprint(
    "advice", __name__, url_prefix="/api/games/<int:game_id>", description="Hints and reviews"
)

#: Seconds a client waits before it asks again for what is being worked out.
RETRY_SECONDS = 2


def _answer(body: dict[str, Any], ready: bool, schema: Any) -> Response:
    response = jsonify(schema.dump(body))
    response.status_code = 200 if ready else 202
    if not ready:
        response.headers["Retry-After"] = str(RETRY_SECONDS)
    return response


@blp.route("/hint", methods=["GET"])
@blp.arguments(ViewerColourSchema(), location="query")
@blp.response(200, HintSchema)
@blp.alt_response(202, schema=HintSchema, description="Asked, and being worked out")
@blp.alt_response(403, response="FORBIDDEN", description="You hold no seat in this game")
@blp.alt_response(
    409,
    response="CONFLICT",
    description="The game does not allow hints, is not under way, or no decision waits on you",
)
@blp.doc(security=KEY_REQUIRED)
def hint(query: ViewerColour, game_id: int) -> Response:
    """The strong bot's best three moves for the decision waiting on your seat, each with
    what its search expects of it, from your seat's view alone. The first call asks for it
    (202, `Retry-After`); call again until it answers 200. Asking again for the same
    decision, by any door, finds the same hint."""
    asked = advice.ask_hint(Actor.by_key(api_key_hash()), game_id, "api", query.get("colour"))
    seed = reading.game_seed(game_id)
    return _answer(reading.hint_words(game_id, seed, asked), asked["answered"], HintSchema())


@blp.route("/review", methods=["GET"])
@blp.response(200, ReviewSchema)
@blp.alt_response(202, schema=ReviewSchema, description="The review is being worked out")
@blp.alt_response(404, response="NOT_FOUND", description="No such game")
@blp.alt_response(409, response="CONFLICT", description="The game is not over")
@blp.doc(security=KEY_REQUIRED)
def review(game_id: int) -> Response:
    """Where each person in a finished game lost the most points, by the strong bot's
    review: the decision (its seq, for the replay), what they played, what was better and
    the points at stake, as its search found them."""
    colours = reading.finished_colours(Actor.by_key(api_key_hash()), game_id)
    shown = reading.review_words(game_id, colours)
    return _answer(shown, shown["done"], ReviewSchema())


@blp.route("/lessons", methods=["GET"])
@blp.arguments(ViewerColourSchema(), location="query")
@blp.response(200, LessonsSchema)
@blp.alt_response(403, response="FORBIDDEN", description="You hold no seat in this game")
@blp.doc(security=KEY_REQUIRED)
def lessons_due(query: ViewerColour, game_id: int) -> dict[str, Any]:
    """In a game that teaches (`options.learn`), what the decision waiting on your seat
    explains, as the page and the decision mail show it: each new kind of decision the first
    time, the first scoring walked through after it. Empty in any other game, or when no
    decision waits on you."""
    due = lessons.lessons_of_seat(Actor.by_key(api_key_hash()), game_id, query.get("colour"))
    return {"lessons": due}
