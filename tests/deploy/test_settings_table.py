"""deploy/README.md's table of settings names every environment variable the server and
deploy/'s files read, with the defaults the app really has."""

from __future__ import annotations

import re

import pytest
import yaml

from pbem import create_app
from tests.deploy.helpers import DEPLOY, REPO

#: The ones read today; the search below must find at least these (or it is broken).
KNOWN = {
    "DATABASE_URL",
    "SECRET_KEY",
    "MAIL_FROM",
    "PBEM_BASE_URL",
    "SMTP_URL",
    "MAIL_TRUSTED_AUTHSERV_ID",
    "IMAP_URL",
    "MAIL_MAX_BYTES",
    "MAIL_ANSWERS_PER_HOUR",
    "PBEM_SWEEP_SECONDS",
    "PBEM_MAIL_SECONDS",
    "ORIGINAL_RECIPIENT",
    "RECIPIENT",
    "PBEM_BIND",
    "WEB_CONCURRENCY",
    "PBEM_THREADS",
    "PBEM_ACCESS_LOG",
    "PBEM_LOG_LEVEL",
}


def table() -> dict[str, str]:
    """{setting: its default cell}, from the table under "## Settings"."""
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `"):
            for name in re.findall(r"`([A-Z][A-Z0-9_<>]*)`", cells[0]):
                rows[name] = cells[1]
    return rows


def read_by_the_code() -> set[str]:
    names: set[str] = set()
    sources = [*sorted((REPO / "pbem").rglob("*.py")), DEPLOY / "gunicorn.conf.py"]
    for path in sources:
        if "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"""os\.environ(?:\.get)?[\[(]\s*["']([A-Z0-9_]+)["']""", text))
        # pbem.config reads some in loops: for name in ("MAIL_FROM", ...): os.environ.get(name)
        for loop in re.finditer(r"for name in \(([^)]*)\):\s*\n\s*if os\.environ", text):
            names |= set(re.findall(r'"([A-Z0-9_]+)"', loop.group(1)))
        if "from_prefixed_env()" in text:
            names.add("FLASK_<NAME>")
    return names


def read_by_deploy_files() -> set[str]:
    compose_text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    compose = yaml.safe_load(compose_text)
    names = set(re.findall(r"\$\{(\w+)", compose_text))
    for name in ("migrate", "web", "scheduler", "mailin"):
        names |= set(compose["services"][name]["environment"])
    env_example = (DEPLOY / "systemd" / "pbem.env.example").read_text(encoding="utf-8")
    names |= set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", env_example, flags=re.MULTILINE))
    names |= set(re.findall(r"\$\{(\w+):-", (DEPLOY / "pbem-env").read_text(encoding="utf-8")))
    return names


def test_the_search_finds_the_settings_known_today():
    assert read_by_the_code() >= KNOWN | {"FLASK_<NAME>"}


def test_every_setting_the_code_reads_is_in_the_table():
    missing = read_by_the_code() - set(table())
    assert not missing, f"add to deploy/README.md's settings table: {sorted(missing)}"


def test_every_setting_deploys_files_use_is_in_the_table():
    missing = read_by_deploy_files() - set(table())
    assert not missing, f"add to deploy/README.md's settings table: {sorted(missing)}"


@pytest.mark.parametrize(
    "name",
    [
        "MAIL_MAX_BYTES",
        "MAIL_ANSWERS_PER_HOUR",
        "PBEM_SWEEP_SECONDS",
        "PBEM_MAIL_SECONDS",
        "PBEM_GAMES_PER_DAY",
        "PBEM_INVITATIONS_PER_DAY",
        "PBEM_INVITATIONS_PER_ADDRESS_PER_DAY",
        "PBEM_RATED_GAMES_PER_CIRCLE",
    ],
)
def test_the_documented_default_is_the_apps(name, monkeypatch):
    monkeypatch.delenv(name, raising=False)
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x" * 40})
    (documented,) = re.findall(r"`([\d.]+)`", table()[name])
    assert float(documented) == app.config[name]
