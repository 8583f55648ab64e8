"""Vetoes in random play: how often random bots veto, and how often their own action.

Run: python bench/vetoes.py [--games N] [--seed S]. Plays N random games (2 to 5 players,
9 or 6 rounds, one in ten the two-colour variant) with `engine.bots.RandomBot`, and counts
the vetoes played: against another player's action, against one's own action (Italian
rules, 4 b: "un avversario, o il giocatore stesso"), and against a veto (counter windows).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import RandomBot  # noqa: E402
from engine.data import COLOURS  # noqa: E402
from engine.rng import Rng  # noqa: E402


def setups(games: int, seed: int):
    rng = Rng(seed)
    for n in range(games):
        if n % 10 == 9:
            yield rng.shuffled(COLOURS)[:4], n, {"variant": "two_colour"}
        else:
            yield rng.shuffled(COLOURS)[: 2 + n % 4], n, {"rounds": 9 if n % 3 else 6}


def count_game(colours: list[str], seed: int, options: dict, tally: Counter) -> None:
    bot = RandomBot(seed)
    state = engine.new_game(colours, seed=seed, options=options)
    while not engine.is_over(state):
        waiting = engine.pending(state)
        player = waiting[bot.rng.below(len(waiting))]["player"]
        before = state.special
        state, events = engine.apply(state, player, bot.choose(state, player))
        for event in events:
            kind = event["type"]
            if kind == "veto_window_opened":
                # A counter window opens as an action window closes; an action window never.
                if before is not None and before["stage"] == "window":
                    tally["counter windows"] += 1
                else:
                    tally["action windows"] += 1
                    tally["action windows offered to the acting player"] += (
                        event["player"] in event["holders"]
                    )
            elif kind == "veto_played":
                assert before is not None and before["window"] is not None
                if before["window"]["kind"] == "counter":
                    tally["vetoes of a veto"] += 1
                elif event["player"] == before["player"]:
                    tally["self-vetoes"] += 1
                else:
                    tally["vetoes of another's action"] += 1
            elif kind == "special_action":
                tally["special actions"] += 1
                tally["special actions cut short"] += event["vetoed_from"] is not None
    tally["games"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    tally: Counter = Counter()
    start = time.perf_counter()
    for colours, seed, options in setups(args.games, args.seed):
        count_game(colours, seed, options, tally)
    elapsed = time.perf_counter() - start
    vetoes = tally["vetoes of another's action"] + tally["self-vetoes"] + tally["vetoes of a veto"]
    print(f"{tally['games']} random games in {elapsed:.1f} s")
    for name in (
        "special actions",
        "special actions cut short",
        "action windows",
        "action windows offered to the acting player",
        "counter windows",
    ):
        print(f"{name}: {tally[name]}")
    print(f"vetoes played: {vetoes}")
    for name in ("vetoes of another's action", "self-vetoes", "vetoes of a veto"):
        print(f"  {name}: {tally[name]}")


if __name__ == "__main__":
    main()
