"""The game state: a plain record of where everything is, with an exact JSON round trip.

`Board` holds no rules and imports none; the rules (`engine.play`) read and change it, and
`engine.state.State` adds python-chess style `legal_moves` and `push` on top. Every field is
JSON-ready data (strings, ints, lists, dicts with string keys) except `action_decks` and
`face_up`, keyed by stack number, which `to_dict` writes with string keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, NotRequired, Self, TypedDict, TypeVar, cast

from engine.data import LOCATIONS
from engine.types import Step, TakenCard, Window

T = TypeVar("T")


class Turn(TypedDict):
    """The turn under way (`flow.begin_turn` starts it)."""

    player: str
    step: Literal["draw", "choose_card", "act"]
    draw_limit: int  # caballeros the power card lets this player take to court
    drawn: int
    card: str | None  # the action card, once chosen
    stack: int | None
    place_limit: int  # caballeros the card lets this player place from court
    placed: int
    placement: Literal["open", "started", "closed"]
    special: Literal["open", "under_way", "done"]  # see engine.special
    card_kept: NotRequired[bool]  # a kept Veto stays before its player, not laid aside


def chosen_card(turn: Turn) -> str:
    """The turn's action card, chosen before anything of its step "act" happens."""
    card = turn["card"]
    assert card is not None, "no action card is chosen yet"
    return card


class Frame(TypedDict):
    """The special action under way (see engine.special for its stages)."""

    player: str
    card: str
    stage: Literal["planning", "inputs", "window"]
    steps: list[Step]  # the plan
    # What the card's planning and inputs chose so far: each card's own JSON, read and
    # written by that card alone (engine.cards), so no one type fits them all.
    data: dict[str, Any]
    picks: dict[str, str | None]  # secret picks of a secret-disk card
    window: Window | None


class KeptVeto(TypedDict):
    """A Veto card kept before its player, laid aside when round `expires` ends unused."""

    player: str
    expires: int  # a round_index


@dataclass
class Board:
    colours: list[str]  # seat order, clockwise
    seed: int
    options: dict[str, Any]
    chart: list[int]  # the chart rounds this game plays, e.g. [2, 3, 5, 6, 8, 9]
    round_index: int  # index into `chart` of the round under way
    phase: str  # "power_cards" | "turn" | "castillo_pick" | "over"
    king: str
    grandes: dict[str, str]  # colour -> region of its grande
    caballeros: dict[str, dict[str, int]]  # colour -> location -> count (see data.LOCATIONS)
    scores: dict[str, int]
    hands: dict[str, list[int]]  # power cards still in hand, ascending
    discards: dict[str, list[int]]  # power cards played, in the order played
    round_start: str  # who plays the first power card this round
    power_played: dict[str, int]  # this round's power cards, in the order played
    action_decks: dict[int, list[str]]  # face-down stacks 1-4, top card first
    face_up: dict[int, str | None]  # stack -> its card face up this round; None once taken
    action_discards: list[str]
    mobile_scoreboards: dict[str, str | None]  # "8/4/0" / "4/0/0" -> place, None if not out
    taken: list[TakenCard]  # this round's chosen action cards
    turn_order: list[str] = field(default_factory=list)  # this round, highest card first
    turn_index: int = 0
    turn: Turn | None = None  # the turn under way
    picks: dict[str, str | None] = field(default_factory=dict)  # secret picks under way
    last_round_lowest: str | None = None
    special: Frame | None = None  # the special action under way
    vetoes: list[KeptVeto] = field(default_factory=list)  # kept Veto cards
    returned_cards: dict[str, list[int]] = field(default_factory=dict)  # private: power_card_return
    teams: list[list[str]] = field(default_factory=list)  # two-colour variant: colours per person

    # -- reading --------------------------------------------------------------------------
    @property
    def round(self) -> int:
        """The chart round under way (1-9)."""
        return self.chart[self.round_index]

    def team_of(self, colour: str) -> list[str]:
        """The colours played by the same person (just the colour, outside the variant)."""
        for team in self.teams:
            if colour in team:
                return team
        return [colour]

    def partners(self, colour: str) -> list[str]:
        """The other colour of `colour`'s person (two-colour variant; none otherwise).

        For an action of `colour` it is neither the acting player nor an opponent: "seule
        la couleur en cours est concernée" (French rules, two-colour variant).
        """
        return [c for c in self.team_of(colour) if c != colour]

    def opponents(self, colour: str) -> list[str]:
        """Colours of the other players, in seat order from `colour`'s left."""
        seats = self.colours
        i = seats.index(colour)
        mine = self.team_of(colour)
        ordered = seats[i + 1 :] + seats[:i]
        return [c for c in ordered if c not in mine]

    def count(self, colour: str, location: str) -> int:
        return self.caballeros[colour][location]

    def in_place(self, place: str) -> dict[str, int]:
        """Caballeros per colour in one region or the Castillo, colours with none left out."""
        return {c: n for c in self.colours if (n := self.caballeros[c][place])}

    def total_in(self, place: str) -> int:
        return sum(self.caballeros[c][place] for c in self.colours)

    # -- changing -------------------------------------------------------------------------
    def move_caballeros(self, colour: str, source: str, target: str, n: int = 1) -> None:
        # Copy on write: a board from `copy_for_push` shares each colour's counts with the
        # board it came from until they change, here.
        here = self.caballeros[colour] = self.caballeros[colour].copy()
        if here[source] < n:
            # A rules check should have refused this move; never let a count go negative.
            raise AssertionError(f"{colour} has {here[source]} in {source}, cannot move {n}")
        here[source] -= n
        here[target] += n

    def copy(self) -> Self:
        """A copy whose changes never reach this board (cheaper than deepcopy), of the same
        class (an `engine.State` copies to a State).

        What setup fixes for the whole game (colours, seed, options, chart, teams) is
        shared: no rule changes it after `new_board`. A turn holds only scalars, and the
        kept Vetoes and chosen action cards are replaced, never changed, so one level of
        copying is enough for them.
        """
        new = self._copy_shared()
        new.caballeros = {c: v.copy() for c, v in self.caballeros.items()}
        for name in _REPLACED_ON_WRITE:
            setattr(new, name, {k: v.copy() for k, v in getattr(self, name).items()})
        return new

    def copy_for_push(self) -> Self:
        """A copy to play moves on with `push` (`engine.apply` does, on every move): as
        `copy`, but what the rules change rarely is shared until they change it. Each
        colour's caballero counts are copied by `move_caballeros`, their one writer; the
        hands, played power cards, returned cards and action decks are replaced, never
        changed in place, by the rules that change them (see `_REPLACED_ON_WRITE`).
        """
        new = self._copy_shared()
        new.caballeros = self.caballeros.copy()
        return new

    def _copy_shared(self) -> Self:
        new = object.__new__(type(self))  # not __init__: every field is set below
        new.__dict__.update(self.__dict__)  # the scalars, what setup fixes, the caballeros
        new.grandes = self.grandes.copy()
        new.scores = self.scores.copy()
        for name in _REPLACED_ON_WRITE:  # the dicts; their lists are shared
            setattr(new, name, getattr(self, name).copy())
        new.power_played = self.power_played.copy()
        new.face_up = self.face_up.copy()
        new.action_discards = self.action_discards.copy()
        new.mobile_scoreboards = self.mobile_scoreboards.copy()
        new.taken = self.taken.copy()
        new.turn_order = self.turn_order.copy()
        new.turn = None if self.turn is None else self.turn.copy()
        new.picks = self.picks.copy()
        new.special = None if self.special is None else copy_json(self.special)
        new.vetoes = self.vetoes.copy()
        return new

    # -- serialising ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("action_decks", "face_up"):
                value = {str(k): v for k, v in value.items()}
            out[f.name] = copy_json(value)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], copy: bool = True) -> Self:
        """The board `to_dict` wrote. With `copy=False` the board takes `data`'s dicts and
        lists as they are: for data nobody else holds, such as JSON just decoded."""
        take = copy_json if copy else _as_is
        values = {f.name: take(data[f.name]) for f in fields(cls) if f.name in data}
        for name in ("action_decks", "face_up"):
            values[name] = {int(k): v for k, v in values[name].items()}
        return cls(**values)


#: Dicts of lists that the rules replace, never change in place: `copy_for_push` shares the
#: lists (turn_moves.play_power_card, flow.start_round, steps._power_card_return write them).
_REPLACED_ON_WRITE = ("hands", "discards", "returned_cards", "action_decks")


def copy_json(value: T) -> T:
    """A deep copy of JSON-like data (dicts, lists, scalars), faster than copy.deepcopy."""
    # A copy has its original's type, which the checker cannot see through `_copy`.
    return cast(T, _copy(value))


def _copy(value: Any) -> Any:  # any JSON value; typed by copy_json
    kind = type(value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is list:
        return [_copy(v) for v in value]
    return value


def _as_is(value: T) -> T:
    return value


def revealed_picks(picks: dict[str, str | None]) -> dict[str, str]:
    """Secret picks once every one is made, as a reveal shows them."""
    out: dict[str, str] = {}
    for colour, region in picks.items():
        assert region is not None, f"{colour} has not picked yet"
        out[colour] = region
    return out


def empty_locations() -> dict[str, int]:
    return {location: 0 for location in LOCATIONS}


__all__ = ["Board", "copy_json", "empty_locations"]
