"""The `pbem` console script."""

import argparse

from pbem import create_app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="pbem", description="El Grande turn server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server on its embedded defaults")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    args = parser.parse_args(argv)
    if args.command == "serve":
        create_app().run(host=args.host, port=args.port)
