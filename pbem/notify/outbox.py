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
from engine.board import Board
from pbem import words
from pbem.clock import due_at_once, now
from pbem.extensions import db
from pbem.game import history, table
from pbem.game.players import claim_token, is_unreachable
from pbem.game.states import current_state
from pbem.languages import language_of, lazy_
from pbem.notify import compose, wake
from pbem.notify.compose import Recipient
from pbem.notify.preferences import StoredPreferences, wants, wants_push
from pbem.store import tables
from pbem.store.models import Deadline, Game, Player, Seat
from pbem.store.prepared import Prepared
from pbem.timing import policy

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
    payload: dict[str, Any] | None  # what happened, as the row's JSON keeps it
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
    payload: dict[str, Any] | None = None,
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
    """Outbox rows for mails composed now (those no move causes: a key, an invitation, a
    notice, an answer to a mail)."""
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
    hooks: list[dict[str, Any]], game_id: int, moves: dict[str, int]
) -> list[OutboxRow]:
    """A post to each webhook of the moves `moves` names (after, seq): the sender writes its
    body (`composing.webhook_body`), in the hook's format."""
    return [
        row(
            game_id=game_id,
            player_id=hook["player_id"],
            channel="webhook",
            kind="event",
            recipient=hook["url"],
            payload={**moves, "format": hook.get("format")},
        )
        for hook in hooks
    ]


#: A push a change causes: to whom, of what kind (`push.KINDS`), and what it may say.
Pushed = tuple[int, str, dict[str, Any]]


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


def general_scoring_events(events: list[engine.Event], state: Board) -> list[engine.Event] | None:
    """The events of a general scoring this batch completed, else None.

    A general scoring begins (`general_scoring`) at a round's end and, where caballeros are
    in the Castillo, waits for the Castillo picks; it is complete once that phase is over
    (`castillo_revealed`, or at once without picks).
    """
    types = [e["type"] for e in events]
    if state.phase == "castillo_pick" or not {"general_scoring", "castillo_revealed"} & set(types):
        return None
    if "general_scoring" in types:
        start = len(types) - 1 - types[::-1].index("general_scoring")
        return events[start:]
    return events


def decision_key(entry: Mapping[str, Any]) -> tuple[str, str]:
    """Whose decision and which (policy.decision_key): a turn's steps are one decision."""
    return entry["player"], policy.decision_key(entry)


def told_row(
    game_id: int,
    recipient: Recipient,
    kind: str,
    payload: dict[str, Any],
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


def after_batch(
    connection: Connection,
    *,
    game_id: int,
    before: engine.State,
    batch: engine.Batch[engine.State],
    seq: int,
    due: Mapping[str, datetime] | None = None,
    chain: Sequence[engine.Batch[engine.State]] = (),
) -> None:
    """Queue the mails a committed batch causes (see the module's docstring) as rows that
    name what happened (the moves after seq `after` up to `seq`, whose seat's thread, what
    the reader may see); the sender composes them from the log at those seqs. `due` gives
    each pending colour's deadline. `chain`: the batches other seats' orders played at once
    after it, in the same transaction (a decision they answered is mailed to nobody)."""
    batches = [batch, *chain]
    state = batches[-1].state
    # A decision answered and opened again by the orders it set off is a new one.
    seen_before = {decision_key(p) for p in engine.pending(before)} - policy.answered_along(
        (b.before, b.state) for b in batches
    )
    fresh: dict[str, engine.Pending] = {}
    for entry in engine.pending(state):
        if decision_key(entry) not in seen_before:
            fresh.setdefault(entry["player"], entry)
    seated = recipients(connection, game_id)
    mover = {r.player_id for r, _ in seated if r.colour == batch.player}
    after = seq - sum(len(b.played) for b in batches)
    told: list[OutboxRow | None] = []
    deferred: list[OutboxRow] = []
    hooks = []
    pushed: dict[int, Pushed] = {}  # one push a person, however many seats they hold
    for recipient, preferences in seated:
        # A person holding two colours gets one copy of what is not their seat's own.
        game_wide = recipient.colour == first_colour(seated, recipient.player_id)
        for hook in preferences.get("webhooks") or []:
            if hook.get("game_id") == game_id and game_wide:
                hooks.append({**hook, "player_id": recipient.player_id})
        if (
            recipient.player_id not in mover
            and game_wide
            and wants(preferences, game_id, "every_move")
        ):
            # What they may see is what their seats of now may see, whoever holds them later.
            mine = [r.colour for r, _ in seated if r.player_id == recipient.player_id]
            payload = {"colour": recipient.colour, "seen": mine, "after": after, "seq": seq}
            told.append(told_row(game_id, recipient, "every_move", payload, preferences))
        colour = recipient.colour
        if colour is not None:  # always: these are the seats' recipients
            decision = fresh.get(colour)
            if (
                decision is not None
                and not recipient.bot_plays
                and wants(preferences, game_id, "decision")
            ):
                deferred.append(
                    decision_row(game_id, recipient, decision, seq, (due or {}).get(colour))
                )
            if (
                decision is not None
                and recipient.pushes
                and not recipient.bot_plays
                and wants_push(preferences, game_id, "decision")
            ):
                pushed.setdefault(recipient.player_id, decision_push(recipient, decision))
    events = general_scoring_events([e for b in batches for e in b.events], state)
    if events is not None:
        told += scoring_rows(game_id, state, after, seq, seated)
        if engine.is_over(state):
            pushed.update(game_over_pushes(game_id, seated))
    told += order_rows(game_id, seated, chain, after + len(batch.played), seq)
    rows = present(told) + deferred
    rows += bot_story_rows(game_id, seated, batch.player, after, seq)
    # A webhook posts where others may read it (a channel): only the public record.
    rows += webhook_rows(hooks, game_id, {"after": after, "seq": seq})
    rows += push_rows(connection, game_id, list(pushed.values()))
    queue(connection, rows)


def decision_push(recipient: Recipient, decision: Mapping[str, Any]) -> Pushed:
    """A push that a decision is theirs: its kind alone (a Veto window's plan, say, names
    a card its player holds)."""
    return (recipient.player_id, "decision", {"decision_kind": decision["kind"]})


def game_over_pushes(game_id: int, seated: list[Seated]) -> dict[int, Pushed]:
    """Each person at the table's push that the game ended."""
    return {
        r.player_id: (r.player_id, "game_over", {})
        for r, preferences in seated
        if r.pushes and wants_push(preferences, game_id, "game_over")
    }


def scoring_rows(
    game_id: int,
    state: engine.State,
    after: int,
    seq: int,
    seated: list[Seated],
) -> list[OutboxRow | None]:
    """After a general scoring (the last: the game's end, with everyone's points by source
    over the whole game), each person's mail of it: the scoring the moves after `after` up
    to `seq` completed."""
    kind = "game_over" if engine.is_over(state) else "scoring"
    rows = []
    for recipient, preferences in seated:
        game_wide = recipient.colour == first_colour(seated, recipient.player_id)
        if game_wide and wants(preferences, game_id, kind):
            payload = {"colour": recipient.colour, "after": after, "seq": seq}
            rows.append(told_row(game_id, recipient, kind, payload, preferences))
    return rows


def bot_story_rows(
    game_id: int,
    seated: list[Seated],
    colour: str,
    after: int,
    seq: int,
) -> list[OutboxRow]:
    """After a bot played a seat (moves `after` + 1 to `seq`): the story since that seat's
    previous move, the bot's own included, as a part of its person's digest (they get no
    decision mails meanwhile)."""
    holder, preferences = next(((r, p) for r, p in seated if r.colour == colour), (None, {}))
    if holder is None or not holder.bot_plays or is_unreachable(holder.email):
        return []  # a person's seat a bot plays for now; a house bot reads no mail
    if not wants(preferences, game_id, "decision"):
        return []
    payload = {"colour": colour, "after": after, "seq": seq}
    return [
        row(
            game_id=game_id,
            player_id=holder.player_id,
            kind="bot_story",
            recipient=holder.email,
            payload=payload,
            status="digest",
        )
    ]


def seat_names(game: Any) -> dict[str, str]:
    """Each colour's player's name, as a story names them."""
    return {seat.colour: seat.player.name for seat in game.seats}


def first_colour(seated: list[Seated], player_id: int) -> str | None:
    """A person holding two colours gets one copy of a game-wide mail: their first seat's."""
    return next((r.colour for r, _ in seated if r.player_id == player_id), None)


def order_rows(
    game_id: int,
    seated: list[Seated],
    chain: Sequence[engine.Batch[engine.State]],
    after: int,
    seq: int,
) -> list[OutboxRow | None]:
    """Each seat whose orders played (among the moves after `after` up to `seq`) tells its
    holder what they played (its own mail: the others learn only the moves, as any other
    move)."""
    played = {each.player for each in chain if each.played}
    rows = []
    for recipient, preferences in seated:
        if (
            recipient.colour in played
            and not recipient.bot_plays
            and wants(preferences, game_id, "decision")
        ):
            payload = {"colour": recipient.colour, "after": after, "seq": seq}
            rows.append(told_row(game_id, recipient, "orders", payload))
    return rows


def queue_key_mail(connection: Connection, player: Player, key: str) -> None:
    to = recipient(player)
    queue(connection, rows_for([(to, "key", compose.key_mail(to, key))], None))


def queue_moderation_mail(
    connection: Connection, player: Player, action: str, until: datetime | None, reason: str
) -> None:
    """What an operator did to the player, and why (`compose.moderation_mail`)."""
    to = recipient(player)
    mail = compose.moderation_mail(to, action, until, reason)
    queue(connection, rows_for([(to, "moderation", mail)], None))


def queue_sign_in_mail(
    connection: Connection,
    email: str,
    player: Player | None,
    link: str,
    minutes: int,
    language: str | None = None,
    registering: bool = False,
) -> None:
    """A sign-in link to `email`, whether or not it has a player yet (the link makes one):
    in the player's language, else the one the page asking for it was in. `registering`:
    asked for by `POST /api/players`, so the mail says the link shows an API key."""
    language = language_of(player.preferences if player else None, language)
    name = player.name if player is not None else email.partition("@")[0]
    to = Recipient(player.id if player else 0, email, name, None, language=language)
    known = player is not None
    mail = compose.sign_in_mail(to, link, minutes, known=known, registering=registering)
    sent = row(
        game_id=None,
        player_id=player.id if player else None,
        kind="sign_in",
        recipient=email,
        message=mail.as_string(),
    )
    queue(connection, [sent])


def queue_email_change_mails(
    connection: Connection, player: Player, new_email: str, link: str | None, hours: int
) -> None:
    """An address change: with `link`, asked for (the link, to the new address); without,
    done (a notice to the old address, `player.email` still, so a change they did not make
    is seen)."""
    if link is not None:
        to = recipient(player, email=new_email)
        mail = compose.email_change_mail(to, link, hours, old_email=player.email)
        kind = "email_change"
    else:
        to = recipient(player)
        mail = compose.email_changed_mail(to, new_email)
        kind = "email_changed"
    sent = row(
        game_id=None,
        player_id=player.id,
        kind=kind,
        recipient=to.email,
        message=mail.as_string(),
    )
    queue(connection, [sent])


def invitations(connection: Connection, *, game: Any, organiser: Player) -> None:
    """Each invited seat of a game that forms gets its invitation (not the organiser's own
    seat, a bot's, or an open one)."""
    seats = [
        {"colour": s.colour, "name": lazy_("open: anyone may join") if s.open else s.player.name}
        for s in game.seats
    ]
    timing = policy.timing_of(game.timing)
    pace = lazy_(
        "%(turn)s hours for a turn, %(power_card)s for a power card, %(pick)s for a pick, "
        "%(veto)s for a Veto",
        turn=timing["turn_hours"],
        power_card=timing["power_card_hours"],
        pick=timing["pick_hours"],
        veto=timing["veto_hours"],
    )
    mails = []
    for seat in game.seats:
        if seat.open or seat.bot or seat.player_id == organiser.id:
            continue
        to = recipient(seat.player, seat.colour, game)
        mail = compose.invitation_mail(
            to,
            game_id=game.id,
            title=game.title,
            organiser=organiser.name,
            seats=seats,
            pace=pace,
            rounds=(game.options or {}).get("rounds", 9),
        )
        mails.append((to, "invitation", mail))
    queue(connection, rows_for(mails, game.id))


def game_started(
    connection: Connection,
    *,
    game_id: int,
    title: str,
    state: engine.State,
    only: set[str] | None = None,
    due: Mapping[str, datetime] | None = None,
    state_seq: int | None = None,
) -> None:
    """Each seat's first mail (the root of its thread: how to play, a link to decline the
    seat, and for an invited email a link to claim an API key), then its pending decision's.
    `only`: just these colours' (a seat given to someone new)."""
    seated = recipients(connection, game_id)
    seats = [{"colour": r.colour, "name": r.name} for r, _ in seated]
    deferred: list[OutboxRow] = []
    if only is not None:
        seated = [(r, p) for r, p in seated if r.colour in only]
    mails = []
    # The organiser made the game: their own first mail offers no "decline the seat".
    organiser = db.session.get_one(Game, game_id).creator_id
    # A seat its holder accepted is theirs by choice: no "decline" in its mail.
    accepted = set(
        db.session.scalars(
            select(Seat.colour).where(Seat.game_id == game_id, Seat.accepted_at.is_not(None))
        )
    )
    for recipient, preferences in seated:
        if not wants(preferences, game_id, "decision"):
            continue
        player = db.session.get_one(Player, recipient.player_id)
        mail = compose.welcome_mail(
            recipient,
            game_id=game_id,
            title=title,
            seats=seats,
            # A proved address signs in by its mailed links: no API key to claim.
            claim_token=None if player.email_proved_at else claim_token(player),
            declinable=recipient.player_id != organiser and recipient.colour not in accepted,
        )
        mails.append((recipient, "welcome", mail))
    pending = {entry["player"]: entry for entry in engine.pending(state)}
    pushed: dict[int, Pushed] = {}
    for recipient, preferences in seated:
        if recipient.colour in pending and wants(preferences, game_id, "decision"):
            seq = state_seq if state_seq is not None else 0
            decision = pending[recipient.colour]
            deferred.append(
                decision_row(game_id, recipient, decision, seq, (due or {}).get(recipient.colour))
            )
        pushed_to = recipient.pushes and wants_push(preferences, game_id, "decision")
        if recipient.colour in pending and pushed_to:
            push = decision_push(recipient, pending[recipient.colour])
            pushed.setdefault(recipient.player_id, push)
    pushes = push_rows(connection, game_id, list(pushed.values()))
    queue(connection, rows_for(mails, game_id) + deferred + pushes)


def seat_declined(connection: Connection, *, game: Any, seat: Any) -> None:
    """Tell the game's admin that a seat was declined, and how to give it on."""
    admin = game.creator
    colour = next((s.colour for s in game.seats if s.player_id == admin.id), None)
    to = recipient(admin, colour, game)
    mail = compose.declined_mail(
        to, game_id=game.id, title=game.title, colour=seat.colour, name=seat.player.name
    )
    queue(connection, rows_for([(to, "declined", mail)], game.id))


def seat_given(connection: Connection, *, game: Any, seats: list[Any]) -> None:
    """A seat's new holder gets the first mail of the seat, and its decision if pending."""
    state = current_state(game.id, game.seed, game.seq)
    due = {
        d.colour: d.due_at
        for d in connection.execute(
            select(Deadline.colour, Deadline.due_at).where(Deadline.game_id == game.id)
        )
    }
    game_started(
        connection,
        game_id=game.id,
        title=game.title,
        state=state,
        only={s.colour for s in seats},
        due=due,
        state_seq=game.seq,
    )


def _seat_recipient(connection: Connection, game_id: int, colour: str) -> Seated:
    return next((r, p) for r, p in recipients(connection, game_id) if r.colour == colour)


def seat_mail(
    connection: Connection,
    game_id: int,
    colour: str,
    kind: str,
    payload: dict[str, Any],
    wanted: str | None = None,
) -> None:
    """A mail to one seat's holder, composed later from `payload` (a hint asked by mail, a
    review); if `wanted` names a kind of mail, only to one whose preferences ask for it."""
    recipient, preferences = _seat_recipient(connection, game_id, colour)
    if wanted is None or wants(preferences, game_id, wanted):
        queue(connection, present([told_row(game_id, recipient, kind, payload)]))


def hint_push(connection: Connection, game_id: int, colour: str) -> None:
    """A push to the seat's holder's browsers that the hint they asked is worked out (for a
    hint asked on the page or by the API; one asked by mail is mailed). It says no more:
    a push shows on a locked screen, and a hint is the seat's alone."""
    recipient, preferences = _seat_recipient(connection, game_id, colour)
    if recipient.pushes and wants_push(preferences, game_id, "decision"):
        pushed: Pushed = (recipient.player_id, "hint", {"colour": colour})
        queue(connection, push_rows(connection, game_id, [pushed]))


def reminder(connection: Connection, *, game: Any, seat: Any, due_at: Any) -> None:
    """A decision's reminder: the decision mail again, with "Reminder" and its deadline."""
    recipient, preferences = _seat_recipient(connection, game.id, seat.colour)
    if not wants(preferences, game.id, "decision"):
        return
    state = current_state(game.id, game.seed, game.seq)
    decision = next(p for p in engine.pending(state) if p["player"] == seat.colour)
    payload = decision_payload(recipient, decision, game.seq, due_at)
    queue(connection, present([told_row(game.id, recipient, "reminder", payload)]))


def timed_out(
    connection: Connection,
    *,
    game: Any,
    seat: Any,
    kind: str,
    moves: list[engine.Move],
    seq: int,
    bot_now: bool,
    card: str | None = None,
) -> None:
    """Tell a seat what the server played when its time ran out (`card`: the action card in
    play before, which its moves answered); if a bot now takes the seat, tell everyone."""
    seated = recipients(connection, game.id)
    recipient, preferences = next((r, p) for r, p in seated if r.colour == seat.colour)
    if wants(preferences, game.id, "decision"):
        payload = {
            "colour": recipient.colour,
            "decision": kind,
            "moves": moves,
            "seq": seq,
            "bot_now": bot_now,
            "card": card,
        }
        queue(connection, present([told_row(game.id, recipient, "timeout", payload)]))
    if bot_now:
        notice(
            connection,
            game=game,
            subject=lazy_("a bot now plays %(colour)s", colour=words.colour_later(seat.colour)),
            lines=[
                lazy_(
                    "%(name)s ran out of time on several decisions in a row, so a bot "
                    "plays %(colour)s until they take the seat back.",
                    name=recipient.name,
                    colour=words.colour_later(seat.colour),
                )
            ],
            skip_player=recipient.player_id,
        )


def notice(
    connection: Connection,
    *,
    game: Any,
    subject: str,
    lines: list[str],
    skip_player: int | None = None,
) -> None:
    """A short game-wide notice (a bot takes or leaves a seat, the game is abandoned)."""
    mails = []
    seen = set()
    for recipient, preferences in recipients(connection, game.id):
        if recipient.player_id in seen or recipient.player_id == skip_player:
            continue
        seen.add(recipient.player_id)
        if wants(preferences, game.id, "game_over"):
            mail = compose.notice_mail(
                recipient, game_id=game.id, title=game.title, subject=subject, lines=lines
            )
            mails.append((recipient, "notice", mail))
    queue(connection, rows_for(mails, game.id))


def table_talk(
    connection: Connection,
    *,
    game_id: int,
    title: str,
    colour: str,
    lines: list[str],
    seq: int,
    said_at: datetime | None = None,
) -> None:
    """Words `colour`'s holder wrote to the table (at `said_at`), to every other person in
    the game (once each, to their first seat's thread), as their preferences say: a mail of
    its own, or a part of their digest."""
    seated = recipients(connection, game_id)
    speaker = next(r for r, _ in seated if r.colour == colour)
    # The speaker as named when they spoke, whoever holds the seat later.
    said = {"speaker": speaker.name, "speaker_colour": colour, "lines": lines}
    unheard = table.unheard(connection, game_id, colour, speaker.player_id)
    rows = []
    pushed: list[Pushed] = []
    for recipient, preferences in seated:
        if recipient.player_id == speaker.player_id or recipient.player_id in unheard:
            continue
        if recipient.colour != first_colour(seated, recipient.player_id):
            continue
        if wants(preferences, game_id, "table_talk"):
            # When, for the mail to say: a digest may gather words of days ago.
            payload = {"colour": recipient.colour, **said, "seq": seq}
            payload["said_at"] = compose.when(said_at)
            rows.append(told_row(game_id, recipient, "table_talk", payload, preferences))
        if recipient.pushes and wants_push(preferences, game_id, "table_talk"):
            pushed.append((recipient.player_id, "table_talk", {**said}))
    queue(connection, present(rows) + push_rows(connection, game_id, pushed))


def seat_back(connection: Connection, *, game: Any, colour: str) -> None:
    """A person takes their seat back from the bot: what happened while it played, and the
    decision now theirs, if any."""
    recipient, preferences = _seat_recipient(connection, game.id, colour)
    if not wants(preferences, game.id, "decision"):
        return
    entries = history.since_last_move(connection, game.id, colour, game.seq, by_person=True)
    named = {**seat_names(game), colour: lazy_("your bot")}
    story = words.story(engine.visible_log(entries, {colour}), named, None)
    lines = [lazy_("You play %(colour)s again.", colour=words.colour_later(colour))]
    if story:
        lines += [lazy_("While the bot played it:"), *(f"  {line}" for line in story)]
    mail = compose.notice_mail(
        recipient,
        game_id=game.id,
        title=game.title,
        subject=lazy_("you play %(colour)s again", colour=words.colour_later(colour)),
        lines=lines,
    )
    rows = rows_for([(recipient, "notice", mail)], game.id)
    state = current_state(game.id, game.seed, game.seq)
    decision = next((p for p in engine.pending(state) if p["player"] == colour), None)
    if decision is not None:
        due = connection.execute(
            select(Deadline.due_at).where(Deadline.game_id == game.id, Deadline.colour == colour)
        ).scalar()
        rows.append(decision_row(game.id, recipient, decision, game.seq, due))
    queue(connection, rows)


def cancelled(connection: Connection, *, game: Any) -> None:
    notice(
        connection,
        game=game,
        subject=lazy_("the game is cancelled"),
        lines=[
            lazy_(
                "Not every seat of this game was taken and accepted in time, so it is cancelled. "
                "Its organiser may make it again."
            )
        ],
    )


def abandoned(connection: Connection, *, game: Any) -> None:
    notice(
        connection,
        game=game,
        subject=lazy_("the game is abandoned"),
        lines=[lazy_("Nobody has moved in this game for too long, so it is abandoned.")],
    )


def decision_row(
    game_id: int, recipient: Recipient, decision: Mapping[str, Any], seq: int, due: Any
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
    recipient: Recipient, decision: Mapping[str, Any], seq: int, due: Any
) -> dict[str, Any]:
    """What a decision mail (or its reminder) says: whose seat, at which seq, what is
    asked, and by when."""
    return {
        "colour": recipient.colour,
        "seq": seq,
        "decision": decision,
        "deadline": compose.when(due),
    }


def present(rows: Iterable[OutboxRow | None]) -> list[OutboxRow]:
    """The rows `told_row` made (not the None it gives for a house bot's address)."""
    return [each for each in rows if each is not None]
