"""Replies written the way mail clients write them (Gmail, Outlook, Apple Mail,
Thunderbird; text, HTML-only, format=flowed; English, French, German, Russian), as raw bytes, and
the doors to send them through."""

from __future__ import annotations

import html
import smtplib
import uuid
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid

from tests.server.mail_helpers import body_html, body_text

ATTRIBUTION = {
    ("gmail", "en"): "On Sun, 22 Nov 2026 at 09:00, El Grande <play@pbem.example> wrote:",
    ("gmail", "fr"): "Le dim. 22 nov. 2026 à 09:00, El Grande <play@pbem.example> a écrit :",
    ("gmail", "de"): "Am So., 22. Nov. 2026 um 09:00 Uhr schrieb El Grande <play@pbem.example>:",
    ("gmail", "ru"): "вс, 22 нояб. 2026 г. в 09:00, El Grande <play@pbem.example>:",
    ("apple", "en"): "On 22 Nov 2026, at 09:00, El Grande <play@pbem.example> wrote:",
    ("apple", "fr"): "Le 22 nov. 2026 à 09:00, El Grande <play@pbem.example> a écrit :",
    ("thunderbird", "en"): "On 22/11/2026 09:00, El Grande wrote:",
    ("thunderbird", "de"): "Am 22.11.26 um 09:00 schrieb El Grande:",
}

#: What an iPhone signs a mail with, in its owner's language.
IPHONE = {
    "en": "Sent from my iPhone",
    "fr": "Envoyé de mon iPhone",
    "de": "Von meinem iPhone gesendet",
    "ru": "Отправлено с iPhone",
}

OUTLOOK_HEADER = {
    "en": ("From", "Sent", "To", "Subject"),
    "fr": ("De ", "Envoyé ", "À ", "Objet "),  # French typography: "De : ..."
    "de": ("Von", "Gesendet", "An", "Betreff"),
}


def quoted(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.split("\n"))


def flow(text: str, width: int = 40) -> str:
    """RFC 3676 (DelSp=no): long lines broken after a space, the space kept at the end."""
    out = []
    for line in text.split("\n"):
        while len(line) > width and " " in line[:width]:
            cut = line[:width].rindex(" ") + 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(" " + line if line.startswith((" ", ">", "From ")) else line)
    return "\n".join(out)


def text_body(style: str, language: str, body: str, original: str) -> str:
    if style == "outlook":
        f, s, t, j = OUTLOOK_HEADER[language]
        return (
            f"{body}\n\n________________________________\n{f}: El Grande <play@pbem.example>\n"
            f"{s}: Sunday, November 22, 2026 9:00 AM\n{t}: Red\n{j}: [El Grande] your turn\n\n"
            + original
        )
    attribution = ATTRIBUTION[(style, language)]
    signature = {"gmail": "\n\n-- \nRed Player", "apple": f"\n\n{IPHONE[language]}"}.get(style, "")
    return f"{body}{signature}\n\n{attribution}\n\n{quoted(original)}\n"


def html_body(style: str, language: str, body: str, original_html: str) -> str:
    mine = "".join(f"<div>{html.escape(line) or '<br>'}</div>" for line in body.split("\n"))
    inner = original_html.split("<body", 1)[-1].split(">", 1)[-1].rsplit("</body>", 1)[0]
    if style == "gmail":
        attribution = html.escape(ATTRIBUTION[("gmail", language)])
        return (
            f'<div dir="ltr">{mine}</div><br><div class="gmail_quote"><div dir="ltr" '
            f'class="gmail_attr">{attribution}<br></div><blockquote class="gmail_quote" '
            f'style="margin:0px 0px 0px 0.8ex">{inner}</blockquote></div>'
        )
    if style == "outlook":
        f, s, t, j = OUTLOOK_HEADER[language]
        return (
            f'<html><head><style>p {{margin:0}}</style></head><body><div style="font-family:'
            f'Calibri">{mine}</div><hr style="display:inline-block;width:98%" tabindex="-1">'
            f'<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri"><b>{f}:</b> El Grande '
            f"&lt;play@pbem.example&gt;<br><b>{s}:</b> Sunday<br><b>{t}:</b> Red<br><b>{j}:"
            f"</b> your turn</font><div>&nbsp;</div></div>{inner}</body></html>"
        )
    if style == "apple":
        attribution = html.escape(ATTRIBUTION[("apple", language)])
        return (
            f'<html><body dir="auto">{mine}<div><br><blockquote type="cite">{attribution}'
            f'<br><br></blockquote></div><blockquote type="cite">{inner}</blockquote>'
            "</body></html>"
        )
    attribution = html.escape(ATTRIBUTION[("thunderbird", language)])
    return (
        f'<html><body><p>{mine}</p><div class="moz-cite-prefix">{attribution}<br></div>'
        f'<blockquote type="cite">{inner}</blockquote></body></html>'
    )


def reply(
    mail: EmailMessage,
    body: str,
    *,
    sender: str,
    style: str = "gmail",
    language: str = "en",
    kind: str = "text",  # text, html (HTML only), flowed, alternative
    to: str | None = None,
    message_id: str | None = None,
    headers: dict[str, str] | None = None,
    charset: str = "utf-8",
) -> bytes:
    """A reply to one of our mails, as a mail client would send it."""
    original = body_text(mail)
    message = EmailMessage()
    message["From"] = formataddr((sender.split("@")[0].title(), sender))
    message["To"] = to or str(mail["Reply-To"])
    message["Subject"] = "Re: " + " ".join(str(mail["Subject"]).split())
    message["Date"] = format_datetime(__import__("datetime").datetime.now().astimezone())
    message["Message-ID"] = message_id or make_msgid(uuid.uuid4().hex[:8], "client.example")
    message["In-Reply-To"] = mail["Message-ID"]
    message["References"] = " ".join(
        filter(None, [str(mail["References"] or ""), str(mail["Message-ID"])])
    )
    for name, value in (headers or {}).items():
        message[name] = value
    text = text_body(style, language, body, original)
    if kind == "html":
        message.set_content(
            html_body(style, language, body, body_html(mail)), subtype="html", charset=charset
        )
    elif kind == "flowed":
        message.set_content(flow(text), charset=charset, cte="quoted-printable")
        message.set_param("format", "flowed")
    elif kind == "alternative":
        message.set_content(text, charset=charset)
        message.add_alternative(
            html_body(style, language, body, body_html(mail)), subtype="html", charset=charset
        )
    else:
        message.set_content(text, charset=charset, cte="8bit" if charset != "utf-8" else None)
    return bytes(message)


def fresh_mail(sender: str, to: str, body: str, **headers: str) -> bytes:
    """A mail that answers nothing (a new message to one of our addresses)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "hello"
    message["Message-ID"] = make_msgid(uuid.uuid4().hex[:8], "client.example")
    for name, value in headers.items():
        message[name] = value
    message.set_content(body)
    return bytes(message)


def send_smtp(port: int, raw: bytes, sender: str, recipients: list[str]) -> dict:
    """Through the listener with a real SMTP client; returns refused recipients."""
    # On the wire, lines end in CRLF (smtplib sends bytes as they are).
    wire = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        return client.sendmail(sender, recipients, wire)


def moves_listed(mail: EmailMessage) -> list[str]:
    """The legal moves a mail lists under "Your moves now", or (a power card's decision,
    which lists them once) under "The power cards you may play", each without its gloss."""
    return moves_under(body_text(mail), ("Your moves now", "The power cards you may play"))


def moves_under(text: str, heads: tuple[str, ...]) -> list[str]:
    """The moves listed (indented) under the first line starting with one of `heads`, each
    without its gloss (in brackets, or after a "#"); none if no line does."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(heads)), None)
    if start is None:
        return []
    moves = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        moves.append(line.split("#")[0].strip().split(" (")[0])
    return moves
