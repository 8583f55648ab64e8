"""Tournament draws (`pbem.draws`), pure: 7 to 40 entrants at tables of 3-5 in each format
over several rounds, with results made up by a seeded random between rounds. Every entrant
sits at exactly one table a round (or the draw names them out), sizes stay within one of
each other, and repeated opponents and repeated seats stay within what the numbers force
(computed here), with a stated slack for the Swiss search."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pbem import draws
from pbem.draws import Entrant

COUNTS = range(7, 41)


def _play(entrants: dict[int, Entrant], drawn: draws.Draw, rng: random.Random) -> None:
    """Made-up results of a round's tables, added to each entrant's history."""
    for table in drawn.tables:
        scores = [rng.randint(20, 90) for _ in table]
        places, shares = draws.place_points(scores), draws.winner_shares(scores)
        for position, player in enumerate(table):
            old = entrants[player]
            met = dict(old.met)
            for other in table:
                if other != player:
                    met[other] = met.get(other, 0) + 1
            entrants[player] = Entrant(
                id=player,
                points=old.points + places[position],
                tiebreak=old.tiebreak + shares[position],
                rating=old.rating,
                met=met,
                seats=(*old.seats, position),
            )


def _field(count: int, rng: random.Random) -> dict[int, Entrant]:
    return {n: Entrant(id=n, rating=round(rng.uniform(-5, 15), 2)) for n in range(1, count + 1)}


def _check_round(drawn: draws.Draw, playing: set[int], size: int) -> None:
    seated = [p for table in drawn.tables for p in table]
    assert len(seated) == len(set(seated))
    assert set(seated) | set(drawn.byes) == playing
    sizes = [len(t) for t in drawn.tables]
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 3 and max(sizes) <= 5


def _forced_repeats(count: int, games: int, size: int) -> int:
    """Repeats one player must have had at the least: opponent slots past everyone else."""
    return max(0, games * (size - 1) - (count - 1))


@pytest.mark.parametrize("size", [3, 4, 5])
def test_swiss_seats_everyone_once_a_round_within_the_forced_repeats(size):
    extras = []
    for count in COUNTS:
        rng = random.Random(count * 10 + size)
        entrants = _field(count, rng)
        rounds = 4
        for index in range(rounds):
            drawn = draws.draw_round("swiss", list(entrants.values()), size, index, rounds)
            _check_round(drawn, set(entrants), size)
            _play(entrants, drawn, rng)
        for entrant in entrants.values():
            games = len(entrant.seats)
            repeats = sum(times - 1 for times in entrant.met.values())
            # Swiss keeps the standing's order (leaders together), so it may repeat more
            # than the field's size alone forces: the slack, bounded here and measured.
            extra = repeats - _forced_repeats(count, games, size)
            extras.append(max(0, extra))
            assert extra <= 2 * size, (count, entrant.id, repeats)
            # Seats: over `games` games, a seat repeats only past `size` games (or by slack
            # of one where the table's others claim it first).
            assert max(Counter(entrant.seats).values()) <= -(-games // size) + 1
    # On average under one repeat more than the naive bound, over 4 rounds (measured: at
    # most 0.71 a player, at tables of 5; the bound ignores that tables seat many at once).
    assert sum(extras) / len(extras) <= 1.0, sum(extras) / len(extras)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_groups_keep_their_pools_and_turn_every_seat(size):
    for count in COUNTS:
        rng = random.Random(count + 100 * size)
        entrants = _field(count, rng)
        pools = draws.pools_for(list(entrants.values()), size)
        assert sorted(p for pool in pools for p in pool) == sorted(entrants)
        rounds = max(len(pool) for pool in pools)
        for index in range(rounds):
            drawn = draws.draw_round(
                "groups", list(entrants.values()), size, index, rounds, pools=pools
            )
            _check_round(drawn, set(entrants), size)
            assert sorted(sorted(t) for t in drawn.tables) == sorted(sorted(p) for p in pools)
            _play(entrants, drawn, rng)
        for pool in pools:
            for player in pool:
                seats = entrants[player].seats
                # Every seat once over as many rounds as the pool has members.
                assert sorted(seats[: len(pool)]) == list(range(len(pool)))


@pytest.mark.parametrize("size", [3, 4, 5])
def test_heats_shrink_to_one_final_table(size):
    for count in COUNTS:
        rng = random.Random(count + 1000 * size)
        entrants = _field(count, rng)
        rounds = 4  # enough for 40 at tables of 3 to come down to one final table
        previous = None
        alive = set(entrants)
        for index in range(rounds):
            field = [entrants[p] for p in sorted(alive)]
            drawn = draws.draw_round("heats", field, size, index, rounds, pools=previous)
            alive -= set(drawn.out)
            _check_round(drawn, alive, size)
            _play(entrants, drawn, rng)
            previous = [list(t) for t in drawn.tables] + [[b] for b in drawn.byes]
            alive = {p for t in drawn.tables for p in t} | set(drawn.byes)
        assert len(drawn.tables) == 1, (count, size)


def test_table_sizes_places_and_shares():
    assert draws.table_sizes(7, 4) == [4, 3]
    assert draws.table_sizes(10, 4) == [4, 3, 3]
    assert draws.table_sizes(13, 5) == [5, 4, 4]
    assert draws.table_sizes(6, 4) == [3, 3]
    with pytest.raises(ValueError):
        draws.table_sizes(2, 3)
    assert draws.place_points([60, 40, 60, 10]) == [2.5, 1.0, 2.5, 0.0]
    assert draws.winner_shares([80, 40, 0]) == [1.0, 0.5, 0.0]
    assert draws.winner_shares([0, 0, 0]) == [0.0, 0.0, 0.0]


def test_the_same_entrants_in_any_order_give_the_same_draw():
    rng = random.Random(3)
    entrants = _field(23, rng)
    _play(entrants, draws.draw_round("swiss", list(entrants.values()), 4, 0, 3), rng)
    field = list(entrants.values())
    first = draws.draw_round("swiss", field, 4, 1, 3)
    assert draws.draw_round("swiss", list(reversed(field)), 4, 1, 3) == first
