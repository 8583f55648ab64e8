"""`pbem demo`: a game against two house bots on this machine, to play within a minute.

It uses the embedded defaults (SQLite and mail as `.eml` files in the instance folder), makes
a player for you (named with `--name`, asked at a terminal, else `DEFAULT_NAME`) with a
fresh API key, starts a game with bots on the other seats, and says the three ways in: the
board's sign-in link, the API key, and your newest mail (`instance/mail/latest.eml`) with
how to answer it (`pbem mail reply`). Its terminal is its player's: requests, migrations and
the scheduler's lines go to the instance folder's `demo.log` (`--verbose`: here too), the
link, the key and the newest mail come last, and a new mail for you is said in one line.
Its hints name `pbem` as it was run (README's command, `.venv/bin/pbem demo`, puts nothing
on the PATH).
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import re
import shlex
import shutil
import sys
import threading
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path

from flask import Flask, has_request_context, request

from pbem.extensions import db
from pbem.game.players import add_player, hash_api_key, new_api_key
from pbem.logs import JsonFormatter, TextFormatter, log_to
from pbem.notify.sender import deliver_due, latest_mail, mail_files, written_since
from pbem.play.accounts import rename
from pbem.play.asked import SeatAsked
from pbem.play.lifecycle import create_game, create_learning_game
from pbem.schedule.sweep import sweep
from pbem.store.models import Player
from pbem.web.signin import seat_link

#: What an open board page asks every 4 s (`/games/<id>/seq`): its requests are not logged
#: in the demo.
POLL_ENDPOINT = "web.game_seq"

#: Your address and seat, and the bots' seats, in seat order.
YOUR_EMAIL, YOUR_COLOUR = "you@example.org", "red"
BOT_COLOURS = ("blue", "green")
#: Your name when you give none: a name, as the other seats' players see it and the mails
#: greet you ("Isabel, you play red"), and Castile's queen's.
DEFAULT_NAME = "Isabel"
TITLE = "Demo: you against two bots"
LEARN_TITLE = "Learning El Grande: you against two bots"

#: The demo's log, in the instance folder: a 5 MB file and one before it, so that a demo left
#: running for weeks keeps 10 MB at most.
LOG_FILE = "demo.log"
LOG_BYTES = 5_000_000
#: The loggers the demo's log holds, each at its level (None: PBEM_LOG_LEVEL, as set): the
#: app's lines (requests, the sweep, mail in), Alembic's migrations, the servers' warnings
#: (APScheduler's "missed by" on a busy machine), which would otherwise reach the terminal.
LOGGERS: dict[str, int | None] = {
    "pbem": None,
    "alembic": logging.INFO,
    "flask_migrate": logging.INFO,
    "waitress": logging.INFO,
    "apscheduler": logging.WARNING,
}


@dataclass
class Demo:
    game_id: int
    colour: str
    name: str
    api_key: str
    board_link: str
    base_url: str
    latest_mail: Path
    log_file: Path | None = None
    mails: list[Path] = field(default_factory=list)
    learn: bool = False

    def __str__(self) -> str:
        pbem = pbem_command()
        latest = shown_path(self.latest_mail)
        lines = [
            f"El Grande demo: game {self.game_id}, {self.name} ({self.colour}) against "
            f"{len(BOT_COLOURS)} bots on {self.base_url}.",
            "The bots answer within seconds; a line here says each new mail to you.",
            *(
                ["This game teaches: each new kind of decision is explained the first time."]
                if self.learn
                else []
            ),
            "",
            "  On the board: the link below signs you in.",
            f"  By mail: answer your newest mail (always {latest}) as a mail client",
            '  would, with your moves instead of "moves" (e.g. "power 9"):',
            f"    {pbem} mail reply {shlex.quote(latest)} moves",
            "  By the API:",
            f'    curl -H "Authorization: Bearer {self.api_key}" '
            f"{self.base_url}/api/games/{self.game_id}/legal-moves",
        ]
        if self.log_file is not None:
            lines.append(
                f"  Log (requests, migrations, the bots' moves): {shown_path(self.log_file)}; "
                f"`{pbem} demo --verbose` shows it here too."
            )
        lines += [
            f"  Ctrl-C stops it; `{pbem} demo` makes another game (`--learn`: one that "
            f"teaches), `{pbem} serve` serves without one.",
            "",
            f"  Board (this link signs you in):  {self.board_link}",
            f"  API key:  {self.api_key}",
            f"  Your newest mail:  {latest}",
        ]
        return "\n".join(lines)


def shown_path(path: Path) -> str:
    """`path` as the demo's hints name it: relative to the working directory when it lies
    under it (`instance/mail/latest.eml`, as README runs the demo), else whole."""
    try:
        return str(path.absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path.absolute())


def pbem_command() -> str:
    """How to run `pbem` from where the demo was started, for the hints it prints: `pbem`
    when that name on the PATH is this very script, else the script's path, relative to the
    working directory when it lies under it (`.venv/bin/pbem`, as README runs it)."""
    scripts = [Path(sys.argv[0])] if Path(sys.argv[0]).name == "pbem" else []
    scripts.append(Path(sys.executable).parent / "pbem")
    script = next((s for s in scripts if s.is_file()), None)
    if script is None:  # not installed as a script (run as python -m pbem.cli)
        return f"{shlex.quote(sys.executable)} -m pbem.cli"
    on_path = shutil.which("pbem")
    if on_path and os.path.samefile(on_path, script):
        return "pbem"
    return shlex.quote(shown_path(script))


class _NotThePoll(logging.Filter):
    """Drops the request lines of the board page's poll."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.getMessage() == "request"
            and has_request_context()
            and request.endpoint == POLL_ENDPOINT
        )


def quiet_polls(app: Flask) -> None:
    """The demo's log without a line for each poll of an open board page (`pbem serve` and
    gunicorn log every request)."""
    app.logger.addFilter(_NotThePoll())


def log_to_file(app: Flask, verbose: bool = False) -> Path:
    """The demo's log lines (`LOGGERS`) to the instance folder's `demo.log`, and with
    `verbose` to stderr too, as `pbem serve` writes them: the terminal is its player's, and
    a line per request buried the link and the key. Before the database is upgraded, so
    that the migrations' lines go there too (`pbem/migrations/env.py` keeps these)."""
    path = Path(app.instance_path) / LOG_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    handlers: list[logging.Handler] = [
        logging.handlers.RotatingFileHandler(
            path, maxBytes=LOG_BYTES, backupCount=1, encoding="utf-8"
        )
    ]
    if verbose:
        handlers.append(logging.StreamHandler(sys.stderr))
    # A person reads it, in the file as on the terminal: lines, unless JSON is asked for.
    json = app.config["PBEM_LOG_FORMAT"] == "json"
    for handler in handlers:
        handler.setFormatter(JsonFormatter() if json else TextFormatter())
    for name, level in LOGGERS.items():
        logger = logging.getLogger(name)
        log_to(logger, handlers)
        if level is not None:
            logger.setLevel(level)
    return path


def has_player(app: Flask) -> bool:
    """Whether an earlier demo on this instance folder made your player (and named you)."""
    with app.app_context():
        return _you() is not None


def _you() -> Player | None:
    return db.session.execute(
        db.select(Player).where(Player.email == YOUR_EMAIL)
    ).scalar_one_or_none()


def start_demo(app: Flask, base_url: str, name: str | None = None, learn: bool = False) -> Demo:
    """Your player (its key kept in the instance folder, so that a second demo prints the
    same one; `name` renames it, else an earlier demo's name stays), a new game against
    bots (`learn`: a game that teaches, `create_learning_game`), and its first mails."""
    before = mail_files(app)
    with app.app_context():
        you = _you()
        key = _demo_key(app, you)
        if you is None:
            you, key = add_player(YOUR_EMAIL, name or DEFAULT_NAME)
        elif key is None:  # its key was not kept (or changed since): a fresh one to print
            key, you.api_key_hash = new_api_key()
        if name:
            rename(you, name)
        _keep_demo_key(app, key)
        seats: list[SeatAsked] = [{"email": YOUR_EMAIL, "colour": YOUR_COLOUR}]
        # Greedy bots: they answer at once, where the strong one searches for seconds.
        seats += [{"colour": c, "bot": True, "level": "greedy"} for c in BOT_COLOURS]
        # The operator's own game, which invites no one: not counted against the day's cap.
        if learn:
            game = create_learning_game(you, LEARN_TITLE, capped=False)
        else:
            game = create_game(you, TITLE, seats, options={}, capped=False)
        db.session.commit()
        game_id, named = game.id, you.name
        sweep()  # the bots' first answers, if the game opens with theirs
        deliver_due()
        link = seat_link(game_id, YOUR_COLOUR, you.id)
    return Demo(
        game_id,
        YOUR_COLOUR,
        named,
        key,
        link,
        base_url,
        latest_mail(app),
        mails=written_since(app, before),
        learn=learn,
    )


def _key_file(app: Flask) -> Path:
    return Path(app.instance_path) / "demo_api_key"


def _demo_key(app: Flask, you: Player | None) -> str | None:
    """The key an earlier demo printed, kept in the instance folder, while it is still the
    player's: a second demo does not revoke the key of the game the first one made."""
    try:
        key = _key_file(app).read_text().strip()
    except OSError:
        return None
    return key if you is not None and hash_api_key(key) == you.api_key_hash else None


def _keep_demo_key(app: Flask, key: str) -> None:
    path = _key_file(app)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)  # only its owner reads it
    path.write_text(key + "\n")


class MailWatch:
    """The new mails to you, said in one line each time some came (`news`): the terminal
    stays quiet otherwise, and says no more than the mail's subject, which is yours."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.seen = mail_files(app)

    def news(self) -> str | None:
        """A line for the mails to you written since the last call, or None."""
        read = {path: _headers(path) for path in written_since(self.app, self.seen)}
        # A file still being written (its headers not all there yet) is read next time.
        self.seen.update(path for path, (to, subject) in read.items() if to and subject)
        mine = [path for path, (to, subject) in read.items() if to == YOUR_EMAIL and subject]
        if not mine:
            return None
        subject = read[mine[-1]][1]
        # "[El Grande #3] Demo: you against two bots: Play a power card for this round"
        ours = re.fullmatch(rf"\[El Grande #(\d+)\] (?:{re.escape(TITLE)}: )?(.+)", subject)
        said = f"game {ours.group(1)}: {ours.group(2)}" if ours else subject
        more = f"; {len(mine) - 1} more before it" if len(mine) > 1 else ""
        return f"New mail, {said} ({shown_path(latest_mail(self.app))}{more})"

    def follow(self, stop: threading.Event, every: float = 1.0) -> None:
        """Print `news` every `every` seconds until `stop` is set (a daemon thread's loop)."""
        while not stop.wait(every):
            line = self.news()
            if line:
                print(line, flush=True)


def _headers(path: Path) -> tuple[str, str]:
    """A mail file's recipient address and subject ('' for what it lacks or cannot read)."""
    try:
        with path.open("rb") as mail:
            parsed = BytesParser(policy=policy.default).parse(mail, headersonly=True)
    except OSError:  # pruned or replaced meanwhile
        return "", ""
    to = parsed["To"]
    address = to.addresses[0].addr_spec if to is not None and to.addresses else ""
    return address, " ".join(str(parsed["Subject"] or "").split())
