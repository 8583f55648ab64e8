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


def test_the_message_goes_on_the_wire_with_crlf_and_dots_doubled(client):
    assert client.wire_form(b".first\nsecond\r\n.\n..x\nlast") == (
        b"..first\r\nsecond\r\n..\r\n...x\r\nlast\r\n.\r\n"
    )


@pytest.mark.parametrize(
    ("step", "code", "text", "status", "line"),
    [
        ("end of data", 250, "Message accepted", 0, None),
        ("RCPT", 550, "5.1.1 No such seat here", EX_NOUSER, "5.1.1 No such seat here"),
        ("MAIL", 552, "Error: message size exceeds fixed maximum", EX_UNAVAILABLE, "5.3.4"),
        ("end of data", 552, "Error: Too much mail data", EX_UNAVAILABLE, "5.3.4"),
        ("end of data", 554, "5.6.0 This message could not be read", EX_DATAERR, "5.6.0"),
        ("end of data", 451, "4.3.0 Not handled now, try again later", EX_TEMPFAIL, "4.3.0"),
        ("RCPT", 421, "Service not available", EX_TEMPFAIL, "4.3.0"),
        # A listener that does not speak LMTP nor SMTP: a mistake to fix, not a bounce.
        ("hello", 500, "Error: command not recognized", EX_TEMPFAIL, "4.3.5"),
        # A 5 would make pipe(8) bounce what the exit status keeps for a retry.
        ("greeting", 554, "5.3.2 Not accepting mail now", EX_TEMPFAIL, "4.3.2"),
    ],
)
def test_each_answer_becomes_what_pipe_expects(client, step, code, text, status, line):
    assert client.exit_status(step, code) == status
    if line:
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
