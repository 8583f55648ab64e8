"""The `pbem` console script: run the server, manage the database."""

from __future__ import annotations

import argparse
import threading
import time

from pbem import create_app


def upgrade_database(app) -> None:
    """Create the tables, or bring them to the latest migration."""
    from flask_migrate import upgrade

    with app.app_context():
        upgrade()


def start_sender(app, every: float = 2.0) -> threading.Thread:
    """The single-machine sender: deliver the outbox every few seconds, in a thread, so mail
    leaves within seconds of the commit."""
    from pbem.notify.sender import deliver_due

    def loop() -> None:
        while True:
            try:
                with app.app_context():
                    deliver_due()
            except Exception:  # a bad pass must not stop the next one
                app.logger.exception("mail delivery pass failed")
            time.sleep(every)

    thread = threading.Thread(target=loop, name="pbem-mail-sender", daemon=True)
    thread.start()
    return thread


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="pbem", description="El Grande turn server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve", help="upgrade the database, then run the server (single machine, defaults)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--threads", type=int, default=8, help="requests served at once")
    mail = sub.add_parser("mail", help="mail: deliver the outbox")
    mail_sub = mail.add_subparsers(dest="mail_command", required=True)
    mail_sub.add_parser("send", help="deliver the mails and webhooks that are due, once")
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
        start_sender(app)
        waitress_serve(app, host=args.host, port=args.port, threads=args.threads)
    elif args.command == "mail" and args.mail_command == "send":
        from pbem.notify.sender import deliver_due

        with app.app_context():
            print(f"Mail: {deliver_due()}.")
    elif args.command == "db":
        upgrade_database(app)
        print(f"Database at {app.config['SQLALCHEMY_DATABASE_URI']} is up to date.")
