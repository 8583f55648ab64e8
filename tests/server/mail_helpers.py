"""A real SMTP server for the mail tests (aiosmtpd on a free loopback port), and reading
what it received."""

from __future__ import annotations

import socket
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Inbox:
    """aiosmtpd's handler: keeps every message it accepts, parsed, and as it came (`raw`)."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []
        self.raw: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        self.messages.append((list(envelope.rcpt_tos), parsed))
        self.raw.append(envelope.original_content or envelope.content)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for rcpt, m in self.messages if address in rcpt]


class SmtpServer:
    """Start, stop (an outage) and start again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.inbox = Inbox()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}?timeout=5"

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


def body_text(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def body_html(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content().replace("\r\n", "\n")


def header(message: EmailMessage, name: str) -> str:
    """A header's value unfolded, as a mail client reads it."""
    return " ".join(str(message[name]).split())
