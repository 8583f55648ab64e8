"""What each page shows, built from `pbem.game` (views, legal moves, the log): the routes
only read the request and render.

Nothing here decides what is secret: the board and panel are drawn from `engine.view` for the
viewer, the log comes through `engine.visible_log`, the choices from `engine.legal_moves` for
the signed-in seat.
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from engine.data import CASTILLO, REGIONS
from pbem.game import history
from pbem.game.games import games_of, get_game, seats_of
from pbem.game.seating import Actor
from pbem.game.states import current_state
from pbem.game.views import current_view, legal_moves_for, view_at
from pbem.store.models import Game, Player
from pbem.web.board import board_svg, colour_chip, panel_html, place_name
from pbem.web.notation import move_text, notation

PLACES = (*REGIONS, CASTILLO)


# --- the list of games -------------------------------------------------------------------


def game_row(game: Game, player: Player | None = None) -> dict[str, Any]:
    """A game as the lists show it: title, players, status, round, who must act."""
    names = {s.colour: s.player.name for s in game.seats}
    state = current_state(game.id, game.seed, game.seq)
    to_move = sorted({p["player"] for p in game.pending or []}) if game.status == "active" else []
    own = [s.colour for s in seats_of(game, player)]
    return {
        "id": game.id,
        "title": game.title,
        "status": game.status,
        "round_number": state.round_index + 1,
        "rounds_total": len(state.chart),
        "players": [{**colour_chip(c), "name": n} for c, n in names.items()],
        "to_move": [{**colour_chip(c), "name": names[c]} for c in to_move],
        "your_turn": any(c in to_move for c in own),
    }


def index_context(player: Player | None) -> dict[str, Any]:
    return {
        "your_games": [game_row(g, player) for g in games_of(player)] if player else [],
        "in_play": [game_row(g, player) for g in history.recent_games("active")],
        "finished": [game_row(g, player) for g in history.recent_games("finished", limit=10)],
    }


# --- stepping through a game ---------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """Where the replay controls lead from `seq` (None: already there)."""

    seq: int
    last: int
    round_start: int  # the start of the round `seq` is in
    round_end: int  # the start of the next round, or the last seq
    start: int | None
    previous_round: int | None
    previous_move: int | None
    next_move: int | None
    next_round: int | None
    now: int | None


def replay(seq: int, last: int, starts: list[int]) -> Replay:
    """Start, previous/next round, previous/next move, now, from `seq` of `last`, where
    `starts` are the seqs at which rounds start (sorted, 0 first)."""
    earlier = starts[: bisect_left(starts, seq)]
    later = starts[bisect_right(starts, seq) :]
    round_start = starts[bisect_right(starts, seq) - 1]
    round_end = later[0] if later else last

    def unless_here(target: int) -> int | None:
        return None if target == seq else target

    return Replay(
        seq=seq,
        last=last,
        round_start=round_start,
        round_end=min(round_end, last),
        start=unless_here(0),
        previous_round=earlier[-1] if earlier else None,
        previous_move=seq - 1 if seq > 0 else None,
        next_move=seq + 1 if seq < last else None,
        next_round=later[0] if later and later[0] <= last else unless_here(last),
        now=unless_here(last),
    )


# --- the board page ------------------------------------------------------------------------


#: Rendered boards and panels by (game, seed, seq, viewer, names): a past position never
#: changes, so each is drawn once per worker and then served from memory.
_RENDERED: OrderedDict[tuple, tuple[Markup, Markup]] = OrderedDict()
_RENDERED_MAX = 512
_RENDERED_LOCK = threading.Lock()


def board_and_panel(game: Game, view: Mapping[str, Any], names: dict[str, str]) -> tuple:
    key = (game.id, game.seed, view["seq"], view["viewer"], tuple(names.items()))
    with _RENDERED_LOCK:
        hit = _RENDERED.get(key)
        if hit is not None:
            _RENDERED.move_to_end(key)
            return hit
    drawn = (board_svg(view), panel_html(view, names))
    with _RENDERED_LOCK:
        _RENDERED[key] = drawn
        while len(_RENDERED) > _RENDERED_MAX:
            _RENDERED.popitem(last=False)
    return drawn


def choices(moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The seat's legal moves as the page offers them: power cards, action cards, moves
    aimed at one place (clickable on the board), moves between places, and the rest."""
    power, cards, shifts, other = [], [], [], []
    by_place: dict[str, list] = {}
    for move in moves:
        choice = {"json": json.dumps(move, separators=(",", ":")), "text": move_text(move)}
        target = move.get("to", move.get("region"))
        if move["type"] == "play_power_card":
            power.append({**choice, "card": move["card"]})
        elif move["type"] == "choose_card":
            cards.append(choice)
        elif "from" in move and "to" in move:
            # From one place to another: a click on one place cannot say which, so these
            # are listed rather than put on the map.
            shifts.append(choice)
        elif isinstance(target, str) and target in PLACES:
            by_place.setdefault(target, []).append(choice)
        else:
            other.append(choice)
    places = [
        {"place": p, "name": place_name(p), "moves": by_place[p]} for p in PLACES if p in by_place
    ]
    return {"power": power, "cards": cards, "places": places, "shifts": shifts, "other": other}


def log_rows(entries: list[dict[str, Any]], names: dict[str, str], shown: int) -> list[dict]:
    rows = []
    for entry in entries:
        rows.append(
            {
                "seq": entry["seq"],
                **colour_chip(entry["player"]),
                "name": names.get(entry["player"], entry["player"]),
                "text": notation(entry["move"]),
                "hidden": bool(entry.get("hidden")),
                "shown": entry["seq"] == shown,
                "after": entry["seq"] > shown,
                "new_round": any(e.get("type") == "round_started" for e in entry["events"]),
            }
        )
    return rows


def final_scoring(view: Mapping[str, Any], names: dict[str, str]) -> dict[str, Any] | None:
    """The scores, winners and (two-colour game) each person's score, once the game is over."""
    if view.get("phase") != "over":
        return None
    winners = set(view.get("winners", []))
    rows = sorted(
        (
            {
                **colour_chip(c),
                "name": names.get(c, c),
                "score": view["players"][c]["score"],
                "winner": c in winners,
            }
            for c in view["colours"]
        ),
        key=lambda r: -r["score"],
    )
    teams = [
        {
            "players": [{**colour_chip(c), "name": names.get(c, c)} for c in team["colours"]],
            "score": team["score"],
            "winner": any(c in winners for c in team["colours"]),
        }
        for team in view.get("teams", [])
    ]
    return {"rows": rows, "teams": teams}


def game_context(
    game_id: int, player: Player | None, seq: int | None = None, colour: str | None = None
) -> dict[str, Any]:
    """Everything the board page shows: at `seq` (None: now), as `colour` (one of the
    player's; None: their pending one), or the public view for anyone without a seat."""
    game = get_game(game_id)
    names = history.seat_names(game.id)
    own = [s.colour for s in seats_of(game, player)]
    if seq is None or seq == game.seq:
        view = current_view(game, player, colour)
    else:
        view = view_at(game, player, seq, colour)
    shown = view["seq"]
    steps = replay(shown, game.seq, history.round_starts(game.id))
    over = view.get("phase") == "over"
    # A finished game shows its whole record; otherwise the round being looked at, from the
    # move that started it.
    after, upto = (0, game.seq) if over else (max(steps.round_start - 1, 0), steps.round_end)
    log = log_rows(history.log_between(game, player, after, upto), names, shown)
    offered = None
    if player is not None and own and game.status == "active" and shown == game.seq:
        legal = legal_moves_for(Actor.by_player(player.id), game.id, view["viewer"])
        offered = choices(legal["moves"])
    board, panel = board_and_panel(game, view, names)
    return {
        "game": {"id": game.id, "title": game.title, "status": game.status, "seq": game.seq},
        "view": view,
        "shown": shown,
        "current": shown == game.seq,
        "replay": steps,
        "board": board,
        "panel": panel,
        "log": log,
        "final": final_scoring(view, names),
        "own": [{**colour_chip(c), "name": names.get(c, c)} for c in own],
        "viewer": view["viewer"],
        # A person holding two colours names the one they act as, as with the API.
        "colour_field": view["viewer"] if len(own) > 1 else None,
        "choices": offered,
        "names": names,
    }
