"""Tournaments: made by an organiser, entered by players, started, and read by anyone (its
rounds' tables with their games, and the standings)."""

from typing import Any

from flask import Response, jsonify

from pbem.api.auth import KEY_REQUIRED, current_player
from pbem.api.safe_json import Blueprint
from pbem.api.tournaments.schemas import (
    CreatedSchema,
    EnteredSchema,
    TournamentInSchema,
    TournamentSchema,
    TournamentsSchema,
)
from pbem.game import tournaments as reading
from pbem.languages import _
from pbem.play import tournaments

blp = Blueprint("tournaments", __name__, url_prefix="/api/tournaments", description="Tournaments")


def _shown(tournament_id: int) -> dict[str, Any]:
    shown: dict[str, Any] = dict(reading.tournament(tournament_id))
    shown["formula"] = _(shown["formula"])
    shown["explained"] = _(shown["explained"])
    return shown


@blp.route("", methods=["POST"])
@blp.arguments(TournamentInSchema())
@blp.response(201, CreatedSchema)
@blp.doc(security=KEY_REQUIRED)
def create(data: tournaments.TournamentAsked) -> Response:
    """Make a tournament, open for entries: you organise it (and need not play in it)."""
    made = tournaments.create(current_player(), data)
    response = jsonify({"id": made.id})
    response.status_code = 201
    return response


@blp.route("", methods=["GET"])
@blp.response(200, TournamentsSchema)
def listed() -> dict[str, Any]:
    """The tournaments, the newest first."""
    return {"tournaments": reading.listed()}


@blp.route("/<int:tournament_id>", methods=["GET"])
@blp.response(200, TournamentSchema)
def show(tournament_id: int) -> dict[str, Any]:
    """A tournament as anyone may read it: its format explained, its rounds' tables (each
    naming its game and players by id), and the standings with the formula."""
    return _shown(tournament_id)


@blp.route("/<int:tournament_id>/entries", methods=["POST"])
@blp.response(200, EnteredSchema)
@blp.alt_response(409, response="CONFLICT", description="Full, closed, or entered already")
@blp.doc(security=KEY_REQUIRED)
def enter(tournament_id: int) -> dict[str, int]:
    """Enter the tournament as the key's player (decided under the tournament's row lock:
    of entries at once for the last place, one wins and the others get 409)."""
    count = tournaments.enter(current_player(), tournament_id)
    return {"entrants": count}


@blp.route("/<int:tournament_id>/entries/me", methods=["DELETE"])
@blp.response(204)
@blp.doc(security=KEY_REQUIRED)
def leave(tournament_id: int) -> None:
    """Leave: before the start your entry goes; after it you are skipped from now on and
    the house bot plays your seats in its games."""
    tournaments.leave(current_player(), tournament_id)


@blp.route("/<int:tournament_id>/entries/<int:player_id>", methods=["DELETE"])
@blp.response(204)
@blp.doc(security=KEY_REQUIRED)
def remove(tournament_id: int, player_id: int) -> None:
    """Organiser: remove an entrant (skipped from now on, as one who left)."""
    tournaments.remove_entrant(current_player(), tournament_id, player_id)


@blp.route("/<int:tournament_id>/start", methods=["POST"])
@blp.response(200, TournamentSchema)
@blp.doc(security=KEY_REQUIRED)
def start(tournament_id: int) -> dict[str, Any]:
    """Organiser: start now; round 1 is drawn and its games begin."""
    tournaments.start(current_player(), tournament_id)
    return _shown(tournament_id)
