"""The game's flow: rounds, the order of play, turns beginning and ending, general scoring
and the end of the game.

What happens by itself between the players' moves lives here; the moves that set it going
are in `engine.turn_moves` (and `engine.special_moves` for special actions).
"""

from __future__ import annotations

from engine.board import Board, chosen_card, revealed_picks
from engine.data import (
    CASTILLO,
    COURT,
    DRAWN_STACKS,
    KING_CARD,
    POWER_CARDS,
    PROVINCE,
    REGIONS,
    SCORING_ROUNDS,
)
from engine.scoring import score_place
from engine.types import Events, GameOverEvent, TeamResult

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
            "round_number": board.round_index + 1,
            "action_cards": [card for s in sorted(board.face_up) if (card := board.face_up[s])],
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


def all_power_cards_played(board: Board, events: Events) -> None:
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
    card = chosen_card(turn)  # a turn ends at its step "act"
    # The King card comes back next round; a kept Veto stays with its player until used.
    if card != KING_CARD and not turn.get("card_kept"):
        board.action_discards.append(card)
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
    events.append(
        {"type": "general_scoring", "round": board.round, "round_number": board.round_index + 1}
    )
    pickers = [c for c in board.colours if board.count(c, CASTILLO) > 0]
    board.turn = None
    if pickers:
        board.phase = "castillo_pick"
        board.picks = {c: None for c in pickers}
    else:
        resolve_general_scoring(board, events)


def resolve_general_scoring(board: Board, events: Events) -> None:
    events.extend(score_place(board, CASTILLO))
    picks = revealed_picks(board.picks)  # every pick is made by now
    if picks:
        events.append({"type": "castillo_revealed", "picks": picks})
    for colour, region in picks.items():
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
    event: GameOverEvent = {
        "type": "game_over",
        "scores": dict(board.scores),
        "winners": winners(board),
    }
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
    top = max(board.scores.values())
    return [c for c in board.colours if board.scores[c] == top]


def team_results(board: Board) -> list[TeamResult]:
    """Two-colour variant final score per person: the floor of the two colours' mean, less
    1 for every full 5 points between them; a tie goes to the higher best colour."""
    out: list[TeamResult] = []
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

