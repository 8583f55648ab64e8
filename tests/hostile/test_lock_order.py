"""One lock order for a game's rows: the game's, then its deadlines'. Seats handed over
through gunicorn while the sweep plays bots in the same games meet no deadlock (counted by
PostgreSQL itself, in `pg_stat_database`) and no 5xx."""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import sqlalchemy as sa

from pbem.extensions import db
from pbem.schedule.sweep import sweep

GAMES = 6
#: Each game's seat handed over this many times, one after another (hand-overs of one seat
#: at once would race each other, which is not what is tried here).
EACH = 5


def deadlocks(server) -> int:
    """The deadlocks PostgreSQL has counted in this database, once its statistics are in."""
    with server.app.app_context():
        connection = db.session.connection()
        connection.execute(sa.text("SELECT pg_stat_clear_snapshot()"))
        found = connection.execute(
            sa.text("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        ).scalar_one()
        db.session.remove()
    return int(found)


def bots_game(server) -> tuple[int, str]:
    """A game of three seats played by greedy bots (its organiser's too): the sweep plays it
    without waiting for anyone; the organiser's key."""
    organiser, key = server.player("organiser")
    seats = [{"colour": "red", "email": organiser}]
    seats += [{"colour": c, "bot": True, "level": "greedy"} for c in ("blue", "green")]
    body = {"title": "Bots at work", "seats": seats, "timing": {"takeover_bot": "greedy"}}
    made = server.call("POST", "/api/games", key, body)
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    handed = server.call("PUT", f"/api/games/{game_id}/seats/red/bot", key, {"bot": True})
    assert handed.status_code == 200, handed.text
    return game_id, key


def test_seats_handed_over_while_the_sweep_plays_bots_meet_no_deadlock(server):
    games = [bots_game(server) for _ in range(GAMES)]
    people = [server.player("newcomer") for _ in range(GAMES * EACH)]
    before = deadlocks(server)
    stop = threading.Event()
    swept: Counter[str] = Counter()

    def sweeping() -> None:
        server.app.config["PBEM_SWEEP_BOT_SECONDS"] = 0.2
        with server.app.app_context():
            while not stop.is_set():
                swept["actions"] += len(sweep())
                swept["passes"] += 1
            db.session.remove()

    def hand_overs(number: int):
        """The organiser gives blue to a newcomer, who lets the bot play it again: `EACH`
        times in game `number`; the answers."""
        game_id, organiser_key = games[number]

        def calls() -> list:
            answers = []
            for address, key in people[number * EACH : (number + 1) * EACH]:
                path = f"/api/games/{game_id}/seats/blue"
                answers.append(server.call("PUT", path, organiser_key, {"email": address}))
                if answers[-1].status_code == 200:
                    answers.append(server.call("PUT", f"{path}/bot", key, {"bot": True}))
            return answers

        return calls

    sweeper = threading.Thread(target=sweeping)
    sweeper.start()
    try:
        time.sleep(0.5)  # the sweep under way in every game
        barrier = threading.Barrier(GAMES)

        def together(calls):
            barrier.wait()
            return calls()

        with ThreadPoolExecutor(GAMES) as pool:
            answers = list(pool.map(together, [hand_overs(n) for n in range(GAMES)]))
        responses = [r for each in answers for r in each]
    finally:
        stop.set()
        sweeper.join(timeout=60)
    time.sleep(1.1)  # a backend reports its statistics within a second
    counted = Counter(r.status_code for r in responses)
    figures = f"{dict(counted)}; the sweep: {dict(swept)}"
    print(f"hand-overs: {figures}")
    assert not any(status >= 500 for status in counted), figures
    # A game the bots finished meanwhile refuses with a 409 that says so; the rest went through.
    assert set(counted) <= {200, 409}, figures
    assert all("no longer" in r.json()["detail"] for r in responses if r.status_code == 409)
    assert counted[200] >= GAMES * EACH, figures
    assert swept["actions"] >= GAMES * EACH // 2, figures  # the bots played all along
    assert deadlocks(server) == before, figures
