"""Games: create, list, view, and the admin's abort and seat changes."""

from typing import Any

from flask import Response, current_app, jsonify, request

from pbem.api.auth import KEY_OPTIONAL, KEY_REQUIRED, api_key_hash, current_player
from pbem.api.games.schemas import (
    COLOURS,
    GameCreateSchema,
    GameListSchema,
    GameSummarySchema,
    OrdersInSchema,
    OrdersSchema,
    SeatBot,
    SeatBotSchema,
    SeatChange,
    SeatChangeSchema,
    ViewerColour,
    ViewerColourSchema,
)
from pbem.api.safe_json import Blueprint
from pbem.errors import NotFound
from pbem.game import games
from pbem.game.games import GameSummary
from pbem.game.seating import Actor
from pbem.game.views import callers_view
from pbem.kept import app_drawn
from pbem.languages import _
from pbem.play import lifecycle, orders
from pbem.play.orders import OrdersShown

blp = Blueprint("games", __name__, url_prefix="/api/games", description="Games")

#: Views' bodies a worker keeps (a few KB each): the games polled most, each as each seat
#: and the public see it.
VIEWS_KEPT = 256


def known_colour(colour: str) -> None:
    """A seat's colour in a path, checked before anything is read (404 for any other)."""
    if colour not in COLOURS:
        raise NotFound(
            _(
                "%(colour)s is not a colour; seats are %(colours)s.",
                colour=colour,
                colours=", ".join(COLOURS),
            )
        )


def _game_link(path: str, method: str) -> dict[str, Any]:
    """An OpenAPI link from an answer holding a game's `id` to an operation on that game."""
    pointer = ("/api/games/{game_id}" + path).replace("/", "~1")
    return {
        "operationRef": f"#/paths/{pointer}/{method}",
        "parameters": {"game_id": "$response.body#/id"},
    }


#: What a client does next with a game it made: clients and schemathesis's stateful run
#: follow these from the 201 to the game's own operations.
GAME_LINKS = {
    "GetGame": _game_link("", "get"),
    "GetLegalMoves": _game_link("/legal-moves", "get"),
    "PlayMoves": _game_link("/moves", "post"),
    "GetLog": _game_link("/log", "get"),
    "AbortGame": _game_link("/abort", "post"),
    "HandSeatToBot": {
        **_game_link("/seats/{colour}/bot", "put"),
        "parameters": {"game_id": "$response.body#/id", "colour": "$response.body#/seats/0/colour"},
    },
}


@blp.route("", methods=["POST"])
@blp.arguments(GameCreateSchema)
@blp.response(201, GameSummarySchema)
@blp.alt_response(
    429,
    response="TOO_MANY_REQUESTS",
    description="You made as many games today as a player may, or invited as many people "
    "without an account (or one of them was invited as often as an address may be): try "
    "again after `Retry-After` seconds",
)
@blp.doc(security=KEY_REQUIRED, responses={201: {"links": GAME_LINKS}})
def create(data: dict[str, Any]) -> GameSummary:
    """Create a game; you must hold one of its seats, and you become its admin."""
    player = current_player()
    game = lifecycle.create_game(
        player,
        data["title"],
        data["seats"],
        options=data["options"],
        timing=data["timing"],
        default_timing=current_app.config["PBEM_DEFAULT_TIMING"],
        forming=data["forming"],
        language=data["language"],
        join=data["join"],
    )
    return games.game_summary(game, player)


@blp.route("", methods=["GET"])
@blp.response(200, GameListSchema)
@blp.doc(security=KEY_REQUIRED)
def list_mine() -> dict[str, Any]:
    """Your games, with who must move in each."""
    player = current_player()
    return {"games": [games.game_summary(game, player) for game in games.games_of(player)]}


@blp.route("/<int:game_id>", methods=["GET"])
@blp.arguments(ViewerColourSchema(), location="query")
@blp.response(200, "GameView", headers={"ETag": {"schema": {"type": "string"}}})
@blp.doc(
    security=KEY_OPTIONAL,
    parameters=[
        {
            "in": "header",
            "name": "If-None-Match",
            "schema": {"type": "string"},
            "description": "The ETag of the view you hold: 304 while it is current",
        }
    ],
    responses={"304": {"description": "Not Modified: the view you hold is current"}},
)
def show(query: ViewerColour, game_id: int) -> Response:
    """The game as you see it (the public view without a key); `viewer` says as which colour.
    Its ETag changes whenever the view does: send it back as `If-None-Match` to be told 304
    Not Modified, with no body, while nothing has changed."""
    seen = callers_view(api_key_hash(required=False), game_id, query.get("colour"))
    if seen.etag in request.if_none_match:
        response = Response(status=304)
    else:
        # The body as sent, kept by the game and the tag, which names all the view shows
        # (its seq, viewer, deadlines, absences, clocks, undelivered mail): a caller asking
        # again while nothing changed, without the tag, costs the reads but not the view's
        # making and encoding again. The engine's view goes out whole, not cut to a schema.
        kept = app_drawn("pbem_api_views", VIEWS_KEPT, in_language=False)
        body: bytes = kept.get((game_id, seen.etag), lambda: jsonify(seen.build()).get_data())
        response = Response(body, mimetype="application/json")
    response.set_etag(seen.etag)
    return response


@blp.route("/<int:game_id>/abort", methods=["POST"])
@blp.response(200, GameSummarySchema)
@blp.doc(security=KEY_REQUIRED)
def abort(game_id: int) -> GameSummary:
    """Admin: stop the game for good."""
    player = current_player()
    game = lifecycle.abort_game(player, game_id)
    return games.game_summary(game, player)


@blp.route("/<int:game_id>/start", methods=["POST"])
@blp.response(200, GameSummarySchema)
@blp.doc(security=KEY_REQUIRED)
def start(game_id: int) -> GameSummary:
    """Admin: start a forming game now (open seats go to house bots; invited seats not yet
    accepted are played by their invitees)."""
    player = current_player()
    game = lifecycle.start_game(player, game_id)
    return games.game_summary(game, player)


@blp.route("/<int:game_id>/seats/<string:colour>/accept", methods=["POST"])
@blp.response(200, GameSummarySchema)
@blp.doc(security=KEY_REQUIRED)
def accept_seat(game_id: int, colour: str) -> GameSummary:
    """Your seat of a forming game: accept it (the game begins once every seat is taken and
    accepted)."""
    player = current_player()
    known_colour(colour)
    game = lifecycle.accept_seat(game_id, colour, player.id)
    return games.game_summary(game, player)


@blp.route("/<int:game_id>/seats/<string:colour>/join", methods=["POST"])
@blp.response(200, GameSummarySchema)
@blp.doc(security=KEY_REQUIRED)
def join_seat(game_id: int, colour: str) -> GameSummary:
    """An open seat of a forming game: take it (accepted at once)."""
    player = current_player()
    known_colour(colour)
    game = lifecycle.join_seat(player, game_id, colour)
    return games.game_summary(game, player)


@blp.route("/<int:game_id>/seats/<string:colour>", methods=["PUT"])
@blp.arguments(SeatChangeSchema)
@blp.response(200, GameSummarySchema)
@blp.alt_response(
    429,
    response="TOO_MANY_REQUESTS",
    description="An address without an account: you invited as many today as a player may, "
    "or it was invited as often as an address may be; try again after `Retry-After` seconds",
)
@blp.doc(security=KEY_REQUIRED)
def give_seat(data: SeatChange, game_id: int, colour: str) -> GameSummary:
    """Admin: give a seat to another player, or to an address with no account (invited by
    the seat's first mail, and counted against the day's invitations)."""
    player = current_player()
    known_colour(colour)
    game = lifecycle.give_seat(player, game_id, colour, data["email"])
    return games.game_summary(game, player)


@blp.route("/<int:game_id>/seats/<string:colour>/bot", methods=["PUT"])
@blp.arguments(SeatBotSchema)
@blp.response(200, GameSummarySchema)
@blp.doc(security=KEY_REQUIRED)
def seat_bot(data: SeatBot, game_id: int, colour: str) -> GameSummary:
    """Your seat: let the bot play it, or take it back (the others are told)."""
    player = current_player()
    known_colour(colour)
    game = lifecycle.set_bot(player, game_id, colour, data["bot"])
    return games.game_summary(game, player)


def _seat_colour(colour: str) -> str:
    known_colour(colour)
    return colour


@blp.route("/<int:game_id>/seats/<string:colour>/orders", methods=["GET"])
@blp.response(200, OrdersSchema)
@blp.alt_response(403, response="FORBIDDEN")
@blp.doc(security=KEY_REQUIRED)
def get_orders(game_id: int, colour: str) -> OrdersShown:
    """Your seat's orders given in advance (only you may read them)."""
    actor = Actor.by_key(api_key_hash())
    return orders.read(actor, game_id, _seat_colour(colour)).as_dict()


@blp.route("/<int:game_id>/seats/<string:colour>/orders", methods=["PUT"])
@blp.arguments(OrdersInSchema)
@blp.response(200, OrdersSchema)
@blp.alt_response(403, response="FORBIDDEN")
@blp.alt_response(409, response="CONFLICT")
@blp.doc(security=KEY_REQUIRED)
def put_orders(data: dict[str, Any], game_id: int, colour: str) -> OrdersShown:
    """Your seat's orders in advance: the power cards to play, best first, and whether this
    round's Veto windows are answered allow at once. If the decision is yours now, it is
    played at once; `played` says what."""
    actor = Actor.by_key(api_key_hash())
    given = orders.give(
        actor,
        game_id,
        _seat_colour(colour),
        power_cards=data.get("power_cards"),
        veto=data.get("veto"),
    )
    return given.as_dict()
