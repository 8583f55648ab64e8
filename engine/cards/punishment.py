"""Stack 2 cards that send opponents' caballeros back to the province.

Order (Italian rules 9.2): the opponents act in the order the acting player chooses
(`target` moves), except King rages, which goes round from the acting player's left.
Each opponent's share is one step of the plan, so a Veto from step k spares the k-th
opponent in that order and everyone after.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.data import COURT, PROVINCE, REGIONS
from engine.moves import IllegalMove
from engine.special import Context, SpecialAction, register
from engine.steps import move_step, movement
from engine.types import Events, Move, Pending, Step

from .common import EveryOpponent, OrderedTargets, check_colour, check_source, sources, two_colour


class DecayOfCourt(OrderedTargets):
    """Every opponent sends all (or 3) of their court to the province."""

    def __init__(self, card: str, number: int | None) -> None:
        self.card = card
        self.number = number  # None: the whole court

    def share(self, ctx: Context, colour: str) -> int:
        court = ctx.board.count(colour, COURT)
        return court if self.number is None else min(self.number, court)

    def affected(self, ctx: Context) -> list[str]:
        # An opponent with an empty court is not affected (Italian card text).
        return [c for c in super().affected(ctx) if self.share(ctx, c)]

    def on_target(self, ctx: Context, colour: str) -> None:
        ctx.steps.append(move_step(colour, COURT, PROVINCE, self.share(ctx, colour)))


class OneFromEachOpponent(SpecialAction):
    """You send one caballero of each opponent, from a region you choose, to the province."""

    planning_moves = frozenset({"remove_caballero"})

    def __init__(self, card: str) -> None:
        self.card = card

    def done_for(self, ctx: Context) -> list[str]:
        return [movement(s)["colour"] for s in ctx.steps]

    def still_open(self, ctx: Context) -> list[str]:
        board = ctx.board
        if two_colour(board) and ctx.steps:
            return []  # the variant: one of the opponent's colours only
        done = self.done_for(ctx)
        return [
            c
            for c in board.opponents(ctx.actor)
            if c not in done and any(board.count(c, r) for r in sources(board))
        ]

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        board = ctx.board
        for colour in self.still_open(ctx):
            for region in sources(board):
                if board.count(colour, region):
                    yield {"type": "remove_caballero", "colour": colour, "region": region}

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "remove_caballero"  # its only planning move
        colour, region = move["colour"], move["region"]
        check_colour(ctx.board, colour)
        if colour in ctx.board.team_of(ctx.actor):
            raise IllegalMove(f"{self.card} removes your opponents' caballeros, not yours.")
        check_source(ctx.board, region)
        if colour in self.done_for(ctx) or (two_colour(ctx.board) and ctx.steps):
            raise IllegalMove(f"{self.card} takes one caballero per opponent: {colour} is done.")
        if not ctx.board.count(colour, region):
            raise IllegalMove(f"There is no {colour} caballero in {region}.")

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "remove_caballero"
        ctx.steps.append(move_step(move["colour"], move["region"], PROVINCE))

    def complete(self, ctx: Context) -> bool:
        return not self.still_open(ctx)

    def end_refusal(self, ctx: Context) -> str | None:
        return "Take one caballero of every opponent who has one on the board first."


class KingRages(EveryOpponent):
    """Each opponent in turn, from your left, returns 3 of their own caballeros from regions
    and/or court to the province (fewer only if they have fewer)."""

    input_moves = frozenset({"return_caballero"})
    number = 3

    def __init__(self, card: str) -> None:
        self.card = card

    def available(self, ctx: Context, colour: str) -> int:
        board = ctx.board
        return board.count(colour, COURT) + sum(board.count(colour, r) for r in sources(board))

    def affected(self, ctx: Context) -> list[str]:
        return [c for c in ctx.board.opponents(ctx.actor) if self.available(ctx, c)]

    def start_inputs(self, ctx: Context) -> None:
        ctx.data["due"] = {c: min(self.number, self.available(ctx, c)) for c in ctx.data["targets"]}
        ctx.data["returns"] = {c: {} for c in ctx.data["targets"]}

    def returner(self, ctx: Context) -> str | None:
        targets: list[str] = ctx.data["targets"]
        for colour in targets:
            if sum(ctx.data["returns"][colour].values()) < ctx.data["due"][colour]:
                return colour
        return None

    def input_pending(self, ctx: Context) -> list[Pending]:
        colour = self.returner(ctx)
        return [{"player": colour, "kind": "king_rages"}] if colour else []

    def left(self, ctx: Context, colour: str, location: str) -> int:
        returned: int = ctx.data["returns"][colour].get(location, 0)
        return ctx.board.count(colour, location) - returned

    def input_candidates(self, ctx: Context, player: str, move_type: str) -> Iterable[Move]:
        if player != self.returner(ctx):
            return ()
        return (
            {"type": "return_caballero", "from": loc}
            for loc in (COURT, *REGIONS)
            if loc != ctx.board.king and self.left(ctx, player, loc) > 0
        )

    def check_input(self, ctx: Context, player: str, move: Move) -> None:
        current = self.returner(ctx)
        if player != current:
            if player in ctx.data["returns"]:
                raise IllegalMove(
                    f"King rages goes round in turn: it is {current}'s to return now."
                )
            raise IllegalMove("King rages asks nothing of you.")
        assert move["type"] == "return_caballero"  # its only input move
        source = move["from"]
        if source != COURT:
            check_source(ctx.board, source)
        if self.left(ctx, player, source) <= 0:
            raise IllegalMove(f"You have no caballero left in {source} to return.")

    def add_input(self, ctx: Context, player: str, move: Move, events: Events) -> None:
        assert move["type"] == "return_caballero"
        returns = ctx.data["returns"][player]
        returns[move["from"]] = returns.get(move["from"], 0) + 1
        if self.returner(ctx) is None:
            ctx.steps.extend(self.steps_from_returns(ctx))

    def steps_from_returns(self, ctx: Context) -> list[Step]:
        return [
            {
                "do": "move",
                "caballeros": [
                    {"colour": colour, "from": loc, "to": PROVINCE, "count": n}
                    for loc, n in ctx.data["returns"][colour].items()
                ],
            }
            for colour in ctx.data["targets"]
        ]


for action in (
    DecayOfCourt("decay_all_court", None),
    DecayOfCourt("decay_three_court", 3),
    KingRages("king_rages"),
    OneFromEachOpponent("one_from_each_opponent"),
):
    register(action)
