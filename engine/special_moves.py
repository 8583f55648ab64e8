"""The move rules of special actions: the acting player's planning moves, the inputs a card
asks of others, and the answers to a Veto window (see `engine.special` for their stages).

Each card family registers its planning and input move forms through `register_moves`,
which gives every such move type its rule here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.board import Board
from engine.moves import PUBLIC, IllegalMove, MoveForm, register_form, verb, verbs
from engine.registry import RULES, Rule, register, rule
from engine.special import (
    Context,
    SpecialAction,
    action_for,
    begin,
    close_window,
    finish_planning,
    open_window,
)
from engine.types import AllowMove, Answer, EndSpecialMove, Events, Move, VetoMove
from engine.waiting import turn_for, waiting_for

#: The answers to a Veto window.
WindowMove = AllowMove | VetoMove


def _acting(board: Board, player: str, doing: str) -> tuple[Context, SpecialAction]:
    turn = turn_for(board, player, ("act",), doing)
    action = action_for(board)
    if turn["special"] == "done":
        raise IllegalMove("The special action of this card is already done or skipped.")
    if action is None:
        raise IllegalMove(f'The card "{turn["card"]}" has no special action.')
    if board.special is not None and board.special["stage"] != "planning":
        raise IllegalMove(f"Your special action is planned: {waiting_for(board)}.")
    return Context(board), action


def _planning_rule(move_type: str) -> None:
    def planning(board: Board, player: str) -> SpecialAction | None:
        """The card, if `player` may make its `move_type` moves now."""
        turn = board.turn
        if board.phase != "turn" or turn is None or turn["player"] != player:
            return None
        if turn["step"] != "act" or turn["special"] == "done":
            return None
        if board.special is not None and board.special["stage"] != "planning":
            return None
        action = action_for(board)
        if action is None or move_type not in action.planning_moves:
            return None
        return action

    def candidates(board: Board, player: str) -> Iterable[Move]:
        action = planning(board, player)
        return action.candidates(Context(board), move_type) if action else ()

    def legal(board: Board, player: str) -> Iterable[Move]:
        # `planning` is the situation `_acting` requires; the rest of `check` is the card's,
        # asked here against one context for every move instead of one context each.
        action = planning(board, player)
        return action.legal(Context(board), move_type) if action else ()

    def check(board: Board, player: str, move: Move) -> None:
        ctx, action = _acting(board, player, "make a special-action move")
        if move["type"] not in action.planning_moves:
            raise IllegalMove(
                f"{verb(move['type'])} is not a move of the {action.card} special action "
                f"(its moves: {verbs(action.planning_moves)})."
            )
        action.check(ctx, move)

    def do(board: Board, player: str, move: Move, events: Events) -> None:
        ctx, action = _acting(board, player, "make a special-action move")
        if board.special is None:
            begin(board, ctx)
        action.add(ctx, move)
        if action.complete(ctx):
            finish_planning(board, ctx, events)

    register(Rule(move_type, candidates, check, do, move_type, legal))


def _end_special_candidates(board: Board, player: str) -> Iterable[EndSpecialMove]:
    frame = board.special
    if frame is None or frame["stage"] != "planning" or frame["player"] != player:
        return ()
    return ({"type": "end_special"},)


@rule("end_special", _end_special_candidates, "planning")
def check_end_special(board: Board, player: str, move: EndSpecialMove) -> None:
    ctx, action = _acting(board, player, "end a special action")
    if board.special is None:
        raise IllegalMove('No special action is under way: to give it up, use "skip".')
    reason = action.end_refusal(ctx)
    # A card carried out "whole" ends where the board allows no more of it: never leave the
    # acting player with a special action they can neither go on with nor end.
    if reason and _planning_move_left(board, player, action):
        raise IllegalMove(reason)


def _planning_move_left(board: Board, player: str, action: SpecialAction) -> bool:
    for move_type in action.planning_moves:
        legal = RULES[move_type].legal
        assert legal is not None
        if any(True for _ in legal(board, player)):
            return True
    return False


@check_end_special.do
def end_special(board: Board, player: str, move: EndSpecialMove, events: Events) -> None:
    finish_planning(board, Context(board), events)


def _input_rule(move_type: str) -> None:
    def candidates(board: Board, player: str) -> Iterable[Move]:
        frame = board.special
        if frame is None or frame["stage"] != "inputs":
            return ()
        action = action_for(board)
        if action is None or move_type not in action.input_moves:
            return ()
        return action.input_candidates(Context(board), player, move_type)

    def check(board: Board, player: str, move: Move) -> None:
        frame = board.special
        if frame is None or frame["stage"] != "inputs":
            raise IllegalMove(f"Nothing asks for {verb(move['type'])} now: {waiting_for(board)}.")
        action = action_for(board)
        assert action is not None
        if move["type"] not in action.input_moves:
            raise IllegalMove(f"The {action.card} special action asks for no {verb(move['type'])}.")
        action.check_input(Context(board), player, move)

    def do(board: Board, player: str, move: Move, events: Events) -> None:
        action = action_for(board)
        assert action is not None
        ctx = Context(board)
        action.add_input(ctx, player, move, events)
        if ctx.frame["stage"] == "inputs" and not action.input_pending(ctx):
            open_window(board, ctx, events)

    register(Rule(move_type, candidates, check, do, "inputs"))


def _window_steps(board: Board, player: str) -> int:
    """How many steps `player` may veto from in the open window (0: not theirs to answer)."""
    frame = board.special
    if frame is None or frame["stage"] != "window":
        return 0
    window = frame["window"]
    assert window is not None  # open at the stage "window"
    if player not in window["holders"] or player in window["answers"]:
        return 0
    return len(frame["steps"]) if window["kind"] == "action" else 1


def _allow_candidates(board: Board, player: str) -> Iterable[WindowMove]:
    return ({"type": "allow"},) if _window_steps(board, player) else ()


def _veto_candidates(board: Board, player: str) -> Iterable[WindowMove]:
    return ({"type": "veto", "from_step": k} for k in range(1, _window_steps(board, player) + 1))


def _check_window(board: Board, player: str, move: WindowMove) -> None:
    frame = board.special
    if frame is None or frame["stage"] != "window":
        raise IllegalMove(f"No veto window is open: {waiting_for(board)}.")
    window = frame["window"]
    assert window is not None
    if player not in window["holders"]:
        if window["kind"] == "action" and player in board.partners(frame["player"]):
            raise IllegalMove(
                "Only the colour whose turn it is is concerned by its action: its partner "
                "colour may not veto it."
            )
        if window["kind"] == "counter" and player in board.team_of(window["vetoer"]):
            raise IllegalMove("This window answers your own veto: you cannot veto it.")
        raise IllegalMove("Only a holder of an unexpired Veto card may answer this window.")
    if player in window["answers"]:
        raise IllegalMove("You have already answered this veto window.")
    if move["type"] == "veto":
        steps = len(frame["steps"]) if window["kind"] == "action" else 1
        if not 1 <= move["from_step"] <= steps:
            raise IllegalMove(
                f"Veto from a step of the plan: 1 (the whole action) to {steps}."
                if steps > 1
                else 'A Veto here can only stop the whole action: "veto 1".'
            )


def _answer(board: Board, player: str, move: WindowMove, events: Events) -> None:
    frame = board.special
    assert frame is not None
    window = frame["window"]
    assert window is not None
    answer: Answer = (
        {"answer": "veto", "from_step": move["from_step"]}
        if move["type"] == "veto"
        else {"answer": "allow", "from_step": None}
    )
    window["answers"][player] = answer
    if len(window["answers"]) == len(window["holders"]):
        close_window(board, frame, events)


register(Rule("allow", _allow_candidates, _check_window, _answer, "window"))
register(Rule("veto", _veto_candidates, _check_window, _answer, "window"))

for _form in (
    MoveForm("end_special", secrecy=PUBLIC),
    MoveForm("allow", secrecy=PUBLIC),
    MoveForm("veto", {"from_step": int}, secrecy=PUBLIC),
):
    register_form(_form)


@dataclass(frozen=True)
class Forms:
    """Planning and input move forms, registered with their rules by `engine.cards`."""

    planning: tuple[MoveForm, ...]
    inputs: tuple[MoveForm, ...]


def register_moves(forms: Forms) -> None:
    for form in forms.planning:
        register_form(form)
        _planning_rule(form.type)
    for form in forms.inputs:
        register_form(form)
        _input_rule(form.type)


__all__ = ["Forms", "register_moves"]
