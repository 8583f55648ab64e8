"""The sender's batches: claimed in one statement, marked in one; two senders at once send
each row once; a row left `sending` by a dead sender goes out after ten minutes."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from pbem.clock import set_now
from pbem.extensions import db
from pbem.notify import sender
from pbem.notify.sender import deliver_due
from pbem.store.models import Notification

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


def test_a_row_left_sending_by_a_dead_sender_goes_out_after_ten_minutes(mail_app, mail_api, smtp):
    addresses = queue_copies(mail_app, mail_api, 3)
    with mail_app.app_context():
        claimed = sender._claim_batch(2, START)  # then the sender dies
        db.session.remove()
    assert [r.recipient for r in claimed] == addresses[:2]
    set_now(mail_app, START + timedelta(minutes=9))
    with mail_app.app_context():
        assert deliver_due().sent == 1
    assert statuses(mail_app) == {"sending": 2, "sent": 1}
    set_now(mail_app, START + timedelta(minutes=10))
    with mail_app.app_context():
        assert deliver_due().sent == 2
        db.session.remove()
    assert statuses(mail_app) == {"sent": 3}
    received = Counter(r for rcpt, _ in smtp.inbox.messages for r in rcpt)
    assert received == Counter(addresses)


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
                raise RuntimeError("the sender's process is going down")
            self.inner.send(recipient, message)

        def close(self):
            self.inner.close()

    monkeypatch.setattr(sender, "transport", Crashing)
    with mail_app.app_context():
        try:
            deliver_due()
        except RuntimeError:
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
