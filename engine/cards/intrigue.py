"""Stack 1, the intrigue cards: moving caballeros around the board (and from court).

Rulings (Italian rules, "Le carte azione" 4): "up to" cards may stop at any time
(`end_special`); the others, once begun, are carried out whole as far as the board
allows. A caballero may be moved again, back where it came from included; the card that
empties one of your regions may put some straight back ("some may go back"). Nothing is
ever taken out of the castillo or moved into or out of the king's region. In the
two-colour variant no card moves the partner colour's caballeros, "any colours" cards
included ("seule la couleur en cours est concernée").
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.data import COURT, INTRIGUE_QUOTAS
from engine.moves import IllegalMove, verb
from engine.special import Context, SpecialAction, register
from engine.steps import move_step, movement
from engine.types import Move, SpecialRegionMove

from .common import (
    check_colour,
    check_region_choice,
    check_source,
    check_target,
    sources,
    targets,
)


def _kind(ctx: Context, colour: str) -> str:
    return "own" if colour == ctx.actor else "foreign"


class MoveCaballeros(SpecialAction):
    """Move caballeros from region to region (or into the castillo), within quotas.

    `quotas` maps "own", "foreign" or "any" to how many may be moved. In the two-colour
    variant "own" is the acting colour only, "foreign" the other person's colours, and
    "any" either of those: the partner colour is never moved.
    """

    planning_moves = frozenset({"move_caballero"})

    def __init__(self, card: str, quotas: dict[str, int], exact: bool = False) -> None:
        self.card = card
        self.quotas = quotas
        self.exact = exact

    def used(self, ctx: Context) -> dict[str, int]:
        used = {"own": 0, "foreign": 0, "any": 0}
        for step in ctx.steps:
            part = movement(step)
            used[_kind(ctx, part["colour"])] += 1
            used["any"] += 1
        return used

    def room_for(self, ctx: Context, colour: str) -> bool:
        return colour in ctx.remember("room", lambda: self._with_room(ctx))

    def _with_room(self, ctx: Context) -> frozenset[str]:
        """The colours the quotas leave room for, the plan being as it is."""
        used = self.used(ctx)
        partners = ctx.board.partners(ctx.actor)

        def room(colour: str) -> bool:
            if colour in partners:
                return False
            if "any" in self.quotas:
                return used["any"] < self.quotas["any"]
            kind = _kind(ctx, colour)
            return used[kind] < self.quotas.get(kind, 0)

        return frozenset(c for c in ctx.board.colours if room(c))

    def colours(self, ctx: Context) -> list[str]:
        return [c for c in ctx.board.colours if self.room_for(ctx, c)]

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        board = ctx.projected
        for colour in self.colours(ctx):
            for source in self.source_regions(ctx):
                if board.count(colour, source):
                    for target in targets(board):
                        if target != source:
                            yield {
                                "type": "move_caballero",
                                "colour": colour,
                                "from": source,
                                "to": target,
                            }

    def legal(self, ctx: Context, move_type: str) -> list[Move]:
        # The candidates are built from the conditions `check` asks, one by one: a colour
        # the quotas leave room for, a source that may be left and holds one, another place
        # that may be entered. Up to 5 x 7 x 8 moves, so not checked again one at a time.
        return list(self.candidates(ctx, move_type))

    def source_regions(self, ctx: Context) -> list[str]:
        return sources(ctx.board)

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "move_caballero"  # its only planning move
        board = ctx.projected
        colour, source, target = move["colour"], move["from"], move["to"]
        check_colour(board, colour)
        check_source(board, source)
        check_target(board, target)
        if source == target:
            raise IllegalMove("Move the caballero to another place than the one it is in.")
        if not self.room_for(ctx, colour):
            raise IllegalMove(self.quota_message(ctx, colour))
        if board.count(colour, source) == 0:
            raise IllegalMove(f"There is no {colour} caballero in {source} to move.")

    def quota_message(self, ctx: Context, colour: str) -> str:
        if colour in ctx.board.partners(ctx.actor):
            return partner_message(ctx, colour)
        if "any" in self.quotas:
            return f"{self.card} moves at most {self.quotas['any']} caballeros."
        kind = _kind(ctx, colour)
        limit = self.quotas.get(kind, 0)
        if limit == 0:
            whose = "your own" if kind == "own" else "your opponents'"
            return f"{self.card} does not move {whose} caballeros."
        whose = "of your own" if kind == "own" else "of your opponents'"
        return f"{self.card} moves {limit} caballeros {whose}, no more."

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "move_caballero"
        ctx.steps.append(move_step(move["colour"], move["from"], move["to"]))

    def complete(self, ctx: Context) -> bool:
        return not any(self.room_for(ctx, c) for c in ctx.board.colours)

    def end_refusal(self, ctx: Context) -> str | None:
        if not self.exact or not any(True for _ in self.candidates(ctx, "move_caballero")):
            return None
        return f"{self.card} is carried out whole once begun: move the rest of its caballeros."


class FiveFromRegion(MoveCaballeros):
    """Up to 5 caballeros of any colours out of one region (named first)."""

    planning_moves = frozenset({"special_region", "move_caballero"})

    def __init__(self, card: str) -> None:
        super().__init__(card, {"any": 5})

    def source_regions(self, ctx: Context) -> list[str]:
        region = ctx.data.get("region")
        return [region] if region else []

    def movable_in(self, ctx: Context, region: str) -> int:
        """Caballeros this card may move out of `region`: the partner colour's are not."""
        partners = ctx.board.partners(ctx.actor)
        return sum(n for c, n in ctx.board.in_place(region).items() if c not in partners)

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        if move_type == "special_region":
            if "region" not in ctx.data:
                board = ctx.board
                regions: Iterable[SpecialRegionMove] = (
                    {"type": "special_region", "region": r}
                    for r in sources(board)
                    if self.movable_in(ctx, r)
                )
                yield from regions
            return
        yield from super().candidates(ctx, move_type)

    def check(self, ctx: Context, move: Move) -> None:
        region = ctx.data.get("region")
        if move["type"] == "special_region":
            check_region_choice(
                ctx,
                move,
                lambda region: self.movable_in(ctx, region),
                "There are no caballeros in {region} that this card may move.",
            )
            return
        assert move["type"] == "move_caballero"  # its other planning move
        if not region:
            raise IllegalMove('First name the region to move caballeros out of ("region").')
        if move["from"] != region:
            raise IllegalMove(f"{self.card} moves caballeros out of {region} only.")
        super().check(ctx, move)

    def add(self, ctx: Context, move: Move) -> None:
        if move["type"] == "special_region":
            ctx.data["region"] = move["region"]
        else:
            super().add(ctx, move)


class OwnRegion(SpecialAction):
    """All your caballeros out of one region, spread over any places (some may go back)."""

    planning_moves = frozenset({"special_region", "move_caballero"})

    def __init__(self, card: str) -> None:
        self.card = card

    def region_candidates(self, ctx: Context) -> Iterable[Move]:
        board = ctx.board
        return (
            {"type": "special_region", "region": r}
            for r in sources(board)
            if board.count(ctx.actor, r)
        )

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        region = ctx.data.get("region")
        if move_type == "special_region":
            return () if region else self.region_candidates(ctx)
        if not region or len(ctx.steps) >= ctx.data["count"]:
            return ()
        return (
            {"type": "move_caballero", "colour": ctx.actor, "from": region, "to": t}
            for t in targets(ctx.board)
        )

    def check(self, ctx: Context, move: Move) -> None:
        region = ctx.data.get("region")
        if move["type"] == "special_region":
            check_region_choice(
                ctx,
                move,
                lambda region: ctx.board.count(ctx.actor, region),
                "You have no caballeros in {region}.",
            )
            return
        assert move["type"] == "move_caballero"  # its other planning move
        if not region:
            raise IllegalMove('First name the region to take your caballeros out of ("region").')
        if move["colour"] != ctx.actor:
            raise IllegalMove(f"{self.card} moves your own caballeros only.")
        if move["from"] != region:
            raise IllegalMove(f"{self.card} takes your caballeros out of {region} only.")
        check_target(ctx.board, move["to"])
        if len(ctx.steps) >= ctx.data["count"]:
            raise IllegalMove(f"All your caballeros from {region} are placed.")

    def add(self, ctx: Context, move: Move) -> None:
        if move["type"] == "special_region":
            ctx.data.update(region=move["region"], count=ctx.board.count(ctx.actor, move["region"]))
        else:
            assert move["type"] == "move_caballero"
            ctx.steps.append(move_step(ctx.actor, move["from"], move["to"]))

    def complete(self, ctx: Context) -> bool:
        return "count" in ctx.data and len(ctx.steps) >= ctx.data["count"]

    def end_refusal(self, ctx: Context) -> str | None:
        return f"Place every caballero you took out of {ctx.data.get('region')} first."


class CourtTwo(SpecialAction):
    """Two more caballeros from your court to any regions (not the king's) or the castillo."""

    planning_moves = frozenset({"special_place"})
    number = 2

    def __init__(self, card: str) -> None:
        self.card = card

    def due(self, ctx: Context) -> int:
        # Fixed when the action begins: the court as it was then (fewer if fewer).
        if "due" not in ctx.data:
            return min(self.number, ctx.board.count(ctx.actor, COURT))
        due: int = ctx.data["due"]
        return due

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        if len(ctx.steps) >= self.due(ctx):
            return ()
        return ({"type": "special_place", "to": t} for t in targets(ctx.board))

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "special_place"  # its only planning move
        check_target(ctx.board, move["to"])
        if ctx.projected.count(ctx.actor, COURT) == 0:
            raise IllegalMove("Your court is empty: there is no caballero to place.")
        if len(ctx.steps) >= self.due(ctx):
            raise IllegalMove(f"{self.card} places {self.number} caballeros from court, no more.")

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "special_place"
        ctx.data.setdefault("due", self.due(ctx))
        ctx.steps.append(move_step(ctx.actor, COURT, move["to"]))

    def complete(self, ctx: Context) -> bool:
        return len(ctx.steps) >= self.due(ctx)

    def end_refusal(self, ctx: Context) -> str | None:
        return "Place both caballeros from your court first."


class CourtTwoOrOwnRegion(SpecialAction):
    """Either of the two above: `special_option` says which, before anything else."""

    planning_moves = frozenset(
        {"special_option", "special_place", "special_region", "move_caballero"}
    )
    options = ("court_two", "own_region")

    def __init__(self, card: str) -> None:
        self.card = card
        self.parts: dict[str, SpecialAction] = {
            "court_two": CourtTwo(card),
            "own_region": OwnRegion(card),
        }

    def part(self, ctx: Context) -> SpecialAction | None:
        option = ctx.data.get("option")
        return self.parts[option] if option else None

    def possible(self, ctx: Context, option: str) -> bool:
        """Whether an option could do anything: a caballero in court, or one of yours in a
        region it may leave."""
        if option == "court_two":
            return ctx.board.count(ctx.actor, COURT) > 0
        return any(True for _ in self.parts["own_region"].candidates(ctx, "special_region"))

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        part = self.part(ctx)
        if move_type == "special_option":
            if part:
                return ()
            return (
                {"type": "special_option", "option": o}
                for o in self.options
                if self.possible(ctx, o)
            )
        if part is None or move_type not in part.planning_moves:
            return ()
        return part.candidates(ctx, move_type)

    def check(self, ctx: Context, move: Move) -> None:
        part = self.part(ctx)
        if move["type"] == "special_option":
            if part:
                raise IllegalMove(f"You already chose {ctx.data['option']}.")
            if move["option"] not in self.options:
                raise IllegalMove(f"Choose option court_two or own_region, not {move['option']}.")
            if not self.possible(ctx, move["option"]):
                raise IllegalMove(
                    "Your court is empty: choose own_region."
                    if move["option"] == "court_two"
                    else "You have no caballeros in a region they may leave: choose court_two."
                )
            return
        if part is None:
            raise IllegalMove('First choose "option court_two" or "option own_region".')
        if move["type"] not in part.planning_moves:
            raise IllegalMove(
                f"{verb(move['type'])} is not a move of the {ctx.data['option']} option."
            )
        part.check(ctx, move)

    def add(self, ctx: Context, move: Move) -> None:
        if move["type"] == "special_option":
            ctx.data["option"] = move["option"]
        else:
            part = self.part(ctx)
            assert part is not None
            part.add(ctx, move)

    def complete(self, ctx: Context) -> bool:
        part = self.part(ctx)
        return part is not None and part.complete(ctx)

    def end_refusal(self, ctx: Context) -> str | None:
        part = self.part(ctx)
        return part.end_refusal(ctx) if part else None


def partner_message(ctx: Context, colour: str) -> str:
    return (
        f"{colour} is your other colour: only the colour whose turn it is ({ctx.actor}) "
        "is concerned by its special action, so no card moves the partner's caballeros."
    )


for action in (
    OwnRegion("intrigue_own_region"),
    CourtTwo("intrigue_court_two"),
    CourtTwoOrOwnRegion("intrigue_court_two_or_own_region"),
    FiveFromRegion("intrigue_five_from_region"),
):
    register(action)
# Two own and two foreign are moved in full if they can be (the rules' "exactly").
for card, quotas in INTRIGUE_QUOTAS.items():
    register(MoveCaballeros(card, quotas, exact=card == "intrigue_two_own_two_foreign"))
