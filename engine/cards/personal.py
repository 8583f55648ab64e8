"""Stack 2 and 4 cards that act on their player alone: Veto, court, power card return."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.data import COURT, PROVINCE
from engine.moves import IllegalMove
from engine.special import Context, SpecialAction, register
from engine.steps import move_step
from engine.types import Move


class KeepVeto(SpecialAction):
    """Keeping the Veto is itself a special action, and can be vetoed (Rulings)."""

    planning_moves = frozenset({"do_special"})

    def __init__(self, card: str) -> None:
        self.card = card

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        return ({"type": "do_special"},)

    def check(self, ctx: Context, move: Move) -> None:
        pass

    def add(self, ctx: Context, move: Move) -> None:
        ctx.steps.append({"do": "keep_veto", "colour": ctx.actor})

    def complete(self, ctx: Context) -> bool:
        return True


class CourtFromProvince(KeepVeto):
    """Two of your caballeros from the province to your court (fewer if fewer are left)."""

    def add(self, ctx: Context, move: Move) -> None:
        n = min(2, ctx.board.count(ctx.actor, PROVINCE))
        if n:
            ctx.steps.append(move_step(ctx.actor, PROVINCE, COURT, n))


class PowerCardReturn(SpecialAction):
    """Take one of your played power cards (this round's too) back into your hand.

    Which card is private: views and events show others only that a card came back.
    """

    planning_moves = frozenset({"return_power_card"})

    def __init__(self, card: str) -> None:
        self.card = card

    def played(self, ctx: Context) -> list[int]:
        board = ctx.board
        back = list(board.returned_cards.get(ctx.actor, []))
        out = []
        for value in board.discards[ctx.actor]:
            if value in back:
                back.remove(value)  # already back in hand
            else:
                out.append(value)
        return out

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        return ({"type": "return_power_card", "card": v} for v in sorted(set(self.played(ctx))))

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "return_power_card"  # its only planning move
        if move["card"] not in self.played(ctx):
            raise IllegalMove(
                f"You have not played power card {move['card']}: only a played "
                "card can come back to your hand."
            )

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "return_power_card"
        ctx.steps.append({"do": "power_card_return", "colour": ctx.actor, "card": move["card"]})

    def complete(self, ctx: Context) -> bool:
        return True

    def public_data(self, ctx: Context, viewer: str | None) -> dict[str, Any]:
        return {}


for action in (
    KeepVeto("veto"),
    CourtFromProvince("court_two"),
    PowerCardReturn("power_card_return"),
):
    register(action)
