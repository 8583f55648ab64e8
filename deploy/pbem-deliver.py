#!/usr/bin/env python3
"""pbem-deliver: hand one mail from Postfix's pipe to the running mail-in listener.

    python -I -S pbem-deliver.py [--to ADDRESS] [--timeout SECONDS] SENDER RECIPIENT < MAIL

For Postfix's pipe transport (deploy/postfix/master.cf), as a light stand-in for `pbem mail
receive`: the message on stdin goes by LMTP (the standard library's smtplib) to `pbem mail
smtpd --lmtp`, the listener of pbem-mailin.service, which plays it; this process only
carries it. It imports no pbem and no Flask: with -I -S it costs about 40 ms of CPU a mail,
most of it smtplib's imports, beside the listener's 10 to 20 (bench/mail_door.py); `pbem
mail receive` costs a second. The listener may speak SMTP instead: then EHLO follows the
refused LHLO.

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

import smtplib
import socket
import sys

EX_OK = 0
EX_DATAERR = 65
EX_NOUSER = 67
EX_UNAVAILABLE = 69
EX_TEMPFAIL = 75

DEFAULT_ADDRESS = "127.0.0.1:8025"
#: Seconds to wait for each answer: the one after DATA comes once the move is played.
DEFAULT_TIMEOUT = 120.0

#: The step each of smtplib's refusals comes from (a refused RCPT raises
#: SMTPRecipientsRefused, which carries its answers apart).
STEPS = {
    smtplib.SMTPConnectError: "greeting",
    smtplib.SMTPHeloError: "hello",
    smtplib.SMTPSenderRefused: "MAIL",
    smtplib.SMTPDataError: "DATA",
}


def exit_status(step: str, code: int) -> int:
    """What pipe(8) should make of answer `code` at `step` (greeting, hello, MAIL, RCPT,
    DATA, or an answer that could not be read)."""
    if 200 <= code < 300:
        return EX_OK
    if code < 500 or step in ("greeting", "hello", "answer"):
        # 4xx, or a listener that is not one (it refused our greeting, its answer could not
        # be read): keep the mail.
        return EX_TEMPFAIL
    if code == 552:
        return EX_UNAVAILABLE
    if step == "RCPT":
        return EX_NOUSER
    if step == "DATA" and code == 554:
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


def refusal(
    error: smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused,
) -> tuple[str, int, str]:
    """(step, code, text) of the listener's answer that smtplib raised `error` for."""
    answer: bytes | str
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        ((code, answer),) = error.recipients.values()  # one recipient
        step = "RCPT"
    else:  # the step STEPS gives, or "answer" for smtplib's own (an answer line too long)
        step, code, answer = STEPS.get(type(error), "answer"), error.smtp_code, error.smtp_error
    text = answer.decode("utf-8", "replace") if isinstance(answer, bytes) else answer
    return step, code, " ".join(text.split("\n"))  # smtplib joins a long answer's lines so


def deliver(address: str, sender: str, recipient: str, message: bytes, timeout: float) -> None:
    """Hand `message` over; raises smtplib's refusals, or OSError (refused, reset, closed, a
    timeout)."""
    host, port = (address, 0) if address.startswith("/") else split(address)
    # A name given: smtplib would look up the FQDN (a DNS query) to greet with.
    client = smtplib.LMTP(host, port, local_hostname=socket.gethostname(), timeout=timeout)
    try:
        code, text = client.ehlo()
        if code == 500:  # a listener speaking SMTP refuses LHLO: greet it with EHLO
            client.ehlo_msg = "ehlo"
            code, text = client.ehlo()
        if code != 250:
            raise smtplib.SMTPHeloError(code, text)
        # smtplib adds SIZE= where offered (a mail too large is refused before it is sent).
        options = []
        if client.has_extn("8bitmime") and not message.isascii():
            options.append("BODY=8BITMIME")
        if not (sender + recipient).isascii():
            options.append("SMTPUTF8")  # SMTPNotSupportedError if not offered
        # smtplib doubles leading dots and ends the data, but sends bytes' line ends as
        # they are: pipe gives LF, the wire wants CRLF.
        wire = message.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        # One recipient: a refused one raises rather than being returned.
        client.sendmail(sender, [recipient], wire, mail_options=options)
        try:  # the mail is taken: how the listener says goodbye does not matter
            client.quit()
        except OSError:
            return
    finally:
        client.close()


def split(address: str) -> tuple[str, int]:
    """HOST:PORT as (host, port), [::1]:8025 as ("::1", 8025); ValueError if not so."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--to {address}: HOST:PORT or the path of a UNIX socket")
    return host.strip("[]"), int(port)


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
    if not address.startswith("/"):
        split(address)
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
    except (smtplib.SMTPResponseException, smtplib.SMTPRecipientsRefused) as error:
        step, code, text = refusal(error)
        print(status_line(step, code, text))
        return exit_status(step, code)
    except smtplib.SMTPNotSupportedError:
        print("5.6.7 the mail-in listener takes no address that is not ASCII")
        return EX_UNAVAILABLE
    # After smtplib's refusals, which are OSErrors too: connection refused, reset, closed,
    # timed out. Try again later.
    except OSError as error:
        print(f"4.4.1 mail-in listener at {address} not reached: {error}")
        return EX_TEMPFAIL
    return EX_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
