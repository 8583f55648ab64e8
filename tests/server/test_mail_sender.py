"""The sender's batches: claimed in one statement, each row marked sent in a commit of its
own before the next mail (or webhook) begins (a mark cut off is made again on a new
connection); two senders at once send each row once; a row left `sending` by a dead sender
goes out after ten minutes."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import sqlalchemy as sa

from pbem.clock import set_now
from pbem.extensions import db
from pbem.notify import sender
from pbem.notify.sender import deliver_due
from pbem.store.models import Notification
from tests.server.mail_helpers import Inbox

START = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
_outbox = Notification.__table__


def queue_copies(app, api, count: int) -> list[str]:
    """`count` queued rows, each a real decision mail to an address of its own."""
    set_now(app, START)
    api.new_game(["red", "blue"])
    with app.app_context():
        sender.compose_queued()  # decision mails are composed by the sender, before sending
        model = (
            db.session.execute(sa.select(_outbox).where(_outbox.c.kind == "decision").limit(1))
            .one()
            ._asdict()
        )
        db.session.execute(sa.delete(_outbox))
        model.pop("id")
        addresses = [f"reader{i}@example.org" for i in range(count)]
        db.session.execute(
            sa.insert(_outbox),
            [{**model, "recipient": a, "status": "queued", "attempts": 0} for a in addresses],
        )
        db.session.commit()
        db.session.remove()
    return addresses


def statuses(app) -> Counter:
    with app.app_context():
        counted = Counter(db.session.execute(sa.select(_outbox.c.status)).scalars())
        db.session.remove()
    return counted


def test_more_than_a_batch_goes_out_once_each_within_the_limit(mail_app, mail_api, smtp):
    addresses = queue_copies(mail_app, mail_api, 2 * sender.BATCH + 7)
    with mail_app.app_context():
        first = deliver_due(limit=sender.BATCH + 3)
        rest = deliver_due()
        db.session.remove()
    assert (first.sent, rest.sent) == (sender.BATCH + 3, sender.BATCH + 4)
    received = Counter(r for rcpt, _ in smtp.inbox.messages for r in rcpt)
    assert received == Counter(addresses)
    assert statuses(mail_app) == {"sent": len(addresses)}
    with mail_app.app_context():
        attempts = set(db.session.execute(sa.select(_outbox.c.attempts)).scalars())
        db.session.remove()
    assert attempts == {1}


def test_two_senders_at_once_send_each_row_once(mail_app, mail_api, smtp):
    addresses = queue_copies(mail_app, mail_api, 3 * sender.BATCH)
    barrier = threading.Barrier(2)
    results = []

    def one_sender():
        with mail_app.app_context():
            barrier.wait()
            results.append(deliver_due())
            db.session.remove()

    threads = [threading.Thread(target=one_sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.sent for r in results) == len(addresses)
    received = Counter(r for rcpt, _ in smtp.inbox.messages for r in rcpt)
    assert received == Counter(addresses)
    assert statuses(mail_app) == {"sent": len(addresses)}


def test_a_dead_senders_batch_goes_out_once_its_lease_is_over_but_its_first_row(
    mail_app, mail_api, smtp
):
    """Only the first row of a dead batch may have been under way: it waits ten minutes;
    the others go out as soon as the lease shows its sender dead."""
    addresses = queue_copies(mail_app, mail_api, 4)
    with mail_app.app_context():
        claimed = sender._claim_batch(3, START, "dead")  # then the sender dies
        db.session.remove()
    assert [r.recipient for r in claimed] == addresses[:3]
    set_now(mail_app, START + sender.LEASE - timedelta(seconds=1))
    with mail_app.app_context():
        assert deliver_due().sent == 1  # the one row not claimed
    assert statuses(mail_app) == {"sending": 3, "sent": 1}
    set_now(mail_app, START + sender.LEASE)
    with mail_app.app_context():
        assert deliver_due().sent == 2
    assert statuses(mail_app) == {"sending": 1, "sent": 3}
    set_now(mail_app, START + timedelta(minutes=10))
    with mail_app.app_context():
        assert deliver_due().sent == 1
        attempts = dict(
            db.session.execute(sa.select(_outbox.c.recipient, _outbox.c.attempts)).all()
        )
        db.session.remove()
    assert statuses(mail_app) == {"sent": 4}
    received = Counter(r for rcpt, _ in smtp.inbox.messages for r in rcpt)
    assert received == Counter(addresses)
    # The row under way was tried twice; the handed-back ones once, as if never claimed.
    assert attempts == {addresses[0]: 2, addresses[1]: 1, addresses[2]: 1, addresses[3]: 1}


def test_a_batch_cut_short_marks_what_it_sent_and_hands_the_rest_back(
    mail_app, mail_api, smtp, monkeypatch
):
    addresses = queue_copies(mail_app, mail_api, 5)
    real = sender.transport

    class Crashing:
        def __init__(self, app):
            self.inner, self.count = real(app), 0

        def send(self, recipient, message):
            self.count += 1
            if self.count == 3:
                raise SystemExit("the sender's process is going down")
            self.inner.send(recipient, message)

        def close(self):
            self.inner.close()

    monkeypatch.setattr(sender, "transport", Crashing)
    with mail_app.app_context():
        try:
            deliver_due()
        except SystemExit:
            pass
        else:
            raise AssertionError("the error was swallowed")
        db.session.remove()
    assert statuses(mail_app) == {"sent": 2, "queued": 3}
    monkeypatch.setattr(sender, "transport", real)
    with mail_app.app_context():
        assert deliver_due().sent == 3
        attempts = Counter(db.session.execute(sa.select(_outbox.c.attempts)).scalars())
        db.session.remove()
    assert attempts == {1: 5}
    received = Counter(r for rcpt, _ in smtp.inbox.messages for r in rcpt)
    assert received == Counter(addresses)


def serve_with(smtp, inbox) -> None:
    """The test's SMTP server again on its port, its messages going to `inbox`."""
    smtp.stop()
    smtp.inbox = inbox
    smtp.start()


def test_each_row_is_marked_sent_before_the_next_mail_begins(
    mail_app, mail_api, smtp, database_url
):
    addresses = queue_copies(mail_app, mail_api, 5)
    # Read from outside the sender: only what it committed counts.
    watcher = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
    marked_at_mail_from: list[int] = []

    class Watching(Inbox):
        async def handle_MAIL(self, server, session, envelope, address, options):  # noqa: N802
            with watcher.connect() as connection:
                marked_at_mail_from.append(
                    connection.execute(
                        sa.select(sa.func.count()).where(_outbox.c.status == "sent")
                    ).scalar_one()
                )
            envelope.mail_from = address
            envelope.mail_options.extend(options)
            return "250 OK"

    serve_with(smtp, Watching())
    try:
        with mail_app.app_context():
            assert deliver_due().sent == 5
            db.session.remove()
    finally:
        watcher.dispose()
    assert marked_at_mail_from == [0, 1, 2, 3, 4]
    received = Counter(r for rcpt, _ in smtp.inbox.messages for r in rcpt)
    assert received == Counter(addresses)


@pytest.fixture
def cut_next_commit(mail_app, database_url):
    """`arm()`: the app's next commit finds its connection cut (terminated by PostgreSQL,
    closed under SQLite), so what it was to write is lost and its caller must start again."""
    admin = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
    armed = {"left": 0, "cut": 0}

    def cut(connection):
        if armed["left"] <= 0:
            return
        armed["left"] -= 1
        raw = connection.connection.dbapi_connection
        if database_url.startswith("postgresql"):
            with admin.connect() as killer:
                pid = raw.info.backend_pid
                killer.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
                for _ in range(100):  # the backend ends a moment later
                    if not killer.execute(
                        sa.text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                        {"pid": pid},
                    ).scalar():
                        break
                    time.sleep(0.01)
        else:
            raw.close()
        armed["cut"] += 1

    with mail_app.app_context():
        sa.event.listen(db.engine, "commit", cut)

    def arm() -> dict[str, int]:
        armed["left"] = 1
        return armed

    yield arm
    admin.dispose()


def test_a_mark_cut_off_is_made_on_a_new_connection_and_the_batch_goes_on(
    mail_app, mail_api, smtp, monkeypatch, cut_next_commit
):
    addresses = queue_copies(mail_app, mail_api, 5)
    monkeypatch.setattr(sender, "MARK_PAUSES", (0.0, 0.05, 0.05), raising=False)
    real = sender.transport
    cuts: list[dict[str, int]] = []

    class CutAfterSecond:
        """The connection is cut while the second mail's mark is being committed."""

        def __init__(self, app):
            self.inner, self.count = real(app), 0

        def send(self, recipient, message):
            self.inner.send(recipient, message)
            self.count += 1
            if self.count == 2:
                cuts.append(cut_next_commit())

        def close(self):
            self.inner.close()

    monkeypatch.setattr(sender, "transport", CutAfterSecond)
    with mail_app.app_context():
        assert deliver_due().sent == 5
        db.session.remove()
    assert cuts[0]["cut"] == 1
    assert statuses(mail_app) == {"sent": 5}
    received = Counter(r for rcpt, _ in smtp.inbox.messages for r in rcpt)
    assert received == Counter(addresses)


def test_each_webhook_is_marked_sent_before_the_next_is_posted(mail_app, database_url):
    watcher = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
    marked_at_post: list[int] = []

    class Counting(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers["Content-Length"]))
            with watcher.connect() as connection:
                marked_at_post.append(
                    connection.execute(
                        sa.select(sa.func.count()).where(_outbox.c.status == "sent")
                    ).scalar_one()
                )
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    set_now(mail_app, START)
    url = f"http://127.0.0.1:{server.server_port}/hook"
    rows = [
        {"channel": "webhook", "kind": "decision", "recipient": url, "message": f'{{"n":{n}}}'}
        for n in range(4)
    ]
    try:
        with mail_app.app_context():
            db.session.execute(
                sa.insert(_outbox).values(status="queued", next_attempt_at=START, created_at=START),
                rows,
            )
            db.session.commit()
            assert deliver_due().sent == 4
            db.session.remove()
    finally:
        server.shutdown()
        server.server_close()
        watcher.dispose()
    assert marked_at_post == [0, 1, 2, 3]
    assert statuses(mail_app) == {"sent": 4}
