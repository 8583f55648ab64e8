"""`legal_moves` is exactly every candidate its rule's check accepts.

The engine takes shortcuts there for speed (a rule's `legal`, a card's `legal`): candidates
checked against one shared context, or built so as to meet every condition of the check.
This test holds them to the plain definition, at every step of random games.
"""

from __future__ import annotations

import engine
from engine import registry
from engine.bots import RandomBot
from engine.memo import per_call
from engine.moves import IllegalMove
from engine.rng import Rng

from .test_random_games import game_setups


def by_definition(board: engine.State, player: str) -> list[dict]:
    """Every candidate of every rule that its check accepts, one check each."""
    if board.phase == "over" or player not in board.colours:
        return []
    out = []
    for rule in registry.RULES.values():
        for move in rule.candidates(board, player):
            try:
                with per_call():
                    rule.check(board, player, move)
            except IllegalMove:
                continue
            out.append(move)
    return out


def test_legal_moves_are_the_candidates_their_checks_accept():
    rng = Rng(5)
    setups = list(game_setups())
    for colours, seed, options in setups[::4]:
        bot = RandomBot(seed)
        state = engine.new_game(colours, seed=seed, options=options)
        while not engine.is_over(state):
            waiting = engine.pending(state)
            for colour in state.colours:
                assert engine.legal_moves(state, colour) == by_definition(state, colour)
            player = waiting[rng.below(len(waiting))]["player"]
            state, _ = engine.apply(state, player, bot.choose(state, player))
