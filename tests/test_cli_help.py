"""`pbem`'s help, as click writes it: every command listed with a line on what it is for,
each command's own help with its defaults and settings, and no app loaded to show it."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from pbem.cli import cli

COMMANDS = [
    "db",
    "demo",
    "doctor",
    "export",
    "import",
    "mail",
    "moderation",
    "players",
    "ratings",
    "scheduler",
    "serve",
    "sweep",
]
MAIL_COMMANDS = ["imap", "receive", "reply", "send", "smtpd"]


def help_of(*words: str) -> str:
    result = CliRunner().invoke(cli, [*words, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


def listed(text: str) -> dict[str, str]:
    """The "Commands:" section of a help text: name -> its one line."""
    section = text.split("Commands:\n", 1)[1]
    return dict(line.strip().split(None, 1) for line in section.splitlines() if line.strip())


def leaves(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found += leaves(command, (*path, name))
        else:
            found.append((*path, name))
    return found


def test_pbem_help_lists_every_command_with_its_purpose_whole():
    commands = listed(help_of())
    assert sorted(commands) == COMMANDS
    assert commands["serve"] == "Upgrade the database, then serve (single machine, defaults)."
    assert commands["doctor"] == "Check the configuration and say what to fix."
    # A purpose cut short ends in "..." in click's listing.
    assert not [name for name, line in commands.items() if line.endswith("...")], commands


def test_pbem_mail_help_lists_the_outbox_and_the_three_doors():
    text = help_of("mail")
    commands = listed(text)
    assert sorted(commands) == MAIL_COMMANDS
    assert commands["receive"] == "Handle one mail read on stdin."
    assert not [name for name, line in commands.items() if line.endswith("...")], commands
    assert "MAIL_MAX_BYTES (1048576)" in text
    assert listed(help_of("db")) == {
        "upgrade": "Create or upgrade the tables to the latest migration."
    }


def test_each_command_says_its_settings_and_defaults():
    for path in leaves(cli):
        assert "Settings:" in help_of(*path), path
    assert "[default: 5000]" in help_of("serve") and "[default: 8]" in help_of("demo")
    assert "[default: 8025]" in help_of("mail", "smtpd")
    assert "[default: 30.0]" in help_of("mail", "imap") and "IMAP_URL" in help_of("mail", "imap")
    assert "SMTP_URL" in help_of("mail", "send")
    assert "67 (EX_NOUSER" in help_of("mail", "receive")
    assert "75 (EX_TEMPFAIL" in help_of("mail", "receive")
    assert "PBEM_INSTANCE_PATH" in help_of("demo") and "DATABASE_URL" in help_of("db", "upgrade")


def test_h_is_help_too_and_no_command_shows_the_help_with_status_2():
    runner = CliRunner()
    assert runner.invoke(cli, ["-h"]).output == help_of()
    assert runner.invoke(cli, ["mail", "receive", "-h"]).output == help_of("mail", "receive")
    for words in ([], ["mail"], ["db"]):
        result = runner.invoke(cli, words)
        assert result.exit_code == 2 and "Commands:" in result.output, words
    result = runner.invoke(cli, ["frob"])
    assert result.exit_code == 2 and "No such command 'frob'" in result.output


def test_help_loads_neither_the_app_nor_the_servers():
    code = (
        "import sys\n"
        "from pbem.cli import main\n"
        "try:\n"
        "    main(['mail', 'smtpd', '--help'])\n"
        "except SystemExit as done:\n"
        "    assert done.code == 0, done.code\n"
        "heavy = ('sqlalchemy', 'alembic', 'apscheduler', 'aiosmtpd', 'waitress', 'engine')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]", done.stdout
