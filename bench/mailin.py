"""Mail in: messages per second through `process_inbound`, on prepared replies.

Run: python bench/mailin.py [--games N] [--db URL]. Makes N three-player games in a fresh
database (SQLite in a temporary folder unless --db), takes each game's first decision mail
from the outbox, and writes two replies to it, as mail clients quote (Gmail, Outlook, Apple
Mail, Thunderbird; text, HTML-only, flowed): a "board" command (answered, plays nothing) and
the first move the mail lists (played). Then times `process_inbound` over the commands, then
over the moves, and prints messages/s for each (wall clock, one thread) and how many times
the engine played a batch per message (`engine.play_batch`). Then N more games are played
by the API to their first turn, and the turn mail is answered by its first move (half of
them) or by the whole turn in one reply (the other half): messages/s and moves/s for each.
Asserts only that every message was handled as expected.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from email import message_from_string, policy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa  # noqa: E402
from common import add_players, database  # noqa: E402

import engine  # noqa: E402
from pbem import create_app  # noqa: E402
from pbem.cli import upgrade_database  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.mailin import process_inbound  # noqa: E402

try:
    from pbem.notify.sender import compose_queued  # noqa: E402
except ImportError:  # the code before the sender held every worker pass
    from pbem.notify.outbox import compose_queued  # type: ignore[attr-defined,no-redef]  # noqa: E402
from pbem.game.states import current_state  # noqa: E402
from pbem.store.models import Game, Notification  # noqa: E402
from tests.server.mailin_helpers import moves_listed, reply  # noqa: E402

STYLES = [
    ("gmail", "en", "text"),
    ("outlook", "fr", "html"),
    ("apple", "en", "text"),
    ("thunderbird", "de", "flowed"),
    ("gmail", "de", "alternative"),
]


def prepare(app, games: int) -> tuple[list[bytes], list[bytes]]:
    client = app.test_client()
    commands, moves = [], []
    for number in range(games):
        game_id, _, _ = _new_game(app, client, uuid.uuid4().hex[:8])
        with app.app_context():
            compose_queued()  # decision mails are composed by the sender, before sending
            rows = db.session.execute(
                sa.select(Notification.recipient, Notification.message).where(
                    Notification.game_id == game_id, Notification.kind == "decision"
                )
            ).all()
            db.session.remove()
        recipient, text = rows[0]
        mail = message_from_string(text, policy=policy.default)
        style, language, kind = STYLES[number % len(STYLES)]
        options = {"sender": recipient, "style": style, "language": language, "kind": kind}
        commands.append(reply(mail, "board", **options))
        moves.append(reply(mail, moves_listed(mail)[0], **options))
    return commands, moves


def _new_game(app, client, tag: str) -> tuple[int, dict[str, str], dict[str, str]]:
    emails = {c: f"{c}-{tag}@example.org" for c in ("red", "blue", "green")}
    made = add_players(app, {email: colour for colour, email in emails.items()})
    keys = {colour: made[email] for colour, email in emails.items()}
    body = {
        "title": f"Bench {tag}",
        "seats": [{"email": e, "colour": c} for c, e in emails.items()],
        "options": {"rounds": 6},
    }
    created = client.post(
        "/api/games", json=body, headers={"Authorization": f"Bearer {keys['red']}"}
    )
    return created.get_json()["id"], emails, keys


#: The moves a whole turn prefers, first first: take, choose a card, place all it allows,
#: skip the special action (carrying it out asks inputs the bench has no reason to choose),
#: end. Any other legal move comes after these.
TURN_ORDER = ("take_caballeros", "choose_card", "place", "skip_special", "end_turn")


def _preference(move: dict) -> tuple[int, int]:
    rank = TURN_ORDER.index(move["type"]) if move["type"] in TURN_ORDER else len(TURN_ORDER)
    # The most caballeros taken, and the card of the highest stack (it allows the most
    # places), so that a whole turn is as long as a turn gets.
    return rank, -move.get("count", move.get("stack") or 0)


def whole_turn(state, colour: str) -> list[str]:
    """A whole turn of `colour`'s in the notation, played on copies until it is over."""
    lines: list[str] = []
    while len(lines) < 40 and any(
        p["player"] == colour and p["kind"] == "turn" for p in engine.pending(state)
    ):
        move = min(engine.legal_moves(state, colour), key=_preference)
        state, _ = engine.apply(state, colour, move)
        lines.append(engine.format_move(move))
    return lines


def prepare_turns(app, games: int) -> tuple[list[bytes], list[bytes], int]:
    """Games played by the API to their first turn; the turn mail answered by one move (half
    of them) or by the whole turn (the other half). Returns those replies and the moves the
    whole turns hold."""
    client = app.test_client()
    single, whole, moves = [], [], 0
    for number in range(games):
        game_id, emails, keys = _new_game(app, client, uuid.uuid4().hex[:8])
        while True:
            view = client.get(f"/api/games/{game_id}").get_json()
            if view["pending"][0]["kind"] == "turn":
                break
            colour = view["pending"][0]["player"]
            auth = {"Authorization": f"Bearer {keys[colour]}"}
            legal = client.get(f"/api/games/{game_id}/legal-moves", headers=auth).get_json()
            body = {"expected_seq": legal["seq"], "moves": legal["moves"][:1]}
            client.post(f"/api/games/{game_id}/moves", json=body, headers=auth)
        colour = view["pending"][0]["player"]
        with app.app_context():
            compose_queued()
            (text,) = db.session.execute(
                sa.select(Notification.message)
                .where(Notification.game_id == game_id, Notification.kind == "decision")
                .where(Notification.recipient == emails[colour])
                .order_by(Notification.id.desc())
                .limit(1)
            ).scalars()
            game = db.session.get(Game, game_id)
            state = current_state(game.id, game.seed, game.seq)
            db.session.remove()
        mail = message_from_string(text, policy=policy.default)
        options = {"sender": emails[colour], "style": "gmail", "language": "en", "kind": "text"}
        lines = whole_turn(state, colour)
        if number % 2:
            moves += len(lines)
            whole.append(reply(mail, "\n".join(lines), **options))
        else:  # the same turn's first move alone (e.g. "take 5")
            single.append(reply(mail, lines[0], **options))
    return single, whole, moves


class Plays:
    """Counts `engine.play_batch` calls (how often a door plays a batch for one mail) and
    the SQL statements sent."""

    def __init__(self) -> None:
        self.calls = 0
        self.statements = 0
        self.real = engine.play_batch

    def statement(self, *args, **kwargs) -> None:
        self.statements += 1

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.real(*args, **kwargs)


def timed(app, messages: list[bytes], expected: str) -> tuple[float, float, float]:
    """Seconds for all the messages, and batches played and statements sent per message."""
    plays = Plays()
    engine.play_batch = plays
    sa.event.listen(sa.engine.Engine, "before_cursor_execute", plays.statement)
    try:
        started = time.perf_counter()
        with app.app_context():
            for raw in messages:
                result = process_inbound(raw)
                assert result.outcome == expected, result
                db.session.remove()
        elapsed = time.perf_counter() - started
    finally:
        engine.play_batch = plays.real
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", plays.statement)
    return elapsed, plays.calls / len(messages), plays.statements / len(messages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--db",
        help="a database URL (default: SQLite in a temporary folder); on PostgreSQL the "
        "bench works in a schema of its own and drops it",
    )
    args = parser.parse_args()
    on_postgresql = (args.db or "").startswith("postgresql")
    # A PostgreSQL URL gets a schema of its own, dropped afterwards (common.database).
    with database("postgresql" if on_postgresql else "sqlite", args.db or "") as fresh:
        url = fresh if on_postgresql or not args.db else args.db
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url,
                "MAIL_FROM": "El Grande <play@pbem.example>",
                "PBEM_BASE_URL": "https://pbem.example",
                "SECRET_KEY": "bench-" + uuid.uuid4().hex,
                "MAIL_ANSWERS_PER_HOUR": 10**9,
            }
        )
        upgrade_database(app)
        commands, moves = prepare(app, args.games)
        single, whole, turn_moves = prepare_turns(app, args.games)
        dialect = url.split(":", 1)[0]
        for label, messages, expected in (
            ("commands (board)", commands, "answered"),
            ("moves (played)", moves, "played"),
        ):
            elapsed, plays, statements = timed(app, messages, expected)
            print(
                f"{label}: {len(messages)} messages in {elapsed:.2f} s, "
                f"{len(messages) / elapsed:.0f} messages/s, {plays:.1f} batches played and "
                f"{statements:.1f} SQL statements per message ({dialect})"
            )
        for label, messages, count in (
            ("a turn's first move", single, len(single)),
            ("a whole turn", whole, turn_moves),
        ):
            elapsed, plays, statements = timed(app, messages, "played")
            print(
                f"{label}: {len(messages)} messages in {elapsed:.2f} s, "
                f"{len(messages) / elapsed:.0f} messages/s, {count / elapsed:.0f} moves/s, "
                f"{count / len(messages):.1f} moves and {statements:.1f} SQL statements per "
                f"message ({dialect})"
            )


if __name__ == "__main__":
    main()
