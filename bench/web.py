"""Benchmark the board page under gunicorn, beside GET /api/health/live.

Starts gunicorn on a fresh SQLite database (as bench/api.py does). Each of N clients makes
`--games` full games (5 players, 9 rounds), plays them at random through the API to round 3
or so, and signs in to a seat of each with the key form. Then, measured as bench/api.py
measures: N clients in a closed loop, each request timed, p50 and p99 beside those of
GET /api/health/live (the answer that touches nothing) read by the same N clients.

- board, new: the board page just after a move, a position no worker has drawn. The moves
  are played in untimed turns between timed ones: all clients play one move in each of their
  games, then all clients read each of those games' boards, and so on. So the timed requests
  meet only one another, as health's do, and every one draws a new position (often in a
  worker that did not play the move: it reads the state and the round's log first);
- board, amid moves: the same page, each client playing a move and reading the board in
  turn, so every read also waits behind other clients' moves. For reference: the ratio
  here says more about the moves than about the page;
- board, again: a board already drawn (the drawn page comes from the worker's memory);
- replay page: `?seq=` a few moves back (a snapshot plus the moves after it);
- poll (304): what an open page asks every 4 s to follow the game, `/games/<id>/seq` with
  the ETag of its last answer, while nothing moved (a 304);
- GET /api/health/live.

Each phase runs `--slices` times for its share of `--seconds`, the phases in turn, so a
shared machine slowing down or speeding up meanwhile weighs on every phase alike; each
phase's figures are over all its slices, and each slice's ratio is printed too.

    python bench/web.py --clients 8 --seconds 10
    python bench/web.py --clients 8 --seconds 10 --language de   # pages in German

With `--language`, every page is asked for in that language (Accept-Language), to weigh a
translated page against an English one.

Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import os
import random
import re
import signal
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from common import in_slices, print_cpu_per_request, print_slice_ratios  # noqa: E402

_spec = importlib.util.spec_from_file_location("bench_api", Path(__file__).parent / "api.py")
bench_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_api)

# A full game of 5 runs to some 300 moves; 100 is round 3 or 4, leaving room for every move
# the phases play.
PLAYERS = 5
ROUNDS = 9
START_MOVES = 100


class Browser:
    """One keep-alive connection with a cookie, reading pages as a person's browser would."""

    #: The language every page is asked for in (None: the browser names none: English).
    language: str | None = None

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie: str | None = None
        self.etag: str | None = None  # the last answer's

    def request(
        self, method: str, path: str, form: dict | None = None, extra: dict | None = None
    ) -> tuple[int, str]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if self.language:
            headers["Accept-Language"] = self.language
        headers.update(extra or {})
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError):
            # The server closed a keep-alive connection left idle: a browser opens another.
            self.connection.close()
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        text = response.read().decode()
        self.etag = response.getheader("ETag")
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, text

    def sign_in(self, key: str) -> None:
        _, html = self.request("GET", "/sign-in")
        token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
        status, _ = self.request("POST", "/sign-in", {"csrf_token": token, "api_key": key})
        assert status == 303, status


@dataclass
class Table:
    """A game a client plays and looks at, with the view its last move answered and a
    browser signed in to its first seat."""

    game_id: int
    keys: dict[str, str]
    view: dict
    browser: Browser

    @property
    def over(self) -> bool:
        return self.view["status"] != "active"

    @property
    def board(self) -> str:
        return f"/games/{self.game_id}"


def play_move(client, table: Table, rng: random.Random) -> None:
    """One random move of a pending seat, through the API; the answer's view is kept (as a
    client does: no GET of the game before the next move)."""
    colour = rng.choice(sorted({p["player"] for p in table.view["pending"]}))
    key = table.keys[colour]
    _, legal = client.call("GET", f"/api/games/{table.game_id}/legal-moves", key=key)
    status, body = client.call(
        "POST",
        f"/api/games/{table.game_id}/moves",
        {"expected_seq": legal["seq"], "moves": [rng.choice(legal["moves"])]},
        key=key,
    )
    if status == 201:
        table.view = body["view"]
    else:
        table.view = client.call("GET", f"/api/games/{table.game_id}")[1]


def new_table(port: int, url: str, client, rng: random.Random) -> Table:
    """A new game played at random to `START_MOVES`, still going, with a signed-in browser
    (the server at `port`, its database at `url`)."""
    while True:
        game_id, keys = bench_api.new_game(client, url, rng, players=PLAYERS, rounds=ROUNDS)
        _, view = client.call("GET", f"/api/games/{game_id}")
        table = Table(game_id, keys, view, Browser(port))
        while not table.over and table.view["seq"] < START_MOVES:
            play_move(client, table, rng)
        if not table.over:
            table.browser.sign_in(keys[sorted(keys)[0]])
            return table


@dataclass
class Player:
    """One bench client: its API connection, its random moves and its games."""

    port: int
    url: str
    client: object
    rng: random.Random
    tables: list[Table]
    replaced: int = 0

    def playing(self, index: int) -> Table:
        """The client's `index`th game, replaced by a new one (untimed) if it ended."""
        if self.tables[index].over:
            self.tables[index] = new_table(self.port, self.url, self.client, self.rng)
            self.replaced += 1
        return self.tables[index]

    def move_everywhere(self) -> None:
        """A move in each game (a game that ended replaced first)."""
        for index in range(len(self.tables)):
            play_move(self.client, self.playing(index), self.rng)


def in_threads(work, count: int) -> None:
    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def timed(browser: Browser, path: str, latencies: list, errors: list) -> None:
    started = time.perf_counter()
    status, _ = browser.request("GET", path)
    latencies.append(time.perf_counter() - started)
    if status != 200:
        errors.append(f"{status} {path}")


def boards_after_moves(players: list[Player], seconds: float) -> tuple[list, list, float]:
    """Untimed turns of moves (every client, every game) between timed turns of reading
    every game's board, until the timed turns add up to `seconds`."""
    latencies: list[float] = []
    errors: list[str] = []
    elapsed = 0.0
    while elapsed < seconds:
        in_threads(lambda i: players[i].move_everywhere(), len(players))
        started = time.perf_counter()
        in_threads(
            lambda i: [timed(t.browser, t.board, latencies, errors) for t in players[i].tables],
            len(players),
        )
        elapsed += time.perf_counter() - started
    return latencies, errors, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--games", type=int, default=8, help="games each client plays")
    parser.add_argument("--slices", type=int, default=5, help="turns each phase takes")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--language", default=None, help="pages in this language (de, ru, ...)")
    args = parser.parse_args()
    Browser.language = args.language
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.sqlite"
        server, port = bench_api.start_server(url, args.workers, args.threads)
        bench_api.players_app(url)  # new_game makes its players in this process
        try:
            players: list[Player] = [None] * args.clients

            def setup(i: int) -> None:
                client, rng = bench_api.Client(port), random.Random(i)
                tables = [new_table(port, url, client, rng) for _ in range(args.games)]
                players[i] = Player(port, url, client, rng, tables)

            in_threads(setup, args.clients)
            # Untimed: every worker draws some boards first (compiling the templates and
            # filling its kept pieces), as a server that has been up a while has.
            in_threads(
                lambda i: [t.browser.request("GET", t.board) for t in players[i].tables],
                args.clients,
            )
            seqs = [t.view["seq"] for p in players for t in p.tables]
            print(
                f"SQLite: gunicorn {args.workers or 'deploy default'} workers x "
                f"{args.threads or 'deploy default'} threads, {args.clients} clients x "
                f"{args.games} games ({PLAYERS} players, {ROUNDS} rounds) in "
                f"{args.language or 'en'} from seq "
                f"{min(seqs)}-{max(seqs)}, {args.seconds:g} s each in {args.slices} slices"
            )

            def amid_moves(i, stop_at, latencies, errors):
                player = players[i]
                while time.perf_counter() < stop_at:
                    for index in range(len(player.tables)):
                        table = player.playing(index)
                        play_move(player.client, table, player.rng)
                        timed(table.browser, table.board, latencies, errors)

            def again(i, stop_at, latencies, errors):
                table = players[i].tables[0]
                while time.perf_counter() < stop_at:
                    timed(table.browser, table.board, latencies, errors)

            def replay(i, stop_at, latencies, errors):
                table, rng = players[i].tables[0], players[i].rng
                seq = table.view["seq"]
                while time.perf_counter() < stop_at:
                    back = f"{table.board}?seq={seq - rng.randint(1, 5)}"
                    timed(table.browser, back, latencies, errors)

            def poll(i, stop_at, latencies, errors):
                # What an open page asks every 4 s: nothing moved, so a 304 to its ETag.
                table = players[i].tables[0]
                path = f"{table.board}/seq"
                table.browser.request("GET", path)
                tag = table.browser.etag or ""
                while time.perf_counter() < stop_at:
                    started = time.perf_counter()
                    status, _ = table.browser.request("GET", path, extra={"If-None-Match": tag})
                    latencies.append(time.perf_counter() - started)
                    if status != 304:
                        errors.append(f"{status} {path}")

            def health(i, stop_at, latencies, errors):
                bench_api.health(bench_api.Client(port), stop_at, latencies, errors)

            def clients(work):
                return lambda turn, seconds: bench_api.run_clients(work, args.clients, seconds)

            # Each phase: run(turn, seconds) gives a slice's latencies, errors and time taken.
            phases = {
                "board, new": lambda turn, seconds: boards_after_moves(players, seconds),
                "board, amid moves": clients(amid_moves),
                "board, again": clients(again),
                "replay page": clients(replay),
                "poll (304)": clients(poll),
                "GET health": clients(health),
            }
            ran = in_slices(phases, args.slices, args.seconds, server.pid)
            results = {
                name: bench_api.figures(name, phase.latencies, phase.seconds, phase.errors)
                for name, phase in ran.items()
            }
            replaced = sum(p.replaced for p in players)
            if replaced:
                print(f"  ({replaced} games ended during the phases and were replaced)")
            ping = results["GET health"]["p50"]
            for name in ("board, new", "board, again", "replay page", "poll (304)"):
                print(
                    f"  {name} p50 / health p50 = {results[name]['p50'] / ping:.2f}"
                    "  (goal: within 3)"
                )
            # Not for the phases with untimed moves in them.
            print_cpu_per_request(
                ran,
                ("board, again", "replay page", "poll (304)"),
                {"poll (304)": "  (goal: within 1.5)"},
            )
            print_slice_ratios(ran, "board, new")
            print(
                f"  board, amid moves p50 / health p50 = "
                f"{results['board, amid moves']['p50'] / ping:.2f}  (for reference: each read "
                "also waits behind other clients' moves)"
            )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
