"""Bot strength: the greedy bot against random bots, in 3-player 9-round games.

Run: python bench/bots.py [--games N] [--seed S]. Two line-ups, each over N games with the
seats rotated (game i puts the greedy bot in seat i mod 3): one greedy bot against two
random bots, and two greedy bots against one random bot. Prints win rates (a tie shares
the win: each of k tied winners counts 1/k), mean scores, and the greedy bot's decisions
per second. One process, one core; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import GreedyBot, RandomBot  # noqa: E402

THREE = ["red", "yellow", "green"]


def play(kinds: list[str], seed: int, timing: dict[str, float]) -> engine.State:
    """One game; `kinds[i]` ("greedy" / "random") plays seat i. Adds greedy decision times."""
    bots = {
        colour: (GreedyBot if kind == "greedy" else RandomBot)(seed * 10 + i)
        for i, (colour, kind) in enumerate(zip(THREE, kinds, strict=True))
    }
    state = engine.new_game(THREE, seed=seed, options={"rounds": 9})
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        bot = bots[player]
        if isinstance(bot, GreedyBot):
            start = time.perf_counter()
            move = bot.choose(state, player)
            timing["seconds"] += time.perf_counter() - start
            timing["decisions"] += 1
        else:
            move = bot.choose(state, player)
        state, _ = engine.apply(state, player, move)
    return state


def lineup(greedy: int, games: int, first_seed: int) -> dict[str, float]:
    """Play `games` games with `greedy` greedy seats (the rest random), seats rotated."""
    wins = {"greedy": 0.0, "random": 0.0}
    points = {"greedy": 0.0, "random": 0.0}
    seats = {"greedy": 0, "random": 0}
    timing = {"seconds": 0.0, "decisions": 0}
    for g in range(games):
        base = ["greedy"] * greedy + ["random"] * (3 - greedy)
        shift = g % 3
        kinds = base[shift:] + base[:shift]
        state = play(kinds, first_seed + g, timing)
        won = engine.winners(state)
        for colour, kind in zip(THREE, kinds, strict=True):
            points[kind] += state.scores[colour]
            seats[kind] += 1
            if colour in won:
                wins[kind] += 1 / len(won)
    return {
        "greedy_wins": wins["greedy"],
        "random_wins": wins["random"],
        "greedy_mean": points["greedy"] / seats["greedy"],
        "random_mean": points["random"] / seats["random"],
        "decisions": timing["decisions"],
        "seconds": timing["seconds"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args()
    total = {"decisions": 0, "seconds": 0.0}
    for greedy, title in ((1, "1 greedy vs 2 random"), (2, "2 greedy vs 1 random")):
        start = time.perf_counter()
        r = lineup(greedy, args.games, args.seed)
        elapsed = time.perf_counter() - start
        n = args.games
        print(f"{title}: {n} three-player nine-round games in {elapsed:.1f} s")
        share = 100 * r["greedy_wins"] / n
        print(
            f"  wins (ties shared): greedy {r['greedy_wins']:.1f} ({share:.1f}% of games; "
            f"{share / greedy:.1f}% per greedy seat), "
            f"random {r['random_wins']:.1f} ({100 * r['random_wins'] / n:.1f}%)"
        )
        print(f"  mean score: greedy {r['greedy_mean']:.1f}, random {r['random_mean']:.1f}")
        print(
            f"  greedy: {r['decisions'] / r['seconds']:.0f} decisions/s, "
            f"{1000 * r['seconds'] / r['decisions']:.2f} ms per decision"
        )
        total["decisions"] += r["decisions"]
        total["seconds"] += r["seconds"]
    print(
        f"greedy overall: {total['decisions']} decisions, "
        f"{total['decisions'] / total['seconds']:.0f}/s "
        f"({1000 * total['seconds'] / total['decisions']:.2f} ms mean; goal: under 50 ms)"
    )


if __name__ == "__main__":
    main()
