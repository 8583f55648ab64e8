"""A person's record as read: their rating (openskill's Plackett-Luce, shown conservatively as
its ordinal, mu - 3 sigma), their reliability, their finished and current games, and the
standings. What the API's player and ratings answers and a player's page show.

The rating is written when a game finishes (`pbem.play.ratings`), a closed decision when its
deadline goes (`pbem.timing.deadlines`); nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple, TypedDict

from openskill.models import PlackettLuce
from sqlalchemy import (
    FromClause,
    Integer,
    Select,
    and_,
    bindparam,
    case,
    func,
    literal_column,
    or_,
    select,
    true,
    union_all,
)

from engine.bots import LEVELS
from pbem.errors import NotFound
from pbem.languages import N_
from pbem.store import reads, tables
from pbem.store.counters import STANDINGS, counter_value
from pbem.store.models import (
    is_person,
)
from pbem.store.prepared import Prepared, all_together, part_columns
from pbem.store.queries import MAX_ID

#: openskill's Weng-Lin Plackett-Luce model with its own defaults (mu 25, sigma 25/3): the
#: one model every rating is computed and shown with.
MODEL = PlackettLuce()

#: Fewer rated games than this: the rating is provisional (and the standings leave it out).
PROVISIONAL_BELOW = 5

#: Reliability is over a person's last this many decisions.
RELIABILITY_WINDOW = 100

#: The player counts the standings can be filtered by (a column each in `player_ratings`).
PLAYER_COUNTS = (2, 3, 4, 5)

#: The last page of a player's games or of the standings anyone may ask for (the doors
#: refuse a later one; a page past the end is empty).
LAST_PAGE = 10_000

#: A player's page draws the rating after at most this many of their last rated games (kept
#: with their rating, `PlayerRating.history`).
HISTORY_POINTS = 100

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
    """The conservative rating shown for (mu, sigma): openskill's ordinal with its defaults,
    mu - 3 sigma, written out (a page draws hundreds; making the library's rating object for
    each costs more than the rest of the arithmetic)."""
    return mu - 3.0 * sigma


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


#: A person's last RELIABILITY_WINDOW decisions (`player`), over the (player, id) index.
_LAST_DECISIONS = (
    select(tables.decisions.c.how)
    .where(tables.decisions.c.player_id == bindparam("player"))
    .order_by(tables.decisions.c.id.desc())
    .limit(RELIABILITY_WINDOW)
    .subquery()
)
#: How many of them were answered in time, and how many there are: one row, read in one
#: pass over them.
_RELIABILITY = (
    select(
        func.coalesce(
            func.sum(case((_LAST_DECISIONS.c.how == "in_time", 1), else_=0)), 0, type_=Integer
        ).label("in_time"),
        func.count().label("owed"),
    )
    .select_from(_LAST_DECISIONS)
    .subquery("reliability")
)

_WITH_RATING = tables.players.outerjoin(
    tables.player_ratings, tables.player_ratings.c.player_id == tables.players.c.id
).join(_RELIABILITY, true())


def _record_read(*more: Any, joined: FromClause = _WITH_RATING) -> Select[Any]:
    """A player's record (`player`) in one read: name, rating, reliability (and `more`)."""
    return (
        select(
            tables.players.c.id,
            tables.players.c.name,
            is_person(tables.players.c.email).label("person"),
            tables.player_ratings.c.mu,
            tables.player_ratings.c.sigma,
            tables.player_ratings.c.games,
            _RELIABILITY.c.in_time,
            _RELIABILITY.c.owed,
            *more,
        )
        .select_from(joined)
        .where(tables.players.c.id == bindparam("player"))
    )


# Built once and prepared: making a statement costs more than the database's answer to it.
_RECORD = Prepared(_record_read())
#: The games a player's seats are in that are still going.
_SEATS_GOING = tables.seats.join(
    tables.games,
    and_(
        tables.games.c.id == tables.seats.c.game_id,
        # Each status bound on its own: a prepared statement has no expanding IN list.
        or_(*(tables.games.c.status == status for status in CURRENT_STATUSES)),
    ),
)


def _going_read(*columns: Any) -> Select[Any]:
    """`columns` of each seat a player (`player`) holds in a game still going."""
    return (
        select(*columns)
        .select_from(_SEATS_GOING)
        .where(tables.seats.c.player_id == bindparam("player"))
    )


#: The columns of a player's first page's read (`_RECORD_DRAWN_AND_GOING`), a part each.
_RECORD_COLUMNS = {
    column.name: column
    for column in _record_read(
        tables.players.c.record_seq,
        # Non-null when a drawing of the record as it is was kept: its body is read, and
        # the drawing itself only when the body is stale (`drawn_record`).
        tables.drawn_records.c.record_seq.label("drawn_seq"),
        tables.drawn_records.c.body.label("drawn_body"),
        tables.drawn_records.c.body_of.label("drawn_body_of"),
    ).selected_columns
}
_GOING_COLUMNS = {
    "game_id": tables.games.c.id,
    "game_title": tables.games.c.title,
    "game_status": tables.games.c.status,
    "colour": tables.seats.c.colour,
    "place": tables.seats.c.position,
}
#: The record with what their page drew of it and kept in `language` with `drawing`, if it
#: is of their record as it is (null columns otherwise), and the number it would be kept by
#: (part 0: no row, no such player); then their seats in games still going, a row each
#: (part 1). One statement, not two sent together (on PostgreSQL a pipeline costs the
#: worker more than a statement), and not a join, which repeated the drawing's 10 kB on
#: every seat's row.
_PAGE_COLUMNS = {**_RECORD_COLUMNS, **_GOING_COLUMNS}
_RECORD_DRAWN_AND_GOING = Prepared(
    union_all(
        select(*part_columns(0, _PAGE_COLUMNS, **_RECORD_COLUMNS))
        .select_from(
            _WITH_RATING.outerjoin(
                tables.drawn_records,
                and_(
                    tables.drawn_records.c.player_id == tables.players.c.id,
                    tables.drawn_records.c.language == bindparam("language"),
                    tables.drawn_records.c.drawing == bindparam("drawing"),
                    tables.drawn_records.c.record_seq == tables.players.c.record_seq,
                ),
            )
        )
        .where(tables.players.c.id == bindparam("player")),
        _going_read(*part_columns(1, _PAGE_COLUMNS, **_GOING_COLUMNS)),
    ).order_by(*(literal_column(name) for name in ("part", "game_id", "place")))
)
#: A player's record kept drawn in `language` with `drawing` at `record_seq`: its chart and
#: games only, read when the body kept with them is stale, to draw the body again.
_DRAWN = Prepared(
    select(tables.drawn_records.c.chart, tables.drawn_records.c.games).where(
        tables.drawn_records.c.player_id == bindparam("player"),
        tables.drawn_records.c.language == bindparam("language"),
        tables.drawn_records.c.drawing == bindparam("drawing"),
        tables.drawn_records.c.record_seq == bindparam("record_seq"),
    )
)
#: A person's kept rating history (no row before their first rated game).
_HISTORY = Prepared(
    select(tables.player_ratings.c.history).where(
        tables.player_ratings.c.player_id == bindparam("player")
    )
)


def player_record(player_id: int) -> PlayerRecord:
    """A player's name, rating and reliability, as anyone may read them (never an address,
    a key, notes or orders), in one read. NotFound for a player there is none of."""
    if not 0 < player_id <= MAX_ID:
        raise _no_player(player_id)
    return _record(player_id, _RECORD.first(reads.connection(), {"player": player_id}))


def _record(player_id: int, row: Any | None) -> PlayerRecord:
    """The record `_RECORD` read (NotFound for no row)."""
    if row is None:
        raise _no_player(player_id)
    return {
        "id": row.id,
        "name": row.name,
        "bot": not row.person,
        "rating": unrated() if row.mu is None else rating_of(row.mu, row.sigma, row.games),
        "reliability": int(row.in_time) / row.owed if row.owed else None,
        "decisions": int(row.owed),
    }


def reliability(player_id: int) -> tuple[float | None, int]:
    """The share of a person's last RELIABILITY_WINDOW decisions answered before their
    deadline (None before their first), and how many decisions that is over: as their
    record reads it."""
    record = player_record(player_id)
    return record["reliability"], record["decisions"]


def player_games(player_id: int, page: int = 1, per_page: int = 50) -> PlayerGames:
    """A player's finished games (a page of them, the last ended first) with their place,
    score and rating change, and the games they are in now."""
    _known_player(player_id)
    finished = _results_of(player_id, (page - 1) * per_page, per_page + 1)
    going = _CURRENT.all(reads.connection(), {"player": player_id})
    return _games_page(finished, per_page, going)


def _games_page(finished: Sequence[Any], per_page: int, going: Sequence[Any]) -> PlayerGames:
    """A page of finished games from `finished` (read one past the page, to know whether
    more follow), with the games being played that `_CURRENT` read (`going`)."""
    return {
        "finished": [_finished(row) for row in finished[:per_page]],
        "current": _current(going),
        "more": len(finished) > per_page,
    }


class DrawnAs(NamedTuple):
    """What a player's record is drawn with for their page: the reader's language, and a
    name for the drawing itself (its templates, catalogs, where its links point)."""

    language: str
    drawing: str


class Drawn(NamedTuple):
    """A player's record as their page drew it (see `DrawnRecord`), and the page's whole body
    drawn with it, good while `body_of` names what else it shows (None: not drawn yet)."""

    chart: str
    games: str
    body: str | None = None
    body_of: str | None = None


class KeptBody(NamedTuple):
    """A player's page's body kept with their drawn record, and the digest of what else it
    shows (None both: the drawing was kept without one)."""

    body: str | None
    body_of: str | None


class PlayerPage(TypedDict):
    record: PlayerRecord
    games: PlayerGames  # with no finished game when `drawn` holds them
    # The first page's only: the shown rating before the first of their last HISTORY_POINTS
    # rated games and after each, the oldest first (empty before a first rated game).
    history: list[float]
    cards: list[CardStat]  # the first page's only
    # The first page's body kept with the record as drawn `drawn_as` (None: nothing kept
    # holds; then the rest is read to draw it again; `drawn_record` reads the drawing), and
    # the player's `record_seq` read before the rest: a drawing of what was read is kept
    # under it (older, never newer, than what it shows).
    kept: KeptBody | None
    record_seq: int


def player_page(
    player_id: int, page: int = 1, per_page: int = 20, drawn_as: DrawnAs | None = None
) -> PlayerPage:
    """All a player's page shows: their record and a page of finished games (on PostgreSQL
    in one round trip), and on the first page the games they are in now and what it drew
    of their record and kept `drawn_as` (None: look for none). When nothing kept holds, a
    second round trip reads the rating's history, the finished games and the action cards
    they chose, to draw it again."""
    if not 0 < player_id <= MAX_ID:
        raise _no_player(player_id)
    asked = {"player": player_id}
    results = {**asked, "skip": (page - 1) * per_page, "most": per_page + 1}
    connection = reads.connection()
    if page != 1:
        record, older = all_together(connection, [(_RECORD, asked), (_RESULTS, results)])
        return _player_page(player_id, per_page, record, older, [], [], [])
    # No language is named "": with no `drawn_as`, nothing kept is found.
    language, drawing = drawn_as or ("", "")
    record = _RECORD_DRAWN_AND_GOING.all(
        connection, {**asked, "language": language, "drawing": drawing}
    )
    if not record or record[0].part != 0:
        raise _no_player(player_id)
    going = [_Going(row.game_id, row.game_title, row.game_status, row.colour) for row in record[1:]]
    kept = record[0]
    history: Sequence[Any] = []
    finished: Sequence[Any] = []
    cards: Sequence[Any] = []
    if kept.drawn_seq is None:
        history, finished, cards = all_together(
            connection, [(_HISTORY, asked), (_RESULTS, results), (_CARDS, asked)]
        )
    return {
        **_player_page(player_id, per_page, record, finished, going, cards, history),
        "kept": None if kept.drawn_seq is None else KeptBody(kept.drawn_body, kept.drawn_body_of),
        "record_seq": kept.record_seq,
    }


def drawn_record(player_id: int, drawn_as: DrawnAs, record_seq: int) -> Drawn | None:
    """The record of `player_id` kept drawn `drawn_as` at `record_seq` (None: none is)."""
    asked = {"player": player_id, "language": drawn_as.language, "drawing": drawn_as.drawing}
    row = _DRAWN.first(reads.connection(), {**asked, "record_seq": record_seq})
    return None if row is None else Drawn(row.chart, row.games)


def _player_page(
    player_id: int,
    per_page: int,
    record: Sequence[Any],
    finished: Sequence[Any],
    going: Sequence[Any],
    cards: Sequence[Any],
    history: Sequence[Any],
) -> PlayerPage:
    """A player's page of what was read: `record` (no row: no such player), a page of
    `finished` games (`per_page`, read one past it), `history` (a row with the history, or
    none)."""
    return {
        "record": _record(player_id, record[0] if record else None),
        "games": _games_page(finished, per_page, going),
        "history": (history[0].history or []) if history else [],
        "cards": _card_stats(cards),
        "kept": None,
        "record_seq": 0,
    }


#: A player's results (`player`) with their games' titles, the last ended first, from
#: `skip` on, at most `most`.
_RESULTS = Prepared(
    select(
        tables.games.c.id,
        tables.games.c.title,
        tables.game_ratings.c.rated_at,
        tables.game_ratings.c.players,
        tables.game_ratings.c.rank,
        tables.game_ratings.c.score,
        tables.game_ratings.c.bot_finished,
        tables.game_ratings.c.rated,
        tables.game_ratings.c.mu_before,
        tables.game_ratings.c.sigma_before,
        tables.game_ratings.c.mu_after,
        tables.game_ratings.c.sigma_after,
    )
    .select_from(
        tables.game_ratings.join(tables.games, tables.games.c.id == tables.game_ratings.c.game_id)
    )
    .where(tables.game_ratings.c.player_id == bindparam("player"))
    .order_by(tables.game_ratings.c.rated_at.desc(), tables.game_ratings.c.game_id.desc())
    .offset(bindparam("skip"))
    .limit(bindparam("most"))
)

#: The games a player (`player`) holds seats in that are still going.
_CURRENT = Prepared(
    _going_read(
        tables.games.c.id, tables.games.c.title, tables.games.c.status, tables.seats.c.colour
    ).order_by(tables.games.c.id, tables.seats.c.position)
)


class _Going(NamedTuple):
    """A seat in a game still going, as `_CURRENT` reads it."""

    id: int
    title: str
    status: str
    colour: str


def _results_of(player_id: int, offset: int, limit: int) -> list[Any]:
    """A player's results with their games' titles, the last ended first."""
    return _RESULTS.all(reads.connection(), {"player": player_id, "skip": offset, "most": limit})


def _current(rows: Sequence[Any]) -> list[CurrentGame]:
    """The games `_CURRENT` read, each with the colours held in it."""
    going: dict[int, CurrentGame] = {}
    for row in rows:
        entry = going.setdefault(
            row.id, {"id": row.id, "title": row.title, "status": row.status, "colours": []}
        )
        entry["colours"].append(row.colour)
    return list(going.values())


def _known_player(player_id: int) -> None:
    """NotFound unless there is such a player."""
    found = 0 < player_id <= MAX_ID and (
        reads.connection()
        .execute(select(tables.players.c.id).where(tables.players.c.id == player_id))
        .first()
        is not None
    )
    if not found:
        raise _no_player(player_id)


def _moved(row: Any) -> tuple[float, float]:
    """A result row's change of the shown rating, and the shown rating after it."""
    after = ordinal(row.mu_after, row.sigma_after)
    return after - ordinal(row.mu_before, row.sigma_before), after


def _finished(row: Any) -> FinishedGame:
    change, after = _moved(row)
    return {
        "id": row.id,
        "title": row.title,
        "ended": _iso(row.rated_at),
        "players": row.players,
        "rank": row.rank,
        "score": row.score,
        "bot_finished": row.bot_finished,
        "rated": row.rated,
        "rating_change": change,
        "ordinal": after,
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


#: The newest rated result's id (0 before any): a new one with each rated game, and after a
#: rebuild, whose results are written anew.
_STANDINGS_VERSION = Prepared(
    select(
        func.coalesce(func.max(tables.game_ratings.c.id), 0, type_=Integer),
        counter_value(STANDINGS),
    )
)


#: The standings as drawn (a page, an API answer) are kept per worker by `standings_version`:
#: a game rated, a person renamed or the ratings rebuilt, through any node, shows at once.
STANDINGS_KEPT = 256


def standings_version() -> tuple[int, int]:
    """What changes whenever the standings may (one read: the results' primary key's
    newest and the standings' counter): what is kept of them is kept by it."""
    newest, counted = _STANDINGS_VERSION.all(reads.connection(), {})[0]
    return int(newest), int(counted)


def standings(players: int | None = None, page: int = 1, per_page: int = 50) -> Standings:
    """The people with at least PROVISIONAL_BELOW rated games (of `players` players, if
    given), the best conservative rating first: a page of them."""
    counted = (
        tables.player_ratings.c.games
        if players is None
        else tables.player_ratings.c[f"games_{players}"]
    )
    rows = (
        reads.connection()
        .execute(
            select(
                tables.players.c.id,
                tables.players.c.name,
                tables.player_ratings.c.mu,
                tables.player_ratings.c.sigma,
                tables.player_ratings.c.games,
            )
            .select_from(
                tables.player_ratings.join(
                    tables.players, tables.players.c.id == tables.player_ratings.c.player_id
                )
            )
            .where(counted >= PROVISIONAL_BELOW)
            .order_by(
                tables.player_ratings.c.ordinal.desc(), tables.player_ratings.c.player_id.desc()
            )
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


class HouseBotRating(TypedDict):
    level: str  # engine.bots.LEVELS
    rating: Rating


#: Each house bot level's kept rating.
_BOT_RATINGS = Prepared(
    select(
        tables.bot_ratings.c.level,
        tables.bot_ratings.c.mu,
        tables.bot_ratings.c.sigma,
        tables.bot_ratings.c.games,
    )
)


def house_bot_ratings() -> list[HouseBotRating]:
    """Each house bot level's rating from its rated games against people (`bot_ratings`),
    the weakest level first as `engine.bots.LEVELS` orders them; a level no game has rated
    yet has the model's prior. Apart from the standings: a bot is never one of them."""
    kept = {row.level: row for row in _BOT_RATINGS.all(reads.connection(), {})}
    return [
        {
            "level": level,
            "rating": rating_of(kept[level].mu, kept[level].sigma, kept[level].games)
            if level in kept
            else unrated(),
        }
        for level in LEVELS
    ]


class CardStat(TypedDict):
    card: str  # an action card's id
    plays: int  # how often they chose it, in their finished games
    average: float  # the points they scored in those rounds, on average


#: A person's (`player`) card plays, the most chosen first.
_CARDS = Prepared(
    select(tables.card_plays.c.card, tables.card_plays.c.plays, tables.card_plays.c.points)
    .where(tables.card_plays.c.player_id == bindparam("player"))
    .order_by(tables.card_plays.c.plays.desc(), tables.card_plays.c.card)
)


def card_stats(player_id: int) -> list[CardStat]:
    """The action cards a player chose in their finished games, the most chosen first, with
    how many points they scored on average in the rounds they chose each (the summary kept
    when each game finished)."""
    return _card_stats(_CARDS.all(reads.connection(), {"player": player_id}))


def _card_stats(rows: Sequence[Any]) -> list[CardStat]:
    return [
        {"card": row.card, "plays": row.plays, "average": row.points / row.plays}
        for row in rows
        if row.plays
    ]


class BesideName(TypedDict):
    """What is shown beside a name: the rating (the model's prior for someone never rated)
    and the reliability (None before a first decision)."""

    rating: Rating
    reliability: float | None


def beside_names(player_ids: list[int]) -> dict[int, BesideName]:
    """The rating and reliability of several players at once (a game's seats, a list of
    games): two indexed reads, whatever their number."""
    if not player_ids:
        return {}
    connection = reads.connection()
    ratings = {
        row.player_id: rating_of(row.mu, row.sigma, row.games)
        for row in connection.execute(
            select(
                tables.player_ratings.c.player_id,
                tables.player_ratings.c.mu,
                tables.player_ratings.c.sigma,
                tables.player_ratings.c.games,
            ).where(tables.player_ratings.c.player_id.in_(player_ids))
        )
    }
    shares = reliabilities(player_ids)
    return {
        player: {"rating": ratings.get(player) or unrated(), "reliability": shares[player][0]}
        for player in player_ids
    }


def reliabilities(player_ids: list[int]) -> dict[int, tuple[float | None, int]]:
    """`reliability` for several players in one read: each one's last RELIABILITY_WINDOW
    decisions, numbered newest first by a window over the (player, id) index."""
    numbered = (
        select(
            tables.decisions.c.player_id,
            tables.decisions.c.how,
            func.row_number()
            .over(partition_by=tables.decisions.c.player_id, order_by=tables.decisions.c.id.desc())
            .label("age"),
        )
        .where(tables.decisions.c.player_id.in_(player_ids))
        .subquery()
    )
    rows = reads.connection().execute(
        select(
            numbered.c.player_id,
            func.sum(case((numbered.c.how == "in_time", 1), else_=0)),
            func.count(),
        )
        .where(numbered.c.age <= RELIABILITY_WINDOW)
        .group_by(numbered.c.player_id)
    )
    found = {player: (int(in_time) / owed, int(owed)) for player, in_time, owed in rows}
    return {player: found.get(player, (None, 0)) for player in player_ids}


class GameResult(TypedDict):
    """A person's result in a finished game, as its page shows it beside their name."""

    player_id: int
    rank: int
    rated: bool
    rating_change: float  # the shown rating's change (0 when not rated)
    ordinal: float  # the shown rating after the game
    bot_finished: bool


def game_results(game_id: int) -> dict[str, GameResult]:
    """Each person's result in the finished game `game_id` by the colours they held (none
    before it is rated)."""
    rows = reads.connection().execute(
        select(
            tables.seats.c.colour,
            tables.game_ratings.c.player_id,
            tables.game_ratings.c.rank,
            tables.game_ratings.c.rated,
            tables.game_ratings.c.bot_finished,
            tables.game_ratings.c.mu_before,
            tables.game_ratings.c.sigma_before,
            tables.game_ratings.c.mu_after,
            tables.game_ratings.c.sigma_after,
        )
        .select_from(
            tables.game_ratings.join(
                tables.seats,
                (tables.seats.c.game_id == tables.game_ratings.c.game_id)
                & (tables.seats.c.player_id == tables.game_ratings.c.player_id),
            )
        )
        .where(tables.game_ratings.c.game_id == game_id)
    )
    out: dict[str, GameResult] = {}
    for row in rows:
        change, after = _moved(row)
        out[row.colour] = {
            "player_id": row.player_id,
            "rank": row.rank,
            "rated": row.rated,
            "rating_change": change,
            "ordinal": after,
            "bot_finished": row.bot_finished,
        }
    return out


class SeatRecord(TypedDict):
    """A seat of a game with who holds it, as its page lists them beside their records."""

    colour: str
    player_id: int | None  # None: an open seat
    name: str
    bot: bool  # a house bot holds it
    rating: Rating | None  # a person's (None for a house bot or an open seat)
    reliability: float | None


def seat_records(game_id: int) -> list[SeatRecord]:
    """Each seat of a game in seat order, with its holder's rating and reliability."""
    rows = (
        reads.connection()
        .execute(
            select(
                tables.seats.c.colour,
                tables.seats.c.player_id,
                tables.seats.c.open,
                tables.players.c.name,
                is_person(tables.players.c.email).label("person"),
            )
            .select_from(
                tables.seats.join(tables.players, tables.players.c.id == tables.seats.c.player_id)
            )
            .where(tables.seats.c.game_id == game_id)
            .order_by(tables.seats.c.position)
        )
        .all()
    )
    people = sorted({row.player_id for row in rows if row.person and not row.open})
    shown = beside_names(people)
    out: list[SeatRecord] = []
    for row in rows:
        record = shown.get(row.player_id) if row.person and not row.open else None
        out.append(
            {
                "colour": row.colour,
                "player_id": None if row.open else row.player_id,
                "name": row.name,
                "bot": not row.person,
                "rating": record["rating"] if record else None,
                "reliability": record["reliability"] if record else None,
            }
        )
    return out
