"""The record of mails taken in (table `inbound_mails`): each Message-ID is handled once, and
one address gets at most MAIL_ANSWERS_PER_HOUR answers an hour, so a mail loop dies quickly.
Also what the door did with a mail (`Result`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from flask import current_app
from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from pbem.clock import now
from pbem.extensions import db
from pbem.mailin.reading import Inbound
from pbem.store.models import InboundMail

#: sysexits.h: the address names no one here, so the MTA bounces the mail.
EX_NOUSER = 67

_inbound = InboundMail.__table__


@dataclass
class Result:
    """What the door did with a mail."""

    # played, answered, refused, help, ignored, duplicate, no_seat, quarantined (kept aside:
    # no reader can read it)
    outcome: str
    reason: str = ""
    game_id: int | None = None
    colour: str | None = None
    seq: int | None = None
    answered: bool = False
    played: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """For `pbem mail receive`: 0 when handled, EX_NOUSER to have the MTA bounce it."""
        return EX_NOUSER if self.outcome == "no_seat" else 0


def seen(message_id: str) -> bool:
    return _earlier(message_id) is not None


def _earlier(message_id: str) -> str | None:
    """What became of this message before (its outcome), None if it is new."""
    return db.session.execute(
        select(_inbound.c.outcome).where(_inbound.c.message_id == message_id)
    ).scalar()


def duplicate(inbound: Inbound) -> Result:
    if _earlier(inbound.message_id) == "quarantined":
        # Sent again: refused again (SMTP's 5xx), still kept aside.
        return Result("quarantined", f"{inbound.message_id} was kept aside already")
    return Result("duplicate", f"{inbound.message_id} was handled already")


def may_answer(address: str) -> bool:
    """Whether a mail to the plain address may still be answered (help): at most
    MAIL_ANSWERS_PER_HOUR answers an hour to one address, so a mail loop stops there. The
    answers to replies that played a move are not counted: a player in a brisk game may
    write forty of them an hour, and still needs the help."""
    since = now() - timedelta(hours=1)
    answers = db.session.execute(
        select(func.count())
        .select_from(_inbound)
        .where(
            _inbound.c.answered_to == address,
            _inbound.c.outcome != "played",
            _inbound.c.received_at >= since,
        )
    ).scalar_one()
    return bool(answers < int(current_app.config["MAIL_ANSWERS_PER_HOUR"]))


def may_answer_seat(game_id: int, colour: str, sender: str) -> bool:
    """Whether a seat's mail that played nothing (a refusal, help, commands) may still be
    answered: MAIL_ANSWERS_PER_HOUR an hour for each seat and sender. A mail loop stops
    there; mail from someone else (a forger) spends only its sender's answers, never the
    holder's. A mail that played a move is always answered (`replies._answer`)."""
    since = now() - timedelta(hours=1)
    answers = db.session.execute(
        select(func.count())
        .select_from(_inbound)
        .where(
            _inbound.c.game_id == game_id,
            _inbound.c.colour == colour,
            _inbound.c.sender == sender[:254],
            _inbound.c.outcome != "played",
            _inbound.c.answered_to.is_not(None),
            _inbound.c.received_at >= since,
        )
    ).scalar_one()
    return bool(answers < int(current_app.config["MAIL_ANSWERS_PER_HOUR"]))


def record(
    connection: Connection,
    inbound: Inbound,
    *,
    game_id: int | None,
    colour: str | None,
    outcome: str,
    answered_to: str | None,
) -> None:
    connection.execute(
        insert(_inbound),
        {
            "message_id": inbound.message_id,
            "game_id": game_id,
            "colour": colour,
            "sender": inbound.sender[:254],
            "outcome": outcome,
            "answered_to": answered_to,
            "received_at": now(),
        },
    )


def commit_or_duplicate(inbound: Inbound, result: Result) -> Result:
    """The door's edge: commit the mail's record (and whatever was done with it)."""
    try:
        db.session.commit()
    except IntegrityError:
        # The same message, delivered twice at once: the other delivery handled it.
        db.session.rollback()
        return duplicate(inbound)
    return result
