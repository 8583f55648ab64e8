"""Answer a mail the server wrote as a mail client would: for the demo and for drills.

With mail written to files (no SMTP_URL), `pbem mail reply FILE "power 9"` takes one of
those `.eml` files, writes the reply a person would send (from its recipient, to its
Reply-To, in its thread, the text above the quoted original) and hands it to the mail door.
"""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import formatdate, getaddresses, make_msgid, parseaddr
from pathlib import Path


def reply_to(original: bytes, text: str) -> bytes:
    """The RFC 822 reply to `original`, saying `text` above the quote."""
    mail = BytesParser(policy=policy.default).parsebytes(original)
    sender = parseaddr(str(mail["To"]))[1]
    answer_to = str(mail["Reply-To"] or mail["From"])
    body = mail.get_body(preferencelist=("plain",))
    quoted = "\n".join("> " + line for line in (body.get_content() if body else "").splitlines())
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = answer_to
    subject = str(mail["Subject"] or "")
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Date"] = formatdate(localtime=True)
    reply["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "localhost")
    if mail["Message-ID"]:
        references = str(mail["References"] or "").split()
        reply["In-Reply-To"] = str(mail["Message-ID"])
        reply["References"] = " ".join([*references, str(mail["Message-ID"])])
    author = getaddresses([str(mail["From"])])[0][0] or str(mail["From"])
    reply.set_content(f"{text.strip()}\n\nOn {mail['Date']}, {author} wrote:\n{quoted}\n")
    return reply.as_bytes(policy=policy.SMTP)


def recipient_of(reply: bytes) -> str:
    """The envelope recipient of a reply: its To address."""
    return parseaddr(str(BytesParser(policy=policy.default).parsebytes(reply)["To"]))[1]


def answers(reply: bytes, paths: list[Path]) -> list[Path]:
    """Those of the mail files `paths` that answer `reply`: the server answers a mail in its
    thread, with the mail's Message-ID as In-Reply-To. A file still being written (no
    headers yet) answers nothing for now."""
    parser = BytesParser(policy=policy.default)
    reply_id = str(parser.parsebytes(reply)["Message-ID"] or "")
    found = []
    for path in paths:
        try:
            head = parser.parsebytes(path.read_bytes(), headersonly=True)
        except OSError:
            continue
        if reply_id and str(head["In-Reply-To"] or "").strip() == reply_id:
            found.append(path)
    return found
