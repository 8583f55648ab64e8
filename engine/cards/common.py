"""What several card families share: where caballeros may come from and go, target order,
secret picks."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.board import Board, revealed_picks
from engine.data import CASTILLO, PLACES, REGIONS
from engine.moves import IllegalMove, check_region
from engine.special import Context, SpecialAction
from engine.types import Events, Move, Pending, SpecialRegionMove, Step, TargetMove


def two_colour(board: Board) -> bool:
    return bool(board.teams)


def check_source(board: Board, region: str) -> None:
    """A place special actions may take caballeros out of: a region, not the king's."""
    if region == CASTILLO:
        raise IllegalMove("Caballeros leave the castillo only at general scoring.")
    check_region(region)
    if region == board.king:
        raise IllegalMove("Nothing may leave the king's region.")


def check_target(board: Board, place: str) -> None:
    """A place special actions may put caballeros into: a region but the king's, or the castillo."""
    check_region(place, castillo=True)
    if place == board.king:
        raise IllegalMove("Nothing may enter the king's region.")


def sources(board: Board) -> list[str]:
    return [r for r in REGIONS if r != board.king]


def targets(board: Board) -> list[str]:
    return [p for p in PLACES if p != board.king]


def check_colour(board: Board, colour: str) -> None:
    if colour not in board.colours:
        raise IllegalMove(
            f'"{colour}" is not a colour in this game: colours are {", ".join(board.colours)}.'
        )


class OrderedTargets(SpecialAction):
    """A card that hits each opponent, in the order the acting player chooses (Italian 9.2).

    The acting player names the opponents one by one with `target` moves; the last one
    follows by itself. In the two-colour variant the card hits one of the opponent's
    colours, the acting player's choice.
    """

    def affected(self, ctx: Context) -> list[str]:
        """Opponents this card can hit now, in seat order from the acting player's left."""
        return ctx.board.opponents(ctx.actor)

    def ordered(self, ctx: Context) -> list[str]:
        targets: list[str] = ctx.data.setdefault("targets", [])
        return targets

    def still_to_order(self, ctx: Context) -> list[str]:
        ordered = ctx.data.get("targets", [])
        if two_colour(ctx.board) and ordered:
            return []
        return [c for c in self.affected(ctx) if c not in ordered]

    def on_target(self, ctx: Context, colour: str) -> None:
        """Add what the card does to `colour` to the plan (or set up its input)."""

    def target_candidates(self, ctx: Context) -> Iterable[TargetMove]:
        return ({"type": "target", "player": c} for c in self.still_to_order(ctx))

    def check_target_move(self, ctx: Context, move: TargetMove) -> None:
        colour = move["player"]
        check_colour(ctx.board, colour)
        if colour in ctx.board.team_of(ctx.actor):
            raise IllegalMove(f"{self.card} hits your opponents, not you.")
        if colour in ctx.data.get("targets", []):
            raise IllegalMove(f"{colour} is already in the order.")
        if colour not in self.affected(ctx):
            raise IllegalMove(f"{self.card} would do nothing to {colour}: choose another opponent.")
        if not self.still_to_order(ctx):
            raise IllegalMove("Every opponent is already in the order.")

    def add_target(self, ctx: Context, colour: str) -> None:
        self.ordered(ctx).append(colour)
        self.on_target(ctx, colour)
        rest = self.still_to_order(ctx)
        if len(rest) == 1 and not two_colour(ctx.board):
            self.ordered(ctx).append(rest[0])
            self.on_target(ctx, rest[0])

    def targets_complete(self, ctx: Context) -> bool:
        return bool(ctx.data.get("targets")) and not self.still_to_order(ctx)

    # The planning hooks of a card whose only choice is that order; cards with more to
    # choose (eviction's region, a do_special start) override them.
    planning_moves = frozenset({"target"})

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        return self.target_candidates(ctx)

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "target"  # its only planning move
        self.check_target_move(ctx, move)

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "target"
        self.add_target(ctx, move["player"])

    def complete(self, ctx: Context) -> bool:
        return self.targets_complete(ctx)

    def end_refusal(self, ctx: Context) -> str | None:
        return "Name the order of every opponent first (target)."


class EveryOpponent(OrderedTargets):
    """A card that hits every opponent at once, started with `do_special`; in the two-colour
    variant it hits one of the opponent's colours, chosen with `target`."""

    planning_moves = frozenset({"do_special", "target"})

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        if two_colour(ctx.board):
            return self.target_candidates(ctx) if move_type == "target" else ()
        return ({"type": "do_special"},) if move_type == "do_special" else ()

    def check(self, ctx: Context, move: Move) -> None:
        if two_colour(ctx.board) != (move["type"] == "target"):
            raise IllegalMove(
                f'{self.card} hits every opponent: start it with "special".'
                if move["type"] == "target"
                else f'Choose which of your opponent\'s colours {self.card} hits ("target").'
            )
        if move["type"] == "target":
            self.check_target_move(ctx, move)

    def add(self, ctx: Context, move: Move) -> None:
        ctx.data["targets"] = [move["player"]] if move["type"] == "target" else self.affected(ctx)

    def complete(self, ctx: Context) -> bool:
        return "targets" in ctx.data


def check_region_choice(
    ctx: Context, move: SpecialRegionMove, holds: Callable[[str], int], empty: str
) -> None:
    """A `special_region` naming where an intrigue takes caballeros from, once only.

    `holds(region)` counts the caballeros the card could take there; `empty` is the
    refusal when there are none, with `{region}` in it.
    """
    if "region" in ctx.data:
        raise IllegalMove(f"The region is already chosen: {ctx.data['region']}.")
    check_source(ctx.board, move["region"])
    if not holds(move["region"]):
        raise IllegalMove(empty.format(region=move["region"]))


class SecretPicks(SpecialAction):
    """Inputs made on the secret disk: all at once, hidden and changeable until the last is in."""

    input_moves = frozenset({"secret_pick"})

    def pickers(self, ctx: Context) -> list[str]:
        raise NotImplementedError

    def check_pick(self, ctx: Context, player: str, region: str) -> None:
        """Refuse a region the card forbids for `player`."""

    def steps_from_picks(self, ctx: Context, picks: dict[str, str]) -> list[Step]:
        raise NotImplementedError

    def start_inputs(self, ctx: Context) -> None:
        ctx.frame["picks"] = {c: None for c in self.pickers(ctx)}

    def input_pending(self, ctx: Context) -> list[Pending]:
        picks = ctx.frame["picks"]
        return [{"player": c, "kind": "secret_pick"} for c, r in picks.items() if r is None]

    def input_candidates(self, ctx: Context, player: str, move_type: str) -> Iterable[Move]:
        if player not in ctx.frame["picks"]:
            return ()
        return ({"type": "secret_pick", "region": r} for r in REGIONS)

    def check_input(self, ctx: Context, player: str, move: Move) -> None:
        assert move["type"] == "secret_pick"  # its only input move
        if player not in ctx.frame["picks"]:
            raise IllegalMove(f"You have no secret pick to make for {self.card}.")
        check_region(move["region"])
        self.check_pick(ctx, player, move["region"])

    def add_input(self, ctx: Context, player: str, move: Move, events: Events) -> None:
        assert move["type"] == "secret_pick"
        picks = ctx.frame["picks"]
        picks[player] = move["region"]
        events.append({"type": "secret_pick_made", "player": player, "for": self.card})
        if all(picks.values()):
            revealed = revealed_picks(picks)
            events.append({"type": "secret_picks_revealed", "card": self.card, "picks": revealed})
            ctx.frame["steps"].extend(self.steps_from_picks(ctx, revealed))
