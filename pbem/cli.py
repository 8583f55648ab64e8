"""The `pbem` console script: run the server, manage the database, take mail in.

One click command per function; `main` runs them as the console script does. The settings
come from the environment (pbem.config; deploy/README.md, Settings), read when a command
builds the app. What a command needs that takes long to import (the app's models and
SQLAlchemy, Alembic, APScheduler, aiosmtpd: 25 ms to 0.6 s each) is imported inside it, so
`pbem --help` and a mistyped command answer at once.
"""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

import click
from flask import Flask

from pbem import create_app
from pbem.clock import set_now
from pbem.errors import ServiceError

#: sysexits.h: try again later (the MTA keeps the message and retries).
EX_TEMPFAIL = 75

#: How long `pbem mail reply` waits for another process to write the answer to its reply.
REPLY_ANSWER_WAIT_SECONDS = 10


def upgrade_database(app: Flask) -> None:
    """Create the tables, or bring them to the latest migration."""
    # Not at the top: Alembic takes 0.2 s to import, which `pbem --help` need not wait for.
    from flask_migrate import upgrade

    with app.app_context():
        upgrade()


def links_to_here(app: Flask, host: str, port: int, *, say: bool = True) -> str:
    """Where links in mails point: PBEM_BASE_URL, else the address this process listens on
    (not another port's), said at start (`say`: the demo, whose links are this machine's
    by design, does not). The sweep sends mail outside any request, so it cannot take the
    address from one."""
    if app.config.get("PBEM_BASE_URL"):
        return str(app.config["PBEM_BASE_URL"])
    # Listening on every address (0.0.0.0): the links still need one a browser can open.
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    app.config["PBEM_BASE_URL"] = f"http://{shown}:{port}"
    if say:
        print(
            f"Links in mails point at {app.config['PBEM_BASE_URL']} (PBEM_BASE_URL is unset; "
            "set it to the address players reach).",
            flush=True,
        )
    return str(app.config["PBEM_BASE_URL"])


def serve_here(app: Flask, host: str, port: int, threads: int, *, say: bool = True) -> None:
    """Serve with the scheduler (sweep and mail) in-process: the single-machine default.
    `say`: a line saying where and on which database (the demo says its own)."""
    # waitress: a production WSGI server in pure Python, so the one-command install needs no
    # compiler and runs anywhere (gunicorn remains the choice for scale-out). Imported here,
    # as APScheduler (25 ms) is: only serve and demo use them.
    from waitress import serve as waitress_serve

    from pbem.schedule.runner import start_background

    if say:
        print(
            f"El Grande turn server on http://{host}:{port} "
            f"(database {app.config['SQLALCHEMY_DATABASE_URI']})",
            flush=True,
        )
    start_background(app)
    waitress_serve(app, host=host, port=port, threads=threads)


def reply_by_file(app: Flask, path: str, text: str) -> int:
    """`pbem mail reply`: write the reply, hand it to the mail door, deliver the answer."""
    # Not at the top: the mail door and the sender bring the models (0.6 s to import).
    from pbem.mailin import process_inbound
    from pbem.mailin.reply import answers, recipient_of, reply_to
    from pbem.notify.sender import deliver_due, mail_files, written_since

    try:
        original = Path(path).read_bytes()
    except OSError as error:
        print(f"Mail: cannot read {path}: {error.strerror}.")
        return 2
    reply = reply_to(original, text)
    before = mail_files(app)
    with app.app_context():
        result = process_inbound(reply, recipient=recipient_of(reply))
        deliver_due()
    # A `pbem serve` or `pbem demo` on the same instance folder may have taken the answer
    # to send in its own pass: wait a little for its file rather than say nothing of it.
    deadline = time.monotonic() + REPLY_ANSWER_WAIT_SECONDS
    while (
        result.answered
        and not app.config.get("SMTP_URL")
        and not answers(reply, written_since(app, before))
        and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    print(f"Mail: {result.outcome}{': ' + result.reason if result.reason else ''}.")
    for written in written_since(app, before):
        print(f"  new mail: {written}")
    return 0 if result.exit_code == 0 else 1


def refuse(command: str, error: ServiceError | OSError) -> NoReturn:
    """`pbem export` or `pbem import` refused: one line on stderr, exit status 2."""
    print(f"pbem {command}: {getattr(error, 'detail', error)}", file=sys.stderr)
    raise SystemExit(2)


def serving_options(command: Callable[..., None]) -> Callable[..., None]:
    """--host, --port and --threads, as `pbem serve` and `pbem demo` take them."""
    command = click.option(
        "--threads", type=int, default=8, show_default=True, help="Requests served at once."
    )(command)
    command = click.option(
        "--port", type=int, default=5000, show_default=True, help="The port to listen on."
    )(command)
    return click.option(
        "--host",
        default="127.0.0.1",
        show_default=True,
        help="The address to listen on (0.0.0.0: every address).",
    )(command)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """El Grande turn server: serve, schedule, move games, take mail in.

    Every command reads its settings from the environment (deploy/README.md, Settings):
    DATABASE_URL (default: SQLite, pbem.sqlite in the instance folder), SECRET_KEY
    (default: made once in the instance folder), PBEM_INSTANCE_PATH (the instance folder;
    default: the checkout's instance/), MAIL_FROM, PBEM_BASE_URL, PBEM_LOG_LEVEL,
    PBEM_LOG_FORMAT and FLASK_<NAME>. Each command's help names those it depends on.
    """


@cli.command()
@serving_options
def serve(host: str, port: int, threads: int) -> None:
    """Upgrade the database, then serve (single machine, defaults).

    Serves the pages and the API with waitress, and runs the sweep (deadlines, reminders,
    bots) and the mail sender in the same process. For several machines, run
    `pbem db upgrade`, gunicorn and `pbem scheduler` instead.

    Settings: DATABASE_URL, PBEM_BASE_URL (the links in mails), SMTP_URL (unset: mails are
    written as .eml files in the instance folder's mail/), PBEM_SWEEP_SECONDS (5),
    PBEM_MAIL_SECONDS (2).
    """
    app = create_app()
    links_to_here(app, host, port)
    upgrade_database(app)
    serve_here(app, host, port, threads)


@cli.command()
@serving_options
@click.option(
    "--name",
    help="Your name in the game (default: the last demo's; the first one asks at a terminal, "
    "and names you itself otherwise).",
)
@click.option(
    "--verbose", is_flag=True, help="Log requests and migrations here too, not only to the log."
)
@click.option(
    "--learn",
    is_flag=True,
    help="A game that teaches: each new kind of decision explained the first time it comes, "
    "the first scoring walked through, hints on (a short game of 6 rounds).",
)
def demo(host: str, port: int, threads: int, name: str | None, verbose: bool, learn: bool) -> None:
    """Play against two bots on the embedded defaults, then serve.

    Makes the database, a player for you and a game against two bots, prints the board
    link, your API key and your newest mail (last, once the server answers), then serves
    as `pbem serve` does, and says in a line each new mail to you. Requests, migrations and
    the scheduler's lines go to the instance folder's demo.log (--verbose: here too). Run
    it again for another game: the key stays the same (kept in the instance folder's
    demo_api_key), and so does your name unless --name changes it.

    Settings: PBEM_INSTANCE_PATH (the SQLite database, the mail files and the log),
    PBEM_BASE_URL (default here: http://HOST:PORT), PBEM_SWEEP_SECONDS (default here: 1,
    so bots answer a second after you), PBEM_LOG_LEVEL, DATABASE_URL, SMTP_URL.
    """
    # Not at the top: the demo's game brings the engine and the models (0.5 s to import).
    from pbem.demo import (
        DEFAULT_NAME,
        MailWatch,
        has_player,
        log_to_file,
        quiet_polls,
        shown_path,
        start_demo,
    )

    # A name or a subject the terminal cannot write is written with "?", not a traceback.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")
    # Its log is a person's too: plain lines (unless PBEM_LOG_FORMAT says otherwise),
    # without the open board page's poll every 4 s, in a file, not on the terminal.
    app = create_app({"PBEM_LOG_FORMAT": os.environ.get("PBEM_LOG_FORMAT") or "text"})
    quiet_polls(app)
    log = log_to_file(app, verbose)
    print(f"El Grande demo: starting (its log: {shown_path(log)}) ...", flush=True)
    base_url = links_to_here(app, host, port, say=verbose)
    if not os.environ.get("PBEM_SWEEP_SECONDS"):
        app.config["PBEM_SWEEP_SECONDS"] = 1.0  # bots answer a second after you
    upgrade_database(app)
    if name is None and not has_player(app) and sys.stdin.isatty() and sys.stdout.isatty():
        # Asked only of a person at a terminal: a script or a test never waits for an answer.
        name = click.prompt("Your name in the game", default=DEFAULT_NAME).strip() or None
    try:
        demo = start_demo(app, base_url, name, learn)
    except ServiceError as error:  # a name of more than 100 characters
        refuse("demo", error)
    demo.log_file = log
    watch = MailWatch(app)  # from here: the first mails are in the summary
    said = str(demo)
    stop = threading.Event()

    def say_when_up() -> None:
        _say_when_up(base_url, said)
        watch.follow(stop)  # after the summary, not above it

    # Said once the server answers (after its start-up lines), and again as it stops.
    threading.Thread(target=say_when_up, daemon=True).start()
    try:
        serve_here(app, host, port, threads, say=verbose)
    finally:
        stop.set()
        print(f"\n{demo}\n", flush=True)


def _say_when_up(base_url: str, said: str) -> None:
    for _ in range(100):
        try:
            with urllib.request.urlopen(f"{base_url}/api/health/live", timeout=2):
                break
        except OSError:
            time.sleep(0.1)
    print(f"\n{said}\n", flush=True)


@cli.command()
def scheduler() -> None:
    """Run the sweep and the mail sender every few seconds.

    The process beside gunicorn (`pbem serve` runs the same jobs itself), until SIGTERM or
    Ctrl-C. Prints a line when it starts and one when it stops.

    Settings: PBEM_SWEEP_SECONDS (5), PBEM_MAIL_SECONDS (2), SMTP_URL (unset: mails are
    written as .eml files in the instance folder's mail/), PBEM_BASE_URL, DATABASE_URL.
    """
    # Not at the top: APScheduler takes 25 ms to import.
    from pbem.schedule.runner import run_blocking

    run_blocking(create_app())


@cli.command("sweep")
@click.option(
    "--now",
    metavar="TIME",
    help="Act as if it were this time (ISO 8601, e.g. 2026-12-24T18:00:00+00:00; UTC if it "
    "has no offset): for drills and tests only, it plays real moves in real games.",
)
def sweep_once(now: str | None) -> None:
    """Run one sweep and print what it did.

    One line per action (a deadline passed, a reminder queued, a bot's move), then their
    number.

    Settings: DATABASE_URL, PBEM_BASE_URL (the links in the mails it queues).
    """
    # Not at the top: the sweep brings the engine and the models (0.5 s to import).
    from pbem.schedule.sweep import sweep

    app = create_app()
    if now:
        moment = datetime.fromisoformat(now)
        set_now(app, moment if moment.tzinfo else moment.replace(tzinfo=UTC))
    with app.app_context():
        lines = sweep()
    for line in lines:
        print(line)
    print(f"Sweep: {len(lines)} action{'s' if len(lines) != 1 else ''}.")


@cli.command()
@click.argument("game", type=int)
@click.option(
    "-o", "--output", metavar="FILE", help="The file to write (default: stdout, as for -)."
)
@click.option(
    "--with-seed",
    is_flag=True,
    help="Include a running game's seed, to move it live: the file then holds its secrets.",
)
def export(game: int, output: str | None, with_seed: bool) -> NoReturn:
    """Write one game as JSON (see docs/backups.md).

    GAME is the game's id. The file holds the players' emails, so it is made readable by
    its owner only. A refusal (no such game, a file that cannot be written) is one line on
    stderr and exit status 2.

    Settings: DATABASE_URL.
    """
    # Not at the top: the game's JSON brings the engine and the models (0.4 s to import).
    from pbem.play.transfer import export_json

    app = create_app()
    try:
        with app.app_context():
            text = export_json(game, with_seed=with_seed) + "\n"
        if output in (None, "-"):
            sys.stdout.write(text)
        else:
            # Players' emails, perhaps a running game's secrets: readable by its owner only.
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
            with os.fdopen(os.open(output, flags, 0o600), "w", encoding="utf-8") as out:
                out.write(text)
    except (ServiceError, OSError) as error:
        refuse("export", error)
    raise SystemExit(0)


@cli.command("import")
@click.argument("file")
def import_(file: str) -> NoReturn:
    """Create a game from a file `pbem export` wrote; print its id.

    FILE is the file, or - for stdin. The log is replayed through the engine. A refusal
    (a file that cannot be read, a document or a move the engine refuses) is one line on
    stderr and exit status 2, having changed nothing.

    Settings: DATABASE_URL.
    """
    # Not at the top: the game's JSON brings the engine and the models (0.4 s to import).
    from pbem.play.transfer import import_game, parse_document

    app = create_app()
    try:
        raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        with app.app_context():
            print(import_game(parse_document(raw)))
    except (ServiceError, OSError) as error:
        refuse("import", error)
    raise SystemExit(0)


@cli.command()
def doctor() -> NoReturn:
    """Check the configuration and say what to fix.

    Checks the database and its migrations, the scheduler's last sweep, SMTP, SECRET_KEY,
    MAIL_FROM and the base URL: one line per finding (ok, warn or fail), then a count.
    Exits 1 if a check fails. Run it with the installation's settings (deploy/pbem-env on a
    systemd host).

    Settings: DATABASE_URL, SECRET_KEY, SMTP_URL, MAIL_FROM, PBEM_BASE_URL,
    PBEM_HEALTH_STALE_SECONDS (300), PBEM_INSTANCE_PATH.
    """
    # Not at the top: the checks bring SQLAlchemy (0.1 s to import).
    from pbem.doctor import examine

    try:
        app = create_app()
    except Exception as error:  # a setting the app refuses to start with
        print(f"fail  configuration: {error}")
        raise SystemExit(1) from None
    findings = examine(app)
    for finding in findings:
        print(finding)
    failed = sum(f.level == "fail" for f in findings)
    warned = sum(f.level == "warn" for f in findings)
    print(f"Doctor: {failed} to fix, {warned} to look at, {len(findings) - failed - warned} ok.")
    raise SystemExit(1 if failed else 0)


@cli.group()
def mail() -> None:
    """Mail: deliver the outbox, take mail in.

    Mail comes in by one of three doors: `receive` (run by the MTA for each mail), `smtpd`
    (a listener) or `imap` (polls a mailbox). Each reads the settings SECRET_KEY (which
    signs the reply addresses), MAIL_FROM (their domain), MAIL_MAX_BYTES (1048576),
    MAIL_ANSWERS_PER_HOUR (30) and MAIL_TRUSTED_AUTHSERV_ID.
    """


@mail.command("send")
def mail_send() -> None:
    """Deliver the mails and webhooks that are due, once.

    Settings: SMTP_URL (unset: each mail is written as an .eml file in the instance
    folder's mail/), MAIL_FROM, PBEM_INSTANCE_PATH, DATABASE_URL.
    """
    # Not at the top: the sender brings the models (0.3 s to import).
    from pbem.notify.sender import deliver_due

    app = create_app()
    with app.app_context():
        print(f"Mail: {deliver_due()}.")


@mail.command("reply")
@click.argument("file")
@click.argument("text")
def mail_reply(file: str, text: str) -> NoReturn:
    """Answer a mail file the server wrote, as a mail client would.

    For the demo and drills: FILE is an .eml file from the instance folder's mail/ (where
    mails go when SMTP_URL is unset; latest.eml is the newest), TEXT what to write above
    the quote, e.g. "power 9". The reply is handed to the mail door, and the mail files
    written since are named; it waits up to 10 s for a `pbem serve` or `pbem demo` on the
    same instance folder to write the answer. Its log lines go to the instance folder's
    demo.log, as the demo's do. Exits 1 if the reply's address names no seat, 2 if FILE
    cannot be read.

    Settings: PBEM_INSTANCE_PATH, SMTP_URL, SECRET_KEY, MAIL_FROM, DATABASE_URL.
    """
    # Not at the top: the demo brings the models (0.5 s to import).
    from pbem.demo import log_to_file

    app = create_app()
    # What it prints says what the mail door did; its log line ("mail in") joins the
    # demo's log rather than the terminal of the person playing.
    log_to_file(app)
    raise SystemExit(reply_by_file(app, file, text))


@mail.command("receive")
@click.option(
    "--recipient",
    metavar="ADDRESS",
    help="The envelope recipient (default: $ORIGINAL_RECIPIENT or $RECIPIENT, as Postfix "
    "sets them; else the message's headers).",
)
def mail_receive(recipient: str | None) -> NoReturn:
    """Handle one mail read on stdin.

    For an MTA's pipe transport, a .forward or procmail. Exits 0 when the mail is handled
    (a mail no reader can read too: kept aside in the instance folder's mail-kept/, never
    retried), 67 (EX_NOUSER: the MTA bounces it) for an address that names no seat, 75
    (EX_TEMPFAIL: the MTA keeps it and retries) when it cannot be handled now, e.g. with
    the database down.

    Settings: ORIGINAL_RECIPIENT, RECIPIENT, the mail-in ones (pbem mail --help),
    DATABASE_URL.
    """
    # Not at the top: the mail door brings the models (0.4 s to import).
    from pbem.mailin import process_inbound

    app = create_app()
    recipient = recipient or os.environ.get("ORIGINAL_RECIPIENT") or os.environ.get("RECIPIENT")
    raw = sys.stdin.buffer.read()
    try:
        with app.app_context():
            result = process_inbound(raw, recipient=recipient)
    except Exception as error:  # the database down: the MTA keeps the mail and retries
        print(f"Mail: not handled now ({type(error).__name__}: {error}).", file=sys.stderr)
        raise SystemExit(EX_TEMPFAIL) from None
    print(f"Mail: {result.outcome}{': ' + result.reason if result.reason else ''}.")
    raise SystemExit(result.exit_code)


@mail.command("smtpd")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=int, default=8025, show_default=True, help="The port to listen on.")
@click.option("--lmtp", is_flag=True, help="Speak LMTP instead of SMTP.")
def mail_smtpd(host: str, port: int, lmtp: bool) -> None:
    """Listen for mail by SMTP (or LMTP) until stopped.

    An unknown or badly signed recipient gets 550 at RCPT, a mail over MAIL_MAX_BYTES 552.
    Stops on SIGTERM or Ctrl-C.

    Settings: the mail-in ones (pbem mail --help), DATABASE_URL.
    """
    # Not at the top: aiosmtpd and the mail door take 0.5 s to import.
    from pbem.mailin.smtpd import Listener

    listener = Listener(create_app(), host=host, port=port, lmtp=lmtp)
    listener.start()
    print(f"El Grande mail in: {'LMTP' if lmtp else 'SMTP'} on {host}:{port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        listener.stop()


@mail.command("imap")
@click.option("--once", is_flag=True, help="One pass, then exit.")
@click.option(
    "--every", type=float, default=30.0, show_default=True, help="Seconds between passes."
)
def mail_imap(once: bool, every: float) -> None:
    """Poll the mailbox at IMAP_URL and handle new mail.

    Each unseen message is handled once, then flagged seen; a line for each pass that
    found mail. Stops on SIGTERM; exits 1 with a message if IMAP_URL is unset.

    Settings: IMAP_URL (imaps://user:pass@host/INBOX, or imap://...?starttls=1), the
    mail-in ones (pbem mail --help), DATABASE_URL.
    """
    # Not at the top: the mail door takes 0.5 s to import.
    from pbem.mailin.imap import poll_forever

    poll_forever(create_app(), once=once, every=every)


@cli.group()
def players() -> None:
    """Players the operator vouches for: bots, tournaments, scripts.

    People sign up themselves, proving their address by a mailed link (POST /api/players,
    /sign-in); this makes a player whose address you vouch for, without mail, and proves
    the addresses of those who played here before addresses were proved.
    """


@players.command("add")
@click.argument("email")
@click.option("--name", required=True, help="The name the other players see.")
def players_add(email: str, name: str) -> NoReturn:
    """Make a player and print its API key as JSON: {"id": ..., "api_key": ...}.

    EMAIL is the player's address (a house bot or script may use one you read). The key is
    shown this once. An address that plays here already is refused (exit status 2); an
    address invited to a game and never claimed becomes this player.

    Settings: DATABASE_URL.
    """
    import json

    from pbem.extensions import db as database
    from pbem.game.players import add_player

    app = create_app()
    try:
        with app.app_context():
            player, key = add_player(email, name)
            database.session.commit()
            print(json.dumps({"id": player.id, "email": player.email, "api_key": key}))
    except ServiceError as error:
        refuse("players add", error)
    raise SystemExit(0)


@players.command("prove")
@click.option("--email", help="Prove this one address (you vouch for it), whatever it did here.")
@click.option("--dry-run", is_flag=True, help="Say whom it would prove, and change nothing.")
def players_prove(email: str | None, dry_run: bool) -> None:
    """Prove the addresses of the players who played here, and rate their games again.

    After an upgrade from a release that kept no proof of an address, no player counts as
    proved, so nobody is rated (and no invitation is theirs to accept without a link). This
    proves each one who made a move or said a word to a table themselves: by a reply from
    their address to their seat's, or through the API or a page (with their key, or signed
    in). Then, if it proved anyone, it rates every finished game again, as `pbem ratings
    rebuild` does. Those releases showed a key to whoever registered an address, so an API
    move shows the key, not the mailbox: list them first (--dry-run) if you doubt one.

    Settings: DATABASE_URL.
    """
    from pbem.extensions import db as database
    from pbem.play import proofs
    from pbem.play.ratings import rebuild

    app = create_app()
    with app.app_context():
        if email is None:
            proved = proofs.prove_those_who_played(dry_run=dry_run)
            _say_proved(proved, dry_run)
        else:
            proved = _prove_one(email, dry_run)
        if proved and not dry_run:
            done = rebuild()
            print(f"Ratings: {_rebuilt(done.games, done.people, done.unproved, done.bots)}")
        database.session.commit()


def _say_proved(proved: list[str], dry_run: bool) -> None:
    if not proved:
        print("Nobody to prove: everyone who played here has proved their address.")
        return
    count = f"{len(proved)} address{'es' if len(proved) != 1 else ''}"
    print(f"{'Would prove' if dry_run else 'Proved'} {count} that played here:")
    for address in proved:
        print(f"  {address}")


def _prove_one(email: str, dry_run: bool) -> list[str]:
    """`pbem players prove --email`: the address proved (none if it was already)."""
    from pbem.play import proofs

    found = proofs.prove_address(email, dry_run=dry_run)
    if found is None:
        print(f"pbem players prove: no player has the address {email}.", file=sys.stderr)
        raise SystemExit(2)
    unproved, acted = found
    if not unproved:
        print(f"{email} is proved already.")
        return []
    why = "it played here" if acted else "you vouch for it: it never played here"
    print(f"{'Would prove' if dry_run else 'Proved'} {email} ({why}).")
    return [email]


@cli.group()
def ratings() -> None:
    """Players' and house bots' ratings, kept from the finished games."""


@ratings.command("rebuild")
def ratings_rebuild() -> None:
    """Rate every finished game again, in the order they ended.

    Gives the numbers the games gave as they ended; rates the games that finished before
    ratings were kept (after upgrading to a version that keeps them), and the house bot
    levels' ratings from their games against people. Says how many people it rated, how
    many it skipped because they never proved their address (`pbem players prove` proves
    those who played here), and how many house bot levels it rated. On PostgreSQL a game
    ending meanwhile waits for it.

    Settings: DATABASE_URL.
    """
    from pbem.extensions import db as database
    from pbem.play.ratings import rebuild

    app = create_app()
    with app.app_context():
        done = rebuild()
        database.session.commit()
    print(f"Ratings: {_rebuilt(done.games, done.people, done.unproved, done.bots)}")


def _rebuilt(games: int, people: int, unproved: int, bots: int) -> str:
    """What a rebuild did: the games, the people rated, those skipped as never proved, the
    house bot levels rated."""
    said = f"{games} finished game{'s' if games != 1 else ''}: "
    said += f"{people} {'person' if people == 1 else 'people'} rated"
    if unproved:
        said += (
            f", {unproved} skipped because they never proved their address "
            "(see `pbem players prove`)"
        )
    if bots:
        said += f"; {bots} house bot level{'s' if bots != 1 else ''} rated"
    return said + "."


@cli.group()
def moderation() -> None:
    """Reports, and what operators do: warn, suspend, ban, lift.

    Every action is logged with who did it (your login name here) and why, and mails the
    player. A suspended or banned player cannot sign in, play, talk or be invited; house
    bots play their seats. Settings: DATABASE_URL.
    """


@moderation.command("list")
@click.option("--limit", type=int, default=100, show_default=True)
def moderation_list(limit: int) -> None:
    """The reports waiting, the oldest first.

    Settings: DATABASE_URL.
    """
    from pbem.play import moderation as moderating

    app = create_app()
    with app.app_context():
        waiting = moderating.waiting_reports(limit)
        if not waiting:
            print("No reports are waiting.")
        for row in waiting:
            where = f" in game {row.game_id}" if row.game_id else ""
            kept = " (suspended)" if row.suspended_until else ""
            kept = " (banned)" if row.banned_at else kept
            print(
                f"#{row.id} {row.created_at:%Y-%m-%d %H:%M} {row.kind}{where}: "
                f"player {row.subject_id} {row.subject_name!r}{kept}, "
                f"{row.reports_of_subject} report(s) in all\n"
                f"    reported: {row.text!r}\n"
                f"    by player {row.reporter_id} {row.reporter_name!r}: {row.reason or '-'}"
            )


@moderation.command("show")
@click.argument("player")
def moderation_show(player: str) -> None:
    """What operators did to PLAYER (an id or an address), the latest first.

    Settings: DATABASE_URL.
    """
    from pbem.play import moderation as moderating

    app = create_app()
    try:
        with app.app_context():
            for row in moderating.actions_of(moderating.find_player(player)):
                until = f" until {row.until:%Y-%m-%d %H:%M}" if row.until else ""
                print(
                    f"{row.created_at:%Y-%m-%d %H:%M} {row.action}{until} by {row.moderator}: "
                    f"{row.reason}" + (f" (report #{row.report_id})" if row.report_id else "")
                )
    except ServiceError as error:
        refuse("moderation show", error)


def _moderate(action: str, player: str | None, report: int | None, **given: Any) -> None:
    import getpass

    from pbem.extensions import db as database
    from pbem.play import moderation as moderating

    app = create_app()
    try:
        with app.app_context():
            if player is None and report is None:
                raise click.UsageError("name a PLAYER or a --report")
            target = moderating.find_player(player) if player else None
            target = target or moderating.report_subject(report or 0)
            done = moderating.act(
                target,
                action,
                moderator=f"{getpass.getuser()} (pbem moderation)",
                report_id=report,
                **given,
            )
            database.session.commit()
    except ServiceError as error:
        refuse(f"moderation {action}", error)
    until = f" until {done.until:%Y-%m-%d %H:%M} UTC" if done.until else ""
    print(f"Player {target}: {action}{until}; logged as action #{done.id}.")


_PLAYER = click.argument("player", required=False)
_REPORT = click.option("--report", type=int, help="The report this answers (closed by it).")
_REASON = click.option("--reason", required=True, help="Why: logged, and mailed to the player.")


@moderation.command("warn")
@_PLAYER
@_REPORT
@_REASON
def moderation_warn(player: str | None, report: int | None, reason: str) -> None:
    """Warn PLAYER (an id or an address; or the player --report names) by mail.

    Settings: DATABASE_URL.
    """
    _moderate("warn", player, report, reason=reason)


@moderation.command("suspend")
@_PLAYER
@_REPORT
@_REASON
@click.option(
    "--days",
    type=click.IntRange(1, 3650),
    help="How long; by default the next of 3, 7, 30, 90 days after their suspensions before.",
)
def moderation_suspend(
    player: str | None, report: int | None, reason: str, days: int | None
) -> None:
    """Suspend PLAYER: no sign-in, play, talk or invitation until it ends; bots play their
    seats meanwhile.

    Settings: DATABASE_URL.
    """
    _moderate("suspend", player, report, reason=reason, days=days)


@moderation.command("ban")
@_PLAYER
@_REPORT
@_REASON
def moderation_ban(player: str | None, report: int | None, reason: str) -> None:
    """Close PLAYER's account for good (until lifted).

    Settings: DATABASE_URL.
    """
    _moderate("ban", player, report, reason=reason)


@moderation.command("lift")
@_PLAYER
@_REASON
def moderation_lift(player: str | None, reason: str) -> None:
    """End PLAYER's suspension or ban now.

    Settings: DATABASE_URL.
    """
    _moderate("lift", player, None, reason=reason)


@moderation.command("dismiss")
@click.argument("report", type=int)
@_REASON
def moderation_dismiss(report: int, reason: str) -> None:
    """Close REPORT with nothing done (logged against the player it names).

    Settings: DATABASE_URL.
    """
    _moderate("dismiss", None, report, reason=reason)


@moderation.command("operator")
@click.argument("email")
@click.option("--off", is_flag=True, help="No longer an operator.")
def moderation_operator(email: str, off: bool) -> None:
    """Let the player at EMAIL moderate on the operator's page (/operator), or stop it.

    Settings: DATABASE_URL.
    """
    from pbem.extensions import db as database
    from pbem.play import moderation as moderating

    app = create_app()
    try:
        with app.app_context():
            player = moderating.set_operator(email, not off)
            database.session.commit()
            print(f"{player.email} is {'no longer ' if off else ''}an operator.")
    except ServiceError as error:
        refuse("moderation operator", error)


@cli.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Create or upgrade the tables to the latest migration.

    Harmless when they are up to date; `pbem serve` and `pbem demo` do it themselves.

    Settings: DATABASE_URL (default: SQLite, pbem.sqlite in the instance folder).
    """
    app = create_app()
    upgrade_database(app)
    print(f"Database at {app.config['SQLALCHEMY_DATABASE_URI']} is up to date.")


def main(argv: Sequence[str] | None = None) -> None:
    """Run `pbem ARGV` (default: the process's arguments), as the console script does.

    Unlike `cli.main()`, a command that has no exit status to give returns, so a test can
    call `main(["db", "upgrade"])`; the others (doctor, export, import, mail receive and
    reply) raise SystemExit with theirs, and Ctrl-C stays a KeyboardInterrupt, all as
    under argparse. A usage error prints click's message and exits 2; --help exits 0.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        with cli.make_context("pbem", args) as ctx:
            cli.invoke(ctx)
    except click.exceptions.Exit as done:  # --help
        raise SystemExit(done.exit_code) from None
    except click.ClickException as error:  # a usage error
        error.show()
        raise SystemExit(error.exit_code) from None


if __name__ == "__main__":
    main()
