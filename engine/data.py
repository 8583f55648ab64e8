"""Board data the rule books leave out: map, scoreboards, power cards, the action cards.

Everything here is constant; the rules read it, nothing writes it.
"""

from __future__ import annotations

from engine import names as _names

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "brown")

# The nine regions in the order of the board's scoring track (general scoring order).
REGIONS: tuple[str, ...] = (
    "galicia",
    "basque_country",
    "aragon",
    "catalonia",
    "old_castile",
    "new_castile",
    "seville",
    "granada",
    "valencia",
)
CASTILLO = "castillo"
# Every place that holds caballeros on the board: the regions, then the Castillo.
PLACES: tuple[str, ...] = REGIONS + (CASTILLO,)
# Where a colour's 30 caballeros can be.
PROVINCE = "province"
COURT = "court"
LOCATIONS: tuple[str, ...] = (PROVINCE, COURT) + PLACES
CABALLEROS_PER_COLOUR = 30

BORDERS: tuple[tuple[str, str], ...] = (
    ("galicia", "old_castile"),
    ("galicia", "basque_country"),
    ("basque_country", "old_castile"),
    ("basque_country", "aragon"),
    ("aragon", "old_castile"),
    ("aragon", "new_castile"),
    ("aragon", "catalonia"),
    ("aragon", "valencia"),
    ("catalonia", "valencia"),
    ("old_castile", "new_castile"),
    ("new_castile", "seville"),
    ("new_castile", "granada"),
    ("new_castile", "valencia"),
    ("seville", "granada"),
    ("granada", "valencia"),
)


def _neighbours() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {region: set() for region in REGIONS}
    for a, b in BORDERS:
        table[a].add(b)
        table[b].add(a)
    return {region: frozenset(near) for region, near in table.items()}


NEIGHBOURS: dict[str, frozenset[str]] = _neighbours()

# Printed scoreboards: points for 1st, 2nd, 3rd place.
SCOREBOARDS: dict[str, tuple[int, int, int]] = {
    "galicia": (4, 2, 0),
    "basque_country": (5, 3, 1),
    "aragon": (5, 4, 1),
    "catalonia": (4, 2, 1),
    "old_castile": (6, 4, 2),
    "new_castile": (7, 4, 2),
    "seville": (4, 3, 1),
    "granada": (6, 3, 1),
    "valencia": (5, 3, 2),
    "castillo": (5, 3, 1),
}
MOBILE_SCOREBOARDS: dict[str, tuple[int, int, int]] = {
    "8/4/0": (8, 4, 0),
    "4/0/0": (4, 0, 0),
}

# Power card value -> caballeros its player may draw from the province to the court.
POWER_CARDS: dict[int, int] = {
    1: 6,
    2: 5,
    3: 5,
    4: 4,
    5: 4,
    6: 3,
    7: 3,
    8: 2,
    9: 2,
    10: 1,
    11: 1,
    12: 0,
    13: 0,
}

# Setup: per colour, 2 caballeros beside the grande, 7 in court, 1 marks the score (not in play).
SETUP_HOME = 2
SETUP_COURT = 7

# Rounds of the chart played in each game length; general scoring follows these chart rounds.
CHART_ROUNDS: dict[int, tuple[int, ...]] = {9: (1, 2, 3, 4, 5, 6, 7, 8, 9), 6: (2, 3, 5, 6, 8, 9)}
SCORING_ROUNDS: frozenset[int] = frozenset({3, 6, 9})

KING_BONUS = 2
HOME_BONUS = 2

# The action cards: stack -> ((card id, copies), ...). A card's stack number is how many
# caballeros it lets its player move from court to the board; the King card's is 5.
ACTION_STACKS: dict[int, tuple[tuple[str, int], ...]] = {
    1: (
        ("intrigue_own_region", 1),
        ("intrigue_court_two", 1),
        ("intrigue_court_two_or_own_region", 1),
        ("intrigue_five_from_region", 2),
        ("intrigue_three_foreign", 1),
        ("intrigue_three_any", 1),
        ("intrigue_two_own_two_foreign", 2),
        ("intrigue_four_own", 1),
        ("intrigue_four_any", 1),
    ),
    2: (
        ("veto", 2),
        ("decay_all_court", 1),
        ("decay_three_court", 1),
        ("king_rages", 1),
        ("one_from_each_opponent", 1),
        ("secret_two_from_region", 1),
        ("secret_all_from_region", 1),
        ("score_chosen_region", 3),
    ),
    3: (
        ("score_four_regions", 2),
        ("score_five_regions", 2),
        ("score_six_seven_regions", 1),
        ("score_castillo", 2),
        ("score_first_places", 1),
        ("score_most_caballeros", 1),
        ("score_fewest_caballeros", 1),
        ("score_chosen_region", 1),
    ),
    4: (
        ("mobile_scoreboard", 3),
        ("royal_adviser", 1),
        ("eviction", 1),
        ("grande", 2),
        ("power_card_return", 2),
        ("court_two", 1),
        ("secret_scoring", 1),
    ),
    5: (("king", 1),),
}
#: The intrigue cards that move caballeros from place to place: how many of whose each may
#: move ("own", "foreign" or "any" colour). Read by the cards and by whoever counts what a
#: player has left to move.
INTRIGUE_QUOTAS: dict[str, dict[str, int]] = {
    "intrigue_three_foreign": {"foreign": 3},
    "intrigue_three_any": {"any": 3},
    "intrigue_two_own_two_foreign": {"own": 2, "foreign": 2},
    "intrigue_four_own": {"own": 4},
    "intrigue_four_any": {"any": 4},
}

KING_CARD = "king"
DRAWN_STACKS: tuple[int, ...] = (1, 2, 3, 4)  # stack 5 is the King card, face up every round


def stack_cards(stack: int) -> list[str]:
    """The cards of one stack, a card id once per copy, in the order of `ACTION_STACKS`."""
    return [card for card, copies in ACTION_STACKS[stack] for _ in range(copies)]


# Which stacks each card id is found in (`score_chosen_region` is in stacks 2 and 3).
CARD_STACKS: dict[str, frozenset[int]] = {
    card: frozenset(stack for stack, cards in ACTION_STACKS.items() if card in dict(cards))
    for cards in ACTION_STACKS.values()
    for card, _ in cards
}

# The places' names in English, as the board and the mails print them (the English of
# `engine.names.PLACE_NAMES`, which names them in every language).
PLACE_NAMES: dict[str, str] = {place: names.en for place, names in _names.PLACE_NAMES.items()}
