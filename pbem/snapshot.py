"""Screenshots of the board for the README: `python -m pbem.snapshot [boards] [out_dir]`;
of the pages served by a real server: `python -m pbem.snapshot pages [out_dir]`.

Renders a mid-game board and a finished game (random play from fixed seeds) as standalone
pages, opens them in headless Chromium and saves `board-midgame.png` and `board-finished.png`
(by default into `docs/`). Needs the `dev` extra (selenium) and Debian's chromium and
chromium-driver.
"""

from __future__ import annotations

import argparse
import base64
import random
import tempfile
import threading
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

import engine
from engine.bots import RandomBot
from engine.driver import play_random_game
from pbem import create_app
from pbem.cli import upgrade_database
from pbem.game.players import hash_api_key, player_by_key_hash
from pbem.web.board import standalone_page
from pbem.web.signin import seat_link

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WINDOW = (1600, 1000)
COLOURS = ["red", "yellow", "green", "blue", "brown"]
# Seeds and a move count that give a board with pieces everywhere and a mobile scoreboard out.
MIDGAME_SEED = 3
MIDGAME_MOVES = 150
FINISHED_SEED = 5

CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def start_chromium(profile_dir: str | Path, window: tuple[int, int] = WINDOW) -> Any:
    """Headless Chromium under Selenium, with a throwaway profile and a fixed window size."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    options.add_argument(f"--window-size={window[0]},{window[1]}")
    # The console's messages, for tests to read (a page refused by its CSP says so there).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


def midgame(seed: int = MIDGAME_SEED, moves: int = MIDGAME_MOVES) -> engine.State:
    """A five-player game played `moves` random moves from `seed`."""
    bot = RandomBot(seed)
    state = engine.new_game(COLOURS, seed=seed)
    for _ in range(moves):
        if engine.is_over(state):
            break
        player = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, player, bot.choose(state, player))
    return state


def finished(seed: int = FINISHED_SEED) -> engine.State:
    state, _ = play_random_game(COLOURS, seed=seed, bot_seed=seed)
    return state


def screenshot(driver: Any, page: Path | None, out: Path) -> None:
    """Open `page` (None: keep the page open now) and save a PNG of the whole document,
    however tall the window is."""
    if page is not None:
        driver.get(page.resolve().as_uri())
    # No scrollbar: it would narrow the layout the capture is measured on.
    driver.execute_script("document.documentElement.style.overflow = 'hidden'")
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
        },
    )
    out.write_bytes(base64.b64decode(shot["data"]))


def _play_over_api(client: Any, game_id: int, keys: dict[str, str], seed: int, moves: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        view = client.get(f"/api/games/{game_id}").get_json()
        if view["status"] != "active":
            return
        colour = rng.choice(sorted({p["player"] for p in view["pending"]}))
        auth = {"Authorization": f"Bearer {keys[colour]}"}
        legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
        body = {"expected_seq": legal["seq"], "moves": [rng.choice(legal["moves"])]}
        client.post(f"/api/games/{game_id}/moves", json=body, headers=auth)


def pages(out_dir: Path) -> None:
    """`web-board.png` (a seat's board page mid-game) and `web-finished.png` (a finished
    game's page), from a real server on a throwaway SQLite database."""
    names = {"red": "Rosa", "yellow": "Yago", "green": "Greta", "blue": "Bruno", "brown": "Nuno"}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/pages.sqlite"})
        upgrade_database(app)
        client = app.test_client()
        keys = {
            c: client.post(
                "/api/players", json={"email": f"{c}@example.org", "name": n}
            ).get_json()["api_key"]
            for c, n in names.items()
        }
        games = {}
        for title, seed, moves in (("Sunday league", 3, 152), ("Winter cup", 5, 5000)):
            body = {
                "title": title,
                "seats": [{"email": f"{c}@example.org", "colour": c} for c in names],
            }
            auth = {"Authorization": f"Bearer {keys['red']}"}
            game_id = client.post("/api/games", json=body, headers=auth).get_json()["id"]
            _play_over_api(client, game_id, keys, seed, moves)
            games[title] = game_id
        server = make_server("127.0.0.1", 0, app, threaded=True)
        base = f"http://127.0.0.1:{server.server_port}"
        app.config["PBEM_BASE_URL"] = base
        threading.Thread(target=server.serve_forever, daemon=True).start()
        driver = start_chromium(Path(tmp) / "profile")
        try:
            mid = games["Sunday league"]
            pending = client.get(f"/api/games/{mid}").get_json()["pending"][0]["player"]
            with app.app_context():
                player = player_by_key_hash(hash_api_key(keys[pending]))
                assert player is not None  # registered above
                link = seat_link(mid, pending, player.id)
            for name, url in (
                ("web-board.png", link),
                ("web-finished.png", f"{base}/games/{games['Winter cup']}"),
            ):
                driver.get(url)
                screenshot(driver, None, out_dir / name)
                print(out_dir / name)
        finally:
            driver.quit()
            server.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pbem.snapshot", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "what",
        nargs="?",
        choices=["boards", "pages"],
        default="boards",
        help="boards: standalone boards (board-*.png); pages: a served game (web-*.png)",
    )
    parser.add_argument("out_dir", nargs="?", type=Path, default=Path("docs"))
    args = parser.parse_args(argv)
    out_dir = args.out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    if args.what == "pages":
        pages(out_dir)
        return 0
    shots = {
        "board-midgame.png": engine.view(midgame(), "red"),
        "board-finished.png": engine.view(finished(), "red"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        driver = start_chromium(Path(tmp) / "profile")
        try:
            for name, view in shots.items():
                page = Path(tmp) / (name + ".html")
                page.write_text(standalone_page(view), encoding="utf-8")
                screenshot(driver, page, out_dir / name)
                print(out_dir / name)
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
