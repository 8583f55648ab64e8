"""The console script upgrades a database from nothing, and the committed migrations match
the models exactly; `pbem players add` keeps a name by the rule every door keeps."""

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from pbem import create_app
from pbem.cli import main
from pbem.extensions import db
from tests.server.conftest import table_snapshot
from tests.server.test_bad_input import UNKEEPABLE


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


def test_mail_refuses_to_start_on_the_development_secret(tmp_path):
    from pbem.config import DEVELOPMENT_SECRET

    url = "sqlite:///" + str(tmp_path / "x.sqlite")
    with pytest.raises(RuntimeError, match="SECRET_KEY is the development default"):
        create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": DEVELOPMENT_SECRET})
    # Debug and testing instances may use it.
    create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": DEVELOPMENT_SECRET, "TESTING": True})


def test_an_unset_secret_is_made_once_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
    first.instance_path = str(tmp_path)
    from pbem.config import instance_secret

    made = instance_secret(first)
    assert len(made) > 40 and (tmp_path / "secret_key").read_text() == made
    assert instance_secret(first) == made
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize("bad", UNKEEPABLE.values(), ids=UNKEEPABLE)
def test_pbem_players_add_refuses_a_name_no_door_keeps(app, monkeypatch, capsys, bad):
    typed, says, _code = bad
    monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
    monkeypatch.setenv("SECRET_KEY", "players-add-test-secret")
    before = table_snapshot(app)
    with pytest.raises(SystemExit) as exit_:
        main(["players", "add", "pia@example.org", "--name", typed])
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == ""
    assert err.startswith("pbem players add: ") and f"This name {says}" in err
    assert table_snapshot(app) == before
