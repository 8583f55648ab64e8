"""The rules: setup, the round, the turn, general scoring and the end of the game.

Each move type is a `Rule`: where it may be tried (`candidates`), why it may not
(`check`, raising `IllegalMove` with the rule's own words) and what it does (`do`).
`legal_moves` is every candidate that passes its check, so the list a client chooses
from and the moves `apply` accepts cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.board import Board, empty_locations
from engine.data import (
    CABALLEROS_PER_COLOUR,
    CARD_STACKS,
    CASTILLO,
    CHART_ROUNDS,
    COLOURS,
    COURT,
    DRAWN_STACKS,
    KING_CARD,
    NEIGHBOURS,
    PLACES,
    POWER_CARDS,
    PROVINCE,
    REGIONS,
    SCORING_ROUNDS,
    SETUP_COURT,
    SETUP_HOME,
    stack_cards,
)
from engine.memo import per_call
from engine.moves import IllegalMove, check_form
from engine.rng import Rng
from engine.scoring import score_place

Events = list[dict[str, Any]]

# ---------------------------------------------------------------------------------------
# Setup


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


def _check_setup(colours: list[str], seed: Any, options: dict[str, Any]) -> None:
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


# ---------------------------------------------------------------------------------------
# The round


def start_round(board: Board, events: Events) -> None:
    for stack in DRAWN_STACKS:
        deck = board.action_decks[stack]
        board.face_up[stack] = deck[0] if deck else None
        board.action_decks[stack] = deck[1:]  # replaced, not popped: copies share decks
    board.face_up[5] = KING_CARD  # the King card comes back every round
    board.power_played = {}
    board.taken = []
    board.turn = None
    board.turn_order = []
    board.turn_index = 0
    board.phase = "power_cards"
    events.append(
        {
            "type": "round_started",
            "round": board.round,
            "action_cards": [board.face_up[s] for s in sorted(board.face_up) if board.face_up[s]],
        }
    )


def power_card_order(board: Board) -> list[str]:
    """This round's order of play for power cards: seat order from the starting colour.

    Two-colour variant (French rules, "Marqueurs pour indiquer l'ordre d'un tour de jeu"):
    the colours are numbered once for the game, alternating between the two people (n°1
    the first person's first colour, n°2 the other's first, n°3 and n°4 the second
    colours), and play goes round that cycle from the colour that must begin: "2-3-4-1"
    when n°2 begins.
    """
    seats = board.colours
    if board.teams:
        first, second = board.teams
        seats = [first[0], second[0], first[1], second[1]]
    start = seats.index(board.round_start)
    return seats[start:] + seats[:start]


def power_card_player(board: Board) -> str:
    """Who plays the next power card."""
    for colour in power_card_order(board):
        if colour not in board.power_played:
            return colour
    raise AssertionError("every power card of the round is already played")


def _all_power_cards_played(board: Board, events: Events) -> None:
    played = board.power_played
    # sorted() is stable: of two equal values (two-colour ruling) the earlier acts first.
    board.turn_order = sorted(played, key=lambda c: -played[c])
    board.last_round_lowest = board.turn_order[-1]
    board.turn_index = 0
    board.phase = "turn"
    begin_turn(board, events)


def begin_turn(board: Board, events: Events) -> None:
    colour = board.turn_order[board.turn_index]
    limit = POWER_CARDS[board.power_played[colour]]
    board.turn = {
        "player": colour,
        "step": "draw",
        "draw_limit": limit,
        "drawn": 0,
        "card": None,
        "stack": None,
        "place_limit": 0,
        "placed": 0,
        "placement": "open",  # open -> started -> closed
        "special": "open",  # open -> under_way -> done (see engine.special)
    }
    events.append({"type": "turn_started", "player": colour})
    if not _can_draw(board, colour):
        board.turn["step"] = "choose_card"


def _can_draw(board: Board, colour: str) -> bool:
    turn = board.turn
    assert turn is not None
    if turn["drawn"] >= turn["draw_limit"]:
        return False
    return board.count(colour, PROVINCE) > 0 or bool(_recall_regions(board, colour))


def _recall_regions(board: Board, colour: str) -> list[str]:
    """Regions a player may take caballeros back from when the province runs short."""
    return [r for r in REGIONS if r != board.king and board.count(colour, r) > 0]


def can_place(board: Board) -> bool:
    turn = board.turn
    if turn is None or turn["step"] != "act" or turn["placement"] == "closed":
        return False
    if turn["special"] == "under_way":
        return False
    return turn["placed"] < turn["place_limit"] and board.count(turn["player"], COURT) > 0


def maybe_end_turn(board: Board, events: Events) -> None:
    turn = board.turn
    if turn and turn["step"] == "act" and turn["special"] == "done" and not can_place(board):
        end_turn(board, events)


def end_turn(board: Board, events: Events) -> None:
    turn = board.turn
    assert turn is not None
    # The King card comes back next round; a kept Veto stays with its player until used.
    if turn["card"] != KING_CARD and not turn.get("card_kept"):
        board.action_discards.append(turn["card"])
    events.append({"type": "turn_ended", "player": turn["player"]})
    board.turn = None
    board.turn_index += 1
    if board.turn_index < len(board.turn_order):
        begin_turn(board, events)
    else:
        end_round(board, events)


def end_round(board: Board, events: Events) -> None:
    for stack in DRAWN_STACKS:
        card = board.face_up.get(stack)
        if card:
            board.action_discards.append(card)
        board.face_up[stack] = None
    board.face_up[5] = None
    for kept in [v for v in board.vetoes if v["expires"] <= board.round_index]:
        # A Veto not used by the end of the round after it was taken is laid aside.
        board.vetoes.remove(kept)
        board.action_discards.append("veto")
        events.append({"type": "veto_expired", "player": kept["player"]})
    assert board.last_round_lowest is not None
    board.round_start = board.last_round_lowest
    if board.round in SCORING_ROUNDS:
        begin_general_scoring(board, events)
    else:
        next_round(board, events)


def next_round(board: Board, events: Events) -> None:
    if board.round_index + 1 >= len(board.chart):
        game_over(board, events)
        return
    board.round_index += 1
    start_round(board, events)


# ---------------------------------------------------------------------------------------
# General scoring


def begin_general_scoring(board: Board, events: Events) -> None:
    events.append({"type": "general_scoring", "round": board.round})
    pickers = [c for c in board.colours if board.count(c, CASTILLO) > 0]
    board.turn = None
    if pickers:
        board.phase = "castillo_pick"
        board.picks = {c: None for c in pickers}
    else:
        resolve_general_scoring(board, events)


def resolve_general_scoring(board: Board, events: Events) -> None:
    events.extend(score_place(board, CASTILLO))
    picks = board.picks
    if picks:
        events.append({"type": "castillo_revealed", "picks": dict(picks)})
    for colour, region in picks.items():
        assert region is not None
        n = board.count(colour, CASTILLO)
        board.move_caballeros(colour, CASTILLO, region, n)
        events.append(
            {
                "type": "caballeros_moved",
                "player": colour,
                "count": n,
                "from": CASTILLO,
                "to": region,
            }
        )
    board.picks = {}
    for region in REGIONS:
        events.extend(score_place(board, region))
    next_round(board, events)


def game_over(board: Board, events: Events) -> None:
    board.phase = "over"
    board.turn = None
    event = {"type": "game_over", "scores": dict(board.scores), "winners": winners(board)}
    if board.teams:
        event["teams"] = team_results(board)
    events.append(event)


def winners(board: Board) -> list[str]:
    """The colours that won: the highest score; a tie shares the win.

    Two-colour variant: both colours of the person with the best `team_results` score.
    """
    if board.teams:
        results = team_results(board)
        best = max((r["score"], r["best_colour"]) for r in results)
        return [c for r in results if (r["score"], r["best_colour"]) == best for c in r["colours"]]
    best = max(board.scores.values())
    return [c for c in board.colours if board.scores[c] == best]


def team_results(board: Board) -> list[dict[str, Any]]:
    """Two-colour variant final score per person: the floor of the two colours' mean, less
    1 for every full 5 points between them; a tie goes to the higher best colour."""
    out = []
    for team in board.teams:
        a, b = (board.scores[c] for c in team)
        out.append(
            {
                "colours": list(team),
                "score": (a + b) // 2 - abs(a - b) // 5,
                "best_colour": max(a, b),
            }
        )
    return out


# ---------------------------------------------------------------------------------------
# Who must act


def pending(board: Board, viewer: str | None = None) -> list[dict[str, Any]]:
    """Who must act now, and on what; public (no secret in it) unless `viewer` is given, when
    a Veto window's plan shows that colour's own secret too (engine.observer asks so)."""
    if board.phase == "power_cards":
        return [{"player": power_card_player(board), "kind": "power_card"}]
    if board.phase == "turn":
        assert board.turn is not None
        if board.special is not None:
            from engine import special  # special builds on this module

            return special.pending(board, viewer)
        return [{"player": board.turn["player"], "kind": "turn", "step": board.turn["step"]}]
    if board.phase == "castillo_pick":
        return [{"player": c, "kind": "castillo_pick"} for c, r in board.picks.items() if r is None]
    return []


# ---------------------------------------------------------------------------------------
# Move rules


@dataclass(frozen=True)
class Rule:
    type: str
    candidates: Callable[[Board, str], Iterable[dict[str, Any]]]
    check: Callable[[Board, str, dict[str, Any]], None]
    do: Callable[[Board, str, dict[str, Any], Events], None]
    # The moment of the game the rule's moves belong to (see `moment`): legal_moves asks
    # only the rules of the moment, the candidates still look for themselves.
    when: str
    # The candidates `check` accepts, found more cheaply than by one `check` each (see
    # special._planning_rule); None: legal_moves checks every candidate. The engine's tests
    # hold it to that definition (tests/engine/test_legal_moves.py).
    legal: Callable[[Board, str], Iterable[dict[str, Any]]] | None = None


RULES: dict[str, Rule] = {}


def rule(
    type_: str,
    candidates: Callable[[Board, str], Iterable[dict[str, Any]]],
    when: str,
    legal: Callable[[Board, str], Iterable[dict[str, Any]]] | None = None,
):
    """Register a move rule from its check function; the `do` function follows as `.do`."""

    def decorate(check: Callable[[Board, str, dict[str, Any]], None]):
        def with_do(do: Callable[[Board, str, dict[str, Any], Events], None]):
            RULES[type_] = Rule(type_, candidates, check, do, when, legal)
            return do

        check.do = with_do  # type: ignore[attr-defined]
        return check

    return decorate


def _name_list(names: Iterable[str]) -> str:
    return ", ".join(names)


def check_region(name: str, *, castillo: bool = False) -> None:
    """Refuse a name that is not a region (or, where allowed, the Castillo)."""
    allowed = PLACES if castillo else REGIONS
    if name not in allowed:
        what = "a region or the castillo" if castillo else "a region"
        raise IllegalMove(f'"{name}" is not {what}: choose from {_name_list(allowed)}.')


def turn_for(board: Board, player: str, steps: tuple[str, ...], doing: str) -> dict[str, Any]:
    """The turn under way, if it is `player`'s and at one of `steps`; else a clear refusal."""
    turn = board.turn
    if board.phase != "turn" or turn is None:
        raise IllegalMove(f"You cannot {doing} now: {waiting_for(board)}.")
    if turn["player"] != player:
        raise IllegalMove(f"It is not your turn: {waiting_for(board)}.")
    if turn["step"] not in steps:
        raise IllegalMove(f"You cannot {doing} at this point of your turn: {_step_hint(turn)}.")
    return turn


_STEP_HINTS = {
    "draw": "first take caballeros from the province to your court (take_caballeros)",
    "choose_card": "choose an action card (choose_card)",
    "act": "place caballeros, carry out or skip the special action, or end your turn",
}


def _step_hint(turn: dict[str, Any]) -> str:
    return _STEP_HINTS[turn["step"]]


def waiting_for(board: Board) -> str:
    waiting = pending(board)
    if not waiting:
        return "the game is over"
    kinds = {
        "power_card": "play a power card",
        "turn": "take their turn",
        "castillo_pick": "pick a region for their Castillo caballeros",
        "secret_pick": "make their secret pick",
        "king_rages": "return caballeros to the province (King rages)",
        "veto_window": "allow or veto the special action",
    }
    who = " and ".join(w["player"] for w in waiting)
    return f"waiting for {who} to {kinds.get(waiting[0]['kind'], waiting[0]['kind'])}"


# -- power cards --------------------------------------------------------------------------


# Candidate functions look only where their move can apply (the phase, whose turn, which
# step); the rule's check still decides. Skipping the rest keeps legal_moves cheap.


def _turn_at(board: Board, player: str, step: str) -> dict[str, Any] | None:
    turn = board.turn
    if board.phase != "turn" or turn is None or turn["player"] != player or turn["step"] != step:
        return None
    return turn


def _power_candidates(board: Board, player: str) -> Iterable[dict[str, Any]]:
    if board.phase != "power_cards" or power_card_player(board) != player:
        return ()
    return ({"type": "play_power_card", "card": v} for v in board.hands[player])


def _legal_power_cards(board: Board, player: str) -> list[dict[str, Any]]:
    """What `check_power_card` accepts, found at once: the cards of the hand, but a value
    already played this round only when every card of the hand repeats one."""
    if board.phase != "power_cards" or power_card_player(board) != player:
        return []
    hand = board.hands[player]
    taken = set(board.power_played.values())
    repeat_allowed = all(v in taken for v in hand)
    return [
        {"type": "play_power_card", "card": v}
        for v in hand
        if v in POWER_CARDS and (repeat_allowed or v not in taken)
    ]


@rule("play_power_card", _power_candidates, "power_cards", legal=_legal_power_cards)
def check_power_card(board: Board, player: str, move: dict[str, Any]) -> None:
    if board.phase != "power_cards":
        raise IllegalMove(f"Power cards are played at the start of a round: {waiting_for(board)}.")
    if power_card_player(board) != player:
        raise IllegalMove(f"It is not your turn to play a power card: {waiting_for(board)}.")
    value = move["card"]
    if value not in POWER_CARDS:
        raise IllegalMove(f"There is no power card {value}: power cards run from 1 to 13.")
    if value not in board.hands[player]:
        raise IllegalMove(f"Power card {value} is not in your hand: each card is played once.")
    taken = set(board.power_played.values())
    if value in taken and any(v not in taken for v in board.hands[player]):
        # Ruling: only a hand whose every card repeats a value already played may repeat
        # one (possible with the two-colour variant's 7-card decks); the earlier card of
        # equal value then acts first.
        other = next(c for c, v in board.power_played.items() if v == value)
        raise IllegalMove(
            f"{other} already played power card {value} this round: no value may be "
            "played twice in one round."
        )


@check_power_card.do
def play_power_card(board: Board, player: str, move: dict[str, Any], events: Events) -> None:
    value = move["card"]
    # Replaced, not changed in place: states copied for a move share these lists.
    board.hands[player] = [v for v in board.hands[player] if v != value]
    board.discards[player] = [*board.discards[player], value]
    returned = board.returned_cards.get(player)
    if returned and value in returned:
        board.returned_cards[player] = [v for v in returned if v != value]
    board.power_played[player] = value
    events.append({"type": "power_card_played", "player": player, "card": value})
    if len(board.power_played) == len(board.colours):
        _all_power_cards_played(board, events)


# -- drawing caballeros to court ------------------------------------------------------------


def _draw_candidates(board: Board, player: str) -> Iterable[dict[str, Any]]:
    turn = _turn_at(board, player, "draw")
    if not turn:
        return ()
    most = min(turn["draw_limit"], board.count(player, PROVINCE))
    return ({"type": "take_caballeros", "count": n} for n in range(most, -1, -1))


@rule("take_caballeros", _draw_candidates, "draw")
def check_take(board: Board, player: str, move: dict[str, Any]) -> None:
    turn = turn_for(board, player, ("draw",), "take caballeros to your court")
    n, limit = move["count"], turn["draw_limit"]
    if n < 0:
        raise IllegalMove("You cannot take a negative number of caballeros.")
    if n > limit:
        raise IllegalMove(
            f"Your power card lets you take at most {limit} caballeros from the province."
        )
    if n > board.count(player, PROVINCE):
        raise IllegalMove(
            f"Only {board.count(player, PROVINCE)} of your caballeros are in the province; "
            "when it runs short, take the rest from your regions with take_from_region."
        )


@check_take.do
def take_caballeros(board: Board, player: str, move: dict[str, Any], events: Events) -> None:
    turn = board.turn
    assert turn is not None
    board.move_caballeros(player, PROVINCE, COURT, move["count"])
    turn["drawn"] = move["count"]
    turn["step"] = "choose_card"
    events.append(
        {"type": "caballeros_taken", "player": player, "count": move["count"], "from": PROVINCE}
    )


def _recall_candidates(board: Board, player: str) -> Iterable[dict[str, Any]]:
    if not _turn_at(board, player, "choose_card") or board.count(player, PROVINCE):
        return ()
    return ({"type": "take_from_region", "region": r} for r in REGIONS)


@rule("take_from_region", _recall_candidates, "choose_card")
def check_take_from_region(board: Board, player: str, move: dict[str, Any]) -> None:
    turn = turn_for(board, player, ("choose_card",), "take caballeros from a region")
    region = move["region"]
    check_region(region)
    if board.count(player, PROVINCE) > 0:
        raise IllegalMove(
            "You may take caballeros from the board only when the province has none of yours left."
        )
    if turn["drawn"] >= turn["draw_limit"]:
        raise IllegalMove(
            f"You have already taken the {turn['draw_limit']} caballeros your power card allows."
        )
    if region == board.king:
        raise IllegalMove("Nothing may leave the king's region: choose another region.")
    if board.count(player, region) == 0:
        raise IllegalMove(f"You have no caballeros in {region}.")


@check_take_from_region.do
def take_from_region(board: Board, player: str, move: dict[str, Any], events: Events) -> None:
    turn = board.turn
    assert turn is not None
    board.move_caballeros(player, move["region"], COURT)
    turn["drawn"] += 1
    events.append(
        {"type": "caballeros_taken", "player": player, "count": 1, "from": move["region"]}
    )


# -- the action card ----------------------------------------------------------------------


def _card_candidates(board: Board, player: str) -> Iterable[dict[str, Any]]:
    if not _turn_at(board, player, "choose_card"):
        return ()
    return (
        {"type": "choose_card", "card": card, "stack": stack}
        for stack, card in sorted(board.face_up.items())
        if card
    )


@rule("choose_card", _card_candidates, "choose_card")
def check_choose_card(board: Board, player: str, move: dict[str, Any]) -> None:
    turn_for(board, player, ("choose_card",), "choose an action card")
    _face_up_stack(board, move)


def _face_up_stack(board: Board, move: dict[str, Any]) -> int:
    """The stack of the face-up card a choose_card move names."""
    card, stack = move["card"], move.get("stack")
    if card not in CARD_STACKS:
        raise IllegalMove(f'There is no action card "{card}".')
    showing = [s for s, c in board.face_up.items() if c == card]
    if stack is not None:
        if stack not in showing:
            raise IllegalMove(
                f'"{card}" is not face up on stack {stack} this round: {_face_up_list(board)}.'
            )
        return stack
    if not showing:
        raise IllegalMove(
            f'"{card}" is not among this round\'s face-up action cards: {_face_up_list(board)}.'
        )
    if len(showing) > 1:
        raise IllegalMove(
            f'"{card}" is face up on stacks {showing[0]} and {showing[1]}: say which with "stack".'
        )
    return showing[0]


def _face_up_list(board: Board) -> str:
    cards = [f"{c} (stack {s})" for s, c in sorted(board.face_up.items()) if c]
    return "the cards left are " + ", ".join(cards) if cards else "no card is left"


@check_choose_card.do
def choose_card(board: Board, player: str, move: dict[str, Any], events: Events) -> None:
    turn = board.turn
    assert turn is not None
    stack = _face_up_stack(board, move)
    card = board.face_up[stack]
    board.face_up[stack] = None
    board.taken.append({"player": player, "card": card, "stack": stack})
    turn.update(card=card, stack=stack, place_limit=stack, step="act")
    events.append({"type": "card_chosen", "player": player, "card": card, "stack": stack})
    maybe_end_turn(board, events)


# -- placing caballeros from court ----------------------------------------------------------


def _place_candidates(board: Board, player: str) -> Iterable[dict[str, Any]]:
    if not _turn_at(board, player, "act") or not can_place(board):
        return ()
    return ({"type": "place", "to": p} for p in PLACES_FROM_COURT[board.king])


# Where caballeros from court may go, by the king's region: its neighbours and the castillo,
# in PLACES order. The other places would only be refused by the check, one exception each.
PLACES_FROM_COURT = {
    king: tuple(p for p in PLACES if p == CASTILLO or p in NEIGHBOURS[king]) for king in REGIONS
}


@rule("place", _place_candidates, "act")
def check_place(board: Board, player: str, move: dict[str, Any]) -> None:
    turn = turn_for(board, player, ("act",), "place caballeros")
    target = move["to"]
    check_region(target, castillo=True)
    if turn["special"] == "under_way":
        raise IllegalMove(
            "Your special action is under way: a turn's two actions may not be split, so "
            "finish it before placing from court."
        )
    if turn["placement"] == "closed":
        raise IllegalMove(
            "Your placement from court is over: a turn's two actions may not be split, and "
            "you began the special action after placing."
        )
    if turn["placed"] >= turn["place_limit"]:
        raise IllegalMove(
            f"This action card lets you place at most {turn['place_limit']} caballeros from court."
        )
    if board.count(player, COURT) == 0:
        raise IllegalMove("Your court is empty: there is no caballero to place.")
    if target == board.king:
        raise IllegalMove(
            "Nothing may enter the king's region: place next to it or in the castillo."
        )
    if target != CASTILLO and target not in NEIGHBOURS[board.king]:
        near = _name_list(sorted(NEIGHBOURS[board.king]))
        raise IllegalMove(
            f"Caballeros from court go only to regions bordering the king's region "
            f"({board.king}: {near}) or into the castillo."
        )


@check_place.do
def place(board: Board, player: str, move: dict[str, Any], events: Events) -> None:
    turn = board.turn
    assert turn is not None
    board.move_caballeros(player, COURT, move["to"])
    turn["placed"] += 1
    turn["placement"] = "started"
    events.append({"type": "caballero_placed", "player": player, "to": move["to"]})
    maybe_end_turn(board, events)


# -- the special action and the end of the turn -------------------------------------------


def _in_act(move: dict[str, Any]) -> Callable[[Board, str], Iterable[dict[str, Any]]]:
    # A fresh dict each time: a caller may change the moves it is given.
    return lambda board, player: (dict(move),) if _turn_at(board, player, "act") else ()


def _skip_candidates(board: Board, player: str) -> Iterable[dict[str, Any]]:
    turn = _turn_at(board, player, "act")
    return ({"type": "skip_special"},) if turn and turn["special"] == "open" else ()


@rule("skip_special", _skip_candidates, "act")
def check_skip_special(board: Board, player: str, move: dict[str, Any]) -> None:
    turn = turn_for(board, player, ("act",), "skip the special action")
    if turn["special"] != "open":
        raise IllegalMove("The special action of this card is already done or skipped.")


@check_skip_special.do
def skip_special(board: Board, player: str, move: dict[str, Any], events: Events) -> None:
    turn = board.turn
    assert turn is not None
    turn["special"] = "done"
    events.append({"type": "special_skipped", "player": player, "card": turn["card"]})
    maybe_end_turn(board, events)


@rule("end_turn", _in_act({"type": "end_turn"}), "act")
def check_end_turn(board: Board, player: str, move: dict[str, Any]) -> None:
    turn = turn_for(board, player, ("act",), "end your turn")
    if turn["special"] == "under_way":
        raise IllegalMove(
            "Your special action is under way: a begun special action is carried out whole "
            "(end_special ends one that allows fewer)."
        )


@check_end_turn.do
def do_end_turn(board: Board, player: str, move: dict[str, Any], events: Events) -> None:
    turn = board.turn
    assert turn is not None
    if turn["special"] == "open":
        events.append({"type": "special_skipped", "player": player, "card": turn["card"]})
    end_turn(board, events)


# -- the Castillo's secret disk ---------------------------------------------------------------


def _pick_candidates(board: Board, player: str) -> Iterable[dict[str, Any]]:
    if board.phase != "castillo_pick" or player not in board.picks:
        return ()
    return ({"type": "castillo_pick", "region": r} for r in REGIONS)


@rule("castillo_pick", _pick_candidates, "castillo_pick")
def check_castillo_pick(board: Board, player: str, move: dict[str, Any]) -> None:
    if board.phase != "castillo_pick":
        raise IllegalMove(f"There is no Castillo pick under way: {waiting_for(board)}.")
    if player not in board.picks:
        raise IllegalMove(
            "Only players with caballeros in the castillo pick where they go: you have none there."
        )
    check_region(move["region"])
    if move["region"] == board.king:
        raise IllegalMove(
            "The castillo's caballeros may not go to the king's region: pick another region."
        )


@check_castillo_pick.do
def castillo_pick(board: Board, player: str, move: dict[str, Any], events: Events) -> None:
    board.picks[player] = move["region"]
    events.append({"type": "secret_pick_made", "player": player, "for": "castillo"})
    if all(board.picks.values()):
        resolve_general_scoring(board, events)


# ---------------------------------------------------------------------------------------
# The facade's moving parts


def moment(board: Board) -> tuple[str, ...]:
    """The moments of the game whose rules may have moves now (the `when` of a Rule)."""
    turn = board.turn
    if board.phase != "turn" or turn is None:
        return (board.phase,)
    special = board.special
    if special is None or special["stage"] == "planning":
        if turn["step"] != "act":
            return (turn["step"],)
        from engine.special import action_for  # special builds on this module

        # While the card's moves are open, so are placing and ending the turn. A planning
        # move's moment is its own type, open only while its card is played.
        action = action_for(board)
        return ("act", "planning", *(action.planning_moves if action else ()))
    return (special["stage"],)  # "inputs" or "window"


# (how many rules it was made from, RULES grouped by moment): swapped whole, never changed,
# so threads reading it while another rebuilds it see one or the other.
_BY_MOMENT: tuple[int, dict[str, list[Rule]]] = (0, {})


def _rules_by_moment() -> dict[str, list[Rule]]:
    """RULES grouped by the moment their moves belong to, in registration order. Rebuilt
    when rules were registered since (the cards register theirs at import)."""
    global _BY_MOMENT
    made_from, grouped = _BY_MOMENT
    if made_from != len(RULES):
        grouped = {}
        for move_rule in RULES.values():
            grouped.setdefault(move_rule.when, []).append(move_rule)
        _BY_MOMENT = (len(RULES), grouped)
    return grouped


def legal_moves(board: Board, player: str) -> list[dict[str, Any]]:
    if board.phase == "over" or player not in board.colours:
        return []
    out: list[dict[str, Any]] = []
    by_moment = _rules_by_moment()
    with per_call():
        for move_rule in (r for when in moment(board) for r in by_moment.get(when, ())):
            if move_rule.legal is not None:
                out.extend(move_rule.legal(board, player))
                continue
            for move in move_rule.candidates(board, player):
                try:
                    move_rule.check(board, player, move)
                except IllegalMove:
                    continue
                out.append(move)
    return out


def push(board: Board, player: Any, move: Any) -> Events:
    """Check and play one move on `board` in place; return its events."""
    check_form(move)
    if not isinstance(player, str) or player not in board.colours:
        raise IllegalMove(
            f"{player!r} is not a player of this game: players are {_name_list(board.colours)}."
        )
    if board.phase == "over":
        raise IllegalMove("The game is over: no more moves can be made.")
    move_rule = RULES[move["type"]]
    with per_call():  # the check only reads; `do` changes the board, so it gets no memo
        move_rule.check(board, player, move)
    events: Events = []
    move_rule.do(board, player, move, events)
    return events


def default_move(board: Board, player: str) -> dict[str, Any] | None:
    """What a timeout plays for `player`: cautious, and never a strategic gift to anyone."""
    moves = legal_moves(board, player)
    if not moves:
        return None
    kinds = {m["type"] for m in moves}
    if "play_power_card" in kinds:
        return min((m for m in moves if m["type"] == "play_power_card"), key=lambda m: m["card"])
    if "take_caballeros" in kinds:
        return max((m for m in moves if m["type"] == "take_caballeros"), key=lambda m: m["count"])
    if "castillo_pick" in kinds:
        home = board.grandes[player]
        return next((m for m in moves if m["region"] == home), moves[0])
    # A veto window times out as `allow`; a turn ends; a special action under way ends
    # where the card allows, else takes its first listed step.
    for kind in ("allow", "choose_card", "end_special", "end_turn"):
        if kind in kinds:
            return next(m for m in moves if m["type"] == kind)
    return moves[0]
