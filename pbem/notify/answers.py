"""The answers to mails taken in: the answer to a seat's reply (what was played, what comes
next, or why nothing was) and the help text for a mail to the plain address. Composed here,
like every other mail; the mail door decides what they say."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage
from functools import partial
from typing import Any, TypedDict

import engine
from pbem import words
from pbem.languages import N_, _, lazy_, ngettext
from pbem.notify import compose
from pbem.notify.compose import Recipient
from pbem.notify.later import Later
from pbem.words import ASKS
from pbem.words.moves import move_lines

#: What others' pending decisions are called, in words (public: every view lists them).
KINDS = {
    "power_card": N_("a power card"),
    "turn": N_("their turn"),
    "castillo_pick": N_("the Castillo pick"),
    "secret_pick": N_("a secret pick"),
    "king_rages": N_("a King-rages return"),
    "veto_window": N_("a Veto window"),
}


@dataclass
class Shown:
    """What the answer to a seat's reply shows besides its lines, as the reply's commands
    asked (`board`, `log`, `help`), named by the seq each was asked at: the sender draws
    them from the game at that seq (`composing.seat_answer`); nothing by default."""

    #: The board as the seat saw it at this seq (None: not asked).
    board_seq: int | None = None
    #: This round's moves up to this seq (None: not asked).
    log_seq: int | None = None
    #: How to play by reply, written out.
    help: bool = False


def played_lines(
    entries: list[engine.ShownLogEntry], names: dict[str, str], card_before: str | None, colour: str
) -> list[Any]:
    """What a reply played, for its answer: each move in words, as what it did under the
    card that asked it, with what it did below it (points per place scored, caballeros sent
    back or moved and where, the Castillo's outcome), written when the answer is."""
    cards = words.cards_of(entries, before=card_before)

    def said(entry: engine.ShownLogEntry, card: str | None) -> str:
        move, effects = words.played_entry(entry, card, names, colour)
        return "\n    ".join([move, *effects])

    return [Later(partial(said, entry, card)) for entry, card in zip(entries, cards, strict=True)]


def log_lines(entries: list[engine.ShownLogEntry], reader: str) -> list[Any]:
    """The round so far for a reply's `log`: each move in words, as what it did under its
    card, by its colour's name, and below it what it made happen; written when the answer
    is."""

    def said(entry: engine.ShownLogEntry, card: str | None) -> str:
        move, effects = words.played_entry(entry, card, {}, reader)
        line = f"{entry['seq']}. {words.colour_name(entry['player'])}: {move}"
        return "\n    ".join([line, *effects])

    cards = words.cards_of(entries)
    return [Later(partial(said, entry, card)) for entry, card in zip(entries, cards, strict=True)]


class PendingNow(TypedDict):
    """Who must act now, in words, and the seat's moves if it must (`pending_now`)."""

    waiting: Any
    moves: list[Any]  # each in the notation as the answer's reader writes it (`Later`)
    asks: Any


class AnswerContext(PendingNow):
    """What fills `templates/mail/answer.*`: the seat's reply answered, what was played,
    the answer's lines, what it shows (`Shown`'s names) and what is pending now."""

    recipient: Recipient
    game_id: int
    title: str
    played: list[Any]  # each move played in words, with what it did below it (`Later`)
    lines: list[str]
    board: Any
    log: list[Any] | None
    help: bool
    link: str
    view: engine.View | None
    hand: list[int]


#: The most ids an answer's References carries besides the one it answers.
MOST_REFERENCES = 8
#: A Message-ID as RFC 5322 writes one: `<left@right>`, printable ASCII, no space.
_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")


def thread(mail: EmailMessage, message_id: str, references: list[str]) -> None:
    """Put an answer in the thread of the mail it answers (`message_id`, its References).
    A long References is shortened as RFC 5322 asks: the thread's root (which mail programs
    thread by when a mail between is missing) and the last ids are kept."""
    # Ids are written as they came (never encoded), so only ids of RFC 5322's form are kept.
    references = [r for r in references if _MESSAGE_ID.fullmatch(r)]
    message_id = message_id.strip()
    if not _MESSAGE_ID.fullmatch(message_id):
        return
    del mail["In-Reply-To"]
    del mail["References"]
    mail["In-Reply-To"] = message_id
    if len(references) > MOST_REFERENCES:
        references = [references[0], *references[-(MOST_REFERENCES - 1) :]]
    mail["References"] = " ".join([*references, message_id])


def pending_now(state: engine.State, colour: str) -> PendingNow:
    """Who must act now, in words, and the seat's own legal moves if it must act. The words
    are lazy: they are written in the language the answer is rendered in."""
    pending = engine.pending(state)
    mine = next((p for p in pending if p["player"] == colour), None)
    others = [
        (p["player"], KINDS.get(p["kind"], p["kind"])) for p in pending if p["player"] != colour
    ]
    named = Later(
        lambda: ", ".join(f"{words.colour_name(who)} ({_(kind)})" for who, kind in others)
    )
    waiting: Any
    if engine.is_over(state):
        waiting = lazy_("the game is over.")
    elif mine and others:
        waiting = lazy_("you, and %(others)s.", others=named)
    elif mine:
        waiting = lazy_("you.")
    else:
        waiting = Later(lambda: f"{named}.") if others else None
    legal = engine.legal_moves(state, colour)
    card = words.card_in_play(engine.view(state, colour))
    # Each in the notation as the answer's reader writes it, with what it does (its gloss).
    moves = [Later(partial(_move_line, m, card)) for m in legal]
    asks: Any = (
        lazy_(ASKS.get(mine["kind"], N_("A decision is yours.")))
        if mine
        else (lazy_("Your pick is in; you may still change it.") if moves else "")
    )
    owed = _owed(state, colour) if mine and mine["kind"] == "king_rages" else 0
    if owed:
        asks = Later(
            lambda: ngettext(
                "King rages: return %(num)d more caballero of yours to the province.",
                "King rages: return %(num)d more caballeros of yours to the province.",
                owed,
            )
        )
    return {"waiting": waiting, "moves": moves, "asks": asks}


def _move_line(move: engine.Move, card: str | None) -> str:
    (line,) = move_lines([move], card)
    return line


def _owed(state: engine.State, colour: str) -> int:
    """The caballeros `colour` still owes a King-rages return (a reply may send fewer than
    are due; the answer says how many are left)."""
    special = engine.view(state, colour).get("special")
    choices: dict[str, Any] = special["choices"] if special else {}
    due = int(choices.get("due", {}).get(colour, 0))
    returned = sum(int(n) for n in choices.get("returns", {}).get(colour, {}).values())
    return max(0, due - returned)


@compose.in_recipients_language
def answer_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    subject: str,
    context: AnswerContext,
    seq: int | None,
) -> EmailMessage:
    """The answer to a seat's reply; `context` fills `templates/mail/answer.*`."""
    mail = compose.message(
        recipient,
        game_id=game_id,
        title=title,
        subject=subject[:120],
        parts=compose.render("answer", **context),
        seq=seq,
    )
    # An answer to a person's own mail: RFC 3834's auto-replied, not auto-generated.
    mail.replace_header("Auto-Submitted", "auto-replied")
    return mail


def help_mail(to: str) -> EmailMessage:
    """How to play by mail, for whoever wrote to the plain address (no name: just `to`)."""
    parts = compose.render("help", link=compose.base_url())
    mail = compose.plain_message(
        Recipient(0, to, "", None), "[El Grande] " + _("how to play by mail"), parts
    )
    # An answer to a person's own mail: RFC 3834's auto-replied, not auto-generated.
    mail.replace_header("Auto-Submitted", "auto-replied")
    return mail
