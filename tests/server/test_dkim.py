"""Outgoing mail DKIM-signed (dkimpy): it verifies against the published key, and a
changed List-Unsubscribe (or body) no longer does."""

from __future__ import annotations

import re
from pathlib import Path

import dkim
import sqlalchemy as sa

from pbem.extensions import db
from pbem.notify import signing
from pbem.notify.signing import public_key_record
from pbem.store.models import Notification
from tests.server.test_mail_in import start
from tests.server.test_mail_out import deliver

#: A throwaway key, for tests only.
DKIM_KEY = Path(__file__).parent / "data" / "dkim-test-key.pem"


def _dns(name: bytes, timeout: int = 5) -> bytes | None:
    """A stub DNS: the one TXT record the operator published."""
    if name == b"pbem2026._domainkey.pbem.example.":
        return public_key_record(DKIM_KEY.read_bytes()).encode()
    return None


def test_mail_is_signed_and_verifies_and_a_changed_unsubscribe_does_not(mail_app, mail_api, smtp):
    mail_app.config.update(
        DKIM_SELECTOR="pbem2026", DKIM_DOMAIN="pbem.example", DKIM_PRIVATE_KEY=str(DKIM_KEY)
    )
    smtp.inbox.raw.clear()
    start(mail_app, mail_api)
    deliver(mail_app)
    assert smtp.inbox.raw
    for raw in smtp.inbox.raw:
        assert raw.startswith(b"DKIM-Signature:"), raw[:80]
        assert dkim.verify(raw, dnsfunc=_dns), raw[:400]
        signed = re.search(rb"h=([^;]+);", raw.replace(b"\r\n ", b"").replace(b"\n ", b"")).group(1)
        assert {b"list-unsubscribe", b"list-unsubscribe-post", b"from", b"subject"} <= set(
            signed.lower().replace(b" ", b"").split(b":")
        )
    # A seat's mail as the sender signs it, its unsubscribe link changed on the way (first
    # met in the List-Unsubscribe header: headers come first, and folding never cuts a URL).
    with mail_app.app_context():
        message = (
            db.session.execute(
                sa.select(Notification.message).where(Notification.kind == "decision")
            )
            .scalars()
            .first()
        )
        signed = signing.signer(mail_app.config).sign(message).encode()
        db.session.remove()
    assert b"List-Unsubscribe:" in signed and dkim.verify(signed, dnsfunc=_dns)
    changed = signed.replace(b"/mail/unsubscribe/", b"/mail/unsubscrib3/", 1)
    assert changed != signed and not dkim.verify(changed, dnsfunc=_dns)


def test_without_the_settings_mail_goes_unsigned(mail_app, mail_api, smtp):
    smtp.inbox.raw.clear()
    start(mail_app, mail_api)
    deliver(mail_app)
    assert smtp.inbox.raw and not any(r.startswith(b"DKIM-Signature:") for r in smtp.inbox.raw)
