"""The `pbem` console script: run the server, manage the database."""

from __future__ import annotations

import argparse

from pbem import create_app


def upgrade_database(app) -> None:
    """Create the tables, or bring them to the latest migration."""
    from flask_migrate import upgrade

    with app.app_context():
        upgrade()


def run_one_sweep(app, when: str | None) -> None:
    """`pbem sweep`: one pass, one printed line per action."""
    from datetime import UTC, datetime

    from pbem.clock import set_now
    from pbem.schedule.sweep import sweep

    if when:
        moment = datetime.fromisoformat(when)
        set_now(app, moment if moment.tzinfo else moment.replace(tzinfo=UTC))
    with app.app_context():
        lines = sweep()
    for line in lines:
        print(line)
    print(f"Sweep: {len(lines)} action{'s' if len(lines) != 1 else ''}.")


def transfer(app, args: argparse.Namespace) -> int:
    """`pbem export` and `pbem import` (pbem.game.transfer): one game as JSON. A refusal is
    one line on stderr and exit status 2, having changed nothing."""
    import os
    import sys
    from pathlib import Path

    from pbem.errors import ServiceError
    from pbem.play import transfer as game_json

    try:
        if args.command == "import":
            raw = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
            with app.app_context():
                print(game_json.import_game(game_json.parse_document(raw)))
            return 0
        with app.app_context():
            text = game_json.export_json(args.game, with_seed=args.with_seed) + "\n"
        if args.output in (None, "-"):
            sys.stdout.write(text)
            return 0
        # Players' emails, perhaps a running game's secrets: readable by its owner only.
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        with os.fdopen(os.open(args.output, flags, 0o600), "w", encoding="utf-8") as out:
            out.write(text)
        return 0
    except (ServiceError, OSError) as error:
        print(f"pbem {args.command}: {getattr(error, 'detail', error)}", file=sys.stderr)
        return 2


#: sysexits.h: try again later (the MTA keeps the message and retries).
EX_TEMPFAIL = 75


def receive_one(app, recipient: str | None) -> int:
    """`pbem mail receive`: one message on stdin; the exit status tells the MTA."""
    import os
    import sys

    from pbem.mailin import process_inbound

    recipient = recipient or os.environ.get("ORIGINAL_RECIPIENT") or os.environ.get("RECIPIENT")
    raw = sys.stdin.buffer.read()
    try:
        with app.app_context():
            result = process_inbound(raw, recipient=recipient)
    except Exception as error:  # a database down, a bug: the MTA keeps the mail and retries
        print(f"Mail: not handled now ({type(error).__name__}: {error}).", file=sys.stderr)
        return EX_TEMPFAIL
    print(f"Mail: {result.outcome}{': ' + result.reason if result.reason else ''}.")
    return result.exit_code


def listen(app, host: str, port: int, lmtp: bool) -> None:
    """`pbem mail smtpd`: serve until SIGTERM or Ctrl-C."""
    import signal
    import threading

    from pbem.mailin.smtpd import Listener

    listener = Listener(app, host=host, port=port, lmtp=lmtp)
    listener.start()
    print(f"El Grande mail in: {'LMTP' if lmtp else 'SMTP'} on {host}:{port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        listener.stop()


def doctor() -> int:
    """`pbem doctor`: one line per finding; 1 if anything failed."""
    from pbem.doctor import examine

    try:
        app = create_app()
    except Exception as error:  # a setting the app refuses to start with
        print(f"fail  configuration: {error}")
        return 1
    findings = examine(app)
    for finding in findings:
        print(finding)
    failed = sum(f.level == "fail" for f in findings)
    warned = sum(f.level == "warn" for f in findings)
    print(f"Doctor: {failed} to fix, {warned} to look at, {len(findings) - failed - warned} ok.")
    return 1 if failed else 0


def serve_here(app, host: str, port: int, threads: int) -> None:
    """Serve with the scheduler (sweep and mail) in-process: the single-machine default."""
    # waitress: a production WSGI server in pure Python, so the one-command install needs no
    # compiler and runs anywhere (gunicorn remains the choice for scale-out).
    from waitress import serve as waitress_serve

    from pbem.schedule.runner import start_background

    print(
        f"El Grande turn server on http://{host}:{port} "
        f"(database {app.config['SQLALCHEMY_DATABASE_URI']})",
        flush=True,
    )
    start_background(app)
    waitress_serve(app, host=host, port=port, threads=threads)


def run_demo(app, host: str, port: int, threads: int) -> None:
    """`pbem demo`: a game against bots, its links printed, then `pbem serve`."""
    import os

    from pbem.demo import start_demo

    # Listening on every address (0.0.0.0): the links still need one a browser can open.
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    base_url = app.config.get("PBEM_BASE_URL") or f"http://{shown}:{port}"
    app.config["PBEM_BASE_URL"] = base_url  # links in mails and the printed one point here
    if not os.environ.get("PBEM_SWEEP_SECONDS"):
        app.config["PBEM_SWEEP_SECONDS"] = 1.0  # bots answer a second after you
    upgrade_database(app)
    print(start_demo(app, base_url), end="\n\n", flush=True)
    serve_here(app, host, port, threads)


#: How long `pbem mail reply` waits for another process to write the answer to its reply.
REPLY_ANSWER_WAIT_SECONDS = 10


def reply_by_file(app, path: str, text: str) -> int:
    """`pbem mail reply`: write the reply, hand it to the mail door, deliver the answer."""
    import time
    from pathlib import Path

    from pbem.mailin import process_inbound
    from pbem.mailin.reply import answers, recipient_of, reply_to
    from pbem.notify.sender import deliver_due, mail_files, written_since

    try:
        original = Path(path).read_bytes()
    except OSError as error:
        print(f"Mail: cannot read {path}: {error.strerror}.")
        return 2
    reply = reply_to(original, text)
    before = mail_files(app)
    with app.app_context():
        result = process_inbound(reply, recipient=recipient_of(reply))
        deliver_due()
    # A `pbem serve` or `pbem demo` on the same instance folder may have taken the answer
    # to send in its own pass: wait a little for its file rather than say nothing of it.
    deadline = time.monotonic() + REPLY_ANSWER_WAIT_SECONDS
    while (
        result.answered
        and not app.config.get("SMTP_URL")
        and not answers(reply, written_since(app, before))
        and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    print(f"Mail: {result.outcome}{': ' + result.reason if result.reason else ''}.")
    for written in written_since(app, before):
        print(f"  new mail: {written}")
    return 0 if result.exit_code == 0 else 1


def build_parser() -> argparse.ArgumentParser:
    """The command line, without running anything (deploy/'s tests check their commands)."""
    parser = argparse.ArgumentParser(prog="pbem", description="El Grande turn server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve", help="upgrade the database, then run the server (single machine, defaults)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--threads", type=int, default=8, help="requests served at once")
    demo = sub.add_parser(
        "demo",
        help="a game for you against two bots on the embedded defaults: prints the board link, "
        "your API key and your mail files, then serves as `pbem serve` does",
    )
    demo.add_argument("--host", default="127.0.0.1")
    demo.add_argument("--port", type=int, default=5000)
    demo.add_argument("--threads", type=int, default=8, help="requests served at once")
    sub.add_parser(
        "scheduler", help="run the sweep and the mail sender every few seconds, until SIGTERM"
    )
    sweep = sub.add_parser("sweep", help="run one sweep and print what it did")
    sweep.add_argument(
        "--now",
        help="act as if it were this time (ISO 8601, e.g. 2026-12-24T18:00:00+00:00): for "
        "drills and tests only, it plays real moves in real games",
    )
    export = sub.add_parser("export", help="write one game as JSON (see README, Backups)")
    export.add_argument("game", type=int, help="the game's id")
    export.add_argument("-o", "--output", help="the file to write (default: stdout)")
    export.add_argument(
        "--with-seed",
        action="store_true",
        help="include a running game's seed, to move it live: the file then holds its secrets",
    )
    import_ = sub.add_parser("import", help="create a game from a file pbem export wrote")
    import_.add_argument("file", help="the file, or - for stdin")
    mail = sub.add_parser("mail", help="mail: deliver the outbox, take mail in")
    mail_sub = mail.add_subparsers(dest="mail_command", required=True)
    mail_sub.add_parser("send", help="deliver the mails and webhooks that are due, once")
    reply = mail_sub.add_parser(
        "reply",
        help="answer a mail file the server wrote (no SMTP_URL) as a mail client would, and "
        "hand the reply to the mail door: for the demo and drills",
    )
    reply.add_argument("file", help="an .eml file from the instance folder's mail/")
    reply.add_argument("text", help='what to write above the quote, e.g. "power 9"')
    receive = mail_sub.add_parser(
        "receive",
        help="handle one mail read on stdin (an MTA's pipe, .forward, procmail); exits 67 "
        "(EX_NOUSER) for an address that names no seat",
    )
    receive.add_argument(
        "--recipient",
        help="the envelope recipient (default: $ORIGINAL_RECIPIENT or $RECIPIENT, as Postfix "
        "sets them; else the message's headers)",
    )
    smtpd = mail_sub.add_parser("smtpd", help="listen for mail by SMTP (or LMTP) until stopped")
    smtpd.add_argument("--host", default="127.0.0.1")
    smtpd.add_argument("--port", type=int, default=8025)
    smtpd.add_argument("--lmtp", action="store_true", help="speak LMTP instead of SMTP")
    imap = mail_sub.add_parser("imap", help="poll the mailbox at IMAP_URL and handle new mail")
    imap.add_argument("--once", action="store_true", help="one pass, then exit")
    imap.add_argument("--every", type=float, default=30.0, help="seconds between passes")
    sub.add_parser(
        "doctor",
        help="check the configuration (database, migrations, scheduler, SMTP, SECRET_KEY, "
        "base URL) and say what to fix; exits 1 if a check fails",
    )
    db = sub.add_parser("db", help="database schema")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    db_sub.add_parser("upgrade", help="create or upgrade the tables to the latest migration")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)

    if args.command == "doctor":
        raise SystemExit(doctor())
    app = create_app()
    if args.command == "serve":
        upgrade_database(app)
        serve_here(app, args.host, args.port, args.threads)
    elif args.command == "demo":
        run_demo(app, args.host, args.port, args.threads)
    elif args.command == "scheduler":
        from pbem.schedule.runner import run_blocking

        run_blocking(app)
    elif args.command == "sweep":
        run_one_sweep(app, args.now)
    elif args.command in ("export", "import"):
        raise SystemExit(transfer(app, args))
    elif args.command == "mail" and args.mail_command == "send":
        from pbem.notify.sender import deliver_due

        with app.app_context():
            print(f"Mail: {deliver_due()}.")
    elif args.command == "mail" and args.mail_command == "reply":
        raise SystemExit(reply_by_file(app, args.file, args.text))
    elif args.command == "mail" and args.mail_command == "receive":
        raise SystemExit(receive_one(app, args.recipient))
    elif args.command == "mail" and args.mail_command == "smtpd":
        listen(app, args.host, args.port, args.lmtp)
    elif args.command == "mail" and args.mail_command == "imap":
        from pbem.mailin.imap import poll_forever

        poll_forever(app, once=args.once, every=args.every)
    elif args.command == "db":
        upgrade_database(app)
        print(f"Database at {app.config['SQLALCHEMY_DATABASE_URI']} is up to date.")


if __name__ == "__main__":
    main()
