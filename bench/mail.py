"""Benchmark mail out against a local SMTP server (aiosmtpd).

(a) **Sender throughput**: a fresh database, 1,000 real decision mails queued in the
    outbox as the move path queues them (what to say, not yet composed), then composed
    (`compose_queued`) and sent (`deliver_due`), as `pbem mail send` and `pbem serve` run
    them, until every row is sent, to aiosmtpd's Sink handler in a process of its own.
    Prints mails composed per second, messages/s and the total. Goal: 1,000 within 30 s.
(b) **Commit to delivery** under `pbem serve`: the server runs as a subprocess (waitress,
    its in-process sender delivering every 2 s) on a fresh database with SMTP_URL pointing
    here (aiosmtpd in this process, noting arrival times); one client plays random games
    move by move over HTTP, a short random pause between moves. Each decision mail's
    Message-ID names its game, seat and seq (`pbem.notify.addresses.read_message_id`), so
    its delay is its arrival at the SMTP handler minus the time the POST that committed
    that seq was answered. Prints p50/p99, with the sender woken by each commit that
    queued mail (`pbem.notify.wake`: an in-process event, PostgreSQL's LISTEN/NOTIFY) and,
    for comparison, without (`FLASK_PBEM_MAIL_WAKE=false`: the 2 s poll alone).
    Goal: p99 within 5 s.

    python bench/mail.py                       # both, SQLite
    python bench/mail.py --db sqlite --db postgresql --moves 300 --messages 1000
    python bench/mail.py --language ru         # the games' mails in Russian

With `--language`, every game is made with its mails in that language, so each decision
mail is composed in it.

PostgreSQL: 127.0.0.1:5432 (trust), database `test`, a schema of its own per run.
Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, bench/ comes first on the path, and bench/engine.py is not the engine.
sys.path.insert(0, str(ROOT))

from aiosmtpd.controller import Controller  # noqa: E402
from common import (  # noqa: E402
    COLOURS,
    Client,
    add_players,
    database,
    free_port,
    new_game,
    players_app,
    wait_until_live,
)

MAIL_CONFIG = {
    "SECRET_KEY": "bench-mail",
    "MAIL_FROM": "El Grande <play@bench.example>",
    "PBEM_BASE_URL": "https://bench.example",
}


class Inbox:
    """aiosmtpd's handler: notes when each message arrived, and its Message-ID."""

    def __init__(self) -> None:
        self.arrivals: list[tuple[float, str]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        arrived = time.monotonic()
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.arrivals.append((arrived, str(parsed["Message-ID"])))
        return "250 Message accepted for delivery"


@contextmanager
def smtp_server() -> Iterator[tuple[str, Inbox]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}?timeout=10", inbox
    finally:
        controller.stop()


@contextmanager
def sink_server() -> Iterator[str]:
    """aiosmtpd in a process of its own, accepting and dropping every message: in this
    process its thread would compete with the sender for the GIL and halve the figure."""
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "aiosmtpd",
            "-n",
            "-l",
            f"127.0.0.1:{port}",
            "-c",
            "aiosmtpd.handlers.Sink",
        ],
        start_new_session=True,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"smtp://127.0.0.1:{port}?timeout=10"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


# -- (a) the sender's throughput ----------------------------------------------------------------


def queue_mails(app, count: int, language: str | None = None) -> None:
    """A game made through the API (so every row is a real decision mail, with its player
    and game), then `count` outbox rows: that game's first decision mail, waiting to be
    composed (as the move path queues it), to distinct addresses."""
    from sqlalchemy import delete, insert, select

    from pbem.extensions import db
    from pbem.store.models import Notification

    client = app.test_client()
    colours = COLOURS[:3]
    made = add_players(app, {f"{c}@bench.example": c for c in colours})
    keys = {c: made[f"{c}@bench.example"] for c in colours}
    response = client.post(
        "/api/games",
        json={
            "title": "bench",
            "seats": [{"email": f"{c}@bench.example", "colour": c} for c in colours],
            **({"language": language} if language else {}),
        },
        headers={"Authorization": f"Bearer {keys[colours[0]]}"},
    )
    assert response.status_code == 201, response.get_json()
    outbox = Notification.__table__
    with app.app_context():
        waiting = (outbox.c.kind == "decision") & (outbox.c.message == "")
        model = db.session.execute(select(outbox).where(waiting).limit(1)).one()._asdict()
        db.session.execute(delete(outbox))
        model.pop("id")
        rows = [
            {**model, "recipient": f"player{i}@bench.example", "status": "queued"}
            for i in range(count)
        ]
        db.session.execute(insert(outbox), rows)
        db.session.commit()
        db.session.remove()


def bench_throughput(
    label: str, database_url: str, count: int, language: str | None = None
) -> None:
    from pbem import create_app
    from pbem.cli import upgrade_database
    from pbem.notify.sender import compose_queued, deliver_due

    with sink_server() as smtp_url:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": database_url, "SMTP_URL": smtp_url, **MAIL_CONFIG}
        )
        upgrade_database(app)
        queue_mails(app, count, language)
        passes, sent, composed = 0, 0, 0
        started, cpu_started = time.perf_counter(), time.process_time()
        with app.app_context():
            while composed < count:  # as the sender's pass does, before it sends
                made = compose_queued()
                if not made:
                    break
                composed += made
            composing = time.perf_counter() - started
            composing_cpu = time.process_time() - cpu_started
            while sent < count and passes < count:
                result = deliver_due()
                passes += 1
                sent += result.sent
                if result.errors:
                    print(f"    errors: {result.errors[:3]}")
        elapsed = time.perf_counter() - started
        with app.app_context():
            from pbem.extensions import db

            db.engine.dispose()
    print(
        f"{label}: (a) sender: {composed} decision mails composed in {composing:.2f} s "
        f"({composed / composing:.0f}/s, {composing_cpu / composed * 1000:.2f} ms of CPU each), "
        f"then {sent} of {count} sent: {elapsed:.2f} s in all "
        f"({sent / elapsed:.0f} msgs/s, {passes} deliver_due passes)  "
        f"(goal: {count} within 30 s)"
    )


# -- (b) commit to delivery under pbem serve ------------------------------------------------


def start_serve(database_url: str, smtp_url: str, wake: bool) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SMTP_URL": smtp_url,
        "PBEM_LOG_LEVEL": "warning",
        "FLASK_PBEM_MAIL_WAKE": "true" if wake else "false",
        **MAIL_CONFIG,
    }
    server = subprocess.Popen(
        [Path(sys.executable).parent / "pbem", "serve", "--port", str(port)],
        env=env,
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
    )
    wait_until_live(server, port, "pbem serve")
    return server, port


def bench_latency(
    label: str,
    database_url: str,
    moves: int,
    pause: float,
    wake: bool,
    language: str | None = None,
) -> None:
    from pbem.notify.addresses import read_message_id

    rng = random.Random(1)
    committed: dict[tuple[int, int], float] = {}  # (game, seq) -> when the POST was answered
    with smtp_server() as (smtp_url, inbox):
        server, port = start_serve(database_url, smtp_url, wake)
        try:
            players_app(database_url)  # new_game makes its players in this process
            client = Client(port)
            played = 0
            while played < moves:
                game_id, keys = new_game(client, database_url, rng, language=language)
                committed[(game_id, 0)] = time.monotonic()
                _, view = client.call("GET", f"/api/games/{game_id}")
                while view["status"] == "active" and played < moves:
                    colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
                    path = f"/api/games/{game_id}/legal-moves?colour={colour}"
                    _, legal = client.call("GET", path, key=keys[colour])
                    status, body = client.call(
                        "POST",
                        f"/api/games/{game_id}/moves",
                        {
                            "expected_seq": legal["seq"],
                            "moves": [rng.choice(legal["moves"])],
                            "colour": colour,
                        },
                        key=keys[colour],
                    )
                    assert status == 201, body
                    committed[(game_id, body["seq"])] = time.monotonic()
                    view = body["view"]
                    played += 1
                    time.sleep(rng.uniform(0, 2 * pause))
            # Wait for the last mails: the sender passes every 2 s.
            last, quiet_since = -1, time.monotonic()
            while time.monotonic() - quiet_since < 6:
                time.sleep(0.25)
                if len(inbox.arrivals) != last:
                    last, quiet_since = len(inbox.arrivals), time.monotonic()
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    delays, unmatched = [], 0
    for arrived, message_id in inbox.arrivals:
        named = read_message_id(message_id)
        if named is None:
            continue  # a welcome or scoring mail: no seq of a decision
        game_id, _, seq = named
        if (game_id, seq) in committed:
            delays.append(arrived - committed[(game_id, seq)])
        else:
            unmatched += 1
    delays.sort()
    p50 = statistics.median(delays)
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
    print(
        f"{label}: (b) pbem serve, {'woken by commits' if wake else 'poll alone'}: "
        f"{moves} moves, {len(inbox.arrivals)} mails received, "
        f"{len(delays)} decision mails matched to their commit ({unmatched} unmatched); "
        f"commit -> delivery p50 {p50:.2f} s, p99 {p99:.2f} s, max {delays[-1]:.2f} s  "
        f"(goal: p99 within 5 s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1000, help="(a): rows queued")
    parser.add_argument("--moves", type=int, default=300, help="(b): moves played")
    parser.add_argument("--pause", type=float, default=0.05, help="(b): mean seconds between moves")
    parser.add_argument("--only", choices=["throughput", "latency"], default=None)
    parser.add_argument(
        "--wake", choices=["both", "on", "off"], default="both", help="(b): sender woken or not"
    )
    parser.add_argument("--db", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--language", default=None, help="the games' mails in this language")
    parser.add_argument(
        "--pg-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgresql+psycopg://127.0.0.1:5432/test"),
    )
    args = parser.parse_args()
    for kind in args.db or ["sqlite"]:
        label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[kind]
        label += f" ({args.language})" if args.language else ""
        if args.only in (None, "throughput"):
            with database(kind, args.pg_url) as url:
                bench_throughput(label, url, args.messages, args.language)
        if args.only in (None, "latency"):
            for wake in {"both": (False, True), "on": (True,), "off": (False,)}[args.wake]:
                with database(kind, args.pg_url) as url:
                    bench_latency(label, url, args.moves, args.pause, wake, args.language)


if __name__ == "__main__":
    main()
