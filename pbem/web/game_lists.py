"""The lists of games the home page shows: a signed-in player's own (waiting on them, on
others, forming, over), the games in play and the latest finished."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from pbem.game import history
from pbem.game.games import (
    earliest_deadlines,
    games_of,
    seats_of,
)
from pbem.game.states import current_state
from pbem.store.models import Game
from pbem.web.board import (
    NamedChip,
    colour_chip,
)
from pbem.web.signin import SignedIn


class GameRow(TypedDict):
    """A game as the lists show it (`game_row`); `your_games` adds when it began to wait
    and the earliest deadline of whoever it waits on."""

    id: int
    title: str
    status: str
    round_number: int
    rounds_total: int
    players: list[NamedChip]
    to_move: list[NamedChip]
    your_turn: bool
    since: NotRequired[str]
    deadline: NotRequired[str | None]


class GameLists(TypedDict):
    your_games: dict[str, list[GameRow]]
    in_play: list[GameRow]
    finished: list[GameRow]


def game_row(game: Game, player: SignedIn | None = None) -> GameRow:
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


def index_context(player: SignedIn | None) -> GameLists:
    return {
        "your_games": your_games(player) if player else {},
        "in_play": [game_row(g, player) for g in history.recent_games("active")],
        "finished": [game_row(g, player) for g in history.recent_games("finished", limit=10)],
    }


def your_games(player: SignedIn) -> dict[str, list[GameRow]]:
    """A player's games as correspondence sites list them: those waiting on you first
    (the longest waiting first), then those waiting on others, then the ones over; each
    waiting game with since when, and the earliest deadline of whoever it waits on."""
    games = games_of(player)
    active = [g.id for g in games if g.status == "active"]
    due = earliest_deadlines(active)
    groups: dict[str, list[GameRow]] = {"you": [], "others": [], "forming": [], "over": []}
    for game in sorted(games, key=lambda g: g.updated_at):
        row = game_row(game, player)
        if game.status == "forming":
            groups["forming"].append(row)
            continue
        if game.status != "active":
            groups["over"].append(row)
            continue
        row["since"] = game.updated_at.isoformat()
        waits = [due[game.id, p["colour"]] for p in row["to_move"] if (game.id, p["colour"]) in due]
        row["deadline"] = min(waits).isoformat() if waits else None
        groups["you" if row["your_turn"] else "others"].append(row)
    groups["over"].reverse()  # the latest over first
    return groups
