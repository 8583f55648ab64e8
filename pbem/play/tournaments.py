"""Tournaments: many tables of 3-5 over weeks. An organiser makes one (its format, table
size, rounds, the rules options and timing of its games, who may enter); players enter
until it is full or it starts (by its organiser, when full, or at its date); each round's
draw (`pbem.draws`) makes one game a table, made by the organiser and mailed to each
entrant with their table, seat, opponents and the round's deadline.

Never stalled: a round opens the next when its last game ends, or at its deadline
(`round_days` after it opened) whatever is still being played; a game still going then
counts when it ends. An entrant whose seat the house bot plays (after their timeouts, or
handed over), who leaves, or whom the organiser removes, is skipped from then on: drawn no
more, ranked below the others who played as many rounds, their seats played by the bot.

Scoring (`standings`): at each table, a point for each player one finished ahead of (a tie
shares it: half each), and as a tie-break the share of the table winner's score (1 for
the winner); summed over the rounds. Heats rank by the furthest round reached first.

Entering, leaving, starting and opening a round lock the tournament's row: of entries at
once for the last place, one wins and the others get 409. The caller commits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, TypedDict

from flask import current_app
from sqlalchemy import func, insert, select, update

import engine
from engine.data import COLOURS
from pbem import draws
from pbem.addresses import kept_address
from pbem.clock import now
from pbem.errors import Conflict, Forbidden, Invalid, NotFound
from pbem.extensions import db
from pbem.game import ratings
from pbem.game import tournaments as reading
from pbem.game.players import is_unreachable
from pbem.game.states import rules_options
from pbem.languages import N_
from pbem.notify import compose, game_mails
from pbem.play import apart, lifecycle, moderation, strangers
from pbem.store import tables
from pbem.store.models import Player, Tournament
from pbem.store.outage import is_outage
from pbem.store.queries import MAX_ID
from pbem.texts import kept_text
from pbem.timing import policy
from pbem.words.said import moment_said, said, seats_said

#: At most this many entrants in one tournament.
MOST_ENTRANTS = 200
#: At most this many rounds.
MOST_ROUNDS = 12


class TournamentAsked(TypedDict, total=False):
    """What an organiser asks for (`POST /api/tournaments`, the new tournament's page)."""

    title: str
    format: str
    table_size: int
    rounds: int
    options: dict[str, Any]
    timing: dict[str, Any]
    entry: dict[str, Any]  # most, min_reliability, min_rating, invited
    round_days: int
    starts_at: datetime | None


# --- made, entered, left ----------------------------------------------------------------------


def create(organiser: Player, asked: TournamentAsked) -> Tournament:
    """A tournament, open for entries; Invalid says what to mend."""
    title = kept_text(asked.get("title", ""), "title")
    strangers.check_words(title, [])
    fmt = asked.get("format", "swiss")
    if fmt not in draws.FORMATS:
        raise Invalid(
            N_("A tournament's format is swiss, groups or heats, not %(format)s."),
            code="tournament-format",
            format=str(fmt)[:20],
        )
    size, rounds = int(asked.get("table_size", 4)), int(asked.get("rounds", 3))
    if not 3 <= size <= 5 or not 1 <= rounds <= MOST_ROUNDS:
        raise Invalid(
            N_("A tournament seats 3 to 5 at a table and plays 1 to %(most)s rounds."),
            code="tournament-size",
            most=MOST_ROUNDS,
        )
    options = dict(asked.get("options") or {})
    try:  # the engine refuses what it cannot set up, now rather than at round 1
        engine.new_game(list(COLOURS[:size]), seed=0, options=rules_options(options))
    except (ValueError, engine.IllegalMove) as error:
        raise Invalid(
            N_("The engine cannot set up this game: %(error)s"),
            code="engine-cannot-set-up",
            error=error,
        ) from None
    tournament = Tournament(
        title=title.strip(),
        organiser_id=organiser.id,
        format=fmt,
        table_size=size,
        rounds=rounds,
        options=options,
        timing=dict(policy.timing_of(asked.get("timing") or {})),
        entry=_checked_entry(asked.get("entry") or {}, size),
        round_days=int(asked.get("round_days") or 21),
        starts_at=asked.get("starts_at"),
        status="open",
        current_round=0,
        created_at=now(),
    )
    db.session.add(tournament)
    db.session.flush()
    return tournament


def _checked_entry(entry: Mapping[str, Any], size: int) -> dict[str, Any]:
    most = int(entry.get("most") or MOST_ENTRANTS)
    if not 3 <= most <= MOST_ENTRANTS:
        raise Invalid(
            N_("A tournament takes 3 to %(most)s entrants."),
            code="tournament-entrants",
            most=MOST_ENTRANTS,
        )
    invited = sorted({kept_address(e) for e in entry.get("invited") or []})
    kept: dict[str, Any] = {"most": most, "invited": invited}
    for name in ("min_reliability", "min_rating"):
        if entry.get(name) is not None:
            kept[name] = float(entry[name])
    return kept


def _locked(tournament_id: int) -> Tournament:
    """The tournament, its row locked until the transaction ends (one decision at a time)."""
    if not 0 < tournament_id <= MAX_ID:
        raise _no_tournament(tournament_id)
    found: Tournament | None = db.session.execute(
        db.select(Tournament).where(Tournament.id == tournament_id).with_for_update()
    ).scalar_one_or_none()
    if found is None:
        raise _no_tournament(tournament_id)
    return found


def _no_tournament(tournament_id: int) -> NotFound:
    return NotFound(
        N_("There is no tournament %(id)s; GET /api/tournaments lists them."),
        code="no-such-tournament",
        id=tournament_id,
    )


def enter(player: Player, tournament_id: int) -> int:
    """`player` enters; how many have entered now. Refused: closed or full (409), not
    invited or short of a minimum (403). Starts it when this entry fills it and it has no
    date of its own."""
    tournament = _locked(tournament_id)
    connection = db.session.connection()
    entries = tables.tournament_entries.c
    if tournament.status != "open":
        raise Conflict(
            N_("Tournament %(id)s is no longer taking entries."),
            code="tournament-closed",
            id=tournament_id,
        )
    count = connection.execute(
        select(func.count()).where(entries.tournament_id == tournament_id)
    ).scalar_one()
    already = connection.execute(
        select(entries.player_id).where(
            entries.tournament_id == tournament_id, entries.player_id == player.id
        )
    ).first()
    if already is not None:
        raise Conflict(
            N_("You have entered tournament %(id)s already."),
            code="entered-already",
            id=tournament_id,
        )
    if count >= tournament.entry["most"]:
        raise Conflict(
            N_("Tournament %(id)s is full (%(most)s entrants)."),
            code="tournament-full",
            id=tournament_id,
            most=tournament.entry["most"],
        )
    rating = _admitted(tournament, player)
    connection.execute(
        insert(tables.tournament_entries).values(
            tournament_id=tournament_id,
            player_id=player.id,
            entered_at=now(),
            rating_at_entry=rating,
        )
    )
    if count + 1 == tournament.entry["most"] and tournament.starts_at is None:
        _start(tournament)
    return int(count + 1)


def _admitted(tournament: Tournament, player: Player) -> float:
    """The player's shown rating, once they may enter (else Forbidden, saying why)."""
    if is_unreachable(player.email):
        raise Forbidden(N_("A house bot enters no tournament."), code="bot-enters-nothing")
    moderation.refuse_kept_away(player)
    invited = tournament.entry.get("invited") or []
    if invited and player.email not in invited:
        raise Forbidden(
            N_("Tournament %(id)s is for the players its organiser invited."),
            code="tournament-invited-only",
            id=tournament.id,
        )
    record = ratings.player_record(player.id)
    rating, reliability = record["rating"]["ordinal"], record["reliability"]
    least = tournament.entry.get("min_rating")
    if least is not None and rating < least:
        raise Forbidden(
            N_("Tournament %(id)s is for players rated at least %(needed)s; yours is %(yours)s."),
            code="tournament-needs-rating",
            id=tournament.id,
            needed=f"{least:.1f}",
            yours=f"{rating:.1f}",
        )
    steady = tournament.entry.get("min_reliability")
    if steady is not None and (reliability is None or reliability < steady):
        raise Forbidden(
            N_(
                "Tournament %(id)s is for players who answer at least %(needed)s%% of their "
                "decisions in time."
            ),
            code="tournament-needs-reliability",
            id=tournament.id,
            needed=round(steady * 100),
        )
    return float(rating)


def leave(player: Player, tournament_id: int, *, by: Player | None = None) -> None:
    """`player` leaves (or, `by` its organiser, is removed): before the start their entry
    goes; after it they are skipped from now on and the house bot plays their seats."""
    tournament = _locked(tournament_id)
    if by is not None and by.id != tournament.organiser_id:
        raise Forbidden(
            N_("Only the organiser of tournament %(id)s may remove an entrant."),
            code="not-the-organiser",
            id=tournament_id,
        )
    connection = db.session.connection()
    entries = tables.tournament_entries.c
    mine = (entries.tournament_id == tournament_id) & (entries.player_id == player.id)
    if tournament.status == "open":
        connection.execute(tables.tournament_entries.delete().where(mine))
        return
    why = "removed" if by is not None else "left"
    connection.execute(
        update(tables.tournament_entries)
        .where(mine, entries.skipped_at.is_(None))
        .values(skipped_at=now(), skipped_why=why)
    )
    for game_id, colour in _seats_in_play(tournament_id, player.id):
        if by is None:
            lifecycle.set_bot(player, game_id, colour, True)
        else:
            lifecycle.seat_to_bot(by, game_id, colour)


def _seats_in_play(tournament_id: int, player_id: int) -> list[tuple[int, str]]:
    """The player's seats in the tournament's games still being played."""
    seats, games, tt = tables.seats.c, tables.games.c, tables.tournament_tables.c
    rows = db.session.execute(
        select(seats.game_id, seats.colour)
        .select_from(
            tables.tournament_tables.join(tables.games, games.id == tt.game_id).join(
                tables.seats, seats.game_id == games.id
            )
        )
        .where(
            tt.tournament_id == tournament_id,
            games.status == "active",
            seats.player_id == player_id,
            ~seats.bot,
        )
        .order_by(seats.game_id)
    ).all()
    return [(row.game_id, row.colour) for row in rows]


# --- started, rounds opened, games ended -----------------------------------------------------


def start(organiser: Player, tournament_id: int) -> Tournament:
    """Its organiser starts it now: round 1 is drawn and its games begin."""
    tournament = _locked(tournament_id)
    if organiser.id != tournament.organiser_id:
        raise Forbidden(
            N_("Only the organiser of tournament %(id)s may start it."),
            code="not-the-organiser-to-start",
            id=tournament_id,
        )
    if tournament.status != "open":
        raise Conflict(
            N_("Tournament %(id)s has started already."), code="started-already", id=tournament_id
        )
    _start(tournament)
    return tournament


def _start(tournament: Tournament) -> None:
    entrants = _entrants(tournament.id)
    if len(entrants) < 3:
        raise Conflict(
            N_("A tournament needs 3 entrants at least to start; %(id)s has %(count)s."),
            code="too-few-entrants",
            id=tournament.id,
            count=len(entrants),
        )
    tournament.status = "running"
    if tournament.format == "groups":
        tournament.pools = draws.pools_for(entrants, tournament.table_size)
    _open_round(tournament, 1)


def _entrants(tournament_id: int, *, playing: bool = True) -> list[draws.Entrant]:
    """The entrants as the draw reads them (their points, tie-break, seeding, opponents met
    and seats held), the skipped left out when `playing`."""
    entries = tables.tournament_entries.c
    query = select(entries.player_id, entries.rating_at_entry).where(
        entries.tournament_id == tournament_id
    )
    if playing:
        query = query.where(entries.skipped_at.is_(None))
    rows = db.session.execute(query.order_by(entries.player_id)).all()
    history = reading.history(tournament_id)
    return [
        draws.Entrant(
            id=row.player_id,
            points=history.points.get(row.player_id, 0.0),
            tiebreak=history.tiebreak.get(row.player_id, 0.0),
            rating=row.rating_at_entry,
            met=dict(history.met.get(row.player_id, {})),
            seats=tuple(history.seats.get(row.player_id, ())),
        )
        for row in rows
    ]


def _open_round(tournament: Tournament, number: int) -> None:
    """Draw round `number` and begin its games; past the last round, the tournament ends.
    Those a bot played for, and those suspended or banned, are skipped first; two who keep
    apart (a block) are seated at different tables wherever a swap allows it
    (`draws.kept_apart`), and seated together otherwise rather than the round not opening:
    their games are made without the seating's refusals, which would refuse the move or
    the sweep that opens the round."""
    _skip_those_bots_play(tournament.id)
    _skip_those_kept_away(tournament.id)
    entrants = _entrants(tournament.id)
    if number > tournament.rounds or len(entrants) < 3:
        tournament.status, tournament.round_due_at = "finished", None
        return
    drawn = _drawn(tournament, entrants, number)
    everyone = [p for table in drawn.tables for p in table]
    seated = draws.kept_apart(drawn.tables, apart.kept_apart(db.session.connection(), everyone))
    organiser = db.session.get(Player, tournament.organiser_id)
    assert organiser is not None  # a tournament's organiser is a player
    emails = _emails(everyone)
    due = now() + timedelta(days=tournament.round_days)
    for index, table in enumerate(seated, start=1):
        colours = list(COLOURS[: len(table)])
        game = lifecycle.create_game(
            organiser,
            f"{tournament.title} · {number}.{index}",
            [{"email": emails[p], "colour": c} for p, c in zip(table, colours, strict=True)],
            options=tournament.options,
            timing=tournament.timing,
            capped=False,  # its entrants asked for these games by entering
            seated_creator=False,
            refuse_kept_apart=False,  # settled above: a round always opens
        )
        db.session.execute(
            insert(tables.tournament_tables).values(
                tournament_id=tournament.id,
                round=number,
                number=index,
                game_id=game.id,
                players=list(table),
            )
        )
        _mail_the_draw(tournament, game, number, index, due)
    tournament.current_round, tournament.round_due_at = number, due


def _drawn(tournament: Tournament, entrants: list[draws.Entrant], number: int) -> draws.Draw:
    """Round `number`'s draw. Heats whose field (after those skipped) can no longer come to
    one final table in the rounds left are seated as a Swiss round instead: a round opens
    whatever the numbers, since it opens inside the transaction of a game's last move."""
    previous = _last_tables(tournament.id, number - 1)
    pools = previous if tournament.format == "heats" else tournament.pools
    try:
        return draws.draw_round(
            tournament.format,
            entrants,
            tournament.table_size,
            number - 1,
            tournament.rounds,
            pools=pools,
            seed=tournament.id,
        )
    except ValueError:
        return draws.draw_round("swiss", entrants, tournament.table_size, 0, 1, seed=tournament.id)


def _last_tables(tournament_id: int, number: int) -> list[list[int]] | None:
    """Round `number`'s tables (its players in seat order): whom heats send on from."""
    if number < 1:
        return None
    tt = tables.tournament_tables.c
    rows = db.session.execute(
        select(tt.players)
        .where(tt.tournament_id == tournament_id, tt.round == number)
        .order_by(tt.number)
    ).scalars()
    return [list(players) for players in rows]


def _emails(player_ids: Sequence[int]) -> dict[int, str]:
    rows = db.session.execute(
        select(tables.players.c.id, tables.players.c.email).where(
            tables.players.c.id.in_(sorted(set(player_ids)))
        )
    ).all()
    return {row.id: row.email for row in rows}


def _skip_those_bots_play(tournament_id: int) -> None:
    """Entrants whose seat in one of the tournament's games the house bot plays (their
    timeouts, or handed over) are skipped from now on."""
    seats, tt, entries = tables.seats.c, tables.tournament_tables.c, tables.tournament_entries.c
    botted = (
        select(seats.player_id)
        .select_from(tables.tournament_tables.join(tables.seats, seats.game_id == tt.game_id))
        .where(tt.tournament_id == tournament_id, seats.bot)
    )
    db.session.execute(
        update(tables.tournament_entries)
        .where(
            entries.tournament_id == tournament_id,
            entries.skipped_at.is_(None),
            entries.player_id.in_(botted),
        )
        .values(skipped_at=now(), skipped_why="timeout")
    )


def _skip_those_kept_away(tournament_id: int) -> None:
    """Entrants suspended or banned are skipped from now on: no table waits on a seat its
    holder may not play."""
    entries = tables.tournament_entries.c
    playing = db.session.execute(
        select(entries.player_id).where(
            entries.tournament_id == tournament_id, entries.skipped_at.is_(None)
        )
    ).scalars()
    away = moderation.kept_away(db.session.connection(), list(playing))
    if away:
        db.session.execute(
            update(tables.tournament_entries)
            .where(entries.tournament_id == tournament_id, entries.player_id.in_(sorted(away)))
            .where(entries.skipped_at.is_(None))
            .values(skipped_at=now(), skipped_why="suspended")
        )


def _mail_the_draw(
    tournament: Tournament, game: Any, number: int, table: int, due: datetime
) -> None:
    """Each player at the table told of the round's draw: their table, its seats and
    players, and when the next round opens anyway."""
    seated = seats_said([(s.colour, s.player.name) for s in game.seats])
    lines = [
        said(
            N_(
                "Round %(round)s of %(rounds)s of %(title)s is drawn: you play at table "
                "%(table)s, game %(game)s."
            ),
            round=number,
            rounds=tournament.rounds,
            title=tournament.title,
            table=table,
            game=game.id,
        ),
        said(N_("At the table, in seat order: %(seats)s."), seats=seated),
        said(
            N_(
                "The next round opens when every game of this one has ended, or on %(when)s "
                "whatever is still being played."
            ),
            when=moment_said(due),
        ),
        said(
            N_("The standings and every table: %(link)s"),
            link=f"{compose.base_url()}/tournaments/{tournament.id}",
        ),
    ]
    game_mails.notice(
        db.session.connection(),
        game=game,
        subject=said(N_("round %(round)s drawn"), round=number),
        lines=lines,
    )


def remove_entrant(organiser: Player, tournament_id: int, player_id: int) -> None:
    """The organiser removes an entrant: skipped from now on, as one who left."""
    player = db.session.get(Player, player_id) if 0 < player_id <= MAX_ID else None
    if player is None:
        raise NotFound(
            N_("There is no player %(player)s."), code="no-such-player", player=player_id
        )
    leave(player, tournament_id, by=organiser)


def game_ended(game_id: int, state: engine.State) -> None:
    """A game ended: if it is a tournament's, its table's result is kept, and if it was the
    round's last, the next round opens (or the tournament ends). Called in the game's
    ending transaction."""
    tt = tables.tournament_tables.c
    row = db.session.execute(
        select(tt.id, tt.tournament_id, tt.round).where(tt.game_id == game_id)
    ).first()
    if row is None:
        return
    tournament = _locked(row.tournament_id)
    scores = engine.scores(state)
    colours = list(COLOURS[: len(scores)])
    table_scores = [int(scores[c]) for c in colours]
    db.session.execute(
        update(tables.tournament_tables)
        .where(tt.id == row.id)
        .values(
            scores=table_scores,
            places=draws.place_points(table_scores),
            shares=draws.winner_shares(table_scores),
        )
    )
    waiting = db.session.execute(
        select(func.count()).where(
            tt.tournament_id == row.tournament_id,
            tt.round == tournament.current_round,
            tt.places.is_(None),
        )
    ).scalar_one()
    if tournament.status == "running" and row.round == tournament.current_round and not waiting:
        _open_round_in_savepoint(tournament, tournament.current_round + 1)


def due_now(moment: datetime | None = None) -> list[str]:
    """What the sweep does for tournaments: start those whose date came, and open the next
    round of those whose round's deadline passed. One line per action."""
    moment = moment or now()
    t = tables.tournaments.c
    lines = []
    starting = db.session.execute(
        select(t.id).where(t.status == "open", t.starts_at <= moment)
    ).scalars()
    for tournament_id in list(starting):
        tournament = _locked(tournament_id)
        if tournament.status == "open":
            try:
                with db.session.begin_nested():
                    _start(tournament)
            except Conflict:
                tournament.status = "cancelled"  # too few entered by its date
            except Exception as error:
                _not_opened(tournament, 1, error)  # tried again at the next sweep
            lines.append(f"tournament {tournament_id}: {tournament.status}")
    late = db.session.execute(
        select(t.id).where(t.status == "running", t.round_due_at <= moment)
    ).scalars()
    for tournament_id in list(late):
        tournament = _locked(tournament_id)
        due = tournament.round_due_at
        if tournament.status == "running" and due is not None and due <= moment:
            _open_round_in_savepoint(tournament, tournament.current_round + 1)
            lines.append(f"tournament {tournament_id}: round {tournament.current_round}")
    return lines


#: How long a round that failed to open waits before the sweep tries it again.
RETRY_OPENING = timedelta(hours=1)


def _open_round_in_savepoint(tournament: Tournament, number: int) -> None:
    """Open round `number` in a savepoint of its own: whatever goes wrong in it (a bug met in
    a draw) is logged, and the sweep tries the round again in `RETRY_OPENING`, while the move
    that ended the round before it stands, and the sweep's other work goes on."""
    try:
        with db.session.begin_nested():
            _open_round(tournament, number)
    except Exception as error:
        _not_opened(tournament, number, error)
        tournament.round_due_at = now() + RETRY_OPENING


def _not_opened(tournament: Tournament, number: int, error: Exception) -> None:
    if is_outage(error):
        raise error  # the database away: the whole transaction is tried again, as any other
    current_app.logger.error(
        "tournament %s: round %s did not open", tournament.id, number, exc_info=error
    )
