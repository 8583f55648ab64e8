"""The atomic steps a special action's plan is made of: data, and one small function each.

A plan is a list of step dicts such as `{"do": "king", "to": "aragon"}`. Steps are built
while the special action is planned (and checked against the board as the earlier steps
would leave it), shown numbered to veto holders, and carried out only once the veto window
is closed: steps before the vetoed one take effect, the rest never do.

Events carry no secret: the returned power card is not named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from engine.board import Board, copy_json
from engine.scoring import rank_awards
from engine.types import (
    Award,
    AwardStep,
    Events,
    GrandeStep,
    KeepVetoStep,
    KingStep,
    MobileScoreboardStep,
    Movement,
    MoveStep,
    PickView,
    PlannedStep,
    PowerCardReturnStep,
    Step,
)


def _move(board: Board, step: MoveStep, events: Events) -> None:
    for part in step["caballeros"]:
        board.move_caballeros(part["colour"], part["from"], part["to"], part["count"])
        events.append(
            {
                "type": "caballeros_moved",
                "player": part["colour"],
                "count": part["count"],
                "from": part["from"],
                "to": part["to"],
            }
        )


def _award(board: Board, step: AwardStep, events: Events) -> None:
    for award in step["awards"]:
        board.scores[award["player"]] += award["points"]
        events.append({"type": "score", "place": step["place"], **award})


def _mobile_scoreboard(board: Board, step: MobileScoreboardStep, events: Events) -> None:
    board.mobile_scoreboards[step["scoreboard"]] = step["to"]
    events.append({"type": "scoreboard_moved", "scoreboard": step["scoreboard"], "to": step["to"]})


def _king(board: Board, step: KingStep, events: Events) -> None:
    board.king = step["to"]
    events.append({"type": "king_moved", "to": step["to"]})


def _grande(board: Board, step: GrandeStep, events: Events) -> None:
    board.grandes[step["colour"]] = step["to"]
    events.append({"type": "grande_moved", "player": step["colour"], "to": step["to"]})


def _power_card_return(board: Board, step: PowerCardReturnStep, events: Events) -> None:
    colour, card = step["colour"], step["card"]
    board.hands[colour] = sorted([*board.hands[colour], card])
    board.returned_cards[colour] = [*board.returned_cards.get(colour, []), card]
    events.append({"type": "power_card_returned", "player": colour})


def _keep_veto(board: Board, step: KeepVetoStep, events: Events) -> None:
    # Valid in this round and the next: it lapses when round_index + 1 ends.
    board.vetoes.append({"player": step["colour"], "expires": board.round_index + 1})
    events.append({"type": "veto_kept", "player": step["colour"]})


#: How each kind of plan step is carried out, by its `do`. Each executor takes its own kind
#: of step; the table is keyed by that kind, so the step is typed `Any` here.
EXECUTORS: dict[str, Callable[[Board, Any, Events], None]] = {
    "move": _move,
    "award": _award,
    "mobile_scoreboard": _mobile_scoreboard,
    "king": _king,
    "grande": _grande,
    "power_card_return": _power_card_return,
    "keep_veto": _keep_veto,
}


def execute(board: Board, step: Step, events: Events) -> None:
    EXECUTORS[step["do"]](board, step, events)


def public_step(step: Step, viewer: str | None) -> Step:
    """A step as `viewer` may see it: the returned power card only to its player."""
    if step["do"] == "power_card_return" and step["colour"] != viewer:
        return {"do": "power_card_return", "colour": step["colour"]}
    # A deep copy: views go out to clients, states may be cached and shared.
    return copy_json(step)


def public_plan(steps: list[Step], viewer: str | None) -> list[PlannedStep]:
    """A plan as `viewer` may see it, each step numbered from 1 (as a veto's from_step)."""
    # Each entry is its step's own TypedDict with a number in front, which a checker cannot
    # follow through spreading a union of TypedDicts.
    return [
        cast(PlannedStep, {"step": i, **public_step(step, viewer)})
        for i, step in enumerate(steps, 1)
    ]


def public_picks(picks: dict[str, str | None], viewer: str | None) -> dict[str, PickView]:
    """Secret picks as `viewer` may see them: who has picked, and only their own region."""
    return {
        colour: {"picked": region is not None, "region": region}
        if colour == viewer
        else {"picked": region is not None}
        for colour, region in picks.items()
    }


def movement(step: Step) -> Movement:
    """The first (for most cards, the only) movement of a plan's step of moving caballeros."""
    assert step["do"] == "move", f"not a step of moving caballeros: {step['do']}"
    return step["caballeros"][0]


def move_step(colour: str, source: str, target: str, count: int = 1) -> MoveStep:
    return {
        "do": "move",
        "caballeros": [{"colour": colour, "from": source, "to": target, "count": count}],
    }


def award_steps(board: Board, place: str, only_first: bool = False) -> list[AwardStep]:
    """The awards of scoring `place`, one step per rank group, best first (Italian 9.3).

    A lone first place's king's and home bonuses are part of its step.
    """
    out: list[AwardStep] = []
    for awards in rank_awards(board, place):
        if only_first and awards[0]["rank"] != 1:
            break
        shown: list[Award] = [
            {"player": a["player"], "points": a["points"], "reason": a["reason"]}
            for a in awards
            if a["points"]
        ]
        if shown:
            out.append({"do": "award", "place": place, "awards": shown})
    return out
