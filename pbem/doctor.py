"""`pbem doctor`: check an installation's configuration and say what to fix.

Each check gives one finding: `ok`, `warn` (works, but not as an installation for others
should) or `fail` (something players would notice). The command exits 1 if any check
fails, so a deploy script can stop on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import urlparse

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from sqlalchemy import text
from sqlalchemy.engine import make_url

from pbem.config import DEVELOPMENT_SECRET
from pbem.extensions import db
from pbem.notify import push, signing
from pbem.notify.sender import SmtpTransport, mail_folder
from pbem.paths import MIGRATIONS_DIR
from pbem.store import pooler
from pbem.store.health import report

#: A shorter secret is guessable enough to forge reply addresses and seat links.
SHORTEST_SECRET = 32


@dataclass
class Finding:
    level: str  # "ok", "warn" or "fail"
    topic: str
    says: str

    def __str__(self) -> str:
        return f"{self.level:<4}  {self.topic}: {self.says}"


def _database(app: Flask) -> list[Finding]:

    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    shown = url.render_as_string(hide_password=True)
    try:
        with db.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
            current = MigrationContext.configure(connection).get_current_revision()
    except Exception as error:  # any driver's error: say it, do not crash the doctor
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        return [
            Finding("fail", "database", f"{shown} does not answer ({reason}): check DATABASE_URL")
        ]
    found = [Finding("ok", "database", f"{shown} answers")]
    head = ScriptDirectory(MIGRATIONS_DIR).get_current_head()
    if current == head:
        found.append(Finding("ok", "migrations", f"at the latest revision ({head})"))
    else:
        found.append(
            Finding(
                "fail",
                "migrations",
                f"the database is at {current or 'no revision (empty)'}, the code needs {head}: "
                "run `pbem db upgrade`",
            )
        )
    return found


def _scheduler(app: Flask) -> list[Finding]:

    health = report(app.config["PBEM_HEALTH_STALE_SECONDS"])
    if health["database"] != "ok":
        return []  # said under database
    found = [Finding("warn", "scheduler", problem) for problem in health["problems"]]
    outbox = health["outbox"]
    if outbox and (outbox["retrying"] or outbox["failed_last_day"]):
        found.append(
            Finding(
                "warn",
                "outbox",
                f"{outbox['retrying']} rows wait to be tried again and "
                f"{outbox['failed_last_day']} failed in the last day (each alone: a player's "
                "webhook or mailbox); their errors are in the outbox's last_error",
            )
        )
    if health["problems"]:
        return found
    age = health["sweep"]["age_seconds"] if health["sweep"] else None
    return [Finding("ok", "scheduler", f"last sweep {age:.0f} s ago"), *found]


def _mail(app: Flask) -> list[Finding]:

    found = []
    url = app.config.get("SMTP_URL")
    if not url:
        folder = mail_folder(app)
        found.append(
            Finding(
                "warn",
                "mail out",
                f"SMTP_URL is not set: mails are written as files in {folder}, nobody gets them "
                "(set SMTP_URL=smtp://user:password@host:587?starttls=1)",
            )
        )
    else:
        smtp = SmtpTransport(url)
        where = f"{smtp.host}:{smtp.port}"
        try:
            smtp.probe()
        except Exception as error:  # refused, TLS, login: each is the operator's to fix
            found.append(
                Finding("fail", "mail out", f"SMTP at {where} failed: {error}; check SMTP_URL")
            )
        else:
            login = f" as {smtp.user}" if smtp.user else ""
            found.append(Finding("ok", "mail out", f"SMTP at {where} accepts a connection{login}"))
    sender = parseaddr(app.config["MAIL_FROM"])[1]
    domain = sender.rpartition("@")[2]
    if not domain or domain == "localhost" or "." not in domain:
        found.append(
            Finding(
                "warn",
                "mail from",
                f"MAIL_FROM is {sender or 'empty'}: replies go to addresses on its domain, so set "
                "it to an address on a domain whose mail reaches `pbem mail` (e.g. "
                "'El Grande <elgrande@games.example.org>')",
            )
        )
    else:
        found.append(Finding("ok", "mail from", f"{sender}; reply addresses on {domain}"))
    return found


def _secret(app: Flask) -> list[Finding]:
    secret = app.config["SECRET_KEY"] or ""
    if secret == DEVELOPMENT_SECRET:
        return [
            Finding(
                "fail",
                "secret key",
                "SECRET_KEY is the development default: anyone could sign reply addresses and "
                "seat links; set it to a long random value (python -c 'import secrets; "
                "print(secrets.token_urlsafe(48))')",
            )
        ]
    if len(secret) < SHORTEST_SECRET:
        return [
            Finding(
                "fail",
                "secret key",
                f"SECRET_KEY has {len(secret)} characters: use at least {SHORTEST_SECRET} "
                "random ones",
            )
        ]
    where = Path(app.instance_path) / "secret_key"
    if where.exists() and where.read_text(encoding="utf-8").strip() == secret:
        return [
            Finding(
                "warn",
                "secret key",
                f"SECRET_KEY is not set: the random one kept in {where} is used; set SECRET_KEY "
                "if web, scheduler and mail run on more than one machine (they must share it)",
            )
        ]
    return [Finding("ok", "secret key", "set, and not the development default")]


def _base_url(app: Flask) -> list[Finding]:
    base = app.config.get("PBEM_BASE_URL")
    if not base:
        return [
            Finding(
                "fail",
                "base url",
                "PBEM_BASE_URL is not set: links in mails would point at this machine's own "
                "address; set it to where players reach the pages (e.g. "
                "https://elgrande.example.org)",
            )
        ]
    parts = urlparse(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return [
            Finding("fail", "base url", f"PBEM_BASE_URL {base!r} is not an http(s) URL with a host")
        ]
    if parts.scheme == "http" and not app.debug:
        return [
            Finding(
                "warn",
                "base url",
                f"{base} is plain http: seat sign-in links in mails would travel unencrypted, "
                "and the session cookie goes without Secure; serve https (deploy/nginx) and "
                "set an https URL",
            )
        ]
    return [Finding("ok", "base url", base)]


def _dkim(app: Flask) -> list[Finding]:
    """The DKIM key, and the DNS record its selector needs."""
    try:
        signer = signing.signer(app.config)
    except signing.KeyProblem as error:
        return [Finding("fail", "dkim", str(error))]
    if signer is None:
        return [
            Finding(
                "warn",
                "dkim",
                "outgoing mail is not signed: set DKIM_SELECTOR, DKIM_DOMAIN and "
                "DKIM_PRIVATE_KEY, or sign in your mail server (deploy/README.md, "
                "'Mail that arrives')",
            )
        ]
    name, value = signer.dns_record()
    return [Finding("ok", "dkim", f'mail is signed; publish the TXT record {name} = "{value}"')]


def _push(app: Flask) -> list[Finding]:
    """The VAPID key that signs Web Push (made now in the instance folder if no setting
    gives one and none is kept), and the subject push services may write to."""
    where = push.key_path(app)
    made = where is not None and not where.exists()
    try:
        public = push.public_key(app)
    except Exception as error:  # py_vapid and cryptography raise several kinds for a bad key
        source = "PBEM_VAPID_PRIVATE_KEY" if where is None else str(where)
        return [Finding("fail", "web push", f"the VAPID key in {source} cannot be read: {error}")]
    kept = "from PBEM_VAPID_PRIVATE_KEY" if where is None else f"kept in {where}"
    found = [
        Finding(
            "ok",
            "web push",
            f"pushes are signed with the VAPID key {kept}{' (made now)' if made else ''}; "
            f"its public key is {public}",
        )
    ]
    subject = push.subject(app.config)
    if subject is None or not subject.startswith(("mailto:", "https://")):
        found.append(
            Finding(
                "warn",
                "web push",
                "no contact for push services (some refuse pushes without one): set "
                "PBEM_VAPID_SUBJECT to mailto:you@example.org, or set MAIL_FROM",
            )
        )
    return found


def _pooler(app: Flask) -> list[Finding]:
    """On PostgreSQL: a pooler in between without PBEM_DATABASE_POOLER, and whether the
    sender's wake-up hears a commit (else a move's mail waits for the poll)."""
    if make_url(app.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() != "postgresql":
        return []
    found = []
    setting = app.config.get("PBEM_DATABASE_POOLER")
    way = pooler.route(db.engine)
    if way.pooled and setting is None:
        found.append(
            Finding(
                "fail",
                "pooler",
                f"DATABASE_URL connects to port {way.url_port}, the database answers on "
                f"{way.server_port}: a connection pooler is in between. In transaction mode "
                "(PgBouncer's pool_mode = transaction) set PBEM_DATABASE_POOLER=transaction, "
                "or requests fail when a statement prepared on one server connection is run "
                "on another; in session mode set PBEM_DATABASE_POOLER=session",
            )
        )
    elif setting:
        prepares = "no statement is prepared on the server" if setting == "transaction" else ""
        found.append(Finding("ok", "pooler", f"PBEM_DATABASE_POOLER={setting}; {prepares}"))
    listen = app.config.get("PBEM_LISTEN_URL") or app.config["SQLALCHEMY_DATABASE_URI"]
    shown = make_url(listen).render_as_string(hide_password=True)
    try:
        heard = pooler.hears(listen, db.engine)
    except Exception as error:  # any driver's error: say it, do not crash the doctor
        heard, why = False, str(error).splitlines()[0]
    else:
        why = f"no notification came within {pooler.HEAR_SECONDS:g} s"
    if heard:
        found.append(
            Finding("ok", "mail wake-up", f"the sender hears commits on {shown}: mail goes at once")
        )
    else:
        found.append(
            Finding(
                "fail",
                "mail wake-up",
                f"the sender hears no commit on {shown} ({why}): a move's mail waits for the "
                "poll (PBEM_MAIL_SECONDS). Behind a transaction pooler set PBEM_LISTEN_URL to "
                "a direct connection to PostgreSQL",
            )
        )
    return found


def examine(app: Flask) -> list[Finding]:
    """Every check, in the order an operator would fix them."""
    with app.app_context():
        found = _database(app)
        if all(f.level == "ok" for f in found):
            found += _pooler(app) + _scheduler(app)
        found += _mail(app) + _dkim(app) + _secret(app) + _base_url(app) + _push(app)
    return found
