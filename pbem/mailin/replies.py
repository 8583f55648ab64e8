"""A seat's reply, from its holder: commands run, moves played, one answer in its thread.

The moves are read and checked inside `play.submit`, by a plan: the state is loaded once,
the lines are read against it, the decision the mail answers is checked to be still open,
and the batch is played and committed with the mail's record and answer
(`pbem.play.inbound.play_reply`). A reply that plays nothing is decided here
(`NothingPlayed`: answered, or refused) and answered by `pbem.play.inbound.answer_seat`.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

import engine
from engine.notation import NOTATION, WRITTEN
from pbem import languages
from pbem.errors import Conflict, IllegalMoveError, NotActive, ServiceError, StaleSequence
from pbem.game import games, history
from pbem.game.seating import Actor
from pbem.game.states import state_at
from pbem.languages import N_, lazy_
from pbem.mailin import commands
from pbem.mailin.commands import SeatMail
from pbem.mailin.reading import (
    COLOUR_COMMANDS,
    COMMAND_WORDS,
    SENTENCE_MARKS,
    VETO_STANDING,
    command_word,
    veto_standing,
)
from pbem.mailin.result import Result, committed, duplicate
from pbem.notify import addresses, after_moves
from pbem.notify.later import Later
from pbem.play import unit
from pbem.play.inbound import NothingPlayed, answer_seat, play_reply, seen
from pbem.store.models import Game
from pbem.texts import invisible
from pbem.words import ASKS

#: Decisions answered by a pick that may be changed until the last is in.
CHANGEABLE = {"castillo_pick": "castillo_pick", "secret_pick": "secret_pick"}

#: Tries at playing a reply while other moves keep landing first.
TRIES = 3

#: The most lines of a reply read (moves, commands, words): a whole turn and a word to the
#: table take a dozen; reading each against the game costs, so a mail of thousands is
#: refused whole rather than read for seconds.
MOST_READ_LINES = 100


class _Stale(Conflict):
    """The decision the mail answers is over."""


def _fold(word: str) -> str:
    word = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in word if not unicodedata.combining(c)).strip(SENTENCE_MARKS)


def handle(mail: SeatMail, text: str) -> Result:
    """Run the reply's commands, then play its moves (if any), and answer."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # A line that shows nothing (zero-width spaces...) is neither a move nor words: said.
    hidden = [line for line in lines if invisible(line)]
    lines = [line for line in lines if not invisible(line)]
    if hidden:
        mail.lines.append(
            lazy_(
                "A line of your mail held only invisible characters (such as zero-width "
                "spaces), so it was neither played nor passed on to the table; write words "
                "to say something."
            )
        )
    if hidden and not lines:
        return refuse(mail, mail.lines.pop(), why="invisible")
    if not lines:
        return refuse(
            mail,
            lazy_(
                "Your mail had no moves and no commands above the quoted text, so nothing was "
                "played. Write your moves at the top of your reply."
            ),
            why="empty",
        )
    if len(lines) > MOST_READ_LINES:
        return refuse(
            mail,
            lazy_(
                "Your mail had %(count)s lines above the quoted text, more than the %(most)s "
                "read, so nothing was played and nothing passed on. Write only your moves, "
                "commands and a few words.",
                count=len(lines),
                most=MOST_READ_LINES,
            ),
            why="too many lines",
        )
    said, moves = [], []
    for line in lines:
        words = line.split()
        word = _fold(words[0])
        if command_word(word) in COMMAND_WORDS and not _is_move(word, words):
            if command_word(word) in COLOUR_COMMANDS and not (
                words[1:] and commands.seat_colour(mail, words[1])
            ):
                moves.append(line)  # "report back soon": words to the table, or a move
                continue
            said.append((command_word(word), words[1:]))
        else:
            moves.append(line)
    state = mail.state()
    talk = [m for m in moves if state is not None and engine.reads_as_words(m, state, mail.colour)]
    moves = [m for m in moves if m not in talk]
    # A bare `stop` is the move ending an "up to" card when it follows other moves (the end
    # of a whole turn) or is one now; else it is the command that ends this game's mails.
    bare_stops = [line for line in moves if _fold(line) == "stop"]
    if bare_stops and len(bare_stops) == len(moves) and not _ends(mail):
        moves = []
        said.append(("stop", []))
    for word, arguments in said:
        commands.run(mail, word, arguments)
    if moves:
        return _play(mail, "\n".join(moves), talk)
    # Only commands and words to the table: answer them, with the game as it is now.
    game = games.read_again(mail.game)
    if talk:
        said.append(("words", []))
    decided = NothingPlayed("answered", mail.answer(), mail.state(), game.seq, talk)
    answered = answer_seat(mail.inbound, decided)
    result = Result(
        "answered", ", ".join(w for w, _ in said), game.id, mail.colour, game.seq, answered
    )
    return committed(mail.inbound, result)


def _is_move(word: str, words: list[str]) -> bool:
    """A bare `stop` may be the move ending an "up to" card (settled below); `veto` with
    anything but `allow` or `ask` after it is the move vetoing a plan."""
    if word == "stop":
        return len(words) == 1
    if command_word(word) == "veto":
        return len(words) != 2 or veto_standing(_fold(words[1])) not in VETO_STANDING
    return False


def _ends(mail: SeatMail) -> bool:
    """Whether `stop` is one of the seat's moves now (an "up to" card's early end), and so
    a bare `stop` line is that move rather than the command."""
    state = mail.state()
    return state is not None and any(
        m["type"] == "end_special" for m in engine.legal_moves(state, mail.colour)
    )


def refuse(
    mail: SeatMail,
    reason: str,
    *,
    why: str,
    outcome: Literal["refused", "quarantined"] = "refused",
) -> Result:
    """Answer the holder (never the sender, who may be anyone) and change nothing else;
    `outcome` "quarantined" for a mail kept aside."""
    mail.lines.insert(0, reason)
    decided = NothingPlayed(outcome, mail.answer(), mail.state(), mail.game.seq)
    answered = answer_seat(mail.inbound, decided)
    result = Result(outcome, why, mail.game_id, mail.colour, mail.game.seq, answered)
    return committed(mail.inbound, result)


def _play(mail: SeatMail, text: str, talk: list[str]) -> Result:
    actor = Actor.by_player(mail.holder.id, mail.colour)
    answer = mail.answer()

    def plan(state: engine.State, colour: str) -> list[engine.Move]:
        stale = _stale(mail, state)
        if stale:
            raise _Stale(stale)
        return _moves(mail, text, state, colour)

    for _ in range(TRIES):
        try:
            with unit.undone_on_error():
                outcome, answered = play_reply(actor, mail.inbound, answer, plan, talk)
        except StaleSequence:
            # Another move came first (or this very mail, delivered twice at once).
            if seen(mail.inbound.message_id):
                return duplicate(mail.inbound)
            continue
        except ServiceError as error:
            games.read_again(mail.game)
            return _refused(mail, error)
        played = [engine.format_move(m) for m in outcome.moves]
        return Result("played", "", mail.game_id, mail.colour, outcome.seq, answered, played)
    games.read_again(mail.game)
    return refuse(
        mail,
        lazy_("The game kept moving while your mail was read; nothing was played. Try again."),
        why="busy",
    )


#: Lines that end a turn, which people write last out of habit.
TURN_ENDINGS = {*NOTATION["end_turn"].verbs} | {
    verb for written in WRITTEN.values() for verb in written.verbs["end_turn"]
}


def _moves(mail: SeatMail, text: str, state: engine.State, colour: str) -> list[engine.Move]:
    """The reply's moves. A last line ending the turn, after moves that left the seat no
    turn to end (its last step played, or a decision that was no turn), is left out and the
    answer says so, rather than refusing the whole reply for it."""
    try:
        return engine.parse_moves(text, state, colour)
    except engine.IllegalMove:
        lines = text.splitlines()
        written = [i for i, line in enumerate(lines) if line.strip()]
        if not written or _fold(lines[written[-1]]) not in TURN_ENDINGS:
            raise
        last = written[-1]
        moves = engine.parse_moves("\n".join(lines[:last]), state, colour)
        after = state
        for move in moves:
            after, _ = engine.apply(after, colour, move)
        if not moves or any(
            p["player"] == colour and p["kind"] == "turn" for p in engine.pending(after)
        ):
            raise  # the turn goes on: "done" was refused for a reason the answer must give
        note = lazy_(
            'Your last line ("%(line)s") was not needed: the moves before it '
            "had ended your turn, so it was left out.",
            line=lines[last].strip(),
        )
        if note not in mail.lines:  # the plan runs again when another move lands first
            mail.lines.append(note)
        return moves


def _refused(mail: SeatMail, error: ServiceError) -> Result:
    if isinstance(error, NotActive):
        return refuse(mail, error.detail, why="game not active")
    if isinstance(error, _Stale):
        return refuse(mail, error.detail, why="stale decision")
    why = "illegal move" if isinstance(error, IllegalMoveError) else "refused"
    return refuse(mail, lazy_("Nothing was played: %(reason)s", reason=error.detail), why=why)


def _stale(mail: SeatMail, state: engine.State) -> str | None:
    """Why the decision this mail answers is no longer open, or None (it is, or the mail
    names none: it then plays on the game as it is now)."""
    game = games.read_again(games.get_game(mail.game_id))
    asked = None
    for reference in mail.inbound.in_reply_to:
        named = addresses.read_message_id(reference)
        if named and named[:2] == (mail.game_id, mail.colour):
            asked = named[2]
            break
    if asked is None or asked > game.seq:
        return None
    if _open_since(game, mail.colour, asked, game.seq):
        return None
    then = state_at(game, asked)
    decision = next((p for p in engine.pending(then) if p["player"] == mail.colour), None)
    what = ASKS.get(decision["kind"], N_("a decision")) if decision else N_("a decision")
    why: str = lazy_(
        'Your mail answers an earlier decision ("%(what)s", at move %(asked)s), which is no '
        "longer pending, so nothing was played. The game is at move %(seq)s now; see "
        "below what is pending.",
        what=Later(lambda: languages._(what).rstrip(".")),
        asked=asked,
        seq=game.seq,
    )
    return why


def _open_since(game: Game, colour: str, since: int, upto: int) -> bool:
    """Whether the decision `colour` had at move `since` is still open at `upto`: pending
    all along, or (a secret pick) made and still changeable."""
    state = state_at(game, since)
    key = next(
        (after_moves.decision_key(p) for p in engine.pending(state) if p["player"] == colour), None
    )
    if key is None:
        return False

    def still(board: engine.State) -> bool:
        if key in {after_moves.decision_key(p) for p in engine.pending(board)}:
            return True
        return key[1] in CHANGEABLE and any(
            m["type"] == CHANGEABLE[key[1]] for m in engine.legal_moves(board, colour)
        )

    for row in history.moves_between(game.id, since, upto):
        state, _ = engine.apply(state, row.colour, row.move)
        if not still(state):
            return False
    return True
