"""Benchmark the teacher: a hint's latency through the scheduler, and a finished game's
review (its CPU, and how much of it two seeds of the search agree on).

Hints: a fresh SQLite database served by nothing but the real scheduler
(`schedule.runner.start_background`: the sweep, the mail and the hints job every
PBEM_HINT_SECONDS), five-seat games made with hints and played to random positions. A hint
is asked for the seat a game waits on (`play.advice.ask_hint`, as the API and the page ask),
and the time until its row is answered is taken; the seat then plays a random move, and the
next hint is asked in another game. `--burst N` asks N at once (N games), as a busy server
meets them: each waits for those before it. Prints p50 and p95 of the wait, and the search's
CPU a hint (its thread's time, around the job's search).

Reviews: games of greedy bots (`--seats`, `--rounds`), every seat reviewed as the scheduler
reviews a finished game (`engine.bots.review`, PBEM_REVIEW_PLAYOUTS worlds a candidate),
twice, with two seeds of the search, with no CPU budget, to show what the budget
(PBEM_REVIEW_SECONDS) must hold. Prints each review's CPU, and the agreement of the two
seeds: of the decisions either flagged, the share both flagged; the share of each seat's top
three flagged by both; and for decisions both flagged, the mean gap between their points at
stake.

    python bench/advice.py --hints 20 --burst 5 --games 2 --seats 3 --seats 5

Figures, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import GreedyBot, RandomBot  # noqa: E402
from engine.bots.review import review  # noqa: E402

COLOURS = ["red", "yellow", "green", "blue", "brown"]


def greedy_game(seats: int, rounds: int, seed: int) -> tuple[list[str], list[tuple[str, dict]]]:
    colours = COLOURS[:seats]
    state = engine.new_game(colours, seed=seed, options={"rounds": rounds})
    bot = GreedyBot(seed)
    log = []
    while not engine.is_over(state):
        colour = engine.pending(state)[0]["player"]
        move = bot.choose(state, colour)
        log.append((colour, move))
        state, _ = engine.apply(state, colour, move)
    return colours, log


def reviews(args: argparse.Namespace) -> None:
    print(f"Reviews: {args.playouts} worlds a candidate, every seat, two search seeds")
    for seats in args.seats:
        cpus, both_share, top_share, gaps = [], [], [], []
        for game in range(args.games):
            colours, log = greedy_game(seats, args.rounds, seed=100 + game)
            found = []
            for search_seed in (0, 1):
                done = review(
                    colours,
                    100 + game,
                    {"rounds": args.rounds},
                    log,
                    colours,
                    playouts=args.playouts,
                    most=1000,
                    search_seed=search_seed,
                )
                cpus.append(done["cpu_seconds"])
                found.append(done["flagged"])
            for colour in colours:
                first = {f["seq"]: f for f in found[0][colour]}
                second = {f["seq"]: f for f in found[1][colour]}
                either, both = set(first) | set(second), set(first) & set(second)
                if either:
                    both_share.append(len(both) / len(either))
                top = [f["seq"] for f in found[0][colour][:3]]
                if top:
                    top_share.append(sum(seq in second for seq in top) / len(top))
                gaps += [abs(first[s]["at_stake"] - second[s]["at_stake"]) for s in both]
            decisions = sum(done["decisions"].values())
            print(
                f"  {seats} seats, {args.rounds} rounds, game {game + 1}: {decisions} decisions, "
                f"CPU {cpus[-2]:.1f} s and {cpus[-1]:.1f} s"
            )
        print(
            f"  {seats} seats: CPU a review p50 {statistics.median(cpus):.1f} s, "
            f"max {max(cpus):.1f} s; flagged by both seeds {_mean(both_share):.0%} of those "
            f"either flagged; a seat's top three flagged again {_mean(top_share):.0%}; "
            f"points at stake differ by {_mean(gaps):.2f} on average where both flagged"
        )


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def hints(args: argparse.Namespace) -> None:
    from pbem import create_app, play
    from pbem.extensions import db
    from pbem.game.players import add_player
    from pbem.game.seating import Actor
    from pbem.game.states import current_state
    from pbem.play import advice, lifecycle
    from pbem.schedule.runner import start_background
    from pbem.store import tables
    from pbem.store.models import Game

    # A job still searching when its next run comes is skipped, as it should be: not news.
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
    folder = tempfile.mkdtemp()
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
            "PBEM_INSTANCE_PATH": folder,
            "PBEM_LOG_LEVEL": "WARNING",
        }
    )
    with app.app_context():
        from flask_migrate import upgrade

        upgrade()
        people = [add_player(f"{c}@example.org", c.title())[0] for c in COLOURS]
        db.session.commit()
        holders = {c: p.id for c, p in zip(COLOURS, people, strict=True)}
        seats = [{"email": p.email, "colour": c} for c, p in zip(COLOURS, people, strict=True)]
        games = [
            lifecycle.create_game(people[0], f"Hints {n}", seats, options={"hints": True}).id
            for n in range(args.burst)
        ]
        db.session.commit()
    rng = random.Random(7)
    bot = RandomBot(7)

    def move_on(game_id: int, moves: int) -> None:
        with app.app_context():
            for _ in range(moves):
                game = db.session.get(Game, game_id)
                state = current_state(game_id, game.seed, game.seq)
                colour = engine.pending(state)[0]["player"]
                actor = Actor.by_player(holders[colour], colour)
                play.submit(actor, game_id, game.seq, [bot.choose(state, colour)], source="api")
                db.session.remove()

    def ask(game_id: int) -> int:
        with app.app_context():
            game = db.session.get(Game, game_id)
            colour = game.pending[0]["player"]
            shown = advice.ask_hint(Actor.by_player(holders[colour], colour), game_id, "api")
            db.session.commit()
            seq = shown["seq"]
            db.session.remove()
        return seq

    def answered(game_id: int, seq: int) -> bool:
        with app.app_context():
            row = db.session.execute(
                tables.hints.select().where(
                    tables.hints.c.game_id == game_id, tables.hints.c.seq == seq
                )
            ).one()
            db.session.remove()
            return row.answered_at is not None

    for game_id in games:
        move_on(game_id, rng.randrange(5, 60))
    searched: list[float] = []
    search = advice._appraised

    def timed(*args: object) -> object:
        started = time.thread_time()
        try:
            return search(*args)
        finally:
            searched.append(time.thread_time() - started)

    advice._appraised = timed  # the job's own search, timed
    scheduler = start_background(app)
    waits, burst_waits = [], []
    try:
        for n in range(args.hints):
            game_id = games[n % len(games)]
            # Asked at a random moment of the job's interval, as a person asks.
            time.sleep(rng.uniform(0, float(app.config["PBEM_HINT_SECONDS"])))
            started = time.monotonic()
            seq = ask(game_id)
            while not answered(game_id, seq):
                time.sleep(0.01)
            waits.append(time.monotonic() - started)
            move_on(game_id, rng.randrange(1, 8))
        for _ in range(args.bursts):
            started = time.monotonic()
            asked = [(g, ask(g)) for g in games]
            waiting = dict(asked)
            while waiting:
                for game_id, seq in list(waiting.items()):
                    if answered(game_id, seq):
                        burst_waits.append(time.monotonic() - started)
                        del waiting[game_id]
                time.sleep(0.01)
            for game_id in games:
                move_on(game_id, rng.randrange(1, 8))
    finally:
        scheduler.shutdown(wait=True)
    print(
        f"Hints through the scheduler ({app.config['PBEM_HINT_PLAYOUTS']} worlds a candidate, "
        f"the job every {app.config['PBEM_HINT_SECONDS']} s, five seats): "
        f"{len(waits)} asked one at a time, wait p50 {_pct(waits, 50):.2f} s, "
        f"p95 {_pct(waits, 95):.2f} s, max {max(waits):.2f} s"
    )
    print(
        f"  the search's CPU a hint: p50 {_pct(searched, 50):.2f} s, p95 {_pct(searched, 95):.2f} s"
    )
    if burst_waits:
        print(
            f"  {args.bursts} bursts of {len(games)} asked at once: wait p50 "
            f"{_pct(burst_waits, 50):.2f} s, p95 {_pct(burst_waits, 95):.2f} s, "
            f"max {max(burst_waits):.2f} s"
        )


def _pct(values: list[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hints", type=int, default=20, help="hints asked one at a time")
    parser.add_argument("--burst", type=int, default=5, help="games, and hints in a burst")
    parser.add_argument("--bursts", type=int, default=2, help="bursts asked")
    parser.add_argument("--games", type=int, default=2, help="games reviewed per seat count")
    parser.add_argument("--seats", type=int, action="append", help="seats of a reviewed game")
    parser.add_argument("--rounds", type=int, default=6, choices=(6, 9))
    parser.add_argument("--playouts", type=int, default=12, help="a review's worlds")
    parser.add_argument("--only", choices=("hints", "reviews"))
    args = parser.parse_args()
    args.seats = args.seats or [3, 5]
    if args.only != "reviews":
        hints(args)
    if args.only != "hints":
        reviews(args)


if __name__ == "__main__":
    main()
