"""`Idempotency-Key` on POST .../moves: a repeated request gets the first answer again.

This is the HTTP door's business (a mail has its Message-ID, the scheduler its own claims);
the answers are kept by `pbem.play.idempotency`, recorded in the same transaction as the
batch, so a batch and its recorded answer commit together or not at all.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from pbem.play.idempotency import Answer, once

__all__ = ["Answer", "once", "request_hash"]


def request_hash(game_id: int, payload: Mapping[str, object]) -> str:
    canonical = json.dumps({"game": game_id, **payload}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()
