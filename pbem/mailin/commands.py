"""The commands a reply may hold, one handler each, in a table (`COMMANDS`): each does its
part in the door's transaction and says what it did as a line of the answer (or adds to
what the answer shows). The words are `reading.COMMAND_WORDS`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import engine
from engine.notation import NOTATION, WRITTEN
from pbem import words
from pbem.clock import now
from pbem.errors import ServiceError
from pbem.game import advice as reading_advice
from pbem.game.seating import Actor
from pbem.game.states import current_state
from pbem.languages import (
    LANGUAGES,
    _,
    day_text,
    in_language,
    known,
    language_of,
    later,
    lazy_,
    ngettext,
)
from pbem.mailin.reading import COMMAND_WORDS, SENTENCE_MARKS, Inbound, veto_standing
from pbem.notify import compose
from pbem.notify.answers import Shown
from pbem.notify.compose import Recipient
from pbem.play import (
    absences,
    accounts,
    advice,
    apart,
    lifecycle,
    moderation,
    orders,
    settings,
    talk,
)
from pbem.play.inbound import SeatAnswer
from pbem.store.models import Game, Player


@dataclass
class SeatMail:
    """One mail to one seat, from its holder, and the answer it is getting."""

    inbound: Inbound
    game: Game
    colour: str
    holder: Player
    #: Lines the answer says, in order.
    lines: list[str] = field(default_factory=list)
    #: What the answer shows besides (a board, the log, the help).
    shown: Shown = field(default_factory=Shown)
    #: The door found it from the holder's own address, past the server's sender checks:
    #: written to the seat's reply address, mailed to that address alone, it proves it.
    from_holder: bool = False
    #: Kept apart from `game`, whose attributes a commit expires (reading them again would
    #: cost a query).
    game_id: int = field(init=False)
    #: The answer's language: the holder's, else the game's (read once, as `game_id`).
    language: str = field(init=False)

    def __post_init__(self) -> None:
        self.game_id = self.game.id
        self.language = language_of(self.holder.preferences, self.game.language)

    @property
    def recipient(self) -> Recipient:
        holder = self.holder
        return Recipient(holder.id, holder.email, holder.name, self.colour, language=self.language)

    def answer(self) -> SeatAnswer:
        """The answer as decided so far, for `pbem.play.inbound` to queue: its lines and
        what it shows are this mail's own (what is said after this call is in it too)."""
        title = self.game.title
        return SeatAnswer(
            self.recipient,
            self.game_id,
            title,
            self.colour,
            self.lines,
            self.shown,
            proves=self.from_holder,
        )

    def state(self) -> engine.State | None:
        """The game now, if it is there to show (not for an aborted or abandoned game)."""
        if self.game.status not in ("active", "finished"):
            return None
        return current_state(self.game_id, self.game.seed, self.game.seq)


def _stop(mail: SeatMail, arguments: list[str]) -> None:
    settings.mute(mail.holder, mail.game_id)
    mail.lines.append(
        lazy_(
            "No more mail from this game will come to you (answers to your own mails still do). "
            "Turn it back on from your page, %(link)s (or with %(request)s).",
            link=f"{compose.base_url()}/me",
            request="PUT /api/players/me/preferences",
        )
    )


def _bot(mail: SeatMail, arguments: list[str]) -> None:
    lifecycle.set_bot(mail.holder, mail.game_id, mail.colour, True)
    mail.lines.append(
        lazy_(
            'A bot now plays %(colour)s; reply "back" to take it back.',
            colour=words.colour_later(mail.colour),
        )
    )


def _back(mail: SeatMail, arguments: list[str]) -> None:
    lifecycle.set_bot(mail.holder, mail.game_id, mail.colour, False)
    again = lazy_(
        "You play %(colour)s again; the bot has stopped.", colour=words.colour_later(mail.colour)
    )
    mail.lines.append(again)


def _key(mail: SeatMail, arguments: list[str]) -> None:
    accounts.reset_key_by_mail(mail.holder.email)
    mail.lines.append(
        lazy_(
            "A new API key is on its way in a mail of its own (at most 3 an hour), and your old "
            "key no longer works."
        )
    )


def _away(mail: SeatMail, arguments: list[str]) -> None:
    starts, ends = dates(arguments)
    absences.declare(mail.holder, starts, ends)
    mail.lines.append(
        lazy_(
            "You are away from %(start)s to %(end)s; your deadlines wait until you are back.",
            # The days as the answer's language writes them (Babel's), when it is written.
            start=later(day_text, starts),
            end=later(day_text, ends - timedelta(days=1)),
        )
    )


def _language(mail: SeatMail, arguments: list[str]) -> None:
    """`language it`: every mail and page in Italian from now on (the moves are written the
    same in every language)."""
    offered = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    chosen = known(arguments[0]) if arguments else None
    if chosen is None:
        raise ValueError(
            lazy_("Write the language you want after it: %(offered)s.", offered=offered)
        )
    settings.set_preferences(mail.holder, {"language": chosen})
    mail.language = chosen
    with in_language(chosen):
        mail.lines.append(
            _("Your mails and pages are in %(language)s from now on.", language=LANGUAGES[chosen])
        )


def _board(mail: SeatMail, arguments: list[str]) -> None:
    if mail.state() is not None:
        mail.shown.board_seq = mail.game.seq  # drawn with the answer, in its language


def _log(mail: SeatMail, arguments: list[str]) -> None:
    # What this seat may see of the round so far, as of now (its moves played after this
    # line are told apart): drawn with the answer.
    mail.shown.log_seq = mail.game.seq


def _plan(mail: SeatMail, arguments: list[str]) -> None:
    """`plan 13 11 9`: power cards in advance, best first; `plan` alone cancels them."""
    try:
        cards = [int(a.strip(",;")) for a in arguments if a.strip(",;")]
    except ValueError:
        raise ValueError(
            lazy_('write it "plan 13 11 9" (power cards, best first), or "plan" alone to cancel.')
        ) from None
    given = orders.give(
        Actor.by_player(mail.holder.id, mail.colour), mail.game_id, mail.colour, power_cards=cards
    )
    _say_orders(mail, given)


def _veto(mail: SeatMail, arguments: list[str]) -> None:
    """`veto allow` or `veto ask`: this round's Veto windows answered allow at once, or not."""
    given = orders.give(
        Actor.by_player(mail.holder.id, mail.colour),
        mail.game_id,
        mail.colour,
        veto=veto_standing(arguments[0]),
    )
    _say_orders(mail, given)


def _fold_word(word: str) -> str:
    return word.lower().strip(SENTENCE_MARKS)


def _say_orders(mail: SeatMail, given: orders.Orders) -> None:
    mail.lines += words.orders_answer(given.played, given.power_cards, given.veto == "allow")


def _help(mail: SeatMail, arguments: list[str]) -> None:
    """`help`: how to play by reply; `help card king`: one action card, written out."""
    # The verb of a card's choice, in any language the notation is written in (`карта`).
    cards = {NOTATION["choose_card"].verb} | {w.verbs["choose_card"][0] for w in WRITTEN.values()}
    if arguments and _fold_word(arguments[0]) in cards:
        mail.lines += _card_help(mail, " ".join(arguments[1:]))
        return
    mail.shown.help = True


def _card_help(mail: SeatMail, name: str) -> list[str]:
    """An action card's special action, and, face up at this seat's turn now, the first move
    of that action as the notation writes it here."""
    state = mail.state()
    ask = lazy_('name an action card after it, e.g. "help card king".')
    if not name.strip() or state is None:
        raise ValueError(ask)
    try:
        move = engine.parse_move(f"card {name}", state, mail.colour)
    except engine.IllegalMove:
        raise ValueError(ask) from None
    card = str(move.get("card"))
    said = {"card": words.card_title(card), "action": words.card_text(card)}
    lines = [_("%(card)s: %(action)s.", **said)]
    view = engine.view(state, mail.colour)
    stack = next((c["stack"] for c in view["action_cards"]["face_up"] if c["card"] == card), None)
    if stack is None:
        lines.append(_("It is not face up this round."))
        return lines
    lines.append(
        ngettext(
            "Face up on stack %(num)d: it places %(num)d caballero from your court.",
            "Face up on stack %(num)d: it places %(num)d caballeros from your court.",
            stack,
        )
    )
    example = words.card_examples(state, mail.colour).get(stack)
    if example:
        lines.append(_('Chosen now, its action could begin with "%(move)s".', move=example))
    return lines


def _moves(mail: SeatMail, arguments: list[str]) -> None:
    """Every answer lists the seat's moves whenever it must act: nothing more to do."""


Command = Callable[[SeatMail, list[str]], None]


def seat_colour(mail: SeatMail, word: str) -> str | None:
    """The game's colour `word` names, in English or the reader's words (`rot`), or None."""
    folded = word.strip(SENTENCE_MARKS).lower()
    for colour in mail.game.colours:
        if folded in (colour, words.colour_name(colour).lower()):
            return colour
    return None


def _mute(mail: SeatMail, arguments: list[str], muted: bool = True) -> None:
    """`mute red`: no more of red's words to the table in this game; `unmute red` undoes."""
    colour = seat_colour(mail, arguments[0])
    assert colour is not None  # the door reads `mute` as a command only before a colour
    apart.mute(Actor.by_player(mail.holder.id, mail.colour), mail.game_id, colour, muted)
    said = (
        lazy_(
            'You will read no more of %(colour)s\'s words to this table; "%(command)s" undoes it.',
            colour=words.colour_later(colour),
            command=later(words.moves.command, "unmute " + arguments[0]),
        )
        if muted
        else lazy_(
            "You read %(colour)s's words to this table again.", colour=words.colour_later(colour)
        )
    )
    mail.lines.append(said)


def _report(mail: SeatMail, arguments: list[str]) -> None:
    """`report red why`: the last of red's words to the table, to the moderators."""
    colour = seat_colour(mail, arguments[0])
    assert colour is not None
    line = talk.last_said(mail.game_id, colour)
    if line is None:
        raise ValueError(
            lazy_(
                "%(colour)s has written nothing to this table to report; a name or a title is "
                "reported from its page.",
                colour=words.colour_later(colour),
            )
        )
    moderation.report(mail.holder, "talk", line, " ".join(arguments[1:]))
    mail.lines.append(
        lazy_(
            "Your report of %(colour)s's last words to the table has reached the moderators; "
            "they read every one. Nobody at the table is told.",
            colour=words.colour_later(colour),
        )
    )


def _hint(mail: SeatMail, arguments: list[str]) -> None:
    """`hint`: the strong bot's best moves for the decision waiting on the seat, in a mail
    of its own once the scheduler has worked them out (at once if they were already)."""
    actor = Actor.by_player(mail.holder.id, mail.colour)
    shown = advice.ask_hint(actor, mail.game_id, "mail", mail.colour)
    if not shown["answered"]:
        mail.lines.append(
            lazy_(
                "The strong bot is working out your hint; it comes in a mail of its own "
                "within a minute or so."
            )
        )
        return
    mail.lines.append(lazy_("Your hint: the moves the strong bot found best for you now."))
    mail.lines.append(later(_hint_text, mail.game_id, mail.game.seed, shown))


def _hint_text(game_id: int, seed: int, shown: Any) -> str:
    lines = reading_advice.hint_words(game_id, seed, shown)["lines"]
    return "\n".join(f"{number}. {line}" for number, line in enumerate(lines, 1))


COMMANDS: dict[str, Command] = {
    "moves": _moves,
    "board": _board,
    "log": _log,
    "away": _away,
    "back": _back,
    "bot": _bot,
    "key": _key,
    "stop": _stop,
    "help": _help,
    "plan": _plan,
    "veto": _veto,
    "language": _language,
    "mute": _mute,
    "unmute": partial(_mute, muted=False),
    "report": _report,
    "hint": _hint,
}
assert tuple(COMMANDS) == COMMAND_WORDS, "reading.COMMAND_WORDS names every command, in order"


def run(mail: SeatMail, word: str, arguments: list[str]) -> None:
    """Carry out one command; a refusal becomes a line of the answer. The service functions
    check before they write, so a refused command has changed nothing, and what the
    commands before it did stays, to be committed with the mail's record."""
    try:
        COMMANDS[word](mail, arguments)
    except ServiceError as error:
        mail.lines.append(lazy_('"%(command)s": %(reason)s', command=word, reason=error.detail))
    except ValueError as error:
        mail.lines.append(lazy_('"%(command)s": %(reason)s', command=word, reason=error))


def dates(arguments: list[str]) -> tuple[datetime, datetime]:
    """`away FROM UNTIL` or `away UNTIL` (from now), dates as YYYY-MM-DD, UNTIL included."""
    try:
        days = [datetime.strptime(a, "%Y-%m-%d").replace(tzinfo=UTC) for a in arguments]
    except ValueError:
        days = []
    if len(days) == 1:
        return now(), days[0] + timedelta(days=1)
    if len(days) == 2:
        return days[0], days[1] + timedelta(days=1)
    raise ValueError(
        lazy_('write it "away 2026-12-20 2027-01-03" (from, until) or "away 2027-01-03".')
    )
