"""`Idempotency-Key` on POST .../moves: a repeated request gets the first answer again.

This is the HTTP door's business (a mail has its Message-ID, the scheduler its own claims);
the answers are kept by `pbem.play.idempotency`, recorded in the same transaction as the
batch, so a batch and its recorded answer commit together or not at all.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from pbem.errors import StaleSequence
from pbem.play import unit
from pbem.play.batch import AlsoWrite, Outcome
from pbem.play.idempotency import Answer, recording, stored_answer

__all__ = ["Answer", "once", "request_hash"]


def request_hash(game_id: int, payload: dict[str, Any]) -> str:
    canonical = json.dumps({"game": game_id, **payload}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


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
        unit.rollback()
        stored = stored_answer(key_hash, key, hashed)
        if stored is not None:
            return stored
        raise
