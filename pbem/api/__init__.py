"""The REST API: one flask-smorest blueprint per resource, its schemas beside it; key auth,
idempotency, problem+json errors and the docs page."""

from __future__ import annotations

import copy

from flask import Flask

from pbem.api.advice.routes import blp as advice
from pbem.api.docs import blp as docs
from pbem.api.fields import SchemaRules
from pbem.api.games.routes import blp as games
from pbem.api.games.schemas import SeatClockSchema
from pbem.api.health.routes import blp as health
from pbem.api.moves.routes import blp as moves
from pbem.api.players.routes import blp as players
from pbem.api.players.routes import standings_blp as standings
from pbem.api.problems import DeclaredErrors, ProblemApi, register_error_handlers
from pbem.api.reports.routes import blp as reports
from pbem.api.safe_json import SafeJSONProvider
from pbem.api.table.routes import blp as table
from pbem.api.tournaments.routes import blp as tournaments
from pbem.api.typed import engine_components, typed_ref

#: The flask-smorest Api: the blueprints, the OpenAPI spec and the docs, bound per app.
api = ProblemApi()


def init_app(app: Flask) -> None:
    """Bind the API to `app`: its JSON reading, blueprints, errors and docs page."""
    app.json = SafeJSONProvider(app)
    api.init_app(app, spec_kwargs={"extra_plugins": [DeclaredErrors(), SchemaRules()]})
    # The engine's types, as schemas the routes' `Typed` fields refer to (copied: apispec
    # may resolve what it is given in place).
    api.ma_plugin.converter.add_attribute_function(typed_ref)
    for name, schema in copy.deepcopy(engine_components()).items():
        api.spec.components.schema(name, schema)
    api.spec.components.schema("SeatClock", schema=SeatClockSchema)
    for blueprint in (
        health, players, standings, games, moves, table, advice, reports, tournaments
    ):
        api.register_blueprint(blueprint)
    api.spec.components.security_scheme(
        "bearerAuth",
        {"type": "http", "scheme": "bearer", "description": "The API key from POST /api/players"},
    )
    app.register_blueprint(docs)
    register_error_handlers(app)
