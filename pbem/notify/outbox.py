"""Writing the outbox: which mails a committed change causes, written in its transaction.

Never one mail per atomic step: after a batch, each player to whom a decision has newly
come (a turn, a power card, a pick, a Veto window) gets one mail with the latest board; the
steps of their own turn send nothing. A general scoring and the end of the game are mailed
to everyone.

The mails a move (or a reminder, a timeout, words to the table) causes are written as rows
that name what happened: the kind, the game, the seqs of the moves, whose seat's thread,
what its reader may see (`payload`). The sender composes each when it sends it
(`composing`), in its reader's language, from the game's log at those seqs, so the move's
transaction renders no mail and a later move changes none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from email.message import EmailMessage
from typing import Any, TypedDict

from sqlalchemy import bindparam, exists, insert, select
from sqlalchemy.engine import Connection

import engine
from pbem.clock import due_at_once, now
from pbem.game.players import is_unreachable
from pbem.languages import language_of
from pbem.notify import compose, wake
from pbem.notify.compose import Recipient
from pbem.notify.payloads import DecisionPayload, GamePayload, Payload, PushPayload, WebhookPayload
from pbem.notify.preferences import StoredPreferences, wants
from pbem.store import tables
from pbem.store.models import Player
from pbem.store.prepared import Prepared

_OUTBOX = insert(tables.outbox)

# Read after every batch (`after_batch`): prepared, as the move path's other reads are.
RECIPIENTS = Prepared(
    select(
        tables.seats.c.colour,
        tables.players.c.id,
        tables.players.c.email,
        tables.players.c.name,
        tables.players.c.preferences,
        tables.seats.c.bot,
        tables.games.c.language,
        exists()
        .where(tables.push_subscriptions.c.player_id == tables.players.c.id)
        .label("pushes"),
    )
    .join(tables.players, tables.players.c.id == tables.seats.c.player_id)
    .join(tables.games, tables.games.c.id == tables.seats.c.game_id)
    .where(tables.seats.c.game_id == bindparam("game"))
    .order_by(tables.seats.c.position)
)


class OutboxRow(TypedDict):
    """One row of the outbox as queued (table `outbox`)."""

    game_id: int | None
    player_id: int | None
    channel: str  # "mail", "webhook" or "push"
    kind: str
    recipient: str  # an address, a webhook's URL, or a push subscription's endpoint
    message: str  # "" until the sender composes what `payload` names
    payload: Payload | None  # what happened, as the row's JSON keeps it
    status: str  # "queued", or "digest" for a part of a digest
    attempts: int
    next_attempt_at: datetime
    created_at: datetime


#: A seat's holder as a recipient, with their preferences as stored.
Seated = tuple[Recipient, StoredPreferences]


def recipients(connection: Connection, game_id: int) -> list[Seated]:
    """Each seat's holder as a mail recipient, with their preferences, in seat order."""
    rows = RECIPIENTS.all(connection, {"game": game_id})
    return [
        (
            Recipient(
                r.id,
                r.email,
                r.name,
                r.colour,
                bool(r.bot),
                language_of(r.preferences, r.language),
                bool(r.pushes),
            ),
            r.preferences or {},
        )
        for r in rows
    ]


def recipient(
    player: Player, colour: str | None = None, game: Any = None, email: str | None = None
) -> Recipient:
    """`player` as a mail's recipient (at `email` if not their own), in their language, else
    the game's."""
    language = language_of(player.preferences, getattr(game, "language", None))
    return Recipient(player.id, email or player.email, player.name, colour, language=language)


#: Mails a digest may gather; a player's own decisions always go at once.
DIGESTIBLE = frozenset({"every_move", "scoring", "game_over", "table_talk"})


def row(
    *,
    game_id: int | None,
    player_id: int | None,
    kind: str,
    recipient: str,
    message: str = "",
    payload: Payload | None = None,
    channel: str = "mail",
    status: str = "queued",
) -> OutboxRow:
    """One outbox row, due now. A mail a move causes waits as a `payload` with no `message`
    yet (the sender composes it, `told_row`); a digest's part waits with status `digest`."""
    moment = now()
    # Due at once for any sender, whatever time a drill (`pbem sweep --now`) plays at.
    due = due_at_once()
    return {
        "game_id": game_id,
        "player_id": player_id,
        "channel": channel,
        "kind": kind,
        "recipient": recipient,
        "message": message,
        "payload": payload,
        "status": status,
        "attempts": 0,
        "next_attempt_at": due,
        "created_at": moment,
    }


def rows_for(
    mails: Iterable[tuple[Recipient, str, EmailMessage]], game_id: int | None
) -> list[OutboxRow]:
    """Outbox rows for mails composed already: the sender's own, a digest it gathers (every
    other mail is queued as what it says and composed by the sender)."""
    return [
        row(
            game_id=game_id,
            player_id=recipient.player_id,
            kind=kind,
            recipient=recipient.email,
            message=mail.as_string(),
        )
        for recipient, kind, mail in mails
        # A house bot (whose stored preferences may predate a kind of mail) reads none.
        if not is_unreachable(recipient.email)
    ]


def webhook_rows(
    hooks: list[dict[str, Any]], game_id: int, after: int, seq: int
) -> list[OutboxRow]:
    """A post to each webhook of the moves after `after` up to `seq`: the sender writes its
    body (`composing.webhook_body`), in the hook's format."""
    return [
        row(
            game_id=game_id,
            player_id=hook["player_id"],
            channel="webhook",
            kind="event",
            recipient=hook["url"],
            payload=WebhookPayload(after=after, seq=seq, format=hook.get("format")),
        )
        for hook in hooks
    ]


#: A push a change causes: to whom, of what kind (`push.KINDS`), and what it may say.
Pushed = tuple[int, str, PushPayload]


def push_rows(connection: Connection, game_id: int, pushed: Sequence[Pushed]) -> list[OutboxRow]:
    """A push to each browser each player of `pushed` subscribed (none for a player who
    subscribed none: the one read is skipped when nobody is to be pushed). The sender
    composes each (`composing.composed`) in its reader's language."""
    if not pushed:
        return []
    players = {player_id for player_id, _, _ in pushed}
    endpoints: dict[int, list[str]] = {}
    for player_id, endpoint in connection.execute(
        select(tables.push_subscriptions.c.player_id, tables.push_subscriptions.c.endpoint)
        .where(tables.push_subscriptions.c.player_id.in_(players))
        .order_by(tables.push_subscriptions.c.id)
    ):
        endpoints.setdefault(player_id, []).append(endpoint)
    return [
        row(
            game_id=game_id,
            player_id=player_id,
            channel="push",
            kind=kind,
            recipient=endpoint,
            payload=payload,
        )
        for player_id, kind, payload in pushed
        for endpoint in endpoints.get(player_id, [])
    ]


def queue(connection: Connection, rows: Sequence[OutboxRow]) -> None:
    if rows:
        connection.execute(_OUTBOX, rows)
        wake.queued(connection)


def told_row(
    game_id: int,
    recipient: Recipient,
    kind: str,
    payload: GamePayload,
    preferences: Mapping[str, Any] | None = None,
) -> OutboxRow | None:
    """A mail to compose later (`sender.compose_queued`): what happened (`payload`), not the
    mail; a part of the recipient's digest if they asked for one and the kind may be
    gathered. None for a house bot's address, which reads no mail."""
    if is_unreachable(recipient.email):
        return None  # a house bot (whose stored preferences may predate a kind of mail)
    digest = kind in DIGESTIBLE and (preferences or {}).get("digest_hours")
    return row(
        game_id=game_id,
        player_id=recipient.player_id,
        kind=kind,
        recipient=recipient.email,
        payload=payload,
        status="digest" if digest else "queued",
    )


def seat_names(game: Any) -> dict[str, str]:
    """Each colour's player's name, as a story names them."""
    return {seat.colour: seat.player.name for seat in game.seats}


def first_colour(seated: list[Seated], player_id: int) -> str | None:
    """A person holding two colours gets one copy of a game-wide mail: their first seat's."""
    return next((r.colour for r, _ in seated if r.player_id == player_id), None)


def seat_recipient(connection: Connection, game_id: int, colour: str) -> Seated:
    return next((r, p) for r, p in recipients(connection, game_id) if r.colour == colour)


def seat_mail(
    connection: Connection,
    game_id: int,
    colour: str,
    kind: str,
    payload: GamePayload,
    wanted: str | None = None,
) -> None:
    """A mail to one seat's holder, composed later from `payload` (a hint asked by mail, a
    review); if `wanted` names a kind of mail, only to one whose preferences ask for it."""
    recipient, preferences = seat_recipient(connection, game_id, colour)
    if wanted is None or wants(preferences, game_id, wanted):
        queue(connection, present([told_row(game_id, recipient, kind, payload)]))


def decision_row(
    game_id: int, recipient: Recipient, decision: engine.Pending, seq: int, due: Any
) -> OutboxRow:
    """A decision mail to compose later (`sender.compose_queued`): what to say, not the mail."""
    return row(
        game_id=game_id,
        player_id=recipient.player_id,
        kind="decision",
        recipient=recipient.email,
        payload=decision_payload(recipient, decision, seq, due),
    )


def decision_payload(
    recipient: Recipient, decision: engine.Pending, seq: int, due: Any
) -> DecisionPayload:
    """What a decision mail (or its reminder) says: whose seat, at which seq, what is
    asked, and by when."""
    return {
        "colour": compose.seat_of(recipient),
        "seq": seq,
        "decision": decision,
        "deadline": compose.when(due),
    }


def present(rows: Iterable[OutboxRow | None]) -> list[OutboxRow]:
    """The rows `told_row` made (not the None it gives for a house bot's address)."""
    return [each for each in rows if each is not None]
