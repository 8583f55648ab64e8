"""README's first command, `pbem demo`: from nothing to a game against bots, played by the
API, by a reply mail and from the board page, on the embedded defaults (SQLite and mail
files in a fresh instance folder)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import call, play_first_legal, view_if_pending, wait_for
from tests.server.mail_helpers import free_port


def pbem(*args: str, env: dict) -> list[str]:
    return [sys.executable, "-c", "from pbem.cli import main; main()", *args]


@pytest.fixture
def demo(tmp_path):
    """`pbem demo` running, and what it printed up to the summary it gives once serving."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PBEM_", "SMTP", "DATABASE_URL", "TEST_", "SECRET_KEY", "MAIL_"))
    }
    env["PBEM_INSTANCE_PATH"] = str(tmp_path / "instance")
    port = free_port()
    process = subprocess.Popen(
        pbem("demo", "--port", str(port), env=env),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    printed: list[str] = []
    try:
        # The summary comes once the server answers: after its start-up line, not above it.
        for line in process.stdout:
            printed.append(line.rstrip("\n"))
            started = any(p.startswith("El Grande turn server on") for p in printed)
            if started and "pbem mail reply" in line:
                break
        text = "\n".join(printed)
        assert "El Grande turn server on" in text, text
        assert text.index("El Grande turn server on") < text.index("API key:"), text
        yield {"text": text, "env": env, "base": f"http://127.0.0.1:{port}", "tmp": tmp_path}
    finally:
        process.terminate()
        assert process.wait(timeout=20) in (0, -15)


def test_the_demo_game_is_played_by_api_mail_and_page_against_bots(demo, browser):
    text, base = demo["text"], demo["base"]
    game_id = int(re.search(r"demo: game (\d+), you \(red\)", text).group(1))
    key = re.search(r"API key:  (pbem_\S+)", text).group(1)
    link = re.search(r"Board \(this link signs you in\):  (\S+)", text).group(1)
    mail_file = Path(re.search(r"the latest: (\S+\.eml)", text).group(1))
    assert link.startswith(f"{base}/games/{game_id}/sign-in/")
    assert mail_file.parent == demo["tmp"] / "instance" / "mail" and mail_file.exists()

    # A 503 until the in-process scheduler has swept.
    health = wait_for(lambda: call(base, "GET", "/api/health"), 15, "the demo's first sweep")
    assert health["status"] == "ok"

    def my_turn():
        return view_if_pending(base, game_id, key, "red")

    # By the API: play decisions until the bots have answered one within seconds. Red may
    # decide twice running (the highest power card acts first), so a bot's move can take
    # more than one of red's.
    view = wait_for(my_turn, 15, "the bots answering before red's first decision")
    for _ in range(6):
        played = play_first_legal(base, game_id, key)
        assert played["seq"] == view["seq"] + 1
        view = wait_for(my_turn, 20, "the bots answering red's move")
        if view["seq"] > played["seq"]:
            break
    assert view["seq"] > played["seq"], "the bots should have moved since red's last move"

    # By mail: a reply to the latest mail, as a mail client writes it, read by the mail door.
    mails = (demo["tmp"] / "instance" / "mail").glob("*.eml")
    latest = max(mails, key=lambda p: p.stat().st_mtime)
    done = subprocess.run(
        pbem("mail", "reply", str(latest), "moves", env=demo["env"]),
        env=demo["env"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Mail: answered: moves." in done.stdout, done.stdout
    # The answer (the demo's scheduler may have written others at the same time).
    written = [Path(p).read_text() for p in re.findall(r"new mail: (\S+\.eml)", done.stdout)]
    assert any("Reply above this line to play" in mail for mail in written), done.stdout

    # From the page: the link signs you in, and your moves are buttons on it.
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    browser.get(link)  # a seat's link asks first: a page cannot sign anyone in unasked
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(browser, 10).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".who .me"))
    assert browser.find_element(By.CSS_SELECTOR, ".who .me").text == "You"
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.board [data-region]")) == 9
    view = wait_for(my_turn, 20, "red's decision again")
    browser.get(f"{base}/games/{game_id}")
    buttons = browser.find_elements(By.CSS_SELECTOR, "form.moves button[type=submit]")
    assert buttons, browser.page_source[:2000]
    buttons[0].click()
    # A turn's move is planned first: Confirm plays it (a power card plays as it is clicked).
    plan = wait_for(
        lambda: browser.find_elements(By.CSS_SELECTOR, "section.plan button.confirm")
        or call(base, "GET", f"/api/games/{game_id}", key)["seq"] > view["seq"],
        10,
        "the page after the click",
    )
    if plan is not True:
        plan[0].click()
    wait_for(
        lambda: call(base, "GET", f"/api/games/{game_id}", key)["seq"] > view["seq"],
        10,
        "the move clicked on the page",
    )
