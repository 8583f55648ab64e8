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
    elif args.command == "db":
        upgrade_database(app)
        print(f"Database at {app.config['SQLALCHEMY_DATABASE_URI']} is up to date.")


if __name__ == "__main__":
    main()
