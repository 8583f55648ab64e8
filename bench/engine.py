"""Engine speed: full random 5-player 9-round games per second, moves per second, `apply`
per second, the replay of a finished game's log, and the greedy bot's decisions per second.

Run: python bench/engine.py [--games N] [--repeat N]. One process, one core. Prints figures;
asserts nothing. Times are this process's CPU time (`time.process_time`), so that other
processes sharing the cores slow nothing down in the figures; on an idle machine they are the
wall-clock times.
The loop is what a server or a bot does at every step: `pending`, `legal_moves` (inside the
random bot) and `apply`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
import engine.bots  # noqa: E402
from engine.bots import RandomBot  # noqa: E402

FIVE = ["red", "yellow", "green", "blue", "brown"]


def random_games(games: int, repeat: int) -> list[tuple[str, dict]]:
    """Play `games` random games `repeat` times; print the figures of the fastest run;
    return the last game's log."""
    runs = [_play(games) for _ in range(repeat)]
    elapsed, apply_seconds, moves, log = min(runs, key=lambda run: run[0])
    print(
        f"games: {games} five-player nine-round random games in {elapsed:.2f} s "
        f"(fastest of {repeat} runs)"
    )
    print(f"games/s: {games / elapsed:.1f} (goal: at least 20)")
    print(f"moves/game: {moves / games:.0f}")
    print(f"moves/s, whole loop (pending + legal_moves + apply): {moves / elapsed:.0f}")
    print(f"apply/s (apply alone): {moves / apply_seconds:.0f}")
    return log


def _play(games: int) -> tuple[float, float, int, list[tuple[str, dict]]]:
    moves = 0
    apply_seconds = 0.0
    log: list[tuple[str, dict]] = []
    start = time.process_time()
    for seed in range(games):
        bot = RandomBot(seed)
        state = engine.new_game(FIVE, seed=seed)
        log = []
        while not engine.is_over(state):
            player = engine.pending(state)[0]["player"]
            move = bot.choose(state, player)
            t = time.process_time()
            state, _ = engine.apply(state, player, move)
            apply_seconds += time.process_time() - t
            log.append((player, move))
            moves += 1
    return time.process_time() - start, apply_seconds, moves, log


def replay(log: list[tuple[str, dict]], seed: int, times: int = 20) -> None:
    """Replay a finished game's moves through `apply` from `new_game`, as a server does to
    check a stored game; the best of `times` runs."""
    best = float("inf")
    for _ in range(times):
        start = time.process_time()
        state = engine.new_game(FIVE, seed=seed)
        for player, move in log:
            state, _ = engine.apply(state, player, move)
        best = min(best, time.process_time() - start)
    assert engine.is_over(state)
    print(f"replay of a finished game ({len(log)} moves): {best * 1000:.1f} ms")


def greedy(games: int) -> None:
    """Decisions per second of `engine.bots.GreedyBot`, when there is one."""
    if not hasattr(engine.bots, "GreedyBot"):
        print("greedy bot: not available")
        return
    decisions = 0
    thinking = 0.0
    for seed in range(games):
        bot = engine.bots.GreedyBot(seed)
        state = engine.new_game(FIVE, seed=seed)
        while not engine.is_over(state):
            player = engine.pending(state)[0]["player"]
            t = time.process_time()
            move = bot.choose(state, player)
            thinking += time.process_time() - t
            decisions += 1
            state, _ = engine.apply(state, player, move)
    print(f"greedy bot: {decisions / thinking:.0f} decisions/s ({games} games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="report the fastest of N runs")
    parser.add_argument("--greedy-games", type=int, default=5)
    args = parser.parse_args()
    log = random_games(args.games, args.repeat)
    replay(log, seed=args.games - 1)
    greedy(args.greedy_games)


if __name__ == "__main__":
    main()
