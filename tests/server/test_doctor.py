"""`pbem doctor`: each check finds what is wrong and says what to do about it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from py_vapid import Vapid02

from pbem import create_app
from pbem.config import DEVELOPMENT_SECRET
from pbem.doctor import examine
from pbem.extensions import db
from pbem.store.health import beat
from tests.server.mail_helpers import free_port

#: A throwaway key, for tests only.
DKIM_KEY = Path(__file__).parent / "data" / "dkim-test-key.pem"

GOOD = {
    "SECRET_KEY": "k" * 48,
    "PBEM_BASE_URL": "https://elgrande.example.org",
    "MAIL_FROM": "El Grande <play@elgrande.example.org>",
    "DKIM_SELECTOR": "pbem2026",
    "DKIM_DOMAIN": "elgrande.example.org",
    "DKIM_PRIVATE_KEY": str(DKIM_KEY),
}


def findings(config: dict) -> dict[str, tuple[str, str]]:
    """{topic: (level, what it says)}; a topic found twice keeps its worst."""
    found: dict[str, tuple[str, str]] = {}
    order = ["ok", "warn", "fail"]
    for f in examine(create_app({"TESTING": True, **config})):
        if f.topic not in found or order.index(f.level) > order.index(found[f.topic][0]):
            found[f.topic] = (f.level, f.says)
    return found


def test_a_good_installation_is_all_ok(app, database_url, smtp):
    with app.app_context():
        beat("sweep")
        db.session.commit()
    found = findings({**GOOD, "SQLALCHEMY_DATABASE_URI": database_url, "SMTP_URL": smtp.url})
    expected = {
        "database": "ok",
        "migrations": "ok",
        "scheduler": "ok",
        "mail out": "ok",
        "mail from": "ok",
        "dkim": "ok",
        "secret key": "ok",
        "base url": "ok",
        "web push": "ok",
    }
    if database_url.startswith("postgresql"):
        # The sender's wake-up heard a commit's notification (no pooler in between here).
        expected["mail wake-up"] = "ok"
    assert {topic: level for topic, (level, _) in found.items()} == expected
    assert f"127.0.0.1:{smtp.port}" in found["mail out"][1]
    assert 'pbem2026._domainkey.elgrande.example.org = "v=DKIM1; k=rsa; p=' in found["dkim"][1]


def test_unsigned_mail_is_warned_of_and_a_bad_key_is_a_failure(database_url, tmp_path):
    base = {**GOOD, "SQLALCHEMY_DATABASE_URI": database_url}
    unsigned = {k: v for k, v in base.items() if not k.startswith("DKIM_")}
    level, says = findings(unsigned)["dkim"]
    assert level == "warn" and "DKIM_SELECTOR" in says
    level, says = findings({**base, "DKIM_PRIVATE_KEY": str(tmp_path / "none.pem")})["dkim"]
    assert level == "fail" and "cannot be read" in says
    (tmp_path / "bad.pem").write_text("not a key")
    level, says = findings({**base, "DKIM_PRIVATE_KEY": str(tmp_path / "bad.pem")})["dkim"]
    assert level == "fail" and "is not an RSA private key" in says


def test_an_unmigrated_database_says_to_upgrade(tmp_path):
    found = findings({**GOOD, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/new.sqlite"})
    level, says = found["migrations"]
    assert level == "fail" and "no revision (empty)" in says and "pbem db upgrade" in says
    assert "scheduler" not in found  # nothing to ask an empty database


def test_an_unreachable_database_is_named_without_its_password():
    url = "postgresql+psycopg://pbem:hunter2@127.0.0.1:1/pbem?connect_timeout=2"
    level, says = findings({**GOOD, "SQLALCHEMY_DATABASE_URI": url})["database"]
    assert level == "fail" and "check DATABASE_URL" in says
    assert "127.0.0.1:1/pbem" in says and "hunter2" not in says


def test_a_stopped_scheduler_and_unsent_mail_are_warned_of(app, database_url):
    level, says = findings({**GOOD, "SQLALCHEMY_DATABASE_URI": database_url})["scheduler"]
    assert level == "warn" and "pbem scheduler" in says


def test_an_smtp_server_that_refuses_is_a_failure(database_url):
    url = f"smtp://127.0.0.1:{free_port()}?timeout=2"
    level, says = findings({**GOOD, "SQLALCHEMY_DATABASE_URI": database_url, "SMTP_URL": url})[
        "mail out"
    ]
    assert level == "fail" and "check SMTP_URL" in says


def test_mail_to_files_and_a_localhost_sender_are_warned_of(database_url):
    found = findings(
        {**GOOD, "SQLALCHEMY_DATABASE_URI": database_url, "MAIL_FROM": "x <elgrande@localhost>"}
    )
    assert found["mail out"][0] == "warn" and "SMTP_URL" in found["mail out"][1]
    assert found["mail from"][0] == "warn" and "elgrande@localhost" in found["mail from"][1]


def test_secrets_the_development_one_a_short_one_and_the_instance_one(database_url):
    base = {**GOOD, "SQLALCHEMY_DATABASE_URI": database_url}
    level, says = findings({**base, "SECRET_KEY": DEVELOPMENT_SECRET})["secret key"]
    assert level == "fail" and "development default" in says
    level, says = findings({**base, "SECRET_KEY": "short"})["secret key"]
    assert level == "fail" and "5 characters" in says
    unset = {k: v for k, v in base.items() if k != "SECRET_KEY"}
    level, says = findings(unset)["secret key"]
    assert level == "warn" and "secret_key" in says and "more than one machine" in says


def test_the_base_url_missing_malformed_or_plain_http(database_url):
    base = {**GOOD, "SQLALCHEMY_DATABASE_URI": database_url}
    for url, level, words in [
        (None, "fail", "PBEM_BASE_URL is not set"),
        ("elgrande.example.org", "fail", "not an http(s) URL"),
        ("http://elgrande.example.org", "warn", "unencrypted"),
        # Plain http on this machine too, unless in debug (a developer's own server).
        ("http://127.0.0.1:5000", "warn", "without Secure"),
    ]:
        found = findings({**base, "PBEM_BASE_URL": url})["base url"]
        assert found[0] == level and words in found[1], (url, found)
    found = findings({**base, "PBEM_BASE_URL": "http://127.0.0.1:5000", "DEBUG": True})
    assert found["base url"][0] == "ok"


def test_the_command_prints_the_findings_and_exits_1_on_a_failure(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "SMTP", "TEST_"))}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path}/doctor.sqlite", SECRET_KEY="s" * 40)
    done = subprocess.run(
        [sys.executable, "-c", "from pbem.cli import main; main()", "doctor"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("fail  migrations:") for line in lines), lines
    assert any(line.startswith("fail  base url:") for line in lines), lines
    assert lines[-1].startswith("Doctor: 2 to fix")


def test_the_web_push_key_is_made_in_the_instance_folder_once_and_checked(
    database_url, tmp_path, monkeypatch
):
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    base = {**GOOD, "SQLALCHEMY_DATABASE_URI": database_url}
    level, says = findings(base)["web push"]
    kept = tmp_path / "vapid_private_key.pem"
    assert level == "ok" and f"kept in {kept} (made now)" in says
    assert kept.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    assert kept.stat().st_mode & 0o777 == 0o600
    level, again = findings(base)["web push"]
    assert level == "ok" and "(made now)" not in again
    assert again.split("public key is ")[1] == says.split("public key is ")[1]  # the same key


def test_a_bad_web_push_key_fails_and_no_contact_is_warned_of(database_url):
    base = {**GOOD, "SQLALCHEMY_DATABASE_URI": database_url}
    level, says = findings({**base, "PBEM_VAPID_PRIVATE_KEY": "not a key"})["web push"]
    assert level == "fail" and "PBEM_VAPID_PRIVATE_KEY cannot be read" in says
    key = Vapid02()
    key.generate_keys()
    given = {**base, "PBEM_VAPID_PRIVATE_KEY": key.private_pem().decode(), "MAIL_FROM": ""}
    level, says = findings({**given, "PBEM_BASE_URL": "http://elgrande.example.org"})["web push"]
    assert level == "warn" and "set PBEM_VAPID_SUBJECT" in says


def test_behind_a_transaction_pooler_no_statement_is_prepared_on_the_server(database_url):
    """PBEM_DATABASE_POOLER=transaction: psycopg prepares nothing (after five runs it would,
    and the next transaction may be on another server connection). An unknown mode is
    refused at start with the ones there are."""
    import pytest

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": database_url, "PBEM_DATABASE_POOLER": "transaction"}
    )
    options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    if database_url.startswith("postgresql"):
        assert options["connect_args"]["prepare_threshold"] is None
        with app.app_context(), db.engine.connect() as connection:
            assert connection.connection.driver_connection.prepare_threshold is None
            db.engine.dispose()
    else:
        assert "connect_args" not in options  # SQLite: nothing between app and file
    plain = create_app({"SQLALCHEMY_DATABASE_URI": database_url})
    assert "prepare_threshold" not in plain.config["SQLALCHEMY_ENGINE_OPTIONS"].get(
        "connect_args", {}
    )
    with pytest.raises(ValueError, match="'transaction'"):
        create_app({"SQLALCHEMY_DATABASE_URI": database_url, "PBEM_DATABASE_POOLER": "statement"})
