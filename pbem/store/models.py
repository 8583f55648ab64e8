"""The tables: players, games, seats, the move log, snapshots, idempotency records.

The move log is the truth of a game; `Game.state` and `Game.seq` are a cache of what the log
replays to, rewritten in the same transaction that appends to the log. Each logged move keeps
the events it caused, and `Snapshot` keeps the state at each round's start, so history and
past states are read from the record instead of replayed from move 0.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy import false as sa_false
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.sql.elements import ColumnElement

import engine
from pbem.clock import now
from pbem.extensions import Model

#: Where a move came from: a door (the API, a mail, the web page) or the scheduler acting
#: for a seat (a timeout, a bot, closing a Veto window), or a seat's orders given in advance.
MOVE_SOURCES = ("api", "email", "web", "timeout", "bot", "scheduler", "admin", "orders")

#: A game's life: `active` until the engine says it is over (`finished`), its admin stops
#: it (`aborted`), or nobody but the server has moved in it for too long (`abandoned`).
#: A game forms (its seats taken and accepted, no deadlines running) before it is active;
#: one that never fills is cancelled.
GAME_STATUSES = ("forming", "active", "finished", "aborted", "abandoned", "cancelled")

#: The house bots' addresses: `bot-1@bots.invalid` ... The `.invalid` top-level domain is
#: reserved (RFC 2606) and never receives mail, so no person can hold such an address.
BOT_DOMAIN = "bots.invalid"

#: How a person's decision closed (`Decision.how`): answered by them (themselves, or by their
#: orders given in advance) before its deadline, answered after it, played for them when its
#: deadline passed, played by a bot holding their seat, or never answered: the game was
#: abandoned while it waited.
DECISION_ENDINGS = ("in_time", "late", "timeout", "bot", "abandoned")


class UtcDateTime(TypeDecorator[datetime]):
    """A moment, always read back aware in UTC. PostgreSQL keeps the zone; SQLite keeps none
    (what is stored there is UTC), so a naive value read back is UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is not None:
            return value.astimezone(UTC)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


def utcnow() -> datetime:
    """Now, from the service's one clock (tests set it; never the database's)."""
    return now()


class Player(Model):
    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("calendar_token_hash", name="uq_players_calendar_token_hash"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    # SHA-256 of the key: the key is 256 random bits, so a fast hash is enough and lets us
    # find the player by an indexed lookup instead of checking every row.
    api_key_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    preferences: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    # A page's session is good only while it carries this number: "sign out everywhere"
    # raises it, ending every session signed in before.
    session_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # When the holder of this address last showed it is theirs, by following a link mailed
    # to it (None: never, e.g. an invited address): only then may they accept its seats.
    email_proved_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    # Raised each time the address changes: an address-change link names the version it
    # was mailed at, so once the address changes every older link is spent.
    email_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The private calendar feed of their deadlines (`/calendar/<token>.ics`): its token is
    # derived from this random seed under the SECRET_KEY (`tokens.calendar_token`), so the
    # page can show the link again while the table alone opens no feed; the token's SHA-256
    # finds the player. A new seed (a new link) ends the old one. None: no link made yet.
    calendar_seed: Mapped[str | None] = mapped_column(String(64))
    calendar_token_hash: Mapped[str | None] = mapped_column(String(64))
    # Raised each time a finished game adds to their record (a result, card plays, a point of
    # their rating's history), in its ending transaction: their page's record as drawn and
    # kept (`DrawnRecord`) is good only while it names this number.
    record_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Moderation (`pbem.play.moderation`): kept from the server until this moment (None:
    # never suspended, or the suspension is over), or for good (`banned_at`); an operator
    # may moderate from the operator's page.
    suspended_until: Mapped[datetime | None] = mapped_column(UtcDateTime())
    banned_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    operator: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())

    seats: Mapped[list[Seat]] = relationship(back_populates="player")


def is_person(email: ColumnElement[str]) -> ColumnElement[bool]:
    """Whether the player with this address is a person (not a house bot), in SQL."""
    return ~email.endswith("@" + BOT_DOMAIN)


class Game(Model):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    timing: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The seed decides the deck orders: it is a secret until the game is over.
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="active")
    # Its mails' language for a player who chose none (None: English), set by its organiser.
    language: Mapped[str | None] = mapped_column(String(8), default=None)
    creator_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    # Colours in seat order, as given to engine.new_game.
    colours: Mapped[list[str]] = mapped_column(JSON)
    # Cache: engine.to_dict of the state after `seq` moves, and who must act in it. Deferred:
    # `game.states` reads it (with the seq, in one statement) only when the worker's
    # in-memory cache misses, so loading a Game does not fetch and parse it every time.
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, deferred=True)
    pending: Mapped[list[engine.Pending]] = mapped_column(JSON, default=list)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    # What a player must have to join an open seat (None: nothing): a reliability (0..1)
    # and a shown rating (the ordinal), set by its organiser.
    min_reliability: Mapped[float | None] = mapped_column(Float, default=None)
    min_rating: Mapped[float | None] = mapped_column(Float, default=None)
    # Every move rewrites this row (seq, state, pending): no column that a move changes may
    # be indexed, so that PostgreSQL can update it in place (a HOT update, no index entry
    # written). What the sweep must find by time is kept apart (IdleLimit, Deadline).

    creator: Mapped[Player] = relationship()
    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )


class IdleLimit(Model):
    """When a game is abandoned unless a person (not a timeout or a bot) moves before: pushed
    on by each person's move, per the game's timing policy, and indexed for the sweep.

    A narrow row of its own, not a column of the game's: an indexed column that changed on
    every move would keep the game's wide row from being updated in place. The sweep deletes
    it when it comes due (abandoning the game if it is still active)."""

    __tablename__ = "idle_limits"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    abandon_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)


class Seat(Model):
    """A player's colour in a game.

    A player usually holds one seat per game; in the two-colour variant each person holds
    two (seats 0 and 1, or 2 and 3). Which seats one player may hold is a rule of the game's
    options, checked by `play.lifecycle.create_game` and `give_seat`; the table only keeps
    each colour and each position to one seat.
    """

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "colour"),
        UniqueConstraint("game_id", "position", name="uq_seats_game_id_position"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    colour: Mapped[str] = mapped_column(String(16))
    position: Mapped[int] = mapped_column(Integer)
    # When its holder declined it (from their first mail); cleared when the seat is given.
    declined_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    # Timeouts in a row (a move of the holder's own resets it), and whether a bot plays it.
    timeouts: Mapped[int] = mapped_column(Integer, default=0)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    # The level of the house bot that plays it (`engine.bots.LEVELS`); None: the game's
    # `takeover_bot`.
    bot_level: Mapped[str | None] = mapped_column(String(16), default=None)
    # While the game forms: when its holder accepted it (the organiser's and a bot's at once),
    # and whether anyone may join it (an open seat, held meanwhile by a house bot).
    accepted_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    # A time-bank game's clock (`pbem.timing.bank`; both null in any other game): the
    # seconds left in the seat's bank as of `bank_at`, from when it counts down while a
    # decision of the seat's is open.
    bank_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    bank_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), default=None)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")


class Move(Model):
    __tablename__ = "moves"
    # The unique (game, seq) is the last line of defence against two writers both appending
    # the same sequence number; the conditional update of games.seq is the first.
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int] = mapped_column(Integer)
    colour: Mapped[str] = mapped_column(String(16))
    # Who submitted it; null for timeout and bot moves.
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    move: Mapped[engine.Move] = mapped_column(JSON)
    # What the move made happen (engine events), public once committed.
    events: Mapped[list[engine.Event] | None] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(16), default="api")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class TableTalk(Model):
    """A word to the table: a line of a seat's reply that was no move, relayed to the other
    players and kept in the game's record, after the move `seq` it was written at."""

    __tablename__ = "table_talk"
    __table_args__ = (Index("ix_table_talk_game_id_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int] = mapped_column(Integer)
    colour: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16), default="email")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class Block(Model):
    """`blocker_id` keeps `blocked_id` away: neither joins, is invited to or is given a seat
    at a game the other holds, and the blocker reads none of the other's talk. Games
    already under way go on."""

    __tablename__ = "blocks"
    __table_args__ = (Index("ix_blocks_blocked_id", "blocked_id"),)

    blocker_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class TalkMute(Model):
    """A player reads no more of one seat's talk in one game (whoever holds it)."""

    __tablename__ = "talk_mutes"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    colour: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Report(Model):
    """A player's report of a line of talk, a player's name or a game's title, waiting in
    the operator's queue until closed. What was reported is copied (`text`): a name or a
    title may change after."""

    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_closed_at_id", "closed_at", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(16))  # talk, name, title
    target_id: Mapped[int] = mapped_column(Integer)  # the line's, the player's, the game's id
    # Who is reported: the line's writer, the name's holder, the title's organiser.
    subject_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    text: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    closed_at: Mapped[datetime | None] = mapped_column(UtcDateTime())


class ModerationAction(Model):
    """What an operator did to a player (warn, suspend, ban, lift, dismiss a report), by
    whom and why: the log moderation answers to, and what a next suspension escalates
    from."""

    __tablename__ = "moderation_actions"
    __table_args__ = (Index("ix_moderation_actions_player_id_id", "player_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    action: Mapped[str] = mapped_column(String(16))
    # A suspension's length, and the moment it ends.
    days: Mapped[int | None] = mapped_column(Integer)
    until: Mapped[datetime | None] = mapped_column(UtcDateTime())
    reason: Mapped[str] = mapped_column(Text)
    # Who did it: an operator's name and id on the page, or the shell's user at the command.
    moderator: Mapped[str] = mapped_column(String(200))
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Tournament(Model):
    """A series of games among its entrants (`pbem.play.tournaments`): its format
    (`pbem.draws.FORMATS`), table size and rounds, the rules options and timing of its games,
    who may enter (`entry`: `most` entrants, `min_reliability`, `min_rating`, `invited`
    addresses), and where it stands (`status`: open, running, finished, cancelled; the
    round under way). Entering and starting lock its row."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    organiser_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    format: Mapped[str] = mapped_column(String(16))
    table_size: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    timing: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # How long a round's games have before the next round opens anyway.
    round_days: Mapped[int] = mapped_column(Integer, default=21)
    # When it starts by itself (None: when full, or when its organiser starts it).
    starts_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    status: Mapped[str] = mapped_column(String(16), default="open")
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    # The groups format's pools, fixed at its start (lists of player ids).
    pools: Mapped[list[list[int]] | None] = mapped_column(JSON, default=None)
    # When the current round opens the next one unless its games end first.
    round_due_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class TournamentEntry(Model):
    """A player entered in a tournament: their rating when they entered, and from when they
    are skipped (a seat timed out to the bot, they left, or the organiser removed them)."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    entered_at: Mapped[datetime] = mapped_column(UtcDateTime())
    rating_at_entry: Mapped[float] = mapped_column(Float, default=0.0)
    skipped_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    skipped_why: Mapped[str | None] = mapped_column(String(16))  # timeout, left, removed, suspended


class TournamentTable(Model):
    """One table of one round: its game, and the entrants at it in seat order, with each
    one's result once the game ends (`places`: points by place, `shares`: of the winner's
    score, both in seat order; None while it is played)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "number", name="uq_tournament_tables_place"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), unique=True)
    players: Mapped[list[int]] = mapped_column(JSON)
    places: Mapped[list[float] | None] = mapped_column(JSON, default=None)
    shares: Mapped[list[float] | None] = mapped_column(JSON, default=None)
    scores: Mapped[list[int] | None] = mapped_column(JSON, default=None)


class SignInLink(Model):
    """A sign-in link mailed to an address (`/sign-in`): good once, for a short time. The
    link carries its id and a nonce, signed; only the nonce's hash is kept, so the table
    alone signs no one in. `client` is who asked (an address), for the per-client limit."""

    __tablename__ = "sign_in_links"
    __table_args__ = (
        Index("ix_sign_in_links_email_created", "email", "created_at"),
        Index("ix_sign_in_links_client_created", "client", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    nonce_hash: Mapped[str] = mapped_column(String(64))
    client: Mapped[str] = mapped_column(String(64))
    next_path: Mapped[str | None] = mapped_column(String(2000))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    # "sign_in" (the /sign-in form), or "register" (POST /api/players: following it makes
    # the player, named `name`, and shows their API key once).
    purpose: Mapped[str] = mapped_column(String(16), default="sign_in", server_default="sign_in")
    name: Mapped[str | None] = mapped_column(String(100))


class RateCount(Model):
    """Uses of one limited thing (`key`: what, and by whom) in the window starting at
    `window_start` (seconds since the epoch): counted and checked in one statement
    (`pbem.store.limits`), so concurrent requests cannot all slip under a limit."""

    __tablename__ = "rate_counts"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    window_start: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


class SuppressedAddress(Model):
    """An address whose owner asked never to be invited again (the link in an invitation):
    no invitation is queued for it, whoever asks."""

    __tablename__ = "suppressed_addresses"

    email: Mapped[str] = mapped_column(String(254), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class EndedSession(Model):
    """A page session signed out (`POST /sign-out`): its cookie, copied before, is refused
    afterwards. Kept until such a cookie would have expired anyway."""

    __tablename__ = "ended_sessions"

    sid: Mapped[str] = mapped_column(String(64), primary_key=True)
    ended_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)


class Note(Model):
    """A player's private notes on a game: read and written by that player alone (never
    shown to another reader, mailed or exported)."""

    __tablename__ = "notes"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class Snapshot(Model):
    """The whole state (engine.to_dict) after move `seq`: at setup and at each round's start.

    A past state is the latest snapshot at or before it plus the few moves after it.
    """

    __tablename__ = "snapshots"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class IdempotencyRecord(Model):
    """The first answer to a request sent with an `Idempotency-Key`, for replaying it."""

    __tablename__ = "idempotency_records"
    __table_args__ = (UniqueConstraint("player_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    key: Mapped[str] = mapped_column(String(200))
    # SHA-256 of the request (game and body): the same key with another request is an error,
    # not a replay.
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int] = mapped_column(Integer)
    response: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class Notification(Model):
    """The outbox: a message to send, written in the transaction of the change that caused
    it, so a rolled-back move sends nothing and a committed one always sends.

    A mail that a change caused is queued as what happened (`payload`) and composed by the
    sender; then, like the mails queued whole (keys, sign-in links, invitations), it is kept
    as RFC 822 text, headers and all; a webhook as its JSON body. The sender delivers due
    rows, marks each sent, and retries failures with backoff; a row still failing a day after
    it was written is marked failed and shown to the game's admin.
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_due", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    channel: Mapped[str] = mapped_column(String(16))  # "mail" | "webhook" | "push"
    kind: Mapped[str] = mapped_column(String(32))  # "decision", "scoring", "game_over", ...
    # An address, a webhook's URL, or a push subscription's endpoint.
    recipient: Mapped[str] = mapped_column(String(2000))
    message: Mapped[str] = mapped_column(Text)
    # A mail a change caused is queued as what to say (its kind's fields: colour, seq, the
    # moves it is about, ...) and composed by the sender, off the move's path, from the log
    # and the state at that seq (`notify.composing`): `message` is "" until then.
    payload: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="queued")  # queued, sent, failed
    #: The batch a `sending` row was claimed in (a token of its sender's pass): a dead
    #: sender's batch is known by it, and handed back but for its first unsent row.
    claim: Mapped[str | None] = mapped_column(String(32))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UtcDateTime())
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
    last_error: Mapped[str | None] = mapped_column(Text)


class PushSubscription(Model):
    """A browser's push subscription (Web Push): where its push service takes messages for
    it, and the keys they are encrypted to. One endpoint is one browser on one device, so it
    belongs to whoever subscribed it last."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(2000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))  # the browser's P-256 key, base64url
    auth: Mapped[str] = mapped_column(String(40))  # its 16-byte auth secret, base64url
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class Deadline(Model):
    """A pending decision's deadline: written in the transaction that made it pending,
    deleted in the one that answered it. `next_at` is when the sweep must next look at it
    (the next reminder, else the deadline), indexed, so a sweep reads only what is due."""

    __tablename__ = "deadlines"
    __table_args__ = (UniqueConstraint("game_id", "colour", "decision"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    colour: Mapped[str] = mapped_column(String(16))
    decision: Mapped[str] = mapped_column(String(64))  # e.g. "turn", "veto_window:blue"
    opened_at: Mapped[datetime] = mapped_column(UtcDateTime())
    due_at: Mapped[datetime] = mapped_column(UtcDateTime())
    next_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    reminders_sent: Mapped[list[int]] = mapped_column(JSON, default=list)  # hours before due
    # Hours the game's organiser added to it (kept when the deadline is derived again).
    extended_hours: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # How many times its deadline moved after it opened (an extension, an absence): only
    # ever raised, so a calendar feed can give it as the event's SEQUENCE.
    moved: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Order(Model):
    """A seat's orders given in advance (private to the seat until carried out): the power
    cards to play, first legal one first, at its next power card; and whether every Veto
    window offered to it in round `veto_allow_round` is answered `allow` at once."""

    __tablename__ = "orders"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    colour: Mapped[str] = mapped_column(String(16), primary_key=True)
    power_cards: Mapped[list[int]] = mapped_column(JSON, default=list)
    veto_allow_round: Mapped[int | None] = mapped_column(Integer)  # a round_index
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class Absence(Model):
    """A player away (vacation): deadlines falling inside move to after it."""

    __tablename__ = "absences"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    starts_at: Mapped[datetime] = mapped_column(UtcDateTime())
    ends_at: Mapped[datetime] = mapped_column(UtcDateTime())


class InboundMail(Model):
    """A mail that came in through a mail door, by its Message-ID: a message is handled
    (played, refused, answered) at most once, however often it is delivered. `answered_to`
    and `received_at` count the answers sent to one address in the last hour (a mail loop
    stops there)."""

    __tablename__ = "inbound_mails"
    __table_args__ = (Index("ix_inbound_mails_answered_to", "answered_to", "received_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The Message-ID as sent, or a hash of it (or of the message, when it has none).
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    game_id: Mapped[int | None] = mapped_column(Integer)
    colour: Mapped[str | None] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(254))
    outcome: Mapped[str] = mapped_column(String(16))  # played, answered, refused, help
    answered_to: Mapped[str | None] = mapped_column(String(254))
    received_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Heartbeat(Model):
    """When a background job (`sweep`, `mail`) last finished a pass, in whichever process
    ran it: the web processes' health check reads it, so a dead scheduler shows there."""

    __tablename__ = "heartbeats"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime())


class Counter(Model):
    """A number raised in the transaction of a change that no other row's number follows (a
    person renamed: the standings show the name): what a worker keeps drawn of it is kept by
    the number, read with the rest, so a change made through any node shows at the next
    read on every node."""

    __tablename__ = "counters"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[int] = mapped_column(Integer, default=0)


class PlayerRating(Model):
    """A person's rating now (openskill's Plackett-Luce: `mu`, `sigma`), moved on by each
    finished game they are rated in (`GameRating`). `ordinal` is the conservative number shown
    (mu - 3 sigma), kept beside them so the standings read an index; `games_2`..`games_5`
    count the rated games by how many players they had (the standings' filter)."""

    __tablename__ = "player_ratings"
    # The standings read it backwards, best first (ties: the later player first): a page
    # of them is a walk along this index, not a sort of everyone.
    __table_args__ = (Index("ix_player_ratings_ordinal_player_id", "ordinal", "player_id"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    games_2: Mapped[int] = mapped_column(Integer, default=0)
    games_3: Mapped[int] = mapped_column(Integer, default=0)
    games_4: Mapped[int] = mapped_column(Integer, default=0)
    games_5: Mapped[int] = mapped_column(Integer, default=0)
    # The shown rating (ordinal) before the first of their last HISTORY_POINTS rated games and
    # after each, the oldest first: the chart their page draws, kept so the page reads one
    # row rather than a hundred results (None: no rated game yet).
    history: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class GameRating(Model):
    """A person's result in one finished game (place, score) and what it did to their rating:
    written once for each person seated at its end, in the game's ending transaction (the
    unique pair refuses a second rating of the game). House bots have none."""

    __tablename__ = "game_ratings"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        Index("ix_game_ratings_player_id_rated_at", "player_id", "rated_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    # How many held seats (people and house bots; the two-colour game's two people: 2).
    players: Mapped[int] = mapped_column(Integer)
    # The finishing place among all sides, bots' too (1: first; a tie shares a place).
    rank: Mapped[int] = mapped_column(Integer)
    # The final score (the two-colour variant's person's score, by its rule).
    score: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    # A bot finished the person's seat (after their timeouts, or handed to it).
    bot_finished: Mapped[bool] = mapped_column(Boolean, default=False)
    # False: it moved no rating of theirs (before and after agree): nobody else to be rated
    # with, their seat left to a bot, or a game rated for nobody (`pbem.play.ratings`).
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    # When the game ended (its last move): the order a rebuild rates games in.
    rated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class BotRating(Model):
    """A house bot level's rating (`engine.bots.LEVELS`: one row a level, openskill's
    Plackett-Luce as people's), moved on by each rated game a bot of that level held a seat
    in from its start, against the people rated in it (`pbem.play.ratings`). `games` counts
    those games, once each however many of its seats the level held."""

    __tablename__ = "bot_ratings"

    level: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class CardPlay(Model):
    """How often a person chose one action card (in their finished games, the cards they
    chose themselves) and the points they scored in the rounds they chose it: a summary kept
    when each game finishes, so a player's page reads a few rows instead of every log."""

    __tablename__ = "card_plays"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    card: Mapped[str] = mapped_column(String(32), primary_key=True)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)


class DrawnRecord(Model):
    """A player's record as their page draws it (the rating's chart; the last finished games
    and the action cards chosen) in one language, kept so that every worker serves it from
    one read until it changes. Good only while `record_seq` is the player's own (a finished
    game raises theirs) and `drawing` names the templates, catalogs and links it was drawn
    with; otherwise the page draws it again and writes it over this row."""

    __tablename__ = "drawn_records"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    language: Mapped[str] = mapped_column(String(16), primary_key=True)
    drawing: Mapped[str] = mapped_column(String(64))
    record_seq: Mapped[int] = mapped_column(Integer)
    chart: Mapped[str] = mapped_column(Text)  # the rating's chart ('' for none)
    games: Mapped[str] = mapped_column(Text)  # the finished games and the cards chosen
    # The page's whole body, drawn from this record and what else the page shows (the name,
    # rating, reliability and games going, which change without a finished game): good
    # while `body_of`, their digest, is theirs as read with it. Null until a page draws it.
    body: Mapped[str | None] = mapped_column(Text, nullable=True)
    body_of: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Decision(Model):
    """A person's decision that closed: answered before its deadline or not (`how`, one of
    DECISION_ENDINGS). Written when its deadline row goes, in the same transaction; a
    person's reliability is read from their last ones."""

    __tablename__ = "decisions"
    __table_args__ = (Index("ix_decisions_player_id_id", "player_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    colour: Mapped[str] = mapped_column(String(16))
    decision: Mapped[str] = mapped_column(String(64))
    due_at: Mapped[datetime] = mapped_column(UtcDateTime())
    closed_at: Mapped[datetime] = mapped_column(UtcDateTime())
    how: Mapped[str] = mapped_column(String(16))


class Hint(Model):
    """A hint asked for one seat's decision (`seq`: the moves played before it), and once the
    scheduler's worker has worked it out (`answered_at`), the search's best moves for it
    (`advice`: each move with its value and playouts, best first; None: the seat had moved
    on before it was worked out). One row a decision, whoever asks again and by which door
    (`via`: the door that asked first, which the answer goes back to)."""

    __tablename__ = "hints"
    __table_args__ = (UniqueConstraint("game_id", "colour", "seq", name="uq_hints_decision"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    colour: Mapped[str] = mapped_column(String(16))
    seq: Mapped[int] = mapped_column(Integer)
    asked_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    via: Mapped[str] = mapped_column(String(8))  # mail, web or api
    asked_at: Mapped[datetime] = mapped_column(UtcDateTime())
    answered_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), index=True)
    advice: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)


class GameReview(Model):
    """A finished game's review (`engine.bots.review`): due when the game ends, worked out
    by the scheduler's worker within its CPU budget, and kept (`review`, None until done)."""

    __tablename__ = "game_reviews"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    due_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    done_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), index=True)
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
