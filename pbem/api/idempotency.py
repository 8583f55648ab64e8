"""`Idempotency-Key` on POST .../moves: a repeated request gets the first answer again.

This is the HTTP door's business (a mail has its Message-ID, the scheduler its own claims):
the answer is recorded in the same transaction as the batch, through the play function's
`also_write`, so a batch and its recorded answer commit together or not at all.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

from pbem.errors import Invalid, StaleSequence
from pbem.extensions import db
from pbem.languages import _
from pbem.play.batch import AlsoWrite, Outcome
from pbem.store.models import IdempotencyRecord, Player, utcnow
from pbem.store.queries import INSERT_ANSWER

Answer = tuple[int, dict[str, Any]]


def request_hash(game_id: int, payload: dict[str, Any]) -> str:
    canonical = json.dumps({"game": game_id, **payload}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def stored_answer(key_hash: str, key: str, hashed: str) -> Answer | None:
    """The status and body first given to this key of the key holder's, if any; an error if
    the key came with another request."""
    record = db.session.execute(
        db.select(IdempotencyRecord)
        .join(Player, Player.id == IdempotencyRecord.player_id)
        .where(Player.api_key_hash == key_hash, IdempotencyRecord.key == key)
    ).scalar_one_or_none()
    if record is None:
        return None
    if record.request_hash != hashed:
        raise Invalid(
            _(
                "This Idempotency-Key was already used for a different request; use a new key "
                "for each new batch of moves."
            )
        )
    return record.status_code, json.loads(record.response)


def once(
    key_hash: str,
    key: str | None,
    hashed: str,
    play: Callable[[AlsoWrite | None], Outcome],
    answer: Callable[[Outcome], Answer],
) -> Answer:
    """`answer(play(...))`, unless `key` was answered already; `play` is given the hook
    that records its answer with the batch. After a lost race, the winner's answer if the
    winner was this same request."""
    if not key:
        return answer(play(None))
    stored = stored_answer(key_hash, key, hashed)
    if stored is not None:
        return stored

    def record(connection: Connection, outcome: Outcome) -> None:
        status, body = answer(outcome)
        connection.execute(
            INSERT_ANSWER,
            {
                "player_id": outcome.player_id,
                "key": key,
                "request_hash": hashed,
                "status_code": status,
                "response": json.dumps(body),
                "created_at": utcnow(),
            },
        )

    try:
        return answer(play(record))
    except StaleSequence:
        db.session.rollback()
        stored = stored_answer(key_hash, key, hashed)
        if stored is not None:
            return stored
        raise
