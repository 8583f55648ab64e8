"""What the benchmarks share: a fresh database, a free port, a JSON client, players with
keys, a new game.

The scripts run as `python bench/<name>.py`, so this module is imported as `common`.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

# The checkout before bench/ on the path: add_players imports pbem, whose `engine` is the
# package, not bench/engine.py.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

COLOURS = ["red", "yellow", "green", "blue", "brown"]


@contextmanager
def database(kind: str, pg_url: str) -> Iterator[str]:
    """A fresh database URL: SQLite in a temporary folder, or a PostgreSQL schema of its
    own (dropped afterwards)."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.sqlite"
        return
    import sqlalchemy as sa

    schema = "bench_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(pg_url)
    with admin.begin() as connection:
        connection.execute(sa.text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in pg_url else "?"
    try:
        yield f"{pg_url}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with admin.begin() as connection:
            connection.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


_apps: dict[str, Any] = {}
_apps_lock = threading.Lock()


def players_app(database_url: str) -> Any:
    """An app on `database_url` (the database a server process uses) to make players in,
    made once and kept. Importing pbem and making it takes a second or more: a bench calls
    this before it starts timing."""
    with _apps_lock:
        if database_url not in _apps:
            from pbem import create_app

            _apps[database_url] = create_app(
                {"SQLALCHEMY_DATABASE_URI": database_url, "PBEM_LOG_LEVEL": "WARNING"}
            )
        return _apps[database_url]


def add_players(app_or_url: Any, people: dict[str, str]) -> dict[str, str]:
    """Players with keys, made as `pbem players add` makes them (proved, no mail): POST
    /api/players mails a link instead of answering a key. `people` is {email: name};
    `app_or_url` an app, or the database URL a server process uses (`players_app`).
    Returns {email: key}."""
    from pbem.extensions import db
    from pbem.game.players import add_player

    app = players_app(app_or_url) if isinstance(app_or_url, str) else app_or_url
    with app.app_context():
        keys = {email: add_player(email, name)[1] for email, name in people.items()}
        db.session.commit()
        db.session.remove()
    return keys


#: The kernel's clock ticks a second, the unit of /proc/PID/stat's CPU times.
TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """User and system CPU seconds of a running process (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime: fields 14 and 15


def workers_cpu(server_pid: int) -> float:
    """User and system CPU seconds of a server's child processes (gunicorn's workers) so
    far: taken before and after some requests, what the workers spent on them whole
    (parsing, the app, writing the answer), at the kernel's tick (10 ms)."""
    children = Path(f"/proc/{server_pid}/task/{server_pid}/children").read_text().split()
    return sum(process_cpu(int(child)) for child in children)


def postgres_cpu() -> float:
    """User and system CPU seconds of this machine's PostgreSQL processes so far (the server
    and its backends, all databases'): taken before and after some requests, what a local
    PostgreSQL spent on them (with anything else it did meanwhile)."""
    spent = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == "postgres":
                spent += process_cpu(int(entry.name))
        except (OSError, IndexError):  # gone meanwhile
            continue
    return spent


@dataclass
class Phase:
    """What one kind of request gave over all its slices (`in_slices`)."""

    latencies: list[float] = field(default_factory=list)  # seconds, each request's
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0  # how long its slices took together
    cpu: float = 0.0  # what the server's workers spent in them, seconds
    database_cpu: float = 0.0  # what a local PostgreSQL spent meanwhile, seconds
    p50s: list[float] = field(default_factory=list)  # each slice's p50
    # each slice's open connections per worker at its end (when `in_slices` is given the port)
    splits: list[list[int]] = field(default_factory=list)

    @property
    def cpu_per_request(self) -> float:
        return self.cpu / len(self.latencies)


def in_slices(
    phases: dict[str, Callable[[int, float], tuple[list[float], list[str], float]]],
    slices: int,
    seconds: float,
    server_pid: int,
    port: int | None = None,
) -> dict[str, Phase]:
    """Each phase run `slices` times for its share of `seconds`, the phases in turn, so a
    shared machine slowing down or speeding up meanwhile weighs on every phase alike; with
    what the server's workers spent in each (and with `port`, the connections each worker
    held as the phase ended). A phase is `run(turn, seconds)`, which gives its requests'
    latencies, its errors and how long it took."""
    ran = {name: Phase() for name in phases}
    for turn in range(slices):
        for name, run in phases.items():
            cpu, database_cpu = workers_cpu(server_pid), postgres_cpu()
            latencies, errors, elapsed = run(turn, seconds / slices)
            phase = ran[name]
            phase.cpu += workers_cpu(server_pid) - cpu
            phase.database_cpu += postgres_cpu() - database_cpu
            phase.latencies += latencies
            phase.errors += errors
            phase.seconds += elapsed
            phase.p50s.append(statistics.median(latencies))
            if port is not None:
                phase.splits.append(connections_per_worker(server_pid, port))
    return ran


def print_cpu_per_request(
    ran: dict[str, Phase],
    names: Iterable[str],
    notes: Mapping[str, str] | None = None,
    database: bool = False,
) -> None:
    """The workers' CPU per request of each named phase, whole (gunicorn's parsing and
    writing, the app), beside health's ("GET health"): what the machine pays for each; with
    `database`, what a local PostgreSQL spent per request too."""
    health = ran["GET health"].cpu_per_request
    for name in names:
        cpu = ran[name].cpu_per_request
        spent = ran[name].database_cpu / len(ran[name].latencies)
        print(
            f"  {name}: workers' CPU per request {cpu * 1000:.3f} ms = {cpu / health:.2f}x"
            f" health's{(notes or {}).get(name, '')}"
            + (f"; PostgreSQL's {spent * 1000:.3f} ms" if database else "")
        )


def print_slice_ratios(ran: dict[str, Phase], name: str, floor: str = "GET health") -> None:
    """`name`'s p50 over `floor`'s in each slice: how far the machine's swings moved the
    ratio (and, against health's, how the slice's connections split between workers)."""
    ratios = (mine / under for mine, under in zip(ran[name].p50s, ran[floor].p50s, strict=True))
    under_name = floor.removeprefix("GET ")
    print(
        f"  {name} p50 / {under_name} p50 in each slice: " + ", ".join(f"{r:.2f}" for r in ratios)
    )
    if ran[name].splits and floor == "GET health":
        splits = ("+".join(map(str, split)) for split in ran[name].splits)
        print(f"  {name}: connections per worker in each slice: " + ", ".join(splits))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Client:
    """One keep-alive HTTP connection speaking JSON."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body=None, key: str | None = None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        payload = json.dumps(body) if body is not None else None
        response, data = self.send(method, path, payload, headers)
        return response.status, (json.loads(data) if data else None)

    def send(
        self, method: str, path: str, payload: str | None, headers: Mapping[str, str]
    ) -> tuple[http.client.HTTPResponse, bytes]:
        """The answer to one request and its body, read whole."""
        try:
            self.connection.request(method, path, body=payload, headers=dict(headers))
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed a keep-alive connection left idle (gunicorn's keepalive): open
            # another, as a client library does. A move sent again carries its expected_seq,
            # so one already played is refused (409), never played twice.
            self.connection.close()
            self.connection.request(method, path, body=payload, headers=dict(headers))
            response = self.connection.getresponse()
        return response, response.read()

    def close(self) -> None:
        self.connection.close()


def connections_per_worker(server_pid: int, port: int) -> list[int]:
    """How many open connections to `port` each of a server's workers holds, most first
    (from /proc: each worker's socket inodes against the kernel's TCP table)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            # local address "ADDR:PORT" in hex, state 01: established
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                inodes.add(fields[9])
    children = Path(f"/proc/{server_pid}/task/{server_pid}/children").read_text().split()
    held = []
    for child in children:
        fds = Path(f"/proc/{child}/fd")
        links = []
        for fd in fds.iterdir():
            try:
                links.append(os.readlink(fd))
            except OSError:  # closed meanwhile
                continue
        sockets = [link[len("socket:[") : -1] for link in links if link.startswith("socket:[")]
        held.append(sum(1 for inode in sockets if inode in inodes))
    return sorted(held, reverse=True)


def wait_until_live(server, port: int, what: str, seconds: float = 20) -> None:
    """Wait for `server` (a Popen) to answer GET /api/health/live on `port`; kill it and
    raise if it does not within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if Client(port).call("GET", "/api/health/live")[0] == 200:
                return
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError(f"{what} did not answer /api/health/live")


def new_game(
    client: Client,
    database_url: str,
    rng: random.Random,
    players: int | None = None,
    rounds: int = 6,
    language: str | None = None,
) -> tuple[int, dict[str, str]]:
    """A game of `rounds` rounds between `players` new players (None: 3 to 5 at random),
    its mails in `language` (None: English); its id and {colour: key}. The players are made
    in `database_url`, the database the server behind `client` uses."""
    colours = COLOURS[: players or rng.choice([3, 4, 5])]
    tag = uuid.uuid4().hex[:10]
    made = add_players(database_url, {f"{c}-{tag}@bench.example": c for c in colours})
    keys = {c: made[f"{c}-{tag}@bench.example"] for c in colours}
    status, body = client.call(
        "POST",
        "/api/games",
        {
            "title": f"bench {tag}",
            "seats": [{"email": f"{c}-{tag}@bench.example", "colour": c} for c in colours],
            "options": {"rounds": rounds},
            **({"language": language} if language else {}),
        },
        key=keys[colours[0]],
    )
    assert status == 201, body
    return body["id"], keys


def print_profile(profile: Any, count: int) -> None:
    """cProfile's `count` top entries, by time spent inside each and by time with calls."""
    import io
    import pstats

    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(order).print_stats(count)
        print(out.getvalue())
