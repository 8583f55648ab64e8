"""Configuration: embedded defaults, overridden by the environment, overridden by the caller."""

from __future__ import annotations

import os

from flask import Flask

#: The largest request body accepted; a batch of moves is a few KiB at most.
DEFAULT_MAX_CONTENT_LENGTH = 64 * 1024


def database_url_from_env() -> str | None:
    """DATABASE_URL as SQLAlchemy wants it.

    Hosting platforms hand out `postgres://` URLs; SQLAlchemy needs a dialect and a driver,
    and psycopg 3 is the one we ship.
    """
    url = os.environ.get("DATABASE_URL")
    if not url:
        return None
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def configure(app: Flask, config: dict | None) -> None:
    """Fill `app.config`: defaults first, then the environment, then `config`."""
    app.config.update(
        SECRET_KEY="dev-only-not-secret",
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "pbem.sqlite"),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        MAX_CONTENT_LENGTH=DEFAULT_MAX_CONTENT_LENGTH,
        API_TITLE="El Grande turn server",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        # Served by the app itself (pbem.api.docs), so the page works offline.
        OPENAPI_SWAGGER_UI_URL="/api/docs/assets/",
        # How long a pending decision may wait before a reminder and a timeout move; stored on
        # each game when it is created so a later change does not alter running games.
        PBEM_DEFAULT_TIMING={"deadline_hours": 72, "reminder_hours": 24},
        # The web pages' session cookie: out of reach of scripts, and not sent on requests
        # other sites start (forms also carry a CSRF token; see pbem.web.csrf).
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Where players reach the pages, for links in mails (e.g. https://elgrande.example);
        # None: the URL of the request being served.
        PBEM_BASE_URL=None,
        # How long a seat's sign-in link (pbem.web.signin) stays good: a game lasts weeks,
        # and each mail carries a fresh link.
        PBEM_SEAT_LINK_MAX_AGE=30 * 24 * 3600,
    )
    url = database_url_from_env()
    if url:
        app.config["SQLALCHEMY_DATABASE_URI"] = url
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    # Anything else as FLASK_<NAME>, e.g. FLASK_MAX_CONTENT_LENGTH=131072.
    app.config.from_prefixed_env()
    if config:
        app.config.update(config)
