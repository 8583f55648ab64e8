"""The console script upgrades a database from nothing, and the committed migrations match
the models exactly."""

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from pbem import create_app
from pbem.cli import main
from pbem.extensions import db


def test_pbem_db_upgrade_creates_every_table(tmp_path, monkeypatch, capsys):
    url = f"sqlite:///{tmp_path}/fresh.sqlite"
    monkeypatch.setenv("DATABASE_URL", url)
    main(["db", "upgrade"])
    assert "up to date" in capsys.readouterr().out
    tables = set(sa.inspect(sa.create_engine(url)).get_table_names())
    assert {
        "players",
        "games",
        "seats",
        "moves",
        "idempotency_records",
        "alembic_version",
    } <= tables
    main(["db", "upgrade"])  # a second run is harmless


def test_the_migrations_match_the_models(app):
    # `app` runs on the migrated test database (SQLite or PostgreSQL).
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_database_url_from_the_environment(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://user@db.example/pbem")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://user@db.example/pbem"
