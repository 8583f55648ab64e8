"""Mail taken in: its record and its answer, written in the mail's transaction.

The record (table `inbound_mails`) handles each Message-ID once, and gives one address (or
one seat and sender) at most MAIL_ANSWERS_PER_HOUR answers an hour to mails that played
nothing, so a mail loop dies quickly. The mail door (`pbem.mailin`) reads a mail and
decides what became of it: moves played (`play_reply`, through `submit`, which commits),
or nothing played (`NothingPlayed`: commands answered and words passed on to the table, or
refused), the help for a mail to the plain address (`answer_help`), a mail kept aside
(`keep_aside`). These functions write the record and queue the answer with it, as what it
says (the door's lines, written in the reader's language, and the seqs of what it shows),
for the sender to compose (`notify.composing.seat_answer`); the transaction then ends with
`commit_or_duplicate`, which tells a message delivered twice at once (the record's unique
Message-ID) from a failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal, Protocol

from flask import current_app
from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

import engine
from pbem.clock import now
from pbem.extensions import db
from pbem.game.seating import Actor
from pbem.languages import in_language, lazy_
from pbem.notify import outbox
from pbem.notify.answers import Shown
from pbem.notify.compose import Recipient
from pbem.notify.payloads import AnswerPayload, Thread
from pbem.play import proofs, unit
from pbem.play.batch import Outcome, Plan, submit
from pbem.play.talk import LONGEST, MOST_LINES, pace_refusal, say
from pbem.store import tables


class Received(Protocol):
    """A mail taken in, as its record and its answer's thread need it."""

    @property
    def message_id(self) -> str:
        """The key it is recorded by."""

    @property
    def sender(self) -> str:
        """From's bare address, lowercased ("" if none)."""

    @property
    def message_header(self) -> str:
        """Its Message-ID as written: what an answer replies to."""

    @property
    def references(self) -> list[str]:
        """Its thread (References), for the answer's."""


@dataclass
class SeatAnswer:
    """The answer to a seat's mail, as the door decides it while it reads: to the seat's
    holder (never the sender, who may be anyone), the lines it says in order (a refusal's
    reason first, what each command did, notes on the reading) and what it shows."""

    recipient: Recipient
    game_id: int
    title: str
    colour: str
    lines: list[str] = field(default_factory=list)
    shown: Shown = field(default_factory=Shown)
    #: The mail came from the holder's own address (the door's checks passed): it proves
    #: that address, if nothing had yet (`proofs.prove_by_reply`).
    proves: bool = False


@dataclass
class NothingPlayed:
    """What the door decided of a seat's mail that played no move: "answered" (its
    commands were run, and `talk` is passed on to the table), "refused", or "quarantined"
    (no reader can read it: kept aside). The answer shows the game as it is now (`state`:
    None for a game not there to show; `seq`)."""

    outcome: Literal["answered", "refused", "quarantined"]
    answer: SeatAnswer
    state: engine.State | None
    seq: int
    talk: list[str] = field(default_factory=list)


def earlier(message_id: str) -> str | None:
    """What became of this message before (its outcome), None if it is new."""
    return db.session.execute(
        select(tables.inbound_mails.c.outcome).where(
            tables.inbound_mails.c.message_id == message_id
        )
    ).scalar()


def seen(message_id: str) -> bool:
    return earlier(message_id) is not None


def commit_or_duplicate() -> bool:
    """The mail door's edge: commit the mail's record (and whatever was done with it).
    False when the same message, delivered twice at once, was recorded by the other
    delivery first: then nothing of this one stays."""
    try:
        unit.commit()
    except IntegrityError:
        unit.rollback()
        return False
    return True


def answer_help(mail: Received) -> bool:
    """Record a mail to the plain address and queue the help text to whoever wrote (at most
    MAIL_ANSWERS_PER_HOUR an hour); the door commits. True if the help was queued."""
    answer = _may_answer(mail.sender)
    connection = db.session.connection()
    _record(
        connection,
        mail,
        game_id=None,
        colour=None,
        outcome="help",
        answered_to=mail.sender if answer else None,
    )
    if answer:
        # Composed by the sender (`composing.account_mail`), in the thread of the mail.
        thread = Thread(in_reply_to=mail.message_header, references=list(mail.references))
        help_row = outbox.row(
            game_id=None, player_id=None, kind="answer", recipient=mail.sender, payload=thread
        )
        outbox.queue(connection, [help_row])
    return answer


def keep_aside(mail: Received) -> None:
    """Record a mail kept aside (so it is never handled again), with no answer: what it
    says is not known. The door commits."""
    _record(
        db.session.connection(),
        mail,
        game_id=None,
        colour=None,
        outcome="quarantined",
        answered_to=None,
    )


def answer_seat(mail: Received, decided: NothingPlayed) -> bool:
    """Pass the mail's words on to the table (if any), record the mail and queue its
    answer (unless past the hourly limit); the door commits. True if an answer was queued."""
    connection = db.session.connection()
    if decided.talk:
        _pass_on(connection, decided.answer, decided.talk, decided.seq)
    return _answer(
        connection,
        mail,
        decided.answer,
        outcome=decided.outcome,
        state=decided.state,
        seq=decided.seq,
    )


def play_reply(
    actor: Actor, mail: Received, answer: SeatAnswer, plan: Plan, talk: list[str]
) -> tuple[Outcome, bool]:
    """Play a seat's reply through `submit` (`plan` reads its moves against the game) and,
    in the same transaction, pass its words to the table (`talk`) on, record the mail and
    queue its answer: a reply that played a move is always answered. `submit` commits, or
    raises as it does (StaleSequence when another move, or this very mail delivered twice
    at once, came first). The outcome, and whether an answer was queued."""
    answered: list[bool] = []

    def also_write(connection: Connection, outcome: Outcome) -> None:
        if talk:
            _pass_on(connection, answer, talk, outcome.seq)
        answered.append(
            _answer(
                connection,
                mail,
                answer,
                outcome="played",
                state=outcome.after,
                seq=outcome.seq,
                played=outcome.entries,
            )
        )

    outcome = submit(
        actor,
        answer.game_id,
        None,
        plan,
        source="email",
        colour=answer.colour,
        also_write=also_write,
    )
    return outcome, bool(answered and answered[0])


def _may_answer(address: str) -> bool:
    """Whether a mail to the plain address may still be answered (help): at most
    MAIL_ANSWERS_PER_HOUR answers an hour to one address, so a mail loop stops there. The
    answers to replies that played a move are not counted: a player in a brisk game may
    write forty of them an hour, and still needs the help."""
    since = now() - timedelta(hours=1)
    count = db.session.execute(
        select(func.count())
        .select_from(tables.inbound_mails)
        .where(
            tables.inbound_mails.c.answered_to == address,
            tables.inbound_mails.c.outcome != "played",
            tables.inbound_mails.c.received_at >= since,
        )
    ).scalar_one()
    return bool(count < int(current_app.config["MAIL_ANSWERS_PER_HOUR"]))


def _may_answer_seat(game_id: int, colour: str, sender: str) -> bool:
    """Whether a seat's mail that played nothing (a refusal, help, commands) may still be
    answered: MAIL_ANSWERS_PER_HOUR an hour for each seat and sender. A mail loop stops
    there; mail from someone else (a forger) spends only its sender's answers, never the
    holder's. A mail that played a move is always answered (`_answer`)."""
    since = now() - timedelta(hours=1)
    count = db.session.execute(
        select(func.count())
        .select_from(tables.inbound_mails)
        .where(
            tables.inbound_mails.c.game_id == game_id,
            tables.inbound_mails.c.colour == colour,
            tables.inbound_mails.c.sender == sender[:254],
            tables.inbound_mails.c.outcome != "played",
            tables.inbound_mails.c.answered_to.is_not(None),
            tables.inbound_mails.c.received_at >= since,
        )
    ).scalar_one()
    return bool(count < int(current_app.config["MAIL_ANSWERS_PER_HOUR"]))


def _record(
    connection: Connection,
    mail: Received,
    *,
    game_id: int | None,
    colour: str | None,
    outcome: str,
    answered_to: str | None,
) -> None:
    connection.execute(
        insert(tables.inbound_mails),
        {
            "message_id": mail.message_id,
            "game_id": game_id,
            "colour": colour,
            "sender": mail.sender[:254],
            "outcome": outcome,
            "answered_to": answered_to,
            "received_at": now(),
        },
    )


def _pass_on(connection: Connection, answer: SeatAnswer, talk: list[str], seq: int) -> None:
    """Words to the table, kept and queued to the others (in the mail's transaction), if
    the writer has not had their messages of the minute (the page's and the API's count
    too; a mail's words are one message); else not, and the answer says why."""
    refused = pace_refusal(connection, answer.game_id, answer.recipient.player_id)
    if refused is not None:
        note = lazy_("Your words to the table were not passed on: %(reason)s", reason=refused)
        if note not in answer.lines:  # the plan runs again when another move lands first
            answer.lines.append(note)
        return
    kept = say(
        connection,
        game_id=answer.game_id,
        title=answer.title,
        colour=answer.colour,
        player_id=answer.recipient.player_id,
        lines=talk,
        seq=seq,
    )
    quoted = "; ".join(f'"{line}"' for line in kept)
    note = lazy_("Passed on to the other players: %(quoted)s", quoted=quoted)
    if len(kept) < len(talk) or any(k != t for k, t in zip(kept, talk, strict=False)):
        note = lazy_(
            "Passed on to the other players: %(quoted)s (at most %(lines)s lines of "
            "%(characters)s characters)",
            quoted=quoted,
            lines=MOST_LINES,
            characters=LONGEST,
        )
    if note not in answer.lines:  # the plan runs again when another move lands first
        answer.lines.append(note)


def _answer(
    connection: Connection,
    mail: Received,
    answer: SeatAnswer,
    *,
    outcome: str,
    state: engine.State | None,
    seq: int | None,
    played: list[engine.LogEntry] | None = None,
) -> bool:
    """Record the mail and queue its answer (a mail that played nothing: unless past the
    hourly limit); the caller commits. True if an answer was queued."""
    recipient = answer.recipient
    if answer.proves:
        proofs.prove_by_reply(connection, recipient.player_id, mail.sender)
    # A move played is always answered: the answer says what comes next.
    may = outcome == "played" or _may_answer_seat(answer.game_id, answer.colour, mail.sender)
    _record(
        connection,
        mail,
        game_id=answer.game_id,
        colour=answer.colour,
        outcome=outcome,
        answered_to=recipient.email if may else None,
    )
    if not may:
        return False
    shown = answer.shown
    # The door's own lines are written now, in the answer's language (what a refusal or a
    # command said is known only here); the rest, from the game at the seqs it names, by
    # the sender (`composing.seat_answer`), so no mail is drawn in this transaction.
    with in_language(recipient.language):
        lines = [str(line) for line in answer.lines]
    payload = AnswerPayload(
        colour=answer.colour,
        outcome=outcome,
        lines=lines,
        # The game as the answer shows what is pending (None: not there to show).
        seq=seq if state is not None else None,
        # The seqs of the moves the reply played (first, last), told as the seat saw them.
        played=[played[0]["seq"], played[-1]["seq"]] if played else None,
        board_seq=shown.board_seq,
        log_seq=shown.log_seq,
        help=shown.help,
        in_reply_to=mail.message_header,
        references=list(mail.references),
    )
    row = outbox.told_row(answer.game_id, recipient, "answer", payload)
    outbox.queue(connection, outbox.present([row]))
    return True
