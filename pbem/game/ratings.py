"""A person's record as read: their rating (openskill's Plackett-Luce, shown conservatively as
its ordinal, mu - 3 sigma), their reliability, their finished and current games, and the
standings. What the API's player and ratings answers and a player's page show.

The rating is written when a game finishes (`pbem.play.ratings`), a closed decision when its
deadline goes (`pbem.timing.deadlines`); nothing here writes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from openskill.models import PlackettLuce
from sqlalchemy import case, func, select

from pbem.errors import NotFound
from pbem.languages import N_
from pbem.store import reads
from pbem.store.models import (
    Decision,
    Game,
    GameRating,
    Player,
    PlayerRating,
    Seat,
    is_person,
)
from pbem.store.queries import MAX_ID

_players = Player.__table__
_ratings = PlayerRating.__table__
_results = GameRating.__table__
_decisions = Decision.__table__
_games = Game.__table__
_seats = Seat.__table__

#: openskill's Weng-Lin Plackett-Luce model with its own defaults (mu 25, sigma 25/3): the
#: one model every rating is computed and shown with.
MODEL = PlackettLuce()

#: Fewer rated games than this: the rating is provisional (and the standings leave it out).
PROVISIONAL_BELOW = 5

#: Reliability is over a person's last this many decisions.
RELIABILITY_WINDOW = 100

#: The player counts the standings can be filtered by (a column each in `player_ratings`).
PLAYER_COUNTS = (2, 3, 4, 5)

#: The statuses of a player's games that are still going.
CURRENT_STATUSES = ("forming", "active")


class Rating(TypedDict):
    mu: float
    sigma: float
    ordinal: float  # the conservative rating shown: mu - 3 sigma
    games: int  # rated games
    provisional: bool  # fewer than PROVISIONAL_BELOW rated games


class PlayerRecord(TypedDict):
    id: int
    name: str
    bot: bool  # a house bot (never rated)
    rating: Rating
    reliability: float | None  # 0..1 over the last decisions; None before the first
    decisions: int  # how many decisions the reliability is over


class FinishedGame(TypedDict):
    id: int
    title: str
    ended: str | None  # ISO 8601, UTC
    players: int  # seats' holders, bots too (a two-colour game of two people: 2)
    rank: int  # 1: first; a tie shares the place
    score: int
    bot_finished: bool  # a bot finished the seat for them
    rated: bool  # False: no other person to be rated against
    rating_change: float  # the ordinal's change (0 when not rated)
    ordinal: float  # the ordinal after the game


class CurrentGame(TypedDict):
    id: int
    title: str
    status: str
    colours: list[str]  # the seats they hold in it


class PlayerGames(TypedDict):
    finished: list[FinishedGame]  # the most recently ended first
    current: list[CurrentGame]
    more: bool  # more finished games follow on the next page


class Standing(TypedDict):
    place: int
    id: int
    name: str
    rating: Rating


class Standings(TypedDict):
    players: list[Standing]
    more: bool


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown for (mu, sigma): openskill's ordinal, mu - 3 sigma."""
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def rating_of(mu: float, sigma: float, games: int) -> Rating:
    return {
        "mu": mu,
        "sigma": sigma,
        "ordinal": ordinal(mu, sigma),
        "games": games,
        "provisional": games < PROVISIONAL_BELOW,
    }


def unrated() -> Rating:
    """The rating of a person no game has rated yet: the model's prior."""
    return rating_of(MODEL.mu, MODEL.sigma, 0)


def _no_player(player_id: int) -> NotFound:
    return NotFound(N_("There is no player %(player)s."), code="no-such-player", player=player_id)


def player_record(player_id: int) -> PlayerRecord:
    """A player's name, rating and reliability, as anyone may read them (never an address,
    a key, notes or orders). NotFound for a player there is none of."""
    if not 0 < player_id <= MAX_ID:
        raise _no_player(player_id)
    row = (
        reads.connection()
        .execute(
            select(
                _players.c.id,
                _players.c.name,
                is_person(_players.c.email).label("person"),
                _ratings.c.mu,
                _ratings.c.sigma,
                _ratings.c.games,
            )
            .select_from(_players.outerjoin(_ratings, _ratings.c.player_id == _players.c.id))
            .where(_players.c.id == player_id)
        )
        .first()
    )
    if row is None:
        raise _no_player(player_id)
    shown, answered = reliability(player_id)
    return {
        "id": row.id,
        "name": row.name,
        "bot": not row.person,
        "rating": unrated() if row.mu is None else rating_of(row.mu, row.sigma, row.games),
        "reliability": shown,
        "decisions": answered,
    }


def reliability(player_id: int) -> tuple[float | None, int]:
    """The share of a person's last RELIABILITY_WINDOW decisions answered before their
    deadline (None before their first), and how many decisions that is over."""
    last = (
        select(_decisions.c.how)
        .where(_decisions.c.player_id == player_id)
        .order_by(_decisions.c.id.desc())
        .limit(RELIABILITY_WINDOW)
        .subquery()
    )
    in_time, owed = (
        reads.connection()
        .execute(select(func.sum(case((last.c.how == "in_time", 1), else_=0)), func.count()))
        .one()
    )
    return (None if not owed else int(in_time) / owed), int(owed)


def player_games(player_id: int, page: int = 1, per_page: int = 50) -> PlayerGames:
    """A player's finished games (a page of them, the last ended first) with their place,
    score and rating change, and the games they are in now."""
    _known_player(player_id)
    connection = reads.connection()
    finished = connection.execute(
        select(
            _games.c.id,
            _games.c.title,
            _results.c.rated_at,
            _results.c.players,
            _results.c.rank,
            _results.c.score,
            _results.c.bot_finished,
            _results.c.rated,
            _results.c.mu_before,
            _results.c.sigma_before,
            _results.c.mu_after,
            _results.c.sigma_after,
        )
        .select_from(_results.join(_games, _games.c.id == _results.c.game_id))
        .where(_results.c.player_id == player_id)
        .order_by(_results.c.rated_at.desc(), _results.c.game_id.desc())
        .offset((page - 1) * per_page)
        .limit(per_page + 1)
    ).all()
    current = connection.execute(
        select(_games.c.id, _games.c.title, _games.c.status, _seats.c.colour)
        .select_from(_seats.join(_games, _games.c.id == _seats.c.game_id))
        .where(_seats.c.player_id == player_id, _games.c.status.in_(CURRENT_STATUSES))
        .order_by(_games.c.id, _seats.c.position)
    ).all()
    going: dict[int, CurrentGame] = {}
    for row in current:
        entry = going.setdefault(
            row.id, {"id": row.id, "title": row.title, "status": row.status, "colours": []}
        )
        entry["colours"].append(row.colour)
    return {
        "finished": [_finished(row) for row in finished[:per_page]],
        "current": list(going.values()),
        "more": len(finished) > per_page,
    }


def _known_player(player_id: int) -> None:
    """NotFound unless there is such a player."""
    found = 0 < player_id <= MAX_ID and (
        reads.connection().execute(select(_players.c.id).where(_players.c.id == player_id)).first()
        is not None
    )
    if not found:
        raise _no_player(player_id)


def _finished(row: Any) -> FinishedGame:
    before = ordinal(row.mu_before, row.sigma_before)
    after = ordinal(row.mu_after, row.sigma_after)
    return {
        "id": row.id,
        "title": row.title,
        "ended": _iso(row.rated_at),
        "players": row.players,
        "rank": row.rank,
        "score": row.score,
        "bot_finished": row.bot_finished,
        "rated": row.rated,
        "rating_change": after - before,
        "ordinal": after,
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def standings(players: int | None = None, page: int = 1, per_page: int = 50) -> Standings:
    """The people with at least PROVISIONAL_BELOW rated games (of `players` players, if
    given), the best conservative rating first: a page of them."""
    counted = _ratings.c.games if players is None else _ratings.c[f"games_{players}"]
    rows = (
        reads.connection()
        .execute(
            select(
                _players.c.id,
                _players.c.name,
                _ratings.c.mu,
                _ratings.c.sigma,
                _ratings.c.games,
            )
            .select_from(_ratings.join(_players, _players.c.id == _ratings.c.player_id))
            .where(counted >= PROVISIONAL_BELOW)
            .order_by(_ratings.c.ordinal.desc(), _ratings.c.player_id)
            .offset((page - 1) * per_page)
            .limit(per_page + 1)
        )
        .all()
    )
    first = (page - 1) * per_page + 1
    return {
        "players": [
            {
                "place": first + index,
                "id": row.id,
                "name": row.name,
                "rating": rating_of(row.mu, row.sigma, row.games),
            }
            for index, row in enumerate(rows[:per_page])
        ],
        "more": len(rows) > per_page,
    }
