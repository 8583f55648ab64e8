"""README's first command, `pbem demo`: from nothing to a game against bots, played by the
API, by a reply mail and from the board page, on the embedded defaults (SQLite and mail
files in a fresh instance folder). Its terminal is its player's: what it shows first is the
link, the key and the newest mail (a name that stays, whose hint runs as printed), no
migration or request line (they are in its log file; `--verbose` brings them back), a line
for each new mail, and nothing of any seat's secret pick, nor does its log."""

from __future__ import annotations

import logging
import os
import re
import shlex
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from tests.processes import call, play_first_legal, view_if_pending, wait_for
from tests.server.mail_helpers import free_port

ROOT = Path(__file__).resolve().parent.parent
#: The summary's last lines, in this order: they stay on screen.
LAST = ("  Board (this link signs you in):  ", "  API key:  ", "  Your newest mail:  ")
#: A migration's line (Alembic's) and a request's (pbem.logs), in either format.
MIGRATION = re.compile(r"Running upgrade|Context impl")
REQUEST = re.compile(r"\brequest\b.*\bpath\W")


def pbem(*args: str) -> list[str]:
    return [sys.executable, "-c", "from pbem.cli import main; main()", *args]


def headers(path: Path):
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes(), headersonly=True)


def mail_files(tmp: Path) -> list[Path]:
    """The demo's mail files, oldest first, without `latest.eml` (a copy of one)."""
    folder = tmp / "instance" / "mail"
    found = [p for p in folder.glob("*.eml") if p.name != "latest.eml"]
    return sorted(found, key=lambda p: p.stat().st_mtime)


@pytest.fixture
def run_demo(tmp_path):
    """Runs `pbem demo ARGS` from the checkout, as README runs it (its `pbem` not on the
    PATH, stdin not a terminal), and gives what it printed (stdout and stderr as a terminal
    shows them) up to the summary it gives once serving; `lines` goes on filling."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PBEM_", "SMTP", "DATABASE_URL", "TEST_", "SECRET_KEY", "MAIL_"))
    }
    env["PBEM_INSTANCE_PATH"] = str(tmp_path / "instance")
    scripts = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != scripts)
    running = []

    def run(*args: str) -> dict:
        port = free_port()
        process = subprocess.Popen(
            pbem("demo", "--port", str(port), *args),
            env=env,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
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
        running.append((process, reader))
        wait_for(lambda: any(line.startswith(LAST[-1]) for line in lines), 60, "the summary")
        end = next(i for i, line in enumerate(lines) if line.startswith(LAST[-1]))
        return {
            "text": "\n".join(lines[: end + 1]),
            "lines": lines,
            "env": env,
            "base": f"http://127.0.0.1:{port}",
            "tmp": tmp_path,
            "game_id": int(re.search(r"demo: game (\d+), ", "\n".join(lines)).group(1)),
        }

    try:
        yield run
    finally:
        for process, reader in running:
            process.terminate()
            assert process.wait(timeout=20) in (0, -15)
            reader.join(timeout=5)


@pytest.fixture
def demo(run_demo):
    return run_demo()


def test_the_terminal_shows_the_link_the_key_and_the_newest_mail_and_the_log_the_rest(demo):
    """One demo for both: its first seconds on the terminal, then its log file."""
    first_seconds_show_the_link_the_key_and_the_newest_mail_and_no_log(demo)
    the_log_is_plain_lines_without_the_board_page_poll(demo)


def first_seconds_show_the_link_the_key_and_the_newest_mail_and_no_log(demo):
    time.sleep(3)  # the first sweeps, mail passes and the health check have logged by now
    shown = list(demo["lines"])
    summary = demo["text"].split("El Grande demo: game", 1)[1].splitlines()
    assert [line.split(":  ")[0] + ":  " for line in summary[-3:]] == list(LAST), summary
    latest = Path(summary[-1].split(":  ", 1)[1])
    assert latest == demo["tmp"] / "instance" / "mail" / "latest.eml"
    assert latest.read_bytes() == mail_files(demo["tmp"])[-1].read_bytes()
    assert re.match(r"pbem_\S{20,}$", summary[-2].split(":  ", 1)[1]), summary
    assert "/sign-in/" in summary[-3]
    # Stdin is no terminal: nobody is asked, and the player is given a name, not "You".
    assert "Isabel (red) against 2 bots" in demo["text"], demo["text"]
    # Nothing of the log on the terminal, and nothing after the summary until a mail comes.
    assert not [line for line in shown if MIGRATION.search(line) or REQUEST.search(line)], shown
    assert not [line for line in shown[len(demo["text"].splitlines()) :] if line.strip()], shown
    # They are in the log file the terminal names.
    log = Path(re.search(r"^  Log \(.+\): (\S+); ", demo["text"], re.M).group(1))
    assert log == demo["tmp"] / "instance" / "demo.log"
    logged = log.read_text()
    assert "Running upgrade" in logged and "request method=GET path=/api/health/live" in logged


def test_verbose_brings_the_migrations_and_the_requests_back_to_the_terminal(run_demo):
    demo = run_demo("--verbose", "--name", "Ana")
    assert MIGRATION.search(demo["text"]), demo["text"]
    wait_for(lambda: any(REQUEST.search(line) for line in demo["lines"]), 10, "a request")
    assert "Ana (red) against 2 bots" in demo["text"], demo["text"]
    # And in the log file still.
    assert "Running upgrade" in (demo["tmp"] / "instance" / "demo.log").read_text()


def test_the_hints_run_as_printed_and_the_game_is_played_by_api_mail_and_page(demo, browser):
    """One demo for both: its hints run as printed (before anything else writes mail),
    then the game played by every door."""
    the_hints_run_as_printed_and_the_mail_one_answers_the_newest_mail(demo)
    the_demo_game_is_played_by_api_mail_and_page_against_bots(demo, browser)


def the_hints_run_as_printed_and_the_mail_one_answers_the_newest_mail(demo):
    text, env, game_id = demo["text"], demo["env"], demo["game_id"]
    mail_hint = re.search(r"^    (.+ mail reply .+)$", text, re.M).group(1)
    program, _, rest = mail_hint.partition(" mail reply ")
    # README's command leaves `pbem` off the PATH: the hints name the script's path.
    if Path(sys.executable).parent == ROOT / ".venv" / "bin":
        assert program == ".venv/bin/pbem", mail_hint
    assert f"`{program} demo`" in text and f"`{program} serve`" in text, text
    latest = Path(shlex.split(rest)[0])
    assert latest.name == "latest.eml"
    newest = mail_files(demo["tmp"])[-1]
    assert headers(latest)["Message-ID"] == headers(newest)["Message-ID"]
    assert "Isabel, you play red" in newest.read_text()  # the mails greet the player by name

    done = subprocess.run(
        ["bash", "-c", mail_hint], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Mail: answered: moves." in done.stdout, done.stdout
    assert not done.stderr, done.stderr  # its log line went to the demo's log
    written = [Path(p) for p in re.findall(r"new mail: (\S+\.eml)", done.stdout)]
    answer = next(p for p in written if "Reply above this line to play" in p.read_text())
    assert str(headers(newest)["Message-ID"]) in str(headers(answer)["References"])
    # The demo's terminal says it in one line, naming where the newest mail always is.
    said = wait_for(
        lambda: [line for line in demo["lines"] if line.startswith("New mail")], 15, "its line"
    )
    assert said == [f"New mail, game {game_id}: your mail ({latest})"], said

    curl = shlex.split(re.search(r"^    (curl .+)$", text, re.M).group(1))
    assert curl[:2] == ["curl", "-H"] and len(curl) == 4, curl
    name, value = curl[2].split(": ", 1)
    with urllib.request.urlopen(urllib.request.Request(curl[3], headers={name: value})) as r:
        assert r.status == 200 and b'"moves"' in r.read()


def the_log_is_plain_lines_without_the_board_page_poll(demo):
    base, game_id = demo["base"], demo["game_id"]
    log = demo["tmp"] / "instance" / "demo.log"
    with urllib.request.urlopen(f"{base}/games/{game_id}/seq") as seq:
        etag = seq.headers["ETag"]
    with pytest.raises(urllib.error.HTTPError) as not_modified:
        urllib.request.urlopen(
            urllib.request.Request(f"{base}/games/{game_id}/seq", headers={"If-None-Match": etag})
        )
    assert not_modified.value.code == 304
    with urllib.request.urlopen(f"{base}/games/{game_id}") as page:  # this one is logged
        page.read()
    wait_for(lambda: f"path=/games/{game_id} " in log.read_text(), 10, "the page's line")
    lines = log.read_text().splitlines()
    logged = [line for line in lines if " request " in line]
    assert logged and not [line for line in lines if line.startswith("{")], lines
    assert not [line for line in logged if "/seq" in line], logged
    assert not [line for line in demo["lines"] if REQUEST.search(line)], demo["lines"]


def the_demo_game_is_played_by_api_mail_and_page_against_bots(demo, browser):
    text, base, game_id = demo["text"], demo["base"], demo["game_id"]
    assert f"demo: game {game_id}, Isabel (red)" in text
    key = re.search(r"API key:  (pbem_\S+)", text).group(1)
    link = re.search(r"Board \(this link signs you in\):  (\S+)", text).group(1)
    assert link.startswith(f"{base}/games/{game_id}/sign-in/")

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

    # By mail: a reply to the newest mail, as a mail client writes it, read by the mail door.
    latest = demo["tmp"] / "instance" / "mail" / "latest.eml"
    done = subprocess.run(
        pbem("mail", "reply", str(latest), "moves"),
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
    assert browser.find_element(By.CSS_SELECTOR, ".who .me").text == "Isabel"
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


#: Move types whose fields the table does not see (yet): `engine.moves`' secret forms.
HIDDEN = ("castillo_pick", "secret_pick", "return_power_card")
#: A game whose greedy bots put caballeros in the Castillo by round 3, so that a bot picks
#: its region in secret at round 3's end, while red leans to the Castillo too.
CASTILLO_SEED = 7


@pytest.fixture
def demo_loggers():
    """The loggers `log_to_file` takes over, given back as they were (the next test's)."""
    from pbem.demo import LOGGERS

    kept = {name: logging.getLogger(name) for name in LOGGERS}
    before = {name: (list(lg.handlers), lg.propagate, lg.level) for name, lg in kept.items()}
    yield
    for name, logger in kept.items():
        handlers, propagate, level = before[name]
        for handler in set(logger.handlers) - set(handlers):
            logger.removeHandler(handler)
            handler.close()
        for handler in handlers:
            if handler not in logger.handlers:
                logger.addHandler(handler)
        logger.propagate, logger.level = propagate, level


def castillo_by_a_bot(row) -> bool:
    return row.colour != "red" and row.move["type"] == "castillo_pick"


def red_plays(client, game_id: int, auth: dict) -> bool:
    """Red's move when red must act, leaning to the Castillo (else the first legal one)."""
    legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
    if not legal["moves"]:
        return False
    move = next((m for m in legal["moves"] if m.get("to") == "castillo"), legal["moves"][0])
    body = {"expected_seq": legal["seq"], "moves": [move]}
    answer = client.post(f"/api/games/{game_id}/moves", json=body, headers=auth)
    assert answer.status_code == 201, answer.get_json()
    return True


def test_no_line_of_the_terminal_or_the_log_names_a_secret_pick(
    tmp_path, monkeypatch, capsys, demo_loggers
):
    """The demo in-process, as `pbem demo` wires it (its log file at DEBUG, its mail watch
    printing), played past the bots' first Castillo picks: those are said only as picks."""
    import engine
    from pbem import create_app
    from pbem.cli import upgrade_database
    from pbem.demo import MailWatch, log_to_file, quiet_polls, start_demo
    from pbem.extensions import db
    from pbem.schedule import runner
    from pbem.store.models import Move

    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setattr("pbem.play.lifecycle.secrets.randbits", lambda bits: CASTILLO_SEED)
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/demo.sqlite",
            "PBEM_LOG_FORMAT": "text",
            "PBEM_LOG_LEVEL": "DEBUG",  # every line the log can hold
            "PBEM_BASE_URL": "http://127.0.0.1:5999",
        }
    )
    quiet_polls(app)
    log = log_to_file(app)
    upgrade_database(app)
    demo = start_demo(app, "http://127.0.0.1:5999", "Ana")
    print(demo)
    watch = MailWatch(app)
    client, auth = app.test_client(), {"Authorization": f"Bearer {demo.api_key}"}

    def hidden_moves() -> list[Move]:
        with app.app_context():
            query = db.select(Move).where(Move.game_id == demo.game_id).order_by(Move.seq)
            rows = db.session.execute(query).scalars().all()
            return [row for row in rows if row.move["type"] in HIDDEN]

    for _ in range(400):  # the sweep, the mail pass and red, as the scheduler and a person
        # The scheduler's own jobs, not `sweep()`: they are what logs the sweep's lines.
        runner._sweep_job(app)
        runner._mail_job(app)
        said = watch.news()
        if said:
            print(said)
        if [row for row in hidden_moves() if castillo_by_a_bot(row)]:
            break
        red_plays(client, demo.game_id, auth)
    picks = hidden_moves()
    by_bots = [row for row in picks if castillo_by_a_bot(row)]
    assert by_bots, f"no bot picked in the Castillo with seed {CASTILLO_SEED}: choose another"
    out = capsys.readouterr()
    shown = out.out + out.err + log.read_text()
    assert "New mail, game " in out.out  # the terminal did say things, one of them a mail
    named = [engine.format_move(row.move) for row in picks]  # "castillo aragon"
    assert not [pick for pick in named if pick in shown], (named, shown[-3000:])
    # Said, as a pick: the log still tells the operator what the bots did.
    assert f"the bot played Castillo disk (secret) for {by_bots[0].colour}" in shown
