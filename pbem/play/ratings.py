"""Ratings written: when a game finishes, each person's result in it (place, score) is kept and
their rating moved on by openskill's Plackett-Luce model, in the game's ending transaction;
and `rebuild`, which rates every finished game again, in the order they ended.

People are rated by their places among the people: house bots' seats are left out of
their update, as are the seats of anyone who never proved their address,
and a person's seat a bot finished (after their timeouts, or handed to it) is rated as it
finished, marked so. Places come from the final scores, a tie sharing a place, as the rules
give the win (`engine.winners`); in the two-colour variant each person's score is the rule's
(`engine.team_results`), a tie going to the one whose better colour scored more. Aborted,
abandoned and cancelled games are never rated: only a game the engine says is over.

A rating is not to be farmed by one person holding several accounts, so these rules decide
who is rated in a game (`rated`, per person; everyone keeps their result, and a person not
rated keeps their rating, before and after alike):

- A game whose players could ask the strong bot for hints (the option `hints`) is rated
  for nobody.
- A seat its holder left to a bot earns its holder nothing: when fewer than half of the
  seat's moves were their own (a bot's and a timeout's have no sender; orders they gave in
  advance are theirs), they are not rated, and the others are rated as if a house bot had
  held it.
- A game where one mailbox holds two seats (`pbem.addresses.mailbox`: `x+a@d` and `x+b@d`
  are one) is rated for nobody.
- A circle stops moving ratings: a game is rated for nobody when its rated people have had
  PBEM_RATED_GAMES_PER_CIRCLE (5) rated games already whose rated people all lie within this
  game's. One more account in the game reopens nothing (the circle's games lie within it
  too); a game with someone new in the place of one of them is another circle. Its
  trade-off: friends who only ever play one another stop moving their ratings after five
  games together, however well they play. Ratings are for play among many; the rule bounds
  what a few accounts can give one another, but does not end it (each set of them is a
  circle of its own), which the seat rule does for accounts that do not play.

Each house bot level (`engine.bots.LEVELS`) has a rating of its own (`bot_ratings`), moved
on by the games that rate people, in the same transaction, when a house bot held a seat in
them: a seat whose holder is a house bot (`bot-N@bots.invalid`: a bot's seat when the game
was made, or an open seat it started with), at the seat's level (the game's takeover bot's
when it names none). A person's seat a bot finished is the person's, never a bot's; a game
rated for nobody rates no bot. A bot's presence changes no person's rating: people are
rated among themselves exactly as without bot ratings, and each level is rated apart, by
the same model on the ranking of the rated people's sides and the bots' together, from the
people's ratings before the game, of which only the bots' new figures are kept
(`bots_moved_on`). So a level's rating says how it fares against rated people, on the
people's scale.

Each rule reads what stays as it was (the moves, the seats' holders and their addresses, the
results kept before), so `rebuild`, rating the games again in the order they ended, gives
the numbers rating each at its end gave.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from statistics import fmean
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, delete, distinct, exists, func, insert, select, text, update
from sqlalchemy.engine import Connection

import engine
from pbem.addresses import mailbox
from pbem.extensions import db
from pbem.game.ratings import HISTORY_POINTS, MODEL, PLAYER_COUNTS, ordinal
from pbem.game.states import hints_allowed, teaches
from pbem.play.house_bots import played_level
from pbem.store import tables
from pbem.store.counters import STANDINGS, raise_counter
from pbem.store.models import (
    is_person,
)
from pbem.store.queries import insert_or_else
from pbem.timing import policy

#: Each move of a game, in order: its colour, who sent it (null for a bot's or a timeout's)
#: and what it made happen.
_MOVES_IN_ORDER = (
    select(tables.moves.c.colour, tables.moves.c.player_id, tables.moves.c.events)
    .where(tables.moves.c.game_id == bindparam("game"))
    .order_by(tables.moves.c.seq)
)

#: Each seat's holder at the game's end with their address, whether they are a person (not a
#: house bot: `human`) and whether a person to rate: one who proved their address (followed
#: a link mailed to it, or answered from it). Anyone can name an address they do not hold;
#: a rating is kept for whoever shows it is theirs.
_HOLDERS = (
    select(
        tables.seats.c.colour,
        tables.seats.c.player_id,
        tables.seats.c.bot,
        tables.seats.c.bot_level,
        tables.players.c.email,
        is_person(tables.players.c.email).label("human"),
        (is_person(tables.players.c.email) & tables.players.c.email_proved_at.is_not(None)).label(
            "person"
        ),
    )
    .select_from(tables.seats.join(tables.players, tables.players.c.id == tables.seats.c.player_id))
    .where(tables.seats.c.game_id == bindparam("game"))
    .order_by(tables.seats.c.position)
)


@dataclass(frozen=True)
class Side:
    """What finishes in a place: one colour, or in the two-colour variant a person's pair."""

    colours: tuple[str, ...]
    score: int
    standing: tuple[int, ...]  # what orders the sides, the greater the better


@dataclass(frozen=True)
class Result:
    """A person's finish in the game."""

    player_id: int
    side: int  # its index among the sides
    rank: int  # 1: first; a tie shares the place
    score: int
    bot_finished: bool


def sides(state: engine.State) -> list[Side]:
    """The sides of a finished game with their final scores, by the rules' tie-break."""
    teams = engine.team_results(state)
    if teams:
        return [
            Side(tuple(t["colours"]), t["score"], (t["score"], t["best_colour"])) for t in teams
        ]
    return [Side((colour,), score, (score,)) for colour, score in engine.scores(state).items()]


def places(finished: list[Side]) -> list[int]:
    """Each side's place: 1 + how many sides did better (tied sides share a place)."""
    return [1 + sum(other.standing > side.standing for other in finished) for side in finished]


def results(finished: list[Side], holders: Sequence[Any]) -> list[Result]:
    """The people's results: each person once, on the side of their seats (a house bot's
    seats give no result)."""
    by_colour = {row.colour: row for row in holders}
    out: dict[int, Result] = {}
    for index, (side, place) in enumerate(zip(finished, places(finished), strict=True)):
        for colour in side.colours:
            seat = by_colour[colour]
            if not seat.person:
                continue
            earlier = out.get(seat.player_id)
            if earlier is not None and earlier.side != index:
                continue  # one person, two sides: no seating allows it; the first counts
            out[seat.player_id] = Result(
                player_id=seat.player_id,
                side=index,
                rank=place,
                score=side.score,
                bot_finished=seat.bot or (earlier is not None and earlier.bot_finished),
            )
    return sorted(out.values(), key=lambda r: r.player_id)


def left_to_bots(moves: Sequence[Any], holders: Sequence[Any]) -> set[int]:
    """The holders who made fewer than half of their seats' moves themselves (`moves`: each
    one's colour and sender; a bot's and a timeout's have none): they left their seats to
    bots. A seat with no move was left to nobody."""
    holder_of = {row.colour: row.player_id for row in holders}
    made: dict[int, int] = {}
    owed: dict[int, int] = {}
    for move in moves:
        holder = holder_of.get(move.colour)
        if holder is None:
            continue
        owed[holder] = owed.get(holder, 0) + 1
        made[holder] = made.get(holder, 0) + (move.player_id == holder)
    return {holder for holder, count in owed.items() if 2 * made[holder] < count}


def one_mailbox_twice(holders: Sequence[Any]) -> bool:
    """Whether two people's seats are delivered to one mailbox (`x+a@d` and `x+b@d`): one
    person may be behind both."""
    seen: dict[str, int] = {}
    for row in holders:
        if row.human and seen.setdefault(mailbox(row.email), row.player_id) != row.player_id:
            return True
    return False


def who_counts(found: list[Result], holders: Sequence[Any], moves: Sequence[Any]) -> list[Result]:
    """The results that may move ratings, before the circle is asked: none when one mailbox
    holds two seats; else those of the people who played their seats themselves, when they
    finished on two sides at least (someone alone against bots has no one to be rated by)."""
    if one_mailbox_twice(holders):
        return []
    away = left_to_bots(moves, holders)
    playing = [r for r in found if r.player_id not in away]
    return playing if len({r.side for r in playing}) >= 2 else []


def rate_game(connection: Connection, game_id: int, state: engine.State, ended: datetime) -> None:
    """Keep each person's result in the finished game `game_id` (`state`: its final state)
    and move the ratings of those it counts for on, in the caller's transaction. A second
    call for the same game breaks the unique (game, player) pair: a game is rated once."""
    holders = connection.execute(_HOLDERS, {"game": game_id}).all()
    finished = sides(state)
    found = results(finished, holders)
    if not found:
        return
    moves = connection.execute(_MOVES_IN_ORDER, {"game": game_id}).all()
    _count_card_plays(connection, moves, {r.colour: r.player_id for r in holders if r.person})
    players = len({row.player_id for row in holders})
    rated = [] if _hinted(connection, game_id) else who_counts(found, holders, moves)
    before, histories = _locked_ratings(
        connection, [r.player_id for r in found], ended, create=[r.player_id for r in rated]
    )
    # Asked once their rows are locked: a game of theirs ending meanwhile is counted in it.
    if rated and _circle_closed(connection, [r.player_id for r in rated]):
        rated = []
    after = {**before, **_moved_on(rated, before)}
    rated_ids = {r.player_id for r in rated}
    connection.execute(
        insert(tables.game_ratings),
        [
            {
                "game_id": game_id,
                "player_id": r.player_id,
                "players": players,
                "rank": r.rank,
                "score": r.score,
                "mu_before": before[r.player_id][0],
                "sigma_before": before[r.player_id][1],
                "mu_after": after[r.player_id][0],
                "sigma_after": after[r.player_id][1],
                "bot_finished": r.bot_finished,
                "rated": r.player_id in rated_ids,
                "rated_at": ended,
            }
            for r in found
        ],
    )
    if rated:
        moved = {r.player_id: after[r.player_id] for r in rated}
        _move_ratings_on(connection, before, moved, histories, players, ended)
        _rate_house_bots(connection, game_id, finished, holders, (rated, before), ended)
    # Their records changed: what their pages kept drawn is stale from this commit on.
    connection.execute(
        update(tables.players)
        .where(tables.players.c.id.in_(sorted(r.player_id for r in found)))
        .values(record_seq=tables.players.c.record_seq + 1)
    )


@dataclass(frozen=True)
class BotResult:
    """A house bot's finish in the game: a side its level held."""

    level: str
    side: int  # its index among the sides
    rank: int  # 1: first; a tie shares the place


def bot_results(finished: list[Side], holders: Sequence[Any], takeover: str) -> list[BotResult]:
    """The house bots' results: each side all of whose seats a house bot holds, at the
    seat's level (`takeover`, the game's takeover bot's, when it names none). A person's
    seat a bot finished is held by the person: it is theirs, not a bot's."""
    by_colour = {row.colour: row for row in holders}
    out = []
    for index, (side, place) in enumerate(zip(finished, places(finished), strict=True)):
        seats = [by_colour[colour] for colour in side.colours]
        if any(seat.human for seat in seats):
            continue
        out.append(BotResult(played_level(seats[0].bot_level or takeover), index, place))
    return out


def bots_moved_on(
    bots: list[BotResult],
    rated: list[Result],
    before: dict[int, tuple[float, float]],
    prior: dict[str, tuple[float, float]],
) -> dict[str, tuple[float, float]]:
    """Each level's (mu, sigma) after the game (`prior`: before it): the model's update on
    the ranking of the rated people's sides (from their ratings `before`) and the bots'
    together, each bot's side a team of one. Only the bots' figures are kept: the people's
    come from `_moved_on`, among themselves. A level holding several sides moves to their
    mean (the game counts once for it: its own seats beating one another say nothing)."""
    people = sorted({r.side for r in rated})
    members = [[r for r in rated if r.side == side] for side in people]
    teams = [[MODEL.rating(*before[r.player_id]) for r in team] for team in members]
    teams += [[MODEL.rating(*prior[bot.level])] for bot in bots]
    ranks = [float(team[0].rank) for team in members] + [float(bot.rank) for bot in bots]
    new = MODEL.rate(teams, ranks=ranks)[len(members) :]
    seats: dict[str, list[tuple[float, float]]] = {}
    for bot, [rating] in zip(bots, new, strict=True):
        seats.setdefault(bot.level, []).append((float(rating.mu), float(rating.sigma)))
    return {
        level: (fmean(mu for mu, _ in moved), fmean(sigma for _, sigma in moved))
        for level, moved in seats.items()
    }


def _rate_house_bots(
    connection: Connection,
    game_id: int,
    finished: list[Side],
    holders: Sequence[Any],
    people: tuple[list[Result], dict[int, tuple[float, float]]],
    ended: datetime,
) -> None:
    """Move on the rating of each house bot level that held a side in the game, against
    the rated people (`people`: their results, and their ratings before it)."""
    if all(row.human for row in holders):
        return
    timing = connection.execute(
        select(tables.games.c.timing).where(tables.games.c.id == game_id)
    ).scalar()
    bots = bot_results(finished, holders, policy.timing_of(timing)["takeover_bot"])
    if not bots:
        return  # no side is wholly a bot's
    prior = _locked_bot_ratings(connection, sorted({bot.level for bot in bots}), ended)
    after = bots_moved_on(bots, *people, prior)
    connection.execute(
        update(tables.bot_ratings)
        .where(tables.bot_ratings.c.level == bindparam("played"))
        .values(
            mu=bindparam("mu"),
            sigma=bindparam("sigma"),
            games=tables.bot_ratings.c.games + 1,
            updated_at=ended,
        ),
        [
            {"played": level, "mu": mu, "sigma": sigma}
            for level, (mu, sigma) in sorted(after.items())
        ],
    )


def _locked_bot_ratings(
    connection: Connection, levels: list[str], moment: datetime
) -> dict[str, tuple[float, float]]:
    """Each level's (mu, sigma) now, its row made at the model's prior if missing and locked
    (PostgreSQL) until the transaction ends: every game with a bot of the level ending meanwhile
    waits, as for a person in common. Locked after the people's rows, in the levels' order, as
    every game locks them: no two wait on each other."""
    connection.execute(
        insert_or_else(connection, tables.bot_ratings).on_conflict_do_nothing(
            index_elements=[tables.bot_ratings.c.level]
        ),
        [
            {"level": level, "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0, "updated_at": moment}
            for level in levels
        ],
    )
    rows = connection.execute(
        select(tables.bot_ratings.c.level, tables.bot_ratings.c.mu, tables.bot_ratings.c.sigma)
        .where(tables.bot_ratings.c.level.in_(levels))
        .order_by(tables.bot_ratings.c.level)
        .with_for_update()
    )
    return {row.level: (row.mu, row.sigma) for row in rows}


def _hinted(connection: Connection, game_id: int) -> bool:
    """Whether the game let its players ask for hints, or taught them (`learn`): then it is
    rated for nobody."""
    options = connection.execute(
        select(tables.games.c.options).where(tables.games.c.id == game_id)
    ).scalar()
    return hints_allowed(options) or teaches(options)


def _moved_on(
    rated: list[Result], before: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """Each rated person's (mu, sigma) after the game: the model's update on the ranking of
    their sides (the people of one side, a team)."""
    if not rated:
        return {}
    teams = sorted({r.side for r in rated})
    members = [[r for r in rated if r.side == side] for side in teams]
    priors = [[MODEL.rating(*before[r.player_id]) for r in team] for team in members]
    new = MODEL.rate(priors, ranks=[float(team[0].rank) for team in members])
    return {
        result.player_id: (float(rating.mu), float(rating.sigma))
        for team, rates in zip(members, new, strict=True)
        for result, rating in zip(team, rates, strict=True)
    }


def _circle_closed(connection: Connection, people: list[int]) -> bool:
    """Whether `people` have had PBEM_RATED_GAMES_PER_CIRCLE rated games already in which
    everyone rated was one of them (0: no limit)."""
    most = int(current_app.config["PBEM_RATED_GAMES_PER_CIRCLE"])
    if most <= 0:
        return False
    inside = tables.game_ratings.alias("inside")
    outside = tables.game_ratings.alias("outside")
    stranger = exists().where(
        outside.c.game_id == inside.c.game_id,
        outside.c.rated,
        outside.c.player_id.not_in(people),
    )
    games = (
        select(inside.c.game_id)
        .where(inside.c.rated, inside.c.player_id.in_(people), ~stranger)
        .distinct()
        .limit(most)
    )
    return len(connection.execute(games).all()) >= most


def card_plays(
    moves: Sequence[Any], people: dict[str, int]
) -> dict[tuple[int, str], tuple[int, int]]:
    """Each (person, action card): how often they chose it and the points their colour scored
    in those rounds, from a game's `moves` (who sent each, its events) in order. `people`:
    each person's colour. Only cards a person chose themselves count: a bot's choice for
    their seat (after timeouts) is not theirs."""
    totals: dict[tuple[int, str], tuple[int, int]] = {}
    chosen: dict[str, str] = {}  # this round's card of each colour
    gained: dict[str, int] = {}  # this round's points of each colour

    def close_round() -> None:
        for colour, card in chosen.items():
            plays, points = totals.get((people[colour], card), (0, 0))
            totals[(people[colour], card)] = (plays + 1, points + gained.get(colour, 0))
        chosen.clear()
        gained.clear()

    for sender, events in moves:
        for event in events or ():
            if event["type"] == "round_started":
                close_round()
            elif event["type"] == "card_chosen":
                colour = event["player"]
                if colour in people and sender == people[colour]:
                    chosen[colour] = event["card"]
            elif event["type"] == "score":
                gained[event["player"]] = gained.get(event["player"], 0) + event["points"]
    close_round()
    return totals


def _count_card_plays(connection: Connection, moves: Sequence[Any], people: dict[str, int]) -> None:
    """Add the finished game's card plays (`moves`: as `_MOVES_IN_ORDER` reads them) to each
    person's kept summary."""
    found = card_plays([(move.player_id, move.events) for move in moves], people)
    if not found:
        return
    statement = insert_or_else(connection, tables.card_plays)
    connection.execute(
        statement.on_conflict_do_update(
            index_elements=[tables.card_plays.c.player_id, tables.card_plays.c.card],
            set_={
                "plays": tables.card_plays.c.plays + statement.excluded.plays,
                "points": tables.card_plays.c.points + statement.excluded.points,
            },
        ),
        [
            {"player_id": player, "card": card, "plays": plays, "points": points}
            for (player, card), (plays, points) in sorted(found.items())
        ],
    )


def _locked_ratings(
    connection: Connection, player_ids: list[int], moment: datetime, *, create: Collection[int]
) -> tuple[dict[int, tuple[float, float]], dict[int, list[float]]]:
    """Each person's (mu, sigma) now, the model's prior for one never rated, and their kept
    rating history (empty before their first rated game). With some to `create` (those the
    game may rate), their rows are made if missing, and every row read is locked
    (PostgreSQL) until the transaction ends, in the players' order, so two games ending at
    once with a person in common rate one after the other instead of one overwriting the
    other's change."""
    if create:
        prior = {"mu": MODEL.mu, "sigma": MODEL.sigma, "ordinal": ordinal(MODEL.mu, MODEL.sigma)}
        counts = {"games": 0, **{f"games_{n}": 0 for n in PLAYER_COUNTS}}
        connection.execute(
            insert_or_else(connection, tables.player_ratings).on_conflict_do_nothing(
                index_elements=[tables.player_ratings.c.player_id]
            ),
            [{"player_id": p, **prior, **counts, "updated_at": moment} for p in sorted(create)],
        )
    query = (
        select(
            tables.player_ratings.c.player_id,
            tables.player_ratings.c.mu,
            tables.player_ratings.c.sigma,
            tables.player_ratings.c.history,
        )
        .where(tables.player_ratings.c.player_id.in_(player_ids))
        .order_by(tables.player_ratings.c.player_id)
    )
    if create:
        query = query.with_for_update()
    rows = connection.execute(query).all()
    found = {row.player_id: (row.mu, row.sigma) for row in rows}
    return (
        {p: found.get(p, (MODEL.mu, MODEL.sigma)) for p in player_ids},
        {row.player_id: row.history or [] for row in rows},
    )


def _move_ratings_on(
    connection: Connection,
    before: dict[int, tuple[float, float]],
    after: dict[int, tuple[float, float]],
    histories: dict[int, list[float]],
    players: int,
    moment: datetime,
) -> None:
    """Each person's new rating, one more rated game counted, and the shown rating after it
    added to their kept history (which starts at the one before their first)."""
    counted = {"games": tables.player_ratings.c.games + 1}
    if players in PLAYER_COUNTS:
        column = f"games_{players}"
        counted[column] = tables.player_ratings.c[column] + 1
    statement = (
        update(tables.player_ratings)
        .where(tables.player_ratings.c.player_id == bindparam("player"))
        .values(
            mu=bindparam("mu"),
            sigma=bindparam("sigma"),
            ordinal=bindparam("shown"),
            history=bindparam("history", type_=tables.player_ratings.c.history.type),
            updated_at=moment,
            **counted,
        )
    )
    rows = []
    for p, (mu, sigma) in sorted(after.items()):
        shown = ordinal(mu, sigma)
        history = _history_after(histories.get(p) or [ordinal(*before[p])], shown)
        rows.append({"player": p, "mu": mu, "sigma": sigma, "shown": shown, "history": history})
    connection.execute(statement, rows)


def _history_after(history: list[float], shown: float) -> list[float]:
    """A kept rating history with the rating after one more game: its last
    HISTORY_POINTS games and where it stood before the first of them."""
    return (history + [shown])[-(HISTORY_POINTS + 1) :]


#: Every finished game with the moment of its last move (when it ended), in that order.
_FINISHED_IN_ORDER = (
    select(tables.games.c.id, tables.moves.c.created_at)
    .select_from(
        tables.games.join(
            tables.moves,
            (tables.moves.c.game_id == tables.games.c.id)
            & (tables.moves.c.seq == tables.games.c.seq),
        )
    )
    .where(tables.games.c.status == "finished")
    .order_by(tables.moves.c.created_at, tables.games.c.id)
)


@dataclass(frozen=True)
class Rebuilt:
    """What `rebuild` did: the finished games rated again, the people left with a rating,
    the people seated in finished games who never proved their address (not rated), and
    the house bot levels left with a rating."""

    games: int
    people: int
    unproved: int
    bots: int = 0


#: The people seated in finished games who never proved their address.
_UNPROVED_IN_FINISHED = (
    select(func.count(distinct(tables.seats.c.player_id)))
    .select_from(
        tables.seats.join(tables.games, tables.games.c.id == tables.seats.c.game_id).join(
            tables.players, tables.players.c.id == tables.seats.c.player_id
        )
    )
    .where(
        tables.games.c.status == "finished",
        is_person(tables.players.c.email),
        tables.players.c.email_proved_at.is_(None),
    )
)


def rebuild() -> Rebuilt:
    """Forget every rating, people's and house bots', and rate every finished game again, in
    the order they ended (their last moves' moments), from their final states: the numbers
    rating each game as it ended gave. The caller commits.

    On PostgreSQL the ratings tables are locked meanwhile: a game ending during the rebuild
    waits for it, then is rated on top of it."""
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(
            text(
                "LOCK TABLE player_ratings, game_ratings, card_plays, bot_ratings IN EXCLUSIVE MODE"
            )
        )
    # Every record is written anew: none drawn before holds (the games rated again raise
    # their people's numbers too, but a person may have no result left).
    connection.execute(delete(tables.drawn_records))
    # The standings too (a rebuilt result may reuse a deleted one's id on SQLite).
    raise_counter(connection, STANDINGS)
    connection.execute(delete(tables.card_plays))
    connection.execute(delete(tables.game_ratings))
    connection.execute(delete(tables.player_ratings))
    connection.execute(delete(tables.bot_ratings))
    ended = connection.execute(_FINISHED_IN_ORDER).all()
    for game_id, moment in ended:
        stored = connection.execute(
            select(tables.games.c.state).where(tables.games.c.id == game_id)
        )
        rate_game(connection, game_id, engine.from_dict(stored.scalar_one(), copy=False), moment)
    people = connection.execute(
        select(func.count())
        .select_from(tables.player_ratings)
        .where(tables.player_ratings.c.games > 0)
    )
    bots = connection.execute(select(func.count()).select_from(tables.bot_ratings))
    return Rebuilt(
        len(ended),
        people.scalar_one(),
        connection.execute(_UNPROVED_IN_FINISHED).scalar_one(),
        bots.scalar_one(),
    )
