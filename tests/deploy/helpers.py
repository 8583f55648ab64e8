"""Reading deploy/'s files: paths, systemd units, compose interpolation, the pbem parser."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path
from types import SimpleNamespace

import click
import pytest

from pbem.cli import cli

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
#: Where the systemd units and the Postfix pipe expect the checkout and its venv.
SERVER_ROOT = "/srv/pbem"
SERVER_VENV_BIN = SERVER_ROOT + "/.venv/bin/"
#: This venv's executables: pbem, gunicorn (not resolved: the venv's python is a symlink).
VENV_BIN = Path(sys.executable).parent


def local_path(path: str) -> Path:
    """A path on the server, as it is in this checkout and this venv."""
    if path.startswith(SERVER_VENV_BIN):
        return VENV_BIN / path[len(SERVER_VENV_BIN) :]
    if path.startswith(SERVER_ROOT + "/"):
        return REPO / path[len(SERVER_ROOT) + 1 :]
    return Path(path)


def parse_pbem(args: list[str]) -> SimpleNamespace:
    """`pbem ARGS` as the console script parses them, run no further: `command` (and
    `mail_command` or `db_command` under a group) and the command's parameters by name; a
    refused command fails the test."""
    names: list[str] = []
    command: click.Command = cli
    words = list(args)
    # Each context a child of its group's, as when pbem runs: click keeps a command's help
    # option as the first context it is made for has it (-h and --help here).
    ctx = click.Context(cli, info_name="pbem", **cli.context_settings)
    try:
        while isinstance(command, click.Group) and words:
            found = command.get_command(ctx, words[0])
            if found is None:
                break
            names.append(words.pop(0))
            command = found
            if isinstance(command, click.Group):
                ctx = click.Context(command, info_name=names[-1], parent=ctx)
        if isinstance(command, click.Group):
            raise click.UsageError(f"no command of {command.name} in {words}")
        params = command.make_context(names[-1], words, parent=ctx).params
    except (click.ClickException, click.exceptions.Exit):
        pytest.fail(f"pbem does not accept: pbem {shlex.join(args)}")
    under = {f"{names[0]}_command": names[1]} if len(names) > 1 else {}
    return SimpleNamespace(command=names[0], **under, **params)


def read_unit(path: Path) -> dict[str, list[tuple[str, str]]]:
    """A systemd unit file as {section: [(key, value), ...]}.

    systemd's INI allows a key many times (ListenStream=, ExecStartPre=), so configparser
    will not do. Comments start with # or ;, a trailing backslash continues a line.
    """
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        key, equals, value = line.partition("=")
        assert equals and current is not None, f"{path.name}: not a key=value line: {line}"
        current.append((key.strip(), value.strip()))
    return sections


def values(unit: dict[str, list[tuple[str, str]]], section: str, key: str) -> list[str]:
    return [value for name, value in unit.get(section, []) if name == key]


def value(unit: dict[str, list[tuple[str, str]]], section: str, key: str) -> str:
    found = values(unit, section, key)
    assert len(found) == 1, f"[{section}] {key}= is set {len(found)} times, not once"
    return found[0]


def words(unit: dict[str, list[tuple[str, str]]], section: str, key: str) -> set[str]:
    """A list-valued key (Requires=, After=), over all its lines."""
    return {word for line in values(unit, section, key) for word in line.split()}


_VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}")


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}."""

    def one(match: re.Match) -> str:
        name, operator, argument = match.groups()
        present = name in env
        usable = present and (env[name] != "" or operator in ("-", "?"))
        if operator in (":-", "-"):
            return env[name] if usable else argument
        if operator in (":?", "?") and not usable:
            raise LookupError(f"{name}: {argument}")
        return env.get(name, "")

    return _VARIABLE.sub(one, text)
