"""The inbound door: one incoming mail in, a `Result` out, whichever way it came (a pipe
from the MTA, the SMTP listener, the IMAP poller).

Who writes is settled by the recipient address (a seat's signed reply address acts for that
seat only) and the From (the seat holder's email). What the mail says is read above the
quote: moves in the notation, played as one batch through `play.submit` (source "email"),
or commands. Every mail that is not automatic gets one answer in its thread, queued in the
outbox in the transaction that records the mail (and plays its moves, if any).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from flask import current_app
from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

import engine
from pbem import play
from pbem.clock import now
from pbem.errors import ServiceError, StaleSequence
from pbem.extensions import db
from pbem.game import players
from pbem.game.seating import Actor
from pbem.game.states import current_state, state_at
from pbem.mailin import reading
from pbem.notify import addresses, compose, outbox, preferences
from pbem.notify.board_text import board_table
from pbem.notify.compose import ASKS, Recipient
from pbem.play import accounts, lifecycle
from pbem.store import queries
from pbem.store.models import Game, InboundMail, Move, Player, Seat
from pbem.timing import away

#: sysexits.h: the address names no one here, so the MTA bounces the mail.
EX_NOUSER = 67

#: Commands a reply may hold, one per line (see templates/mail/help_lines.txt).
COMMANDS = ("moves", "board", "log", "away", "back", "bot", "key", "stop", "help")

#: What others' pending decisions are called, in words (public: every view lists them).
KINDS = {
    "power_card": "a power card",
    "turn": "their turn",
    "castillo_pick": "the Castillo pick",
    "secret_pick": "a secret pick",
    "king_rages": "a King-rages return",
    "veto_window": "a Veto window",
}

#: Decisions answered by a pick that may be changed until the last is in.
CHANGEABLE = {"castillo_pick": "castillo_pick", "secret_pick": "secret_pick"}

_inbound = InboundMail.__table__


@dataclass
class Result:
    """What the door did with a mail."""

    outcome: str  # played, answered, refused, help, ignored, duplicate, no_seat
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


def process_inbound(raw: bytes, *, recipient: str | None = None) -> Result:
    """Handle one RFC 822 message. `recipient` is the envelope recipient when the door
    knows it (SMTP's RCPT, the MTA's $ORIGINAL_RECIPIENT); else the headers name it."""
    try:
        result = _process(raw, recipient)
    except BaseException:
        db.session.rollback()
        raise
    # One log line a mail, whichever door it came by (never its text: it is the player's).
    current_app.logger.info(
        "mail in",
        extra={
            "outcome": result.outcome,
            "reason": result.reason,
            "game_id": result.game_id,
            "colour": result.colour,
            "played": len(result.played),
        },
    )
    return result


def seat_of_address(address: str) -> tuple[int, str] | None:
    """(game, colour) of a signed seat address whose seat exists, else None."""
    seat = addresses.read_seat_address(address)
    if seat is None:
        return None
    found = db.session.execute(
        select(Seat.id).where(Seat.game_id == seat[0], Seat.colour == seat[1])
    ).first()
    db.session.rollback()
    return seat if found else None


def accepts(address: str) -> bool:
    """Whether mail to `address` is ours to take (SMTP's RCPT): a seat's, or the plain one."""
    return address.strip().lower() == addresses.sender_address().lower() or (
        seat_of_address(address) is not None
    )


# -- who is writing ----------------------------------------------------------------------


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
    if _seen(inbound.message_id):
        return Result("duplicate", f"{inbound.message_id} was handled already")
    if seat is None:
        return _help(inbound)
    game_id, colour = seat
    game = db.session.get(Game, game_id)
    holder = next(s.player for s in game.seats if s.colour == colour)
    context = _Context(inbound, game, colour, holder)
    if inbound.sender != players.normal_email(holder.email):
        return context.refuse(
            f"A mail from {inbound.sender or 'an unknown sender'} to your seat's address was "
            f"refused: only mail from your own address ({holder.email}) plays for your seat. "
            "Nothing was played.",
            why="forged sender",
        )
    failure = reading.authentication_failure(
        inbound, current_app.config.get("MAIL_TRUSTED_AUTHSERV_ID")
    )
    if failure:
        return context.refuse(
            f"Your mail failed our server's sender checks ({failure}), so it may not be "
            "yours; nothing was played. Send it again from your own mail account.",
            why=f"authentication: {failure}",
        )
    limit = int(current_app.config.get("MAIL_MAX_BYTES") or 0)
    if limit and len(raw) > limit:
        return context.refuse(
            f"Your mail was {len(raw) // 1024} KiB, more than the {limit // 1024} KiB read; "
            "nothing was played. Reply without attachments or the quoted text.",
            why="too large",
        )
    try:
        text = reading.new_text(reading.parse_whole(raw))
    except reading.Unreadable as error:
        return context.refuse(
            f"Your mail could not be read: {error}. Nothing was played; reply in plain text.",
            why="unreadable",
        )
    return context.handle(text)


def _seen(message_id: str) -> bool:
    found = db.session.execute(
        select(_inbound.c.id).where(_inbound.c.message_id == message_id)
    ).first()
    return found is not None


def _answers_last_hour(address: str) -> int:
    since = now() - timedelta(hours=1)
    return db.session.execute(
        select(func.count())
        .select_from(_inbound)
        .where(_inbound.c.answered_to == address, _inbound.c.received_at >= since)
    ).scalar_one()


def _may_answer(address: str) -> bool:
    return _answers_last_hour(address) < int(current_app.config["MAIL_ANSWERS_PER_HOUR"])


def _record(
    connection: Connection,
    inbound: reading.Inbound,
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


def _thread(mail: EmailMessage, inbound: reading.Inbound) -> None:
    """Put our answer in the thread of the mail it answers."""
    incoming = reading._text(inbound.headers.get("Message-ID")).strip()
    if not incoming:
        return
    references = reading._text(inbound.headers.get("References")).split()
    del mail["In-Reply-To"]
    del mail["References"]
    mail["In-Reply-To"] = incoming
    mail["References"] = " ".join([*references[-8:], incoming])


def _commit_or_duplicate(inbound: reading.Inbound, result: Result) -> Result:
    try:
        db.session.commit()
    except IntegrityError:
        # The same message, delivered twice at once: the other delivery handled it.
        db.session.rollback()
        return Result("duplicate", f"{inbound.message_id} was handled already")
    return result


def _help(inbound: reading.Inbound) -> Result:
    """A mail to the plain address: the help text, to whoever wrote (at most N an hour)."""
    answer = _may_answer(inbound.sender)
    connection = db.session.connection()
    _record(
        connection,
        inbound,
        game_id=None,
        colour=None,
        outcome="help",
        answered_to=inbound.sender if answer else None,
    )
    if answer:
        mail = EmailMessage()
        mail["From"] = current_app.config["MAIL_FROM"]
        mail["To"] = inbound.sender
        mail["Subject"] = "[El Grande] how to play by mail"
        mail["Date"] = format_datetime(now())
        mail["Message-ID"] = addresses.message_id(None, None, None)
        mail["Auto-Submitted"] = "auto-replied"
        _thread(mail, inbound)
        text, html = compose.render("help", link=compose.base_url())
        mail.set_content(text, cte="quoted-printable")
        mail.add_alternative(html, subtype="html", cte="quoted-printable")
        recipient = Recipient(0, inbound.sender, inbound.sender, None)
        rows = outbox.rows_for([(recipient, "answer", mail)], None)
        for row in rows:
            row["player_id"] = None
        outbox.queue(connection, rows)
    return _commit_or_duplicate(inbound, Result("help", "help text", answered=answer))


# -- what the reply says ---------------------------------------------------------------


def _fold(word: str) -> str:
    word = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in word if not unicodedata.combining(c)).strip(" .:!,")


class _Context:
    """One mail to one seat, from its holder."""

    def __init__(self, inbound: reading.Inbound, game: Game, colour: str, holder: Player):
        self.inbound = inbound
        self.game = game
        self.game_id = game.id
        self.title = game.title
        self.colour = colour
        self.holder = holder
        self.recipient = Recipient(holder.id, holder.email, holder.name, colour)
        self.lines: list[str] = []
        self.extra: dict[str, Any] = {}

    # The answer.

    def _answer(
        self,
        connection: Connection,
        *,
        outcome: str,
        state: engine.State | None,
        seq: int | None,
        played: list[str] | None = None,
    ) -> bool:
        """Record the mail and queue its answer (unless past the hourly limit); the caller
        commits. True if an answer was queued."""
        address = self.recipient.email
        answer = _may_answer(address)
        _record(
            connection,
            self.inbound,
            game_id=self.game_id,
            colour=self.colour,
            outcome=outcome,
            answered_to=address if answer else None,
        )
        if not answer:
            return False
        context: dict[str, Any] = {
            "recipient": self.recipient,
            "game_id": self.game_id,
            "title": self.title,
            "played": played or [],
            "lines": self.lines,
            "board": None,
            "log": None,
            "help": False,
            "waiting": None,
            "moves": [],
            "asks": "",
            "link": compose.game_link(self.game_id),
            "view": None,
            "hand": [],
        }
        pending_seq = None
        if state is not None:
            context.update(self._now(state))
            if context["moves"]:
                pending_seq = seq
        context.update(self.extra)
        if played:
            subject = "played " + "; ".join(played)
        elif outcome == "refused":
            subject = "nothing was played"
        else:
            subject = "your mail"
        mail = compose.message(
            self.recipient,
            game_id=self.game_id,
            title=self.title,
            subject=subject[:120],
            parts=compose.render("answer", **context),
            seq=pending_seq,
        )
        # An answer to a person's own mail: RFC 3834's auto-replied, not auto-generated.
        mail.replace_header("Auto-Submitted", "auto-replied")
        _thread(mail, self.inbound)
        outbox.queue(connection, outbox.rows_for([(self.recipient, "answer", mail)], self.game_id))
        return True

    def _now(self, state: engine.State) -> dict[str, Any]:
        """What is pending now, and the seat's own legal moves if it must act."""
        pending = engine.pending(state)
        mine = next((p for p in pending if p["player"] == self.colour), None)
        others = [
            f"{p['player']} ({KINDS.get(p['kind'], p['kind'])})"
            for p in pending
            if p["player"] != self.colour
        ]
        if engine.is_over(state):
            waiting = "the game is over."
        elif mine and others:
            waiting = f"you, and {', '.join(others)}."
        elif mine:
            waiting = "you."
        else:
            waiting = f"{', '.join(others)}." if others else None
        moves = [engine.format_move(m) for m in engine.legal_moves(state, self.colour)]
        asks = (
            ASKS.get(mine["kind"], "A decision is yours.")
            if mine
            else ("Your pick is in; you may still change it." if moves else "")
        )
        return {"waiting": waiting, "moves": moves, "asks": asks}

    def refuse(self, reason: str, *, why: str) -> Result:
        """Answer the holder (never the sender, who may be anyone) and change nothing else."""
        self.lines.insert(0, reason)
        state = self._state()
        answered = self._answer(
            db.session.connection(), outcome="refused", state=state, seq=self.game.seq
        )
        result = Result("refused", why, self.game_id, self.colour, self.game.seq, answered)
        return _commit_or_duplicate(self.inbound, result)

    def _state(self) -> engine.State | None:
        if self.game.status != "active" and self.game.status != "finished":
            return None
        return current_state(self.game_id, self.game.seed, self.game.seq)

    # Reading.

    def handle(self, text: str) -> Result:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if not lines:
            self.lines.append(
                "Your mail had no moves and no commands above the quoted text, so nothing "
                "was played. Write your moves at the top of your reply."
            )
            return self.refuse(self.lines.pop(), why="empty")
        state = self._state()
        ends_special = state is not None and any(
            m["type"] == "end_special" for m in engine.legal_moves(state, self.colour)
        )
        commands, moves = [], []
        for line in lines:
            words = line.split()
            word = _fold(words[0])
            if word in COMMANDS and not (word == "stop" and len(words) == 1 and ends_special):
                commands.append((word, words[1:]))
            else:
                moves.append(line)
        for word, arguments in commands:
            self._command(word, arguments)
        if moves:
            return self._play("\n".join(moves))
        # Only commands: answer them, with the game as it is now.
        self.game = db.session.get(Game, self.game_id)
        db.session.refresh(self.game)
        answered = self._answer(
            db.session.connection(), outcome="answered", state=self._state(), seq=self.game.seq
        )
        result = Result(
            "answered",
            ", ".join(w for w, _ in commands),
            self.game_id,
            self.colour,
            self.game.seq,
            answered,
        )
        return _commit_or_duplicate(self.inbound, result)

    def _command(self, word: str, arguments: list[str]) -> None:
        """Carry out one command; what it did (or why not) becomes a line of the answer.
        Those that change something commit through their own service function."""
        try:
            if word == "stop":
                muted = set(preferences.preferences_of(self.holder)["muted_games"]) | {self.game_id}
                preferences.set_preferences(self.holder, {"muted_games": sorted(muted)})
                self.lines.append(
                    "No more mail from this game will come to you (answers to your own mails "
                    "still do). Turn it back on with PUT /api/players/me/preferences."
                )
            elif word == "bot":
                lifecycle.set_bot(self.holder, self.game_id, self.colour, True)
                self.lines.append(f'A bot now plays {self.colour}; reply "back" to take it back.')
            elif word == "back":
                lifecycle.set_bot(self.holder, self.game_id, self.colour, False)
                self.lines.append(f"You play {self.colour} again; the bot has stopped.")
            elif word == "key":
                accounts.reset_key_by_mail(self.holder.email)
                self.lines.append(
                    "A new API key is on its way in a mail of its own (at most 3 an hour), "
                    "and your old key no longer works."
                )
            elif word == "away":
                starts, ends = _dates(arguments)
                away.declare(self.holder, starts, ends)
                self.lines.append(
                    f"You are away from {starts:%d %b %Y} to {ends - timedelta(days=1):%d %b %Y}"
                    "; your deadlines wait until you are back."
                )
            elif word == "board":
                state = self._state()
                if state is not None:
                    view = engine.view(state, self.colour)
                    self.extra.update(
                        board=board_table(view),
                        view=view,
                        hand=view["players"][self.colour].get("hand", []),
                    )
            elif word == "log":
                self.extra["log"] = self._log()
            elif word == "help":
                self.extra["help"] = True
            # "moves": every answer lists them whenever the seat must act.
        except ServiceError as error:
            self.lines.append(f'"{word}": {error.detail}')
            db.session.rollback()
        except ValueError as error:
            self.lines.append(f'"{word}": {error}')

    def _log(self) -> list[str]:
        from pbem.game.history import round_starts

        start = round_starts(self.game_id)[-1]
        query = (
            select(Move.seq, Move.colour, Move.move, Move.events)
            .where(Move.game_id == self.game_id, Move.seq > start)
            .order_by(Move.seq)
        )
        entries: list[engine.LogEntry] = [
            {"seq": r.seq, "player": r.colour, "move": r.move, "events": r.events or []}
            for r in db.session.execute(query)
        ]
        # What this seat may see of them: others' secret picks hidden until revealed.
        shown = engine.visible_log(entries, {self.colour})
        return [f"{e['seq']}. {e['player']}: {compose.describe_log_entry(e)}" for e in shown]

    # Playing.

    def _play(self, text: str) -> Result:
        actor = Actor.by_player(self.holder.id, self.colour)
        for _ in range(3):
            game = db.session.get(Game, self.game_id)
            db.session.refresh(game)
            self.game = game
            if game.status != "active":
                return self.refuse(
                    f"Game {self.game_id} is {game.status}; no more moves can be played.",
                    why="game not active",
                )
            state = current_state(self.game_id, game.seed, game.seq)
            stale = self._stale(game, state)
            if stale:
                return self.refuse(stale, why="stale decision")
            try:
                moves = engine.parse_moves(text, state, self.colour)
                after = engine.play_batch(state, self.colour, moves).state
            except engine.IllegalMove as error:
                return self.refuse(f"Nothing was played: {error.message}", why="illegal move")
            played = [engine.format_move(m) for m in moves]
            answered: list[bool] = []

            def also_write(
                connection: Connection,
                outcome: play.Outcome,
                after: engine.State = after,
                played: list[str] = played,
                answered: list[bool] = answered,
            ) -> None:
                answered.append(
                    self._answer(
                        connection, outcome="played", state=after, seq=outcome.seq, played=played
                    )
                )

            try:
                outcome = play.submit(
                    actor,
                    self.game_id,
                    game.seq,
                    moves,
                    source="email",
                    colour=self.colour,
                    also_write=also_write,
                )
            except StaleSequence:
                # Another move came first (or this very mail, delivered twice at once).
                if _seen(self.inbound.message_id):
                    return Result("duplicate", f"{self.inbound.message_id} was handled already")
                continue
            except ServiceError as error:
                db.session.rollback()
                return self.refuse(f"Nothing was played: {error.detail}", why="refused")
            return Result(
                "played",
                "",
                self.game_id,
                self.colour,
                outcome.seq,
                bool(answered and answered[0]),
                played,
            )
        return self.refuse(
            "The game kept moving while your mail was read; nothing was played. Try again.",
            why="busy",
        )

    def _stale(self, game: Game, state: engine.State) -> str | None:
        """Why the decision this mail answers is no longer open, or None (it is, or the
        mail names none: it then plays on the game as it is now)."""
        asked = None
        for reference in self.inbound.in_reply_to:
            named = addresses.read_message_id(reference)
            if named and named[:2] == (self.game_id, self.colour):
                asked = named[2]
                break
        if asked is None or asked > game.seq:
            return None
        if _open_since(game, self.colour, asked, game.seq):
            return None
        then = state_at(game, asked)
        decision = next((p for p in engine.pending(then) if p["player"] == self.colour), None)
        what = ASKS.get(decision["kind"], "a decision").rstrip(".") if decision else "a decision"
        return (
            f'Your mail answers an earlier decision ("{what}", at move {asked}), which is no '
            "longer pending, so nothing was played. The game is at move "
            f"{game.seq} now; see below what is pending."
        )


def _open_since(game: Game, colour: str, since: int, upto: int) -> bool:
    """Whether the decision `colour` had at move `since` is still open at `upto`: pending
    all along, or (a secret pick) made and still changeable."""
    state = state_at(game, since)
    key = next(
        (outbox.decision_key(p) for p in engine.pending(state) if p["player"] == colour), None
    )
    if key is None:
        return False

    def still(board: engine.State) -> bool:
        if key in {outbox.decision_key(p) for p in engine.pending(board)}:
            return True
        return key[1] in CHANGEABLE and any(
            m["type"] == CHANGEABLE[key[1]] for m in engine.legal_moves(board, colour)
        )

    connection = db.session.connection()
    for row in queries.moves_between(connection, game.id, since, upto):
        state, _ = engine.apply(state, row.colour, row.move)
        if not still(state):
            return False
    return True


def _dates(arguments: list[str]) -> tuple[datetime, datetime]:
    """`away FROM UNTIL` or `away UNTIL` (from now), dates as YYYY-MM-DD, UNTIL included."""
    try:
        days = [datetime.strptime(a, "%Y-%m-%d").replace(tzinfo=UTC) for a in arguments]
    except ValueError:
        days = []
    if len(days) == 1:
        return now(), days[0] + timedelta(days=1)
    if len(days) == 2:
        return days[0], days[1] + timedelta(days=1)
    raise ValueError('write it "away 2026-12-20 2027-01-03" (from, until) or "away 2027-01-03".')


__all__ = ["EX_NOUSER", "Result", "accepts", "process_inbound", "seat_of_address"]
