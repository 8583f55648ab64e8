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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="pbem", description="El Grande turn server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve", help="upgrade the database, then run the server (single machine, defaults)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--threads", type=int, default=8, help="requests served at once")
    sub.add_parser(
        "scheduler", help="run the sweep and the mail sender every few seconds, until SIGTERM"
    )
    sweep = sub.add_parser("sweep", help="run one sweep and print what it did")
    sweep.add_argument(
        "--now",
        help="act as if it were this time (ISO 8601, e.g. 2026-12-24T18:00:00+00:00): for "
        "drills and tests only, it plays real moves in real games",
    )
    mail = sub.add_parser("mail", help="mail: deliver the outbox, take mail in")
    mail_sub = mail.add_subparsers(dest="mail_command", required=True)
    mail_sub.add_parser("send", help="deliver the mails and webhooks that are due, once")
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
    db = sub.add_parser("db", help="database schema")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    db_sub.add_parser("upgrade", help="create or upgrade the tables to the latest migration")
    args = parser.parse_args(argv)

    app = create_app()
    if args.command == "serve":
        upgrade_database(app)
        # waitress: a production WSGI server in pure Python, so the one-command install
        # needs no compiler and runs anywhere (gunicorn remains the choice for scale-out).
        from waitress import serve as waitress_serve

        print(
            f"El Grande turn server on http://{args.host}:{args.port} "
            f"(database {app.config['SQLALCHEMY_DATABASE_URI']})",
            flush=True,
        )
        from pbem.schedule.runner import start_background

        # The single-machine default: the scheduler (sweep and mail) runs in-process.
        start_background(app)
        waitress_serve(app, host=args.host, port=args.port, threads=args.threads)
    elif args.command == "scheduler":
        from pbem.schedule.runner import run_blocking

        run_blocking(app)
    elif args.command == "sweep":
        run_one_sweep(app, args.now)
    elif args.command == "mail" and args.mail_command == "send":
        from pbem.notify.sender import deliver_due

        with app.app_context():
            print(f"Mail: {deliver_due()}.")
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
