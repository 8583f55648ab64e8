"""Advice: a hint's appraisal sees only its seat's view, and a review flags only moves the
seat made, against alternatives legal there, by the search's own figures."""

from __future__ import annotations

import engine
from engine.bots import GreedyBot, RandomBot, SearchBot
from engine.bots.review import LEAST_AT_STAKE, REVIEWED, bot_seed, review
from engine.rng import Rng
from engine.types import Move
from tests.engine.test_greedy_bot import scramble

THREE = ["red", "yellow", "green"]
SHORT = {"rounds": 6}


def _game(seed: int) -> list[tuple[str, Move]]:
    """A short game's log: red plays at random (it will lose points), the others greedily."""
    bots = {"red": RandomBot(seed), "yellow": GreedyBot(seed + 1), "green": GreedyBot(seed + 2)}
    state = engine.new_game(THREE, seed=seed, options=SHORT)
    log: list[tuple[str, Move]] = []
    while not engine.is_over(state):
        player = engine.pending(state)[0]["player"]
        move = bots[player].choose(state, player)
        log.append((player, move))
        state, _ = engine.apply(state, player, move)
    return log


def _replayed(seed: int, log: list[tuple[str, Move]], seq: int) -> engine.State:
    state = engine.new_game(THREE, seed=seed, options=SHORT)
    for colour, move in log[:seq]:
        state, _ = engine.apply(state, colour, move)
    return state


def test_an_appraisal_is_the_same_whatever_is_hidden_from_its_seat() -> None:
    """The same hint, to the last figure, when the others' hands, picks and the decks'
    order are scrambled consistently with the reader's view."""
    log = _game(11)
    rng = Rng(3)
    seen_kinds = set()
    for seq in (0, 12, 40, 75):
        state = _replayed(11, log, seq)
        waiting = engine.pending(state)[0]
        player = waiting["player"]
        seen_kinds.add(waiting["kind"])
        hidden = scramble(state, player, rng)
        assert engine.to_dict(hidden) != engine.to_dict(state) or seq == 0
        first = SearchBot(bot_seed(seq, player), playouts=4).appraise(state, player)
        second = SearchBot(bot_seed(seq, player), playouts=4).appraise(hidden, player)
        assert first == second
        assert [a["value"] for a in first] == sorted((a["value"] for a in first), reverse=True)
        assert all(a["playouts"] == 4 for a in first)
        assert {m["type"] for m in engine.legal_moves(state, player)} >= {
            a["move"]["type"] for a in first
        }
    assert "power_card" in seen_kinds


def test_a_move_weighed_beside_the_candidates_is_appraised_too() -> None:
    log = _game(12)
    seq = next(i for i, (_, m) in enumerate(log) if m["type"] == "play_power_card")
    state = _replayed(12, log, seq)
    colour, move = log[seq]
    legal = engine.legal_moves(state, colour)
    worst = legal[-1] if legal[-1] != move else legal[0]
    found = SearchBot(1, playouts=2).appraise(state, colour, also=worst)
    assert worst in [a["move"] for a in found]


def test_a_review_flags_only_what_the_seat_played_against_legal_alternatives() -> None:
    seed = 13
    log = _game(seed)
    done = review(THREE, seed, SHORT, log, ["red", "yellow"], playouts=4)
    assert set(done["flagged"]) == {"red", "yellow"}  # green was not asked for
    assert done["flagged"]["red"], "a random seat lost points somewhere"
    for colour, flagged in done["flagged"].items():
        assert len(flagged) <= 3
        assert [f["at_stake"] for f in flagged] == sorted(
            (f["at_stake"] for f in flagged), reverse=True
        )
        assert done["reviewed"][colour] == done["decisions"][colour] > 0
        for f in flagged:
            assert log[f["seq"]] == (colour, f["played"])
            assert f["played"]["type"] in REVIEWED
            state = _replayed(seed, log, f["seq"])
            assert f["better"] in engine.legal_moves(state, colour)
            assert f["better"] != f["played"]
            assert f["at_stake"] >= LEAST_AT_STAKE
            # The figures are the search's: appraised again, the same numbers come out.
            bot = SearchBot(bot_seed(f["seq"], colour), playouts=4)
            again = {str(a["move"]): a["value"] for a in bot.appraise(state, colour, f["played"])}
            assert round(again[str(f["played"])], 2) == f["played_value"]
            assert round(again[str(f["better"])], 2) == f["better_value"]
            assert max(again.values()) == again[str(f["better"])]
            assert abs(f["at_stake"] - (f["better_value"] - f["played_value"])) <= 0.011


def test_a_review_stops_when_its_budget_is_spent() -> None:
    log = _game(14)
    done = review(THREE, 14, SHORT, log, ["red"], playouts=4, seconds=0.0)
    assert done["reviewed"] == {"red": 0} and done["flagged"] == {"red": []}
    assert done["decisions"]["red"] >= 6  # a power card a round at least
