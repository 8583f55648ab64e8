"""The JSON shapes that travel far: moves, events, pending decisions, log entries and views.

Each move type has its own `TypedDict` here, keyed by its `type`; `Move` is their union and
`MOVE_TYPES` maps each type's name to its class, so a service can derive a JSON schema from
them. Their fields are the move forms' (`engine.moves.FORMS`, which `check_form` enforces at
run time); tests/engine/test_types.py holds the two to each other. Events are typed the same
way (`Event`, `EVENT_TYPES`), and so are the plan steps a view shows (`PlannedStep`) and the
view itself (`View`). Nothing here is enforced at run time.

No `from __future__ import annotations` here: Python 3.11 reads a `NotRequired` key of a
TypedDict whose annotations are strings as required (`__required_keys__`).
"""

from types import UnionType
from typing import Any, Literal, NotRequired, TypedDict, get_args, get_type_hints

# -- moves ----------------------------------------------------------------------------------


class PlayPowerCardMove(TypedDict):
    """`{"type": "play_power_card", "card": 9}`: a power card from the hand (1-13)."""

    type: Literal["play_power_card"]
    card: int


class TakeCaballerosMove(TypedDict):
    type: Literal["take_caballeros"]
    count: int


class TakeFromRegionMove(TypedDict):
    type: Literal["take_from_region"]
    region: str


class ChooseCardMove(TypedDict):
    """An action card by its id; `stack` only tells apart two face-up copies of one card."""

    type: Literal["choose_card"]
    card: str
    stack: NotRequired[int]


class PlaceMove(TypedDict):
    type: Literal["place"]
    to: str


class SkipSpecialMove(TypedDict):
    type: Literal["skip_special"]


class EndTurnMove(TypedDict):
    type: Literal["end_turn"]


class CastilloPickMove(TypedDict):
    type: Literal["castillo_pick"]
    region: str


class EndSpecialMove(TypedDict):
    type: Literal["end_special"]


class AllowMove(TypedDict):
    type: Literal["allow"]


class VetoMove(TypedDict):
    type: Literal["veto"]
    from_step: int


class DoSpecialMove(TypedDict):
    type: Literal["do_special"]


class SpecialOptionMove(TypedDict):
    type: Literal["special_option"]
    option: str


class SpecialRegionMove(TypedDict):
    type: Literal["special_region"]
    region: str


class SpecialPlaceMove(TypedDict):
    type: Literal["special_place"]
    to: str


# "from" is a Python keyword: these use the functional syntax.
MoveCaballeroMove = TypedDict(
    "MoveCaballeroMove",
    {"type": Literal["move_caballero"], "colour": str, "from": str, "to": str},
)


class TargetMove(TypedDict):
    type: Literal["target"]
    player: str


class RemoveCaballeroMove(TypedDict):
    type: Literal["remove_caballero"]
    colour: str
    region: str


class MoveScoreboardMove(TypedDict):
    type: Literal["move_scoreboard"]
    scoreboard: str
    to: str


class MoveKingMove(TypedDict):
    type: Literal["move_king"]
    to: str


class MoveGrandeMove(TypedDict):
    type: Literal["move_grande"]
    to: str


class ReturnPowerCardMove(TypedDict):
    """A played power card back to the hand: `card` is its number, as in play_power_card."""

    type: Literal["return_power_card"]
    card: int


ReturnCaballeroMove = TypedDict(
    "ReturnCaballeroMove", {"type": Literal["return_caballero"], "from": str}
)


class SecretPickMove(TypedDict):
    type: Literal["secret_pick"]
    region: str


#: One atomic decision, e.g. `{"type": "play_power_card", "card": 9}`.
Move = (
    PlayPowerCardMove
    | TakeCaballerosMove
    | TakeFromRegionMove
    | ChooseCardMove
    | PlaceMove
    | SkipSpecialMove
    | EndTurnMove
    | CastilloPickMove
    | EndSpecialMove
    | AllowMove
    | VetoMove
    | DoSpecialMove
    | SpecialOptionMove
    | SpecialRegionMove
    | SpecialPlaceMove
    | MoveCaballeroMove
    | TargetMove
    | RemoveCaballeroMove
    | MoveScoreboardMove
    | MoveKingMove
    | MoveGrandeMove
    | ReturnPowerCardMove
    | ReturnCaballeroMove
    | SecretPickMove
)


class HiddenMove(TypedDict):
    """What a log shows of a move others may not see (yet): its type alone."""

    type: str


# -- events ---------------------------------------------------------------------------------


class RoundStartedEvent(TypedDict):
    """A round began, with its action cards face up. `round_number` is the game's count of
    its rounds (1 to `rounds_total`), what a person reads; `round` is the chart round (the
    board's track, 1-9: a 6-round game plays chart rounds 2, 3, 5, 6, 8, 9). Events stored
    before `round_number` was added lack it."""

    type: Literal["round_started"]
    round: int
    round_number: NotRequired[int]
    action_cards: list[str]


class TurnStartedEvent(TypedDict):
    type: Literal["turn_started"]
    player: str


class TurnEndedEvent(TypedDict):
    type: Literal["turn_ended"]
    player: str


class VetoExpiredEvent(TypedDict):
    type: Literal["veto_expired"]
    player: str


class GeneralScoringEvent(TypedDict):
    """A general scoring began, after the game's round `round_number` (chart round `round`:
    3, 6 or 9)."""

    type: Literal["general_scoring"]
    round: int
    round_number: NotRequired[int]


class CastilloRevealedEvent(TypedDict):
    type: Literal["castillo_revealed"]
    picks: dict[str, str]


CaballerosMovedEvent = TypedDict(
    "CaballerosMovedEvent",
    {"type": Literal["caballeros_moved"], "player": str, "count": int, "from": str, "to": str},
)


class TeamResult(TypedDict):
    """Two-colour variant: one person's final score, and their better colour's (the tie rule)."""

    colours: list[str]
    score: int
    best_colour: int


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    scores: dict[str, int]
    winners: list[str]
    teams: NotRequired[list[TeamResult]]


class PowerCardPlayedEvent(TypedDict):
    type: Literal["power_card_played"]
    player: str
    card: int


CaballerosTakenEvent = TypedDict(
    "CaballerosTakenEvent",
    {"type": Literal["caballeros_taken"], "player": str, "count": int, "from": str},
)


class CardChosenEvent(TypedDict):
    type: Literal["card_chosen"]
    player: str
    card: str
    stack: int


class CaballeroPlacedEvent(TypedDict):
    type: Literal["caballero_placed"]
    player: str
    to: str


class SpecialSkippedEvent(TypedDict):
    type: Literal["special_skipped"]
    player: str
    card: str


SecretPickMadeEvent = TypedDict(
    "SecretPickMadeEvent",
    # "for": what the pick is for, "castillo" or the card's id.
    {"type": Literal["secret_pick_made"], "player": str, "for": str},
)


class SecretPicksRevealedEvent(TypedDict):
    type: Literal["secret_picks_revealed"]
    card: str
    picks: dict[str, str]


class ScoreEvent(TypedDict):
    """Points to a player: `reason` is "rank", "king_bonus" or "home_bonus"."""

    type: Literal["score"]
    player: str
    points: int
    place: str
    reason: str


class ScoreboardMovedEvent(TypedDict):
    type: Literal["scoreboard_moved"]
    scoreboard: str
    to: str


class KingMovedEvent(TypedDict):
    type: Literal["king_moved"]
    to: str


class GrandeMovedEvent(TypedDict):
    type: Literal["grande_moved"]
    player: str
    to: str


class PowerCardReturnedEvent(TypedDict):
    """A power card came back to `player`'s hand; which one is their secret."""

    type: Literal["power_card_returned"]
    player: str


class VetoKeptEvent(TypedDict):
    type: Literal["veto_kept"]
    player: str


class VetoWindowOpenedEvent(TypedDict):
    type: Literal["veto_window_opened"]
    player: str
    card: str
    holders: list[str]
    steps: int


class VetoPlayedEvent(TypedDict):
    type: Literal["veto_played"]
    player: str
    card: str
    from_step: int


class SpecialActionEvent(TypedDict):
    """A special action carried out: its steps before `vetoed_from` (all if None) follow."""

    type: Literal["special_action"]
    player: str
    card: str
    vetoed_from: int | None


#: What a move made happen, e.g. `{"type": "score", "player": "red", "points": 6, ...}`.
Event = (
    RoundStartedEvent
    | TurnStartedEvent
    | TurnEndedEvent
    | VetoExpiredEvent
    | GeneralScoringEvent
    | CastilloRevealedEvent
    | CaballerosMovedEvent
    | GameOverEvent
    | PowerCardPlayedEvent
    | CaballerosTakenEvent
    | CardChosenEvent
    | CaballeroPlacedEvent
    | SpecialSkippedEvent
    | SecretPickMadeEvent
    | SecretPicksRevealedEvent
    | ScoreEvent
    | ScoreboardMovedEvent
    | KingMovedEvent
    | GrandeMovedEvent
    | PowerCardReturnedEvent
    | VetoKeptEvent
    | VetoWindowOpenedEvent
    | VetoPlayedEvent
    | SpecialActionEvent
)

#: The events of one move, in the order they happened.
Events = list[Event]

# -- the steps of a special action's plan ---------------------------------------------------

Movement = TypedDict("Movement", {"colour": str, "from": str, "to": str, "count": int})


class MoveStep(TypedDict):
    do: Literal["move"]
    caballeros: list[Movement]


class Award(TypedDict):
    """Points a scoring gives one player: `reason` as in a score event."""

    player: str
    points: int
    reason: str


class AwardStep(TypedDict):
    do: Literal["award"]
    place: str
    awards: list[Award]


class MobileScoreboardStep(TypedDict):
    do: Literal["mobile_scoreboard"]
    scoreboard: str
    to: str


class KingStep(TypedDict):
    do: Literal["king"]
    to: str


class GrandeStep(TypedDict):
    do: Literal["grande"]
    colour: str
    to: str


class PowerCardReturnStep(TypedDict):
    """`card` is shown to its player only (`engine.steps.public_step`)."""

    do: Literal["power_card_return"]
    colour: str
    card: NotRequired[int]


class KeepVetoStep(TypedDict):
    do: Literal["keep_veto"]
    colour: str


#: One atomic step of a special action's plan, e.g. `{"do": "king", "to": "aragon"}`.
Step = (
    MoveStep
    | AwardStep
    | MobileScoreboardStep
    | KingStep
    | GrandeStep
    | PowerCardReturnStep
    | KeepVetoStep
)


# A step as a view shows it: numbered from 1, as a veto's `from_step` names it.
class PlannedMoveStep(MoveStep):
    step: int


class PlannedAwardStep(AwardStep):
    step: int


class PlannedMobileScoreboardStep(MobileScoreboardStep):
    step: int


class PlannedKingStep(KingStep):
    step: int


class PlannedGrandeStep(GrandeStep):
    step: int


class PlannedPowerCardReturnStep(PowerCardReturnStep):
    step: int


class PlannedKeepVetoStep(KeepVetoStep):
    step: int


PlannedStep = (
    PlannedMoveStep
    | PlannedAwardStep
    | PlannedMobileScoreboardStep
    | PlannedKingStep
    | PlannedGrandeStep
    | PlannedPowerCardReturnStep
    | PlannedKeepVetoStep
)

# -- who must act ---------------------------------------------------------------------------


class PowerCardPending(TypedDict):
    player: str
    kind: Literal["power_card"]


class TurnPending(TypedDict):
    """`step`: "draw", "choose_card" or "act" of the turn, or "special" while its special
    action is being planned."""

    player: str
    kind: Literal["turn"]
    step: str


class CastilloPickPending(TypedDict):
    player: str
    kind: Literal["castillo_pick"]


class SecretPickPending(TypedDict):
    player: str
    kind: Literal["secret_pick"]


class KingRagesPending(TypedDict):
    player: str
    kind: Literal["king_rages"]


class VetoWindowPending(TypedDict):
    """A Veto holder's answer awaited: what they would veto, the acting player's card and its
    plan, or in a counter window (`vetoer` set) the veto played against it."""

    player: str
    kind: Literal["veto_window"]
    acting: str
    card: str
    vetoer: str | None
    plan: list[PlannedStep]


#: A decision someone must make now, e.g. `{"player": "red", "kind": "power_card"}`.
Pending = (
    PowerCardPending
    | TurnPending
    | CastilloPickPending
    | SecretPickPending
    | KingRagesPending
    | VetoWindowPending
)

# -- the log --------------------------------------------------------------------------------


class LogEntry(TypedDict):
    """One committed move, with the events it caused (as stored by a server)."""

    seq: int
    player: str
    move: Move
    events: list[Event]


class HiddenLogEntry(TypedDict):
    """A log entry whose move its reader may not see (yet): only the move's type is shown."""

    seq: int
    player: str
    move: HiddenMove
    events: list[Event]
    hidden: Literal[True]


#: A log entry as `engine.visible_log` shows it to a reader.
ShownLogEntry = LogEntry | HiddenLogEntry


# -- views ----------------------------------------------------------------------------------


class PlayerView(TypedDict):
    """One colour as a viewer sees it: `hand` and `returned_cards` to its own player only."""

    score: int
    court: int
    province: int
    grande: str
    power_cards_played: list[int]
    power_card: int | None
    hand_size: int
    hand: NotRequired[list[int]]
    returned_cards: NotRequired[list[int]]


class RegionView(TypedDict):
    caballeros: dict[str, int]
    scoreboard: list[int]
    grandes: list[str]


class CastilloView(TypedDict):
    caballeros: dict[str, int]
    scoreboard: list[int]


class FaceUpCard(TypedDict):
    stack: int
    card: str


class TakenCard(TypedDict):
    """An action card chosen this round, by whom, from which stack."""

    player: str
    card: str
    stack: int


class ActionCardsView(TypedDict):
    face_up: list[FaceUpCard]
    taken: list[TakenCard]
    deck_sizes: dict[str, int]


class TurnView(TypedDict):
    player: str
    step: str
    draw_limit: int
    drawn: int
    card: str | None
    stack: int | None
    place_limit: int
    placed: int
    can_place: bool
    special: str


class PickView(TypedDict):
    """A secret pick: whether it is made, and the region to its own player only."""

    picked: bool
    region: NotRequired[str | None]


class AllowAnswer(TypedDict):
    answer: Literal["allow"]
    from_step: None


class VetoAnswer(TypedDict):
    answer: Literal["veto"]
    from_step: int


#: A Veto holder's answer to a window.
Answer = AllowAnswer | VetoAnswer


class Window(TypedDict):
    """A Veto window: on the action (`kind` "action") or on a veto played against it
    ("counter", with the `vetoer` and the step they vetoed from)."""

    kind: Literal["action", "counter"]
    holders: list[str]
    answers: dict[str, Answer]
    vetoer: NotRequired[str]
    from_step: NotRequired[int]


class SpecialView(TypedDict):
    """The special action under way. `choices` is what the card's planning chose so far
    (its shape is the card's own)."""

    player: str
    card: str
    stage: str
    plan: list[PlannedStep]
    choices: dict[str, Any]
    picks: NotRequired[dict[str, PickView]]
    window: NotRequired[Window]


class VetoHolder(TypedDict):
    """A kept Veto: `expires` is the chart round at whose end it is laid aside unused."""

    player: str
    expires: int


class WindowView(Window):
    player: str
    card: str
    plan: list[PlannedStep]


class VetoView(TypedDict):
    holders: list[VetoHolder]
    window: WindowView | None


class View(TypedDict):
    """The game as one player (or, with `viewer` None, a spectator) may see it.

    Its rounds are counted as a person reads them: round `round_number` of `rounds_total`,
    a general scoring after each of `scoring_rounds` (a 6-round game: 2, 4 and 6). `round`
    is the chart round (the board's track, 1-9), and `chart` the chart rounds the game
    plays (a 6-round game: 2, 3, 5, 6, 8, 9); a kept Veto's `expires` is a chart round."""

    viewer: str | None
    colours: list[str]
    round: int
    round_number: int
    rounds_total: int
    scoring_rounds: list[int]
    chart: list[int]
    phase: str
    king: str
    regions: dict[str, RegionView]
    castillo: CastilloView
    mobile_scoreboards: dict[str, str | None]
    players: dict[str, PlayerView]
    action_cards: ActionCardsView
    turn_order: list[str]
    turn: TurnView | None
    special: SpecialView | None
    veto: VetoView
    pending: list[Pending]
    castillo_pick: NotRequired[dict[str, PickView]]
    teams: NotRequired[list[TeamResult]]
    winners: NotRequired[list[str]]


# -- by name --------------------------------------------------------------------------------


def _by_tag(union: UnionType, tag: str) -> dict[str, type]:
    """Each TypedDict of `union` under the value of its `tag` key's Literal."""
    return {get_args(get_type_hints(member)[tag])[0]: member for member in get_args(union)}


#: Each move type's name -> its TypedDict, e.g. "place" -> PlaceMove.
MOVE_TYPES: dict[str, type] = _by_tag(Move, "type")
#: Each event type's name -> its TypedDict, e.g. "score" -> ScoreEvent.
EVENT_TYPES: dict[str, type] = _by_tag(Event, "type")

__all__ = [
    "EVENT_TYPES",
    "MOVE_TYPES",
    "ActionCardsView",
    "Award",
    "CastilloView",
    "Event",
    "Events",
    "FaceUpCard",
    "HiddenLogEntry",
    "HiddenMove",
    "LogEntry",
    "Move",
    "Movement",
    "Pending",
    "PickView",
    "PlannedStep",
    "PlayerView",
    "RegionView",
    "ShownLogEntry",
    "SpecialView",
    "Step",
    "TakenCard",
    "TeamResult",
    "TurnView",
    "VetoHolder",
    "VetoView",
    "View",
    "Window",
    "WindowView",
]
