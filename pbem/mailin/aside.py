"""Mails no reader can read, kept aside in the instance folder (`mail-kept/`) for the
operator to look at, within bounds: that folder sits beside the secret key and, on SQLite,
the database, and anyone may send a megabyte of broken mail a second.

A mail is kept whole while its sender has fewer than `WHOLE_PER_SENDER` kept whole and the
folder holds less than `MAIL_KEPT_BYTES` (20 MiB unless set); past either, only its
headers (at most `HEADERS_KEPT` bytes) and its digest; past the folder's bound and the
headers' room beyond it, nothing (the log line and the mail's record still say it came).
Files are named by when, by whom (a digest of the sender's address, so one sender's count
is a glob) and by what, and written under a lock on the folder, so doors in several
processes (the pipe runs one per mail) keep to the bounds together.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from flask import current_app

from pbem.clock import now

#: The folder of the instance where mails no reader can read are kept for the operator.
KEPT_ASIDE = "mail-kept"
#: Mails one sender may have kept whole: enough to see what their mail program does.
WHOLE_PER_SENDER = 3
#: The most bytes of a mail's headers kept when it is not kept whole.
HEADERS_KEPT = 8 * 1024
#: Room for headers-only files past the folder's bound, as a share of it.
HEADERS_ROOM = 0.1


@dataclass(frozen=True)
class Kept:
    """What was kept of a mail: its path (None: nothing, the folder is full) and whether
    it is the whole mail or its headers and digest."""

    path: Path | None
    whole: bool

    def __str__(self) -> str:
        if self.path is None:
            return "not kept (the folder of mails kept aside is full)"
        return f"kept in {self.path}" if self.whole else f"headers kept in {self.path}"


def _folder() -> Path:
    folder = Path(current_app.instance_path) / KEPT_ASIDE
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _used(folder: Path) -> int:
    return sum(entry.stat().st_size for entry in os.scandir(folder) if entry.is_file())


def _headers(raw: bytes) -> bytes:
    end = raw.find(b"\r\n\r\n")
    end = raw.find(b"\n\n") if end < 0 else end
    return raw[: end if end >= 0 else len(raw)][:HEADERS_KEPT]


def keep(raw: bytes, sender: str) -> Kept:
    """Keep what the bounds allow of a mail no reader can read (see the module)."""
    folder = _folder()
    limit = int(current_app.config.get("MAIL_KEPT_BYTES") or 0)
    digest = hashlib.sha256(raw).hexdigest()
    who = hashlib.sha256(sender.strip().lower().encode()).hexdigest()[:12]
    stem = f"{now():%Y%m%dT%H%M%S}-{who}-{digest[:16]}"
    lock = os.open(folder, os.O_RDONLY)  # the folder itself: no file of its own in it
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when it is closed
        used = _used(folder)
        whole = len(list(folder.glob(f"*-{who}-*.eml")))
        if whole < WHOLE_PER_SENDER and used + len(raw) <= limit:
            path = folder / f"{stem}.eml"
            path.write_bytes(raw)
            return Kept(path, True)
        summary = _headers(raw) + f"\n\nsha256: {digest}\nbytes: {len(raw)}\n".encode()
        if used + len(summary) > limit * (1 + HEADERS_ROOM):
            current_app.logger.warning(
                "mail kept aside: the folder is full, not written", extra={"sha256": digest}
            )
            return Kept(None, False)
        path = folder / f"{stem}.headers"
        path.write_bytes(summary)
        return Kept(path, False)
    finally:
        os.close(lock)
