"""Deadlines with a controlled clock: reminders, timeouts, Veto windows closing, vacation,
bots taking and giving back seats, idle games abandoned, and two sweeps at once."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

import engine
from pbem.clock import set_now
from pbem.extensions import db
from pbem.game.state_cache import StateCache
from pbem.schedule.sweep import sweep
from pbem.store.models import Deadline, Game, Move, Notification, Seat, Snapshot
from pbem.timing import deadlines
from tests.engine.helpers import acting, empty_board, set_caballeros
from tests.server.mail_helpers import body_text
from tests.server.test_mail_out import addresses_of, deliver

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)  # a Monday
TIMING = {"power_card_hours": 48, "turn_hours": 72, "veto_hours": 24, "reminders": [24, 4]}


def new_game(api, app, colours=("red", "blue", "green"), timing=None):
    set_now(app, T0)
    key = None
    keys = {}
    for colour in colours:
        keys[colour] = api.register(f"{colour}@example.org", colour.title())
    key = keys[colours[0]]
    body = {
        "title": "Timed",
        "seats": [{"email": f"{c}@example.org", "colour": c} for c in colours],
        "timing": {**TIMING, **(timing or {})},
    }
    response = api.client.post("/api/games", json=body, headers=api.auth(key))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"], keys


def at(app, hours: float) -> list[str]:
    """Sweep as if `hours` after T0; the lines it printed."""
    set_now(app, T0 + timedelta(hours=hours))
    with app.app_context():
        lines = sweep()
        db.session.remove()
    return lines


def first_pending(api, game_id):
    return api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]


def test_the_view_shows_each_pending_decisions_deadline(mail_app, mail_api):
    game_id, keys = new_game(mail_api, mail_app)
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    colour = view["pending"][0]["player"]
    assert view["deadlines"] == [
        {"player": colour, "decision": "power_card", "due": (T0 + timedelta(hours=48)).isoformat()}
    ]


def test_reminders_at_24_and_4_hours_each_once(mail_app, mail_api, smtp):
    game_id, keys = new_game(mail_api, mail_app)
    colour = first_pending(mail_api, game_id)
    assert at(mail_app, 23) == []
    assert at(mail_app, 24) == [f"game {game_id}: reminded {colour} (24 h before the deadline)"]
    assert at(mail_app, 24.5) == []
    assert at(mail_app, 44) == [f"game {game_id}: reminded {colour} (4 h before the deadline)"]
    assert at(mail_app, 47) == []
    deliver(mail_app)
    address = dict(addresses_of(mail_app, game_id))[colour]
    reminders = [m for m in smtp.inbox.to(address) if "reminder:" in m["Subject"]]
    assert len(reminders) == 2
    assert "Decide by Wed, Dec 9, 2026, 09:00 UTC" in body_text(reminders[0])


def test_a_timeout_plays_the_default_move_and_mails_it(mail_app, mail_api, smtp):
    game_id, keys = new_game(mail_api, mail_app)
    colour = first_pending(mail_api, game_id)
    at(mail_app, 44)  # the 4 h reminder
    lines = at(mail_app, 48)
    assert lines == [f"game {game_id}: {colour} timed out on power_card; played power 1"]
    (entry,) = mail_api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert (entry["player"], entry["move"], entry["source"]) == (
        colour,
        {"type": "play_power_card", "card": 1},
        "timeout",
    )
    assert at(mail_app, 48.1) == []  # once
    deliver(mail_app)
    address = dict(addresses_of(mail_app, game_id))[colour]
    (told,) = [m for m in smtp.inbox.to(address) if "your time ran out" in m["Subject"]]
    assert "the server played for you:\n  power card 1\n" in body_text(told)
    # The next player's deadline runs from the timeout, not from the game's start.
    nxt = mail_api.get(f"/api/games/{game_id}").get_json()["deadlines"][0]
    assert nxt["due"] == (T0 + timedelta(hours=96)).isoformat()


def put_state(app, game_id, state):
    """Test-only: make the game's stored state `state` (a position the rules reach, set up
    directly), with its deadlines, as if it had been played to."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        game.state = engine.to_dict(state)
        game.pending = engine.pending(state)
        # Past states are read from snapshots: this one is the state at the game's seq.
        db.session.execute(
            sa.delete(Snapshot).where(Snapshot.game_id == game_id, Snapshot.seq == game.seq)
        )
        db.session.add(Snapshot(game_id=game_id, seq=game.seq, state=game.state))
        db.session.execute(sa.delete(Deadline).where(Deadline.game_id == game_id))
        deadlines.sync(db.session.connection(), game_id, game.timing, state, T0)
        db.session.commit()
        db.session.remove()
    app.extensions["pbem_state_cache"] = StateCache()


def test_a_veto_window_and_its_counter_window_expire_as_allow(mail_app, mail_api, smtp):
    game_id, keys = new_game(mail_api, mail_app)
    with mail_app.app_context():
        seed = db.session.get(Game, game_id).seed
        db.session.remove()
    board = empty_board(engine.new_game(["red", "blue", "green"], seed=seed))
    board = set_caballeros(board, "red", court=5)
    state = acting(board, "red", "royal_adviser", stack=4, vetoes=("blue", "green"))
    king = state.king
    from engine.data import NEIGHBOURS

    to = sorted(NEIGHBOURS[king])[0]
    state, _ = engine.apply(state, "red", {"type": "move_king", "to": to})
    holders = {p["player"] for p in engine.pending(state)}
    assert holders == {"blue", "green"}
    put_state(mail_app, game_id, state)
    seq = mail_api.get(f"/api/games/{game_id}").get_json()["seq"]
    # Blue vetoes at once; green stays silent.
    vetoed = mail_api.post_moves(game_id, keys["blue"], [{"type": "veto", "from_step": 1}], seq)
    assert vetoed.status_code == 201, vetoed.get_json()
    assert not any("timed out" in line for line in at(mail_app, 23))  # a reminder at 20 h
    lines = at(mail_app, 24)
    assert lines == [f"game {game_id}: green timed out on veto_window; played allow"]
    # Blue's veto now faces a counter window: green, the other Veto's holder, is silent again.
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    assert [(p["player"], p.get("vetoer")) for p in view["pending"]] == [("green", "blue")]
    assert not any("timed out" in line for line in at(mail_app, 47))
    assert at(mail_app, 48) == [f"game {game_id}: green timed out on veto_window; played allow"]
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    assert view["king"] == king  # blue's veto stood: the king did not move
    deliver(mail_app)
    green = dict(addresses_of(mail_app, game_id))["green"]
    closed = [m for m in smtp.inbox.to(green) if "the Veto window closed" in m["Subject"]]
    assert len(closed) == 2 and 'counts as "allow"' in body_text(closed[0])


def test_an_absence_pushes_a_deadline_and_the_allowance_runs_out(mail_app, mail_api):
    game_id, keys = new_game(mail_api, mail_app, timing={"vacation_days": 3})
    colour = first_pending(mail_api, game_id)
    key = keys[colour]
    # Away from hour 24 to hour 72: the deadline at 48 moves after it, by the 24 h it ate.
    response = mail_api.client.post(
        "/api/players/me/absences",
        json={
            "from": (T0 + timedelta(hours=24)).isoformat(),
            "until": (T0 + timedelta(hours=72)).isoformat(),
        },
        headers=mail_api.auth(key),
    )
    assert response.status_code == 201, response.get_json()
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    assert view["deadlines"][0]["due"] == (T0 + timedelta(hours=96)).isoformat()
    set_now(mail_app, T0 + timedelta(hours=30))
    others = mail_api.get(f"/api/games/{game_id}").get_json()
    assert others["away"] == {colour: (T0 + timedelta(hours=72)).isoformat()}
    # A second, long absence: the allowance (3 days) is 2 days short of it; what is left
    # (1 day) is all it pushes.
    mail_api.client.post(
        "/api/players/me/absences",
        json={
            "from": (T0 + timedelta(hours=80)).isoformat(),
            "until": (T0 + timedelta(hours=200)).isoformat(),
        },
        headers=mail_api.auth(key),
    )
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    assert view["deadlines"][0]["due"] == (T0 + timedelta(hours=120)).isoformat()
    assert not any("timed out" in line for line in at(mail_app, 119.9))
    assert any("timed out" in line for line in at(mail_app, 120))


def test_a_bot_takes_the_seat_after_timeouts_and_hands_it_back(mail_app, mail_api, smtp):
    game_id, keys = new_game(mail_api, mail_app, timing={"bot_after_timeouts": 2})
    first = first_pending(mail_api, game_id)
    at(mail_app, 48)  # first's first timeout (power card)
    hours = 48
    # Let everyone else time out too, until first's next decision times out as well.
    while True:
        with mail_app.app_context():
            seats = db.session.execute(sa.select(Seat).where(Seat.game_id == game_id)).scalars()
            bots = {seat.colour: (seat.timeouts, seat.bot) for seat in seats}
            db.session.remove()
        timeouts, bot = bots[first]
        if bot:
            break
        # The others take their seats back from the bot at once: else bots alone would play
        # the game to its end in one sweep.
        for colour in (c for c, (_, b) in bots.items() if b):
            mail_api.client.put(
                f"/api/games/{game_id}/seats/{colour}/bot",
                json={"bot": False},
                headers=mail_api.auth(keys[colour]),
            )
        assert hours < 2000
        hours += 72
        at(mail_app, hours)
    assert timeouts == 2
    summary = mail_api.get("/api/games", keys[first]).get_json()["games"][0]
    assert next(s for s in summary["seats"] if s["colour"] == first)["bot"] is True
    # The bot plays the seat's next decisions at once (no waiting for a deadline), as "bot".
    at(mail_app, hours + 0.01)
    log = mail_api.get(f"/api/games/{game_id}/log").get_json()["moves"]
    assert any(e["player"] == first and e["source"] == "bot" for e in log)
    # Taking it back: one call; the others are told.
    response = mail_api.client.put(
        f"/api/games/{game_id}/seats/{first}/bot",
        json={"bot": False},
        headers=mail_api.auth(keys[first]),
    )
    assert response.status_code == 200, response.get_json()
    deliver(mail_app)
    for colour, address in addresses_of(mail_app, game_id):
        told = [m for m in smtp.inbox.to(address) if f"plays {first} again" in m["Subject"]]
        assert len(told) == (0 if colour == first else 1)
    with mail_app.app_context():
        seat = db.session.execute(
            sa.select(Seat).where(Seat.game_id == game_id, Seat.colour == first)
        ).scalar_one()
        assert (seat.bot, seat.timeouts) == (False, 0)
        db.session.remove()
    # Another's seat is not yours to hand over.
    other = next(c for c in keys if c != first)
    refused = mail_api.client.put(
        f"/api/games/{game_id}/seats/{other}/bot",
        json={"bot": True},
        headers=mail_api.auth(keys[first]),
    )
    assert refused.status_code == 403


def test_an_idle_game_is_abandoned(mail_app, mail_api, smtp):
    game_id, keys = new_game(
        mail_api, mail_app, timing={"abandon_after_days": 5, "power_card_hours": 1000}
    )
    assert not any("abandoned" in line for line in at(mail_app, 5 * 24 - 1))
    assert f"game {game_id}: abandoned" in " ".join(at(mail_app, 5 * 24))
    view = mail_api.get(f"/api/games/{game_id}").get_json()
    assert view["status"] == "abandoned" and view["deadlines"] == []
    assert at(mail_app, 6 * 24) == []
    deliver(mail_app)
    for _, address in addresses_of(mail_app, game_id):
        assert any("abandoned" in m["Subject"] for m in smtp.inbox.to(address))


def test_two_sweeps_at_once_act_once(mail_app, mail_api):
    ids = []
    for index in range(4):
        set_now(mail_app, T0)
        tag = f"p{index}"
        keys = [mail_api.register(f"{tag}{c}@example.org") for c in ("red", "blue")]
        body = {
            "title": f"Race {index}",
            "seats": [{"email": f"{tag}{c}@example.org", "colour": c} for c in ("red", "blue")],
            "timing": TIMING,
        }
        response = mail_api.client.post("/api/games", json=body, headers=mail_api.auth(keys[0]))
        ids.append(response.get_json()["id"])
    set_now(mail_app, T0 + timedelta(hours=48))
    results: list[list[str]] = []
    barrier = threading.Barrier(2)

    def one_sweep():
        with mail_app.app_context():
            barrier.wait()
            results.append(sweep())
            db.session.remove()

    threads = [threading.Thread(target=one_sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    timed_out = [line for lines in results for line in lines if "timed out" in line]
    assert len(timed_out) == len(ids)
    with mail_app.app_context():
        for game_id in ids:
            moves = db.session.execute(sa.select(Move).where(Move.game_id == game_id)).scalars()
            assert [m.source for m in moves] == ["timeout"]
            mails = db.session.execute(
                sa.select(Notification).where(
                    Notification.game_id == game_id, Notification.kind == "timeout"
                )
            ).scalars()
            assert len(list(mails)) == 1
        db.session.remove()


def test_pbem_scheduler_runs_a_pass_and_stops_on_sigterm(tmp_path):
    url = "sqlite:///" + str(tmp_path / "sched.sqlite")
    env = {
        "DATABASE_URL": url,
        "SECRET_KEY": "test-secret-" + "x" * 20,
        "PATH": "/usr/bin:/bin",
        "PBEM_SWEEP_SECONDS": "0.5",  # a pass every half second while the test watches
    }
    from pbem import create_app
    from pbem.cli import upgrade_database

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "TESTING": True})
    upgrade_database(app)
    client = app.test_client()
    from tests.server.conftest import Api

    api = Api(client)
    game_id, keys = api.new_game(["red", "blue"])
    with app.app_context():
        # Due already: the scheduler's first pass must time it out.
        db.session.execute(
            sa.update(Deadline).values(
                due_at=datetime.now(UTC) - timedelta(minutes=1),
                next_at=datetime.now(UTC) - timedelta(minutes=1),
            )
        )
        db.session.commit()
    process = subprocess.Popen(
        [sys.executable, "-m", "pbem.cli", "scheduler"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        played = False
        while time.monotonic() < deadline and not played:
            time.sleep(0.5)
            with app.app_context():
                played = db.session.execute(sa.select(Move.source)).scalars().all() == ["timeout"]
                db.session.remove()
        assert played, "the scheduler did not time out the due decision"
        process.terminate()
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, out
    assert "Scheduler: sweep every 0.5 s, mail every 2 s." in out
    assert "Scheduler stopped." in out


def test_a_seat_that_timed_out_moves_again_and_its_count_starts_over(mail_app, mail_api):
    """A person's own move on a seat with timeouts counted sets the count back to 0 (the
    statement once named its parameter after the column, which SQLAlchemy refuses in an
    UPDATE: the move answered 500)."""
    game_id, keys = new_game(mail_api, mail_app, timing={"bot_after_timeouts": 3})
    first = first_pending(mail_api, game_id)
    at(mail_app, 48)  # first's power card times out
    with mail_app.app_context():
        seat = db.session.execute(
            sa.select(Seat).where(Seat.game_id == game_id, Seat.colour == first)
        ).scalar_one()
        assert (seat.timeouts, seat.bot) == (1, False)
        db.session.remove()
    for _ in range(20):  # the others play until first has a decision of its own again
        view = mail_api.get(f"/api/games/{game_id}").get_json()
        colour = view["pending"][0]["player"]
        moves = mail_api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()["moves"]
        response = mail_api.post_moves(game_id, keys[colour], [moves[0]], view["seq"])
        assert response.status_code == 201, response.get_json()
        if colour == first:
            break
    else:
        raise AssertionError(f"{first} was never asked again")
    with mail_app.app_context():
        seat = db.session.execute(
            sa.select(Seat).where(Seat.game_id == game_id, Seat.colour == first)
        ).scalar_one()
        assert seat.timeouts == 0
        db.session.remove()
