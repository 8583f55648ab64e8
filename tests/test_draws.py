"""Tournament draws (`pbem.draws`): table sizes, points by place, shares of the winner's score,
and whole tournaments of every format played out for 7 to 40 entrants at tables of 3, 4 and
5, results made up by a seeded random generator. Each round seats everyone once (or names
them a bye or out), at tables within one of each other, and repeats opponents and seats no
more than the numbers force (`repeat_bound`, `position_bound`), within the slack stated
where a format's rule or a local search cannot reach that bound.

What the numbers force is a floor, not always reachable: seven at tables of 4 and 3 have six
opponents each, yet in the second round four of the first round's table of four must share
two tables. Groups reach it exactly (their pools are all they may meet; their seats turn in a
Latin square). Swiss does not: its tables keep players of one standing together (a swap
takes nobody more than `REACH` tables from their rank's), its search is local, and a bound
such as 20 opponent places among 19 to 28 others asks for a schedule that may not exist.
`SWISS_SLACK` states how far past the floor a player may be after each game, as measured on
these tournaments (102: 34 counts at 3 sizes, 5 rounds each, read after every round: a
swiss round reads no round count, so 3 and 4 rounds are their first rounds); without the
standing rule (every table within reach, tried once by hand) the worst after 5 games is 5,
not 6, so the local search and the floor's own slack are most of it. Heats are drawn as
swiss; their field shrinks, so their bound is taken round by round from the field left
(`HEATS_SLACK`).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import pytest

from pbem.draws import (
    FORMATS,
    REACH,
    Draw,
    Entrant,
    draw_round,
    kept_apart,
    place_points,
    pools_for,
    table_sizes,
    winner_shares,
)

COUNTS = range(7, 41)
SIZES = (3, 4, 5)


def repeat_bound(slots: int, possible: int) -> int:
    """The repeat opponents forced on a player who has had `slots` opponent places (a game
    at a table of k is k-1 of them) among `possible` others they may meet: none until the
    places outnumber the others."""
    return max(0, slots - possible)


def position_bound(sizes: Sequence[int]) -> int:
    """The repeated seats forced on a player who has sat at tables of `sizes`: the games
    less the most different seats they can have held (a table of k has seats 0..k-1;
    matched smallest tables first, each its lowest seat still free, which is a largest
    matching as the tables' seats nest). So r games at tables of k force r - k when r > k."""
    held: set[int] = set()
    for k in sorted(sizes):
        free = [seat for seat in range(k) if seat not in held]
        if free:
            held.add(free[0])
    return len(sizes) - len(held)


def repeats(e: Entrant) -> int:
    """A player's repeat opponents: places at tables less the different people in them."""
    return sum(e.met.values()) - len(e.met)


def repeated_seats(e: Entrant) -> int:
    return len(e.seats) - len(set(e.seats))


# --- table sizes, points, shares ---------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "size", "sizes"),
    [
        (7, 4, [4, 3]),
        (10, 4, [4, 3, 3]),
        (13, 5, [5, 4, 4]),
        (6, 4, [3, 3]),
        (3, 3, [3]),
        (5, 3, [5]),
        (8, 5, [4, 4]),
        (12, 5, [4, 4, 4]),
        (16, 3, [4, 3, 3, 3, 3]),
        (40, 5, [5] * 8),
        (41, 4, [5, 4, 4, 4, 4, 4, 4, 4, 4, 4]),
    ],
)
def test_table_sizes(count: int, size: int, sizes: list[int]) -> None:
    assert table_sizes(count, size) == sizes


@pytest.mark.parametrize("size", SIZES)
def test_table_sizes_seat_everyone_near_the_size(size: int) -> None:
    """Every count: all seated, 3 to 5 a table, within one, largest first, and no split of
    the same kind has more tables of exactly `size`."""
    for count in range(3, 201):
        sizes = table_sizes(count, size)
        assert sum(sizes) == count
        assert min(sizes) >= 3 and max(sizes) <= 5 and max(sizes) - min(sizes) <= 1
        assert sizes == sorted(sizes, reverse=True)
        others = [
            [count // t + 1] * (count % t) + [count // t] * (t - count % t)
            for t in range(1, count + 1)
            if count // t >= 3 and count // t + (count % t > 0) <= 5
        ]
        assert sizes.count(size) == max(other.count(size) for other in others)


def test_table_sizes_of_pairs_leave_an_odd_one_over() -> None:
    assert table_sizes(7, 2, least=2, most=2) == [2, 2, 2]
    assert table_sizes(8, 2, least=2, most=2) == [2, 2, 2, 2]


@pytest.mark.parametrize(
    ("count", "size", "limits"),
    [(2, 3, {}), (0, 4, {}), (1, 2, {"least": 2, "most": 2}), (9, 4, {"least": 2})],
)
def test_table_sizes_refuse(count: int, size: int, limits: dict[str, int]) -> None:
    """Too few to seat, or a table of two that is not the two-colour game's pair."""
    with pytest.raises(ValueError):
        table_sizes(count, size, **limits)


def test_place_points() -> None:
    assert place_points([80, 60, 40]) == [2.0, 1.0, 0.0]
    assert place_points([10, 50, 30, 20, 40]) == [0.0, 4.0, 2.0, 1.0, 3.0]
    assert place_points([50, 50, 30, 20]) == [2.5, 2.5, 1.0, 0.0]
    assert place_points([20, 50, 20, 20]) == [1.0, 3.0, 1.0, 1.0]
    assert place_points([40, 40, 40]) == [1.0, 1.0, 1.0]
    # A table of k shares k(k-1)/2 points, ties or not.
    assert sum(place_points([7, 7, 3, 3, 1])) == 10


def test_winner_shares() -> None:
    assert winner_shares([100, 75, 50]) == [1.0, 0.75, 0.5]
    assert winner_shares([90, 30, 90, 61]) == [1.0, 0.3333, 1.0, 0.6778]
    assert winner_shares([0, 0, 0]) == [0.0, 0.0, 0.0]


def test_every_format_is_explained_and_no_other_drawn() -> None:
    from pbem.game.tournaments import EXPLAINED

    assert set(EXPLAINED) == set(FORMATS)
    with pytest.raises(ValueError):
        draw_round("knockout", [Entrant(i) for i in range(6)], 3, 0, 3)


def test_pools_are_snake_seeded() -> None:
    entrants = [Entrant(i, rating=100 - i) for i in range(1, 14)]  # 1 the strongest
    assert pools_for(entrants, 5) == [[1, 6, 7, 12, 13], [2, 5, 8, 11], [3, 4, 9, 10]]
    assert pools_for(list(reversed(entrants)), 5) == pools_for(entrants, 5)
    with pytest.raises(ValueError):
        pools_for(entrants, 2)


# --- determinism -------------------------------------------------------------------------


def _midway(count: int, size: int, games: int) -> list[Entrant]:
    """A field after `games` swiss rounds, made up."""
    state = _field(count, random.Random(count))
    rng = random.Random(count + 1)
    for index in range(games):
        _play(state, draw_round("swiss", list(state.values()), size, index, games + 1), rng)
    return list(state.values())


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_same_entrants_give_the_same_draw(fmt: str) -> None:
    """Equal input, equal draw: twice, and with the entrants given in another order."""
    field = _midway(23, 4, 2)
    pools: Sequence[Sequence[int]] | None = pools_for(field, 4) if fmt == "groups" else None
    if fmt == "heats":
        pools = draw_round("heats", field, 4, 0, 3).tables
    drawn = draw_round(fmt, field, 4, 1, 3, pools=pools)
    assert draw_round(fmt, field, 4, 1, 3, pools=pools) == drawn
    shuffled = random.Random(5).sample(field, len(field))
    assert draw_round(fmt, shuffled, 4, 1, 3, pools=pools) == drawn


def test_a_seed_mixes_only_the_order_of_entrants_tied_on_everything() -> None:
    fresh = [Entrant(i) for i in range(1, 13)]
    plain = draw_round("swiss", fresh, 4, 0, 3)
    assert plain.tables == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))
    mixed = draw_round("swiss", fresh, 4, 0, 3, seed=7)
    assert mixed != plain and mixed == draw_round("swiss", fresh, 4, 0, 3, seed=7)
    rated = [Entrant(i, rating=i) for i in range(1, 13)]
    assert draw_round("swiss", rated, 4, 0, 3, seed=7) == draw_round("swiss", rated, 4, 0, 3)


def test_a_draw_refuses_what_it_cannot_draw() -> None:
    field = [Entrant(i) for i in range(1, 10)]
    wrongs: list[Callable[[], Draw]] = [
        lambda: draw_round("swiss", field, 4, 3, 3),  # no round 3 of 3
        lambda: draw_round("swiss", field, 6, 0, 3),  # tables of 6
        lambda: draw_round("swiss", [*field, Entrant(1)], 4, 0, 3),  # one entrant twice
        lambda: draw_round("swiss", field[:2], 3, 0, 3),  # too few
        lambda: draw_round("heats", field, 4, 1, 3),  # heats without the round before
        lambda: draw_round("heats", field, 4, 0, 1),  # nine make no final in one round
        lambda: draw_round("groups", field, 4, 0, 3, pools=[[1, 2, 3], [4, 5, 6]]),
    ]
    for wrong in wrongs:
        with pytest.raises(ValueError):
            wrong()


# --- whole tournaments -------------------------------------------------------------------


def _field(count: int, rng: random.Random) -> dict[int, Entrant]:
    return {i: Entrant(i, rating=round(rng.uniform(0, 40), 2)) for i in range(1, count + 1)}


def _play(state: dict[int, Entrant], draw: Draw, rng: random.Random) -> None:
    """`state` after `draw`'s games, as the service keeps it: scores made up (ties often
    enough: multiples of 5 from 40 to 80), points by place, shares of the winner's score,
    whom each met and the seat each held."""
    for table in draw.tables:
        scores = [rng.randint(8, 16) * 5 for _ in table]
        points, shares = place_points(scores), winner_shares(scores)
        for seat, player in enumerate(table):
            e = state[player]
            met = dict(e.met)
            for other in table:
                if other != player:
                    met[other] = met.get(other, 0) + 1
            state[player] = replace(
                e,
                points=e.points + points[seat],
                tiebreak=e.tiebreak + shares[seat],
                met=met,
                seats=(*e.seats, seat),
            )


def _seats_everyone_once(draw: Draw, ids: set[int], size: int) -> None:
    seated = [p for table in draw.tables for p in table]
    named = seated + list(draw.byes) + list(draw.out)
    assert sorted(named) == sorted(ids)
    sizes = [len(table) for table in draw.tables]
    least, most = (2, 2) if size == 2 else (3, 5)
    assert least <= min(sizes) and max(sizes) <= most and max(sizes) - min(sizes) <= 1
    if size != 2:
        assert not draw.byes


@dataclass
class Excess:
    """How far past the forced bounds players went: the worst after each game (index 0:
    after one game), the mean over all players after the last one."""

    repeats: list[int]
    seats: list[int]
    mean_repeats: float = 0.0

    def add(self, index: int, repeats: int, seats: int) -> None:
        while len(self.repeats) <= index:
            self.repeats.append(0)
            self.seats.append(0)
        self.repeats[index] = max(self.repeats[index], repeats)
        self.seats[index] = max(self.seats[index], seats)


def swiss(count: int, size: int, rounds: int = 5) -> Excess:
    """A swiss tournament of `rounds`, checked each round; its excess over the bounds
    (every other entrant a possible opponent)."""
    rng = random.Random(count * 10 + size)
    state = _field(count, rng)
    sizes: dict[int, list[int]] = {p: [] for p in state}
    excess = Excess([], [])
    for index in range(rounds):
        draw = draw_round("swiss", list(state.values()), size, index, rounds)
        _seats_everyone_once(draw, set(state), size)
        for table in draw.tables:
            for p in table:
                sizes[p].append(len(table))
        _play(state, draw, rng)
        for p, e in state.items():
            slots = sum(k - 1 for k in sizes[p])
            excess.add(
                index,
                repeats(e) - repeat_bound(slots, count - 1),
                repeated_seats(e) - position_bound(sizes[p]),
            )
    excess.mean_repeats = statistics.mean(
        repeats(e) - repeat_bound(sum(k - 1 for k in sizes[p]), count - 1) for p, e in state.items()
    )
    return excess


#: Swiss: the most repeat opponents a player had past `repeat_bound`, after 1, 2, ... 5
#: games, over 7 to 40 entrants at tables of 3, 4 and 5 (measured; the test holds it). The
#: 6 is one player of 20 at tables of 5; past 20 entrants the worst after 3 games is 2.
SWISS_SLACK = [0, 2, 3, 5, 6]
#: And the most repeated seats past `position_bound`. Seats are given table by table, for
#: the players the table holds: two who each lack only the same seat cannot both have it.
SWISS_SEAT_SLACK = [0, 1, 1, 2, 2]
#: The mean excess of repeat opponents over all players after 5 games, at most, in any one
#: tournament (20 at tables of 5; over 2 only between 16 and 25 entrants).
SWISS_MEAN_SLACK = 3.3
#: Tournaments (of the 102) with a player past the repeat bound after 2 games (all with 20
#: entrants or fewer but one, 31 at tables of 5), and after 5.
SWISS_PAST = {2: 26, 5: 84}


def test_swiss_repeats_no_more_than_the_numbers_force_but_a_stated_slack() -> None:
    """Each round seats everyone once, and no player repeats opponents or seats more than
    `SWISS_SLACK` and `SWISS_SEAT_SLACK` past the bounds; how often a tournament has anyone
    past the repeat bound, and by how much on average, is held too."""
    results = {(count, size): swiss(count, size) for count in COUNTS for size in SIZES}
    worst = Excess([0] * 5, [0] * 5)
    for excess in results.values():
        for index in range(5):
            worst.add(index, excess.repeats[index], excess.seats[index])
    assert all(a <= b for a, b in zip(worst.repeats, SWISS_SLACK, strict=True))
    assert all(a <= b for a, b in zip(worst.seats, SWISS_SEAT_SLACK, strict=True))
    assert max(e.mean_repeats for e in results.values()) <= SWISS_MEAN_SLACK + 1e-9
    for games, most in SWISS_PAST.items():
        assert sum(1 for e in results.values() if e.repeats[games - 1]) <= most


def groups(count: int, size: int) -> Excess:
    """A groups tournament of as many rounds as its largest pool has members."""
    rng = random.Random(count * 10 + size)
    state = _field(count, rng)
    pools = pools_for(list(state.values()), size)
    rounds = max(map(len, pools))
    excess = Excess([], [])
    for index in range(rounds):
        draw = draw_round("groups", list(state.values()), size, index, rounds, pools=pools)
        _seats_everyone_once(draw, set(state), size)
        assert sorted(map(sorted, draw.tables)) == sorted(map(sorted, pools))
        _play(state, draw, rng)
        for pool in pools:
            for p in pool:
                e = state[p]
                assert set(e.met) == set(pool) - {p}
                slots = (index + 1) * (len(pool) - 1)
                seats = position_bound([len(pool)] * (index + 1))
                excess.add(
                    index,
                    repeats(e) - repeat_bound(slots, len(pool) - 1),
                    repeated_seats(e) - seats,
                )
    return excess


@pytest.mark.parametrize("size", SIZES)
def test_groups_reach_the_bounds(size: int) -> None:
    """Each pool plays together every round, and every member holds every seat once over
    as many rounds as the pool has members: exactly what the numbers force, no more (a pool
    one smaller than the largest plays one round more than it has seats)."""
    for count in COUNTS:
        excess = groups(count, size)
        assert set(excess.repeats) == {0} and set(excess.seats) == {0}, count


def heats(count: int, size: int, rounds: int) -> Excess:
    """A heats tournament of `rounds`, checked each round. Its repeat bound is taken round
    by round, given the field: a player at a table of k this round may meet k-1 of the
    field they have not met; repeats past that are forced."""
    rng = random.Random(count * 100 + size * 10 + rounds)
    state = _field(count, rng)
    excess, last, out = Excess([], []), None, set[int]()
    sizes: dict[int, list[int]] = {p: [] for p in state}
    for index in range(rounds):
        draw = draw_round("heats", list(state.values()), size, index, rounds, pools=last)
        _seats_everyone_once(draw, set(state), size)
        assert out <= set(draw.out)
        field = {p for table in draw.tables for p in table}
        if last is not None:
            _went_through(last, field, state)
        out, over = set(draw.out), 0
        for table in draw.tables:
            for p in table:
                unmet = len(field - {p} - set(state[p].met))
                mates = sum(q in state[p].met for q in table if q != p)
                over = max(over, mates - repeat_bound(len(table) - 1, unmet))
                sizes[p].append(len(table))
        _play(state, draw, rng)
        for p in field:
            excess.add(index, over, repeated_seats(state[p]) - position_bound(sizes[p]))
        last = list(draw.tables)
    assert last is not None and len(last) == 1 and 3 <= len(last[0]) <= 5
    return excess


def _went_through(
    last: Sequence[Sequence[int]], field: set[int], state: Mapping[int, Entrant]
) -> None:
    """From each table of the round before, those through are its best by standing."""
    for table in last:
        ranked = sorted(
            table, key=lambda p: (-state[p].points, -state[p].tiebreak, -state[p].rating, p)
        )
        through = [p in field for p in ranked]
        assert through == sorted(through, reverse=True), (table, field)


#: Heats: the most repeat opponents a player had in one round past what the field forced
#: (any round), and the most repeated seats past `position_bound` (measured: none in 2
#: rounds; in 3, 11 of the 102 past the repeat bound, by 1; in 4, 35, by 2 at most).
HEATS_SLACK = 2
HEATS_SEAT_SLACK = 2


@pytest.mark.parametrize("rounds", [2, 3, 4])
def test_heats_reach_a_final(rounds: int) -> None:
    """Every count at every size, in 2, 3 and 4 rounds: a single final table of 3 to 5, the
    field shrinking, the best of each table through, and repeats and seats within the
    stated slack of what the field forced."""
    for size in SIZES:
        for count in COUNTS:
            excess = heats(count, size, rounds)
            assert max(excess.repeats) <= HEATS_SLACK, (count, size)
            assert max(excess.seats) <= HEATS_SEAT_SLACK, (count, size)


def test_heats_advance_by_table_to_a_final_of_the_table_size() -> None:
    """40 at tables of 4 over 4 rounds: half of each table through each round (40, 20, 10
    and a final of 4: each of the 3 tables' winner and the best second); over 2 rounds the
    10 table winners are more than a table seats, and the best 5 of them go through."""
    field = list(_field(40, random.Random(3)).values())
    first = draw_round("heats", field, 4, 0, 4)
    second = draw_round("heats", field, 4, 1, 4, pools=first.tables)
    assert [len(t) for t in second.tables] == [4] * 5 and len(second.out) == 20
    third = draw_round("heats", field, 4, 2, 4, pools=second.tables)
    assert [len(t) for t in third.tables] == [4, 3, 3] and len(third.out) == 30
    last = draw_round("heats", field, 4, 3, 4, pools=third.tables)
    assert [len(t) for t in last.tables] == [4] and len(last.out) == 36
    final = draw_round("heats", field, 4, 1, 2, pools=first.tables)
    assert len(final.tables) == 1 and len(final.tables[0]) == 5 and len(final.out) == 35


def test_pairs_give_the_bye_round() -> None:
    """Two-colour games: pairs, and the odd one out is the lowest ranked of those who have
    played most, so nobody sits out twice while another has not."""
    state = _field(9, random.Random(2))
    rng, byes = random.Random(4), list[int]()
    for index in range(9):
        draw = draw_round("swiss", list(state.values()), 2, index, 9)
        _seats_everyone_once(draw, set(state), 2)
        assert len(draw.byes) == 1
        byes.extend(draw.byes)
        _play(state, draw, rng)
    assert sorted(byes) == sorted(state)


def test_heats_of_pairs_let_a_bye_through() -> None:
    state = _field(11, random.Random(2))
    first = draw_round("heats", list(state.values()), 2, 0, 4)
    assert len(first.byes) == 1
    last = [*first.tables, first.byes]
    second = draw_round("heats", list(state.values()), 2, 1, 4, pools=last)
    assert first.byes[0] not in second.out
    assert len(second.out) == 5


def test_the_swap_search_keeps_players_near_their_rank() -> None:
    """Nobody sits more than `REACH` tables from where their rank put them."""
    for count, size in ((40, 5), (31, 3), (23, 4)):
        field = _midway(count, size, 4)
        ranked = sorted(field, key=lambda e: (-e.points, -e.tiebreak, -e.rating, e.id))
        home = {}
        start = 0
        for index, seats in enumerate(table_sizes(count, size)):
            for e in ranked[start : start + seats]:
                home[e.id] = index
            start += seats
        draw = draw_round("swiss", field, size, 4, 5)
        for index, table in enumerate(draw.tables):
            assert all(abs(home[p] - index) <= REACH for p in table)


def test_kept_apart_separates_a_pair_where_a_swap_can() -> None:
    tables = ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    apart = [(1, 2), (4, 6), (7, 9)]
    seated = kept_apart(tables, apart)
    assert sorted(p for t in seated for p in t) == list(range(1, 10))
    assert [len(t) for t in seated] == [3, 3, 3]
    assert not any({a, b} <= set(t) for t in seated for a, b in apart)


def test_kept_apart_leaves_what_no_swap_separates_and_nothing_else() -> None:
    # One table: no swap can part them, and the round still opens with them at it.
    assert kept_apart(((1, 2, 3),), [(1, 2)]) == ((1, 2, 3),)
    # Nobody kept apart: the draw as it came, seats and all.
    assert kept_apart(((3, 1, 2), (6, 5, 4)), []) == ((3, 1, 2), (6, 5, 4))
    # Three of five who all keep apart from each other, tables of 3 and 2: one pair stays.
    seated = kept_apart(((1, 2, 3), (4, 5)), [(1, 2), (1, 3), (2, 3)])
    together = sum({a, b} <= set(t) for t in seated for a, b in [(1, 2), (1, 3), (2, 3)])
    assert together == 1 and [len(t) for t in seated] == [3, 2]
