"""Cards decided on the secret disk: opponents return caballeros, eviction, secret scoring.

Picks are made all at once, hidden and changeable until the last is in (Rulings). A pick
the card forbids is refused with the reason, instead of the book's penalty. The plan is
built when the picks are revealed, so a Veto holder sees what they would stop; a Veto
from step 1 stops the whole action as if it came before the picks (Italian 9.4).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.data import PROVINCE, REGIONS
from engine.moves import IllegalMove
from engine.special import Context, register
from engine.steps import award_steps, move_step
from engine.types import Move, Step

from .common import EveryOpponent, OrderedTargets, SecretPicks, check_source, sources


class SecretReturn(OrderedTargets, SecretPicks):
    """Each opponent secretly picks one of their regions and returns caballeros from it.

    `two` (the "2 caballeros" card): the region must hold at least 2 of theirs, or 1 if
    none does, and 2 (or 1) go back. Otherwise all of theirs in the region go back.
    """

    def __init__(self, card: str, two: bool) -> None:
        self.card = card
        self.two = two

    def affected(self, ctx: Context) -> list[str]:
        board = ctx.board
        return [
            c for c in board.opponents(ctx.actor) if any(board.count(c, r) for r in sources(board))
        ]

    def pickers(self, ctx: Context) -> list[str]:
        return list(ctx.data["targets"])

    def check_pick(self, ctx: Context, player: str, region: str) -> None:
        board = ctx.board
        check_source(board, region)
        have = board.count(player, region)
        if not have:
            raise IllegalMove(f"You have no caballeros in {region}: pick a region holding yours.")
        if self.two and have < 2 and any(board.count(player, r) >= 2 for r in sources(board)):
            raise IllegalMove(
                "Pick a region holding at least 2 of your caballeros: "
                "one with a single caballero only if none has 2."
            )

    def steps_from_picks(self, ctx: Context, picks: dict[str, str]) -> list[Step]:
        board = ctx.board
        out: list[Step] = []
        for colour in ctx.data["targets"]:
            region = picks[colour]
            have = board.count(colour, region)
            out.append(move_step(colour, region, PROVINCE, min(2, have) if self.two else have))
        return out


class Eviction(OrderedTargets, SecretPicks):
    """Name a region: each opponent there secretly picks another region and moves all of
    their caballeros from it there."""

    planning_moves = frozenset({"special_region", "target"})

    def __init__(self, card: str) -> None:
        self.card = card

    def affected(self, ctx: Context) -> list[str]:
        region = ctx.data.get("region")
        if not region:
            return []
        return [c for c in ctx.board.opponents(ctx.actor) if ctx.board.count(c, region)]

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        board = ctx.board
        if move_type == "special_region":
            if "region" in ctx.data:
                return ()
            return (
                {"type": "special_region", "region": r}
                for r in sources(board)
                if any(board.count(c, r) for c in board.opponents(ctx.actor))
            )
        return self.target_candidates(ctx) if "region" in ctx.data else ()

    def check(self, ctx: Context, move: Move) -> None:
        board = ctx.board
        if move["type"] == "special_region":
            if "region" in ctx.data:
                raise IllegalMove(f"The region is already named: {ctx.data['region']}.")
            region = move["region"]
            check_source(board, region)
            if not any(board.count(c, region) for c in board.opponents(ctx.actor)):
                raise IllegalMove(f"No opponent has caballeros in {region} to evict.")
            return
        if "region" not in ctx.data:
            raise IllegalMove('First name the region to evict ("region").')
        assert move["type"] == "target"  # its other planning move
        self.check_target_move(ctx, move)

    def add(self, ctx: Context, move: Move) -> None:
        if move["type"] == "special_region":
            ctx.data["region"] = move["region"]
            if len(self.affected(ctx)) == 1:
                self.add_target(ctx, self.affected(ctx)[0])
        else:
            assert move["type"] == "target"
            self.add_target(ctx, move["player"])

    def complete(self, ctx: Context) -> bool:
        return "region" in ctx.data and self.targets_complete(ctx)

    def end_refusal(self, ctx: Context) -> str | None:
        return "Name the region and the order of the opponents in it first."

    def pickers(self, ctx: Context) -> list[str]:
        return list(ctx.data["targets"])

    def check_pick(self, ctx: Context, player: str, region: str) -> None:
        if region == ctx.data["region"]:
            raise IllegalMove(f"Your caballeros must leave {region}: pick another region.")
        if region == ctx.board.king:
            raise IllegalMove("Nothing may enter the king's region: pick another region.")

    def steps_from_picks(self, ctx: Context, picks: dict[str, str]) -> list[Step]:
        region = ctx.data["region"]
        return [
            move_step(c, region, picks[c], ctx.board.count(c, region)) for c in ctx.data["targets"]
        ]


class SecretScoring(EveryOpponent, SecretPicks):
    """Every player secretly picks a region; each region picked by exactly one is scored,
    in the order of the scoring track (Italian 9.4 b). The king's region may be picked."""

    def __init__(self, card: str) -> None:
        self.card = card

    def pickers(self, ctx: Context) -> list[str]:
        # The acting colour picks too; seat order keeps the view stable.
        chosen = {ctx.actor, *ctx.data["targets"]}
        return [c for c in ctx.board.colours if c in chosen]

    def steps_from_picks(self, ctx: Context, picks: dict[str, str]) -> list[Step]:
        chosen = list(picks.values())
        out: list[Step] = []
        for region in REGIONS:
            if chosen.count(region) == 1:
                out.extend(award_steps(ctx.board, region))
        return out


for action in (
    SecretReturn("secret_two_from_region", two=True),
    SecretReturn("secret_all_from_region", two=False),
    Eviction("eviction"),
    SecretScoring("secret_scoring"),
):
    register(action)
