"""Playing moves: the legal moves of the moment, pushing one, the move a timeout makes.

Importing this module registers every rule: the base rules (engine.turn_moves), the special
actions' (engine.special_moves) and every card's (engine.cards).
"""

from __future__ import annotations

# isort: off
# In this order, so that RULES holds the base rules first, then the special actions' own,
# then the cards' (tests/engine/test_legal_moves.py lists moves by definition in its order).
from engine import turn_moves as _turn_moves  # noqa: F401  (registers the base rules)
from engine import special_moves as _special_moves  # noqa: F401  (registers their rules)
from engine import cards as _cards  # noqa: F401  (registers every card's special action)
# isort: on
from engine.board import Board
from engine.data import PLACES
from engine.memo import per_call
from engine.moves import IllegalMove, well_formed
from engine.registry import RULES, rules_by_moment
from engine.scoring import scoreboard
from engine.special import action_for
from engine.types import Events, Move


def moment(board: Board) -> tuple[str, ...]:
    """The moments of the game whose rules may have moves now (the `when` of a Rule)."""
    turn = board.turn
    if board.phase != "turn" or turn is None:
        return (board.phase,)
    special = board.special
    if special is None or special["stage"] == "planning":
        if turn["step"] != "act":
            return (turn["step"],)
        # While the card's moves are open, so are placing and ending the turn. A planning
        # move's moment is its own type, open only while its card is played.
        action = action_for(board)
        return ("act", "planning", *(action.planning_moves if action else ()))
    return (special["stage"],)  # "inputs" or "window"


def legal_moves(board: Board, player: str) -> list[Move]:
    if board.phase == "over" or player not in board.colours:
        return []
    out: list[Move] = []
    by_moment = rules_by_moment()
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


def push(board: Board, player: object, move: object) -> Events:
    """Check and play one move on `board` in place; return its events.

    `player` and `move` are as a client sent them: checked here, before any rule reads them.
    """
    move = well_formed(move)
    if not isinstance(player, str) or player not in board.colours:
        raise IllegalMove(
            f"{player!r} is not a player of this game: players are {', '.join(board.colours)}."
        )
    if board.phase == "over":
        raise IllegalMove("The game is over: no more moves can be made.")
    move_rule = RULES[move["type"]]
    with per_call():  # the check only reads; `do` changes the board, so it gets no memo
        move_rule.check(board, player, move)
    events: Events = []
    move_rule.do(board, player, move, events)
    return events


def default_move(board: Board, player: str) -> Move | None:
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
        # In the Castillo pick every legal move is one.
        picks = (m for m in moves if m["type"] == "castillo_pick" and m["region"] == home)
        return next(picks, moves[0])
    if "place" in kinds:
        # A turn's card places caballeros from court: a timed-out turn places them all, as
        # its player would have, before it ends.
        places = (m for m in moves if m["type"] == "place")
        return min(places, key=lambda m: _placing_rank(board, player, m["to"]))
    # A veto window times out as `allow`; a turn ends; a special action under way ends
    # where the card allows, else takes its first listed step.
    for kind in ("allow", "choose_card", "end_special", "end_turn"):
        if kind in kinds:
            return next(m for m in moves if m["type"] == kind)
    return moves[0]


def _placing_rank(board: Board, player: str, place: str) -> tuple[bool, int, int]:
    """Where a timed-out turn places its next caballero, the least first: a place beside the
    king where `player` is not first alone already, the one whose first value is highest
    (a mobile scoreboard's if one lies there), then the board's order."""
    here = board.in_place(place)
    mine = here.get(player, 0)
    first_alone = mine > 0 and all(mine > n for c, n in here.items() if c != player)
    return first_alone, -scoreboard(board, place)[0], PLACES.index(place)
