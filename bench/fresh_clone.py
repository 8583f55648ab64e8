"""From `git clone` to a playable game page, timed: README's first command on a fresh clone.

Clones the repository into a temporary folder, runs the first `sh` block of README's "Play
a game against bots" section there (a new venv, `pip install -e .`, `pbem demo`), waits for
the board link it prints, opens it in headless Chromium and waits for the board and the
move buttons, then saves a screenshot.

    python bench/fresh_clone.py [--repo .] [--out docs/demo-board.png] [--no-pip-cache]

Prints the time of each stage and the total. Figures, not a test. pip's cache makes the
install much faster; --no-pip-cache measures a machine that has never installed it.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def first_command(readme: str) -> str:
    section = readme.split("## Play a game against bots", 1)[1]
    return re.search(r"```sh\n(.*?)\n```", section, flags=re.DOTALL).group(1).strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", default=str(ROOT), help="what to clone (a path or URL)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "demo-board.png"))
    parser.add_argument("--no-pip-cache", action="store_true")
    args = parser.parse_args()

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from pbem.snapshot import start_chromium

    work = Path(tempfile.mkdtemp(prefix="pbem-fresh-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "DATABASE_URL"))}
    if args.no_pip_cache:
        env["PIP_NO_CACHE_DIR"] = "1"
    started = time.perf_counter()
    stages: list[tuple[str, float]] = []

    def stage(name: str) -> None:
        stages.append((name, time.perf_counter() - started))
        print(f"  {name}: {stages[-1][1]:.1f} s", flush=True)

    subprocess.run(["git", "clone", "--quiet", args.repo, str(work / "elgrande")], check=True)
    clone = work / "elgrande"
    stage("cloned")
    command = first_command((clone / "README.md").read_text(encoding="utf-8"))
    port = free_port()
    command = command.replace("pbem demo", f"pbem demo --port {port}")
    print(f"$ {command}", flush=True)
    demo = subprocess.Popen(
        ["sh", "-c", command],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    link = None
    try:
        for line in demo.stdout:
            if "pbem demo" in line or "Successfully installed" in line:
                continue
            # The link comes last, once the server answers.
            found = re.search(r"Board \(this link signs you in\):\s+(\S+)", line)
            if found:
                link = found.group(1)
                stage("installed, game made, link printed")
                break
        if not link:
            raise SystemExit("pbem demo printed no board link")
        driver = start_chromium(work / "chromium")
        try:
            for _ in range(100):  # until waitress listens
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            driver.get(link)
            # A seat's link asks before it signs in: its "Sign in" button, as a person presses.
            for button in driver.find_elements(By.CSS_SELECTOR, "form.seat-sign-in button"):
                button.click()
                break
            WebDriverWait(driver, 30).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, "svg.board [data-region]")
                and d.find_elements(By.CSS_SELECTOR, "form.moves button")
            )
            stage("board page with your moves in Chromium")
            height = driver.execute_script("return document.body.scrollHeight")
            driver.set_window_size(1280, min(max(height, 800), 1600))
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(args.out)
        finally:
            driver.quit()
    finally:
        os.killpg(demo.pid, signal.SIGTERM)
        demo.wait(timeout=20)
    print(f"From clone to a playable page: {stages[-1][1]:.1f} s; screenshot: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
