"""README's first command, `pbem demo`: from nothing to a game against bots, played by the
API, by a reply mail and from the board page, on the embedded defaults (SQLite and mail
files in a fresh instance folder); its hints run as printed from where README runs it, what
it prints last is the link, the key and the mail folder, and its log is plain lines without
the board page's poll."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.processes import call, play_first_legal, view_if_pending, wait_for
from tests.server.mail_helpers import free_port

ROOT = Path(__file__).resolve().parent.parent
#: The summary's last lines, in this order: they stay on screen.
LAST = ("  Board (this link signs you in):  ", "  API key:  ", "  Mails to you are written to:  ")


def pbem(*args: str, env: dict) -> list[str]:
    return [sys.executable, "-c", "from pbem.cli import main; main()", *args]


@pytest.fixture
def demo(tmp_path):
    """`pbem demo` running from the checkout, as README runs it (its `pbem` not on the PATH),
    and what it printed (stdout and stderr as a terminal shows them) up to the summary it
    gives once serving; `lines` goes on filling as it runs."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PBEM_", "SMTP", "DATABASE_URL", "TEST_", "SECRET_KEY", "MAIL_"))
    }
    env["PBEM_INSTANCE_PATH"] = str(tmp_path / "instance")
    scripts = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != scripts)
    port = free_port()
    process = subprocess.Popen(
        pbem("demo", "--port", str(port), env=env),
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []

    def read() -> None:
        for line in process.stdout:
            lines.append(line.rstrip("\n"))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        # The summary comes once the server answers: after its start-up line, not above it.
        wait_for(lambda: any(line.startswith(LAST[-1]) for line in lines), 60, "the summary")
        end = next(i for i, line in enumerate(lines) if line.startswith(LAST[-1]))
        text = "\n".join(lines[: end + 1])
        assert "El Grande turn server on" in text, text
        assert text.index("El Grande turn server on") < text.index("API key:"), text
        yield {
            "text": text,
            "lines": lines,
            "env": env,
            "base": f"http://127.0.0.1:{port}",
            "tmp": tmp_path,
        }
    finally:
        process.terminate()
        assert process.wait(timeout=20) in (0, -15)
        reader.join(timeout=5)


def test_the_summary_ends_with_the_link_the_key_and_the_mail_folder(demo):
    summary = demo["text"].split("El Grande demo:", 1)[1].splitlines()
    assert [line.split(":  ")[0] + ":  " for line in summary[-3:]] == list(LAST), summary
    assert Path(summary[-1].split(":  ", 1)[1]) == demo["tmp"] / "instance" / "mail"
    # Nothing of the start-up comes after it: the server's line and the first log are above.
    assert demo["text"].index("El Grande turn server on") < demo["text"].index("El Grande demo:")


def test_the_hints_run_as_printed_from_where_readme_runs_the_demo(demo):
    text, env = demo["text"], demo["env"]
    mail_hint = re.search(r"^    (.+ mail reply .+)$", text, re.M).group(1)
    program = mail_hint.split(" mail reply ")[0]
    # README's command leaves `pbem` off the PATH: the hints name the script's path.
    if Path(sys.executable).parent == ROOT / ".venv" / "bin":
        assert program == ".venv/bin/pbem", mail_hint
    assert f"`{program} demo`" in text and f"`{program} serve`" in text, text
    done = subprocess.run(
        ["bash", "-c", mail_hint], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Mail: answered: moves." in done.stdout, done.stdout

    curl = shlex.split(re.search(r"^    (curl .+)$", text, re.M).group(1))
    assert curl[:2] == ["curl", "-H"] and len(curl) == 4, curl
    name, value = curl[2].split(": ", 1)
    with urllib.request.urlopen(urllib.request.Request(curl[3], headers={name: value})) as r:
        assert r.status == 200 and b'"moves"' in r.read()


def test_the_log_is_plain_lines_without_the_board_page_poll(demo):
    base, lines = demo["base"], demo["lines"]
    game_id = int(re.search(r"demo: game (\d+)", demo["text"]).group(1))
    with urllib.request.urlopen(f"{base}/games/{game_id}/seq") as seq:
        etag = seq.headers["ETag"]
    with pytest.raises(urllib.error.HTTPError) as not_modified:
        urllib.request.urlopen(
            urllib.request.Request(f"{base}/games/{game_id}/seq", headers={"If-None-Match": etag})
        )
    assert not_modified.value.code == 304
    with urllib.request.urlopen(f"{base}/games/{game_id}") as page:  # this one is logged
        page.read()
    wait_for(
        lambda: any(f"path=/games/{game_id} " in line for line in lines), 10, "the page's line"
    )
    logged = [line for line in lines if " request " in line]
    assert logged and not [line for line in lines if line.startswith("{")], lines
    assert not [line for line in logged if "/seq" in line], logged


def test_the_demo_game_is_played_by_api_mail_and_page_against_bots(demo, browser):
    text, base = demo["text"], demo["base"]
    game_id = int(re.search(r"demo: game (\d+), you \(red\)", text).group(1))
    key = re.search(r"API key:  (pbem_\S+)", text).group(1)
    link = re.search(r"Board \(this link signs you in\):  (\S+)", text).group(1)
    mail_file = Path(shlex.split(re.search(r" mail reply (.+)$", text, re.M).group(1))[0])
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
        lambda: (
            browser.find_elements(By.CSS_SELECTOR, "section.plan button.confirm")
            or call(base, "GET", f"/api/games/{game_id}", key)["seq"] > view["seq"]
        ),
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


def test_the_sweeps_line_says_a_secret_pick_by_its_kind_alone():
    """Where a bot's (or a timeout's) moves are worded for the log and `pbem sweep`: a pick
    the table has not seen is not named, whichever seat made it; the rest is notation."""
    from pbem.play.due import public_moves

    moves = [
        {"type": "castillo_pick", "region": "aragon"},
        {"type": "secret_pick", "region": "galicia"},
        {"type": "return_power_card", "card": 5},
        {"type": "play_power_card", "card": 9},
    ]
    said = public_moves("blue", moves)
    assert said == (
        "Castillo disk (secret); secret disk (secret); take back a power card (secret); power 9"
    )
    assert not re.search(r"aragon|galicia|5", said), said
