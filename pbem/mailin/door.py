"""The inbound door: one incoming mail in, a `Result` out, whichever way it came (a pipe
from the MTA, the SMTP listener, the IMAP poller).

Who writes is settled here: the recipient address (a seat's signed reply address acts for
that seat only) and the From (the seat holder's email), then the server's own checks. What
the mail says is read above the quote and handled by `replies` (moves played through
`play.submit`, source "email", and commands); a mail to the plain address gets the help.
Every mail that is not automatic gets one answer in its thread: the door decides what it
says, and `pbem.play.inbound` queues it in the outbox in the transaction that records the
mail (and plays its moves, if any).
"""

from __future__ import annotations

import hashlib
import time
from email.message import Message

from flask import current_app

from pbem.game import games
from pbem.game.players import normal_email
from pbem.languages import in_language, language_of, lazy_
from pbem.mailin import aside, reading, replies
from pbem.mailin.commands import SeatMail
from pbem.mailin.result import EX_NOUSER, Result, committed, duplicate
from pbem.notify import addresses
from pbem.play import moderation, unit
from pbem.play.inbound import answer_help, keep_aside, seen
from pbem.store import outage
from pbem.store.outage import is_outage


def process_inbound(raw: bytes, *, recipient: str | None = None) -> Result:
    """Handle one RFC 822 message. `recipient` is the envelope recipient when the door
    knows it (SMTP's RCPT, the MTA's $ORIGINAL_RECIPIENT); else the headers name it."""
    started = time.thread_time()
    try:
        with unit.undone_on_error():
            result = _process_trying_again(raw, recipient)
    except Exception as error:
        if is_outage(error):
            raise  # the door has the mail retried: the database is back in a moment
        # A bug met on this one mail: retrying meets it again, and the mails behind wait.
        current_app.logger.exception("mail in: kept aside after an error")
        result = _kept_aside(raw, f"error: {type(error).__name__}")
    # One log line a mail, whichever door it came by (never its text: it is the player's).
    current_app.logger.info(
        "mail in",
        extra={
            "outcome": result.outcome,
            "reason": result.reason,
            "game_id": result.game_id,
            "colour": result.colour,
            "played": len(result.played),
            # What the mail cost this door's thread: reading, playing and answering it.
            "cpu_ms": round((time.thread_time() - started) * 1000, 1),
        },
    )
    return result


def _process_trying_again(raw: bytes, recipient: str | None) -> Result:
    """`_process`, again in place when PostgreSQL aborted its transaction for another's
    sake (a deadlock's victim: nothing of it was written)."""
    for attempt in range(outage.DEADLOCK_TRIES):
        try:
            with unit.undone_on_error():
                return _process(raw, recipient)
        except Exception as error:
            if not outage.is_deadlock(error) or attempt == outage.DEADLOCK_TRIES - 1:
                raise
    raise AssertionError("unreachable: the last try raises")


def seat_of_address(address: str) -> tuple[int, str] | None:
    """(game, colour) of a signed seat address whose seat exists, else None."""
    seat = addresses.read_seat_address(address)
    if seat is None:
        return None
    with unit.only_read():  # SMTP asks in a thread of its own: its read ends here
        found = games.has_seat(*seat)
    return seat if found else None


def accepts(address: str) -> bool:
    """Whether mail to `address` is ours to take (SMTP's RCPT): a seat's, or the plain one."""
    return address.strip().lower() == addresses.sender_address().lower() or (
        seat_of_address(address) is not None
    )


def _process(raw: bytes, recipient: str | None) -> Result:
    inbound = reading.read_headers(raw)
    own = addresses.sender_address().lower()
    candidates = [recipient.strip().lower()] if recipient else inbound.recipients
    seat = next((s for s in map(seat_of_address, candidates) if s), None)
    if seat is None and own not in candidates:
        return Result("no_seat", f"no seat at {', '.join(candidates) or '(no recipient)'}")
    why = reading.auto_reply(inbound, own)
    if why:
        return Result("ignored", f"automatic mail ({why})")
    if seen(inbound.message_id):
        return duplicate(inbound)
    if seat is None:
        return _help(inbound)
    game_id, colour = seat
    game = games.get_game(game_id)  # the seat exists, so does its game
    holder = next(s.player for s in game.seats if s.colour == colour)
    # The answer, and any refusal in it, is written in the seat's language.
    with in_language(language_of(holder.preferences, game.language)):
        return _from_seat(raw, SeatMail(inbound, game, colour, holder))


def _from_seat(raw: bytes, mail: SeatMail) -> Result:
    inbound, holder = mail.inbound, mail.holder
    refusal = _refusal(raw, inbound, holder.email)
    if refusal is not None:
        reason, why = refusal
        return replies.refuse(mail, reason, why=why)
    kept_away = moderation.refusal(holder)
    if kept_away is not None:
        return replies.refuse(
            mail,
            lazy_("%(why)s Nothing was played or passed on.", why=kept_away.detail),
            why="kept away",
        )
    mail.from_holder = True
    budget = reading.Budget()
    try:
        text = reading.new_text(reading.parse_whole(raw, budget), budget)
    except reading.Malformed as error:
        aside.keep(raw, inbound.sender)
        return replies.refuse(
            mail,
            lazy_(
                "Your mail could not be read: %(why)s. Nothing was played; reply in plain text.",
                why=error,
            ),
            why="malformed: kept aside",
            outcome="quarantined",
        )
    except reading.Unreadable as error:
        return replies.refuse(
            mail,
            lazy_(
                "Your mail could not be read: %(why)s. Nothing was played; reply in plain text.",
                why=error,
            ),
            why="unreadable",
        )
    return replies.handle(mail, text)


def _refusal(raw: bytes, inbound: reading.Inbound, holder: str) -> tuple[str, str] | None:
    """Why a mail to a seat may not act for it (what to tell the holder, and the log's
    word), or None: not from the holder's address, failing our server's sender checks, or
    too large to read."""
    if inbound.sender != normal_email(holder):
        return (
            lazy_(
                "A mail from %(sender)s to your seat's address was refused: only mail from "
                "your own address (%(holder)s) plays for your seat. Nothing was played.",
                sender=inbound.sender or lazy_("an unknown sender"),
                holder=holder,
            ),
            "forged sender",
        )
    failure = reading.authentication_failure(
        inbound, current_app.config.get("MAIL_TRUSTED_AUTHSERV_ID")
    )
    if failure:
        return (
            lazy_(
                "Your mail failed our server's sender checks (%(failure)s), so it may not be "
                "yours; nothing was played. Send it again from your own mail account.",
                failure=failure,
            ),
            f"authentication: {failure}",
        )
    limit = int(current_app.config.get("MAIL_MAX_BYTES") or 0)
    if limit and len(raw) > limit:
        return (
            lazy_(
                "Your mail was %(size)s KiB, more than the %(limit)s KiB read; "
                "nothing was played. Reply without attachments or the quoted text.",
                size=len(raw) // 1024,
                limit=limit // 1024,
            ),
            "too large",
        )
    return None


def _help(inbound: reading.Inbound) -> Result:
    """A mail to the plain address: the help text, to whoever wrote (at most N an hour)."""
    answered = answer_help(inbound)
    return committed(inbound, Result("help", "help text", answered=answered))


def _kept_aside(raw: bytes, reason: str) -> Result:
    """Record a mail that met an error as kept aside (so it is never handled again), with no
    answer: what it says is not known."""
    try:
        inbound = reading.read_headers(raw)
    except Exception:  # noqa: BLE001 (the headers are what failed: the bytes name it)
        inbound = reading.Inbound(raw, Message(), "", "")
    kept = aside.keep(raw, inbound.sender)
    if not inbound.message_id or len(inbound.message_id) > 255:
        inbound.message_id = "sha256:" + hashlib.sha256(raw).hexdigest()
    keep_aside(inbound)
    return committed(inbound, Result("quarantined", f"{reason}; {kept}"))


__all__ = ["EX_NOUSER", "Result", "accepts", "process_inbound", "seat_of_address"]
