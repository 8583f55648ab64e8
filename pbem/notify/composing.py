"""Composing the outbox's rows that name what happened (`outbox.told_row`, `decision_row`,
`webhook_rows`): each kind's mail, from the game's log and state at the seqs its row names
(never the game as it is now: a later move changes no mail), in its reader's language, as
the sender composes them before it sends (`sender.compose_queued`).

What a reader may see is the engine's to decide, as when a mail was composed in the move's
transaction: the log through `engine.visible_log` for the seats the row names, the state
through `engine.view` for the seat whose thread it goes to.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from typing import Any

import engine
from pbem import words
from pbem.extensions import db
from pbem.game import advice, history
from pbem.game.states import state_at, teaches
from pbem.languages import in_language, language_of, later, lazy_
from pbem.notify import after_moves, answers, compose, outbox, payloads, push
from pbem.notify.compose import Recipient
from pbem.store.models import Game, Player
from pbem.timing import policy
from pbem.words.board import board_table
from pbem.words.lessons import lessons_at
from pbem.words.said import spoken


@dataclass
class Reads:
    """What one pass has read, shared by the rows about the same moves (a move's mails to
    every seat read its log once)."""

    # Held here, not only in the session's identity map, which lets go of an object no one
    # holds: each row would load its game and player again.
    games: dict[int, Game] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)
    states: dict[tuple[int, int], engine.State] = field(default_factory=dict)
    logs: dict[tuple[int, int, int], list[engine.LogEntry]] = field(default_factory=dict)

    def game(self, game_id: int) -> Game:
        if game_id not in self.games:
            self.games[game_id] = db.session.get_one(Game, game_id)
        return self.games[game_id]

    def player(self, player_id: int) -> Player:
        if player_id not in self.players:
            self.players[player_id] = db.session.get_one(Player, player_id)
        return self.players[player_id]

    def state(self, game: Game, seq: int) -> engine.State:
        """The game's state after move `seq`."""
        if (game.id, seq) not in self.states:
            self.states[game.id, seq] = state_at(game, seq)
        return self.states[game.id, seq]

    def log(self, game_id: int, after: int, upto: int) -> list[engine.LogEntry]:
        """The stored log entries with `after < seq <= upto`, with their events."""
        key = (game_id, after, upto)
        if key not in self.logs:
            self.logs[key] = history.stored_log(db.session.connection(), game_id, after, upto)
        return self.logs[key]

    def events(self, game_id: int, after: int, upto: int) -> list[engine.Event]:
        return [event for entry in self.log(game_id, after, upto) for event in entry["events"]]


def composed(row: Any, reads: Reads) -> str:
    """What `row` sends, composed now: a mail (RFC 822), a digest's part (the mail's text, or
    a bot's story), a webhook's JSON body, or a push's JSON (before its encryption, which is
    the browser's alone and made as it is sent)."""
    if row.game_id is None:
        return account_mail(row, reads).as_string()
    game = reads.game(row.game_id)
    payload = row.payload
    if row.channel == "webhook":
        return webhook_body(game, payload, reads)
    player = reads.player(row.player_id)
    if row.channel == "push":
        language = language_of(player.preferences, game.language)
        # The game's page, never a seat's signed link: a push shows on a locked screen.
        return push.message(row.kind, payload, game.title, compose.game_link(game.id), language)
    to = outbox.recipient(player, payload["colour"], game, email=row.recipient)
    if row.kind == "bot_story":
        return bot_story(to, game, payload)
    mail = MAILS[row.kind](to, game, payload, reads)
    return compose.text_of(mail) if row.status == "digest" else mail.as_string()


def decision(
    to: Recipient,
    game: Game,
    payload: payloads.DecisionPayload,
    reads: Reads,
    reminder: bool = False,
) -> EmailMessage:
    """A seat's decision, as the state at its seq asks it (`compose.decision_mail`)."""
    seq = payload["seq"]
    names = outbox.seat_names(game)
    return compose.decision_mail(
        to,
        game_id=game.id,
        title=game.title,
        state=reads.state(game, seq),
        decision=payload["decision"],
        seq=seq,
        deadline=payload["deadline"],
        bank=_bank(game, payload["colour"]),
        reminder=reminder,
        since=history.since_last_move(db.session.connection(), game.id, payload["colour"], seq),
        names=names,
        lessons=lessons_at(
            reads.log(game.id, 0, seq), payload["colour"], payload["decision"]["kind"], names
        )
        if teaches(game.options)
        else (),
    )


def _bank(game: Game, colour: str) -> int | None:
    """A time-bank game's seat's bank as the mail is composed: the bank its clock counts
    down from while the decision is open (None in a game of fixed deadlines)."""
    return next((s.bank_seconds for s in game.seats if s.colour == colour), None)


def reminder(
    to: Recipient, game: Game, payload: payloads.DecisionPayload, reads: Reads
) -> EmailMessage:
    return decision(to, game, payload, reads, reminder=True)


def every_move(
    to: Recipient, game: Game, payload: payloads.EveryMovePayload, reads: Reads
) -> EmailMessage:
    """The moves after `after` up to `seq`, as the seats the row names (`seen`) may see them."""
    entries = reads.log(game.id, payload["after"], payload["seq"])
    before = reads.state(game, payload["after"])
    return compose.moves_mail(
        to,
        game_id=game.id,
        title=game.title,
        entries=engine.visible_log(entries, set(payload["seen"])),
        seq=payload["seq"],
        # The card in play before them, which their first moves may answer (public).
        before=words.card_in_play(engine.view(before, None)),
    )


def scoring(
    to: Recipient, game: Game, payload: payloads.MovesPayload, reads: Reads
) -> EmailMessage:
    """The general scoring the moves after `after` up to `seq` completed; at the end with
    everyone's points by source over the whole game."""
    seq = payload["seq"]
    state = reads.state(game, seq)
    events = reads.events(game.id, payload["after"], seq)
    over = engine.is_over(state)
    return compose.scoring_mail(
        to,
        game_id=game.id,
        title=game.title,
        state=state,
        events=after_moves.general_scoring_events(events, state) or [],
        seq=seq,
        names=outbox.seat_names(game),
        totals=words.points_by_source(reads.log(game.id, 0, seq)) if over else None,
    )


def orders(to: Recipient, game: Game, payload: payloads.MovesPayload, reads: Reads) -> EmailMessage:
    """What the seat's orders played among the moves after `after` up to `seq`."""
    entries = reads.log(game.id, payload["after"], payload["seq"])
    return compose.orders_mail(
        to,
        game_id=game.id,
        title=game.title,
        moves=[entry["move"] for entry in entries if entry["player"] == to.colour],
        seq=payload["seq"],
    )


def timed_out(
    to: Recipient, game: Game, payload: payloads.TimeoutPayload, reads: Reads
) -> EmailMessage:
    return compose.timed_out_mail(
        to,
        game_id=game.id,
        title=game.title,
        kind=payload["decision"],
        moves=payload["moves"],
        seq=payload["seq"],
        bot_now=payload["bot_now"],
        card=payload.get("card"),  # queued before it was kept: read as no card
    )


def table_talk(
    to: Recipient, game: Game, payload: payloads.TableTalkPayload, reads: Reads
) -> EmailMessage:
    return compose.table_talk_mail(
        to,
        game_id=game.id,
        title=game.title,
        speaker=payload["speaker"],
        colour=payload["speaker_colour"],
        lines=payload["lines"],
        seq=payload["seq"],
        said_at=payload.get("said_at"),  # a row queued before it was kept has none
    )


def hint(to: Recipient, game: Game, payload: payloads.HintPayload, reads: Reads) -> EmailMessage:
    """A hint asked by mail (`payload["hint"]`), as the scheduler worked it out."""
    found = advice.hint_by_id(payload["hint"])
    seq = payload["seq"]
    view = engine.view(reads.state(game, seq), payload["colour"])
    return compose.hint_mail(
        to,
        game_id=game.id,
        title=game.title,
        moves_found=found["moves"] if found else [],
        card=words.card_in_play(view),
        seq=seq,
    )


def review(to: Recipient, game: Game, payload: payloads.SeqPayload, reads: Reads) -> EmailMessage:
    """A finished game's review, for the seat the row names."""
    done = advice.review_of(game.id)
    assert done is not None  # the row is queued when the review is kept
    return compose.review_mail(to, game_id=game.id, title=game.title, review=done)


def invitation(
    to: Recipient, game: Game, payload: payloads.InvitationPayload, reads: Reads
) -> EmailMessage:
    """An invited seat of a game that forms: who organises it, its seats as they were when
    it was made, its pace and length."""
    timing = policy.timing_of(game.timing)
    pace = lazy_(
        "%(turn)s hours for a turn, %(power_card)s for a power card, %(pick)s for a pick, "
        "%(veto)s for a Veto",
        turn=timing["turn_hours"],
        power_card=timing["power_card_hours"],
        pick=timing["pick_hours"],
        veto=timing["veto_hours"],
    )
    seats = [
        {"colour": s["colour"], "name": lazy_("open: anyone may join") if s["open"] else s["name"]}
        for s in payload["seats"]
    ]
    return compose.invitation_mail(
        to,
        game_id=game.id,
        title=game.title,
        organiser=payload["organiser"],
        seats=seats,
        pace=pace,
        rounds=(game.options or {}).get("rounds", 9),
    )


def welcome(
    to: Recipient, game: Game, payload: payloads.WelcomePayload, reads: Reads
) -> EmailMessage:
    """A seat's first mail, the root of its thread (`compose.welcome_mail`)."""
    return compose.welcome_mail(
        to,
        game_id=game.id,
        title=game.title,
        seats=payload["seats"],
        claim_token=payload["claim_token"],
        declinable=payload["declinable"],
    )


def declined(
    to: Recipient, game: Game, payload: payloads.DeclinedPayload, reads: Reads
) -> EmailMessage:
    """To the game's organiser: a seat was declined."""
    return compose.declined_mail(
        to,
        game_id=game.id,
        title=game.title,
        colour=payload["seat_colour"],
        name=payload["name"],
    )


def notice(
    to: Recipient, game: Game, payload: payloads.NoticePayload, reads: Reads
) -> EmailMessage:
    """A game-wide notice, its words (`words.said`) written in the reader's language."""
    return compose.notice_mail(
        to,
        game_id=game.id,
        title=game.title,
        subject=later(spoken, payload["subject"]),
        lines=[later(spoken, line) for line in payload["lines"]],
    )


def seat_back(
    to: Recipient, game: Game, payload: payloads.SeqPayload, reads: Reads
) -> EmailMessage:
    """A person took their seat back from the bot: what happened while it played, up to
    `seq`, as the seat sees it."""
    colour = payload["colour"]
    connection = db.session.connection()
    entries = history.since_last_move(connection, game.id, colour, payload["seq"], by_person=True)
    named = {**outbox.seat_names(game), colour: lazy_("your bot")}
    with in_language(to.language):  # the story is written as it is told
        story = words.story(engine.visible_log(entries, {colour}), named, None)
        lines = [lazy_("You play %(colour)s again.", colour=words.colour_later(colour))]
        if story:
            lines += [lazy_("While the bot played it:"), *(f"  {line}" for line in story)]
        return compose.notice_mail(
            to,
            game_id=game.id,
            title=game.title,
            subject=lazy_("you play %(colour)s again", colour=words.colour_later(colour)),
            lines=lines,
        )


def seat_answer(
    to: Recipient, game: Game, payload: payloads.AnswerPayload, reads: Reads
) -> EmailMessage:
    """The answer to a seat's reply mail, as the mail door decided it (`inbound._answer`):
    its lines as written then; what it played, the board and the round so far as the seat
    saw them at the seqs the row names; and what is pending at `seq`."""
    colour, seq = payload["colour"], payload["seq"]
    pending: answers.PendingNow = {"waiting": None, "moves": [], "asks": ""}  # no game shown
    if seq is not None:
        pending = answers.pending_now(reads.state(game, seq), colour)
    played: list[Any] = []
    if payload["played"]:
        first, last = payload["played"]
        entries = engine.visible_log(reads.log(game.id, first - 1, last), {colour})
        before = engine.view(reads.state(game, first - 1), colour)
        names = outbox.seat_names(game)
        played = answers.played_lines(entries, names, words.card_in_play(before), colour)
    context: answers.AnswerContext = {
        "recipient": to,
        "game_id": game.id,
        "title": game.title,
        "played": played,
        "lines": payload["lines"],
        "board": None,
        "log": _round_so_far(game, colour, payload["log_seq"]),
        "help": payload["help"],
        "waiting": pending["waiting"],
        "moves": pending["moves"],
        "asks": pending["asks"],
        "link": compose.game_link(game.id),
        "view": None,
        "hand": [],
    }
    if payload["board_seq"] is not None:
        view = engine.view(reads.state(game, payload["board_seq"]), colour)
        context["board"] = later(board_table, view)
        context["view"] = view
        context["hand"] = view["players"][colour].get("hand", [])
    reply = answers.answer_mail(
        to,
        game_id=game.id,
        title=game.title,
        subject=_answer_subject(played, payload["outcome"]),
        context=context,
        # The decision the seat's moves answer is named in the answer's Message-ID.
        seq=seq if pending["moves"] else None,
    )
    answers.thread(reply, payload["in_reply_to"], payload["references"])
    return reply


def _round_so_far(game: Game, colour: str, upto: int | None) -> list[Any] | None:
    """The round under way at `upto`, as the seat saw it, for a reply's `log` (None: not
    asked)."""
    if upto is None:
        return None
    start = max(seq for seq in history.round_starts(game.id) if seq <= upto)
    entries = history.log_between(game.id, [colour], start, upto, events=True)
    return answers.log_lines(entries, colour)


def _answer_subject(played: list[Any], outcome: str) -> Any:
    if played:
        moves = later(lambda: "; ".join(str(move).split("\n")[0] for move in played))
        return lazy_("played %(moves)s", moves=moves)
    if outcome in ("refused", "quarantined"):
        return lazy_("nothing was played")
    return lazy_("your mail")


#: Each kind of mail a row names, and how it is composed: each composer reads its kind's
#: payload (`payloads`), the row's JSON, whose shape only the kind says.
MAILS: dict[str, Callable[[Recipient, Game, Any, Reads], EmailMessage]] = {
    "invitation": invitation,
    "welcome": welcome,
    "declined": declined,
    "notice": notice,
    "seat_back": seat_back,
    "answer": seat_answer,
    "decision": decision,
    "reminder": reminder,
    "every_move": every_move,
    "scoring": scoring,
    "game_over": scoring,
    "orders": orders,
    "timeout": timed_out,
    "table_talk": table_talk,
    "hint": hint,
    "review": review,
}


def account_mail(row: Any, reads: Reads) -> EmailMessage:
    """A mail of no game: a key, a sign-in link, an address change, a moderator's word, as
    `notify.account_mails` queued it; or the help, answering a mail to the plain address."""
    payload = row.payload
    if row.kind == "answer":  # the help, to whoever wrote to the plain address
        help_mail = answers.help_mail(row.recipient)
        answers.thread(help_mail, payload["in_reply_to"], payload["references"])
        return help_mail
    if row.kind == "sign_in":  # perhaps to an address no player has yet
        to = Recipient(
            row.player_id or 0, row.recipient, payload["name"], None, language=payload["language"]
        )
        return compose.sign_in_mail(
            to,
            payload["link"],
            payload["minutes"],
            known=payload["known"],
            registering=payload["registering"],
        )
    to = outbox.recipient(reads.player(row.player_id), email=row.recipient)
    if row.kind == "key":
        return compose.key_mail(to, payload["key"])
    if row.kind == "email_change":
        return compose.email_change_mail(
            to, payload["link"], payload["hours"], payload["old_email"]
        )
    if row.kind == "email_changed":
        return compose.email_changed_mail(to, payload["new_email"])
    assert row.kind == "moderation", row.kind
    until = payload["until"]
    return compose.moderation_mail(
        to,
        payload["action"],
        datetime.fromisoformat(until) if until is not None else None,
        payload["reason"],
    )


def bot_story(to: Recipient, game: Game, payload: payloads.MovesPayload) -> str:
    """What happened at a seat a bot played (the moves after `after` up to `seq`, and the
    story since the seat's move before them), as a part of its person's digest."""
    colour, after = payload["colour"], payload["after"]
    connection = db.session.connection()
    entries = history.since_last_move(connection, game.id, colour, after)
    entries += history.stored_log(connection, game.id, after, payload["seq"])
    with in_language(to.language):
        return compose.bot_story_text(
            game_id=game.id,
            title=game.title,
            colour=colour,
            entries=entries,
            names=outbox.seat_names(game),
        )


def webhook_body(game: Game, payload: payloads.WebhookPayload, reads: Reads) -> str:
    """A webhook's post of the moves after `after` up to `seq`: the public record only (a
    channel is read by anyone in it), in the hook's format."""
    seq = payload["seq"]
    state = reads.state(game, seq)
    entries = reads.log(game.id, payload["after"], seq)
    text = compose.public_summary(
        game_id=game.id,
        title=game.title,
        state=state,
        entries=engine.visible_log(entries, ()),
        scored=after_moves.general_scoring_events(
            reads.events(game.id, payload["after"], seq), state
        ),
    )
    body = {"text": text} if payload.get("format") == "slack" else {"content": text[:2000]}
    return json.dumps(body)
