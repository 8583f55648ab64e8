"""Mail in from Postfix: the CPU one mail costs through each door Postfix may hand it to.

Run: python bench/mail_door.py [--mails N] [--processes N] [--db URL]. Makes fresh games
(SQLite in a temporary folder unless --db), takes each game's first decision mail from the
outbox and writes a reply to it playing the first move it lists (bench/mailin.py's replies,
as mail clients quote them); each door gets replies of its own, each played once:

  (a) `pbem mail receive` as a process per mail, as deploy/postfix/master.cf's pipe ran it
      (through deploy/pbem-env, settings from a file): that process's CPU, from
      getrusage(RUSAGE_CHILDREN) around it;
  (b) the light pipe client, `python -I -S deploy/pbem-deliver.py` per mail, handing the
      mail by LMTP to a running `pbem mail smtpd --lmtp`: the client's CPU (as in a) plus
      the listener's over the same mails (its /proc/PID/stat);
  (c) Postfix's lmtp client straight to the listener (smtplib.LMTP stands in for it): the
      listener's CPU only.

The listener is warmed by one mail first (a running one has paid its imports long before):
that mail is shown apart. Prints CPU and wall clock per mail; no pass or fail, but every
mail must be played.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from email import policy
from email.parser import BytesParser
from email.utils import parseaddr
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import database, free_port, process_cpu  # noqa: E402
from mailin import prepare  # noqa: E402

from pbem import create_app  # noqa: E402
from pbem.cli import upgrade_database  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.mailin.reply import recipient_of  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
BIN = Path(sys.executable).parent


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def settings(url: str, instance: Path) -> dict[str, str]:
    return {
        "DATABASE_URL": url,
        "SECRET_KEY": "bench-" + uuid.uuid4().hex,
        "MAIL_FROM": "El Grande <play@pbem.example>",
        "PBEM_BASE_URL": "https://pbem.example",
        "MAIL_ANSWERS_PER_HOUR": str(10**9),
        "PBEM_INSTANCE_PATH": str(instance),
    }


def receive_per_mail(replies: list[bytes], env_file: Path) -> tuple[float, float]:
    """(a): CPU and wall seconds per mail, `pbem mail receive` run for each."""
    command = [str(DEPLOY / "pbem-env"), str(BIN / "pbem"), "mail", "receive", "--recipient"]
    # pipe gives its command almost no environment: pbem-env reads the settings file.
    env = {"PATH": "/usr/bin:/bin", "PBEM_ENV_FILE": str(env_file)}
    cpu, started = children_cpu(), time.perf_counter()
    for raw in replies:
        done = subprocess.run(
            [*command, recipient_of(raw)], input=raw, env=env, capture_output=True, timeout=120
        )
        assert done.returncode == 0 and b"Mail: played" in done.stdout, done.stderr[-2000:]
    elapsed = time.perf_counter() - started
    return (children_cpu() - cpu) / len(replies), elapsed / len(replies)


@contextmanager
def listener(env: dict[str, str]) -> Iterator[tuple[int, int]]:
    """A `pbem mail smtpd --lmtp` process, as pbem-mailin.service runs it: (pid, port)."""
    port = free_port()
    command = [str(BIN / "pbem"), "mail", "smtpd", "--lmtp", "--port", str(port)]
    process = subprocess.Popen(
        command, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                assert process.poll() is None, "the listener stopped"
                assert time.monotonic() < deadline, "the listener did not listen"
                time.sleep(0.05)
        yield process.pid, port
    finally:
        process.terminate()
        process.wait(timeout=30)


def sender_of(raw: bytes) -> str:
    return parseaddr(str(BytesParser(policy=policy.default).parsebytes(raw)["From"]))[1]


def by_client(port: int, raw: bytes) -> None:
    """(b): one mail through the light client, as master.cf's pipe runs it."""
    client = [str(BIN / "python"), "-I", "-S", str(DEPLOY / "pbem-deliver.py")]
    command = [*client, "--to", f"127.0.0.1:{port}", "--", sender_of(raw), recipient_of(raw)]
    # pipe gives the message with LF line ends.
    done = subprocess.run(command, input=raw.replace(b"\r\n", b"\n"), capture_output=True)
    assert done.returncode == 0, done.stdout


def by_lmtp(port: int, raw: bytes) -> None:
    """(c): one mail by LMTP, as Postfix's lmtp client sends it (CRLF on the wire)."""
    wire = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    with smtplib.LMTP("127.0.0.1", port, timeout=60) as client:
        assert client.sendmail(sender_of(raw), [recipient_of(raw)], wire) == {}


def through_listener(pid: int, port: int, replies: list[bytes], send) -> tuple[float, float, float]:
    """(client CPU, listener CPU, wall) seconds per mail, each mail handed over by `send`."""
    clients, server, started = children_cpu(), process_cpu(pid), time.perf_counter()
    for raw in replies:
        send(port, raw)
    elapsed = time.perf_counter() - started
    per = len(replies)
    return (children_cpu() - clients) / per, (process_cpu(pid) - server) / per, elapsed / per


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=20, help="mails through (b) and (c) each")
    parser.add_argument("--processes", type=int, default=5, help="mails through (a)")
    parser.add_argument("--db", help="a database URL (default: SQLite in a temporary folder)")
    args = parser.parse_args()
    on_postgresql = (args.db or "").startswith("postgresql")
    with (
        database("postgresql" if on_postgresql else "sqlite", args.db or "") as fresh,
        tempfile.TemporaryDirectory() as folder,
    ):
        url = fresh if on_postgresql or not args.db else args.db
        env = settings(url, Path(folder) / "instance")
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url,
                "SECRET_KEY": env["SECRET_KEY"],
                "MAIL_FROM": env["MAIL_FROM"],
                "PBEM_BASE_URL": env["PBEM_BASE_URL"],
                "MAIL_ANSWERS_PER_HOUR": 10**9,
                "PBEM_LOG_LEVEL": "WARNING",
            }
        )
        upgrade_database(app)
        games = args.processes + 2 * (args.mails + 1)
        _, replies = prepare(app, games)
        with app.app_context():
            db.engine.dispose()  # the doors' processes have the database to themselves
        by_process = replies[: args.processes]
        warm_b, *light = replies[args.processes : args.processes + args.mails + 1]
        warm_c, *straight = replies[args.processes + args.mails + 1 :]
        dialect = url.split(":", 1)[0].split("+")[0]
        print(f"One mail through each door ({dialect}; CPU = user + system seconds):")

        env_file = Path(folder) / "pbem.env"
        env_file.write_text("".join(f"{k}={shlex.quote(v)}\n" for k, v in env.items()))
        cpu, wall = receive_per_mail(by_process, env_file)
        print(
            f"(a) pbem mail receive, a process per mail: {cpu * 1000:.0f} ms CPU, "
            f"{wall * 1000:.0f} ms wall per mail ({len(by_process)} mails)"
        )
        for label, warm, mails, send in (
            ("(b) pbem-deliver.py per mail, LMTP to the listener", warm_b, light, by_client),
            ("(c) LMTP straight to the listener (Postfix's lmtp)", warm_c, straight, by_lmtp),
        ):
            with listener(env) as (pid, port):
                _, first, _ = through_listener(pid, port, [warm], send)
                client, server, wall = through_listener(pid, port, mails, send)
            # (c)'s client is smtplib in this process (no child), standing in for Postfix's.
            parts = f"client {client * 1000:.0f} ms, " if send is by_client else ""
            print(
                f"{label}: {(client + server) * 1000:.0f} ms CPU per mail "
                f"({parts}listener {server * 1000:.0f} ms), {wall * 1000:.0f} ms wall "
                f"({len(mails)} mails; the listener's first, not counted: {first * 1000:.0f} ms)"
            )
    print("Postfix's own processes (pipe, lmtp) are not counted in any.")


if __name__ == "__main__":
    main()
