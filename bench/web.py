"""Benchmark the board page under gunicorn, beside GET /api/health/live.

Starts gunicorn on a fresh SQLite database (as bench/api.py does), lets each of N clients
play a random game to mid-game through the API and sign in to one of its seats with the
key form, then measures for a while each:

- the board page just after a move (each GET draws a position not seen before). A 6-round
  game ends some 50 to 100 moves after mid-game, far sooner than the phase: a client whose
  game is over goes on with the next of the mid-game games it made beforehand (`--spares`
  each), signing in to it; only when those run out does it make one during the phase
  (untimed). Every GET timed here follows a move just played;
- the board page read again (the drawn board and panel come from the worker's memory);
- a replay page at a late seq (`?seq=` a few moves back: a snapshot plus the moves after);
- GET /api/health/live (what GET /api/health was before it read the database and the
  scheduler's heartbeats: the answer that touches nothing).

    python bench/web.py --clients 8 --seconds 10

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
import time
from pathlib import Path
from urllib.parse import urlencode

_spec = importlib.util.spec_from_file_location("bench_api", Path(__file__).parent / "api.py")
bench_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_api)

MIDGAME_MOVES = 150


class Browser:
    """One keep-alive connection with a cookie, reading pages as a person's browser would."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie: str | None = None

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, text

    def sign_in(self, key: str) -> None:
        _, html = self.request("GET", "/sign-in")
        token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
        status, _ = self.request("POST", "/sign-in", {"csrf_token": token, "api_key": key})
        assert status == 303, status


def play_moves(client, game_id: int, keys: dict, rng: random.Random, count: int) -> int:
    """Play up to `count` random moves through the API; returns the game's seq."""
    _, view = client.call("GET", f"/api/games/{game_id}")
    for _ in range(count):
        if view["status"] != "active":
            break
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        _, legal = client.call("GET", f"/api/games/{game_id}/legal-moves", key=keys[colour])
        status, body = client.call(
            "POST",
            f"/api/games/{game_id}/moves",
            {"expected_seq": legal["seq"], "moves": [rng.choice(legal["moves"])]},
            key=keys[colour],
        )
        view = body["view"] if status == 201 else client.call("GET", f"/api/games/{game_id}")[1]
    return view["seq"]


def midgame(client, rng: random.Random) -> tuple[int, dict, int]:
    """A new game played at random to mid-game, still going: its id, keys and seq."""
    while True:
        game_id, keys = bench_api.new_game(client, rng)
        seq = play_moves(client, game_id, keys, rng, MIDGAME_MOVES)
        if client.call("GET", f"/api/games/{game_id}")[1]["status"] == "active":
            return game_id, keys, seq


def setup(port: int, index: int, games: list, spares: dict, count: int) -> None:
    client = bench_api.Client(port)
    rng = random.Random(index)
    game_id, keys, seq = midgame(client, rng)
    browser = Browser(port)
    browser.sign_in(keys[sorted(keys)[0]])
    games.append((index, game_id, keys, seq, browser, client, rng))
    spares[index] = [midgame(client, rng) for _ in range(count)]


def timed(browser: Browser, path: str, latencies: list, errors: list) -> None:
    started = time.perf_counter()
    status, _ = browser.request("GET", path)
    latencies.append(time.perf_counter() - started)
    if status != 200:
        errors.append(f"{status} {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--spares",
        type=int,
        default=10,
        help="mid-game games each client makes beforehand, to go on with after a game ends",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server, port = bench_api.start_server(
            f"sqlite:///{folder}/bench.sqlite", args.workers, args.threads
        )
        try:
            games: list = []
            spares: dict[int, list] = {}
            bench_api.run_clients(
                lambda i, *rest: setup(port, i, games, spares, args.spares), args.clients, 0
            )
            games.sort(key=lambda g: g[0])
            print(
                f"SQLite: gunicorn {args.workers or 'deploy default'} workers x "
                f"{args.threads or 'deploy default'} threads, {args.clients} clients, "
                f"{args.seconds:g} s each; games at seq " + ", ".join(str(g[3]) for g in games)
            )

            made_during = [0]

            def after_a_move(i, stop_at, latencies, errors):
                _, game_id, keys, seq, _, client, rng = games[i]
                browser = Browser(port)  # signed in to each game it plays here
                browser.sign_in(keys[sorted(keys)[0]])
                while time.perf_counter() < stop_at:
                    played = play_moves(client, game_id, keys, rng, 1)
                    if played == seq:  # the game is over: go on with another at mid-game
                        if not spares[i]:
                            made_during[0] += 1
                            spares[i].append(midgame(client, rng))
                        game_id, keys, seq = spares[i].pop()
                        browser.sign_in(keys[sorted(keys)[0]])
                        continue
                    seq = played
                    timed(browser, f"/games/{game_id}", latencies, errors)

            def again(i, stop_at, latencies, errors):
                _, game_id, _, _, browser, _, _ = games[i]
                while time.perf_counter() < stop_at:
                    timed(browser, f"/games/{game_id}", latencies, errors)

            def replay(i, stop_at, latencies, errors):
                _, game_id, _, seq, browser, _, rng = games[i]
                while time.perf_counter() < stop_at:
                    timed(
                        browser,
                        f"/games/{game_id}?seq={seq - rng.randint(1, 5)}",
                        latencies,
                        errors,
                    )

            def health(i, stop_at, latencies, errors):
                bench_api.health(port, stop_at, latencies, errors)

            results = {}
            for name, work in (
                ("board, new", after_a_move),
                ("board, again", again),
                ("replay page", replay),
                ("GET health", health),
            ):
                latencies, errors, elapsed = bench_api.run_clients(work, len(games), args.seconds)
                results[name] = bench_api.figures(name, latencies, elapsed, errors)
            if made_during[0]:
                print(f"  ({made_during[0]} games made during the first phase: raise --spares)")
            ping = results["GET health"]["p50"]
            for name in ("board, new", "board, again", "replay page"):
                print(
                    f"  {name} p50 / health p50 = {results[name]['p50'] / ping:.2f}"
                    "  (goal: within 3)"
                )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
