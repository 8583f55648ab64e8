"""deploy/compose.yaml: valid by the Compose Specification's schema, and what it runs works."""

from __future__ import annotations

import copy
import json
import re
from urllib.parse import urlsplit

import jsonschema
import pytest
import yaml

from tests.deploy.helpers import DEPLOY, REPO, interpolate, parse_pbem

PBEM_SERVICES = ("migrate", "web", "scheduler", "mailin")
LONG_RUNNING = ("db", "web", "scheduler", "mailin", "mailpit")
# What deploy/.env.example would hold once filled in.
FILLED_ENV = {"SECRET_KEY": "s" * 40, "POSTGRES_PASSWORD": "pw"}


@pytest.fixture(scope="module")
def schema():
    return json.loads((REPO / "tests/deploy/compose-spec.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def compose():
    # safe_load resolves the YAML merge keys (<<: *pbem) as compose does.
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))


def schema_errors(schema, document) -> list[str]:
    # The schema declares draft-07 (by a URL jsonschema does not map to a draft by itself).
    validator = jsonschema.Draft7Validator(schema)
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(document)
    ]


def test_the_vendored_schema_is_a_draft_7_schema(schema):
    jsonschema.Draft7Validator.check_schema(schema)


def test_the_compose_file_is_valid(schema, compose):
    assert schema_errors(schema, compose) == []


@pytest.mark.parametrize(
    "path, broken",
    [
        (("services", "web", "depends_on", "db", "condition"), "service_ready"),
        (("services", "web", "restart"), ["unless-stopped"]),
        (("services", "migrate", "command"), 42),
        (("services", "scheduler", "restrat"), "always"),
    ],
)
def test_a_broken_copy_is_refused(schema, compose, path, broken):
    # The schema check above would catch these: it is not a check that passes anything.
    document = copy.deepcopy(compose)
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = broken
    assert schema_errors(schema, document)


def test_every_service_is_there(compose):
    assert set(compose["services"]) >= {*PBEM_SERVICES, "db", "mailpit"}


def test_the_database_is_postgres_16_with_a_volume_and_a_pg_isready_healthcheck(compose):
    db = compose["services"]["db"]
    assert db["image"] == "postgres:16"
    check = db["healthcheck"]["test"]
    assert check[0] in ("CMD", "CMD-SHELL") and "pg_isready" in " ".join(check[1:])
    volume, target = db["volumes"][0].split(":")
    assert volume in compose["volumes"] and target == "/var/lib/postgresql/data"


def test_the_pbem_processes_wait_for_the_database_and_the_migration(compose):
    services = compose["services"]
    assert services["migrate"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    for name in ("web", "scheduler", "mailin"):
        depends = services[name]["depends_on"]
        assert depends["db"] == {"condition": "service_healthy"}, name
        assert depends["migrate"] == {"condition": "service_completed_successfully"}, name


def test_long_running_services_restart_and_the_migration_does_not(compose):
    services = compose["services"]
    for name in LONG_RUNNING:
        assert services[name]["restart"] == "unless-stopped", name
    assert services["migrate"].get("restart", "no") == "no"


def test_every_command_is_an_exec_form_list(compose):
    for name, service in compose["services"].items():
        if "command" in service:
            command = service["command"]
            assert isinstance(command, list), name
            assert all(isinstance(word, str) for word in command), name


def test_each_pbem_command_is_one_the_cli_accepts(compose):
    services = compose["services"]
    commands = {name: services[name]["command"] for name in PBEM_SERVICES}
    assert commands["migrate"][:1] == ["pbem"]
    parsed = {name: parse_pbem(c[1:]) for name, c in commands.items() if c[0] == "pbem"}
    assert (parsed["migrate"].command, parsed["migrate"].db_command) == ("db", "upgrade")
    assert parsed["scheduler"].command == "scheduler"
    mailin = parsed["mailin"]
    assert (mailin.command, mailin.mail_command, mailin.host) == ("mail", "smtpd", "0.0.0.0")
    # The listener's port is the one published.
    assert f"{mailin.port}:{mailin.port}" in services["mailin"]["ports"]


def test_the_web_command_is_gunicorn_with_the_repository_config(compose, monkeypatch):
    from gunicorn.config import Config
    from gunicorn.util import import_app

    command = compose["services"]["web"]["command"]
    assert command[0] == "gunicorn"
    options = Config().parser().parse_args(command[1:])
    # The image's working directory holds deploy/gunicorn.conf.py (test_dockerfile checks).
    assert (REPO / options.config).is_file()
    (app_spec,) = options.args
    # The app path imports and builds the app (a secret given: none written to the checkout).
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    monkeypatch.setenv("DATABASE_URL", "sqlite://")
    app = import_app(app_spec)
    assert app.name == "pbem"


def test_web_binds_the_published_port(compose):
    web = compose["services"]["web"]
    host, port = web["environment"]["PBEM_BIND"].rsplit(":", 1)
    assert host == "0.0.0.0" and f"{port}:{port}" in web["ports"]


def test_no_service_turns_on_gunicorns_access_log(compose):
    """gunicorn's access log writes a seat sign-in link's token as it came; the app's own
    request lines (pbem.logs) mask it."""
    for name, service in compose["services"].items():
        assert "PBEM_ACCESS_LOG" not in service.get("environment", {}), name


def test_every_pbem_process_has_the_same_settings(compose):
    # One SECRET_KEY for all: the scheduler signs the reply addresses mail in checks.
    shared = compose["x-pbem-env"]
    for name in PBEM_SERVICES:
        environment = compose["services"][name]["environment"]
        assert {key: environment[key] for key in shared} == shared, name
    assert set(shared) >= {"DATABASE_URL", "SECRET_KEY", "MAIL_FROM", "PBEM_BASE_URL", "SMTP_URL"}


def test_the_settings_point_at_the_other_services(compose):
    from pbem.config import database_url_from_env

    services = compose["services"]
    env = {key: interpolate(value, FILLED_ENV) for key, value in compose["x-pbem-env"].items()}
    assert env["SMTP_URL"] == "smtp://mailpit:1025"
    database = urlsplit(env["DATABASE_URL"])
    db_env = {
        key: interpolate(value, FILLED_ENV) for key, value in services["db"]["environment"].items()
    }
    assert database.hostname == "db" and database.hostname in services
    assert database.username == db_env["POSTGRES_USER"]
    assert database.password == db_env["POSTGRES_PASSWORD"]
    assert database.path == "/" + db_env["POSTGRES_DB"]
    assert "8026:8025" in services["mailpit"]["ports"]  # its web UI; 8025 is mail in
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATABASE_URL", env["DATABASE_URL"])
        assert database_url_from_env().startswith("postgresql+psycopg://")


def test_the_secrets_must_be_set_and_the_env_example_names_them(compose):
    shared = compose["x-pbem-env"]
    # An empty or missing secret stops compose (${NAME:?...}) instead of starting without it.
    for name in FILLED_ENV:
        with pytest.raises(LookupError):
            interpolate(json.dumps(compose), {**FILLED_ENV, name: ""})
    assert shared["SECRET_KEY"].startswith("${SECRET_KEY:?")
    example = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    assigned = dict(re.findall(r"^(\w+)=(.*)$", example, flags=re.MULTILINE))
    assert assigned == {"SECRET_KEY": "", "POSTGRES_PASSWORD": ""}


def test_the_grown_installation_is_valid_and_puts_the_pooler_between(schema, compose):
    """deploy/compose.grow.yaml, on top of compose.yaml: valid by the schema; web, web2 and
    the scheduler reach the database through PgBouncer with the pooler's setting, the
    scheduler's wake-up straight to the database; nginx spreads requests over both nodes."""
    grown = yaml.safe_load((DEPLOY / "compose.grow.yaml").read_text(encoding="utf-8"))
    assert schema_errors(schema, grown) == []
    services = grown["services"]
    assert {"pgbouncer", "web", "web2", "scheduler", "nginx"} <= set(services)
    assert services["pgbouncer"]["environment"]["POOL_MODE"] == "transaction"
    for name in ("web", "web2", "scheduler"):
        env = {k: interpolate(v, FILLED_ENV) for k, v in services[name]["environment"].items()}
        assert urlsplit(env["DATABASE_URL"]).hostname == "pgbouncer", name
        assert env["PBEM_DATABASE_POOLER"] == "transaction", name
    listen = interpolate(services["scheduler"]["environment"]["PBEM_LISTEN_URL"], FILLED_ENV)
    assert urlsplit(listen).hostname == "db" and "db" in compose["services"]
    # web2 is web's twin: the same command, from a service of compose.yaml with no port.
    assert services["web2"]["command"] == compose["services"]["web"]["command"]
    base = compose["services"][services["web2"]["extends"]["service"]]
    assert "ports" not in base and "ports" not in services["web2"]
    upstream = (DEPLOY / "grow" / "nginx.conf").read_text(encoding="utf-8")
    assert "server web:8000" in upstream and "server web2:8000" in upstream
