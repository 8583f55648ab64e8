"""deploy/Dockerfile and .dockerignore, read as text (no Docker daemon here or on CI)."""

from __future__ import annotations

import fnmatch
import json
import re

import pytest
import yaml

from tests.deploy.helpers import DEPLOY, REPO


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n", " ", text)
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, arguments = line.partition(" ")
            found.append((name.upper(), arguments.strip()))
    return found


@pytest.fixture(scope="module")
def stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's stages, each from its FROM on."""
    split: list[list[tuple[str, str]]] = []
    for instruction in instructions((DEPLOY / "Dockerfile").read_text(encoding="utf-8")):
        if instruction[0] == "FROM":
            split.append([])
        if split:
            split[-1].append(instruction)
    return split


def args_of(stage, name: str) -> list[str]:
    return [arguments for instruction, arguments in stage if instruction == name]


def test_a_build_stage_and_a_final_stage_on_slim_python_3_11(stages):
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    (base,) = re.findall(r"^ARG PYTHON_IMAGE=(\S+)$", text, flags=re.MULTILINE)
    assert base == "python:3.11-slim"
    assert len(stages) == 2
    build, final = stages
    assert args_of(build, "FROM") == ["${PYTHON_IMAGE} AS build"]
    assert args_of(final, "FROM") == ["${PYTHON_IMAGE}"]
    assert any("pip install ." in run for run in args_of(build, "RUN"))
    assert any(copy.startswith("--from=build ") for copy in args_of(final, "COPY"))
    # Nothing is compiled or installed from the system's packages in the final image.
    for run in args_of(final, "RUN"):
        assert not re.search(r"apt-get|apk|gcc|build-essential|pip install", run), run


def test_the_final_image_runs_as_a_user_and_serves_on_8000(stages):
    final = stages[-1]
    (user,) = args_of(final, "USER")
    assert user not in ("root", "0")
    assert args_of(final, "EXPOSE") == ["8000"]
    environment = " ".join(args_of(final, "ENV"))
    assert "PBEM_BIND=0.0.0.0:8000" in environment


def test_the_default_command_is_compose_webs_and_finds_its_config(stages):
    final = stages[-1]
    (cmd,) = args_of(final, "CMD")
    command = json.loads(cmd)  # exec form
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    assert command == compose["services"]["web"]["command"]
    # `-c deploy/gunicorn.conf.py` is relative to the working directory, where it is copied.
    config = command[command.index("-c") + 1]
    (workdir,) = args_of(final, "WORKDIR")
    assert f"deploy/gunicorn.conf.py {workdir}/{config}" in args_of(final, "COPY")


def test_the_instance_folder_is_a_volume_where_flask_looks(stages):
    build, final = stages
    # A venv made at PREFIX: Flask's instance folder for an installed package is
    # PREFIX/var/pbem-instance (its sys.prefix), where compose mounts a named volume.
    (venv,) = re.findall(r"python -m venv (\S+)", " ".join(args_of(build, "RUN")))
    instance = f"{venv}/var/pbem-instance"
    assert args_of(final, "VOLUME") == [json.dumps([instance])]
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    for name in ("migrate", "web", "scheduler", "mailin"):
        mounts = compose["services"][name]["volumes"]
        assert any(mount.endswith(":" + instance) for mount in mounts), name


def dockerignore() -> list[str]:
    lines = (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether .dockerignore leaves PATH out (its patterns as used here: no "!")."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: index + 1]) for index in range(len(parts))]
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        if any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes):
            return True
        if pattern.startswith("**/") and any(fnmatch.fnmatch(part, bare) for part in parts):
            return True
    return False


def test_dockerignore_keeps_what_the_install_needs_and_drops_secrets():
    patterns = dockerignore()
    assert not any(pattern.startswith("!") for pattern in patterns)
    for needed in (
        "pyproject.toml",
        "README.md",
        "pbem/__init__.py",
        "pbem/migrations/env.py",
        "engine/__init__.py",
        "templates/mail",
        "deploy/gunicorn.conf.py",
    ):
        assert (REPO / needed).exists(), needed
        assert not ignored(needed, patterns), needed
    for dropped in (
        ".git/config",
        ".venv/bin/python",
        "deploy/.env",
        "instance/secret_key",
        "deploy/dkim/dkim.pem",
    ):
        assert ignored(dropped, patterns), dropped


def test_the_scheduler_can_sign_with_a_dkim_key_from_deploy_dkim():
    """The three DKIM settings reach the scheduler (which signs) empty unless set, and the
    key file a setting names is where compose mounts deploy/dkim/, read-only."""
    text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    compose = yaml.safe_load(text)
    scheduler = compose["services"]["scheduler"]
    for name in ("DKIM_SELECTOR", "DKIM_DOMAIN", "DKIM_PRIVATE_KEY"):
        assert f"${{{name}:-}}" in scheduler["environment"][name]
    assert "./dkim:/etc/pbem/dkim:ro" in scheduler["volumes"]
    example = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    assert "# DKIM_PRIVATE_KEY=/etc/pbem/dkim/" in example
