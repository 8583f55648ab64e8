"""Hostile input against a running gunicorn: every request an attacker found worth trying,
sent over raw sockets, with the status each got.

Starts gunicorn with deploy/gunicorn.conf.py on a fresh database (SQLite or PostgreSQL),
makes three players in that database (as `pbem players add` does) and a game, then sends
each case and prints its status (or `closed` when the server dropped the connection,
`timeout` when it never answered) and a tally.
The goal: 0 x 5xx, no Location off this site, and the game unchanged by any of it.

    python bench/hostile.py --db sqlite --db postgresql

Figures, not a test: tests/deploy/test_hostile_wire.py checks the wire cases that matter.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from common import Client, add_players, database, free_port, wait_until_live  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def raw(port: int, data: bytes, wait: float = 15.0, pause: float = 0.0) -> tuple[str, bytes]:
    """Send `data` (after it, wait `pause` seconds with the connection open) and read the
    answer: its status code, `closed` or `timeout`, and the head of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        try:
            # Refused before the whole was sent, its answer may be waiting all the same.
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                sock.sendall(data)
            if pause:
                time.sleep(pause)
            answer = b""
            while b"\r\n\r\n" not in answer:
                piece = sock.recv(65536)
                if not piece:
                    break
                answer += piece
        except TimeoutError:
            return "timeout", b""
        except (ConnectionResetError, BrokenPipeError):
            return "closed", b""
    match = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return (match.group(1).decode() if match else "closed"), answer[:2000]


def request(
    method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    headers = dict(headers or {})
    if body and "Transfer-Encoding" not in headers:
        headers.setdefault("Content-Length", str(len(body)))
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def cases(game_id: int, key: str, cookie: str, csrf: str) -> dict[str, Callable[[int], tuple]]:
    """Name -> a function of the port that sends one hostile request."""
    auth = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    moves = f"/api/games/{game_id}/moves"

    def json_body(text: str | bytes, headers: dict[str, str] | None = None) -> Callable:
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        return lambda port: raw(port, request("POST", moves, data, {**auth, **(headers or {})}))

    def sign_in(next_value: str, where: str) -> Callable:
        form = f"csrf_token={csrf}&api_key={key}" + (
            f"&next={next_value}" if where == "form" else ""
        )
        path = "/sign-in" + (f"?next={next_value}" if where == "query" else "")
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
        return lambda port: raw(port, request("POST", path, form.encode(), headers))

    good = {"expected_seq": 0, "moves": [{"type": "play_power_card", "card": 13}]}
    found: dict[str, Callable[[int], tuple]] = {
        "sign-in next=/%09/evil.test (form)": sign_in("/%09/evil.test", "form"),
        "sign-in next=/%09/evil.test (query)": sign_in("/%09/evil.test", "query"),
        "sign-in next=/%0D%0A/x (form)": sign_in("/%0D%0A/x", "form"),
        "sign-in next=//evil.test": sign_in("//evil.test", "form"),
        "sign-in next=/%5Cevil.test": sign_in("/%5Cevil.test", "form"),
        "chunk size zz": lambda port: raw(
            port,
            request(
                "POST", moves, b"zz\r\n{}\r\n0\r\n\r\n", {**auth, "Transfer-Encoding": "chunked"}
            ),
        ),
        "chunked, whole": json_body(
            b"%x\r\n%s\r\n0\r\n\r\n" % (len(json.dumps(good)), json.dumps(good).encode()),
            {"Transfer-Encoding": "chunked"},
        ),
        "Content-Length 1000, 2 bytes, waits": lambda port: raw(
            port, request("POST", moves, b"", {**auth, "Content-Length": "1000"}) + b"{}", 40
        ),
        "duplicate key": json_body('{"expected_seq": 99999, "expected_seq": 0, "moves": []}'),
        "5,000-digit number": json_body('{"expected_seq": ' + "9" * 5000 + ', "moves": []}'),
        "10,000-deep nesting": json_body('{"moves": ' + "[" * 10000 + "]" * 10000 + "}"),
        "lone surrogate": json_body('{"expected_seq": 0, "moves": [{"type": "\\ud800"}]}'),
        "NaN": json_body('{"expected_seq": NaN, "moves": []}'),
        "Infinity": json_body('{"expected_seq": Infinity, "moves": []}'),
        "20 MB body": json_body(b'{"moves": [' + b"0," * (10 * 1024 * 1024) + b"0]}"),
        "text/plain body": json_body(json.dumps(good), {"Content-Type": "text/plain"}),
        "no content type": lambda port: raw(
            port,
            request(
                "POST", moves, json.dumps(good).encode(), {"Authorization": auth["Authorization"]}
            ),
        ),
        "unknown method BREW": lambda port: raw(port, request("BREW", moves)),
        "unknown method PROPFIND on /": lambda port: raw(port, request("PROPFIND", "/")),
        "traversal /web/static/../../config.py": lambda port: raw(
            port, request("GET", "/web/static/../../config.py")
        ),
        "traversal %2e%2e": lambda port: raw(
            port, request("GET", "/web/static/%2e%2e/%2e%2e/pbem/config.py")
        ),
        "traversal %2f": lambda port: raw(port, request("GET", "/web/static/..%2f..%2fconfig.py")),
        "%00 in path": lambda port: raw(port, request("GET", f"/api/games/{game_id}%00")),
        "%00 in query": lambda port: raw(port, request("GET", f"/games/{game_id}?colour=red%00")),
        "CRLF in path": lambda port: raw(port, request("GET", "/api/games/1%0D%0ASet-Cookie:x=1")),
        "CRLF in header": lambda port: raw(
            port, b"GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\nConnection: close\r\n\r\n"
        ),
        "100 KB name": lambda port: raw(
            port,
            request(
                "POST",
                "/api/players",
                json.dumps({"email": "long@example.com", "name": "n" * 100_000}).encode(),
                {"Content-Type": "application/json"},
            ),
        ),
        "100 KB header": lambda port: raw(
            port, request("GET", "/", headers={"X-Big": "b" * 100_000})
        ),
        "huge seq in path": lambda port: raw(port, request("GET", f"/api/games/{'9' * 5000}")),
        "bad bearer": lambda port: raw(
            port, request("GET", f"/api/games/{game_id}", headers={"Authorization": "Bearer \x7f"})
        ),
        "HTTP/0.9": lambda port: raw(port, b"GET /\r\n"),
        "garbage request line": lambda port: raw(
            port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\r\n\r\n"
        ),
    }
    return found


def session(port: int) -> tuple[str, str]:
    """A session cookie and its CSRF token, from GET /sign-in."""
    status, head = raw(port, request("GET", "/sign-in"), wait=15)
    cookie = re.search(rb"Set-Cookie: (session=[^;]+)", head)
    # The token sits in the page's body, after the head `raw` returns: read the page whole.
    client = Client(port)
    client.connection.request("GET", "/sign-in", headers={"Cookie": cookie.group(1).decode()})
    page = client.connection.getresponse().read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    return cookie.group(1).decode(), token.group(1)


def run(kind: str, pg_url: str) -> int:
    with database(kind, pg_url) as url:
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "SECRET_KEY": "hostile-bench",
            "PBEM_LOG_LEVEL": "warning",
        }
        subprocess.run(
            [sys.executable, "-m", "pbem.cli", "db", "upgrade"], env=env, check=True, cwd=ROOT
        )
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                "deploy/gunicorn.conf.py",
                "--bind",
                f"127.0.0.1:{port}",
                "pbem:create_app()",
            ],
            env=env,
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            wait_until_live(server, port, "gunicorn")
            client = Client(port)
            # Players with keys as `pbem players add` makes them, in the server's database:
            # POST /api/players mails a link (202) instead of answering a key.
            made = add_players(url, {f"{c}@example.com": c for c in ("red", "blue", "green")})
            keys = {c: made[f"{c}@example.com"] for c in ("red", "blue", "green")}
            seats = [{"colour": c, "email": f"{c}@example.com"} for c in keys]
            _, game = client.call(
                "POST",
                "/api/games",
                {"title": "hostile", "seats": seats, "options": {"first_player": "red"}},
                key=keys["red"],
            )
            cookie, csrf = session(port)
            tally: collections.Counter[str] = collections.Counter()
            off_site = 0
            print(f"\n== {kind}")
            for name, send in cases(game["id"], keys["red"], cookie, csrf).items():
                started = time.monotonic()
                status, head = send(port)
                location = re.search(rb"Location: ([^\r]*)", head)
                where = location.group(1).decode() if location else ""
                if where and not where.startswith("/") or where.startswith(("//", "/\\")):
                    off_site += 1
                tally[status[0] + "xx" if status[0].isdigit() else status] += 1
                took = time.monotonic() - started
                print(
                    f"{status:>7}  {took:5.1f} s  {name}"
                    + (f"  Location: {where}" if where else "")
                )
            # A new connection: the first one idled past gunicorn's keep-alive meanwhile.
            _, view = Client(port).call("GET", f"/api/games/{game['id']}")
            print(
                "tally:",
                dict(sorted(tally.items())),
                f"| off-site redirects: {off_site}",
                f"| game seq after: {view['seq']} (1 from 'chunked, whole')",
            )
        finally:
            server.terminate()
            _, errors = server.communicate(timeout=30)
        logged = [
            line for line in errors.splitlines() if '"level": "error"' in line or "[ERROR]" in line
        ]
        print(f"errors logged by the server: {len(logged)}")
        for line in logged[:10]:
            print("   ", line[:300])
        return tally["5xx"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--pg-url", default="postgresql+psycopg://127.0.0.1:5432/test")
    args = parser.parse_args()
    fives = sum(run(kind, args.pg_url) for kind in args.db or ["sqlite"])
    print(f"\n5xx in all: {fives}")


if __name__ == "__main__":
    main()
