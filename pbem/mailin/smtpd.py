"""`pbem mail smtpd`: an SMTP (or LMTP) listener on aiosmtpd that hands each message to
`process_inbound`.

An unknown or badly signed recipient is refused at RCPT (550), before any body is sent, so
the sending server bounces it; a message over MAIL_MAX_BYTES is refused at DATA (552). In
LMTP, DATA is answered once for each recipient taken (RFC 2033), as Postfix's lmtp client
and deploy/pbem-deliver.py expect.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import ParamSpec, TypeVar

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session
from flask import Flask

from pbem.mailin.door import accepts, process_inbound
from pbem.play import unit

logger = logging.getLogger(__name__)

ACCEPTED = "250 Message accepted"
TRY_LATER = "451 4.3.0 Not handled now, try again later"
#: Permanent: a mail kept aside will never be read, so the sender bounces it now rather
#: than retrying for days.
UNREADABLE = (
    "554 5.6.0 This message could not be read (its MIME structure is broken, too deep or too "
    "large); nothing was played. Send it again as plain text"
)

P = ParamSpec("P")
T = TypeVar("T")


class InboundHandler:
    """aiosmtpd's handler: each call runs in a worker thread, in an app context (the
    database is blocking; the listener's event loop must not be)."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def _in_app(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        with self.app.app_context():
            try:
                return work(*args, **kwargs)
            finally:
                unit.release()

    async def _run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, partial(self._in_app, work, *args, **kwargs))

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's name)
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if not await self._run(accepts, address):
            return "550 5.1.1 No such seat here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(  # noqa: N802 (aiosmtpd's name)
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        raw = envelope.original_content or envelope.content
        assert raw is not None  # aiosmtpd sets the content before it calls handle_DATA
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        answers: list[str] = []
        for recipient in envelope.rcpt_tos:
            # The database away for one is away for the next: they wait for the retry.
            later = TRY_LATER in answers
            answers.append(TRY_LATER if later else await self._answer(raw, recipient))
        if isinstance(server, LMTP):
            # LMTP answers once for each recipient taken at RCPT, in their order (RFC 2033):
            # a client such as Postfix's lmtp waits for every one of them.
            return "\r\n".join(answers)
        for answer in (TRY_LATER, UNREADABLE):
            if answer in answers:
                return answer
        return ACCEPTED

    async def _answer(self, raw: bytes, recipient: str) -> str:
        try:
            result = await self._run(process_inbound, raw, recipient=recipient)
        except Exception:  # the database down: the sender keeps it and retries
            logger.exception("mail to %s not handled", recipient)
            return TRY_LATER
        return UNREADABLE if result.outcome == "quarantined" else ACCEPTED


class Listener(Controller):
    """The listener, as a thread of its own (start, stop)."""

    def __init__(self, app: Flask, *, host: str, port: int, lmtp: bool = False) -> None:
        self.lmtp = lmtp
        limit = int(app.config.get("MAIL_MAX_BYTES") or 0) or None
        super().__init__(
            InboundHandler(app),
            hostname=host,
            port=port,
            data_size_limit=limit,
            # Keep the message's bytes as sent: charsets are the parser's to read.
            decode_data=False,
        )

    def factory(self) -> SMTP:
        server_class = LMTP if self.lmtp else SMTP
        return server_class(self.handler, **self.SMTP_kwargs)
