"""Players keeping others away: a block, and a seat's talk muted in one game.

A block works both ways for seats: from the moment it is made neither player joins, is
invited to or is given a seat at a game the other holds; games already under way go on.
Talk it hides one way: the blocker reads none of the other's words (on the page, through
the API and by mail), the blocked player still reads the blocker's. A refusal never says
who blocked whom: it says the two cannot be seated together.

Who sits together is decided under row locks: a block locks both players' rows, and a
seating (`refuse_apart`, called by joining, making a game and giving a seat) locks the
rows of the people it seats together before it reads the blocks, so a block and a join
at once leave the two at one table only if the join came first.

A mute is one player's: no more of one seat's talk in one game (whoever holds that seat),
undone by unmuting. The caller commits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Connection

from pbem.clock import now
from pbem.errors import Conflict, Forbidden, Invalid, NotFound
from pbem.extensions import db
from pbem.game import table
from pbem.game.players import is_unreachable
from pbem.game.seating import Actor
from pbem.languages import N_, later
from pbem.store import queries, tables
from pbem.store.models import Player
from pbem.words import colour_name

#: At most this many players blocked by one: a list for the people one will not play
#: with, not a way to keep a whole server's rows locked.
MOST_BLOCKS = 500


@dataclass(frozen=True)
class Blocked:
    """A player one keeps away, as one's own page and the API list them."""

    player_id: int
    name: str
    since: datetime


def block(player: Player, other_id: int) -> Blocked:
    """`player` blocks `other_id` (a repeat changes nothing); refused for oneself, a house
    bot and a player who is not there."""
    connection = db.session.connection()
    if not 0 < other_id <= queries.MAX_ID:  # past it the database refuses the number
        raise NotFound(
            N_("There is no player %(player)s to block."),
            code="no-player-to-block",
            player=other_id,
        )
    other = connection.execute(
        select(tables.players.c.id, tables.players.c.name, tables.players.c.email).where(
            tables.players.c.id == other_id
        )
    ).first()
    if other is None or is_unreachable(other.email) and other.id != player.id:
        raise NotFound(
            N_("There is no player %(player)s to block."),
            code="no-player-to-block",
            player=other_id,
        )
    if other.id == player.id:
        raise Invalid(N_("You cannot block yourself."), code="block-yourself")
    _lock_people(connection, [player.id, other.id], share=False)
    kept = connection.execute(
        select(tables.blocks.c.created_at).where(
            tables.blocks.c.blocker_id == player.id, tables.blocks.c.blocked_id == other.id
        )
    ).scalar()
    if kept is None:
        counted = select(func.count()).where(tables.blocks.c.blocker_id == player.id)
        if connection.execute(counted).scalar_one() >= MOST_BLOCKS:
            raise Conflict(
                N_("You have blocked %(most)s players, as many as one may: unblock someone first."),
                code="too-many-blocks",
                most=MOST_BLOCKS,
            )
        kept = now()
        connection.execute(
            queries.insert_or_else(connection, tables.blocks)
            .on_conflict_do_nothing(
                index_elements=[tables.blocks.c.blocker_id, tables.blocks.c.blocked_id]
            )
            .values(blocker_id=player.id, blocked_id=other.id, created_at=kept)
        )
    return Blocked(other.id, other.name, kept)


def unblock(player: Player, other_id: int) -> bool:
    """`player` no longer blocks `other_id`; whether they did."""
    if not 0 < other_id <= queries.MAX_ID:
        return False
    done = db.session.connection().execute(
        delete(tables.blocks).where(
            tables.blocks.c.blocker_id == player.id, tables.blocks.c.blocked_id == other_id
        )
    )
    return bool(done.rowcount)


def blocks_of(player_id: int) -> list[Blocked]:
    """The players `player_id` blocks, the latest first."""
    rows = (
        db.session.connection()
        .execute(
            select(tables.players.c.id, tables.players.c.name, tables.blocks.c.created_at)
            .select_from(
                tables.blocks.join(
                    tables.players, tables.players.c.id == tables.blocks.c.blocked_id
                )
            )
            .where(tables.blocks.c.blocker_id == player_id)
            .order_by(tables.blocks.c.created_at.desc(), tables.players.c.id)
        )
        .all()
    )
    return [Blocked(*row) for row in rows]


def blocks(player_id: int, other_id: int) -> bool:
    """Whether `player_id` blocks `other_id` (their page shows Block or Unblock)."""
    return (
        db.session.connection()
        .execute(
            select(tables.blocks.c.blocker_id).where(
                tables.blocks.c.blocker_id == player_id, tables.blocks.c.blocked_id == other_id
            )
        )
        .first()
        is not None
    )


def _lock_people(connection: Connection, player_ids: list[int], *, share: bool) -> None:
    """Lock the players' rows (PostgreSQL; SQLite writes one at a time anyway) in id order,
    the one order every locker takes them in: a block for update, a seating for share."""
    connection.execute(
        select(tables.players.c.id)
        .where(tables.players.c.id.in_(sorted(set(player_ids))))
        .order_by(tables.players.c.id)
        .with_for_update(read=share)
    ).all()


def kept_apart(connection: Connection, player_ids: list[int]) -> list[tuple[int, int]]:
    """The pairs among `player_ids` one of whom blocks the other, after locking their rows
    (so a block being made waits for this transaction, or this waits for it)."""
    people = sorted(set(player_ids))
    if len(people) < 2:
        return []
    _lock_people(connection, people, share=True)
    rows = connection.execute(
        select(tables.blocks.c.blocker_id, tables.blocks.c.blocked_id).where(
            tables.blocks.c.blocker_id.in_(people), tables.blocks.c.blocked_id.in_(people)
        )
    ).all()
    return sorted({tuple(sorted((row.blocker_id, row.blocked_id))) for row in rows})


def refuse_join(player_id: int, holders: list[int], game_id: int) -> None:
    """Forbidden (`blocked`) when the player joining game `game_id` and one of its holders
    keep apart; the words say nothing of who, or of which way."""
    if kept_apart(db.session.connection(), [player_id, *holders]):
        raise Forbidden(
            N_(
                "You cannot take a seat in game %(game)s: someone at that table and you are "
                "not seated together. Look for another game that needs players."
            ),
            code="blocked",
            game=game_id,
        )


def refuse_seating(people: Mapping[str, int], organiser_id: int) -> None:
    """Forbidden (`blocked`) when two of the people a game seats (`{colour: player id}` of
    the seats people hold) keep apart, naming the seats so the organiser can mend it."""
    pairs = kept_apart(db.session.connection(), list(people.values()))
    if not pairs:
        return
    first, second = pairs[0]
    colour_of = {player: colour for colour, player in reversed(list(people.items()))}
    if organiser_id in (first, second):
        other = second if first == organiser_id else first
        raise Forbidden(
            N_(
                "The %(colour)s seat cannot go to that player: you and they are not seated "
                "together here. Give that seat to someone else."
            ),
            code="blocked-seat",
            colour=later(colour_name, colour_of[other]),
        )
    raise Forbidden(
        N_(
            "The %(colour)s and %(other)s seats cannot go to those two players: they are not "
            "seated together here. Give one of the two seats to someone else."
        ),
        code="blocked-seats",
        colour=later(colour_name, colour_of[first]),
        other=later(colour_name, colour_of[second]),
    )


# --- a seat's talk muted in one game ---------------------------------------------------------


def mute(actor: Actor, game_id: int, colour: str, muted: bool) -> list[str]:
    """The reader (holding a seat in game `game_id`) mutes or unmutes the `colour` seat's
    talk there; the colours they have muted in that game after it."""
    seated = table.seated_at(actor, game_id, read_only=False)
    if colour not in seated.game.colours:
        raise NotFound(
            N_("Game %(game)s has no %(colour)s seat."),
            code="no-such-seat",
            game=game_id,
            colour=colour,
        )
    if colour in seated.own:
        raise Invalid(
            N_("%(colour)s is your own seat: there is nobody there to mute."),
            code="mute-own-seat",
            colour=later(colour_name, colour),
        )
    assert seated.player_id is not None  # a seat's holder is a player
    connection = db.session.connection()
    mine = (tables.talk_mutes.c.player_id == seated.player_id) & (
        tables.talk_mutes.c.game_id == game_id
    )
    if muted:
        connection.execute(
            queries.insert_or_else(connection, tables.talk_mutes)
            .on_conflict_do_nothing(
                index_elements=[
                    tables.talk_mutes.c.player_id,
                    tables.talk_mutes.c.game_id,
                    tables.talk_mutes.c.colour,
                ]
            )
            .values(player_id=seated.player_id, game_id=game_id, colour=colour, created_at=now())
        )
    else:
        connection.execute(
            delete(tables.talk_mutes).where(mine, tables.talk_mutes.c.colour == colour)
        )
    return muted_in(connection, seated.player_id, game_id)


def muted_in(connection: Connection, player_id: int, game_id: int) -> list[str]:
    """The colours whose talk `player_id` has muted in game `game_id`."""
    return sorted(
        connection.execute(
            select(tables.talk_mutes.c.colour).where(
                tables.talk_mutes.c.player_id == player_id, tables.talk_mutes.c.game_id == game_id
            )
        ).scalars()
    )


def mutes(actor: Actor, game_id: int) -> list[str]:
    """The colours whose talk the reader (holding a seat in game `game_id`) has muted."""
    seated = table.seated_at(actor, game_id)
    assert seated.player_id is not None  # a seat's holder is a player
    return muted_in(db.session.connection(), seated.player_id, game_id)
