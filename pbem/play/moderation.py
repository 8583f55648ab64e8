"""Moderation: players report a line of talk, a name or a title into the operator's queue;
operators (at `pbem moderation` or on the operator's page) warn, suspend, ban and lift, each
action logged with who did it and why, and the player told by mail.

A player kept away (suspended until a moment, or banned) cannot sign in (every session of
theirs ends, their API key stops working, no link or new key signs them in), play or talk
(their mail is answered, not played), or be invited or seated; their seats in games under
way are played by the house bot, and their words to the table are hidden while it lasts.
A suspension given without a length escalates, as lichess's play bans do but in days for
games over weeks: `SUSPENSION_DAYS`, one step further for each suspension before.

The caller commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.engine import Connection

from pbem.clock import now
from pbem.errors import Conflict, Forbidden, Invalid, NotFound, TooMany
from pbem.extensions import db
from pbem.game.games import locked_game
from pbem.game.players import is_unreachable
from pbem.languages import N_, later, moment_text
from pbem.notify import account_mails, game_mails
from pbem.play import chain
from pbem.store import limits, tables
from pbem.store.models import Player
from pbem.store.queries import MAX_ID
from pbem.texts import invisible
from pbem.timing import deadlines
from pbem.words.said import colour_said, said

#: What can be reported, and what its id names.
KINDS = ("talk", "name", "title")
#: A suspension's days when none is given: the first, the second, ... (the last repeats).

SUSPENSION_DAYS = (3, 7, 30, 90)
#: Reports one player may make a day: enough for a bad day, too few to flood the queue.
REPORTS_PER_DAY = 10
#: A report's reason is at most this long.
LONGEST_REASON = 1000
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Filed:
    """A report as kept: its number, and whether it was already in the queue."""

    id: int
    again: bool


def kept_away(connection: Connection, player_ids: Sequence[int]) -> set[int]:
    """Which of the players are suspended now or banned."""
    if not player_ids:
        return set()
    players = tables.players.c
    return set(
        connection.execute(
            select(players.id).where(
                players.id.in_(sorted(set(player_ids))),
                or_(players.banned_at.is_not(None), players.suspended_until > now()),
            )
        ).scalars()
    )


def refusal(player: Player) -> Forbidden | None:
    """Why `player` may not sign in, play or talk now (`suspended` or `banned`), or None."""
    if player.banned_at is not None:
        return Forbidden(
            N_("This account is closed: its holder may no longer play here."), code="banned"
        )
    if player.suspended_until is not None and player.suspended_until > now():
        return Forbidden(
            N_(
                "This account is suspended until %(until)s: its holder may not sign in, play "
                "or talk here before then. The mail that told them says why."
            ),
            code="suspended",
            until=later(moment_text, player.suspended_until),
        )
    return None


def refuse_kept_away(player: Player) -> None:
    """Raise `refusal(player)`, if there is one."""
    refused = refusal(player)
    if refused is not None:
        raise refused


# --- reports ---------------------------------------------------------------------------------


def report(reporter: Player, kind: str, target_id: int, reason: Any) -> Filed:
    """`reporter` reports a line of talk (`talk`: its id, at a table they sit at), a player's
    name (`name`: the player's id) or a game's title (`title`: the game's id) with `reason`;
    the same report again, while the first waits, is the first."""
    if kind not in KINDS:
        raise Invalid(
            N_('A report is of "talk", a "name" or a "title", not "%(kind)s".'),
            code="report-kind",
            kind=str(kind)[:20],
        )
    reason = _checked_reason(reason)
    connection = db.session.connection()
    subject_id, game_id, text = _reported(connection, reporter.id, kind, target_id)
    if subject_id == reporter.id:
        raise Invalid(N_("That is your own: there is nothing to report."), code="report-own")
    reports = tables.reports.c
    waiting = connection.execute(
        select(reports.id).where(
            reports.reporter_id == reporter.id,
            reports.kind == kind,
            reports.target_id == target_id,
            reports.closed_at.is_(None),
        )
    ).scalar()
    if waiting is not None:
        return Filed(waiting, again=True)
    moment = now()
    if not limits.take(connection, f"reports:player:{reporter.id}", REPORTS_PER_DAY, DAY, moment):
        raise TooMany(
            N_(
                "You have made %(most)s reports today, as many as one player may; the "
                "moderators read every one. Report again tomorrow."
            ),
            code="too-many-reports",
            most=REPORTS_PER_DAY,
            retry_after=int(DAY.total_seconds()),
        )
    filed = connection.execute(
        insert(tables.reports)
        .values(
            reporter_id=reporter.id,
            kind=kind,
            target_id=target_id,
            subject_id=subject_id,
            game_id=game_id,
            text=text,
            reason=reason,
            created_at=moment,
        )
        .returning(reports.id)
    ).scalar_one()
    return Filed(filed, again=False)


def _checked_reason(reason: Any) -> str:
    if reason is None:
        return ""
    if not isinstance(reason, str):
        raise Invalid(N_("A report's reason is words, a string."), code="report-reason-not-text")
    words = reason.replace("\r\n", "\n").strip()
    if (
        len(words) > LONGEST_REASON
        or (bool(words) and invisible(words))
        or any(ord(c) < 32 and c not in "\n\t" for c in words)
    ):
        raise Invalid(
            N_(
                "Say why in at most %(most)s characters of plain text (or say nothing: the "
                "moderators read what you report)."
            ),
            code="report-reason",
            most=LONGEST_REASON,
        )
    return words


def reported_text(reporter_id: int, kind: str, target_id: int) -> str:
    """The words a report of `kind` and `target_id` would send, as `reporter_id` may see
    them (the report's page shows them); NotFound as `report` refuses."""
    return _reported(db.session.connection(), reporter_id, kind, target_id)[2]


def _reported(
    connection: Connection, reporter_id: int, kind: str, target_id: int
) -> tuple[int, int | None, str]:
    """Who is reported, in which game, and the words reported; NotFound for what the
    reporter cannot see (another table's talk is not theirs to read)."""
    if kind == "talk":
        talk = tables.table_talk.c
        line = connection.execute(
            select(talk.player_id, talk.game_id, talk.text)
            .select_from(
                tables.table_talk.join(tables.seats, tables.seats.c.game_id == talk.game_id)
            )
            .where(talk.id == target_id, tables.seats.c.player_id == reporter_id)
            .limit(1)
        ).first()
        if line is None:
            raise NotFound(
                N_("There is no word %(id)s at a table you sit at."),
                code="no-such-talk",
                id=target_id,
            )
        return line.player_id, line.game_id, line.text
    if kind == "name":
        named = connection.execute(
            select(tables.players.c.id, tables.players.c.name, tables.players.c.email).where(
                tables.players.c.id == target_id
            )
        ).first()
        if named is None or is_unreachable(named.email):
            raise NotFound(
                N_("There is no player %(player)s."), code="no-such-player", player=target_id
            )
        return named.id, None, named.name
    game = connection.execute(
        select(tables.games.c.creator_id, tables.games.c.title).where(
            tables.games.c.id == target_id
        )
    ).first()
    if game is None:
        raise NotFound(
            N_("There is no game %(game)s; GET /api/games lists yours."),
            code="no-such-game",
            game=target_id,
        )
    return game.creator_id, target_id, game.title


def waiting_reports(limit: int = 100) -> list[Any]:
    """The reports not yet closed, the oldest first, with the reporter's and the reported
    player's names, and how many reports name the reported player in all."""
    reports, players = tables.reports.c, tables.players
    reporter, subject = players.alias("reporter"), players.alias("subject")
    other = tables.reports.alias("other")
    counted = (
        select(func.count())
        .select_from(other)
        .where(other.c.subject_id == reports.subject_id)
        .correlate(tables.reports)
        .scalar_subquery()
    )
    query = (
        select(
            reports.id,
            reports.kind,
            reports.target_id,
            reports.game_id,
            reports.text,
            reports.reason,
            reports.created_at,
            reports.subject_id,
            subject.c.name.label("subject_name"),
            subject.c.suspended_until,
            subject.c.banned_at,
            reports.reporter_id,
            reporter.c.name.label("reporter_name"),
            counted.label("reports_of_subject"),
        )
        .select_from(
            tables.reports.join(subject, subject.c.id == reports.subject_id).join(
                reporter, reporter.c.id == reports.reporter_id
            )
        )
        .where(reports.closed_at.is_(None))
        .order_by(reports.id)
        .limit(limit)
    )
    return list(db.session.connection().execute(query).all())


def actions_of(player_id: int) -> list[Any]:
    """What operators did to the player, the latest first."""
    actions = tables.moderation_actions.c
    return list(
        db.session.connection()
        .execute(
            select(tables.moderation_actions)
            .where(actions.player_id == player_id)
            .order_by(actions.id.desc())
        )
        .all()
    )


def recent_actions(limit: int) -> list[Any]:
    """The last actions operators took, the latest first, with the player's name."""
    actions = tables.moderation_actions
    query = (
        select(actions, tables.players.c.name)
        .select_from(actions.join(tables.players, tables.players.c.id == actions.c.player_id))
        .order_by(actions.c.id.desc())
        .limit(limit)
    )
    return list(db.session.connection().execute(query).all())


# --- what operators do -----------------------------------------------------------------------


def act(
    player_id: int,
    action: str,
    *,
    reason: str,
    moderator: str,
    days: int | None = None,
    report_id: int | None = None,
) -> Any:
    """An operator's `action` on the player (warn, suspend, ban, lift; dismiss closes a
    report and does nothing to anyone), logged with `moderator` and `reason`; a report
    named is closed by it. The action's log row."""
    if not reason.strip():
        raise Invalid(
            N_("Say why: every moderation is logged with its reason."), code="moderation-reason"
        )
    player = db.session.get(Player, player_id, with_for_update=True)
    if player is None or is_unreachable(player.email):
        raise NotFound(
            N_("There is no player %(player)s."), code="no-such-player", player=player_id
        )
    moment = now()
    until = None
    if action == "suspend":
        days = days or _next_suspension_days(player_id)
        until = moment + timedelta(days=days)
        player.suspended_until = until
        _keep_away(player)
    elif action == "ban":
        player.banned_at = moment
        _keep_away(player)
    elif action == "lift":
        if player.banned_at is None and not (
            player.suspended_until and player.suspended_until > moment
        ):
            raise Conflict(
                N_("%(name)s is neither suspended nor banned."),
                code="not-kept-away",
                name=player.name,
            )
        player.banned_at = player.suspended_until = None
    elif action not in ("warn", "dismiss"):
        raise Invalid(
            N_("Unknown action %(action)s."), code="moderation-action", action=action[:20]
        )
    connection = db.session.connection()
    logged = connection.execute(
        insert(tables.moderation_actions)
        .values(
            player_id=player_id,
            action=action,
            days=days if action == "suspend" else None,
            until=until,
            reason=reason.strip(),
            moderator=moderator[:200],
            report_id=report_id,
            created_at=moment,
        )
        .returning(*tables.moderation_actions.c)
    ).one()
    if report_id is not None:
        connection.execute(
            update(tables.reports)
            .where(tables.reports.c.id == report_id, tables.reports.c.closed_at.is_(None))
            .values(closed_at=moment)
        )
    if action != "dismiss":
        account_mails.queue_moderation_mail(connection, player, action, until, reason.strip())
    return logged


def _next_suspension_days(player_id: int) -> int:
    """The next step of `SUSPENSION_DAYS` for the player: one further for each before."""
    before = (
        db.session.connection()
        .execute(
            select(func.count()).where(
                tables.moderation_actions.c.player_id == player_id,
                tables.moderation_actions.c.action == "suspend",
            )
        )
        .scalar_one()
    )
    return SUSPENSION_DAYS[min(before, len(SUSPENSION_DAYS) - 1)]


def _keep_away(player: Player) -> None:
    """The player is signed out everywhere, their key stops working, their orders given in
    advance are forgotten, and the house bot plays their seats in games under way (the
    others are told, as when a player hands a seat over)."""
    player.session_epoch = (player.session_epoch or 0) + 1
    player.api_key_hash = None
    connection = db.session.connection()
    playing = connection.execute(
        select(tables.seats.c.game_id, tables.seats.c.colour)
        .select_from(tables.seats.join(tables.games, tables.games.c.id == tables.seats.c.game_id))
        .where(tables.seats.c.player_id == player.id, tables.games.c.status == "active")
        .order_by(tables.seats.c.game_id, tables.seats.c.position)
    ).all()
    for game_id in sorted({row.game_id for row in playing}):
        game = locked_game(game_id)
        colours = [row.colour for row in playing if row.game_id == game_id]
        for seat in game.seats:
            if seat.colour in colours:
                seat.bot, seat.timeouts = True, 0
        db.session.flush()
        chain.forget(connection, game_id, colours)
        deadlines.recompute(connection, game_id, game.timing)
        for colour in colours:
            game_mails.notice(
                connection,
                game=game,
                subject=said(N_("a bot now plays %(colour)s"), colour=colour_said(colour)),
                lines=[
                    said(
                        N_(
                            "%(name)s may not play here for now: a house bot plays %(colour)s "
                            "in their place."
                        ),
                        name=player.name,
                        colour=colour_said(colour),
                    )
                ],
                skip_player=player.id,
            )


def set_operator(email: str, operator: bool) -> Player:
    """The player at `email` may moderate on the operator's page (or no longer)."""
    player = db.session.get(Player, find_player(email))
    if player is None:
        raise NotFound(
            N_("No player has the address %(email)s."), code="no-player-at-address", email=email
        )
    player.operator = operator
    return player


def find_player(who: str) -> int:
    """A player's id from what an operator typed: an id, or an address."""
    if who.isdigit() and 0 < int(who) <= MAX_ID:
        return int(who)
    found = db.session.execute(
        select(tables.players.c.id).where(tables.players.c.email == who.strip().lower())
    ).scalar()
    if found is None:
        raise NotFound(
            N_("No player has the address %(email)s."), code="no-player-at-address", email=who
        )
    return int(found)


def report_subject(report_id: int) -> int:
    """The player a waiting or closed report names."""
    found = (
        None
        if not 0 < report_id <= MAX_ID
        else db.session.execute(
            select(tables.reports.c.subject_id).where(tables.reports.c.id == report_id)
        ).scalar()
    )
    if found is None:
        raise NotFound(N_("There is no report %(id)s."), code="no-such-report", id=report_id)
    return int(found)
