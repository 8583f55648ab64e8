"""The `pbem` console script: run the server, manage the database."""

from __future__ import annotations

import argparse

from pbem import create_app


def upgrade_database(app) -> None:
    """Create the tables, or bring them to the latest migration."""
    from flask_migrate import upgrade

    with app.app_context():
        upgrade()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="pbem", description="El Grande turn server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve", help="upgrade the database, then run the server (single machine, defaults)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--threads", type=int, default=8, help="requests served at once")
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
        waitress_serve(app, host=args.host, port=args.port, threads=args.threads)
    elif args.command == "db":
        upgrade_database(app)
        print(f"Database at {app.config['SQLALCHEMY_DATABASE_URI']} is up to date.")
