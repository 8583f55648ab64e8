"""Engine speed: full random 5-player 9-round games per second, moves applied per second.

Run: python bench/engine.py [--games N]. One process, one core. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import RandomBot  # noqa: E402

FIVE = ["red", "yellow", "green", "blue", "brown"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()

    moves = 0
    apply_seconds = 0.0
    start = time.perf_counter()
    for seed in range(args.games):
        bot = RandomBot(seed)
        state = engine.new_game(FIVE, seed=seed)
        while not engine.is_over(state):
            player = engine.pending(state)[0]["player"]
            move = bot.choose(state, player)
            t = time.perf_counter()
            state, _ = engine.apply(state, player, move)
            apply_seconds += time.perf_counter() - t
            moves += 1
    elapsed = time.perf_counter() - start
    print(f"games: {args.games} five-player nine-round random games in {elapsed:.2f} s")
    print(f"games/s: {args.games / elapsed:.1f} (goal: at least 20)")
    print(f"moves/game: {moves / args.games:.0f}")
    print(f"moves/s, whole loop (pending + legal_moves + apply): {moves / elapsed:.0f}")
    print(f"moves/s, apply alone: {moves / apply_seconds:.0f}")


if __name__ == "__main__":
    main()
