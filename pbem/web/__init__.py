"""The web pages: see a game, play it, step through it (`routes`), drawn by `board`."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register the pages' blueprint on `app`, and their session cookie (`sessions`)."""
    from pbem.web.routes import bp
    from pbem.web.sessions import SessionInterface
    from pbem.web.templating import kept

    app.session_interface = SessionInterface()
    app.jinja_env.globals["kept"] = kept
    app.register_blueprint(bp)
