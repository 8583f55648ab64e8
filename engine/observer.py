"""What each player may see: of the state, of the move log, and of events.

This module is the one owner of secrecy. A view is JSON-ready and keeps secrets out: another
player's power cards in hand, a secret pick not yet revealed, the card `power_card_return`
took back, the order of the action decks. The log hides what each move form declares secret
(`engine.moves.Secrecy`); events carry no secret once committed, and `reveals_hidden` tells a
caller which uncommitted results it must not show.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import TypeVar, cast

from engine import special
from engine.board import Board, copy_json
from engine.data import CASTILLO, COURT, PROVINCE, REGIONS, SCORING_ROUNDS
from engine.flow import can_place, team_results, winners
from engine.moves import FORMS, Secrecy
from engine.scoring import scoreboard
from engine.steps import public_picks
from engine.types import (
    ActionCardsView,
    Event,
    HiddenLogEntry,
    LogEntry,
    PlayerView,
    RegionView,
    ShownLogEntry,
    TurnView,
    VetoView,
    View,
    WindowView,
)
from engine.waiting import pending

D = TypeVar("D", bound=Mapping[str, object])


def view(board: Board, viewer: str | None) -> View:
    """The game as `viewer` sees it; `viewer=None` is the public (spectator) view."""
    out: View = {
        "viewer": viewer,
        "colours": list(board.colours),
        "round": board.round,
        "round_number": board.round_index + 1,
        "rounds_total": len(board.chart),
        # The game's rounds after which a general scoring comes, in its own count.
        "scoring_rounds": [i + 1 for i, chart in enumerate(board.chart) if chart in SCORING_ROUNDS],
        "chart": list(board.chart),
        "phase": board.phase,
        "king": board.king,
        "regions": {region: _region_view(board, region) for region in REGIONS},
        "castillo": {
            # The Castillo's contents are public (the books have players call them out).
            "caballeros": board.in_place(CASTILLO),
            "scoreboard": list(scoreboard(board, CASTILLO)),
        },
        "mobile_scoreboards": dict(board.mobile_scoreboards),
        "players": {colour: _player_view(board, colour, viewer) for colour in board.colours},
        "action_cards": _action_cards_view(board),
        "turn_order": list(board.turn_order),
        "turn": _turn_view(board),
        "special": special.view(board, viewer),
        "veto": _veto_view(board, viewer),
        # Every entry as the viewer may see it: a Veto window's plan names the card taken
        # back only to its player, in their own entry and in other holders' alike.
        "pending": pending(board, viewer),
    }
    if board.phase == "castillo_pick":
        out["castillo_pick"] = public_picks(board.picks, viewer)
    if board.teams:
        out["teams"] = team_results(board)
    if board.phase == "over":
        out["winners"] = winners(board)
    return out


def _player_view(board: Board, colour: str, viewer: str | None) -> PlayerView:
    here = board.caballeros[colour]
    seen: PlayerView = {
        "score": board.scores[colour],
        "court": here[COURT],
        "province": here[PROVINCE],
        "grande": board.grandes[colour],
        "power_cards_played": list(board.discards[colour]),
        "power_card": board.power_played.get(colour),
        "hand_size": len(board.hands[colour]),
    }
    if colour == viewer:
        seen["hand"] = list(board.hands[colour])
        # Which played cards came back (power_card_return) is this player's secret.
        seen["returned_cards"] = list(board.returned_cards.get(colour, []))
    return seen


def _region_view(board: Board, region: str) -> RegionView:
    return {
        "caballeros": board.in_place(region),
        "scoreboard": list(scoreboard(board, region)),
        "grandes": [c for c in board.colours if board.grandes[c] == region],
    }


def _action_cards_view(board: Board) -> ActionCardsView:
    return {
        "face_up": [
            {"stack": stack, "card": card} for stack, card in sorted(board.face_up.items()) if card
        ],
        "taken": [t.copy() for t in board.taken],
        "deck_sizes": {str(s): len(d) for s, d in sorted(board.action_decks.items())},
    }


def _turn_view(board: Board) -> TurnView | None:
    turn = board.turn
    if turn is None:
        return None
    return {
        "player": turn["player"],
        "step": turn["step"],
        "draw_limit": turn["draw_limit"],
        "drawn": turn["drawn"],
        "card": turn["card"],
        "stack": turn["stack"],
        "place_limit": turn["place_limit"],
        "placed": turn["placed"],
        "can_place": can_place(board),
        "special": turn["special"],
    }


def _veto_view(board: Board, viewer: str | None) -> VetoView:
    frame = board.special
    window: WindowView | None = None
    if frame is not None and frame["stage"] == "window":
        shown = special.view(board, viewer)
        assert shown is not None and frame["window"] is not None
        window = {
            **copy_json(frame["window"]),
            "player": frame["player"],
            "card": frame["card"],
            "plan": shown["plan"],
        }
    return {
        "holders": [
            # `expires`: the chart round at whose end an unused Veto is laid aside.
            {"player": v["player"], "expires": board.chart[min(v["expires"], len(board.chart) - 1)]}
            for v in board.vetoes
        ],
        "window": window,
    }


def _copy(value: D) -> D:
    """A shallow copy, of the same TypedDict (which `dict(value)` does not tell a checker)."""
    return cast(D, dict(value))


# -- the log and events -------------------------------------------------------------------

#: Events after which something hidden before is known: the next round's action cards, the
#: Castillo picks, the picks of a secret-disk card. The game's end publishes nothing new.
REVEALING_EVENTS = frozenset({"round_started", "castillo_revealed", "secret_picks_revealed"})

#: Events after which every secret pick made before them is known to all.
_PICKS_REVEALED = frozenset({"castillo_revealed", "secret_picks_revealed", "game_over"})


def reveals_hidden(events: Iterable[Event]) -> bool:
    """Whether these events (of one or more moves) make hidden information known.

    A caller that shows the result of moves it does not commit (a dry run) must not show
    such a result: it would let a player peek at the decks or at others' secret picks.
    """
    return any(event.get("type") in REVEALING_EVENTS for event in events)


def visible_events(
    events: list[Event], viewers: Collection[str], *, committed: bool
) -> list[Event]:
    """The events of moves as the person holding `viewers` may see them.

    Committed events are public by construction (no event names a hand, an unrevealed pick
    or a returned card: the leak tests hold the engine to that). Uncommitted ones that
    reveal something (a dry run's) are not shown at all.
    """
    if not committed and reveals_hidden(events):
        return []
    return [_copy(event) for event in events]


def visible_log(
    entries: Iterable[LogEntry], viewers: Collection[str], *, events: bool = True
) -> list[ShownLogEntry]:
    """Log entries as the person holding the colours `viewers` may see them (none for a
    spectator). Entries carry their events, in seq order; with `events=False` each carries
    an empty list instead, for a reader that shows only the moves (a page's log).

    A move's form says what others may see (`Secrecy`): a secret pick shows only its type
    until an event reveals the picks (its own, when it was the last pick; a later one
    otherwise); a private move shows only its type, for good. The mover sees everything.
    """
    if isinstance(viewers, str):
        # A bare colour would be read as its letters ("red" holds "e"): refuse, not guess.
        raise TypeError("visible_log takes a collection of colours, not one colour string")
    viewers = frozenset(viewers)
    entries = list(entries)
    shown: list[ShownLogEntry] = []
    # Walk from the end: a pick is revealed by a revealing event at or after it.
    revealed = False
    for entry in reversed(entries):
        if any(e.get("type") in _PICKS_REVEALED for e in entry.get("events") or ()):
            revealed = True
        move = entry["move"]
        form = FORMS.get(move.get("type", ""))
        secrecy = form.secrecy if form is not None else Secrecy.PRIVATE
        hide = entry["player"] not in viewers and (
            secrecy is Secrecy.PRIVATE or (secrecy is Secrecy.UNTIL_REVEALED and not revealed)
        )
        shown_events = (
            visible_events(entry.get("events") or [], viewers, committed=True) if events else []
        )
        if hide:
            hidden: HiddenLogEntry = {
                **entry,
                "move": {"type": move.get("type", "")},
                "events": shown_events,
                "hidden": True,
            }
            shown.append(hidden)
        else:
            shown.append({**entry, "move": _copy(move), "events": shown_events})
    shown.reverse()
    return shown
