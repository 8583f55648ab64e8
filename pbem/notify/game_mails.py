"""What a game's life and its seats tell, queued in the transaction that causes them: the
invitations, the start, a seat declined, given, handed to a bot and taken back, a reminder,
a timeout, a notice to the table, words to the table, a hint ready, a game cancelled or
abandoned."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

import engine
from pbem.extensions import db
from pbem.game import table
from pbem.game.players import claim_token
from pbem.game.states import current_state
from pbem.languages import N_
from pbem.notify import compose, outbox
from pbem.notify.after_moves import decision_push
from pbem.notify.compose import seat_of
from pbem.notify.outbox import (
    OutboxRow,
    Pushed,
    decision_payload,
    decision_row,
    first_colour,
    present,
    push_rows,
    queue,
    recipients,
    seat_recipient,
    told_row,
)
from pbem.notify.payloads import (
    DeclinedPayload,
    InvitationPayload,
    InvitedSeat,
    NoticePayload,
    PushPayload,
    TableTalkPayload,
    TimeoutPayload,
    WelcomePayload,
    WelcomeSeat,
)
from pbem.notify.preferences import wants, wants_push
from pbem.store.models import Deadline, Game, Player, Seat
from pbem.words.said import Said, colour_said, said


def invitations(connection: Connection, *, game: Any, organiser: Player) -> None:
    """Each invited seat of a game that forms gets its invitation (not the organiser's own
    seat, a bot's, or an open one), composed by the sender (`composing.invitation`)."""
    seats = [InvitedSeat(colour=s.colour, name=s.player.name, open=s.open) for s in game.seats]
    rows = []
    for seat in game.seats:
        if seat.open or seat.bot or seat.player_id == organiser.id:
            continue
        to = outbox.recipient(seat.player, seat.colour, game)
        invited = InvitationPayload(colour=seat.colour, organiser=organiser.name, seats=seats)
        rows.append(told_row(game.id, to, "invitation", invited))
    queue(connection, present(rows))


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
    seats = [WelcomeSeat(colour=seat_of(r), name=r.name) for r, _ in seated]
    deferred: list[OutboxRow] = []
    if only is not None:
        seated = [(r, p) for r, p in seated if r.colour in only]
    welcomes = []
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
        payload = WelcomePayload(
            colour=seat_of(recipient),
            seats=seats,
            # A proved address signs in by its mailed links: no API key to claim.
            claim_token=None if player.email_proved_at else claim_token(player),
            declinable=recipient.player_id != organiser and recipient.colour not in accepted,
        )
        welcomes.append(told_row(game_id, recipient, "welcome", payload))
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
    queue(connection, present(welcomes) + deferred + pushes)


def seat_declined(connection: Connection, *, game: Any, seat: Any) -> None:
    """Tell the game's admin that a seat was declined, and how to give it on."""
    admin = game.creator
    colour = next((s.colour for s in game.seats if s.player_id == admin.id), None)
    to = outbox.recipient(admin, colour, game)
    payload = DeclinedPayload(colour=colour, seat_colour=seat.colour, name=seat.player.name)
    queue(connection, present([told_row(game.id, to, "declined", payload)]))


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


def hint_push(connection: Connection, game_id: int, colour: str) -> None:
    """A push to the seat's holder's browsers that the hint they asked is worked out (for a
    hint asked on the page or by the API; one asked by mail is mailed). It says no more:
    a push shows on a locked screen, and a hint is the seat's alone."""
    recipient, preferences = seat_recipient(connection, game_id, colour)
    if recipient.pushes and wants_push(preferences, game_id, "decision"):
        pushed: Pushed = (recipient.player_id, "hint", {"colour": colour})
        queue(connection, push_rows(connection, game_id, [pushed]))


def reminder(connection: Connection, *, game: Any, seat: Any, due_at: Any) -> None:
    """A decision's reminder: the decision mail again, with "Reminder" and its deadline."""
    recipient, preferences = seat_recipient(connection, game.id, seat.colour)
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
        payload = TimeoutPayload(
            colour=seat_of(recipient),
            decision=kind,
            moves=moves,
            seq=seq,
            bot_now=bot_now,
            card=card,
        )
        queue(connection, present([told_row(game.id, recipient, "timeout", payload)]))
    if bot_now:
        notice(
            connection,
            game=game,
            subject=said(N_("a bot now plays %(colour)s"), colour=colour_said(seat.colour)),
            lines=[
                said(
                    N_(
                        "%(name)s ran out of time on several decisions in a row, so a bot "
                        "plays %(colour)s until they take the seat back."
                    ),
                    name=recipient.name,
                    colour=colour_said(seat.colour),
                )
            ],
            skip_player=recipient.player_id,
        )


def notice(
    connection: Connection,
    *,
    game: Any,
    subject: Said,
    lines: list[Said],
    skip_player: int | None = None,
) -> None:
    """A short game-wide notice (a bot takes or leaves a seat, the game is abandoned), to
    each person once, to their first seat's thread: what it says as words to be written in
    each reader's language (`words.said`), composed by the sender (`composing.notice`)."""
    rows = []
    seen = set()
    for recipient, preferences in recipients(connection, game.id):
        if recipient.player_id in seen or recipient.player_id == skip_player:
            continue
        seen.add(recipient.player_id)
        if wants(preferences, game.id, "game_over"):
            payload = NoticePayload(colour=seat_of(recipient), subject=subject, lines=lines)
            rows.append(told_row(game.id, recipient, "notice", payload))
    queue(connection, present(rows))


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
    said = PushPayload(speaker=speaker.name, speaker_colour=colour, lines=lines)
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
            payload = TableTalkPayload(
                colour=seat_of(recipient),
                speaker=speaker.name,
                speaker_colour=colour,
                lines=lines,
                seq=seq,
                said_at=compose.when(said_at),
            )
            rows.append(told_row(game_id, recipient, "table_talk", payload, preferences))
        if recipient.pushes and wants_push(preferences, game_id, "table_talk"):
            pushed.append((recipient.player_id, "table_talk", said))
    queue(connection, present(rows) + push_rows(connection, game_id, pushed))


def seat_back(connection: Connection, *, game: Any, colour: str) -> None:
    """A person takes their seat back from the bot: what happened while it played (composed
    by the sender, `composing.seat_back`), and the decision now theirs, if any."""
    recipient, preferences = seat_recipient(connection, game.id, colour)
    if not wants(preferences, game.id, "decision"):
        return
    back = told_row(game.id, recipient, "seat_back", {"colour": colour, "seq": game.seq})
    rows = present([back])
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
        subject=said(N_("the game is cancelled")),
        lines=[
            said(
                N_(
                    "Not every seat of this game was taken and accepted in time, so it is "
                    "cancelled. Its organiser may make it again."
                )
            )
        ],
    )


def abandoned(connection: Connection, *, game: Any) -> None:
    notice(
        connection,
        game=game,
        subject=said(N_("the game is abandoned")),
        lines=[said(N_("Nobody has moved in this game for too long, so it is abandoned."))],
    )
