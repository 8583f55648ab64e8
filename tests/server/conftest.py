"""Fixtures for the server tests: a migrated database (SQLite, or PostgreSQL from
TEST_DATABASE_URL in a schema of its own), an app per test as the factory made it, and
helpers to make players and games through the API.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import create_app, logs
from pbem.cli import upgrade_database
from pbem.extensions import db
from pbem.game import state_cache
from pbem.game.players import add_player
from tests.server.mail_helpers import SmtpServer

TABLES_CHILD_FIRST = [
    "hints",
    "game_reviews",
    "tournament_tables",
    "tournament_entries",
    "tournaments",
    "moderation_actions",
    "reports",
    "blocks",
    "talk_mutes",
    "drawn_records",
    "card_plays",
    "decisions",
    "game_ratings",
    "bot_ratings",
    "player_ratings",
    "heartbeats",
    "counters",
    "inbound_mails",
    "idempotency_records",
    "deadlines",
    "idle_limits",
    "sign_in_links",
    "rate_counts",
    "suppressed_addresses",
    "ended_sessions",
    "table_talk",
    "notes",
    "orders",
    "absences",
    "push_subscriptions",
    "outbox",
    "snapshots",
    "moves",
    "seats",
    "games",
    "players",
]


@contextmanager
def own_schema(base: str, prefix: str) -> Iterator[str]:
    """A URL whose connections use a new schema of `base`'s PostgreSQL database, so two runs
    on the same database do not collide; the schema is dropped afterwards."""
    schema = prefix + uuid.uuid4().hex[:12]
    admin = sa.create_engine(base)
    with admin.begin() as connection:
        connection.execute(sa.text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.begin() as connection:
            connection.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@contextmanager
def unmigrated_database(tmp_path, prefix: str) -> Iterator[str]:
    """A database of no tables, for a migration's test: a SQLite file, or a schema of its own
    on TEST_DATABASE_URL (named from `prefix`)."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        yield f"sqlite:///{tmp_path}/old.sqlite"
        return
    with own_schema(base, prefix) as url:
        yield url


def one_player_and_game(connection: sa.Connection, moment: datetime) -> None:
    """Player 1 and their active game 1, as raw rows: what a migration's test builds on
    before it upgrades past the revision it tests."""
    connection.execute(
        sa.text(
            "INSERT INTO players (id, email, name, preferences, created_at) "
            "VALUES (1, 'a@example.org', 'A', '{}', :t)"
        ),
        {"t": moment},
    )
    connection.execute(
        sa.text(
            "INSERT INTO games (id, title, options, timing, seed, status, creator_id,"
            " colours, pending, seq, created_at, updated_at) VALUES "
            "(1, 'G', '{}', '{}', 1, 'active', 1, '[]', '[]', 0, :t, :t)"
        ),
        {"t": moment},
    )


@contextmanager
def migrated_database(tmp_path_factory, name: str) -> Iterator[str]:
    """A database migrated to the latest revision: a SQLite file, or a schema of its own on
    TEST_DATABASE_URL."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        url = "sqlite:///" + str(tmp_path_factory.mktemp(name) / f"{name}.sqlite")
        upgrade_database(create_app({"SQLALCHEMY_DATABASE_URI": url}))
        yield url
        return
    with own_schema(base, f"pbem_{name}_") as url:
        upgrade_database(create_app({"SQLALCHEMY_DATABASE_URI": url}))
        yield url


@pytest.fixture(scope="session")
def database_url(tmp_path_factory):
    """A database holding only this run's tables, migrated to the latest revision."""
    with migrated_database(tmp_path_factory, "test") as url:
        yield url


def empty_tables(app) -> None:
    """After a test: every row gone, the app's connections closed."""
    with app.app_context():
        db.session.remove()
        with db.engine.begin() as connection:
            for table in TABLES_CHILD_FIRST:
                connection.execute(sa.text(f"DELETE FROM {table}"))
        db.engine.dispose()


@dataclass
class _Made:
    """An app as `create_app` made it: what a test may change on it, as it was."""

    app: Flask
    config: dict
    instance_path: str
    extensions: dict


#: The apps this worker made, one per configuration (its repr).
_MADE: dict[str, _Made] = {}


def app_as_made(config: dict) -> Flask:
    """An app of `config`, as the factory makes it, made once per test worker and put back
    as it was after each test (`put_back`): making one costs 90 ms of CPU (Werkzeug compiles
    its routes, flask-smorest its spec), most of a short test's time."""
    key = repr(sorted(config.items()))
    if key not in _MADE:
        made = create_app(config)
        _MADE[key] = _Made(made, dict(made.config), made.instance_path, dict(made.extensions))
    app = _MADE[key].app
    # The log to this test's stderr, as making the app would: the last test's is closed.
    logs.configure_logging(app)
    return app


def put_back(app: Flask) -> None:
    """The app as it was made: its settings, its instance folder and its extensions (the set
    clock and every per-worker cache gone: a new test's game 1 is not the last one's), with
    a state cache of its own."""
    made = next(m for m in _MADE.values() if m.app is app)
    app.config.clear()
    app.config.update(made.config)
    app.instance_path = made.instance_path
    app.extensions.clear()
    app.extensions.update(made.extensions)
    state_cache.init_app(app)


@pytest.fixture
def app(database_url):
    # House bots in tests are greedy unless a test names the strong one: it thinks for half
    # a second a move, and many tests play whole games by bots.
    # An open page asks every half second whether the game moved (4 s by default): the
    # browser tests wait for it.
    config = {"PBEM_DEFAULT_TIMING": {"takeover_bot": "greedy"}, "PBEM_PAGE_POLL_SECONDS": 0.5}
    app = app_as_made({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, **config})
    yield app
    empty_tables(app)
    put_back(app)


@pytest.fixture
def client(app):
    return app.test_client()


def add_player_now(app, email: str, name: str) -> str:
    """`pbem players add` in this process: a proved player, and its API key."""
    with app.app_context():
        _player, key = add_player(email, name)
        db.session.commit()
    return key


class Api:
    """A thin client over the Flask test client, speaking in the game's words."""

    def __init__(self, client):
        self.client = client
        self.keys: dict[str, str] = {}

    def register(self, email: str, name: str | None = None) -> str:
        """A player with a proved address and its key, as the operator makes one (`pbem
        players add`): people prove theirs by a mailed link (tests/hostile show that door)."""
        key = add_player_now(self.client.application, email, name or email)
        self.keys[email] = key
        return key

    @staticmethod
    def auth(key: str | None) -> dict:
        return {"Authorization": f"Bearer {key}"} if key else {}

    def new_game(self, colours: list[str], options: dict | None = None) -> tuple[int, dict]:
        """A game with one fresh player per colour; returns its id and {colour: key}."""
        tag = uuid.uuid4().hex[:8]
        keys = {c: self.register(f"{c}-{tag}@example.org", c.title()) for c in colours}
        body = {
            "title": f"Game {tag}",
            "seats": [{"email": f"{c}-{tag}@example.org", "colour": c} for c in colours],
            "options": options or {},
        }
        response = self.client.post("/api/games", json=body, headers=self.auth(keys[colours[0]]))
        assert response.status_code == 201, response.get_json()
        return response.get_json()["id"], keys

    def new_two_colour_game(
        self, colours: list[str], options: dict | None = None
    ) -> tuple[int, dict]:
        """A two-colour game of 4 colours: two fresh people, the first holding colours 0 and
        1, the second 2 and 3. Returns its id and {colour: key} (a person's two colours map
        to the same key)."""
        tag = uuid.uuid4().hex[:8]
        emails = [f"first-{tag}@example.org"] * 2 + [f"second-{tag}@example.org"] * 2
        first, second = self.register(emails[0], "First"), self.register(emails[2], "Second")
        body = {
            "title": f"Two-colour game {tag}",
            "seats": [{"email": e, "colour": c} for e, c in zip(emails, colours, strict=True)],
            "options": {**(options or {}), "variant": "two_colour"},
        }
        response = self.client.post("/api/games", json=body, headers=self.auth(first))
        assert response.status_code == 201, response.get_json()
        keys = dict(zip(colours, [first, first, second, second], strict=True))
        return response.get_json()["id"], keys

    def get(self, path: str, key: str | None = None):
        return self.client.get(path, headers=self.auth(key))

    def post_moves(self, game_id, key, moves, expected_seq, **extra):
        headers = self.auth(key)
        if "idempotency_key" in extra:
            headers["Idempotency-Key"] = extra.pop("idempotency_key")
        body = {"expected_seq": expected_seq, "moves": moves, **extra}
        return self.client.post(f"/api/games/{game_id}/moves", json=body, headers=headers)


@pytest.fixture
def api(client):
    return Api(client)


def table_snapshot(app) -> dict:
    """Every row of every table, to show a refused request changed nothing."""
    with app.app_context(), db.engine.connect() as connection:
        return {
            table: sorted(map(repr, connection.execute(sa.text(f"SELECT * FROM {table}")).all()))
            for table in TABLES_CHILD_FIRST
        }


def assert_problem(response, status: int) -> dict:
    """A problem+json answer with the status and a sentence for a person."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["status"] == status
    assert isinstance(body["detail"], str) and len(body["detail"]) > 20, body
    return body


# --- mail: a real SMTP server, and an app that delivers to it ----------------------------


@pytest.fixture
def smtp():
    server = SmtpServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def mail_app(database_url, smtp):
    app = app_as_made(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "MAIL_FROM": "El Grande <play@pbem.example>",
            "PBEM_BASE_URL": "https://pbem.example",
            # The tests' webhook receiver listens on plain http on this machine.
            "PBEM_WEBHOOK_ALLOW_HTTP": True,
            "PBEM_WEBHOOK_ALLOWED_HOSTS": "127.0.0.1",
            # Greedy house bots, as in `app`: the strong one thinks for a second a move.
            "PBEM_DEFAULT_TIMING": {"takeover_bot": "greedy"},
        }
    )
    app.config["SMTP_URL"] = smtp.url  # read at each pass; this test's server
    yield app
    empty_tables(app)
    put_back(app)


@pytest.fixture
def mail_api(mail_app):
    return Api(mail_app.test_client())
