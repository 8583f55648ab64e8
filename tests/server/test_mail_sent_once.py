"""The sender's fault drill: 200 mails queued, the sender interrupted in the middle of its
batches five times, then run to the end, every delivery counted at a real SMTP server.

Each interruption comes while the server holds a mail's DATA (the message taken in, its
250 not yet answered), the worst moment: the sender, a process of its own (forked, so it
starts at once), is killed with SIGKILL; on PostgreSQL every other interruption instead
terminates its database connections (`pg_terminate_backend`). Between runs the lease of
what a killed sender left `sending` runs out: the next run sends the dead batch but its
first unsent row, the one whose DATA was under way, which goes out once the ten minutes of
the stuck rule have passed too. Every mail arrives, every row of a dead batch but that one
goes out within the next two runs, at most one more copy arrives per interruption, and a
copy carries the Message-ID of the first.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import time
import uuid
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from pbem import create_app
from pbem.clock import set_now
from pbem.extensions import db
from pbem.notify.sender import LEASE, STUCK_AFTER, deliver_due
from pbem.store.models import Notification
from tests.server.mail_helpers import Inbox
from tests.server.test_mail_sender import queue_copies, serve_with, statuses

_outbox = Notification.__table__
MAILS = 200
#: The n-th message the server takes in, at which the sender is interrupted: each inside a
#: batch of 50, none at its edge.
INTERRUPT_AT = (23, 61, 97, 142, 178)


class Interrupting(Inbox):
    """Keeps every message, and at the counts of `INTERRUPT_AT` interrupts the sender
    before answering its DATA."""

    def __init__(self, interrupt) -> None:
        super().__init__()
        self.interrupt = interrupt
        self.done: list[str] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        answer = await super().handle_DATA(server, session, envelope)
        if len(self.messages) in INTERRUPT_AT:
            self.done.append(self.interrupt(len(self.done)))
        return answer


def run_sender(config: dict) -> None:
    """One pass of the sender as `pbem mail send` runs it, in a forked process."""
    app = create_app(config)
    with app.app_context():
        deliver_due()


def give_each_its_own_message_id(app) -> dict[str, str]:
    """Each row a Message-ID of its own (the copies share their model's), due now on the
    system clock, which the forked senders read; {recipient: Message-ID}."""
    set_now(app, None)
    moment = datetime.now(UTC)
    ids = {}
    with app.app_context():
        rows = db.session.execute(sa.select(_outbox.c.id, _outbox.c.message)).all()
        for row in rows:
            message_id = f"<drill-{row.id}@pbem.example>"
            message = re.sub(r"(?m)^Message-ID: .*$", f"Message-ID: {message_id}", row.message)
            assert message != row.message
            db.session.execute(
                _outbox.update()
                .where(_outbox.c.id == row.id)
                .values(message=message, created_at=moment, next_attempt_at=moment)
            )
        db.session.commit()
        for recipient, message in db.session.execute(
            sa.select(_outbox.c.recipient, _outbox.c.message)
        ):
            ids[recipient] = re.search(r"(?m)^Message-ID: (.*)$", message).group(1).strip()
        db.session.remove()
    return ids


def age_rows_left_sending(app, by: timedelta) -> set[int]:
    """`by` passes for the rows a killed sender left `sending`; their ids."""
    with app.app_context():
        left = set(
            db.session.execute(sa.select(_outbox.c.id).where(_outbox.c.status == "sending"))
            .scalars()
            .all()
        )
        db.session.execute(
            _outbox.update()
            .where(_outbox.c.status == "sending")
            .values(next_attempt_at=datetime.now(UTC) - by - timedelta(seconds=1))
        )
        db.session.commit()
        db.session.remove()
    return left


def unsent_of(app, ids: set[int]) -> set[int]:
    with app.app_context():
        found = db.session.execute(
            sa.select(_outbox.c.id).where(_outbox.c.id.in_(ids), _outbox.c.status != "sent")
        )
        unsent = set(found.scalars().all())
        db.session.remove()
    return unsent


def test_a_sender_interrupted_five_times_sends_at_most_the_mail_in_flight_again(
    mail_app, mail_api, smtp, database_url
):
    addresses = queue_copies(mail_app, mail_api, MAILS)
    message_ids = give_each_its_own_message_id(mail_app)
    postgres = database_url.startswith("postgresql")
    name = f"pbem_sender_drill_{uuid.uuid4().hex[:8]}"
    url = f"{database_url}&application_name={name}" if postgres else database_url
    admin = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
    running: list[multiprocessing.process.BaseProcess] = []

    def interrupt(number: int) -> str:
        if postgres and number % 2 == 1:
            with admin.connect() as connection:
                terminated = connection.execute(
                    sa.text(
                        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) "
                        "FROM pg_stat_activity WHERE application_name = :name"
                    ),
                    {"name": name},
                ).scalar()
            return f"terminated {terminated}"
        os.kill(running[-1].pid, signal.SIGKILL)
        return "killed"

    serve_with(smtp, Interrupting(interrupt))
    config = {key: mail_app.config[key] for key in ("SMTP_URL", "MAIL_FROM", "PBEM_BASE_URL")}
    config.update(TESTING=True, SQLALCHEMY_DATABASE_URI=url)
    fork = multiprocessing.get_context("fork")
    started = time.monotonic()
    left_by_run: list[set[int]] = []
    late: list[set[int]] = []  # each dead batch's rows not sent two runs after it died
    try:
        for _ in range(14):
            if statuses(mail_app) == {"sent": MAILS}:
                break
            running.append(fork.Process(target=run_sender, args=(config,)))
            running[-1].start()
            running[-1].join(timeout=60)
            if len(left_by_run) >= 2:
                # What the run before last left, but the rows under way of earlier kills.
                dead = left_by_run[-2] - (left_by_run[-3] if len(left_by_run) >= 3 else set())
                late.append(unsent_of(mail_app, dead) - {min(dead, default=0)})
            # The lease runs out; after the runs the kills needed, the stuck rule's ten
            # minutes too, for the rows that were under way.
            by = STUCK_AFTER if len(smtp.inbox.done) == len(INTERRUPT_AT) else LEASE
            left_by_run.append(age_rows_left_sending(mail_app, by))
    finally:
        admin.dispose()
        for process in running:
            if process.is_alive():
                process.kill()
    copies: dict[str, list[str]] = defaultdict(list)
    for recipients, message in smtp.inbox.messages:
        for recipient in recipients:
            copies[recipient].append(message["Message-ID"])
    duplicates = len(smtp.inbox.messages) - MAILS
    figures = (
        f"{len(smtp.inbox.done)} interruptions ({Counter(smtp.inbox.done)}), "
        f"{len(running)} sender runs, {len(smtp.inbox.messages)} deliveries, "
        f"{duplicates} duplicates, {time.monotonic() - started:.1f} s"
    )
    print(figures)
    assert len(smtp.inbox.done) == len(INTERRUPT_AT), figures
    assert not any(late), (late, figures)
    assert sum(1 for left in left_by_run if left) >= 1, figures  # some batch was left dead
    assert sorted(copies) == sorted(addresses), figures
    assert statuses(mail_app) == {"sent": MAILS}, figures
    assert duplicates <= len(smtp.inbox.done), figures
    for recipient, ids in copies.items():
        assert ids == [message_ids[recipient]] * len(ids), (recipient, ids)
