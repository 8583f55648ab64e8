"""The answers kept for the API's `Idempotency-Key`: read one back, or record one with the
batch it answers (through the play function's `also_write`, so a batch and its recorded
answer commit together or not at all). What a key means is the API's (`pbem.api.idempotency`);
keeping the answers is a write like any other, so it is here."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

from pbem.errors import Invalid, StaleSequence
from pbem.extensions import db
from pbem.languages import N_
from pbem.play.batch import AlsoWrite, Outcome
from pbem.store.models import IdempotencyRecord, Player, utcnow
from pbem.store.queries import INSERT_ANSWER

#: An answer as the API gave it: its status and its JSON body.
Answer = tuple[int, dict[str, Any]]


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
            N_(
                "This Idempotency-Key was already used for a different request; use a new key "
                "for each new batch of moves."
            ),
            code="idempotency-key-reused",
        )
    return record.status_code, json.loads(record.response)


def recording(key: str, hashed: str, answer: Callable[[Outcome], Answer]) -> AlsoWrite:
    """The hook that records `answer(outcome)` under `key` with the batch it answers."""

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

    return record


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
    try:
        return answer(play(recording(key, hashed, answer)))
    except StaleSequence:
        db.session.rollback()  # the loser's batch: none of it stays
        stored = stored_answer(key_hash, key, hashed)
        if stored is not None:
            return stored
        raise
