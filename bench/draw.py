"""Tournament draws' speed: one round of each format (`pbem.draws.draw_round`) for a large
field, with plausible histories.

The field plays `--played` rounds first, drawn by the same function (untimed), each table's
scores drawn at random from a seeded generator and turned into points, tiebreaks, whom each
met and the seats each held as the service would keep them. Then each format's next round
is drawn `--repeat` times and the fastest is printed: swiss (its swap search has repeats to
work on by then), groups (the pools fixed at round 0) and heats (who goes through from the
round before's tables, and the next heats drawn by standing). Times are this process's CPU
time (`time.process_time`), so other processes on the cores slow nothing down in them.

    python bench/draw.py                          # 10,000 entrants, tables of 5, 3 played
    python bench/draw.py --entrants 2000 --size 4 --played 5

Figures, not a test: nothing here passes or fails (the goal: a swiss round under a second).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.draws import (  # noqa: E402
    Draw,
    Entrant,
    draw_round,
    place_points,
    table_sizes,
    winner_shares,
)


def played(entrants: dict[int, Entrant], draw: Draw, rng: random.Random) -> None:
    """`entrants` after `draw`'s tables played, scores at random (ties now and then)."""
    for table in draw.tables:
        scores = [rng.randint(10, 30) * 5 for _ in table]
        points, shares = place_points(scores), winner_shares(scores)
        for seat, player in enumerate(table):
            e = entrants[player]
            met = dict(e.met)
            for other in table:
                if other != player:
                    met[other] = met.get(other, 0) + 1
            entrants[player] = replace(
                e,
                points=e.points + points[seat],
                tiebreak=round(e.tiebreak + shares[seat], 4),
                met=met,
                seats=(*e.seats, seat),
            )


def together(entrants: dict[int, Entrant], tables: Sequence[Sequence[int]]) -> int:
    """The sum over the pairs at each table of the games they played together before."""
    return sum(entrants[a].met.get(b, 0) for t in tables for a in t for b in t if a < b)


def fastest(repeat: int, draw: Callable[[], Draw]) -> tuple[float, Draw]:
    best, drawn = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        drawn = draw()
        best = min(best, time.process_time() - start)
    assert drawn is not None
    return best, drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--size", type=int, default=5, help="table size (2 to 5)")
    parser.add_argument("--played", type=int, default=3, help="rounds played before")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n, size, rounds = args.entrants, args.size, args.played + 2
    entrants = {i: Entrant(i, rating=round(rng.gauss(20, 6), 2)) for i in range(1, n + 1)}
    for index in range(args.played):
        played(entrants, draw_round("swiss", list(entrants.values()), size, index, rounds), rng)
    field = list(entrants.values())
    repeats = sum(sum(e.met.values()) - len(e.met) for e in field) / n
    print(
        f"field: {n} entrants, tables of {size}, {args.played} rounds played "
        f"({repeats:.2f} repeat opponents a player so far)"
    )

    cut = sorted(field, key=lambda e: (-e.points, -e.tiebreak, -e.rating, e.id))
    sizes = table_sizes(n, size, least=2 if size == 2 else 3, most=2 if size == 2 else 5)
    tables, start = [], 0
    for seats in sizes:
        tables.append([e.id for e in cut[start : start + seats]])
        start += seats
    seconds, drawn = fastest(
        args.repeat, lambda: draw_round("swiss", field, size, args.played, rounds)
    )
    print(
        f"swiss round for {n} entrants: {seconds:.2f} s ({len(drawn.tables)} tables; "
        f"repeats at its tables {together(entrants, drawn.tables)}, "
        f"{together(entrants, tables)} before the swap search)"
    )

    seconds, drawn = fastest(args.repeat, lambda: draw_round("groups", field, size, 1, size))
    print(f"groups round for {n} entrants: {seconds:.2f} s (pools made from the ratings)")

    first = draw_round("heats", field, size, 0, rounds)
    seconds, drawn = fastest(
        args.repeat,
        lambda: draw_round("heats", field, size, 1, rounds, pools=first.tables),
    )
    print(
        f"heats round for {n} entrants: {seconds:.2f} s "
        f"({n - len(drawn.out)} through, {len(drawn.out)} out)"
    )


if __name__ == "__main__":
    main()
