"""`pbem mail imap`: poll a mailbox (IMAP_URL) and hand each new message to
`process_inbound`, once.

IMAP_URL: imaps://user:password@host[:993]/INBOX, or imap://...?starttls=1. A message is
new while it is not \\Seen; it is flagged \\Seen once handled (and the inbound_mails record
keeps a message delivered twice, or fetched again after a crash, from being handled twice).
A message no reader can read is kept aside (`process_inbound`) and flagged \\Flagged too,
for the operator; the poller goes on with the next.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from urllib.parse import parse_qs, unquote, urlparse

from flask import Flask
from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError
from imapclient.imapclient import FLAGGED, SEEN

from pbem.mailin.door import Result, process_inbound
from pbem.play import unit
from pbem.store.outage import is_outage


def connect(url: str) -> tuple[IMAPClient, str]:
    parts = urlparse(url)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    secure = parts.scheme == "imaps"
    client = IMAPClient(
        parts.hostname or "localhost",
        port=parts.port or (993 if secure else 143),
        ssl=secure,
        timeout=float(query.get("timeout", "30")),
    )
    if not secure and query.get("starttls", "0") in ("1", "true", "yes"):
        client.starttls()
    client.login(unquote(parts.username or ""), unquote(parts.password or ""))
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    return client, folder


def poll_once(app: Flask, url: str | None = None) -> list[Result]:
    """Handle every unseen message of the mailbox; returns what became of each."""
    client, folder = connect(url or app.config["IMAP_URL"])
    results = []
    try:
        client.select_folder(folder)
        for uid in client.search(["UNSEEN"]):
            fetched = client.fetch([uid], ["BODY.PEEK[]"]).get(uid, {})
            raw = fetched.get(b"BODY[]")
            if raw is None:
                continue
            with app.app_context():
                try:
                    result = process_inbound(bytes(raw))
                finally:
                    unit.release()
            results.append(result)
            kept = result.outcome == "quarantined"
            client.add_flags([uid], [SEEN, FLAGGED] if kept else [SEEN])
    finally:
        with contextlib.suppress(OSError):
            client.logout()
    return results


#: Seconds before polling again after the mailbox could not be read, doubling up to the
#: most: a mail server restarting is back within seconds, one down for long is not hammered.
RETRY_FIRST = 1.0
RETRY_MOST = 300.0


def poll_forever(
    app: Flask, *, once: bool = False, every: float = 30.0, stop: threading.Event | None = None
) -> None:
    """Poll every `every` seconds until SIGTERM (or `stop` is set). A mailbox that cannot be
    read (the server restarting, the network away) is tried again, with backoff, not left:
    only `once` gives up at the first error."""
    if not app.config.get("IMAP_URL"):
        raise SystemExit("Set IMAP_URL (imaps://user:password@host/INBOX) to poll a mailbox.")
    if stop is None:
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
    delay = RETRY_FIRST
    while True:
        try:
            results = poll_once(app)
        except Exception as error:  # noqa: BLE001 (sorted below)
            # The mailbox or the database away for a while: tried again; a bug is not.
            if once or not (isinstance(error, OSError | IMAPClientError) or is_outage(error)):
                raise
            print(
                f"Mail: the mailbox could not be read ({type(error).__name__}: {error}); "
                f"trying again in {delay:g} s.",
                flush=True,
            )
            if stop.wait(delay):
                return
            delay = min(delay * 2, RETRY_MOST)
            continue
        delay = RETRY_FIRST
        if results:
            print(f"Mail: {', '.join(r.outcome for r in results)}.", flush=True)
        if once or stop.wait(every):
            return
