"""Tournaments as read: what its tables so far say of each entrant (`history`), the
standings, and the whole tournament as the API and its page show it (public: names,
ratings at entry, tables and their games, results; never an address).

The standings rank by points (a point for each player finished ahead of at a table, a tie
sharing it), then by the tie-break (the sum of the shares of each table winner's score),
then by the rating at entry; heats first by the furthest round reached. A skipped entrant
ranks below every entrant not skipped who reached as far. Equal on all of these, two share
a place."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypedDict

from sqlalchemy import select

from pbem.errors import NotFound
from pbem.extensions import db
from pbem.languages import N_
from pbem.store import tables
from pbem.store.queries import MAX_ID

#: The formats, the statuses and why an entrant is skipped, as people read them.
FORMAT_NAMES = {"swiss": N_("Swiss by boards"), "groups": N_("Groups"), "heats": N_("Heats")}
STATUS_NAMES = {
    "open": N_("taking entries"),
    "running": N_("under way"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
SKIPPED_NAMES = {
    "timeout": N_("skipped: a bot played their seat"),
    "left": N_("skipped: left"),
    "removed": N_("skipped: removed by the organiser"),
    "suspended": N_("skipped: may not play here for now"),
}

#: How each format seats its entrants, as the page and the API say it.
EXPLAINED = {
    "swiss": N_(
        "Swiss by boards: before each round the entrants are ranked by their points so far, "
        "and seated table by table from the top, the leaders together at table 1. Within "
        "that order, players who met before are swapped between neighbouring tables where "
        "it keeps the order nearly as it was, and each table's seats go first to those who "
        "held them least."
    ),
    "groups": N_(
        "Groups: the entrants are split at the start into pools of the table's size, the "
        "ratings spread evenly across them; each round every pool plays one game with all "
        "its members, their seats turning so that each holds every seat once where the "
        "rounds allow."
    ),
    "heats": N_(
        "Heats to a final: each round is seated as a Swiss round; after it only the best of "
        "each table go on, so that the last round is one final table. Those knocked out "
        "rank by the round they reached, then by points."
    ),
}

#: The scoring as the page and the API say it.
FORMULA = N_(
    "At each table a player scores a point for each player they finished ahead of (a tie "
    "shares it: half each). Ties in points are broken by the share of each table winner's "
    "score a player reached (1 for the winner), summed over the rounds, then by the rating "
    "at entry."
)


@dataclass
class History:
    """Each entrant's points, tie-break, opponents met (how often), seats held (positions in
    order), results by round, and the last round they were drawn in."""

    points: dict[int, float] = field(default_factory=dict)
    tiebreak: dict[int, float] = field(default_factory=dict)
    met: dict[int, dict[int, int]] = field(default_factory=dict)
    seats: dict[int, list[int]] = field(default_factory=dict)
    by_round: dict[int, dict[int, tuple[float, float]]] = field(default_factory=dict)
    reached: dict[int, int] = field(default_factory=dict)


def history(tournament_id: int) -> History:
    """What the tournament's tables so far say of each entrant."""
    tt = tables.tournament_tables.c
    rows = db.session.execute(
        select(tt.round, tt.players, tt.places, tt.shares)
        .where(tt.tournament_id == tournament_id)
        .order_by(tt.round, tt.number)
    ).all()
    found = History()
    for row in rows:
        for position, player in enumerate(row.players):
            found.seats.setdefault(player, []).append(position)
            found.reached[player] = max(found.reached.get(player, 0), row.round)
            met = found.met.setdefault(player, {})
            for other in row.players:
                if other != player:
                    met[other] = met.get(other, 0) + 1
            if row.places is not None:
                place, share = row.places[position], row.shares[position]
                found.points[player] = found.points.get(player, 0.0) + place
                found.tiebreak[player] = found.tiebreak.get(player, 0.0) + share
                found.by_round.setdefault(player, {})[row.round] = (place, share)
    return found


class StandingShown(TypedDict):
    place: int
    player_id: int
    name: str
    points: float
    tiebreak: float
    games: int
    reached: int
    skipped: str | None
    rating_at_entry: float
    rounds: list[dict[str, Any]]  # {round, points, share}


class TableShown(TypedDict):
    table: int
    game_id: int
    players: list[int]
    names: list[str]
    status: str
    scores: list[int] | None
    points: list[float] | None


class RoundShown(TypedDict):
    number: int
    tables: list[TableShown]
    byes: list[int]


class TournamentShown(TypedDict):
    id: int
    title: str
    organiser_id: int
    format: str
    explained: str
    table_size: int
    rounds_total: int
    round: int
    status: str
    round_due_at: datetime | None
    starts_at: datetime | None
    entry: dict[str, Any]
    entrants: int
    options: dict[str, Any]
    formula: str
    rounds: list[RoundShown]
    standings: list[StandingShown]


def standings(entries: list[Any], found: History, heats: bool) -> list[StandingShown]:
    """The entrants (rows of player id, name, rating at entry, skipped why) ranked."""

    def key(row: Any) -> tuple[Any, ...]:
        reached = found.reached.get(row.player_id, 0) if heats else 0
        return (
            -reached,
            row.skipped_why is not None,
            -round(found.points.get(row.player_id, 0.0), 6),
            -round(found.tiebreak.get(row.player_id, 0.0), 6),
            -row.rating_at_entry,
        )

    ranked = sorted(entries, key=lambda row: (key(row), row.player_id))
    shown: list[StandingShown] = []
    for index, row in enumerate(ranked):
        place = shown[-1]["place"] if shown and key(ranked[index - 1]) == key(row) else index + 1
        rounds = found.by_round.get(row.player_id, {})
        shown.append(
            {
                "place": place,
                "player_id": row.player_id,
                "name": row.name,
                "points": round(found.points.get(row.player_id, 0.0), 4),
                "tiebreak": round(found.tiebreak.get(row.player_id, 0.0), 4),
                "games": len(rounds),
                "reached": found.reached.get(row.player_id, 0),
                "skipped": row.skipped_why,
                "rating_at_entry": round(row.rating_at_entry, 2),
                "rounds": [
                    {"round": r, "points": p, "share": s} for r, (p, s) in sorted(rounds.items())
                ],
            }
        )
    return shown


def tournament(tournament_id: int) -> TournamentShown:
    """The tournament, its rounds' tables and the standings, as anyone may read them."""
    t = tables.tournaments.c
    row = None
    if 0 < tournament_id <= MAX_ID:
        row = db.session.execute(select(tables.tournaments).where(t.id == tournament_id)).first()
    if row is None:
        raise NotFound(
            N_("There is no tournament %(id)s; GET /api/tournaments lists them."),
            code="no-such-tournament",
            id=tournament_id,
        )
    entries = _entries(tournament_id)
    names = {e.player_id: e.name for e in entries}
    found = history(tournament_id)
    return {
        "id": row.id,
        "title": row.title,
        "organiser_id": row.organiser_id,
        "format": row.format,
        "explained": EXPLAINED[row.format],
        "table_size": row.table_size,
        "rounds_total": row.rounds,
        "round": row.current_round,
        "status": row.status,
        "round_due_at": row.round_due_at,
        "starts_at": row.starts_at,
        "entry": {k: v for k, v in (row.entry or {}).items() if k != "invited"},
        "entrants": len(entries),
        "options": row.options or {},
        "formula": FORMULA,
        "rounds": _rounds(tournament_id, names, [] if row.format == "heats" else entries),
        "standings": standings(entries, found, row.format == "heats"),
    }


def _entries(tournament_id: int) -> list[Any]:
    entries, players = tables.tournament_entries.c, tables.players.c
    return list(
        db.session.execute(
            select(
                entries.player_id,
                players.name,
                entries.rating_at_entry,
                entries.skipped_why,
                entries.entered_at,
                entries.skipped_at,
            )
            .select_from(
                tables.tournament_entries.join(tables.players, players.id == entries.player_id)
            )
            .where(entries.tournament_id == tournament_id)
            .order_by(entries.entered_at, entries.player_id)
        ).all()
    )


def _rounds(tournament_id: int, names: dict[int, str], entries: list[Any]) -> list[RoundShown]:
    """Each round's tables, and who sat it out (`byes`): of `entries` (the entrants; none
    for heats, whose eliminated are no byes), those in the tournament when the round was
    drawn, not skipped by then, and at none of its tables (a group with fewer than three
    players left)."""
    tt, games = tables.tournament_tables.c, tables.games.c
    rows = db.session.execute(
        select(
            tt.round,
            tt.number,
            tt.game_id,
            tt.players,
            tt.scores,
            tt.places,
            games.status,
            games.created_at,
        )
        .select_from(tables.tournament_tables.join(tables.games, games.id == tt.game_id))
        .where(tt.tournament_id == tournament_id)
        .order_by(tt.round, tt.number)
    ).all()
    rounds: dict[int, RoundShown] = {}
    drawn_at: dict[int, Any] = {}
    for row in rows:
        shown = rounds.setdefault(row.round, {"number": row.round, "tables": [], "byes": []})
        drawn_at[row.round] = min(drawn_at.get(row.round, row.created_at), row.created_at)
        shown["tables"].append(
            {
                "table": row.number,
                "game_id": row.game_id,
                "players": list(row.players),
                "names": [names.get(p, "?") for p in row.players],
                "status": row.status,
                "scores": row.scores,
                "points": row.places,
            }
        )
    for number, shown in rounds.items():
        at, seated = drawn_at[number], {p for t in shown["tables"] for p in t["players"]}
        shown["byes"] = [
            e.player_id
            for e in entries
            if e.entered_at <= at
            and (e.skipped_at is None or e.skipped_at > at)
            and e.player_id not in seated
        ]
    return list(rounds.values())


def listed(limit: int = 100) -> list[Any]:
    """The tournaments, the newest first: open, running and finished."""
    t = tables.tournaments.c
    return list(
        db.session.execute(
            select(t.id, t.title, t.format, t.status, t.table_size, t.rounds, t.current_round)
            .order_by(t.id.desc())
            .limit(limit)
        ).all()
    )
