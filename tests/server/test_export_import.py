"""`pbem export` and `pbem import`: a game written as JSON and built again in another
installation, state, log, record, snapshots and all; running games moved with their seed;
refusals that change nothing."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

import engine
from pbem import create_app, play
from pbem.cli import main
from pbem.clock import set_now
from pbem.extensions import db
from pbem.game.seating import Actor
from pbem.game.states import snapshots_of
from pbem.play import lifecycle, transfer
from pbem.store import queries
from pbem.store.models import (
    Deadline,
    Game,
    IdleLimit,
    Move,
    Notification,
    Player,
    Seat,
    Snapshot,
)
from tests.server.conftest import add_player_now, empty_tables, migrated_database, table_snapshot
from tests.server.helpers import stored_state
from tests.server.test_bad_input import UNKEEPABLE

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SOURCES = ("api", "email", "web", "timeout", "bot", "scheduler")


# --- a second installation ----------------------------------------------------------------


@pytest.fixture(scope="session")
def second_database_url(tmp_path_factory):
    """Another installation's database: a second SQLite file, or a second schema."""
    with migrated_database(tmp_path_factory, "second") as url:
        yield url


@pytest.fixture
def fresh_app(second_database_url):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": second_database_url})
    yield app
    empty_tables(app)


@pytest.fixture
def pbem_cli(app, capsys, monkeypatch):
    """`pbem ...` run in this process on the test database: (exit status, stdout, stderr)."""

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
        monkeypatch.setenv("SECRET_KEY", "export-test-secret")
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        with pytest.raises(SystemExit) as exit_:
            main(list(argv))
        out, err = capsys.readouterr()
        return exit_.value.code, out, err

    return run


# --- games to move ------------------------------------------------------------------------


def new_game(api, colours, options=None, timing=None, two_colour=False) -> int:
    tag = uuid.uuid4().hex[:8]
    if two_colour:
        people = [f"first-{tag}@example.org"] * 2 + [f"second-{tag}@example.org"] * 2
    else:
        people = [f"{c}-{tag}@example.org" for c in colours]
    for email in dict.fromkeys(people):
        api.register(email, email.split("-")[0].title())
    body = {
        "title": f"Game {tag}",
        "seats": [{"email": e, "colour": c} for e, c in zip(people, colours, strict=True)],
        "options": options or {},
        "timing": timing or {},
    }
    response = api.client.post("/api/games", json=body, headers=api.auth(api.keys[people[0]]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def play_runs(
    app, game_id: int, rng: random.Random, runs: int | None = None, submitted: int = 8
) -> None:
    """Play random batches, `runs` of them (None: to the end): a random pending colour plays
    1 to 8 random legal moves, from a random door, a few minutes after the batch before.

    The first `submitted` batches go through the one play function; the rest are written
    as it writes them (`append_batch`, `snapshots_of`) without its mail and deadlines, in
    one transaction, which keeps a dozen whole games to a few seconds.
    """
    with app.app_context():
        game = db.session.get(Game, game_id)
        holders = {s.colour: s.player_id for s in game.seats}
        state, seq, moment = stored_state(game), game.seq, START
        db.session.remove()
        while (runs is None or runs > 0) and not engine.is_over(state):
            colour = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
            before, moves = state, []
            for _ in range(rng.randint(1, 8)):
                legal = [] if engine.is_over(state) else engine.legal_moves(state, colour)
                if not legal:
                    break
                moves.append(rng.choice(legal))
                state, _ = engine.apply(state, colour, moves[-1])
            source = rng.choice(SOURCES)
            human = source in play.HUMAN_SOURCES
            moment += timedelta(minutes=rng.randint(1, 600), microseconds=rng.randint(0, 999))
            if submitted > 0:
                set_now(app, moment)
                actor = (
                    Actor.by_player(holders[colour], colour) if human else Actor.scheduler(colour)
                )
                play.submit(actor, game_id, seq, moves, source=source)
                db.session.remove()
                submitted -= 1
            else:
                player_id = holders[colour] if human else None
                store_batch(game_id, before, seq, colour, moves, source, player_id, moment)
            seq += len(moves)
            runs = None if runs is None else runs - 1
        db.session.commit()
        set_now(app, None)


def store_batch(game_id, before, seq, colour, moves, source, player_id, moment) -> None:
    """Write a batch as the play function's commit does, minus its mail and deadlines."""
    batch = engine.play_batch(before, colour, moves)
    finished = engine.is_over(batch.state)
    assert queries.append_batch(
        db.session.connection(),
        game_id,
        seq,
        state=engine.to_dict(batch.state),
        pending=[] if finished else engine.pending(batch.state),
        status="finished" if finished else "active",
        moves=[
            {
                "seq": seq + 1 + index,
                "colour": colour,
                "player_id": player_id,
                "move": played.move,
                "events": played.events,
                "source": source,
                "created_at": moment,
            }
            for index, played in enumerate(batch.played)
        ],
        snapshots=snapshots_of(batch, seq + 1),
        now=moment,
        abandon_at=None,
    )


def export(app, game_id: int, with_seed: bool = False) -> dict:
    with app.app_context():
        document = transfer.export_game(game_id, with_seed=with_seed)
        db.session.remove()
    # Through JSON text, as the file carries it.
    return json.loads(json.dumps(document))


def import_into(app, document: dict) -> int:
    with app.app_context():
        game_id = transfer.import_game(transfer.parse_document(json.dumps(document)))
        db.session.remove()
    return game_id


def portable(record: dict) -> dict:
    """A game's record as it travels between servers: the game's id and each seat's
    player_id belong to the server that holds them."""
    seats = [{k: v for k, v in seat.items() if k != "player_id"} for seat in record["seats"]]
    return {**without(record, "id"), "seats": seats}


def state_of(app, game_id: int) -> dict:
    with app.app_context():
        state = engine.to_dict(stored_state(db.session.get(Game, game_id)))
        db.session.remove()
    return state


def rows_of(app, game_id: int) -> tuple[list, list]:
    """The game's move rows (with events) and snapshot rows, as stored."""
    with app.app_context():
        moves = [
            (m.seq, m.colour, m.move, m.events, m.source, m.player_id is None)
            for m in db.session.execute(
                db.select(Move).where(Move.game_id == game_id).order_by(Move.seq)
            ).scalars()
        ]
        snapshots = [
            (s.seq, s.state)
            for s in db.session.execute(
                db.select(Snapshot).where(Snapshot.game_id == game_id).order_by(Snapshot.seq)
            ).scalars()
        ]
        db.session.remove()
    return moves, snapshots


def count(app, model, **where) -> int:
    with app.app_context():
        query = db.select(sa.func.count()).select_from(model).filter_by(**where)
        number = db.session.execute(query).scalar_one()
        db.session.remove()
    return number


def without(document: dict, *keys: str) -> dict:
    return {k: v for k, v in document.items() if k not in keys}


# --- round trips --------------------------------------------------------------------------


def test_twelve_random_finished_games_survive_export_and_import(app, api, fresh_app):
    fresh = fresh_app.test_client()
    rng = random.Random(20)
    setups = []
    for number in range(12):
        kind = number % 4
        if kind == 3:
            colours, options = ["red", "yellow", "green", "blue"], {"variant": "two_colour"}
        else:
            colours = ["red", "yellow", "green", "blue", "brown"][: 3 + kind]
            options = {"rounds": 6} if number % 3 == 0 else {}
            if number % 5 == 1:
                options["first_player"] = colours[-1]
        timing = {"turn_hours": 24 + number, "quiet_days": ["sun"]} if number % 2 else {}
        setups.append((colours, options, timing, kind == 3))
    assert {len(c) for c, _, _, _ in setups} == {3, 4, 5}
    assert sum(o.get("variant") == "two_colour" for _, o, _, _ in setups) == 3
    assert sum(o.get("rounds") == 6 for _, o, _, _ in setups) >= 3
    assert sum("first_player" in o for _, o, _, _ in setups) >= 2

    pairs = []
    for number, (colours, options, timing, two_colour) in enumerate(setups):
        game_id = new_game(api, colours, options, timing, two_colour)
        if number % 7 == 2:  # a seat a bot plays: the flag travels too
            with app.app_context():
                seat = db.session.execute(
                    db.select(Seat).filter_by(game_id=game_id, colour=colours[1])
                ).scalar_one()
                lifecycle.set_bot(seat.player, game_id, colours[1], True)
                db.session.commit()
                db.session.remove()
        play_runs(app, game_id, rng)
        document = export(app, game_id)
        assert document["format"] == "elgrande-pbem-game/1" and document["status"] == "finished"
        assert isinstance(document["seed"], int) and "seed_is_secret" not in document
        pairs.append((game_id, import_into(fresh_app, document), document))

    assert count(fresh_app, Notification) == 0  # nothing is mailed for a replayed game
    assert count(fresh_app, Deadline) == 0
    for original, imported, document in pairs:
        assert state_of(fresh_app, imported) == state_of(app, original)
        # What the API says of it: the log (with each move's events, source and time), the
        # record (seed, seats, moves, scores), and past states read from the snapshots.
        log = api.get(f"/api/games/{original}/log").get_json()
        assert fresh.get(f"/api/games/{imported}/log").get_json() == log
        record = api.get(f"/api/games/{original}/record").get_json()
        imported_record = fresh.get(f"/api/games/{imported}/record").get_json()
        assert portable(imported_record) == portable(record)
        assert record["seed"] == document["seed"] and record["scores"]
        assert rows_of(fresh_app, imported) == rows_of(app, original)
        last = len(log["moves"])
        for seq in sorted({0, 1, last // 3, last // 2 + 1, last - 1, last}):
            shown = api.get(f"/api/games/{original}/states/{seq}").get_json()
            again = fresh.get(f"/api/games/{imported}/states/{seq}").get_json()
            assert shown["seq"] == seq and without(again, "id") == without(shown, "id")
        # The copy exports as the original did: title, times, timing, seats, admin.
        assert without(export(fresh_app, imported), "exported_at") == without(
            document, "exported_at"
        )


def test_a_running_game_moves_with_its_seed_and_plays_on(app, api, fresh_app):
    game_id = new_game(api, ["red", "green", "blue"], timing={"power_card_hours": 30})
    play_runs(app, game_id, random.Random(3), runs=25)
    document = export(app, game_id, with_seed=True)
    assert document["status"] == "active" and document["finished_at"] is None
    assert document["seed_is_secret"] is True and "seed" in document["warning"]

    now = datetime(2027, 1, 4, 12, 0, tzinfo=UTC)
    set_now(fresh_app, now)
    imported = import_into(fresh_app, document)
    assert state_of(fresh_app, imported) == state_of(app, game_id)
    assert rows_of(fresh_app, imported) == rows_of(app, game_id)
    assert count(fresh_app, Notification) == 0
    # Its pending decisions have deadlines again, from the policy, counted from the import.
    with fresh_app.app_context():
        game = db.session.get(Game, imported)
        pending = engine.pending(stored_state(game))
        rows = db.session.execute(db.select(Deadline).filter_by(game_id=imported)).scalars().all()
        assert {d.colour for d in rows} == {p["player"] for p in pending} != set()
        for row in rows:
            opened = row.opened_at if row.opened_at.tzinfo else row.opened_at.replace(tzinfo=UTC)
            due = row.due_at if row.due_at.tzinfo else row.due_at.replace(tzinfo=UTC)
            assert opened == now and due >= now + timedelta(hours=24)
        # ... and the game is abandoned if no person moves in it for the policy's days.
        idle = db.session.get(IdleLimit, imported)
        abandon_at = (
            idle.abandon_at if idle.abandon_at.tzinfo else idle.abandon_at.replace(tzinfo=UTC)
        )
        assert abandon_at == now + timedelta(days=game.timing["abandon_after_days"])
        db.session.remove()

    # A seat's holder (invited here) claims their account and plays a legal move on.
    fresh = fresh_app.test_client()
    colour = pending[0]["player"]
    email = next(s["email"] for s in document["seats"] if s["colour"] == colour)
    key = add_player_now(fresh_app, email, "Mover")
    legal = fresh.get(
        f"/api/games/{imported}/legal-moves", headers={"Authorization": f"Bearer {key}"}
    )
    legal = legal.get_json()
    assert legal["seq"] == len(document["log"]) and legal["moves"]
    body = {"expected_seq": legal["seq"], "moves": legal["moves"][:1]}
    headers = {"Authorization": f"Bearer {key}"}
    response = fresh.post(f"/api/games/{imported}/moves", json=body, headers=headers)
    assert response.status_code == 201, response.get_json()
    view = fresh.get(f"/api/games/{imported}").get_json()
    assert view["seq"] == legal["seq"] + 1
    due = {d["player"]: d["due"] for d in view["deadlines"]}
    assert {p["player"] for p in view["pending"]} <= set(due)
    set_now(fresh_app, None)


def test_a_running_game_exported_without_its_seed_holds_none_and_is_refused(app, api, pbem_cli):
    game_id = new_game(api, ["red", "green", "blue", "brown"])
    play_runs(app, game_id, random.Random(4), runs=10)
    status, text, _ = pbem_cli("export", str(game_id))
    assert status == 0
    with app.app_context():
        seed = db.session.get(Game, game_id).seed
        db.session.remove()
    document = json.loads(text)
    assert "seed" not in document and str(seed) not in text and "seed_is_secret" not in document
    assert len(document["log"]) == count(app, Move, game_id=game_id) > 0

    before = table_snapshot(app)
    status, _, error = pbem_cli("import", "-", stdin=text)
    assert status == 2 and "holds no seed" in error and "--with-seed" in error
    assert table_snapshot(app) == before


def test_an_aborted_game_keeps_its_status_and_end(app, api, fresh_app):
    game_id = new_game(api, ["red", "green", "blue"])
    play_runs(app, game_id, random.Random(7), runs=6)
    admin = api.keys[next(iter(api.keys))]
    assert (
        api.client.post(f"/api/games/{game_id}/abort", headers=api.auth(admin)).status_code == 200
    )
    document = export(app, game_id, with_seed=True)
    assert document["status"] == "aborted" and document["finished_at"]
    imported = import_into(fresh_app, document)
    assert without(export(fresh_app, imported, with_seed=True), "exported_at") == without(
        document, "exported_at"
    )
    assert state_of(fresh_app, imported) == state_of(app, game_id)
    assert count(fresh_app, Deadline) == 0 and count(fresh_app, Notification) == 0


# --- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", UNKEEPABLE.values(), ids=UNKEEPABLE)
def test_a_title_or_seat_name_no_door_keeps_is_refused_and_changes_nothing(
    app, api, pbem_cli, tmp_path, bad
):
    typed = bad[0]
    game_id = new_game(api, ["red", "green", "blue"])
    good = export(app, game_id, with_seed=True)
    for seat in good["seats"]:  # players this database does not know: none is invited
        seat["email"] = "renamed-" + seat["email"]
    good["admin"] = "renamed-" + good["admin"]
    seats = [good["seats"][0], {**good["seats"][1], "name": typed}, *good["seats"][2:]]
    cases = {
        "title": ({**good, "title": typed}, "The title must be 1 to 200 characters on one line"),
        "seat": ({**good, "seats": seats}, "The name of seat 2 must be 1 to 100 characters"),
    }
    before = table_snapshot(app)
    for name, (document, message) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(document))
        status, out, err = pbem_cli("import", str(path))
        assert status == 2 and out == "", name
        assert err.startswith("pbem import: ") and message in err, (name, err)
        assert "no control or direction characters" in err, err
        assert table_snapshot(app) == before, name


def test_each_bad_file_is_refused_in_one_line_and_changes_nothing(app, api, pbem_cli, tmp_path):
    game_id = new_game(api, ["red", "green", "blue"])
    play_runs(app, game_id, random.Random(5), runs=12)
    good = export(app, game_id, with_seed=True)
    # Players this database does not know, so a late refusal would have invited them.
    for seat in good["seats"]:
        seat["email"] = "moved-" + seat["email"]
    good["admin"] = "moved-" + good["admin"]
    log = good["log"]
    refused_move = {**log[5], "move": {"type": "place", "to": "nowhere"}}
    cases = {
        "not JSON": ("{not json", "is not JSON"),
        "not this format": (json.dumps({"title": "x"}), 'no "format": "elgrande-pbem-game/1"'),
        "another program's format": (json.dumps({**good, "format": "chess/1"}), "not an El"),
        "an unknown version": (
            json.dumps({**good, "format": "elgrande-pbem-game/2"}),
            "'elgrande-pbem-game/2', which this server does not know",
        ),
        "no seed": (json.dumps(without(good, "seed")), "holds no seed"),
        "a move the engine refuses": (
            json.dumps({**good, "log": [*log[:5], refused_move, *log[6:]]}),
            "The engine refuses move 6 (",
        ),
        "a colour without a seat": (
            json.dumps({**good, "log": [*log[:3], {**log[3], "colour": "yellow"}, *log[4:]]}),
            "Move 4 is played by 'yellow', which holds no seat",
        ),
        "a gap in the log": (json.dumps({**good, "log": log[:3] + log[4:]}), "has seq 5"),
        "a bad timing": (json.dumps({**good, "timing": {"turn_hours": 0}}), "turn_hours"),
        "an address nobody reads": (
            json.dumps(
                {
                    **good,
                    "seats": [
                        {**good["seats"][0], "email": "x@nowhere.invalid"},
                        *good["seats"][1:],
                    ],
                }
            ),
            "Seat 1's email x@nowhere.invalid cannot receive mail",
        ),
    }
    before = table_snapshot(app)
    for name, (text, message) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        status, out, err = pbem_cli("import", str(path))
        assert status == 2, name
        assert err.startswith("pbem import: ") and message in err, (name, err)
        assert err.count("\n") == 1 and out == "", name
        assert table_snapshot(app) == before, name
    # The refused move's message is the engine's own reason.
    state = engine.new_game([s["colour"] for s in good["seats"]], seed=good["seed"])
    for entry in log[:5]:
        state, _ = engine.apply(state, entry["colour"], entry["move"])
    with pytest.raises(engine.IllegalMove) as refusal:
        engine.apply(state, refused_move["colour"], refused_move["move"])
    err = pbem_cli("import", str(tmp_path / "a move the engine refuses.json"))[2]
    assert err.rstrip().endswith(refusal.value.message)
    # Nothing to read, and no such game to export: the same way out.
    status, _, err = pbem_cli("import", str(tmp_path / "missing.json"))
    assert status == 2 and "missing.json" in err
    status, _, err = pbem_cli("export", "999999")
    assert status == 2 and "There is no game 999999" in err
    assert table_snapshot(app) == before


DOCUMENT = {
    "format": "elgrande-pbem-game/1",
    "title": "A game",
    "status": "active",
    "options": {},
    "timing": {},
    "created_at": "2026-01-01T00:00:00",  # naive: read as UTC
    "finished_at": None,
    "admin": "a@example.org",
    "seats": [
        {"colour": "red", "name": "A", "email": "a@example.org", "bot": False},
        {"colour": "blue", "name": "B", "email": "b@example.org", "bot": False},
    ],
    "seed": 1,
    "log": [{"seq": 1, "colour": "red", "move": {}, "source": "api", "time": "2026-01-01"}],
}


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("seed",), True, 'The field "seed" must be a whole number; it is True.'),
        (
            ("log", 0, "seq"),
            1.0,
            'The field "seq" of log entry 1 must be a whole number; it is 1.0.',
        ),
        (("seats", 1, "bot"), 1, 'The field "bot" of seat 2 must be true or false; it is 1.'),
        (("seats", 1), "x", "Seat 2 is not an object."),
        (("timing",), [], 'The field "timing" must be an object; it is [].'),
        (("created_at",), "{value}", 'The field "created_at" must be an ISO 8601 time such as'),
        (("status",), "$value", "The status '$value' is none of active,"),
        (("admin",), "a.org", "The email of admin ('a.org') is not an email address."),
    ],
)
def test_a_field_of_the_wrong_kind_is_refused_by_name(path, value, message):
    assert transfer.check_document(json.loads(json.dumps(DOCUMENT)))["seed"] == 1
    document = json.loads(json.dumps(DOCUMENT))
    *parents, last = path
    target = document
    for key in parents:
        target = target[key]
    target[last] = value
    with pytest.raises(transfer.ImportRefused) as refusal:
        transfer.check_document(document)
    assert refusal.value.detail.startswith(message)


def test_a_game_against_house_bots_moves_with_its_bots(app, api, fresh_app):
    key = api.register("human@example.org", "Human")
    seats = [{"email": "human@example.org", "colour": "red"}]
    seats += [{"colour": c, "bot": True} for c in ("blue", "green")]
    body = {"title": "Against bots", "seats": seats}
    game_id = api.client.post("/api/games", json=body, headers=api.auth(key)).get_json()["id"]
    document = export(app, game_id, with_seed=True)
    assert [s["email"] for s in document["seats"][1:]] == [
        "bot-1@bots.invalid",
        "bot-2@bots.invalid",
    ]
    moved = import_into(fresh_app, document)
    with fresh_app.app_context():
        game = db.session.get(Game, moved)
        held = [(s.colour, s.player.name, s.bot, s.player.api_key_hash) for s in game.seats]
        bot = game.seats[1].player
        assert (bot.preferences or {}).get("claim_nonce") is None  # nobody can claim it
        db.session.remove()
    assert held == [
        ("red", "Human", False, None),
        ("blue", "Bot 1", True, None),
        ("green", "Bot 2", True, None),
    ]


def test_the_cli_exports_to_a_file_and_imports_from_it(app, api, fresh_app, tmp_path):
    game_id = new_game(api, ["red", "yellow", "green"], options={"rounds": 6})
    play_runs(app, game_id, random.Random(6))
    path = tmp_path / "game.json"

    def pbem(target, *argv):
        env = {
            **os.environ,
            "DATABASE_URL": target.config["SQLALCHEMY_DATABASE_URI"],
            "SECRET_KEY": "export-test-secret",
        }
        args = [sys.executable, "-m", "pbem.cli", *argv]
        return subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)

    done = pbem(app, "export", str(game_id), "-o", str(path))
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert json.loads(path.read_text())["log"]
    done = pbem(fresh_app, "import", str(path))
    assert done.returncode == 0, done.stderr
    imported = int(done.stdout.strip())
    assert state_of(fresh_app, imported) == state_of(app, game_id)
    with fresh_app.app_context():
        emails = {p.email for p in db.session.execute(db.select(Player)).scalars()}
        db.session.remove()
    assert {s["email"] for s in json.loads(path.read_text())["seats"]} == emails


# --- the table: words kept in the record, notes never -------------------------------------


def _talk_rows(app, game_id: int) -> list[tuple]:
    with app.app_context():
        rows = db.session.execute(
            sa.text(
                "SELECT t.seq, t.colour, t.text, t.source, p.email FROM table_talk t "
                "JOIN players p ON p.id = t.player_id WHERE t.game_id = :g ORDER BY t.id"
            ),
            {"g": game_id},
        ).all()
        db.session.remove()
    return [tuple(r) for r in rows]


def test_the_words_to_the_table_move_with_the_game_and_the_notes_stay(app, api, fresh_app):
    game_id = new_game(api, ["red", "green", "blue"])
    red, green = (api.keys[e] for e in list(api.keys)[-3:-1])
    said = ["Good luck <b>all</b>", "Thanks\nyou too"]
    for key, text in zip((red, green), said, strict=True):
        response = api.client.post(
            f"/api/games/{game_id}/messages", json={"text": text}, headers=api.auth(key)
        )
        assert response.status_code == 201, response.get_json()
    play_runs(app, game_id, random.Random(4), runs=3)
    secret = "NOTE-4471 green holds the 13"
    api.client.put(f"/api/games/{game_id}/notes", json={"text": secret}, headers=api.auth(red))
    document = export(app, game_id, with_seed=True)
    assert [(t["seq"], t["colour"], t["text"], t["source"]) for t in document["talk"]] == [
        (0, "red", said[0], "api"),
        (0, "green", said[1], "api"),
    ]
    assert "NOTE-4471" not in json.dumps(document)
    imported = import_into(fresh_app, document)
    assert _talk_rows(fresh_app, imported) == _talk_rows(app, game_id)
    assert count(fresh_app, Notification) == 0  # the players read them when written
    # A file from before the talk was exported imports with none.
    assert _talk_rows(fresh_app, import_into(fresh_app, without(document, "talk"))) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": "pink"}, "Word to the table 1 is written by 'pink', which holds no seat"),
        ({"seq": 99}, "Word to the table 1 was written after move 99"),
        ({"text": ""}, "The text of word to the table 1 must be 1 to 500 characters"),
        ({"source": "bot"}, "Word to the table 1 has the source 'bot'"),
    ],
)
def test_a_bad_word_to_the_table_is_refused_by_name(change, message):
    document = json.loads(json.dumps(DOCUMENT))
    word = {"seq": 0, "colour": "red", "text": "hi", "source": "web", "time": START.isoformat()}
    document["talk"] = [{**word, **change}]
    with pytest.raises(transfer.ImportRefused) as refusal:
        transfer.check_document(document)
    assert refusal.value.detail.startswith(message)
