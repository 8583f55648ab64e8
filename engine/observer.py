"""What each player may see: the observer of the game state.

A view is JSON-ready. It keeps secrets out: another player's power cards in hand, a secret
pick not yet revealed, the order of the action decks.
"""

from __future__ import annotations

from typing import Any

from engine import special
from engine.board import Board, copy_json
from engine.data import CASTILLO, COURT, PROVINCE, REGIONS
from engine.rules import can_place, pending, team_results, winners
from engine.scoring import scoreboard
from engine.steps import public_picks


def view(board: Board, viewer: str | None) -> dict[str, Any]:
    """The game as `viewer` sees it; `viewer=None` is the public (spectator) view."""
    players: dict[str, Any] = {}
    for colour in board.colours:
        here = board.caballeros[colour]
        seen: dict[str, Any] = {
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
        players[colour] = seen
    out: dict[str, Any] = {
        "viewer": viewer,
        "colours": list(board.colours),
        "round": board.round,
        "round_number": board.round_index + 1,
        "rounds_total": len(board.chart),
        "chart": list(board.chart),
        "phase": board.phase,
        "king": board.king,
        "regions": {
            region: {
                "caballeros": board.in_place(region),
                "scoreboard": list(scoreboard(board, region)),
                "grandes": [c for c in board.colours if board.grandes[c] == region],
            }
            for region in REGIONS
        },
        "castillo": {
            # The Castillo's contents are public (the books have players call them out).
            "caballeros": board.in_place(CASTILLO),
            "scoreboard": list(scoreboard(board, CASTILLO)),
        },
        "mobile_scoreboards": dict(board.mobile_scoreboards),
        "players": players,
        "action_cards": {
            "face_up": [
                {"stack": stack, "card": card}
                for stack, card in sorted(board.face_up.items())
                if card
            ],
            "taken": [dict(t) for t in board.taken],
            "deck_sizes": {str(s): len(d) for s, d in sorted(board.action_decks.items())},
        },
        "turn_order": list(board.turn_order),
        "turn": _turn_view(board),
        "special": special.view(board, viewer),
        "veto": _veto_view(board, viewer),
        "pending": pending(board),
    }
    if board.phase == "castillo_pick":
        out["castillo_pick"] = public_picks(board.picks, viewer)
    if board.teams:
        out["teams"] = team_results(board)
    if board.phase == "over":
        out["winners"] = winners(board)
    return out


def _turn_view(board: Board) -> dict[str, Any] | None:
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


def _veto_view(board: Board, viewer: str | None) -> dict[str, Any]:
    frame = board.special
    window = None
    if frame is not None and frame["stage"] == "window":
        shown = special.view(board, viewer)
        assert shown is not None
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
