"""Stack 4 and 5 cards that move pieces: mobile scoreboards, the king, a grande."""

from __future__ import annotations

from collections.abc import Iterable

from engine.data import CASTILLO, MOBILE_SCOREBOARDS, NEIGHBOURS, PLACES, REGIONS
from engine.moves import IllegalMove, check_region
from engine.special import Context, SpecialAction, register
from engine.types import Move


class OneStep(SpecialAction):
    """A special action of a single choice, which is its whole plan."""

    def complete(self, ctx: Context) -> bool:
        return True


class MobileScoreboard(OneStep):
    """Put a mobile scoreboard on a region or the castillo, or move one already out.

    Never onto the other one, never into or out of the king's region; once out it is
    moved, never taken off (Italian rule 8).
    """

    planning_moves = frozenset({"move_scoreboard"})

    def __init__(self, card: str) -> None:
        self.card = card

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        for name in MOBILE_SCOREBOARDS:
            for place in PLACES:
                yield {"type": "move_scoreboard", "scoreboard": name, "to": place}

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "move_scoreboard"  # its only planning move
        board, name, place = ctx.board, move["scoreboard"], move["to"]
        if name not in MOBILE_SCOREBOARDS:
            raise IllegalMove(
                f'There is no mobile scoreboard "{name}": they are '
                f"{' and '.join(MOBILE_SCOREBOARDS)}."
            )
        check_region(place, castillo=True)
        now = board.mobile_scoreboards[name]
        if now == place:
            raise IllegalMove(f"The {name} scoreboard already lies on {place}.")
        if now is not None and now == board.king:
            raise IllegalMove(f"The {name} scoreboard lies in the king's region: it may not leave.")
        if place == board.king:
            raise IllegalMove("No mobile scoreboard may enter the king's region.")
        other = next(n for n in MOBILE_SCOREBOARDS if n != name)
        if board.mobile_scoreboards[other] == place:
            raise IllegalMove(
                f"The {other} scoreboard lies on {place}: one may not cover the other."
            )

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "move_scoreboard"
        ctx.steps.append(
            {"do": "mobile_scoreboard", "scoreboard": move["scoreboard"], "to": move["to"]}
        )


class MoveKing(OneStep):
    """Move the king: to a neighbouring region (royal adviser) or anywhere (King card)."""

    planning_moves = frozenset({"move_king"})

    def __init__(self, card: str, anywhere: bool) -> None:
        self.card = card
        self.anywhere = anywhere

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        return ({"type": "move_king", "to": r} for r in REGIONS)

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "move_king"  # its only planning move
        to, king = move["to"], ctx.board.king
        if to == CASTILLO:
            raise IllegalMove("The king goes to a region, never into the castillo.")
        check_region(to)
        if to == king:
            raise IllegalMove(f"The king is already in {king}: choose another region.")
        if not self.anywhere and to not in NEIGHBOURS[king]:
            raise IllegalMove(
                f"The royal adviser moves the king to a region bordering {king}: "
                f"{', '.join(sorted(NEIGHBOURS[king]))}."
            )

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "move_king"
        ctx.steps.append({"do": "king", "to": move["to"]})


class MoveGrande(OneStep):
    """Move your grande to another region: not out of or into the king's region."""

    planning_moves = frozenset({"move_grande"})

    def __init__(self, card: str) -> None:
        self.card = card

    def candidates(self, ctx: Context, move_type: str) -> Iterable[Move]:
        return ({"type": "move_grande", "to": r} for r in REGIONS)

    def check(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "move_grande"  # its only planning move
        board, to = ctx.board, move["to"]
        home = board.grandes[ctx.actor]
        if to == CASTILLO:
            raise IllegalMove("A grande stands in a region, never in the castillo.")
        check_region(to)
        if home == board.king:
            raise IllegalMove("Your grande is in the king's region: nothing may leave it.")
        if to == board.king:
            raise IllegalMove("Nothing may enter the king's region: choose another region.")
        if to == home:
            raise IllegalMove(f"Your grande is already in {home}.")

    def add(self, ctx: Context, move: Move) -> None:
        assert move["type"] == "move_grande"
        ctx.steps.append({"do": "grande", "colour": ctx.actor, "to": move["to"]})


for action in (
    MobileScoreboard("mobile_scoreboard"),
    MoveKing("royal_adviser", anywhere=False),
    MoveKing("king", anywhere=True),
    MoveGrande("grande"),
):
    register(action)
