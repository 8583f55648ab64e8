"""deploy/postfix/ (LMTP to the listener the unit runs; the pipes run commands that accept
their arguments), deploy/nginx/ (the body limit is the app's), and the settings file both
systemd and deploy/pbem-env read."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess

from pbem.config import DEFAULT_MAX_CONTENT_LENGTH
from tests.deploy.helpers import DEPLOY, SERVER_VENV_BIN, local_path, parse_pbem, read_unit, value

POSTFIX = DEPLOY / "postfix"
ENV_EXAMPLE = DEPLOY / "systemd" / "pbem.env.example"


def master_cf_services() -> dict[str, list[str]]:
    """master.cf's services: name -> the words of its line and its continuation lines."""
    services: dict[str, list[str]] = {}
    name = None
    for line in (POSTFIX / "master.cf").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0].isspace():  # continues the service above
            services[name] += line.split()
        else:
            name = line.split()[0]
            services[name] = line.split()
    return services


def pipe_argv(name: str) -> tuple[dict[str, str], list[str]]:
    """A pipe service's attributes, and its command line (argv=, then the words after it)."""
    words = master_cf_services()[name]
    assert words[1:8] == ["unix", "-", "n", "n", "-", "4", "pipe"], name
    attributes = dict(word.split("=", 1) for word in words[8:] if "=" in word)
    assert (attributes["flags"], attributes["user"]) == ("Rq", "pbem"), name
    return attributes, [attributes["argv"], *words[words.index("argv=" + attributes["argv"]) + 1 :]]


def load_client():
    spec = importlib.util.spec_from_file_location("pbem_deliver", DEPLOY / "pbem-deliver.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mailin_listens() -> tuple[str, str]:
    """HOST:PORT pbem-mailin.service listens on, and it speaks LMTP."""
    unit = read_unit(DEPLOY / "systemd" / "pbem-mailin.service")
    args = parse_pbem(shlex.split(value(unit, "Service", "ExecStart"))[1:])
    assert args.lmtp
    return args.host, str(args.port)


def test_the_pipes_are_the_light_client_and_pbem_mail_receive():
    assert sorted(master_cf_services()) == ["pbem", "pbem_deliver"]


def test_the_light_pipe_hands_the_envelope_to_the_listener():
    attributes, argv = pipe_argv("pbem_deliver")
    assert attributes["null_sender"] == ""  # a bounce's sender: an empty argument
    # The venv's interpreter, isolated and without site: the client is the standard library's.
    assert argv[0] == SERVER_VENV_BIN + "python" and argv[1:3] == ["-I", "-S"]
    assert local_path(argv[0]).exists()
    script = local_path(argv[3])
    assert script == DEPLOY / "pbem-deliver.py" and os.access(script, os.X_OK)
    envelope = {"${sender}": "", "${original_recipient}": "x@game.example"}
    address, _, sender, recipient = load_client().arguments(
        [envelope.get(word, word) for word in argv[4:]]
    )
    assert (address, sender, recipient) == (":".join(mailin_listens()), "", "x@game.example")


def test_the_fallback_pipe_runs_pbem_mail_receive_for_the_original_recipient():
    attributes, argv = pipe_argv("pbem")
    # pbem-env (settings from /etc/pbem/pbem.env), then the console script and its arguments.
    wrapper = local_path(argv[0])
    assert wrapper == DEPLOY / "pbem-env" and os.access(wrapper, os.X_OK)
    assert argv[1] == SERVER_VENV_BIN + "pbem" and local_path(argv[1]).is_file()
    args = parse_pbem(
        [word.replace("${original_recipient}", "x@game.example") for word in argv[2:]]
    )
    assert (args.command, args.mail_command, args.recipient) == (
        "mail",
        "receive",
        "x@game.example",
    )


def test_the_transport_map_prefers_lmtp_to_the_listener_and_main_cf_limits_the_pipes():
    transport = (POSTFIX / "transport").read_text(encoding="utf-8")
    routes = [line.split() for line in transport.splitlines() if line and line[0] not in "# "]
    host, port = mailin_listens()
    assert routes == [["game.example", f"lmtp:inet:{host}:{port}"]]
    # The pipes, offered in comments, are master.cf's.
    offered = re.findall(r"^# game\.example\s+(\S+):$", transport, flags=re.MULTILINE)
    assert sorted(offered) == sorted(master_cf_services())
    main_cf = (POSTFIX / "main.cf").read_text(encoding="utf-8")
    # One recipient per delivery, or ${original_recipient} would not be one address.
    for name in master_cf_services():
        assert re.search(rf"^{name}_destination_recipient_limit = 1$", main_cf, re.MULTILINE)
    assert re.search(r"^transport_maps = hash:/etc/postfix/transport$", main_cf, re.MULTILINE)


def test_the_pipe_comments_give_the_exit_codes_the_commands_return():
    from pbem.cli import EX_TEMPFAIL
    from pbem.mailin import EX_NOUSER

    client = load_client()
    assert (client.EX_NOUSER, client.EX_TEMPFAIL) == (EX_NOUSER, EX_TEMPFAIL)
    text = (POSTFIX / "master.cf").read_text(encoding="utf-8")
    for code, name in (
        (0, "handled"),
        (EX_NOUSER, "EX_NOUSER"),
        (client.EX_DATAERR, "EX_DATAERR"),
        (client.EX_UNAVAILABLE, "EX_UNAVAILABLE"),
        (EX_TEMPFAIL, "EX_TEMPFAIL"),
    ):
        assert re.search(rf"^#\s+{code}\s+{name}", text, flags=re.MULTILINE), code


def nginx_size(text: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", text).groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


def test_nginx_refuses_what_the_app_would_refuse_and_no_less():
    conf = (DEPLOY / "nginx" / "pbem.conf").read_text(encoding="utf-8")
    (size,) = re.findall(r"^\s*client_max_body_size\s+(\S+);", conf, flags=re.MULTILINE)
    assert nginx_size(size) == DEFAULT_MAX_CONTENT_LENGTH


def test_nginx_buffers_forwards_and_keeps_health_out_of_the_log():
    conf = (DEPLOY / "nginx" / "pbem.conf").read_text(encoding="utf-8")
    directives = re.findall(r"^\s*([a-z_]+)\s+([^;{]*)[;{]", conf, flags=re.MULTILINE)
    assert ("proxy_buffering", "on") in directives
    headers = {args.split()[0] for name, args in directives if name == "proxy_set_header"}
    assert {"Host", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host"} <= headers
    health = re.search(r"location /api/health \{(.*?)\}", conf, flags=re.DOTALL)
    assert health and "access_log off;" in health.group(1)
    # A seat's sign-in link signs its player in: its token must not reach a log.
    sign_in = re.search(r"location ~ (\S+) \{(.*?)\}", conf, flags=re.DOTALL)
    assert sign_in and "access_log off;" in sign_in.group(2)
    assert re.search(sign_in.group(1), "/games/12/sign-in/eyJzZWF0Ijo")
    assert not re.search(sign_in.group(1), "/games/12")
    assert re.search(r"upstream pbem_web \{[^}]*keepalive \d+;", conf)


def systemd_environment_file(text: str) -> dict[str, str]:
    """The subset of systemd's EnvironmentFile= syntax pbem.env.example may use: KEY=value,
    the value bare (no whitespace, no special characters) or in single quotes."""
    settings = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip()[0] in "#;":
            continue
        match = re.fullmatch(r"([A-Z_][A-Z0-9_]*)=(?:'([^']*)'|([^\s'\"\\$`<>&;|]*))", line)
        assert match, f"pbem.env.example: a line sh and systemd might read apart: {line}"
        key, quoted, bare = match.groups()
        settings[key] = quoted if quoted is not None else bare
    return settings


def test_pbem_env_gives_a_command_the_settings_systemd_reads():
    expected = systemd_environment_file(ENV_EXAMPLE.read_text(encoding="utf-8"))
    assert {"DATABASE_URL", "SECRET_KEY", "MAIL_FROM", "PBEM_BASE_URL", "SMTP_URL"} <= set(expected)
    result = subprocess.run(
        [str(DEPLOY / "pbem-env"), "env", "-0"],
        env={"PATH": "/usr/bin:/bin", "PBEM_ENV_FILE": str(ENV_EXAMPLE)},
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    seen = dict(item.split("=", 1) for item in result.stdout.split("\0") if item)
    assert {key: seen.get(key) for key in expected} == expected
    assert expected["MAIL_FROM"] == "El Grande <elgrande@game.example>"


def test_pbem_env_passes_the_arguments_on_untouched(tmp_path):
    settings = tmp_path / "pbem.env"
    settings.write_text("MAIL_FROM='A <a@b.example>'\n")
    tricky = ["a b", "${original_recipient}", "x;y", "'q'"]
    result = subprocess.run(
        [str(DEPLOY / "pbem-env"), "printf", "%s\\n", *tricky],
        env={"PATH": "/usr/bin:/bin", "PBEM_ENV_FILE": str(settings)},
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert result.stdout.splitlines() == tricky, shlex.join(tricky)
