"""The search bot: it sees only its seat's view, is deterministic for a playout budget, and
plays only legal moves. Small budgets keep these fast; its strength is bench/bots.py's."""

from __future__ import annotations

from collections import Counter

import engine
from engine.bots import GreedyBot, RandomBot, SearchBot
from engine.bots.search import deal
from engine.rng import Rng
from tests.engine.test_greedy_bot import scramble

THREE = ["red", "yellow", "green"]
FOUR = ["red", "yellow", "green", "blue"]


def _positions(colours: list[str], seed: int, every: int) -> list[engine.State]:
    """Positions of a greedy game: every `every`-th decision, and every one that is not a
    turn step (power cards, secret picks, veto windows, caballeros returned)."""
    bots = {c: GreedyBot(seed + i) for i, c in enumerate(colours)}
    state = engine.new_game(colours, seed=seed, options={"rounds": 9})
    out = []
    n = 0
    while not engine.is_over(state):
        waiting = engine.pending(state)[0]
        player = waiting["player"]
        n += 1
        if waiting["kind"] != "turn" or n % every == 0:
            out.append(state)
        state, _ = engine.apply(state, player, bots[player].choose(state, player))
    return out


def test_worlds_depend_only_on_the_view() -> None:
    """The world dealt for a seat is the same, to the last card, whatever is hidden from
    that seat: others' hands, returned cards, secret picks, the decks' order."""
    rng = Rng(5)
    kinds: Counter[str] = Counter()
    for state in _positions(FOUR, 3, 2):
        player = engine.pending(state)[0]["player"]
        kinds[engine.pending(state)[0]["kind"]] += 1
        seen = engine.view(state, player)
        hidden = scramble(state, player, rng)
        first = deal(state, seen, player, Rng(77))
        second = deal(hidden, engine.view(hidden, player), player, Rng(77))
        assert engine.to_dict(first) == engine.to_dict(second)
        # ... and it fits the view: the seat sees the same game in it.
        assert engine.view(first, player) == seen
    assert kinds["castillo_pick"] and kinds["secret_pick"], kinds


def test_worlds_differ_in_what_is_hidden() -> None:
    """Two worlds from different seeds deal the others' hands or the decks differently
    (the dealing is not a no-op that would keep the true hidden values)."""
    state = _positions(THREE, 4, 50)[3]
    player = engine.pending(state)[0]["player"]
    seen = engine.view(state, player)
    worlds = [deal(state, seen, player, Rng(s)) for s in range(4)]
    decks = {str(w.action_decks) for w in worlds}
    assert len(decks) > 1


def test_search_bot_sees_only_its_view() -> None:
    """At positions of every kind, the search bot's choice is the same when everything
    hidden from it is changed (two twins of one seed and budget)."""
    rng = Rng(99)
    differing = []
    for n, state in enumerate(_positions(THREE, 8, 9)[::3]):
        player = engine.pending(state)[0]["player"]
        hidden = scramble(state, player, rng)
        mine = SearchBot(n, playouts=6).choose(state, player)
        other = SearchBot(n, playouts=6).choose(hidden, player)
        if mine != other:
            differing.append((n, mine, other))
    assert not differing, differing[:3]


def test_search_bot_is_deterministic_for_a_playout_budget() -> None:
    """The same seed and playout budget in the same positions give the same moves."""
    positions = _positions(THREE, 11, 7)[::4]
    first = [SearchBot(3, playouts=8).choose(s, engine.pending(s)[0]["player"]) for s in positions]
    again = [SearchBot(3, playouts=8).choose(s, engine.pending(s)[0]["player"]) for s in positions]
    assert first == again


def test_search_bot_plays_only_legal_moves() -> None:
    """Whole games with one search bot (tiny budget) among random bots (quick, and any
    position may come): every choice is among the legal moves, in three-, four- and
    two-colour games alike."""
    for colours, options, seed in (
        (THREE, {"rounds": 6}, 1),
        (FOUR, {"rounds": 6}, 2),
        (FOUR, {"variant": "two_colour", "rounds": 6}, 3),
    ):
        bots: dict[str, RandomBot | SearchBot] = {
            c: RandomBot(seed + i) for i, c in enumerate(colours)
        }
        searcher = colours[seed % len(colours)]
        bots[searcher] = SearchBot(seed, playouts=2)
        state = engine.new_game(colours, seed=seed, options=options)
        chosen = 0
        while not engine.is_over(state):
            player = engine.pending(state)[0]["player"]
            move = bots[player].choose(state, player)
            if player == searcher:
                assert move in engine.legal_moves(state, player)
                chosen += 1
            state, _ = engine.apply(state, player, move)
        assert chosen > 10


def test_a_busy_machine_slows_the_timed_bot_but_leaves_its_playouts() -> None:
    """The time budget is the bot's own CPU time: with another thread taking half the
    interpreter (as a loaded server's other work does), a decision takes longer but plays
    as many playouts as on a quiet machine (on a wall clock it would play about half)."""
    import threading
    import time

    from engine.bots import search

    def choosing_a_card(state: engine.State) -> bool:
        moves = engine.legal_moves(state, engine.pending(state)[0]["player"])
        return any(m["type"] == "choose_card" for m in moves)

    position = next(s for s in _positions(THREE, 5, 30) if choosing_a_card(s))
    player = engine.pending(position)[0]["player"]

    def playouts() -> int:
        played = 0
        real = search.SearchBot._play_world

        def counting(self, worlds, candidates, alive, *rest):  # type: ignore[no-untyped-def]
            nonlocal played
            played += len(alive)
            return real(self, worlds, candidates, alive, *rest)

        search.SearchBot._play_world = counting  # type: ignore[method-assign]
        try:
            SearchBot(1, seconds=0.1).choose(position, player)
        finally:
            search.SearchBot._play_world = real  # type: ignore[method-assign]
        return played

    quiet = playouts()
    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            sum(range(1000))

    other = threading.Thread(target=busy)
    other.start()
    try:
        started = time.perf_counter()
        loaded = playouts()
        took = time.perf_counter() - started
    finally:
        stop.set()
        other.join()
    assert loaded >= 0.75 * quiet, (quiet, loaded, took)
