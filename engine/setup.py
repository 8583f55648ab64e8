"""Setting up a game: the options, the draws made from the seed, the first round.

Every draw (the king's region, the home regions, the first player, the action decks) is
made from the game's seed, so a seed gives the same game on every machine.
"""

from __future__ import annotations

from typing import Any

from engine.board import Board, empty_locations
from engine.data import (
    CABALLEROS_PER_COLOUR,
    CHART_ROUNDS,
    COLOURS,
    COURT,
    DRAWN_STACKS,
    POWER_CARDS,
    PROVINCE,
    REGIONS,
    SETUP_COURT,
    SETUP_HOME,
    stack_cards,
)
from engine.flow import start_round
from engine.rng import Rng


def new_board(colours: list[str], seed: int, options: dict[str, Any] | None = None) -> Board:
    if options is not None and not isinstance(options, dict):
        raise ValueError('Game options must be an object such as {"rounds": 6}.')
    options = dict(options or {})
    _check_setup(colours, seed, options)
    variant = options.setdefault("variant", "standard")
    # The two-colour variant is always the short game (French rules, first part).
    rounds = options.setdefault("rounds", 6 if variant == "two_colour" else 9)
    rng = Rng(seed)
    region_cards = rng.shuffled(REGIONS)
    king, homes = region_cards[0], region_cards[1 : 1 + len(colours)]
    drawn_first = rng.choice(colours)  # drawn even when chosen, so the decks stay the same
    first = options.get("first_player") or drawn_first
    decks = {stack: rng.shuffled(stack_cards(stack)) for stack in DRAWN_STACKS}
    caballeros = {}
    for colour, home in zip(colours, homes, strict=True):
        here = empty_locations()
        here[home] = SETUP_HOME
        here[COURT] = SETUP_COURT
        here[PROVINCE] = CABALLEROS_PER_COLOUR - SETUP_HOME - SETUP_COURT
        caballeros[colour] = here
    board = Board(
        colours=list(colours),
        seed=seed,
        options=options,
        chart=list(CHART_ROUNDS[rounds]),
        round_index=0,
        phase="power_cards",
        king=king,
        grandes=dict(zip(colours, homes, strict=True)),
        caballeros=caballeros,
        scores={c: 0 for c in colours},
        hands={c: list(POWER_CARDS) for c in colours},
        discards={c: [] for c in colours},
        round_start=first,
        power_played={},
        action_decks=decks,
        face_up={},
        action_discards=[],
        mobile_scoreboards={"8/4/0": None, "4/0/0": None},
        taken=[],
    )
    if variant == "two_colour":
        board.teams = [list(colours[:2]), list(colours[2:])]
        for team in board.teams:
            for colour, deck in zip(team, TWO_COLOUR_DECKS, strict=True):
                board.hands[colour] = list(deck)
    start_round(board, [])
    return board


# Two-colour variant: each person's first colour gets the odd cards, the second the 1 and
# the even cards (French rules: "cartes bleues 1, 3, 5, ... / cartes vertes 1, 2, 4, ...").
TWO_COLOUR_DECKS = ((1, 3, 5, 7, 9, 11, 13), (1, 2, 4, 6, 8, 10, 12))


def _check_setup(colours: list[str], seed: object, options: dict[str, Any]) -> None:
    if not isinstance(colours, list | tuple) or not 2 <= len(colours) <= 5:
        raise ValueError("El Grande is played by 2 to 5 players: give 2 to 5 colours.")
    unknown = [c for c in colours if c not in COLOURS]
    if unknown:
        raise ValueError(f"Unknown colour {unknown[0]!r}: colours are {', '.join(COLOURS)}.")
    if len(set(colours)) != len(colours):
        raise ValueError("Each player needs a colour of their own: a colour is repeated.")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("The seed must be a whole number.")
    extra = set(options) - {"rounds", "variant", "first_player"}
    if extra:
        raise ValueError(
            f"Unknown game option {sorted(extra)[0]!r}: options are rounds, variant, first_player."
        )
    rounds = options.get("rounds", 9)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds not in CHART_ROUNDS:
        raise ValueError("A game lasts 9 rounds, or 6 in the short game.")
    variant = options.get("variant", "standard")
    if variant not in ("standard", "two_colour"):
        raise ValueError('The variant is "standard" or "two_colour".')
    if variant == "two_colour":
        if len(colours) != 4:
            raise ValueError(
                "The two-colour variant needs 4 colours: the first two are one "
                "player's, the last two the other's."
            )
        if options.get("rounds", 6) != 6:
            raise ValueError("The two-colour variant is played in 6 rounds.")
    first = options.get("first_player")
    if first is not None and first not in colours:
        raise ValueError("The first player must be one of the game's colours.")

