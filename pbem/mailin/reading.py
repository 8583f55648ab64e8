"""Reading an incoming mail: its headers, whether it is an auto-reply, what the
Authentication-Results of a trusted server say, and the new text of a reply (above the quote,
without the signature), from a text or an HTML-only body, flowed or not.
"""

from __future__ import annotations

import codecs
import hashlib
import re
import time
import unicodedata
from dataclasses import dataclass, field
from email import errors, policy
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser
from email.utils import collapse_rfc2231_value, getaddresses, parseaddr
from functools import cache
from html.parser import HTMLParser

from babel.support import Translations
from mailparser_reply import EmailReplyParser

from engine.notation import verb_words
from pbem import languages
from pbem.languages import lazy_
from pbem.notify.compose import REPLY_ABOVE
from pbem.words.moves import COMMANDS_WRITTEN

#: Commands a reply may hold, one per line (see templates/mail/help_lines.txt); each has its
#: handler in `pbem.mailin.commands`.
COMMAND_WORDS = (
    "moves",
    "board",
    "log",
    "away",
    "back",
    "bot",
    "key",
    "stop",
    "help",
    "plan",
    "veto",
    "language",
    "mute",
    "unmute",
    "report",
    "hint",
)

#: Commands only when a colour follows them (`mute red`): "report back soon" is words.
COLOUR_COMMANDS = ("mute", "unmute", "report")

#: `veto` is a command only as `veto allow` or `veto ask` (a standing answer); else the move.
VETO_STANDING = ("allow", "ask")

#: The commands, and the standing Veto answers, as written in the languages whose readers are
#: shown them in their own words (`pbem.words.moves.COMMANDS_WRITTEN`): the door reads them
#: from everyone, beside the English ones.
COMMAND_SPELLINGS: dict[str, str] = {
    spelt: word
    for table in COMMANDS_WRITTEN.values()
    for word, spelt in table.items()
    if word in COMMAND_WORDS
}
VETO_SPELLINGS: dict[str, str] = {
    spelt: word
    for table in COMMANDS_WRITTEN.values()
    for word, spelt in table.items()
    if word in VETO_STANDING
}
assert set(COMMAND_SPELLINGS.values()) == set(COMMAND_WORDS), "a word for every command"


#: What may stand around a command's word written as a sentence ("Board.", "help?"): folded
#: away before the word is looked up.
SENTENCE_MARKS = " .:!?,"


def command_word(word: str) -> str:
    """A command's English word for a word as written and folded (`доска` is `board`)."""
    return COMMAND_SPELLINGS.get(word, word)


def veto_standing(word: str) -> str:
    """A standing Veto answer's English word for one as written (`разрешить` is `allow`)."""
    word = word.lower().strip(" .:!,")
    return VETO_SPELLINGS.get(word, word)


#: Languages whose "On ... wrote:" lines and signatures the reply parser knows.
LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "da", "pl", "cs"]

_AUTO_SENDERS = ("mailer-daemon", "postmaster")

#: The line a mail app signs with, in the languages players write ("Sent from my
#: iPhone", "Envoyé de mon iPhone", "Von meinem iPhone gesendet", "Отправлено с iPhone",
#: "Inviato da iPhone", "Enviado desde mi iPhone", "Get Outlook for Android"), and Proton
#: Mail's. The reply parser knows the English, Spanish and Italian phones' only; the others
#: were passed to the table as words, in every reply.
_APP_SIGNATURE = re.compile(
    r"(?:sent from my|envoy[ée] de(?:puis)? mon|von meinem|inviato da|enviado desde|"
    r"отправлено с|get outlook for|obtenir outlook pour|sent with proton mail) .{1,40}",
    re.IGNORECASE,
)


#: The most parts a mail may have, counted before it is parsed: a reply has a few; a
#: hundred thousand empty ones fit in a megabyte and cost the parser seconds each mail.
MOST_PARTS = 100

#: The most multiparts nested in one another: a reply nests three or four.
MOST_DEPTH = 20

#: The CPU seconds one mail may take to be parsed and its new text found: a reply takes a
#: few milliseconds; past this it is kept aside, so no mail holds a door for long.
READ_SECONDS = 1.0

#: The most characters of a text part searched for what the writer added: their words and
#: the quote of our mail fit many times over; past them is older quoting.
MOST_TEXT = 100_000

_CONTENT_TYPE = re.compile(rb"^content-type[ \t]*:", re.IGNORECASE | re.MULTILINE)
#: A line that may open a part: the parser splits only at lines `--<boundary>`, and parts
#: need no header, so these, not Content-Type lines, bound the parts (a signature's "-- "
#: has a space, and is not one).
_DELIMITER = re.compile(rb"^--\S", re.MULTILINE)


class Budget:
    """The CPU time one mail may spend being read (`READ_SECONDS`), counted on its thread
    (a door reads mails on several threads at once)."""

    def __init__(self, seconds: float = READ_SECONDS) -> None:
        self.seconds = seconds
        self.started = time.thread_time()

    def spent(self) -> float:
        return time.thread_time() - self.started

    def check(self) -> None:
        """Malformed once the mail has spent its budget: kept aside, never read again."""
        if self.spent() > self.seconds:
            raise Malformed(lazy_("reading it took too long"))


class Unreadable(Exception):
    """The body could not be read (broken MIME, an unknown charset, undecodable text)."""


class Malformed(Unreadable):
    """A mail no reader will ever read (too many parts, nested too deep, a parser error):
    kept aside, never retried."""


@dataclass
class Inbound:
    """An incoming mail's headers, as the door needs them."""

    raw: bytes
    headers: Message
    message_id: str  # the key it is remembered by
    sender: str  # From's bare address, lowercased ("" if none)
    in_reply_to: list[str] = field(default_factory=list)  # the message(s) answered
    recipients: list[str] = field(default_factory=list)  # from the headers
    subject: str = ""

    @property
    def message_header(self) -> str:
        """The Message-ID header as written ("" if none): what an answer replies to."""
        return header_text(self.headers.get("Message-ID")).strip()

    @property
    def references(self) -> list[str]:
        return header_text(self.headers.get("References")).split()


def read_headers(raw: bytes) -> Inbound:
    """The headers only: cheap, and safe on a message too large to read whole."""
    headers = BytesHeaderParser(policy=policy.compat32).parsebytes(raw[: 256 * 1024])
    sender = parseaddr(header_text(headers.get("From")))[1].strip().lower()
    message_id = header_text(headers.get("Message-ID")).strip()
    if message_id and len(message_id) <= 255:
        key = message_id
    else:
        key = "sha256:" + hashlib.sha256(message_id.encode() if message_id else raw).hexdigest()
    replied = re.findall(r"<[^<>\s]+>", header_text(headers.get("In-Reply-To")))
    referenced = re.findall(r"<[^<>\s]+>", header_text(headers.get("References")))
    recipients = [
        address.strip().lower()
        for name in ("Delivered-To", "X-Original-To", "To", "Cc")
        for _, address in getaddresses([header_text(v) for v in headers.get_all(name) or []])
        if address
    ]
    return Inbound(
        raw=raw,
        headers=headers,
        message_id=key,
        sender=sender,
        # The message answered; without In-Reply-To, the newest of the thread.
        in_reply_to=replied or referenced[-1:],
        recipients=recipients,
        subject=header_text(headers.get("Subject")),
    )


def header_text(value: object) -> str:
    """A header's value as text, whatever its encoding (RFC 2047 words decoded)."""
    if value is None:
        return ""
    try:
        return str(make_header(decode_header(str(value))))
    except (UnicodeError, LookupError, ValueError):
        return str(value)


def auto_reply(inbound: Inbound, own: str) -> str | None:
    """Why this mail is automatic (never answered, never played), or None (RFC 3834).
    `own` is our sender address: a mail from it, or from one of its seat addresses, is one
    of ours coming back."""
    headers = inbound.headers
    auto = header_text(headers.get("Auto-Submitted")).strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header_text(headers.get("Precedence")).strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    if headers.get("X-Autoreply") is not None or headers.get("X-Autorespond") is not None:
        return "X-Autoreply"
    local, _, domain = inbound.sender.partition("@")
    if not inbound.sender or local in _AUTO_SENDERS or local.startswith("mailer-daemon"):
        return f"sender {inbound.sender or '(none)'}"
    own_local, _, own_domain = own.lower().partition("@")
    if domain == own_domain and local.partition("+")[0] == own_local:
        return "our own address"
    if "multipart/report" in header_text(headers.get("Content-Type")).lower():
        return "a delivery report"
    return None


def authentication_failure(inbound: Inbound, trusted: str | None) -> str | None:
    """A DMARC or DKIM failure reported by the trusted server `trusted`, else None.

    Only headers whose authserv-id is `trusted` count: anyone can write such a header, and
    only our own receiving server's is added after the sender lost control of the message.
    """
    if not trusted:
        return None
    failures = []
    for value in inbound.headers.get_all("Authentication-Results") or []:
        text = " ".join(header_text(value).split())
        authserv = text.split(";", 1)[0].strip().split()[0].lower() if text else ""
        if authserv != trusted.lower():
            continue
        results = dict.fromkeys(("dmarc", "dkim"), None)
        dkim = re.findall(r"\bdkim=(\w+)", text, re.I)
        dmarc = re.findall(r"\bdmarc=(\w+)", text, re.I)
        if any(v.lower() == "fail" for v in dmarc):
            results["dmarc"] = "fail"
        if (
            dkim
            and any(v.lower() == "fail" for v in dkim)
            and not any(v.lower() == "pass" for v in dkim)
        ):
            results["dkim"] = "fail"
        failures += [f"{k}=fail" for k, v in results.items() if v]
    return ", ".join(failures) if failures else None


def parse_whole(raw: bytes, budget: Budget | None = None) -> EmailMessage:
    """The whole mail, parsed within bounds (parts, counted before parsing; depth; the
    mail's CPU budget): Malformed past them, or when the parser fails on it, so one mail
    never stops a door."""
    delimiters = len(_DELIMITER.findall(raw))
    # Each multipart ends with a closing delimiter: a part more than its opening line.
    if len(_CONTENT_TYPE.findall(raw)) > MOST_PARTS or delimiters > 2 * MOST_PARTS:
        raise Malformed(lazy_("it has more than %(most)s parts", most=MOST_PARTS))
    try:
        message = BytesParser(policy=policy.default).parsebytes(raw)
    except (RecursionError, MemoryError) as error:
        raise Malformed(lazy_("its parts are nested too deep")) from error
    except Exception as error:  # the parser's own bug on this mail: no retry helps
        raise Malformed(lazy_("its structure could not be read")) from error
    assert isinstance(message, EmailMessage)
    stack: list[tuple[Message, int]] = [(message, 0)]
    while stack:  # the depth, walked without recursion
        part, depth = stack.pop()
        if depth > MOST_DEPTH:
            raise Malformed(lazy_("its parts are nested too deep"))
        payload = part.get_payload()
        if part.is_multipart() and isinstance(payload, list):
            stack += [(child, depth + 1) for child in payload if isinstance(child, Message)]
    if budget is not None:
        budget.check()
    return message


def new_text(message: EmailMessage, budget: Budget | None = None) -> str:
    """The text the writer added: above our marker and the quote, without the signature;
    within the mail's CPU budget."""
    try:
        part = message.get_body(preferencelist=("plain", "html"))
    except (LookupError, KeyError, AttributeError, ValueError, TypeError):
        raise Unreadable(lazy_("its parts could not be told apart")) from None
    if part is None:
        raise Unreadable(lazy_("it has no text part"))
    content = _text(part)
    if part.get_content_subtype() == "html":
        content = html_to_text(content[: 4 * MOST_TEXT])  # markup weighs more than text
    elif _param(part, "format").lower() == "flowed":
        content = unflow(content[:MOST_TEXT], delsp=_param(part, "delsp").lower() == "yes")
    if budget is not None:
        budget.check()
    new = reply_part(content[:MOST_TEXT])
    if budget is not None:
        budget.check()
    return new


#: Defects that say a base64 body lost bytes: what decodes from it is not what was written.
_BROKEN_BASE64 = (errors.InvalidBase64CharactersDefect, errors.InvalidBase64LengthDefect)

#: Character sets that say nothing of byte order: their text must start with a BOM.
_UNORDERED = {
    "utf-16": (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE),
    "utf-32": (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE),
}

#: Character sets mail programs declare (or leave to the default) for UTF-8 text.
_ASCII = {"ascii", "us-ascii"}


def _text(part: Message) -> str:
    """A text part decoded strictly: broken base64, bytes invalid in the declared character
    set, or text that decodes to what no one writes (unassigned or control characters, as
    ASCII read as UTF-16 does) is Unreadable, never passed on as garbage."""
    payload = part.get_payload(decode=True)
    # Decoding notes the defects it met on the part.
    if any(isinstance(defect, _BROKEN_BASE64) for defect in part.defects):
        raise Unreadable(lazy_("its text is said to be base64 but is not"))
    if not isinstance(payload, bytes):
        raise Unreadable(lazy_("its text part is not text"))
    declared = (part.get_content_charset() or "us-ascii")[:40]
    try:
        charset = codecs.lookup(declared).name
    except LookupError:
        raise Unreadable(
            lazy_("its text is in a character set we do not know (%(charset)s)", charset=declared)
        ) from None
    if charset in _UNORDERED and not payload.startswith(_UNORDERED[charset]):
        raise Unreadable(lazy_("its text is not valid %(charset)s", charset=declared))
    try:
        text = payload.decode(charset)
    except UnicodeDecodeError:
        if charset not in _ASCII:
            raise Unreadable(lazy_("its text is not valid %(charset)s", charset=declared)) from None
        try:  # 8-bit text with no character set said is UTF-8 nearly always
            text = payload.decode("utf-8")
        except UnicodeDecodeError:
            raise Unreadable(lazy_("its text is not valid %(charset)s", charset=declared)) from None
    if any(_garbage(c) for c in text):
        raise Unreadable(
            lazy_(
                "its text holds characters no one writes (it may not be in the character set "
                "it says, %(charset)s)",
                charset=declared,
            )
        )
    return text


def _garbage(character: str) -> bool:
    """A character that is in no written text: the replacement character, a control
    character other than white space, an unassigned or surrogate code point. (Private-use
    ones are written: Apple's logo in a signature.)"""
    if character == "\ufffd":
        return True
    category = unicodedata.category(character)
    if category == "Cc":
        return character not in "\t\n\r\f\v"
    return category in ("Cn", "Cs")


def _param(part: Message, name: str) -> str:
    """A Content-Type parameter of `part`, "" if absent; an RFC 2231 one (a tuple) decoded."""
    value = part.get_param(name, "")
    return value if isinstance(value, str) else collapse_rfc2231_value(value)


def reply_part(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\xa0", " ")
    whole = _without_attributions(text.split("\n"))
    lines = whole
    # Everything from our marker down is what we sent (quoted or not), in any language.
    markers = reply_markers()
    for index, line in enumerate(lines):
        if any(marker in line.lower() for marker in markers):
            lines = lines[:index]
            break
    # Outlook's rule of underscores starts its quoted header block, in any language, and a
    # mail app's own signature ends what was written.
    for index, line in enumerate(lines):
        if re.fullmatch(r"\s*_{10,}\s*", line) or _APP_SIGNATURE.fullmatch(line.strip()):
            lines = lines[:index]
            break
    text = "\n".join(lines)
    parsed = EmailReplyParser(languages=LANGUAGES).read(text)
    if not parsed.replies:
        return _below_the_quote(whole)
    first = parsed.replies[0]
    body = first.body
    signature = next((line for line in first.signatures.split("\n") if line.strip()), "")
    if signature and _reads_as_ours(signature):
        # The library's signature words are prefixes ("Tak", Danish thanks, would cut
        # "take 3"): a line we can read is never a signature, but one below it may be.
        content = first.content.replace(first.headers or "", "")
        body = _above_signature(content[: _signature_start(parsed.SIGNATURE_REGEX, content)])
    kept = [line for line in body.split("\n") if not line.lstrip().startswith(">")]
    # Nothing above the quote: a bottom-posted reply (mutt's and s-nail's way) is read from
    # below it.
    return "\n".join(kept).strip() or _below_the_quote(whole)


@cache
def reply_markers() -> tuple[str, ...]:
    """Our marker as the mails of every language write it (each catalog's translation of
    REPLY_ABOVE, and the English), folded as `reply_part` compares it: a player may reply
    to a mail written in a language they have since left."""
    markers = {REPLY_ABOVE}
    for language in languages.LANGUAGES:
        catalog = Translations.load(str(languages.TRANSLATIONS_DIR), [language])
        markers.add(catalog.gettext(REPLY_ABOVE))
    return tuple(sorted(m.strip("# ").lower() for m in markers if m.strip("# ")))


#: A line with a time of day in it: the first line of Claws Mail's two-line attribution.
_DATED = re.compile(r"\d{1,2}:\d{2}")


def _without_attributions(lines: list[str]) -> list[str]:
    """The lines without the attribution above each quote: a line ending in ":" whose next
    written line is quoted ("El Grande <...> wrote:", as s-nail writes it, in any language),
    and a dated line just above it (Claws Mail puts the date on a line of its own). No move
    or command ends in a colon, and a line that starts as one is kept."""
    dropped: set[int] = set()
    for index, line in enumerate(lines):
        if not line.rstrip().endswith(":") or line.lstrip().startswith(">"):
            continue
        if _reads_as_ours(line):  # moves the writer ran into the attribution (flowed text)
            continue
        after = next((later for later in lines[index + 1 :] if later.strip()), "")
        if not after.lstrip().startswith(">"):
            continue
        dropped.add(index)
        if index and _DATED.search(lines[index - 1]) and not lines[index - 1].startswith(">"):
            dropped.add(index - 1)
    return [line for index, line in enumerate(lines) if index not in dropped]


def _below_the_quote(lines: list[str]) -> str:
    """What is written below the last quoted line, up to a signature."""
    quoted = [index for index, line in enumerate(lines) if line.lstrip().startswith(">")]
    if not quoted:
        return ""
    below: list[str] = []
    for line in lines[quoted[-1] + 1 :]:
        if line.rstrip() in ("--", "-- ") or _APP_SIGNATURE.fullmatch(line.strip()):
            break
        below.append(line)
    return "\n".join(below).strip()


def _signature_start(signature: re.Pattern[str], text: str) -> int:
    """Where the writer's signature starts in `text` (its end if there is none): the first
    line the reply parser's `signature` pattern starts at that is not a line we read."""
    at = 0
    while (found := signature.search(text, at)) is not None:
        start = found.start() + len(found[0]) - len(found[0].lstrip())
        end = text.find("\n", start)
        if not _reads_as_ours(text[start : end if end >= 0 else len(text)]):
            return start
        if end < 0:
            break
        at = end
    return len(text)


def _above_signature(text: str) -> str:
    """The text down to the usual signature delimiter ("-- " alone on a line)."""
    lines = text.split("\n")
    end = next((i for i, line in enumerate(lines) if line.rstrip() in ("--", "-- ")), len(lines))
    return "\n".join(lines[:end]).strip()


def _reads_as_ours(line: str) -> bool:
    """Whether a line starts with a notation verb or a command word, after any quote marks
    and a list's hyphen (`- take 3`, as a list of moves is typed, reads as `take 3`)."""
    words = verb_words() | set(COMMAND_WORDS) | set(COMMAND_SPELLINGS)
    first = line.strip().lstrip(">").strip().lstrip("-").strip().split(" ", 1)[0].lower()
    return first in words


def unflow(text: str, *, delsp: bool) -> str:
    """RFC 3676: join soft line breaks (a line ending in a space) of the same quote depth."""
    out: list[str] = []
    carry: tuple[int, str] | None = None
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]  # space-stuffing
        if carry is not None and carry[0] == depth:
            body = carry[1] + body
        elif carry is not None:
            out.append(">" * carry[0] + (" " if carry[0] else "") + carry[1])
        carry = None
        if body.endswith(" ") and body != "-- ":
            carry = (depth, body[:-1] if delsp else body)
            continue
        out.append(">" * depth + (" " if depth else "") + body)
    if carry is not None:
        out.append(">" * carry[0] + (" " if carry[0] else "") + carry[1])
    return "\n".join(out)


class _HtmlText(HTMLParser):
    """HTML to text: block elements break lines, a blockquote's lines are quoted, and
    what mail clients put around a quote (Gmail's gmail_quote, Outlook's divRplyFwdMsg,
    Apple Mail's and Thunderbird's cite blockquotes) is kept out."""

    BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "pre", "table", "hr"}
    SKIP = {"style", "script", "head", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.quote = 0
        self.skip = 0
        self.quoted_from: int | None = None  # depth of an element that starts the quote
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.depth += 1 if tag not in ("br", "hr", "img", "meta", "link", "input") else 0
        attributes = dict(attrs)
        marks = f"{attributes.get('class', '')} {attributes.get('id', '')}".lower()
        if self.quoted_from is None and (
            "gmail_quote" in marks
            or "divrplyfwdmsg" in marks
            or "moz-cite-prefix" in marks
            or "appendonsend" in marks
        ):
            self.quoted_from = self.depth
        if tag in self.SKIP:
            self.skip += 1
        if tag == "blockquote":
            self.quote += 1
        if tag in self.BLOCKS or tag == "blockquote":
            self.lines.append("")
        if tag == "hr" and self.quoted_from is None:
            # Outlook separates the quote with a rule.
            self.quoted_from = 0

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.skip:
            self.skip -= 1
        if tag == "blockquote" and self.quote:
            self.quote -= 1
        if tag in self.BLOCKS or tag == "blockquote":
            self.lines.append("")
        if tag not in ("br", "hr", "img", "meta", "link", "input"):
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        quoted = self.quote or self.quoted_from is not None
        for index, piece in enumerate(data.split("\n")):
            if index:
                self.lines.append("")
            if piece.strip():
                prefix = "> " if quoted and not self.lines[-1].startswith(">") else ""
                tail = " " if piece[-1:].isspace() else ""
                self.lines[-1] += prefix + " ".join(piece.split()) + tail

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines)


def html_to_text(html: str) -> str:
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return parser.text()
