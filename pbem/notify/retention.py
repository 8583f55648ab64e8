"""How long the outbox keeps what it has delivered: a sent mail (or webhook) and the rows
folded into a digest are deleted once `PBEM_OUTBOX_KEEP_DAYS` have passed since they went.

Nothing reads a delivered row again except the last hour's count of key mails (a limit on
how often one address is sent a key), so at least a day is kept whatever the setting says.
Failed rows stay: the game's admin is shown them until they are dealt with; but a push that
failed (most often to a subscription that ended, deleted since) is nobody's to deal with, and
goes after the retention as a delivered row does. The scheduler calls `prune_outbox` every
hour.
"""

from __future__ import annotations

from datetime import timedelta

from flask import current_app
from sqlalchemy import and_, delete, or_, select

from pbem.clock import now
from pbem.extensions import db
from pbem.store import queries, tables

#: Statuses of a row whose message has gone (as itself, or inside a digest).
DELIVERED = ("sent", "digested")
#: Rows deleted in one transaction: a long backlog goes in short steps, not one long lock.
BATCH = 1000


def prune_outbox() -> int:
    """Delete delivered rows (and failed pushes) older than the retention; how many went."""
    days = max(float(current_app.config["PBEM_OUTBOX_KEEP_DAYS"]), 1.0)
    cutoff = now() - timedelta(days=days)
    # `next_attempt_at` is when a row was last picked up to send (or, for a digested row,
    # written), so never after it went: the condition on it lets the (status,
    # next_attempt_at) index find the rows; the one on `sent_at` keeps the retention exact.
    old = (
        select(tables.outbox.c.id)
        .where(
            or_(
                and_(tables.outbox.c.status.in_(DELIVERED), tables.outbox.c.sent_at < cutoff),
                and_(tables.outbox.c.status == "failed", tables.outbox.c.channel == "push"),
            ),
            tables.outbox.c.next_attempt_at < cutoff,
        )
        .limit(BATCH)
    )
    pruned = 0
    while True:
        ids = db.session.execute(old).scalars().all()
        if ids:
            pruned += queries.changed(
                db.session.execute(delete(tables.outbox).where(tables.outbox.c.id.in_(ids)))
            )
        db.session.commit()
        if len(ids) < BATCH:
            return pruned
