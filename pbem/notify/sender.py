"""Delivering the outbox: due rows are claimed a batch at a time, and each is marked as it
leaves.

A batch (at most `BATCH` rows, oldest first) is claimed by one statement that moves them
queued -> sending under a claim of the pass's own (`FOR UPDATE SKIP LOCKED` in its subquery
on PostgreSQL, so a second sender passes them by; SQLite serialises writers, and the update
re-checks `queued`), so two senders (`pbem serve`'s and a `pbem mail send`) never send one
row twice. The batch is sent over the one connection, in id order, and each row is marked
sent in a commit of its own (one narrow UPDATE by id) as soon as the server accepted it,
before the next one is sent.

A failure is its row's: whatever sending one mail, webhook or push raises (but the database
going away), that row is retried with backoff (30 s, doubling, at most an hour apart) and
marked failed a day after it was queued, or at once where this server will not post; the
pass goes on to the next row, and the game's admin sees a failed row in the game's JSON.

A claim is a lease (`LEASE`), renewed while its batch is sent. A sender killed, or its
database connection cut, anywhere in a batch leaves its rows `sending` under a lease that
runs out: the next pass hands the batch back at once, but for its first row still
`sending`, the one whose DATA may have been under way, which goes out again after
`STUCK_AFTER` as the same stored text (the same Message-ID, so the receiving end can drop
the copy). So a dead sender delays one row, and sends at most that one twice.

The mails a move causes wait in the outbox as what happened; each pass first composes them
(`compose_queued`), then gathers digests, and only composed rows are claimed.
"""

from __future__ import annotations

import json
import os
import secrets
import smtplib
import ssl
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from email import message_from_string, policy
from email.utils import parseaddr
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, unquote, urlparse

from flask import Flask, current_app
from sqlalchemy import bindparam, func, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import aliased

from pbem.clock import now
from pbem.extensions import db
from pbem.notify import compose, composing, outbox, push, signing, webhooks
from pbem.store import tables
from pbem.store.durability import commit_unflushed
from pbem.store.health import FAILED_PASS, beat
from pbem.store.models import Notification, Player
from pbem.store.outage import is_outage, start_afresh
from pbem.store.queries import changed

GIVE_UP_AFTER = timedelta(days=1)
#: How long the row a dead sender may have been sending waits before it is sent again.
STUCK_AFTER = timedelta(minutes=10)
#: How long a batch's claim holds from its last renewal; its sender renews it every third of
#: that while it sends (one send, even to a slow server, takes less), so a claim older than
#: this is a dead sender's.
LEASE = timedelta(seconds=60)
FIRST_RETRY = timedelta(seconds=30)
LONGEST_WAIT = timedelta(hours=1)
#: Rows claimed per statement (each is marked sent in a commit of its own).
BATCH = 50
#: Seconds to wait before each new try of a mark whose commit the database cut off: a
#: restart or failover is back in a few seconds.
MARK_PAUSES = (0.0, 0.5, 2.0)


class Transport(Protocol):
    def send(self, recipient: str, message: str) -> None: ...

    def close(self) -> None: ...


#: The name under which the mail folder keeps a copy of the newest mail it got.
LATEST = "latest.eml"


class FileTransport:
    """The embedded default: each mail an `.eml` file in a folder (`instance/mail`), named
    by its Message-ID, and a copy of the newest one as `latest.eml` (whoever it is to: in
    the demo, its one player's), a name that stays for a person to open or answer."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def send(self, recipient: str, message: str) -> None:
        parsed = message_from_string(message, policy=policy.default)
        stem = (parsed["Message-ID"] or "message").strip("<>").replace("/", "_")
        (self.folder / f"{stem}.eml").write_text(message, encoding="utf-8")
        # Written beside it, then renamed over it: a reader (or a `pbem mail reply` in
        # another process) never opens half a mail, and two senders at once leave a whole
        # one. A copy rather than a link: Windows makes links only for its administrators.
        spare = self.folder / f".{LATEST}.{os.getpid()}.{threading.get_ident()}"
        try:
            spare.write_text(message, encoding="utf-8")
            os.replace(spare, self.folder / LATEST)
        except OSError:  # the copy open elsewhere (Windows): the mail itself is delivered
            spare.unlink(missing_ok=True)

    def close(self) -> None:
        pass


class SmtpTransport:
    """SMTP_URL: smtp://user:pass@host:587?starttls=1, or smtps://host:465. One connection
    for a whole delivery pass, opened on the first mail."""

    def __init__(self, url: str) -> None:
        parts = urlparse(url)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        self.ssl = parts.scheme == "smtps"
        self.starttls = query.get("starttls", "0") in ("1", "true", "yes")
        self.host = parts.hostname or "localhost"
        self.port = parts.port or (465 if self.ssl else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.timeout = float(query.get("timeout", "20"))
        self._smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        if self._smtp is None:
            if self.ssl:
                smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                    self.host,
                    self.port,
                    timeout=self.timeout,
                    context=ssl.create_default_context(),
                )
            else:
                smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
                if self.starttls:
                    smtp.starttls(context=ssl.create_default_context())
            if self.user:
                smtp.login(self.user, self.password or "")
            self._smtp = smtp
        return self._smtp

    def probe(self) -> None:
        """Connect, TLS and log in as a delivery would, then quit (for `pbem doctor`)."""
        self._connect()
        self.close()

    def send(self, recipient: str, message: str) -> None:
        sender = parseaddr(current_app.config["MAIL_FROM"])[1]
        # A str (ASCII, as composed) gets its line ends made CRLF by smtplib.
        self._connect().sendmail(sender, [recipient], message)

    def close(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.quit()
            except smtplib.SMTPException:
                pass
            except OSError:
                pass
            self._smtp = None


def mail_folder(app: Flask) -> Path:
    """Where mails are written as files when SMTP_URL is unset."""
    return Path(app.instance_path) / "mail"


def mail_files(app: Flask) -> set[Path]:
    """The mail files written so far (not `latest.eml`, a copy of one of them)."""
    return {path for path in mail_folder(app).glob("*.eml") if path.name != LATEST}


def latest_mail(app: Flask) -> Path:
    """Where the mail folder keeps a copy of the newest mail written to it."""
    return mail_folder(app) / LATEST


def written_since(app: Flask, before: set[Path]) -> list[Path]:
    """The mail files written since `mail_files` gave `before`, oldest first."""
    return sorted(mail_files(app) - before, key=lambda path: path.stat().st_mtime)


class SignedTransport:
    """Another transport's mails, DKIM-signed first (pbem.notify.signing)."""

    def __init__(self, inner: Transport, signer: signing.Signer) -> None:
        self.inner = inner
        self.signer = signer

    def send(self, recipient: str, message: str) -> None:
        self.inner.send(recipient, self.signer.sign(message))

    def close(self) -> None:
        self.inner.close()


def transport(app: Flask) -> Transport:
    """Where mail goes (SMTP_URL, else files), signed when the DKIM settings say so. A key
    that cannot be used stops the pass (KeyProblem, logged): the mail waits, unsigned mail
    is not sent in its place."""
    url = app.config.get("SMTP_URL")
    made: Transport = SmtpTransport(url) if url else FileTransport(mail_folder(app))
    signer = signing.signer(app.config)
    return made if signer is None else SignedTransport(made, signer)


@dataclass
class Delivery:
    sent: int = 0
    retried: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"sent {self.sent}, to retry {self.retried}, failed {self.failed}"


def backoff(attempts: int) -> timedelta:
    doubled: int = 2 ** max(attempts - 1, 0)  # int ** int is typed as Any (a negative power)
    return min(FIRST_RETRY * doubled, LONGEST_WAIT)


def _claim_batch(size: int, moment: Any, claim: str) -> list[Any]:
    """Claim up to `size` due rows, oldest first, in one statement (queued -> sending under
    `claim`, attempts counted); their contents, in id order."""
    due = (
        select(tables.outbox.c.id)
        .where(
            tables.outbox.c.status == "queued",
            tables.outbox.c.next_attempt_at <= moment,
            tables.outbox.c.message != "",  # composed (see compose_queued)
        )
        .order_by(tables.outbox.c.id)
        .limit(size)
    )
    if db.session.get_bind().dialect.name == "postgresql":
        # A CTE, run once: as an IN subquery PostgreSQL may rescan it for each row it
        # updates (a nested loop semi join), each scan skipping the rows just updated and
        # locking (so claiming) further ones: 107 rows for a LIMIT of 50.
        chosen = due.with_for_update(skip_locked=True).cte("due").prefix_with("MATERIALIZED")
        taking = update(tables.outbox).where(tables.outbox.c.id == chosen.c.id)
    else:
        taking = update(tables.outbox).where(tables.outbox.c.id.in_(due.scalar_subquery()))
    claimed = db.session.execute(
        # `queued` again: on SQLite the subquery's rows are checked under the write lock.
        taking.where(tables.outbox.c.status == "queued")
        # Stamped with the claim's own time: the lease counts from it.
        .values(
            status="sending",
            claim=claim,
            attempts=tables.outbox.c.attempts + 1,
            next_attempt_at=now(),
        )
        .returning(
            tables.outbox.c.id,
            tables.outbox.c.channel,
            tables.outbox.c.player_id,
            tables.outbox.c.recipient,
            tables.outbox.c.message,
            tables.outbox.c.attempts,
            tables.outbox.c.created_at,
        )
    ).all()
    db.session.commit()
    return sorted(claimed, key=lambda row: row.id)


def hand_back_dead_batches(moment: Any) -> None:
    """Queue again what dead senders left `sending`: a batch whose lease ran out goes back
    at once (its attempts uncounted) but for its first row still `sending`, which its
    sender may have been handing to the server when it died; that row, and any row of no
    claim, after `STUCK_AFTER`. A look by the due index first: most passes find none. The
    caller commits."""
    leased = {"leased": moment - LEASE}
    if db.session.execute(_ANY_LEASE_OVER, leased).first() is None:
        return
    db.session.execute(_HAND_BACK_LEASED, leased)
    db.session.execute(_HAND_BACK_STUCK, {"stuck": moment - STUCK_AFTER})


_batch = aliased(Notification)
#: Whether any row is `sending` under a lease that ran out.
_ANY_LEASE_OVER = (
    select(tables.outbox.c.id)
    .where(
        tables.outbox.c.status == "sending", tables.outbox.c.next_attempt_at <= bindparam("leased")
    )
    .limit(1)
)
#: A dead batch's rows but its first still `sending`, queued again, their try uncounted.
_HAND_BACK_LEASED = (
    update(tables.outbox)
    .where(
        tables.outbox.c.status == "sending",
        tables.outbox.c.next_attempt_at <= bindparam("leased"),
        tables.outbox.c.id
        > select(func.min(_batch.id))
        .where(_batch.claim == tables.outbox.c.claim, _batch.status == "sending")
        .scalar_subquery(),
    )
    .values(status="queued", claim=None, attempts=tables.outbox.c.attempts - 1)
)
#: A row `sending` past STUCK_AFTER (a dead batch's first, a row of no claim), queued again.
_HAND_BACK_STUCK = (
    update(tables.outbox)
    .where(
        tables.outbox.c.status == "sending", tables.outbox.c.next_attempt_at <= bindparam("stuck")
    )
    .values(status="queued", claim=None)
)


#: How long the story of a seat a bot plays waits for more before it goes out as a digest,
#: for a player with no digest hours of their own.
BOT_STORY_HOURS = 24


def collect_digests() -> int:
    """Gather each player's waiting `digest` rows into one mail once the oldest has waited
    their digest_hours; returns how many digests were queued."""
    waiting = db.session.execute(
        select(
            tables.outbox.c.id,
            tables.outbox.c.player_id,
            tables.outbox.c.kind,
            tables.outbox.c.message,
            tables.outbox.c.created_at,
        )
        .where(tables.outbox.c.status == "digest")
        .order_by(tables.outbox.c.id)
    ).all()
    by_player: dict[int, list[Any]] = {}
    for row in waiting:
        by_player.setdefault(row.player_id, []).append(row)
    moment, queued = now(), 0
    for player_id, rows in by_player.items():
        player = db.session.get_one(Player, player_id)
        # A bot's story waits a day for a player who asked for no digest: it is news,
        # not a decision, and a bot moves far more often than people do.
        hours = (player.preferences or {}).get("digest_hours") or (
            BOT_STORY_HOURS if any(r.kind == "bot_story" for r in rows) else 0
        )
        if moment - rows[0].created_at < timedelta(hours=hours):
            continue
        recipient = outbox.recipient(player)
        mail = compose.digest_mail(recipient, [r.message for r in rows])
        outbox.queue(db.session.connection(), outbox.rows_for([(recipient, "digest", mail)], None))
        db.session.execute(
            tables.outbox.update()
            .where(tables.outbox.c.id.in_([r.id for r in rows]))
            .values(status="digested", sent_at=moment)
        )
        queued += 1
    db.session.commit()
    return queued


def compose_queued(limit: int = 500) -> int:
    """Compose the rows that wait as what happened (a `payload`, no `message` yet: every
    mail a move causes, composing them on the move's path cost more than the move), queued
    or waiting for a digest, from the game's log and state at their seqs
    (`composing.composed`), and keep the result, so a retry sends the same message. Returns
    how many were composed."""
    rows = db.session.execute(
        select(
            tables.outbox.c.id,
            tables.outbox.c.game_id,
            tables.outbox.c.player_id,
            tables.outbox.c.channel,
            tables.outbox.c.kind,
            tables.outbox.c.recipient,
            tables.outbox.c.status,
            tables.outbox.c.payload,
        )
        .where(tables.outbox.c.status.in_(("queued", "digest")), tables.outbox.c.message == "")
        .order_by(tables.outbox.c.id)
        .limit(limit)
    ).all()
    reads = composing.Reads()
    composed: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for row in rows:
        try:
            composed.append({"row": row.id, "composed": composing.composed(row, reads)})
        except Exception as error:  # a bug: kept out of the way, shown to the admin
            current_app.logger.exception("composing outbox row %s failed", row.id)
            failed.append({"row": row.id, "error": f"composing: {error}"[:2000]})
    # One statement for all the rows (on PostgreSQL, psycopg pipelines its executions), not
    # one built and run for each.
    for kept, values in ((_KEEP_COMPOSED, composed), (_KEEP_FAILED, failed)):
        if values:
            db.session.execute(kept, values)
    db.session.commit()
    return len(rows)


#: A composed row's message kept: only while it waits with none, so that of two passes
#: composing one row at once the first one's is the one sent.
_KEEP_COMPOSED = (
    update(tables.outbox)
    .where(tables.outbox.c.id == bindparam("row"), tables.outbox.c.message == "")
    .values(message=bindparam("composed"))
)
#: A row that could not be composed: failed, with why.
_KEEP_FAILED = (
    update(tables.outbox)
    .where(tables.outbox.c.id == bindparam("row"), tables.outbox.c.message == "")
    .values(status="failed", last_error=bindparam("error"))
)


def deliver_due(limit: int = 500) -> Delivery:
    """Send what is due now (at most `limit` rows, oldest first) and say what happened. A
    pass that fails (the database away, a key that cannot sign) is stamped for the health
    report before its error goes on to the scheduler's log."""
    try:
        return _deliver_due(limit)
    except Exception:
        _note_failed_pass()
        raise


def _deliver_due(limit: int) -> Delivery:
    compose_queued(limit)  # first: a digest quotes its parts as composed
    collect_digests()
    moment = now()
    hand_back_dead_batches(moment)
    db.session.commit()
    result = Delivery()
    mail = transport(current_app._get_current_object())  # type: ignore[attr-defined]
    try:
        while result.sent + result.retried + result.failed < limit:
            size = min(BATCH, limit - (result.sent + result.retried + result.failed))
            claim = secrets.token_hex(16)
            batch = _claim_batch(size, moment, claim)
            if not batch or not _send_batch(batch, mail, result, claim):
                break
    finally:
        mail.close()
    beat("mail")
    db.session.commit()
    return result


def _note_failed_pass() -> None:
    try:
        db.session.rollback()
        beat(FAILED_PASS)
        db.session.commit()
    except Exception as error:  # noqa: BLE001 (the database is away: the log has the pass's error)
        current_app.logger.warning("could not stamp the failed mail pass: %s", error)
        start_afresh()


def _send_batch(batch: list[Any], mail: Transport, result: Delivery, claim: str) -> bool:
    """Send a claimed batch in id order, marking each row as soon as it is done: sent, in a
    commit of its own the moment the server accepted it, or to retry or failed (`_failed`),
    whatever its sending raised, and on to the next. The claim is renewed every third of
    `LEASE`; a batch still sending after half of `STUCK_AFTER` (a slow server) hands its
    unsent rows back, and the pass ends (False); so does the database going away."""
    started = renewed = time.monotonic()
    done: set[int] = set()
    try:
        for row in batch:
            if time.monotonic() - started > STUCK_AFTER.total_seconds() / 2:
                break
            if time.monotonic() - renewed > LEASE.total_seconds() / 3:
                if not _renew(claim, len(batch) - len(done)):
                    break  # paused past the lease: another sender has the rest now
                renewed = time.monotonic()
            try:
                _send_row(row, mail)
            except Exception as error:
                if is_outage(error):
                    raise
                _row_failed(row, error, mail, result)
                done.add(row.id)
                continue
            # Done before it is marked: delivered, it must never be handed back as unsent,
            # even if the database stays away and its mark fails for good.
            done.add(row.id)
            _mark_sent(row.id, claim)
            result.sent += 1
    finally:
        unsent = [row.id for row in batch if row.id not in done]
        if unsent:
            _hand_back(unsent, claim)
    return not unsent


def _send_row(row: Any, mail: Transport) -> None:
    if row.channel == "webhook":
        webhooks.post(row.recipient, row.message, current_app.config)
    elif row.channel == "push":
        push.send(row, push.vapid_key(current_app))
    else:
        mail.send(row.recipient, row.message)


def _row_failed(row: Any, error: Exception, mail: Transport, result: Delivery) -> None:
    """One row's send failed: marked to retry or failed, in a commit of its own. An error
    of no network or mail server is a bug met on this row: logged with its traceback."""
    if not isinstance(error, OSError | smtplib.SMTPException):
        current_app.logger.error(
            "sending outbox row %s (%s) failed", row.id, row.channel, exc_info=error
        )
    if isinstance(error, SQLAlchemyError):
        db.session.rollback()  # its statement failed: the mark goes in a transaction anew
    if row.channel == "mail":
        mail.close()  # a broken connection is opened afresh for the next one
    # A push to a subscription that has ended deleted it (`push.Gone`): that commits too.
    _failed([(row, error)], result)
    db.session.commit()


def _renew(claim: str, unsent: int) -> bool:
    """Stamp the claim's rows still `sending` afresh; False if fewer than `unsent` are left
    under it (its lease ran out and another sender handed them back)."""
    renewed = changed(
        db.session.execute(
            update(tables.outbox)
            .where(tables.outbox.c.claim == claim, tables.outbox.c.status == "sending")
            .values(next_attempt_at=now())
        )
    )
    db.session.commit()
    return bool(renewed >= unsent)


def _mark_sent(row_id: int, claim: str) -> None:
    """Mark one delivered row sent in a short transaction of its own, whose commit does not
    wait for the disk (`commit_unflushed`): the database has it when the commit returns, so
    a killed sender still resends at most the one row it was sending, and only the database
    crashing in the next instant could lose a mark, which resends that mail with its own
    Message-ID. When the database goes away under it (the commit may or may not have
    landed: the mark is idempotent), it is tried again on a new connection, so the batch
    goes on; if the database stays away the error ends the pass, and this row, the batch's
    first unsent one, goes out again after `STUCK_AFTER`, the rest of the batch once its
    lease has run out."""
    for attempt, pause in enumerate(MARK_PAUSES):
        if pause:
            time.sleep(pause)
        try:
            commit_unflushed(db.session.connection())
            db.session.execute(_MARK_SENT, {"row": row_id, "claimed": claim, "moment": now()})
            db.session.commit()
            return
        except Exception as error:
            if not is_outage(error) or attempt == len(MARK_PAUSES) - 1:
                raise
            current_app.logger.warning(
                "marking outbox row %s sent failed (%s): trying again", row_id, error
            )
            start_afresh()  # the pool has dropped the dead connection: the next is new


#: One delivered row marked sent, if it is still its batch's.
_MARK_SENT = (
    update(tables.outbox)
    .where(
        tables.outbox.c.id == bindparam("row"),
        tables.outbox.c.status == "sending",
        tables.outbox.c.claim == bindparam("claimed"),
    )
    .values(status="sent", sent_at=bindparam("moment"), last_error=None, claim=None)
)


def _hand_back(row_ids: list[int], claim: str) -> None:
    """Queue claimed rows that were not sent again, their attempt uncounted. With the
    database away this fails too: they then wait for their lease to run out, and the error
    that ended the batch is the one raised."""
    try:
        db.session.rollback()  # whatever the error that ended the batch cut off
        db.session.execute(
            update(tables.outbox)
            .where(
                tables.outbox.c.id.in_(row_ids),
                tables.outbox.c.status == "sending",
                tables.outbox.c.claim == claim,
            )
            .values(status="queued", claim=None, attempts=tables.outbox.c.attempts - 1)
        )
        db.session.commit()
    except Exception as error:
        if not is_outage(error):
            raise
        current_app.logger.warning("handing back %d unsent outbox rows: %s", len(row_ids), error)
        start_afresh()


def _failed(failures: list[tuple[Any, Exception]], result: Delivery) -> None:
    """Mark failed sends, in one statement: queued again after a backoff, or failed for
    good a day after the row was written. The caller commits."""
    moment = now()
    marks = []
    for row, error in failures:
        # A webhook or push to where this server will not post fails for good at once, and
        # so does a push to a subscription that has ended (deleted).
        refused = isinstance(error, webhooks.WebhookRefused | push.Gone)
        give_up = refused or moment - row.created_at >= GIVE_UP_AFTER
        marks.append(
            {
                "row_id": row.id,
                "new_status": "failed" if give_up else "queued",
                # `attempts` is already counted for this try (by the claim).
                "retry_at": moment + backoff(row.attempts),
                "error": f"{type(error).__name__}: {error}"[:2000],
            }
        )
        if give_up:
            result.failed += 1
        else:
            result.retried += 1
        result.errors.append(str(error))
    db.session.execute(
        update(tables.outbox)
        .where(tables.outbox.c.id == bindparam("row_id"))
        .values(
            status=bindparam("new_status"),
            claim=None,
            next_attempt_at=bindparam("retry_at"),
            last_error=bindparam("error"),
        ),
        marks,
    )


def json_body(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
