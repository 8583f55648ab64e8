"""Tournament draws: who sits at which table, in which seat, each round, in the three formats
(`FORMATS`), and what a table's result is worth in a tournament (`place_points`,
`winner_shares`).

Pure and deterministic: the same entrants give the same draw, whatever order they come in;
nothing here reads a clock, a database or a random generator. The service keeps each
entrant's standing and history (an `Entrant`: points, tiebreak, rating, whom they met, the
seats they held) and stores each round's `Draw`, after `kept_apart` has parted those who keep
apart where a swap can.

A table seats 3 to 5 (`table_sizes`), all of a round within one of each other; a table size
of 2 is the two-colour game, drawn in pairs with an odd one out sitting the round out.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

FORMATS = ("swiss", "groups", "heats")

#: Swap passes down the tables at most (a pass that swaps nobody ends the search).
PASSES = 4
#: How many tables a swap may take a player from the table their rank put them at (and so
#: how far apart two tables swapped between may be).
REACH = 2


@dataclass(frozen=True)
class Entrant:
    """One player in a tournament, as the draw of the next round needs them."""

    id: int
    points: float = 0.0  # tournament points so far
    tiebreak: float = 0.0  # sum of shares of the table winner's score so far
    rating: float = 0.0  # seeding (the shown rating at entry)
    met: Mapping[int, int] = field(default_factory=dict)  # opponent id -> games together
    seats: tuple[int, ...] = ()  # the seat positions (0-based) held in earlier games


@dataclass(frozen=True)
class Draw:
    """One round: its tables, and who plays none of them."""

    tables: tuple[tuple[int, ...], ...]  # each table's entrant ids in seat order (position 0 first)
    byes: tuple[int, ...] = ()  # entrants left out of this round (a two-colour game's odd one)
    out: tuple[int, ...] = ()  # (heats) entrants eliminated before this round


def table_sizes(count: int, size: int, *, least: int = 3, most: int = 5) -> list[int]:
    """How `count` entrants split into tables of `least` to `most` near `size`: all within one
    of each other, largest first, as many of exactly `size` as can be (then the split whose
    tables are nearest `size` on average, then the fewer tables). With least == most == 2,
    the two-colour game: pairs, an odd one left over (a bye). ValueError for a count that
    cannot be seated (fewer than `least`) or limits that are not a tournament's."""
    if least == most == 2 == size:
        if count < 2:
            raise ValueError(f"{count} entrants make no pair")
        return [2] * (count // 2)
    if not 3 <= least <= size <= most:
        raise ValueError(f"tables of {least} to {most} near {size}: only a pair may be two")
    best: tuple[tuple[int, float, int], list[int]] | None = None
    for tables in range(max(1, -(-count // most)), count // least + 1):
        small, larger = divmod(count, tables)
        if small < least or small + (larger > 0) > most:
            continue
        sizes = [small + 1] * larger + [small] * (tables - larger)
        rank = (-sizes.count(size), abs(count / tables - size), tables)
        if best is None or rank < best[0]:
            best = (rank, sizes)
    if best is None:
        raise ValueError(f"{count} entrants cannot sit at tables of {least} to {most}")
    return best[1]


def place_points(scores: Sequence[int]) -> list[float]:
    """Tournament points by place at one table, in the order of `scores` (its final scores):
    a point for each player one beat, half for each one tied with; so at a table of k the
    winner has k-1 and the last 0, ties sharing what their places are worth."""
    return [
        sum(1.0 if other < score else 0.5 if other == score else 0.0 for other in scores) - 0.5
        for score in scores
    ]


def winner_shares(scores: Sequence[int]) -> list[float]:
    """Each score as a share of the table's highest (the tiebreak), to 4 places; all 0 when
    the highest is 0."""
    top = max(scores, default=0)
    return [round(score / top, 4) if top > 0 else 0.0 for score in scores]


def pools_for(entrants: Sequence[Entrant], size: int) -> list[list[int]]:
    """The groups format's pools, fixed at round 0: sizes from `table_sizes` (largest first),
    filled by snake seeding on rating (highest first, then lower id): a row one way, the
    next the other, a pool that is full skipped. Each pool lists its members in seeding
    order, which the seats turn from. Groups need tables of 3 to 5 (ValueError otherwise)."""
    if size == 2:
        raise ValueError("groups need tables of 3 to 5: a group of two is a match")
    _refuse_twins(entrants)
    seeded = sorted(entrants, key=lambda e: (-e.rating, e.id))
    sizes = table_sizes(len(seeded), size)
    pools: list[list[int]] = [[] for _ in sizes]
    forward, backward = list(range(len(pools))), list(range(len(pools) - 1, -1, -1))
    taken, row = 0, 0
    while taken < len(seeded):
        for index in forward if row % 2 == 0 else backward:
            if taken < len(seeded) and len(pools[index]) < sizes[index]:
                pools[index].append(seeded[taken].id)
                taken += 1
        row += 1
    return pools


def draw_round(
    fmt: str,
    entrants: Sequence[Entrant],
    size: int,
    round_index: int,
    rounds: int,
    *,
    pools: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
) -> Draw:
    """The draw of round `round_index` (0-based) of `rounds` in format `fmt`, for tables of
    `size` (2: the two-colour game's pairs). Deterministic: the same entrants (in any order)
    give the same draw.

    `pools`: for groups, the pools `pools_for` made at round 0 (None: made now, which at
    round 0 is the same); an id of a pool that is not among `entrants` has left and is
    skipped. For heats, from round 1 on, the tables of the round before, each bye in it as
    a group of one (it goes through): who went through is decided from them. `seed`: 0 keeps
    entrants tied on everything in id order; another mixes that order (the same each time
    for the same seed)."""
    if fmt not in FORMATS:
        raise ValueError(f"no tournament format {fmt!r}: one of {', '.join(FORMATS)}")
    if not 0 <= round_index < rounds:
        raise ValueError(f"round {round_index} of {rounds}: rounds count from 0")
    _limits(size)
    _refuse_twins(entrants)
    if fmt == "groups":
        return _groups(entrants, size, round_index, pools)
    if fmt == "heats":
        return _heats(entrants, size, round_index, rounds, pools, seed)
    tables, byes = _by_standing(entrants, size, seed)
    return Draw(tables=tables, byes=byes)


def _limits(size: int) -> tuple[int, int]:
    """The least and most at a table of a tournament with tables of `size`."""
    if size == 2:
        return 2, 2
    if not 3 <= size <= 5:
        raise ValueError(f"tables of {size}: El Grande seats 3 to 5 (2: the two-colour game)")
    return 3, 5


def _refuse_twins(entrants: Sequence[Entrant]) -> None:
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("an entrant is given twice")


def _standing(seed: int) -> Callable[[Entrant], tuple[float, float, float, int, int]]:
    """The ranking's key, best first: points, tiebreak, rating (each highest first), then id
    (or, with a seed, an order mixed from it and the id)."""

    def key(e: Entrant) -> tuple[float, float, float, int, int]:
        return (-e.points, -e.tiebreak, -e.rating, _mixed(e.id, seed), e.id)

    return key


def _mixed(ident: int, seed: int) -> int:
    """`ident` itself for seed 0; else a 64-bit mix of both (splitmix64's finaliser, a
    one-to-one map, so ids never tie)."""
    if not seed:
        return ident
    x = (ident * 0x9E3779B97F4A7C15 + seed) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def _by_standing(
    entrants: Sequence[Entrant], size: int, seed: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Swiss's tables: ranked, cut top-down into `table_sizes`, swapped for fewer repeat
    opponents (`_fewer_repeats`), each seated (`_seated`); and the byes (pairs only: the
    lowest ranked of those who have played most, so a bye goes round)."""
    least, most = _limits(size)
    ranked = sorted(entrants, key=_standing(seed))
    sizes = table_sizes(len(ranked), size, least=least, most=most)
    spare = len(ranked) - sum(sizes)
    out = sorted(range(len(ranked)), key=lambda i: (-len(ranked[i].seats), -i))[:spare]
    byes = tuple(ranked[i].id for i in sorted(out))
    sitting = set(byes)
    ids = [e.id for e in ranked if e.id not in sitting]
    tables, start = [], 0
    for seats in sizes:
        tables.append(ids[start : start + seats])
        start += seats
    by_id = {e.id: e for e in entrants}
    _fewer_repeats(tables, {p: by_id[p].met for p in ids})
    return tuple(_seated(table, by_id) for table in tables), byes


def _fewer_repeats(tables: list[list[int]], met: Mapping[int, Mapping[int, int]]) -> None:
    """Swap players between nearby tables, in place, to lower the sum over the pairs at each
    table of the games they have played together. A bounded local search: passes down the
    tables (`PASSES` at most, stopping at one that swaps nobody), each pair of tables at most
    `REACH` apart swapped between while a swap lowers that sum, no player more than `REACH`
    tables from where their rank put them. A pair of tables with no repeat at either is
    skipped (no swap can lower a sum of 0), so a pass costs a constant per table: O(n), and
    nothing on a first round. Single swaps, not a best re-split of two tables: measured on
    tournaments of 7 to 40, re-splitting lowered the repeats by a tenth and no player's most."""
    home = {p: i for i, table in enumerate(tables) for p in table}
    rank = {p: r for r, p in enumerate(p for table in tables for p in table)}
    cost = [_repeats(table, met) for table in tables]
    for _ in range(PASSES):
        swapped = False
        for i, j in _neighbours(len(tables)):
            if cost[i] or cost[j]:
                swapped |= _swap_pair(tables, (i, j), home, rank, met, cost)
        if not swapped:
            return


def _neighbours(count: int) -> list[tuple[int, int]]:
    """The pairs of tables a swap may be between, down the tables: each with the next
    `REACH`."""
    return [(i, j) for i in range(count) for j in range(i + 1, min(count, i + 1 + REACH))]


def _repeats(table: Sequence[int], met: Mapping[int, Mapping[int, int]]) -> int:
    return sum(met[a].get(b, 0) for a, b in itertools.combinations(table, 2))


def _swap_pair(
    tables: list[list[int]],
    pair: tuple[int, int],
    home: Mapping[int, int],
    rank: Mapping[int, int],
    met: Mapping[int, Mapping[int, int]],
    cost: list[int],
) -> bool:
    """Swap between the pair's tables while a swap lowers their repeats: each time the one
    that lowers them most (then the one between the nearest in rank, then the first).
    Whether any was made."""
    i, j = pair
    upper, lower = tables[i], tables[j]
    swapped = False
    for _ in range(len(upper) * len(lower)):  # each swap lowers the sum: a bound, not reached
        with_upper = {p: sum(met[p].get(q, 0) for q in upper) for p in upper + lower}
        with_lower = {p: sum(met[p].get(q, 0) for q in lower) for p in upper + lower}
        best: tuple[int, int, int, int] | None = None
        for x, a in enumerate(upper):
            if abs(j - home[a]) > REACH:
                continue
            for y, b in enumerate(lower):
                if abs(i - home[b]) > REACH:
                    continue
                together = met[a].get(b, 0)
                change = (with_lower[a] - together + with_upper[b] - together) - (
                    with_upper[a] + with_lower[b]
                )
                if change < 0:
                    candidate = (change, abs(rank[a] - rank[b]), x, y)
                    best = candidate if best is None or candidate < best else best
        if best is None:
            return swapped
        change, _near, x, y = best
        upper[x], lower[y] = lower[y], upper[x]
        cost[i], cost[j] = _repeats(upper, met), _repeats(lower, met)
        swapped = True
    return swapped


#: Every order of a table's seats, by its size.
_ORDERS = {k: tuple(itertools.permutations(range(k))) for k in range(1, 6)}


def _seated(table: Sequence[int], by_id: Mapping[int, Entrant]) -> tuple[int, ...]:
    """The table in seat order: of every way to seat it, one where the players have held
    their seats least often before (the sum over the players of the times each held the
    seat given), the first such in the order of permutations of the table as ranked, so
    that on a first round the highest ranked sits first. Stops at a way that reaches the
    floor (every player in a seat they held least): no way can do better."""
    k = len(table)
    held = [[by_id[p].seats.count(seat) for seat in range(k)] for p in table]
    floor = sum(min(row) for row in held)
    best, least = tuple(range(k)), sum(held[i][i] for i in range(k))
    for order in _ORDERS.get(k) or itertools.permutations(range(k)):
        if least == floor:
            break
        cost = sum(held[i][order[i]] for i in range(k))
        if cost < least:
            best, least = order, cost
    seated = [0] * k
    for player, seat in zip(table, best, strict=True):
        seated[seat] = player
    return tuple(seated)


def _groups(
    entrants: Sequence[Entrant],
    size: int,
    round_index: int,
    pools: Sequence[Sequence[int]] | None,
) -> Draw:
    """Each pool one table, its seats turned by the round (a Latin square: in round r seat
    s holds the pool's member s + r, round the pool), so that over as many rounds as the
    pool has members each holds each seat once. A pool left with fewer than 3 (its others
    gone) sits the round out."""
    if pools is None:
        pools = pools_for(entrants, size)
    present = {e.id for e in entrants}
    pooled = [p for pool in pools for p in pool]
    if len(set(pooled)) != len(pooled) or not present <= set(pooled):
        raise ValueError("every entrant must be in exactly one pool")
    tables, byes = [], []
    for pool in pools:
        members = [p for p in pool if p in present]
        if len(members) < 3:
            byes.extend(members)
            continue
        turn = round_index % len(members)
        tables.append(tuple(members[turn:] + members[:turn]))
    return Draw(tables=tuple(tables), byes=tuple(byes))


def _heats(
    entrants: Sequence[Entrant],
    size: int,
    round_index: int,
    rounds: int,
    pools: Sequence[Sequence[int]] | None,
    seed: int,
) -> Draw:
    """Heats: the field (everyone in round 0; else who went through from `pools`, the round
    before's tables) drawn as swiss draws; the last round must be one table."""
    by_id = {e.id: e for e in entrants}
    if round_index == 0:
        field_ids = set(by_id)
    elif pools is None:
        raise ValueError("heats need the round before's tables (as `pools`) after round 0")
    else:
        last = [[p for p in table if p in by_id] for table in pools]
        left = rounds - round_index
        field_ids = set(_through([t for t in last if t], by_id, size, left, seed))
    _least, most = _limits(size)
    if round_index == rounds - 1 and len(field_ids) > most:
        raise ValueError(f"{len(field_ids)} entrants make no final of {most} in one round")
    field = [by_id[p] for p in sorted(field_ids)]
    tables, byes = _by_standing(field, size, seed)
    out = tuple(sorted(set(by_id) - field_ids))
    return Draw(tables=tables, byes=byes, out=out)


def _through(
    last: Sequence[Sequence[int]],
    by_id: Mapping[int, Entrant],
    size: int,
    left: int,
    seed: int,
) -> list[int]:
    """Who goes through from `last`'s tables with `left` rounds to play (the final the last).

    The best `each` of every table by standing. Before the round before the final, `each` is
    the table's part of a field shrinking by the same fraction every round left, to `size`
    at the final: its mean table times that fraction, rounded, at least 1 and at least
    enough to seat `size` next round. Into the final: `size` // tables from each (at least
    1), the best of the next places by standing filling the seats left to `size`; more table
    winners than a table seats (5) are cut to the best 5 by standing. The fraction is
    worked out afresh every round from the field and the rounds left, so a field that
    shrank slower than planned (rounding, tables smaller than `each`) is cut harder later;
    and the cut into the final always reaches one table, however few rounds there are."""
    key = _standing(seed)
    least, most = _limits(size)
    ranked = [sorted(table, key=lambda p: key(by_id[p])) for table in last]
    count, tables = sum(map(len, ranked)), len(ranked)
    widest = max(map(len, ranked))
    if left == 1:
        each = max(1, size // tables)
    else:
        share = (size / count) ** (1 / left)
        each = math.floor(share * count / tables + 0.5)
        each = min(widest, max(each, 1, -(-max(least, size) // tables)))
    chosen = [p for table in ranked for p in table[:each]]
    if left != 1:
        return chosen
    if len(chosen) > most:
        return sorted(chosen, key=lambda p: key(by_id[p]))[:most]
    rest = [(place, key(by_id[p]), p) for t in ranked for place, p in enumerate(t) if place >= each]
    rest.sort()
    return chosen + [p for _place, _key, p in rest[: max(0, size - len(chosen))]]


def kept_apart(
    tables: Sequence[Sequence[int]], apart: Collection[tuple[int, int]]
) -> tuple[tuple[int, ...], ...]:
    """The tables with each pair of `apart` (two entrants one of whom blocks the other) at
    different tables wherever swapping two entrants of two tables (each into the other's
    seat) seats fewer such pairs together. A pair no swap separates stays together: a round
    always opens (their talk stays hidden from the one who blocked)."""
    pairs = {frozenset(pair) for pair in apart}
    seated = [list(table) for table in tables]

    def together(table: Sequence[int]) -> int:
        return sum(frozenset(two) in pairs for two in itertools.combinations(table, 2))

    # Each swap made seats fewer pairs together than before it: the search ends.
    while pairs and _swapped(seated, together):
        pass
    return tuple(tuple(table) for table in seated)


def _swapped(seated: list[list[int]], together: Callable[[Sequence[int]], int]) -> bool:
    """Make the first swap between two tables that seats fewer pairs together; whether any."""
    for here, there in itertools.permutations(range(len(seated)), 2):
        if not together(seated[here]):
            continue
        before = together(seated[here]) + together(seated[there])
        for a, b in itertools.product(range(len(seated[here])), range(len(seated[there]))):
            first, second = list(seated[here]), list(seated[there])
            first[a], second[b] = second[b], first[a]
            if together(first) + together(second) < before:
                seated[here], seated[there] = first, second
                return True
    return False
