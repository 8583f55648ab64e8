"""deploy/pbem-deliver.py, the light pipe client: Postfix's pipe runs it for each mail, and it
hands the mail by LMTP to the running listener (`pbem mail smtpd --lmtp`). Run here as pipe
runs it (`python -I -S`, the message on stdin), against the listener in this process; and
the listener's own LMTP answers."""

from __future__ import annotations

import importlib.util
import smtplib
import subprocess
import sys

import pytest
from aiosmtpd.controller import UnixSocketController
from aiosmtpd.lmtp import LMTP

from engine.notation import format_move
from pbem.mailin.smtpd import InboundHandler, Listener
from tests.deploy.helpers import DEPLOY
from tests.server.conftest import table_snapshot
from tests.server.mail_helpers import free_port
from tests.server.mailin_helpers import moves_listed, reply
from tests.server.test_mail_in import latest_with_moves, start, to_move

CLIENT = DEPLOY / "pbem-deliver.py"
EX_DATAERR, EX_NOUSER, EX_UNAVAILABLE, EX_TEMPFAIL = 65, 67, 69, 75


def deliver(
    port: int | str, raw: bytes, sender: str, recipient: str, host: str = "127.0.0.1"
) -> subprocess.CompletedProcess:
    """The client as master.cf runs it; `port` a number, or the path of a UNIX socket."""
    to = port if isinstance(port, str) else f"{host}:{port}"
    command = [sys.executable, "-I", "-S", str(CLIENT), "--to", to]
    return subprocess.run(
        [*command, "--", sender, recipient], input=raw, capture_output=True, timeout=60
    )


@pytest.fixture(params=[True, False], ids=["lmtp", "smtp"])
def listener(request, mail_app):
    """The listener speaking LMTP (as pbem-mailin.service runs it for Postfix) or SMTP (the
    client then falls back to EHLO)."""
    port = free_port()
    server = Listener(mail_app, host="127.0.0.1", port=port, lmtp=request.param)
    server.start()
    yield port
    server.stop()


def a_reply(mail_app, mail_api, smtp):
    """A reply to a seat's decision mail: (game, colour, the move, the seat's address, the
    holder's address, the raw message)."""
    game_id, keys, seats = start(mail_app, mail_api)
    (colour,) = to_move(mail_api, game_id)
    mail = latest_with_moves(smtp, seats[colour])
    move = moves_listed(mail)[0]
    raw = reply(mail, move, sender=seats[colour], style="outlook", kind="html")
    return game_id, colour, move, str(mail["Reply-To"]), seats[colour], raw


def test_a_reply_handed_over_is_played(mail_app, mail_api, smtp, listener):
    game_id, colour, move, address, sender, raw = a_reply(mail_app, mail_api, smtp)
    # Lines end in LF, as pipe gives them.
    done = deliver(listener, raw.replace(b"\r\n", b"\n"), sender, address)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    (entry,) = mail_api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert (entry["player"], entry["source"], format_move(entry["move"])) == (
        colour,
        "email",
        move,
    )
    # The same mail again (Postfix retrying after a lost answer): taken, played once. The
    # listener named this time (each of the name's addresses tried in turn).
    assert deliver(listener, raw, sender, address, host="localhost").returncode == 0
    assert len(mail_api.get(f"/api/games/{game_id}/log").get_json()["moves"]) == 1


def test_an_address_that_names_no_seat_is_bounced_as_user_unknown(
    mail_app, mail_api, smtp, listener
):
    game_id, colour, move, address, sender, raw = a_reply(mail_app, mail_api, smtp)
    forged = address.replace(f"-{colour}-", "-purple-")
    before = table_snapshot(mail_app)
    done = deliver(listener, raw, sender, forged)
    assert done.returncode == EX_NOUSER, done.stdout
    # pipe(8) puts the status code first in the bounce, over the exit status.
    assert done.stdout.startswith(b"5.1.1 No such seat here"), done.stdout
    assert table_snapshot(mail_app) == before


def test_a_unix_socket_listener_is_reached_by_its_path(mail_app, mail_api, smtp, tmp_path):
    game_id, colour, move, address, sender, raw = a_reply(mail_app, mail_api, smtp)
    path = tmp_path / "lmtp.sock"

    class UnixListener(UnixSocketController):
        def factory(self):
            return LMTP(self.handler, **self.SMTP_kwargs)

    server = UnixListener(InboundHandler(mail_app), unix_socket=str(path))
    server.start()
    try:
        done = deliver(str(path), raw, sender, address)
    finally:
        server.stop()
    assert done.returncode == 0, done.stdout
    (entry,) = mail_api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert (entry["player"], format_move(entry["move"])) == (colour, move)


def test_a_listener_that_is_down_has_the_mail_kept_and_retried(mail_app):
    done = deliver(free_port(), b"Subject: hi\n\nboard\n", "a@example.org", "play@pbem.example")
    assert done.returncode == EX_TEMPFAIL
    assert done.stdout.startswith(b"4.4.1 mail-in listener at 127.0.0.1:"), done.stdout


def test_a_mail_over_the_limit_is_bounced_as_too_large(mail_app, mail_api, smtp):
    game_id, colour, move, address, sender, raw = a_reply(mail_app, mail_api, smtp)
    mail_app.config["MAIL_MAX_BYTES"] = 1500
    assert len(raw) > 1500
    port = free_port()
    server = Listener(mail_app, host="127.0.0.1", port=port, lmtp=True)
    server.start()
    try:
        before = table_snapshot(mail_app)
        done = deliver(port, raw, sender, address)
    finally:
        server.stop()
    assert done.returncode == EX_UNAVAILABLE, done.stdout
    assert done.stdout.startswith(b"5.3.4 "), done.stdout
    assert table_snapshot(mail_app) == before


def test_a_mistaken_command_line_keeps_the_mail():
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(CLIENT), "--to", "nowhere", "a@b", "c@d"],
        input=b"x",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == EX_TEMPFAIL and done.stdout.startswith(b"4.3.5 "), done.stdout


@pytest.fixture(scope="module")
def client():
    """The script as a module, for its pieces."""
    spec = importlib.util.spec_from_file_location("pbem_deliver", CLIENT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Kept:
    """A listener's handler that keeps each mail as it arrived, for what went on the wire."""

    def __init__(self):
        self.envelopes = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.envelopes.append(envelope)
        return "250 OK"


@pytest.fixture
def kept(request, tmp_path):
    """An LMTP listener on a UNIX socket that keeps what it is given: (its path, Kept). It
    offers SMTPUTF8 (aiosmtpd's controllers do) unless the parameter says not."""
    path, kept = tmp_path / "lmtp.sock", Kept()
    kept.utf8 = getattr(request, "param", True)

    class UnixListener(UnixSocketController):
        def factory(self):
            return LMTP(self.handler, **self.SMTP_kwargs)

    server = UnixListener(kept, unix_socket=str(path), enable_SMTPUTF8=kept.utf8)
    server.start()
    yield str(path), kept
    server.stop()


def test_the_message_arrives_as_pipe_gave_it_with_its_size_and_body_declared(kept):
    """Lines end in LF from pipe and CRLF on the wire; a line's leading dot is doubled for
    DATA and undone by the listener; SIZE and 8BITMIME, offered, are declared at MAIL."""
    path, kept = kept
    message = "Subject: Señor\n\n.first\nsecond\r\n.\n..x\nlast\n".encode()
    done = deliver(path, message, "", "red@pbem.example")
    assert (done.returncode, done.stdout) == (0, b"")
    (envelope,) = kept.envelopes
    assert (envelope.mail_from, envelope.rcpt_tos) == ("<>", ["red@pbem.example"])
    assert envelope.content == (
        "Subject: Señor\r\n\r\n.first\r\nsecond\r\n.\r\n..x\r\nlast\r\n".encode()
    )
    # The size of what is sent, as its lines end on the wire.
    assert sorted(envelope.mail_options) == ["BODY=8BITMIME", f"SIZE={len(envelope.content)}"]


@pytest.mark.parametrize("kept", [True, False], ids=["offered", "not offered"], indirect=True)
def test_an_address_not_in_ascii_goes_by_smtputf8_or_is_bounced(kept):
    path, kept = kept
    done = deliver(path, b"Subject: hi\n\nboard\n", "", "señor@pbem.example")
    if kept.utf8:
        assert (done.returncode, done.stdout) == (0, b"")
        (envelope,) = kept.envelopes
        assert (envelope.rcpt_tos, envelope.mail_options) == (
            ["señor@pbem.example"],
            ["SIZE=22", "SMTPUTF8"],
        )
    else:
        assert done.returncode == EX_UNAVAILABLE, done.stdout
        assert done.stdout.startswith(b"5.6.7 ") and kept.envelopes == [], done.stdout


@pytest.mark.parametrize(
    ("refusal", "status", "line"),
    [
        (
            smtplib.SMTPRecipientsRefused({"x@pbem.example": (550, b"5.1.1 No such seat here")}),
            EX_NOUSER,
            "5.1.1 No such seat here (mail-in listener, 550 at RCPT)",
        ),
        (
            smtplib.SMTPSenderRefused(552, b"Error: message size exceeds fixed maximum", "a@b"),
            EX_UNAVAILABLE,
            "5.3.4 Error: message size exceeds fixed maximum (mail-in listener, 552 at MAIL)",
        ),
        (smtplib.SMTPDataError(552, b"Error: Too much mail data"), EX_UNAVAILABLE, "5.3.4"),
        # A long answer's lines, which smtplib joins with LF, on pipe's one line.
        (
            smtplib.SMTPDataError(554, b"5.6.0 This message could not be read\nSend it again"),
            EX_DATAERR,
            "5.6.0 This message could not be read Send it again (mail-in listener, 554 at DATA)",
        ),
        (smtplib.SMTPDataError(451, b"4.3.0 Not handled now"), EX_TEMPFAIL, "4.3.0"),
        (smtplib.SMTPRecipientsRefused({"x": (421, b"Closing")}), EX_TEMPFAIL, "4.3.0"),
        (smtplib.SMTPSenderRefused(501, b"Error: bad syntax", "a b"), EX_UNAVAILABLE, "5.0.0"),
        # A listener that does not speak LMTP nor SMTP: a mistake to fix, not a bounce.
        (smtplib.SMTPHeloError(500, b"Error: command not recognized"), EX_TEMPFAIL, "4.3.5"),
        # A 5 would make pipe(8) bounce what the exit status keeps for a retry.
        (smtplib.SMTPConnectError(554, b"5.3.2 Not accepting mail now"), EX_TEMPFAIL, "4.3.2"),
        # An answer smtplib could not read.
        (smtplib.SMTPResponseException(500, "Line too long."), EX_TEMPFAIL, "4.3.5"),
    ],
)
def test_each_refusal_becomes_what_pipe_expects(client, refusal, status, line):
    step, code, text = client.refusal(refusal)
    assert client.exit_status(step, code) == status
    assert client.status_line(step, code, text).startswith(line)


def test_the_lmtp_listener_answers_each_recipient_after_data(mail_app, mail_api, smtp):
    """RFC 2033: one answer for each recipient taken at RCPT, which Postfix's lmtp client
    waits for (it sends a mail to several of ours in one delivery)."""
    game_id, colour, move, address, sender, raw = a_reply(mail_app, mail_api, smtp)
    port = free_port()
    server = Listener(mail_app, host="127.0.0.1", port=port, lmtp=True)
    server.start()
    try:
        with smtplib.LMTP("127.0.0.1", port, timeout=20) as lmtp:
            lmtp.ehlo()  # LHLO: smtplib.LMTP greets so
            assert lmtp.mail(sender)[0] == 250
            for recipient in (address, "play@pbem.example"):
                assert lmtp.rcpt(recipient)[0] == 250
            wire = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            assert lmtp.data(wire)[0] == 250
            assert lmtp.getreply()[0] == 250  # the second recipient's
    finally:
        server.stop()
    (entry,) = mail_api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert (entry["player"], entry["source"]) == (colour, "email")
