"""`pbem demo`: a game against two house bots on this machine, to play within a minute.

It uses the embedded defaults (SQLite and mail as `.eml` files in the instance folder), makes
a player for you with a fresh API key, starts a game with bots on the other seats, and says
the three ways in: the board's sign-in link, the API key, and the mail files with how to
answer one (`pbem mail reply`). Its hints name `pbem` as it was run (README's command,
`.venv/bin/pbem demo`, puts nothing on the PATH), the link, the key and the mail folder
come last, and its log is plain text without the board page's poll, so they stay on screen.
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, has_request_context, request

from pbem.extensions import db
from pbem.game.players import add_player, hash_api_key, new_api_key
from pbem.notify.sender import deliver_due, mail_files, mail_folder, written_since
from pbem.play.asked import SeatAsked
from pbem.play.lifecycle import create_game
from pbem.schedule.sweep import sweep
from pbem.store.models import Player
from pbem.web.signin import seat_link

#: What an open board page asks every 4 s (`/games/<id>/seq`): its requests are not logged
#: in the demo, whose terminal is the player's.
POLL_ENDPOINT = "web.game_seq"

#: Your seat, and the bots', in seat order.
YOU = ("you@example.org", "You", "red")
BOT_COLOURS = ("blue", "green")


@dataclass
class Demo:
    game_id: int
    colour: str
    api_key: str
    board_link: str
    base_url: str
    mail_folder: Path
    mails: list[Path]

    def __str__(self) -> str:
        pbem = pbem_command()
        lines = [
            f"El Grande demo: game {self.game_id}, you ({self.colour}) against "
            f"{len(BOT_COLOURS)} bots. The bots answer within seconds.",
            "",
            "  By the API:",
            f'    curl -H "Authorization: Bearer {self.api_key}" '
            f"{self.base_url}/api/games/{self.game_id}/legal-moves",
        ]
        if self.mails:
            lines += [
                "  By mail: answer your latest mail as a mail client would (write your moves",
                '  instead of "moves", e.g. "power 9"):',
                f"    {pbem} mail reply {shlex.quote(str(self.mails[-1]))} moves",
            ]
        lines += [
            f"  Ctrl-C stops it; `{pbem} demo` makes another game, `{pbem} serve` serves "
            "without one.",
            "",
            f"  Board (this link signs you in):  {self.board_link}",
            f"  API key:  {self.api_key}",
            f"  Mails to you are written to:  {self.mail_folder}{os.sep}",
        ]
        return "\n".join(lines)


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
    try:
        shown = str(script.absolute().relative_to(Path.cwd()))
    except ValueError:
        shown = str(script.absolute())
    return shlex.quote(shown)


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


def start_demo(app: Flask, base_url: str) -> Demo:
    """Your player (its key kept in the instance folder, so that a second demo prints the
    same one), a new game against bots, and its first mails."""

    email, name, colour = YOU
    before = mail_files(app)
    with app.app_context():
        you = db.session.execute(
            db.select(Player).where(Player.email == email)
        ).scalar_one_or_none()
        key = _demo_key(app, you)
        if you is None:
            you, key = add_player(email, name)
        elif key is None:  # its key was not kept (or changed since): a fresh one to print
            key, you.api_key_hash = new_api_key()
        _keep_demo_key(app, key)
        seats: list[SeatAsked] = [{"email": email, "colour": colour}]
        # Greedy bots: they answer at once, where the strong one searches for seconds.
        seats += [{"colour": c, "bot": True, "level": "greedy"} for c in BOT_COLOURS]
        # The operator's own game, which invites no one: not counted against the day's cap.
        game = create_game(you, "Demo: you against two bots", seats, options={}, capped=False)
        db.session.commit()
        game_id = game.id
        sweep()  # the bots' first answers, if the game opens with theirs
        deliver_due()
        link = seat_link(game_id, colour, you.id)
    return Demo(game_id, colour, key, link, base_url, mail_folder(app), written_since(app, before))


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
