"""Golden digests: random games played move by move give exactly the states, events, pending
lists and legal moves recorded from the engine before its speed work (issue 14).

A change that makes the engine faster must not change one byte of what it plays. The digests
cover the final state (secrets included), every event, and at every step who is pending and
every pending player's legal moves, in order (a bot's choice depends on that order). The
views of every tenth game are in too. If a rules fix changes a digest on purpose, record
the new one and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import engine
from engine.bots import RandomBot
from engine.rng import Rng

from .test_random_games import RECORDED_GAMES, game_setups

# The games recorded: every player count, 9 and 6 rounds, the two-colour variant, every
# card's special action and vetoes. The test plays every other one (any change to what the
# engine plays shows in most games); recording plays them all.
SETUPS = list(game_setups(*RECORDED_GAMES))
CHECKED = 2
RECORDED = Path(__file__).with_name("golden_digests.txt")


def _sha(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def play(colours, seed, options, with_views: bool) -> tuple[str, str, str]:
    """Digests of the final state, the event stream, and what the players were offered."""
    bot = RandomBot(seed)
    rng = Rng(seed + 7)  # which of several pending players moves
    state = engine.new_game(colours, seed=seed, options=options)
    events = hashlib.sha256()
    offered = hashlib.sha256()
    while not engine.is_over(state):
        waiting = engine.pending(state)
        offered.update(json.dumps(waiting, sort_keys=True).encode())
        for w in waiting:
            offered.update(json.dumps(engine.legal_moves(state, w["player"])).encode())
        if with_views:
            for viewer in [*state.colours, None]:
                offered.update(json.dumps(engine.view(state, viewer), sort_keys=True).encode())
        player = waiting[rng.below(len(waiting))]["player"]
        state, new = engine.apply(state, player, bot.choose(state, player))
        events.update(json.dumps(new, sort_keys=True).encode())
    return _sha(engine.to_dict(state)), events.hexdigest(), offered.hexdigest()


def digest_all(every: int = 1) -> Iterator[str]:
    """One line per game (of every `every`-th): its seed and the first 16 hex digits of
    each digest."""
    for i, (colours, seed, options) in enumerate(SETUPS):
        if i % every == 0:
            state, events, offered = play(colours, seed, options, with_views=i % 10 == 0)
            yield f"{seed} {state[:16]} {events[:16]} {offered[:16]}"


def test_golden_digests_unchanged():
    recorded = RECORDED.read_text().splitlines()
    assert len(recorded) == len(SETUPS)
    checked = recorded[::CHECKED]
    for line, got in zip(checked, digest_all(CHECKED), strict=True):
        assert got == line, "seed, then digests of: final state, events, pending + legal moves"


if __name__ == "__main__":  # record anew: python -m tests.engine.test_golden > golden_digests.txt
    print("\n".join(digest_all()))
