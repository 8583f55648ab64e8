"""The web pages: see a game, play it, step through it (`routes`), drawn by `board`."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register the pages' blueprint on `app`."""
    from pbem.web.routes import bp

    app.register_blueprint(bp)
