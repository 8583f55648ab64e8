"""Bot strength: the search bot against greedy bots (and the greedy bot against random).

Run: python bench/bots.py [--players 3 4 5] [--games N] [--seconds S | --playouts P]
[--seed S] [--greedy-vs-random]. For each number of players, one search bot against
greedy bots in nine-round games, over N games with the seats rotated (game i puts the
search bot in seat i mod players). Prints the search bot's win share (a tie shares the
win: each of k tied winners counts 1/k) against its fair share 1/players, the mean scores,
and the search bot's seconds per decision (of all its decisions, forced ones included).
`--greedy-vs-random` runs the older line-ups instead: in three-player games, one greedy
bot against two random bots, then two greedy bots against one random bot.
One process, one core; asserts nothing. `--progress` prints each game as it ends.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.bots import GreedyBot, RandomBot, SearchBot  # noqa: E402

COLOURS = ["red", "yellow", "green", "blue", "brown"]
Bot = GreedyBot | RandomBot | SearchBot


def play(
    bots: dict[str, Bot], seed: int, timed: str, timing: dict[str, float]
) -> engine.State:
    """One nine-round game between `bots` (by colour); adds the decision times of the bots
    of kind `timed`."""
    state = engine.new_game(list(bots), seed=seed, options={"rounds": 9})
    kind = {"search": SearchBot, "greedy": GreedyBot}[timed]
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        bot = bots[player]
        if isinstance(bot, kind):
            start = time.perf_counter()
            move = bot.choose(state, player)
            timing["seconds"] += time.perf_counter() - start
            timing["decisions"] += 1
        else:
            move = bot.choose(state, player)
        state, _ = engine.apply(state, player, move)
    return state


def lineup(
    kinds: list[str], games: int, first_seed: int, args: argparse.Namespace, timed: str
) -> dict[str, dict[str, float]]:
    """Play `games` games of the bots `kinds` (one per seat), rotated a seat each game.
    Per kind: wins (ties shared), points, seats; and the timing of kind `timed`."""
    n = len(kinds)
    colours = COLOURS[:n]
    out = {k: {"wins": 0.0, "points": 0.0, "seats": 0.0} for k in kinds}
    timing = {"seconds": 0.0, "decisions": 0.0}
    for g in range(games):
        shift = g % n
        seated = kinds[shift:] + kinds[:shift]
        seed = first_seed + g
        bots: dict[str, Bot] = {}
        for i, (colour, kind) in enumerate(zip(colours, seated, strict=True)):
            if kind == "search":
                bots[colour] = SearchBot(
                    seed * 10 + i, seconds=args.seconds, playouts=args.playouts
                )
            else:
                bots[colour] = (GreedyBot if kind == "greedy" else RandomBot)(seed * 10 + i)
        state = play(bots, seed, timed, timing)
        won = engine.winners(state)
        for colour, kind in zip(colours, seated, strict=True):
            out[kind]["points"] += state.scores[colour]
            out[kind]["seats"] += 1
            if colour in won:
                out[kind]["wins"] += 1 / len(won)
        if args.progress:
            mine = out[timed]
            print(
                f"    game {g + 1}: {timed} wins so far {mine['wins']:.1f}/{g + 1}, "
                f"{timing['seconds'] / max(1, timing['decisions']):.3f} s per decision",
                flush=True,
            )
    out["timing"] = timing
    return out


def search_lineups(args: argparse.Namespace) -> None:
    budget = f"{args.playouts} playouts" if args.playouts else f"{args.seconds} s budget"
    for n in args.players:
        start = time.perf_counter()
        r = lineup(["search"] + ["greedy"] * (n - 1), args.games, args.seed, args, "search")
        elapsed = time.perf_counter() - start
        s, g, t = r["search"], r["greedy"], r["timing"]
        print(f"1 search ({budget}) vs {n - 1} greedy: {args.games} {n}-player nine-round "
              f"games in {elapsed:.0f} s")
        print(f"  search bot wins (ties shared): {s['wins']:.1f} = "
              f"{100 * s['wins'] / args.games:.1f}% of games (fair share {100 / n:.1f}%)")
        print(f"  mean score: search {s['points'] / s['seats']:.1f}, "
              f"greedy {g['points'] / g['seats']:.1f}")
        print(f"  search bot: {t['decisions']:.0f} decisions, "
              f"{t['seconds'] / t['decisions']:.3f} s per decision", flush=True)


def random_lineups(args: argparse.Namespace) -> None:
    total = {"decisions": 0.0, "seconds": 0.0}
    for greedy, title in ((1, "1 greedy vs 2 random"), (2, "2 greedy vs 1 random")):
        start = time.perf_counter()
        kinds = ["greedy"] * greedy + ["random"] * (3 - greedy)
        r = lineup(kinds, args.games, args.seed, args, "greedy")
        elapsed = time.perf_counter() - start
        n = args.games
        gr, ra, t = r["greedy"], r["random"], r["timing"]
        print(f"{title}: {n} three-player nine-round games in {elapsed:.1f} s")
        share = 100 * gr["wins"] / n
        print(
            f"  wins (ties shared): greedy {gr['wins']:.1f} ({share:.1f}% of games; "
            f"{share / greedy:.1f}% per greedy seat), "
            f"random {ra['wins']:.1f} ({100 * ra['wins'] / n:.1f}%)"
        )
        print(f"  mean score: greedy {gr['points'] / gr['seats']:.1f}, "
              f"random {ra['points'] / ra['seats']:.1f}")
        print(
            f"  greedy: {t['decisions'] / t['seconds']:.0f} decisions/s, "
            f"{1000 * t['seconds'] / t['decisions']:.2f} ms per decision"
        )
        total["decisions"] += t["decisions"]
        total["seconds"] += t["seconds"]
    print(
        f"greedy overall: {total['decisions']:.0f} decisions, "
        f"{total['decisions'] / total['seconds']:.0f}/s "
        f"({1000 * total['seconds'] / total['decisions']:.2f} ms mean; goal: under 50 ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0.3,
                        help="the search bot's time budget per (ordinary) decision")
    parser.add_argument("--playouts", type=int, default=None,
                        help="a playout budget instead of a time budget")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--greedy-vs-random", action="store_true")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args()
    if args.playouts:
        args.seconds = None
    if args.greedy_vs_random:
        random_lineups(args)
    else:
        search_lineups(args)


if __name__ == "__main__":
    main()
