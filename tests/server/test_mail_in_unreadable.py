"""Mail no reader can read never stops a door: a MIME tree nested a thousand deep is kept
aside (SMTP's 5xx, the pipe's 0, the IMAP poller's flag) and the next good mail is played;
text that cannot be decoded is refused with an answer, never passed on as table talk."""

from __future__ import annotations

import smtplib
import uuid

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.mailin.smtpd import Listener
from pbem.store.models import InboundMail, TableTalk
from tests.server.mail_helpers import body_text, free_port
from tests.server.mailin_helpers import moves_listed, reply, send_smtp
from tests.server.test_mail_in import (
    game_tables,
    inbound,
    latest_with_moves,
    outbox_rows,
    run_receive,
    seq_of,
    start,
    to_move,
)
from tests.server.test_mail_out import deliver

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free


def headers_of(mail, sender: str, content_type: str, cte: str = "8bit") -> bytes:
    """The headers of a reply to `mail` from `sender`, ending in the blank line."""
    return (
        f"From: {sender}\r\nTo: {mail['Reply-To']}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <{uuid.uuid4().hex}@client.example.org>\r\n"
        f"In-Reply-To: {mail['Message-ID']}\r\nReferences: {mail['Message-ID']}\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n"
        f"Content-Transfer-Encoding: {cte}\r\n\r\n"
    ).encode()


def deep_mime(mail, sender: str, move: str, depth: int = 1000) -> bytes:
    """A reply whose text sits in multiparts nested `depth` deep (about 70 KB)."""
    raw = headers_of(mail, sender, 'multipart/mixed; boundary="b0"', "7bit")
    for level in range(depth - 1):
        raw += b'--b%d\r\nContent-Type: multipart/mixed; boundary="b%d"\r\n\r\n' % (
            level,
            level + 1,
        )
    raw += b"--b%d\r\nContent-Type: text/plain\r\n\r\n%s\r\n" % (depth - 1, move.encode())
    for level in reversed(range(depth)):
        raw += b"--b%d--\r\n" % level
    return raw


@pytest.fixture
def kept(mail_app, tmp_path):
    """The instance folder, where mails kept aside go (`mail-kept/`)."""
    mail_app.instance_path = str(tmp_path)
    return tmp_path / "mail-kept"


def outcomes(mail_app) -> list[str]:
    with mail_app.app_context():
        found = db.session.execute(sa.select(InboundMail.outcome).order_by(InboundMail.id))
        rows = list(found.scalars())
        db.session.remove()
    return rows


def a_turn(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    mail = latest_with_moves(smtp, seats[colour])
    return game_id, seats[colour], mail, moves_listed(mail)[0]


def test_a_thousand_deep_mail_is_refused_by_smtp_and_the_next_is_played(
    mail_app, mail_api, smtp, kept
):
    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)
    bad = deep_mime(mail, email, move)
    assert 60_000 < len(bad) < 100_000
    port = free_port()
    server = Listener(mail_app, host="127.0.0.1", port=port)
    server.start()
    try:
        before = game_tables(mail_app)
        with pytest.raises(smtplib.SMTPDataError) as refused:
            send_smtp(port, bad, email, [str(mail["Reply-To"])])
        # Permanent, with a sentence: the sending server bounces it instead of retrying.
        assert refused.value.smtp_code == 554
        assert b"could not be read" in refused.value.smtp_error
        assert game_tables(mail_app) == before and outcomes(mail_app) == ["quarantined"]
        assert [p.read_bytes() for p in kept.iterdir()] == [bad]
        # Sent again, refused again; the good mail behind it is played.
        with pytest.raises(smtplib.SMTPDataError):
            send_smtp(port, bad, email, [str(mail["Reply-To"])])
        assert (
            send_smtp(port, reply(mail, move, sender=email), email, [str(mail["Reply-To"])]) == {}
        )
    finally:
        server.stop()
    assert seq_of(mail_api, game_id) == 1
    # The holder is told why, in words a person can act on.
    deliver(mail_app)
    refusal = next(m for m in smtp.inbox.to(email) if "could not be read" in body_text(m))
    assert "it has more than 100 parts" in body_text(refusal)


def test_a_thousand_deep_mail_through_the_pipe_is_kept_aside(mail_app, mail_api, smtp, tmp_path):
    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)
    bad = deep_mime(mail, email, move)
    done = run_receive(mail_app, bad, instance=tmp_path)
    # Handled: the MTA neither retries it for days nor holds the mails behind it.
    assert done.returncode == 0, done.stderr.decode()
    assert b"Mail: quarantined" in done.stdout
    assert [p.read_bytes() for p in (tmp_path / "mail-kept").iterdir()] == [bad]
    assert outcomes(mail_app) == ["quarantined"] and seq_of(mail_api, game_id) == 0
    again = run_receive(mail_app, bad, instance=tmp_path)
    assert again.returncode == 0 and b"Mail: quarantined" in again.stdout
    good = run_receive(mail_app, reply(mail, move, sender=email), instance=tmp_path)
    assert good.returncode == 0 and b"Mail: played" in good.stdout
    assert seq_of(mail_api, game_id) == 1


def test_a_thousand_deep_mail_in_the_mailbox_is_flagged_and_the_poller_goes_on(
    mail_app, mail_api, smtp, kept
):
    from pbem.mailin.imap import poll_forever, poll_once
    from tests.server.fake_imap import FakeImap

    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)
    with FakeImap("pbem", "s3cret") as server:
        bad = server.mailbox.add(deep_mime(mail, email, move))
        good = server.mailbox.add(reply(mail, move, sender=email))
        assert [r.outcome for r in poll_once(mail_app, server.url)] == ["quarantined", "played"]
        flags = {uid: f for uid, _, f in server.mailbox.messages}
        assert flags[bad] == {"\\Seen", "\\Flagged"} and flags[good] == {"\\Seen"}
        assert seq_of(mail_api, game_id) == 1
        # A copy of it, as after a restart before the flag was stored: kept aside, once.
        server.mailbox.add(server.mailbox.messages[0][1])
        mail_app.config["IMAP_URL"] = server.url
        poll_forever(mail_app, once=True)
        assert server.mailbox.seen() == [bad, good, 3]
    assert outcomes(mail_app) == ["quarantined", "played"]
    assert len(list(kept.iterdir())) == 1


def test_the_bounds_of_reading(mail_app, mail_api, smtp, kept):
    from pbem.mailin import reading

    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)
    text = reading.new_text(reading.parse_whole(deep_mime(mail, email, move, depth=4)))
    assert text == move
    for depth in (reading.MOST_DEPTH + 2, 1000):
        with pytest.raises(reading.Malformed):
            reading.parse_whole(deep_mime(mail, email, move, depth=depth))


UNDECODABLE = {
    # name: (Content-Type, Content-Transfer-Encoding, body)
    "invalid_utf8": ("text/plain; charset=utf-8", "8bit", b"\xff\xfe( caf\xe9\r\n"),
    "broken_base64": ("text/plain; charset=utf-8", "base64", b"!!!not*base64@@@====\r\n"),
    "utf16_odd_bytes": ("text/plain; charset=utf-16", "8bit", b"\xff\xfeG\x00o\x00o\x00d\r\n"),
    "utf16_without_bom": ("text/plain; charset=utf-16", "8bit", b"Good luck everyone!\r\n"),
    "utf16le_of_ascii": ("text/plain; charset=utf-16le", "8bit", b"Good luck, everyone!\r\n"),
    "utf8_html": ("text/html; charset=utf-8", "8bit", b"<p>\xc3\x28 caf\xe9</p>\r\n"),
}


@pytest.mark.parametrize("name", sorted(UNDECODABLE))
def test_text_that_cannot_be_decoded_is_refused_and_never_passed_on(mail_app, mail_api, smtp, name):
    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)
    deliver(mail_app)
    content_type, cte, body = UNDECODABLE[name]
    raw = headers_of(mail, email, content_type, cte) + body
    before = game_tables(mail_app)
    rows = len(outbox_rows(mail_app))
    result = inbound(mail_app, raw)
    assert (result.outcome, result.answered) == ("refused", True), result
    assert game_tables(mail_app) == before
    with mail_app.app_context():
        assert db.session.execute(sa.select(sa.func.count()).select_from(TableTalk)).scalar() == 0
        db.session.remove()
    # One answer, to the holder only: nothing goes to the other players.
    assert [(r.recipient, r.kind) for r in outbox_rows(mail_app)[rows:]] == [(email, "answer")]
    deliver(mail_app)
    text = body_text(smtp.inbox.to(email)[-1])
    assert "Your mail could not be read: its text" in text and "Nothing was played" in text
    assert "Error" not in text and "�" not in text


def test_a_reply_in_utf16_with_its_bom_is_read(mail_app, mail_api, smtp):
    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)
    raw = headers_of(mail, email, "text/plain; charset=utf-16", "base64")
    raw += __import__("base64").encodebytes(f"{move}\r\n".encode("utf-16"))
    result = inbound(mail_app, raw)
    assert result.outcome == "played" and result.played == [move]


def test_an_error_met_on_one_mail_keeps_it_aside_and_the_next_is_played(
    mail_app, mail_api, smtp, kept, monkeypatch
):
    from pbem.mailin import replies

    game_id, email, mail, move = a_turn(mail_app, mail_api, smtp)
    real = replies.handle

    def breaks(seat_mail, text):
        if "boom" in text:
            raise RuntimeError("a bug met on this one mail")
        return real(seat_mail, text)

    monkeypatch.setattr(replies, "handle", breaks)
    before = game_tables(mail_app)
    bad = reply(mail, "boom", sender=email)
    result = inbound(mail_app, bad)
    assert result.outcome == "quarantined" and not result.answered
    assert game_tables(mail_app) == before and outcomes(mail_app) == ["quarantined"]
    assert [p.read_bytes() for p in kept.iterdir()] == [bad]
    assert inbound(mail_app, bad).outcome == "quarantined"  # again: never handled
    assert inbound(mail_app, reply(mail, move, sender=email)).outcome == "played"
    assert seq_of(mail_api, game_id) == 1


def test_the_refusal_of_undecodable_text_is_in_the_readers_language(mail_app, mail_api, smtp):
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    mail = latest_with_moves(smtp, seats[colour])
    answer = mail_api.client.put(
        "/api/players/me/preferences",
        json={"language": "de"},
        headers=mail_api.auth(keys[colour]),
    )
    assert answer.status_code == 200, answer.get_json()
    raw = headers_of(mail, seats[colour], "text/plain; charset=utf-8") + b"\xff\xfe( caf\xe9\r\n"
    assert inbound(mail_app, raw).outcome == "refused"
    deliver(mail_app)
    text = body_text(smtp.inbox.to(seats[colour])[-1])
    assert "ihr Text ist kein gültiges utf-8" in text and "could not" not in text
