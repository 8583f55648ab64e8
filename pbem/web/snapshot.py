"""Screenshots of the board for the README: `python -m pbem.web.snapshot [out_dir]`.

Renders a mid-game board and a finished game (random play from fixed seeds) as standalone
pages, opens them in headless Chromium and saves `board-midgame.png` and `board-finished.png`
(by default into `docs/`). Needs the `dev` extra (selenium) and Debian's chromium and
chromium-driver.
"""

from __future__ import annotations

import base64
import sys
import tempfile
from pathlib import Path
from typing import Any

import engine
from engine.bots import RandomBot, play_random_game
from pbem.web.board import standalone_page

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


def screenshot(driver: Any, page: Path, out: Path) -> None:
    """Open `page` and save a PNG of the whole document, however tall the window is."""
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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out_dir = Path(args[0]) if args else Path("docs")
    out_dir.mkdir(parents=True, exist_ok=True)
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
