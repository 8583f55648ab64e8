"""The REST API: one flask-smorest blueprint per resource, its schemas beside it."""

from flask import Flask

from pbem.extensions import api

#: The OpenAPI security requirement of endpoints that need a key, and of those where a key
#: is optional (the empty requirement means "no key is fine too").
KEY_REQUIRED = [{"bearerAuth": []}]
KEY_OPTIONAL = [{}, {"bearerAuth": []}]


def register_blueprints(app: Flask) -> None:
    from pbem.resources.games.routes import blp as games
    from pbem.resources.health.routes import blp as health
    from pbem.resources.moves.routes import blp as moves
    from pbem.resources.players.routes import blp as players

    for blueprint in (health, players, games, moves):
        api.register_blueprint(blueprint)
    api.spec.components.security_scheme(
        "bearerAuth",
        {"type": "http", "scheme": "bearer", "description": "The API key from POST /api/players"},
    )
