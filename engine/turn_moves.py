"""The base rules: playing a power card, a turn's moves and the Castillo pick.

A turn: take caballeros from the province to court (or, when it runs short, from the
board), choose a face-up action card, then place caballeros from court and carry out (or
skip) the card's special action, in either order but not split, and end the turn. The
special action's own moves are in `engine.special_moves`.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import Board, Turn, chosen_card
from engine.data import (
    CARD_STACKS,
    CASTILLO,
    COURT,
    NEIGHBOURS,
    PLACES,
    POWER_CARDS,
    PROVINCE,
    REGIONS,
)
from engine.flow import (
    all_power_cards_played,
    can_place,
    end_turn,
    maybe_end_turn,
    power_card_player,
    resolve_general_scoring,
)
from engine.moves import IllegalMove, check_region
from engine.registry import rule
from engine.types import (
    CastilloPickMove,
    ChooseCardMove,
    EndTurnMove,
    Events,
    PlaceMove,
    PlayPowerCardMove,
    SkipSpecialMove,
    TakeCaballerosMove,
    TakeFromRegionMove,
)
from engine.waiting import turn_for, waiting_for

# -- power cards --------------------------------------------------------------------------


# Candidate functions look only where their move can apply (the phase, whose turn, which
# step); the rule's check still decides. Skipping the rest keeps legal_moves cheap.


def _turn_at(board: Board, player: str, step: str) -> Turn | None:
    turn = board.turn
    if board.phase != "turn" or turn is None or turn["player"] != player or turn["step"] != step:
        return None
    return turn


def _power_candidates(board: Board, player: str) -> Iterable[PlayPowerCardMove]:
    if board.phase != "power_cards" or power_card_player(board) != player:
        return ()
    return ({"type": "play_power_card", "card": v} for v in board.hands[player])


def _legal_power_cards(board: Board, player: str) -> list[PlayPowerCardMove]:
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
def check_power_card(board: Board, player: str, move: PlayPowerCardMove) -> None:
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
def play_power_card(board: Board, player: str, move: PlayPowerCardMove, events: Events) -> None:
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
        all_power_cards_played(board, events)


# -- drawing caballeros to court ------------------------------------------------------------


def _draw_candidates(board: Board, player: str) -> Iterable[TakeCaballerosMove]:
    turn = _turn_at(board, player, "draw")
    if not turn:
        return ()
    most = min(turn["draw_limit"], board.count(player, PROVINCE))
    return ({"type": "take_caballeros", "count": n} for n in range(most, -1, -1))


@rule("take_caballeros", _draw_candidates, "draw")
def check_take(board: Board, player: str, move: TakeCaballerosMove) -> None:
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
def take_caballeros(board: Board, player: str, move: TakeCaballerosMove, events: Events) -> None:
    turn = board.turn
    assert turn is not None
    board.move_caballeros(player, PROVINCE, COURT, move["count"])
    turn["drawn"] = move["count"]
    turn["step"] = "choose_card"
    events.append(
        {"type": "caballeros_taken", "player": player, "count": move["count"], "from": PROVINCE}
    )


def _recall_candidates(board: Board, player: str) -> Iterable[TakeFromRegionMove]:
    if not _turn_at(board, player, "choose_card") or board.count(player, PROVINCE):
        return ()
    return ({"type": "take_from_region", "region": r} for r in REGIONS)


@rule("take_from_region", _recall_candidates, "choose_card")
def check_take_from_region(board: Board, player: str, move: TakeFromRegionMove) -> None:
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
def take_from_region(board: Board, player: str, move: TakeFromRegionMove, events: Events) -> None:
    turn = board.turn
    assert turn is not None
    board.move_caballeros(player, move["region"], COURT)
    turn["drawn"] += 1
    events.append(
        {"type": "caballeros_taken", "player": player, "count": 1, "from": move["region"]}
    )


# -- the action card ----------------------------------------------------------------------


def _card_candidates(board: Board, player: str) -> Iterable[ChooseCardMove]:
    if not _turn_at(board, player, "choose_card"):
        return ()
    return (
        {"type": "choose_card", "card": card, "stack": stack}
        for stack, card in sorted(board.face_up.items())
        if card
    )


@rule("choose_card", _card_candidates, "choose_card")
def check_choose_card(board: Board, player: str, move: ChooseCardMove) -> None:
    turn_for(board, player, ("choose_card",), "choose an action card")
    _face_up_stack(board, move)


def _face_up_stack(board: Board, move: ChooseCardMove) -> int:
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
def choose_card(board: Board, player: str, move: ChooseCardMove, events: Events) -> None:
    turn = board.turn
    assert turn is not None
    stack = _face_up_stack(board, move)
    card = board.face_up[stack]
    assert card is not None  # _face_up_stack found it face up
    board.face_up[stack] = None
    board.taken.append({"player": player, "card": card, "stack": stack})
    turn.update({"card": card, "stack": stack, "place_limit": stack, "step": "act"})
    events.append({"type": "card_chosen", "player": player, "card": card, "stack": stack})
    maybe_end_turn(board, events)


# -- placing caballeros from court ----------------------------------------------------------


def _place_candidates(board: Board, player: str) -> Iterable[PlaceMove]:
    if not _turn_at(board, player, "act") or not can_place(board):
        return ()
    return ({"type": "place", "to": p} for p in PLACES_FROM_COURT[board.king])


# Where caballeros from court may go, by the king's region: its neighbours and the castillo,
# in PLACES order. The other places would only be refused by the check, one exception each.
PLACES_FROM_COURT = {
    king: tuple(p for p in PLACES if p == CASTILLO or p in NEIGHBOURS[king]) for king in REGIONS
}


@rule("place", _place_candidates, "act")
def check_place(board: Board, player: str, move: PlaceMove) -> None:
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
        near = ", ".join(sorted(NEIGHBOURS[board.king]))
        raise IllegalMove(
            f"Caballeros from court go only to regions bordering the king's region "
            f"({board.king}: {near}) or into the castillo."
        )


@check_place.do
def place(board: Board, player: str, move: PlaceMove, events: Events) -> None:
    turn = board.turn
    assert turn is not None
    board.move_caballeros(player, COURT, move["to"])
    turn["placed"] += 1
    turn["placement"] = "started"
    events.append({"type": "caballero_placed", "player": player, "to": move["to"]})
    maybe_end_turn(board, events)


# -- the special action and the end of the turn -------------------------------------------


def _skip_candidates(board: Board, player: str) -> Iterable[SkipSpecialMove]:
    turn = _turn_at(board, player, "act")
    return ({"type": "skip_special"},) if turn and turn["special"] == "open" else ()


@rule("skip_special", _skip_candidates, "act")
def check_skip_special(board: Board, player: str, move: SkipSpecialMove) -> None:
    turn = turn_for(board, player, ("act",), "skip the special action")
    if turn["special"] != "open":
        raise IllegalMove("The special action of this card is already done or skipped.")


@check_skip_special.do
def skip_special(board: Board, player: str, move: SkipSpecialMove, events: Events) -> None:
    turn = board.turn
    assert turn is not None
    turn["special"] = "done"
    events.append({"type": "special_skipped", "player": player, "card": chosen_card(turn)})
    maybe_end_turn(board, events)


def _end_turn_candidates(board: Board, player: str) -> Iterable[EndTurnMove]:
    # A fresh dict each time: a caller may change the moves it is given.
    return ({"type": "end_turn"},) if _turn_at(board, player, "act") else ()


@rule("end_turn", _end_turn_candidates, "act")
def check_end_turn(board: Board, player: str, move: EndTurnMove) -> None:
    turn = turn_for(board, player, ("act",), "end your turn")
    if turn["special"] == "under_way":
        raise IllegalMove(
            "Your special action is under way: a begun special action is carried out whole "
            '("stop" ends one that allows fewer).'
        )


@check_end_turn.do
def do_end_turn(board: Board, player: str, move: EndTurnMove, events: Events) -> None:
    turn = board.turn
    assert turn is not None
    if turn["special"] == "open":
        events.append({"type": "special_skipped", "player": player, "card": chosen_card(turn)})
    end_turn(board, events)


# -- the Castillo's secret disk ---------------------------------------------------------------


def _pick_candidates(board: Board, player: str) -> Iterable[CastilloPickMove]:
    if board.phase != "castillo_pick" or player not in board.picks:
        return ()
    return ({"type": "castillo_pick", "region": r} for r in REGIONS)


@rule("castillo_pick", _pick_candidates, "castillo_pick")
def check_castillo_pick(board: Board, player: str, move: CastilloPickMove) -> None:
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
def castillo_pick(board: Board, player: str, move: CastilloPickMove, events: Events) -> None:
    board.picks[player] = move["region"]
    events.append({"type": "secret_pick_made", "player": player, "for": "castillo"})
    if all(board.picks.values()):
        resolve_general_scoring(board, events)
