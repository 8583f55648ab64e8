"""Special actions: how a card's action is planned, fed by others, offered to a Veto, done.

The life of a special action (docs/rulings.md):

1. **planning**: the acting player makes the card's moves (`move_caballero`, `move_king`,
   ...). Each adds numbered steps to a plan; nothing on the board changes yet, but each
   move is checked against the board as the earlier steps would leave it (`projected`).
2. **inputs**: where the card needs choices of others (King rages returns, secret picks),
   they are collected now.
3. **window**: every holder of an unexpired Veto answers `allow` or `veto` from step k,
   the acting player too ("un avversario, o il giocatore stesso", Italian rules, 4 b);
   the earliest veto may itself be vetoed in a counter window.
4. **execution**: steps before k take effect (all of them without a veto), each turned into
   events after one `special_action` event naming the card and `vetoed_from`.

A card's own behaviour is a `SpecialAction` in `engine.cards`; this module only moves a
special action through its stages. The moves that drive it (planning moves, others'
inputs, a window's answers) are in `engine.special_moves`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

from engine.board import Board, Frame, chosen_card, copy_json
from engine.flow import maybe_end_turn
from engine.memo import cached
from engine.moves import IllegalMove, verb
from engine.steps import execute, public_picks, public_plan
from engine.types import Events, Move, Pending, SpecialView, Step

T = TypeVar("T")


class Context:
    """What a card sees while its special action is under way."""

    def __init__(self, board: Board) -> None:
        assert board.turn is not None
        self.board = board
        self.actor: str = board.turn["player"]
        self.frame: Frame = board.special or new_frame(board)
        self._memo: dict[tuple[str, int], object] = {}

    def remember(self, name: str, compute: Callable[[], T]) -> T:
        """`compute()`, kept on this context while the plan has as many steps as now.

        A context lives for one call and is never shared, unlike the board: `legal_moves`
        checks every candidate against one context, and this spares recomputing per move
        what depends only on the plan so far.
        """
        key = (name, len(self.frame["steps"]))
        if key not in self._memo:
            self._memo[key] = compute()
        # Each name is only ever remembered from one `compute`, so of that compute's type.
        return cast(T, self._memo[key])

    @property
    def steps(self) -> list[Step]:
        return self.frame["steps"]

    @property
    def data(self) -> dict[str, Any]:
        """The card's own choices so far (see `Frame`)."""
        return self.frame["data"]

    @property
    def projected(self) -> Board:
        """The board as the plan's steps so far would leave it."""
        return self.remember("projected", lambda: projected(self.board, self.frame))


def new_frame(board: Board) -> Frame:
    turn = board.turn
    assert turn is not None
    return {
        "player": turn["player"],
        "card": chosen_card(turn),
        "stage": "planning",
        "steps": [],
        "data": {},
        "picks": {},
        "window": None,
    }


def projected(board: Board, frame: Frame) -> Board:
    """The board as the plan's steps so far would leave it (a copy; `board` is untouched).

    `legal_moves` asks for it once per candidate move, so it is remembered for the call
    (`engine.memo`), never on the board, which may be shared.
    """
    if not frame["steps"]:
        return board

    def carry_out_plan() -> Board:
        result = board.copy_for_push()
        for step in frame["steps"]:
            execute(result, step, [])
        return result

    return cached(("projected", id(board), len(frame["steps"])), carry_out_plan)


class SpecialAction:
    """One card's special action. Subclasses name their moves and fill in the hooks."""

    card: str = ""
    # Move types the acting player plans with (every card may also `end_special`).
    planning_moves: frozenset[str] = frozenset()
    # Move types others answer with during the inputs stage.
    input_moves: frozenset[str] = frozenset()

    # -- planning ------------------------------------------------------------------------
    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        return ()

    def check(self, ctx: Context, move: Move) -> None:
        raise IllegalMove(f"{self.card} has no move {verb(move['type'])}.")

    def legal(self, ctx: Context, move_type: str) -> list[Move]:
        """The candidates `check` accepts. A card whose candidates meet its checks by
        construction may say so (return them all): legal_moves is on every step of a game."""
        out: list[Move] = []
        for move in self.candidates(ctx, move_type):
            try:
                self.check(ctx, move)
            except IllegalMove:
                continue
            out.append(move)
        return out

    def add(self, ctx: Context, move: Move) -> None:
        raise NotImplementedError

    def complete(self, ctx: Context) -> bool:
        """True once the plan can hold nothing more: planning ends by itself."""
        return False

    def end_refusal(self, ctx: Context) -> str | None:
        """Why the acting player may not end planning now, or None if they may."""
        return None

    # -- inputs from others --------------------------------------------------------------
    def start_inputs(self, ctx: Context) -> None:
        """Called once planning ends: set up what others must answer, if anything."""

    def input_pending(self, ctx: Context) -> list[Pending]:
        return []

    def input_candidates(self, ctx: Context, player: str, move_type: str) -> Iterable[Move]:
        return ()

    def check_input(self, ctx: Context, player: str, move: Move) -> None:
        raise IllegalMove(f"{self.card} asks nothing of you.")

    def add_input(self, ctx: Context, player: str, move: Move, events: Events) -> None:
        raise NotImplementedError

    # -- views ---------------------------------------------------------------------------
    def public_data(self, ctx: Context, viewer: str | None) -> dict[str, Any]:
        return copy_json(ctx.data)


CARDS: dict[str, SpecialAction] = {}


def register(action: SpecialAction) -> SpecialAction:
    CARDS[action.card] = action
    return action


def action_for(board: Board) -> SpecialAction | None:
    turn = board.turn
    if turn is None or turn["card"] is None:
        return None
    return CARDS.get(turn["card"])


# ---------------------------------------------------------------------------------------
# Stage changes


def begin(board: Board, ctx: Context) -> None:
    """The first planning move: the special action starts, a begun placement is over."""
    turn = board.turn
    assert turn is not None
    board.special = ctx.frame
    turn["special"] = "under_way"
    if turn["placement"] == "started":
        # A turn's two actions may not be split (rule 1 of the action cards).
        turn["placement"] = "closed"


def finish_planning(board: Board, ctx: Context, events: Events) -> None:
    action = action_for(board)
    assert action is not None
    ctx.frame["stage"] = "inputs"
    action.start_inputs(ctx)
    if not action.input_pending(ctx):
        open_window(board, ctx, events)


def open_window(board: Board, ctx: Context, events: Events) -> None:
    frame = ctx.frame
    # The acting colour is offered its own window too (Italian rules, 4 b); an empty plan
    # has nothing to veto.
    holders = veto_holders(board, exclude=board.partners(frame["player"])) if frame["steps"] else []
    if not holders:
        carry_out(board, frame, None, events)
        return
    frame["stage"] = "window"
    frame["window"] = {"kind": "action", "holders": holders, "answers": {}}
    events.append(
        {
            "type": "veto_window_opened",
            "player": frame["player"],
            "card": frame["card"],
            "holders": holders,
            "steps": len(frame["steps"]),
        }
    )


def veto_holders(board: Board, exclude: list[str]) -> list[str]:
    """Colours holding an unexpired Veto, in seat order, leaving out `exclude`."""
    holding = {v["player"] for v in board.vetoes}
    return [c for c in board.colours if c in holding and c not in exclude]


def spend_veto(board: Board, player: str) -> None:
    mine = [v for v in board.vetoes if v["player"] == player]
    board.vetoes.remove(min(mine, key=lambda v: v["expires"]))
    board.action_discards.append("veto")


def close_window(board: Board, frame: Frame, events: Events) -> None:
    window = frame["window"]
    assert window is not None
    vetoes = [
        (a["from_step"], i, p)
        for i, (p, a) in enumerate(window["answers"].items())
        if a["answer"] == "veto"
    ]
    if window["kind"] == "action":
        if not vetoes:
            carry_out(board, frame, None, events)
            return
        from_step, _, vetoer = min(vetoes)
        events.append(
            {"type": "veto_played", "player": vetoer, "card": frame["card"], "from_step": from_step}
        )
        # Any other holder may veto this veto, the acting player included when someone
        # else vetoed; never the vetoer's own side.
        counter = veto_holders(board, exclude=board.team_of(vetoer))
        spend_veto(board, vetoer)
        if not counter:
            carry_out(board, frame, from_step, events)
            return
        frame["window"] = {
            "kind": "counter",
            "holders": counter,
            "answers": {},
            "vetoer": vetoer,
            "from_step": from_step,
        }
        events.append(
            {
                "type": "veto_window_opened",
                "player": vetoer,
                "card": "veto",
                "holders": counter,
                "steps": 1,
            }
        )
        return
    # A counter window: a veto here stops the first veto, and the action goes ahead whole.
    if vetoes:
        _, _, countering = min(vetoes)
        spend_veto(board, countering)
        events.append({"type": "veto_played", "player": countering, "card": "veto", "from_step": 1})
        carry_out(board, frame, None, events)
    else:
        carry_out(board, frame, window["from_step"], events)


def carry_out(board: Board, frame: Frame, vetoed_from: int | None, events: Events) -> None:
    """Execute the plan's steps before `vetoed_from` (all without a veto); end the action."""
    events.append(
        {
            "type": "special_action",
            "player": frame["player"],
            "card": frame["card"],
            "vetoed_from": vetoed_from,
        }
    )
    steps = frame["steps"] if vetoed_from is None else frame["steps"][: vetoed_from - 1]
    for step in steps:
        execute(board, step, events)
    board.special = None
    turn = board.turn
    assert turn is not None
    turn["special"] = "done"
    if any(step["do"] == "keep_veto" for step in steps):
        turn["card_kept"] = True  # the Veto stays before its player, not laid aside
    maybe_end_turn(board, events)


# ---------------------------------------------------------------------------------------
# Who must act, and the view


def pending(board: Board, viewer: str | None = None) -> list[Pending]:
    """Who must act on the special action, and on what. A Veto window's plan is shown as
    `viewer` may see it (None: the public plan), whoever the entry is for: an entry is read
    by everyone who reads pending, not only by its holder (the acting player's own window
    would otherwise name the card power_card_return takes back)."""
    frame = board.special
    assert frame is not None
    if frame["stage"] == "planning":
        return [{"player": frame["player"], "kind": "turn", "step": "special"}]
    if frame["stage"] == "inputs":
        action = action_for(board)
        assert action is not None
        return action.input_pending(Context(board))
    window = frame["window"]
    assert window is not None
    steps = frame["steps"] if window["kind"] == "action" else []
    return [
        {
            "player": h,
            "kind": "veto_window",
            # What the holder would veto: the acting player's card and its numbered plan,
            # or, in a counter window, the veto played against it.
            "acting": frame["player"],
            "card": frame["card"],
            "vetoer": window.get("vetoer"),
            "plan": public_plan(steps, viewer),
        }
        for h in window["holders"]
        if h not in window["answers"]
    ]


def view(board: Board, viewer: str | None) -> SpecialView | None:
    frame = board.special
    if frame is None:
        return None
    action = action_for(board)
    assert action is not None
    ctx = Context(board)
    out: SpecialView = {
        "player": frame["player"],
        "card": frame["card"],
        "stage": frame["stage"],
        "plan": public_plan(frame["steps"], viewer),
        "choices": action.public_data(ctx, viewer),
    }
    if frame["picks"]:
        out["picks"] = public_picks(frame["picks"], viewer)
    if frame["window"]:
        out["window"] = copy_json(frame["window"])
    return out


__all__ = ["CARDS", "Context", "SpecialAction", "register"]
