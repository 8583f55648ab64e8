"""Headers as the RFCs write them: `List-Unsubscribe`, `List-Id` and the ids raw ASCII (never
RFC 2047 encoded words, which list and threading readers do not decode), and every subject
of every kind of mail in every language decoded back, as a strict RFC 2047 reader (mutt)
decodes it, to the very text it was made from."""

from __future__ import annotations

import base64
import quopri
import re
from email import message_from_bytes, policy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.languages import LANGUAGES
from tests.server.every_mail import mails
from tests.server.test_mail_out import addresses_of, deliver, play_some

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

_ENCODED = re.compile(r"=\?([^?]+)\?([bBqQ])\?([^?]*)\?=")


def raw_header(raw: bytes, name: str) -> str:
    """A header's value as it came, unfolded only (RFC 5322: remove each line break)."""
    match = re.search(rb"^" + name.encode() + rb": ?(.*?)\r?\n(?![ \t])", raw, re.S | re.M | re.I)
    assert match, name
    return re.sub(r"\r?\n(?=[ \t])", "", match[1].decode("ascii"))


def decoded(value: str) -> str:
    """RFC 2047 strictly: whitespace between two encoded words is not read, any other is;
    each encoded word holds whole characters and is at most 75 long."""
    out: list[str] = []
    end, after_word = 0, False
    for word in _ENCODED.finditer(value):
        between = value[end : word.start()]
        if not (after_word and between.strip(" \t") == ""):
            out.append(between)
        charset, kind, text = word.groups()
        assert len(word[0]) <= 75, word[0]
        if kind.lower() == "b":
            data = base64.b64decode(text, validate=True)
        else:
            data = quopri.decodestring(text.replace("_", " ").encode())
        out.append(data.decode(charset))  # strict: a character split between words fails
        end, after_word = word.end(), True
    out.append(value[end:])
    return "".join(out)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_subject_reads_back_as_written(mail_app, language):
    with mail_app.app_context():
        composed = list(mails(language))
    assert len(composed) >= 35
    for kind, mail in composed:
        written = str(mail["Subject"])
        raw = mail.as_bytes()
        assert raw.isascii()
        # RFC 5322: lines at most 998 long, and 78 where a field can be folded (a <URI> cannot).
        assert all(len(line) <= 998 for line in raw.split(b"\n"))
        folded = re.search(rb"^Subject:.*?\n(?![ \t])", raw, re.S | re.M)[0]
        assert all(len(line) <= 78 for line in folded.split(b"\n")), folded
        subject = decoded(raw_header(raw, "Subject"))
        assert subject == written, (kind, language)
        assert not subject.startswith(" ") and "  " not in subject, (kind, subject)
        assert subject.startswith("[El Grande"), (kind, subject)
        # Python's own reader agrees.
        assert str(message_from_bytes(raw, policy=policy.default)["Subject"]) == written


def test_list_and_thread_headers_are_raw_ascii(mail_app, mail_api, smtp):
    game_id, keys = mail_api.new_game(["red", "blue"])
    play_some(mail_api, game_id, keys, 4)
    deliver(mail_app)
    assert smtp.inbox.raw
    for raw in smtp.inbox.raw:
        for name in ("List-Unsubscribe", "List-Id", "Message-ID", "In-Reply-To", "References"):
            if re.search(rb"^" + name.encode() + rb":", raw, re.M):
                assert "=?" not in raw_header(raw, name), name
        unsubscribe = raw_header(raw, "List-Unsubscribe")
        assert re.fullmatch(
            r"<https://pbem\.example/mail/unsubscribe/\S+>, <mailto:\S+>", unsubscribe
        )
        assert re.search(rb"\r?\nList-Unsubscribe: <https://pbem\.example/mail/unsubscribe/", raw)
        assert (
            raw_header(raw, "List-Id") == f"El Grande game {game_id} <game-{game_id}.pbem.example>"
        )
    with mail_app.app_context():
        assert len(addresses_of(mail_app, game_id)) == 2


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_mails_parts_are_what_the_email_package_writes(mail_app, language):
    """A mail's parts are built from kept fields (`compose.with_parts`), not by
    `set_content`: each part, encoding included, must be what `set_content` and
    `add_alternative` write for the same text, and the two parts' boundary must start no
    line of either."""
    from email.message import EmailMessage

    from pbem.notify.compose import transfer_encoding

    with mail_app.app_context():
        composed = list(mails(language))
    encodings = set()
    for kind, mail in composed:
        back = message_from_bytes(mail.as_bytes(), policy=policy.default)
        assert back.get_content_type() == "multipart/alternative", kind
        text, html = (part.get_content() for part in back.iter_parts())
        made = EmailMessage()
        made.set_content(text, cte=transfer_encoding(text))
        made.add_alternative(html, subtype="html", cte=transfer_encoding(html))
        for ours, theirs in zip(back.iter_parts(), made.iter_parts(), strict=True):
            assert ours.get_content_type() == theirs.get_content_type(), kind
            assert ours.get_content_charset() == theirs.get_content_charset() == "utf-8"
            assert ours["Content-Transfer-Encoding"] == theirs["Content-Transfer-Encoding"]
            assert ours.get_payload() == theirs.get_payload(), kind
            encodings.add(str(ours["Content-Transfer-Encoding"]))
        boundary = back.get_boundary()
        assert boundary and not any(
            line.startswith(f"--{boundary}")
            for part in back.iter_parts()
            for line in part.get_payload().splitlines()
        )
    # Russian text travels in base64, English in quoted-printable: both ways were checked.
    assert ("base64" if language == "ru" else "quoted-printable") in encodings


# Characters a body may hold once its UTF-8 is read as Latin-1, the ones quoted-printable
# treats apart (its "=", blanks that may end a line, line ends, controls, bytes past ASCII)
# drawn often, so that they meet the line breaks.
_BODY_CHARACTERS = st.one_of(
    st.sampled_from(list("= \t\n\r=a.\x85\x0c\xc3\xa9\x00\x7f")),
    st.characters(min_codepoint=0, max_codepoint=255),
)


@settings(max_examples=400, deadline=None)
@given(
    body=st.text(_BODY_CHARACTERS, max_size=300)
    | st.text(max_size=120).map(lambda text: text.encode().decode("latin-1")),
    maxlinelen=st.integers(min_value=4, max_value=90),
)
def test_quoted_printable_is_the_standard_librarys_to_the_character(body, maxlinelen):
    from email import quoprimime

    from pbem.notify.compose import quoted_printable

    assert quoted_printable(body, maxlinelen) == quoprimime.body_encode(body, maxlinelen)


def test_quoted_printable_breaks_every_line_length_as_the_standard_library_does():
    """Each length of line around the breaks, ending in a blank or not, with an "=" (quoted
    as three characters) at each place a soft break could cut it."""
    from email import quoprimime

    from pbem.notify.compose import quoted_printable

    for maxlinelen in (4, 5, 6, 7, 10, 78):
        for length in range(1, 3 * maxlinelen + 4):
            for end in ("", " ", "\t", "="):
                plain = "x" * length + end
                lines = [plain] + [plain[:at] + "=" + plain[at:] for at in range(len(plain))]
                for line in lines:
                    body = f"{line}\n{line}"
                    assert quoted_printable(body, maxlinelen) == quoprimime.body_encode(
                        body, maxlinelen
                    ), (maxlinelen, line)
