"""The El Grande turn server: a Flask application around the pure `engine`."""

from flask import Flask


def create_app(config: dict | None = None) -> Flask:
    """Application factory: build and configure one app instance."""
    app = Flask(__name__, instance_relative_config=True)
    if config:
        app.config.update(config)

    @app.get("/api/health")
    def health():
        return {"status": "ok"}

    return app
