"""How many times a game by mail waits for people, with and without orders given in advance.

Games are played through the service: players and games are made and orders given through
the API (the Flask test client), and each person's answer is played by `play.submit` (the
play function every door uses) in the app, with the clock injected (`set_now`), so a
simulated month runs in seconds. Nothing is mailed: the outbox's rows are counted.

People: each answers a decision that became theirs after a delay drawn from a log-normal
distribution (median 8 hours, sigma 1.0: a quarter of answers take over 16 hours, one in
ten over 29), and never at night in their time zone (23:00-07:00; a time zone drawn per
person from UTC-8 to UTC+9): an answer falling in the night comes at 07:00 plus up to an
hour. What they answer is the greedy bot's choice (`engine.bots.GreedyBot`) for the whole
decision, as the sweep plays for a seat. Deadlines are 30 days, so no timeout plays.

A wait is a set of people who must answer before the game can go on: counted each time a
move leaves a decision pending that was not before (simultaneous picks count once; so do a
Veto window's holders, asked together).

Modes:
  none   no orders;
  power  every seat orders its power cards: on reading its first mail (its welcome, after a
         delay as any answer) and whenever it answers its turn, it orders its whole hand in
         a random order for its next power card;
  both   as `power`, and each time a seat answers anything it says `veto allow` (standing
         for the rest of that round).

    python bench/waits.py --games 50                 # 3, 4 and 5 players, every mode
    python bench/waits.py --games 5 --players 5 --db postgresql

Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import COLOURS, add_players, database  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, bench/ comes first on the path, and bench/engine.py is not the engine.
sys.path.insert(0, str(ROOT))

T0 = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)  # a Monday
MEDIAN_HOURS, SIGMA = 8.0, 1.0
NIGHT = (23, 7)  # local hours, from and until
HOURS = 24 * 30
TIMING = {
    "power_card_hours": HOURS,
    "turn_hours": HOURS,
    "pick_hours": HOURS,
    "veto_hours": HOURS,
    "reminders": [],
    "abandon_after_days": 365,
}
MODES = ("none", "power", "both")
WELCOME = "welcome"
KINDS = {"power_card": "power", "turn": "turns", "veto_window": "veto"}


@dataclass
class Person:
    colour: str
    player_id: int
    key: str
    offset: int  # hours from UTC
    rng: random.Random

    def answers_at(self, moment: datetime) -> datetime:
        """When this person answers something that reached them at `moment`."""
        hours = self.rng.lognormvariate(math.log(MEDIAN_HOURS), SIGMA)
        at = moment + timedelta(hours=hours)
        local = at + timedelta(hours=self.offset)
        start, end = NIGHT
        if local.hour >= start or local.hour < end:
            morning = local.replace(hour=end, minute=0, second=0, microsecond=0)
            if local.hour >= start:
                morning += timedelta(days=1)
            morning += timedelta(minutes=self.rng.uniform(0, 60))
            at = morning - timedelta(hours=self.offset)
        return at


@dataclass
class Result:
    waits: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    decision_mails: float = 0.0
    days: float = 0.0
    finished: bool = False


def make_game(app, client, players: int, rng: random.Random) -> tuple[int, list[Person]]:
    tag = uuid.uuid4().hex[:10]
    colours = COLOURS[:players]
    made = add_players(app, {f"{c}-{tag}@example.org": c.title() for c in colours})
    keys = {c: made[f"{c}-{tag}@example.org"] for c in colours}
    body = {
        "title": f"Waits {tag}",
        "seats": [{"email": f"{c}-{tag}@example.org", "colour": c} for c in colours],
        "timing": TIMING,
    }
    response = client.post("/api/games", json=body, headers=_auth(keys[colours[0]]))
    assert response.status_code == 201, response.get_json()
    people = [
        Person(c, 0, keys[c], rng.randint(-8, 9), random.Random(rng.random())) for c in colours
    ]
    return response.get_json()["id"], people


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def give_orders(client, game_id: int, person: Person, state, mode: str) -> None:
    """The person's orders, through the API: their whole hand in a random order, and for
    `both` a standing allow for this round's Veto windows."""
    body: dict = {}
    if mode in ("power", "both"):
        hand = list(state.hands.get(person.colour, []))
        person.rng.shuffle(hand)
        body["power_cards"] = hand
    if mode == "both":
        body["veto"] = "allow"
    response = client.put(
        f"/api/games/{game_id}/seats/{person.colour}/orders", json=body, headers=_auth(person.key)
    )
    assert response.status_code in (200, 409), response.get_data(as_text=True)


def play_game(app, client, players: int, mode: str, seed: int) -> Result:
    import engine
    from engine.bots import GreedyBot
    from pbem import play
    from pbem.clock import set_now
    from pbem.errors import NothingToPlay, StaleSequence
    from pbem.extensions import db
    from pbem.game.seating import Actor
    from pbem.game.states import current_state
    from pbem.play.due import plan_for
    from pbem.store.models import Game, Notification, Seat
    from pbem.timing.policy import decision_key

    rng = random.Random(seed)
    moment = T0
    set_now(app, moment)
    game_id, people = make_game(app, client, players, rng)
    by_colour = {p.colour: p for p in people}
    result = Result()
    with app.app_context():
        for seat in db.session.query(Seat).filter_by(game_id=game_id):
            by_colour[seat.colour].player_id = seat.player_id
        db.session.remove()
    # Everyone reads their first mail (the welcome) after a delay, as any other.
    scheduled = (
        {(p.colour, WELCOME): p.answers_at(moment) for p in people} if mode != "none" else {}
    )
    before: set[tuple[str, str]] = set()
    for _ in range(20_000):
        with app.app_context():
            game = db.session.get(Game, game_id)
            status, seq, seed_ = game.status, game.seq, game.seed
            state = current_state(game_id, seed_, seq)
            db.session.remove()
        if status != "active":
            result.finished = status == "finished"
            break
        keys = {(p["player"], decision_key(p)) for p in engine.pending(state)}
        fresh = keys - before
        if fresh:
            result.waits += 1
            kind = sorted(fresh)[0][1].partition(":")[0]
            result.kinds[KINDS.get(kind, "picks")] += 1
        before = keys
        for key in keys - scheduled.keys():
            scheduled[key] = by_colour[key[0]].answers_at(moment)
        for key in [k for k in scheduled if k[1] != WELCOME and k not in keys]:
            del scheduled[key]
        (colour, decision), when = min(scheduled.items(), key=lambda item: item[1])
        del scheduled[(colour, decision)]
        moment = max(moment, when)
        set_now(app, moment)
        person = by_colour[colour]
        if decision == WELCOME or (decision == "turn" and mode != "none") or mode == "both":
            give_orders(client, game_id, person, state, mode)
        if decision == WELCOME:
            before.discard((colour, "power_card"))  # their orders may have answered it
            continue
        bot = GreedyBot(rng.getrandbits(31))

        def plan(now_state, acting, decision=decision, bot=bot):
            return plan_for(now_state, acting, decision, bot)

        # Their decision is answered: the same kind of decision pending after it is new.
        before.discard((colour, decision))
        with app.app_context():
            try:
                play.submit(
                    Actor.by_player(person.player_id, colour), game_id, None, plan, source="api"
                )
            except (NothingToPlay, StaleSequence):
                db.session.rollback()  # the person's orders answered it just before
            db.session.remove()
    with app.app_context():
        mails = db.session.query(Notification).filter_by(game_id=game_id, kind="decision").count()
        db.session.remove()
    result.decision_mails = mails / players
    result.days = (moment - T0).total_seconds() / 86400
    return result


def run(url: str, players_list: list[int], games: int, seed: int) -> None:
    from pbem import create_app
    from pbem.cli import upgrade_database

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "PBEM_LOG_LEVEL": "WARNING"})
    upgrade_database(app)
    client = app.test_client()
    print(
        f"{games} games each; answers log-normal, median {MEDIAN_HOURS:g} h, sigma {SIGMA:g}, "
        f"none between {NIGHT[0]}:00 and {NIGHT[1]}:00 local time"
    )
    header = (
        f"{'players':>7} {'orders':>6} {'waits':>6} {'power':>6} {'turns':>6} {'picks':>6} "
        f"{'veto':>5} {'mails/pl':>8} {'days':>6} {'days p90':>8} {'fewer waits':>11} {'s/game':>6}"
    )
    print(header)
    for players in players_list:
        baseline = None
        for mode in MODES:
            started = time.perf_counter()
            results = [
                play_game(app, client, players, mode, seed + 1000 * players + g)
                for g in range(games)
            ]
            took = (time.perf_counter() - started) / games
            done = [r for r in results if r.finished]
            waits = statistics.mean(r.waits for r in done)
            baseline = waits if baseline is None else baseline
            kinds = {k: statistics.mean(r.kinds[k] for r in done) for k in KINDS.values()}
            kinds["picks"] = statistics.mean(r.kinds["picks"] for r in done)
            days = sorted(r.days for r in done)
            print(
                f"{players:>7} {mode:>6} {waits:>6.1f} {kinds['power']:>6.1f} "
                f"{kinds['turns']:>6.1f} {kinds['picks']:>6.1f} {kinds['veto']:>5.1f} "
                f"{statistics.mean(r.decision_mails for r in done):>8.1f} "
                f"{statistics.mean(days):>6.1f} {days[int(0.9 * (len(days) - 1))]:>8.1f} "
                f"{1 - waits / baseline:>10.0%} {took:>6.2f}"
                + ("" if len(done) == games else f"  ({games - len(done)} unfinished)")
            )
            sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, action="append", choices=[3, 4, 5])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--pg-url", default="postgresql+psycopg://127.0.0.1:5432/test")
    args = parser.parse_args()
    with database(args.db, args.pg_url) as url:
        run(url, args.players or [3, 4, 5], args.games, args.seed)


if __name__ == "__main__":
    main()
