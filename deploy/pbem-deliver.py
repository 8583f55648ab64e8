#!/usr/bin/env python3
"""pbem-deliver: hand one mail from Postfix's pipe to the running mail-in listener.

    python -I -S pbem-deliver.py [--to ADDRESS] [--timeout SECONDS] SENDER RECIPIENT < MAIL

For Postfix's pipe transport (deploy/postfix/master.cf), as a light stand-in for `pbem mail
receive`: the message on stdin goes by LMTP to `pbem mail smtpd --lmtp` (the listener of
pbem-mailin.service), which plays it; this process only carries it. It imports no pbem, no
Flask, no smtplib, not even `socket` (whose enums and selectors cost more than the rest of
the client): only `_socket` and `sys`. With -I -S it starts in about 7 ms of CPU and hands
a mail over in about 10, beside the listener's work (bench/mail_door.py). The listener may
speak SMTP instead: then EHLO follows the refused LHLO.

ADDRESS is HOST:PORT (default 127.0.0.1:8025, [::1]:8025 for IPv6) or the path of a UNIX
socket (it starts with /). SENDER is the envelope sender (empty for a bounce: pipe's
`null_sender=`), RECIPIENT the one envelope recipient (pipe's ${original_recipient}).

The exit status is for pipe(8) (sysexits.h), and one line on stdout gives the listener's
answer led by an RFC 3463 status code (pipe(8) puts it in the bounce or the log, and it
takes precedence over the exit status):
  0   the listener took the mail (2xx);
  67  EX_NOUSER: refused at RCPT (550: the address names no seat): bounced as user unknown;
  65  EX_DATAERR: refused after DATA as unreadable (554; the listener kept it aside);
  69  EX_UNAVAILABLE: refused otherwise for good (552: too large; another 5xx);
  75  EX_TEMPFAIL: a 4xx answer, the listener down or silent past the timeout, or a mistake
      in the command line: Postfix keeps the mail and tries again later.
"""

from __future__ import annotations

# The C module under `socket`: `socket` itself imports enum, selectors and more, which
# doubled this client's start (bench/mail_door.py).
import _socket
import sys

EX_OK = 0
EX_DATAERR = 65
EX_NOUSER = 67
EX_UNAVAILABLE = 69
EX_TEMPFAIL = 75

DEFAULT_ADDRESS = "127.0.0.1:8025"
#: Seconds to wait for each answer: the one after DATA comes once the move is played.
DEFAULT_TIMEOUT = 120.0
#: The longest answer line read (RFC 5321 allows 512 bytes).
LINE_LIMIT = 2048


class Refused(Exception):
    """The listener's answer at one step was not the one hoped for."""

    def __init__(self, step: str, code: int, text: str) -> None:
        super().__init__(f"{code} {text}")
        self.step, self.code, self.text = step, code, text


def exit_status(step: str, code: int) -> int:
    """What pipe(8) should make of answer `code` at `step` (greeting, hello, MAIL, RCPT,
    DATA, end of data)."""
    if 200 <= code < 300:
        return EX_OK
    if code < 500 or step in ("greeting", "hello"):
        # 4xx, or a listener that is not one (it refused our greeting): keep the mail.
        return EX_TEMPFAIL
    if code == 552:
        return EX_UNAVAILABLE
    if step == "RCPT":
        return EX_NOUSER
    if step == "end of data" and code == 554:
        return EX_DATAERR
    return EX_UNAVAILABLE


def status_line(step: str, code: int, text: str) -> str:
    """The answer for pipe(8): an RFC 3463 code first, the listener's own when it gave one
    (aiosmtpd's answers often have none), of the class the exit status says: pipe(8) would
    bounce a mail kept for a retry if the code said 5."""
    kind = "4" if exit_status(step, code) == EX_TEMPFAIL else "5"
    first, _, rest = text.partition(" ")
    parts = first.split(".")
    if len(parts) == 3 and all(p.isdigit() for p in parts) and first[0] in "45":
        enhanced, text = kind + first[1:], rest
    elif kind == "4":
        enhanced = "4.3.0" if 400 <= code < 500 else "4.3.5"
    else:
        enhanced = {552: "5.3.4", 550: "5.1.1"}.get(code, "5.6.0" if code == 554 else "5.0.0")
    return f"{enhanced} {text} (mail-in listener, {code} at {step})"


def wire_form(message: bytes) -> bytes:
    """The message as DATA carries it: CRLF line ends (pipe gives LF), a dot doubled at the
    start of a line, and the closing dot line."""
    data = message.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if data and not data.endswith(b"\r\n"):
        data += b"\r\n"
    if data.startswith(b"."):
        data = b"." + data
    return data.replace(b"\r\n.", b"\r\n..") + b".\r\n"


class Session:
    """One LMTP conversation over a connected socket."""

    def __init__(self, connection: _socket.socket) -> None:
        self.connection = connection
        self.unread = b""

    def line(self, step: str) -> bytes:
        """The next line the listener sent, its CRLF kept."""
        while b"\n" not in self.unread:
            if len(self.unread) > LINE_LIMIT:
                raise ConnectionError(f"an answer line too long at {step}")
            received = self.connection.recv(4096)
            if not received:
                raise ConnectionError(f"the listener closed the connection at {step}")
            self.unread += received
        line, _, self.unread = self.unread.partition(b"\n")
        return line + b"\n"

    def answer(self, step: str) -> tuple[int, list[str]]:
        """The next answer: its code and its lines (a multi-line answer has them all)."""
        lines = []
        while True:
            line = self.line(step)
            code, more, text = line[:3], line[3:4], line[4:].decode("utf-8", "replace")
            if not code.isdigit():
                raise ConnectionError(f"not an answer at {step}: {line[:80]!r}")
            lines.append(text.strip())
            if more != b"-":
                return int(code), lines

    def say(self, step: str, command: bytes, *, hoped: int = 250) -> list[str]:
        self.connection.sendall(command)
        code, lines = self.answer(step)
        if code != hoped:
            raise Refused(step, code, " ".join(lines))
        return lines

    def hello(self) -> set[str]:
        """LHLO (EHLO if the listener speaks SMTP); the extensions it offers."""
        name = _socket.gethostname().encode("ascii", "replace")
        try:
            lines = self.say("hello", b"LHLO " + name + b"\r\n")
        except Refused as refused:
            if refused.code != 500:
                raise
            lines = self.say("hello", b"EHLO " + name + b"\r\n")
        return {line.split(" ")[0].upper() for line in lines[1:]}


def connect(address: str, timeout: float) -> _socket.socket:
    """A connection to the listener at HOST:PORT (each of the host's addresses tried in
    turn) or at the path of a UNIX socket."""
    if address.startswith("/"):
        return opened(_socket.AF_UNIX, address, timeout)
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    for family in (_socket.AF_INET, _socket.AF_INET6):
        try:
            _socket.inet_pton(family, host)
        except OSError:
            continue
        # An address as written: getaddrinfo, even on one, costs as much CPU as the rest
        # of this client.
        return opened(family, (host, int(port)), timeout)
    found = _socket.getaddrinfo(host, int(port), 0, _socket.SOCK_STREAM)
    for number, (family, _, _, _, place) in enumerate(found, 1):
        try:
            return opened(family, place, timeout)
        except OSError:
            if number == len(found):
                raise
    raise ConnectionError(f"no address for {address}")


def opened(
    family: int,
    place: str | tuple[str, int] | tuple[str, int, int, int] | tuple[int, bytes],
    timeout: float,
) -> _socket.socket:
    """A socket of `family` connected to `place`: a UNIX socket's path, or what getaddrinfo
    gives."""
    connection = _socket.socket(family, _socket.SOCK_STREAM)
    connection.settimeout(timeout)
    try:
        connection.connect(place)
    except OSError:
        connection.close()
        raise
    return connection


def deliver(address: str, sender: str, recipient: str, message: bytes, timeout: float) -> None:
    """Hand `message` over; raises Refused, or OSError (ConnectionError, a timeout)."""
    connection = connect(address, timeout)
    try:
        session = Session(connection)
        code, lines = session.answer("greeting")
        if code != 220:
            raise Refused("greeting", code, " ".join(lines))
        offered = session.hello()
        mail = b"MAIL FROM:<" + sender.encode("utf-8") + b">"
        if "SIZE" in offered:  # a mail too large is refused before it is sent
            mail += b" SIZE=%d" % len(message)
        if "8BITMIME" in offered and not message.isascii():
            mail += b" BODY=8BITMIME"
        session.say("MAIL", mail + b"\r\n")
        session.say("RCPT", b"RCPT TO:<" + recipient.encode("utf-8") + b">\r\n")
        session.say("DATA", b"DATA\r\n", hoped=354)
        # One recipient: LMTP's one answer for it, as SMTP's one for the mail.
        session.say("end of data", wire_form(message))
        try:  # the mail is taken: how the listener says goodbye does not matter
            connection.sendall(b"QUIT\r\n")
            session.answer("QUIT")
        except OSError:
            return
    finally:
        connection.close()


def arguments(argv: list[str]) -> tuple[str, float, str, str]:
    """(address, timeout, sender, recipient) from the command line; ValueError if wrong."""
    address, timeout, rest = DEFAULT_ADDRESS, DEFAULT_TIMEOUT, list(argv)
    while rest and rest[0].startswith("--"):
        option = rest.pop(0)
        if option == "--" or not rest:
            break
        if option == "--to":
            address = rest.pop(0)
        elif option == "--timeout":
            timeout = float(rest.pop(0))
        else:
            raise ValueError(f"unknown option {option}")
    if len(rest) != 2:
        raise ValueError("give SENDER and RECIPIENT (SENDER may be empty)")
    if not address.startswith("/") and not address.rpartition(":")[2].isdigit():
        raise ValueError(f"--to {address}: HOST:PORT or the path of a UNIX socket")
    return address, timeout, rest[0], rest[1]


def main(argv: list[str]) -> int:
    try:
        address, timeout, sender, recipient = arguments(argv)
    except ValueError as error:
        # A mistake in master.cf: keep the mail queued while it is fixed, never bounce it.
        print(f"4.3.5 pbem-deliver: {error}")
        return EX_TEMPFAIL
    message = sys.stdin.buffer.read()
    try:
        deliver(address, sender, recipient, message, timeout)
    except Refused as refused:
        print(status_line(refused.step, refused.code, refused.text))
        return exit_status(refused.step, refused.code)
    except OSError as error:  # refused, reset, timed out, closed: try again later
        print(f"4.4.1 mail-in listener at {address} not reached: {error}")
        return EX_TEMPFAIL
    return EX_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
