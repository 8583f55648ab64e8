"""Configuration: embedded defaults, overridden by the environment, overridden by the caller."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask

from pbem.bodies import BODY_PAUSE_SECONDS

#: The secret of a development checkout: never good enough to sign mail addresses with.
DEVELOPMENT_SECRET = "dev-only-not-secret"

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


#: The scheduler's settings (pbem.schedule.runner), defaults of `configure`.
SCHEDULER_DEFAULTS: dict[str, Any] = dict(
    # The scheduler (pbem.schedule.runner): seconds between sweeps (deadlines, reminders,
    # bots) and between mail sender passes.
    PBEM_SWEEP_SECONDS=5.0,
    PBEM_MAIL_SECONDS=2.0,
    # Seconds a sweep pass gives bots to think, all bot seats together: past it, a bot
    # seat waits for the next pass, so a pass never runs far past its interval.
    PBEM_SWEEP_BOT_SECONDS=3.0,
    # Seconds the strong house bot searches a move (three times that for a power card,
    # twice for an action card): at 0.3 it wins 55% of its 5-player games against four
    # greedy bots, at 0.38 s a decision on average (bench/bots.py).
    PBEM_BOT_SECONDS=0.3,
    # Wake the sender when a commit queued mail (pbem.notify.wake), besides its passes.
    PBEM_MAIL_WAKE=True,
    # Hints and reviews (pbem.play.advice), worked out by the scheduler, never in a request:
    # seconds between its passes over the hints asked; the worlds each candidate move of a
    # hint is played out in (24: about 2 s of one core for a power card of five seats).
    PBEM_HINT_SECONDS=2.0,
    PBEM_HINT_PLAYOUTS=24,
    # A finished game's review: the worlds each candidate is played out in, and the CPU
    # seconds one game's review may use at most (past them, its later decisions are not
    # reviewed, and it says so); 0 reviews no game.
    PBEM_REVIEW_PLAYOUTS=12,
    PBEM_REVIEW_SECONDS=120.0,
)


#: Mail in (pbem.mailin): the largest message read, the most the instance's mail-kept/
#: folder holds of mails no reader could read, the answers one address gets an hour at most
#: (a mail loop dies there), the authserv-id of our own receiving server whose
#: Authentication-Results are believed (None: none are), a mailbox.
MAIL_IN_DEFAULTS: dict[str, Any] = {
    "MAIL_MAX_BYTES": 1024 * 1024,
    "MAIL_KEPT_BYTES": 20 * 1024 * 1024,
    "MAIL_ANSWERS_PER_HOUR": 30,
    "MAIL_TRUSTED_AUTHSERV_ID": None,
    "IMAP_URL": None,
}


#: The way to the database (docs/scaling.md).
DATABASE_DEFAULTS: dict[str, Any] = {
    # Behind a connection pooler in transaction mode (PgBouncer's `pool_mode = transaction`),
    # "transaction": nothing is kept on a server connection between transactions (psycopg
    # prepares no statement on the server); None: a connection is the app's from checkout
    # to return.
    "PBEM_DATABASE_POOLER": None,
    # Where the sender LISTENs for the commits that queue mail: a direct connection to
    # PostgreSQL, never through a transaction pooler (which passes no notification on);
    # None: the database URL.
    "PBEM_LISTEN_URL": None,
}


#: Ratings (pbem.play.ratings): the rated games one circle of people may have. A game whose
#: rated people have had this many rated games already in which everyone rated was one of
#: them is rated for nobody; 0: no such limit.
RATING_DEFAULTS: dict[str, Any] = {"PBEM_RATED_GAMES_PER_CIRCLE": 5}


def configure(app: Flask, config: dict[str, Any] | None) -> None:
    """Fill `app.config`: defaults first, then the environment, then `config`."""
    app.config.update(SCHEDULER_DEFAULTS)
    app.config.update(RATING_DEFAULTS)
    app.config.update(DATABASE_DEFAULTS)
    app.config.update(MAIL_IN_DEFAULTS)
    app.config.update(
        SECRET_KEY=None,
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "pbem.sqlite"),
        # No ping before each use of a pooled connection: one found dead is dropped with the
        # pool's older ones, and its request answered 503 (a GET tried once more first; see
        # pbem.store.outage). A ping would cost a round trip on every request, and in the
        # kill drill (bench/pg_kill.py) it spared no 503 and no 500.
        SQLALCHEMY_ENGINE_OPTIONS={},
        MAX_CONTENT_LENGTH=DEFAULT_MAX_CONTENT_LENGTH,
        API_TITLE="El Grande turn server",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        # Served by the app itself (pbem.api.docs), so the page works offline.
        OPENAPI_SWAGGER_UI_URL="/api/docs/assets/",
        # This server's changes to the timing policy's defaults (pbem.timing.policy); the
        # whole policy is stored on each game when it is created, so a later change here
        # does not alter running games.
        PBEM_DEFAULT_TIMING={},
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
        # GET /api/health answers 503 when the last sweep is older than this (seconds).
        PBEM_HEALTH_STALE_SECONDS=300,
        # Logs (pbem.logs): one JSON object a line, or "text" for a person at a terminal.
        PBEM_LOG_FORMAT="auto",  # text on a terminal, JSON otherwise
        PBEM_LOG_LEVEL="INFO",
        # Webhooks (pbem.notify.webhooks): https only unless http is allowed, and never to
        # an internal address unless its host or network is named here.
        PBEM_WEBHOOK_ALLOW_HTTP=False,
        PBEM_WEBHOOK_ALLOWED_HOSTS="",
        # Web Push (pbem.notify.push): the webhooks' rules, and the VAPID key and subject
        # (None: the key kept in the instance folder; mailto: MAIL_FROM's address).
        PBEM_PUSH_ALLOW_HTTP=False,
        PBEM_PUSH_ALLOWED_HOSTS="",
        PBEM_VAPID_PRIVATE_KEY=None,
        PBEM_VAPID_SUBJECT=None,
        # DKIM signing of outgoing mail (pbem.notify.signing): all three, or none.
        DKIM_SELECTOR=None,
        DKIM_DOMAIN=None,
        DKIM_PRIVATE_KEY=None,
        # Days a delivered mail or webhook stays in the outbox (pbem.notify.retention).
        PBEM_OUTBOX_KEEP_DAYS=30.0,
        # Proxies in front of the app whose X-Forwarded-For is believed (werkzeug's
        # ProxyFix): 1 behind nginx, so each client is limited as itself, not as the proxy.
        PBEM_PROXY_HOPS=0,
        # How long a request body may pause before the request is given up (pbem.bodies).
        PBEM_BODY_PAUSE_SECONDS=BODY_PAUSE_SECONDS,
        # How often an open board page asks whether the game moved (its answer a 304 while not).
        PBEM_PAGE_POLL_SECONDS=4.0,
        # Caps a day (UTC) on what makes the server mail people who never asked
        # (pbem.play.strangers): games one player makes, invitations one player sends to
        # addresses with no account here, and invitations one such address receives from
        # anyone. A friend group needs few; a spammer needs many.
        PBEM_GAMES_PER_DAY=10,
        PBEM_INVITATIONS_PER_DAY=20,
        PBEM_INVITATIONS_PER_ADDRESS_PER_DAY=3,
    )
    _from_environment(app)
    if config:
        app.config.update(config)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = instance_secret(app)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(app.config)


#: The pooler modes PBEM_DATABASE_POOLER knows.
POOLER_MODES = ("transaction", "session")


def engine_options(config: Mapping[str, Any]) -> dict[str, Any]:
    """SQLAlchemy's engine options: the configured ones, and behind a transaction pooler on
    PostgreSQL no statement prepared on the server (psycopg prepares one after five runs,
    and the next transaction may land on another server connection, which has none)."""
    options = dict(config["SQLALCHEMY_ENGINE_OPTIONS"])
    pooler = config.get("PBEM_DATABASE_POOLER")
    if pooler not in (None, *POOLER_MODES):
        raise ValueError(
            f"PBEM_DATABASE_POOLER is {pooler!r}: it is 'transaction' (PgBouncer's "
            "pool_mode = transaction), 'session', or unset"
        )
    url = str(config["SQLALCHEMY_DATABASE_URI"])
    if pooler == "transaction" and url.startswith("postgresql"):
        options["connect_args"] = {**options.get("connect_args", {}), "prepare_threshold": None}
    return options


def _from_environment(app: Flask) -> None:
    """The settings the environment gives, over the defaults."""
    url = database_url_from_env()
    if url:
        app.config["SQLALCHEMY_DATABASE_URI"] = url
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    for name in (
        "MAIL_FROM",
        "PBEM_BASE_URL",
        "SMTP_URL",
        "MAIL_TRUSTED_AUTHSERV_ID",
        "IMAP_URL",
        "PBEM_LOG_FORMAT",
        "PBEM_LOG_LEVEL",
        "PBEM_WEBHOOK_ALLOWED_HOSTS",
        "PBEM_PUSH_ALLOWED_HOSTS",
        "PBEM_VAPID_PRIVATE_KEY",
        "PBEM_VAPID_SUBJECT",
        "DKIM_SELECTOR",
        "DKIM_DOMAIN",
        "DKIM_PRIVATE_KEY",
        "PBEM_DATABASE_POOLER",
        "PBEM_LISTEN_URL",
    ):
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    for name in ("PBEM_WEBHOOK_ALLOW_HTTP", "PBEM_PUSH_ALLOW_HTTP"):
        if os.environ.get(name):
            app.config[name] = os.environ[name].lower() in ("1", "true", "yes")
    for name in (
        "MAIL_MAX_BYTES",
        "MAIL_KEPT_BYTES",
        "MAIL_ANSWERS_PER_HOUR",
        "PBEM_HEALTH_STALE_SECONDS",
        "PBEM_PROXY_HOPS",
        "PBEM_GAMES_PER_DAY",
        "PBEM_INVITATIONS_PER_DAY",
        "PBEM_INVITATIONS_PER_ADDRESS_PER_DAY",
        "PBEM_RATED_GAMES_PER_CIRCLE",
        "PBEM_HINT_PLAYOUTS",
        "PBEM_REVIEW_PLAYOUTS",
    ):
        if os.environ.get(name):
            app.config[name] = int(os.environ[name])
    for name in (
        "PBEM_SWEEP_SECONDS",
        "PBEM_HINT_SECONDS",
        "PBEM_REVIEW_SECONDS",
        "PBEM_SWEEP_BOT_SECONDS",
        "PBEM_BOT_SECONDS",
        "PBEM_MAIL_SECONDS",
        "PBEM_BODY_PAUSE_SECONDS",
        "PBEM_PAGE_POLL_SECONDS",
        "PBEM_OUTBOX_KEEP_DAYS",
    ):
        if os.environ.get(name):
            app.config[name] = float(os.environ[name])
    # Anything else as FLASK_<NAME>, e.g. FLASK_MAX_CONTENT_LENGTH=131072.
    app.config.from_prefixed_env()


def instance_secret(app: Flask) -> str:
    """A random secret kept in the instance folder, made on first use: the embedded default
    signs mail addresses and sessions with a key nobody else has."""
    return instance_file(app, "secret_key", lambda: secrets.token_urlsafe(48))


def instance_file(app: Flask, name: str, make: Callable[[], str]) -> str:
    """What the instance folder keeps in file `name` (a generated secret), written with
    `make()` by whichever process needs it first, readable by its owner only."""
    path = os.path.join(app.instance_path, name)
    os.makedirs(app.instance_path, exist_ok=True)
    try:
        # O_EXCL: of several workers starting at once, one writes the secret; all read it.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):
            with open(path, encoding="utf-8") as kept:
                secret = kept.read().strip()
            if secret:
                return secret
            time.sleep(0.01)  # another worker is writing it now
        raise RuntimeError(f"{path} is empty: delete it to have a new secret made") from None
    secret = make()
    with os.fdopen(descriptor, "w", encoding="utf-8") as kept:
        kept.write(secret)
    return secret.strip()
