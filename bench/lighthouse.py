"""Lighthouse's accessibility and best-practices scores on the pages people use:
`python bench/lighthouse.py [--lighthouse PATH]`.

Serves the app on a throwaway SQLite database with a game in play and a finished one, and
runs Lighthouse (from the npm registry: `npm install lighthouse@12` somewhere, then pass its
`node_modules/.bin/lighthouse`; by default `npx --yes lighthouse@12`) with Debian's
chromium on the home page signed out and in, signing in, the rules, a game signed out and
as a seat, and a finished game. Prints each page's two scores (the game issue's goal: 98
and more) and the audits that failed. Figures, not a test.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shlex
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import add_players  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from pbem import create_app  # noqa: E402
from pbem.cli import upgrade_database  # noqa: E402
from pbem.game.players import hash_api_key, player_by_key_hash  # noqa: E402
from pbem.snapshot import CHROMIUM, _play_over_api  # noqa: E402
from pbem.web.signin import seat_link  # noqa: E402

NAMES = {"red": "Rosa", "yellow": "Yago", "green": "Greta"}


def _games(app, client) -> tuple[int, int, str]:
    """A game in play and a finished one; the sign-in link of the seat to act in the first."""
    made = add_players(app, {f"{c}@example.org": n for c, n in NAMES.items()})
    keys = {c: made[f"{c}@example.org"] for c in NAMES}
    ids = []
    for title, seed, moves, rounds in (("In play", 3, 60, 9), ("Finished", 5, 5000, 6)):
        seats = [{"email": f"{c}@example.org", "colour": c} for c in NAMES]
        body = {"title": title, "seats": seats, "options": {"rounds": rounds}}
        auth = {"Authorization": f"Bearer {keys['red']}"}
        game_id = client.post("/api/games", json=body, headers=auth).get_json()["id"]
        _play_over_api(client, game_id, keys, seed, moves)
        ids.append(game_id)
    pending = client.get(f"/api/games/{ids[0]}").get_json()["pending"][0]["player"]
    with app.app_context():
        player = player_by_key_hash(hash_api_key(keys[pending]))
        assert player is not None
        link = seat_link(ids[0], pending, player.id)
    return ids[0], ids[1], link


def _score(command: list[str], url: str, cookie: str | None) -> str:
    run = [*command, url, "--quiet", "--output=json"]
    run += ["--only-categories=accessibility,best-practices"]
    run += ["--chrome-flags=--headless=new --no-sandbox --disable-gpu"]
    if cookie:
        run.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    answer = subprocess.run(
        run, capture_output=True, text=True, env={**os.environ, "CHROME_PATH": CHROMIUM}
    )
    try:
        report = json.loads(answer.stdout)
    except ValueError:
        return "lighthouse failed: " + answer.stderr[-300:]
    scores = {k: round(v["score"] * 100) for k, v in report["categories"].items()}
    failed = [
        name
        for name, audit in report["audits"].items()
        if audit.get("scoreDisplayMode") == "binary" and audit.get("score") == 0
    ]
    return (
        f"accessibility {scores['accessibility']:3}  best-practices "
        f"{scores['best-practices']:3}  failed: {', '.join(failed) or 'none'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", default="npx --yes lighthouse@12")
    command = shlex.split(parser.parse_args().lighthouse)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/lighthouse.sqlite"})
        upgrade_database(app)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        base = f"http://127.0.0.1:{server.server_port}"
        app.config["PBEM_BASE_URL"] = base  # the seat's link points here
        in_play, finished, link = _games(app, app.test_client())
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            # The seat's link signs in: its session cookie, for the pages seen as the seat.
            connection = http.client.HTTPConnection("127.0.0.1", server.server_port)
            connection.request("GET", urlsplit(link).path)
            cookie = connection.getresponse().getheader("Set-Cookie", "").split(";")[0]
            pages = {
                "home": (f"{base}/", None),
                "sign-in": (f"{base}/sign-in", None),
                "rules": (f"{base}/rules", None),
                "game, signed out": (f"{base}/games/{in_play}", None),
                "finished game": (f"{base}/games/{finished}", None),
                "game, as a seat": (f"{base}/games/{in_play}", cookie),
                "home, signed in": (f"{base}/", cookie),
            }
            for name, (url, with_cookie) in pages.items():
                print(f"{name:17} {_score(command, url, with_cookie)}", flush=True)
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
