"""What an outbox row says before the sender composes it: its `payload`, kept as JSON, one
shape for each kind of row. The code that queues a row builds its kind's shape, and the
composer of that kind (`composing.MAILS`, `composing.account_mail`) reads the same one, so
the two are checked against each other.

A game's rows name the seat whose thread they go to (`colour`); the seqs they name are the
game's, and a row is composed from the game as it was at them (never as it is now).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

import engine
from pbem.words.said import Said

# -- a game's mails ---------------------------------------------------------------------------


class MovesPayload(TypedDict):
    """The moves after `after` up to `seq` (a scoring, the game's end, what orders played, a
    bot's story)."""

    colour: str
    after: int
    seq: int


class EveryMovePayload(MovesPayload):
    """`seen`: the seats whose hidden moves the reader may see (the reader's own)."""

    seen: list[str]


class DecisionPayload(TypedDict):
    """A decision (or its reminder): what is asked at `seq`, and by when (ISO, or None)."""

    colour: str
    seq: int
    decision: engine.Pending
    deadline: str | None


class TimeoutPayload(TypedDict):
    """What the server played when the seat's time ran out (`card`: the action card in
    play before; a row queued before it was kept has none)."""

    colour: str
    decision: str
    moves: list[engine.Move]
    seq: int
    bot_now: bool
    card: NotRequired[str | None]


class TableTalkPayload(TypedDict):
    """Words said at the table, by the speaker as named when they spoke."""

    colour: str
    speaker: str
    speaker_colour: str
    lines: list[str]
    seq: int
    said_at: NotRequired[str | None]


class HintPayload(TypedDict):
    colour: str
    hint: int
    seq: int


class SeqPayload(TypedDict):
    """A seat at a seq: a review of the finished game, a seat taken back from its bot."""

    colour: str
    seq: int


class InvitedSeat(TypedDict):
    colour: str
    name: str
    open: bool


class InvitationPayload(TypedDict):
    colour: str
    organiser: str
    seats: list[InvitedSeat]


class WelcomeSeat(TypedDict):
    colour: str
    name: str


class WelcomePayload(TypedDict):
    """A seat's first mail: `claim_token` for an address not yet proved (None once it is)."""

    colour: str
    seats: list[WelcomeSeat]
    claim_token: str | None
    declinable: bool


class DeclinedPayload(TypedDict):
    """To the game's organiser (`colour`: their seat, None when they hold none)."""

    colour: str | None
    seat_colour: str
    name: str


class NoticePayload(TypedDict):
    """A notice's words, written in each reader's language when it is composed."""

    colour: str
    subject: Said
    lines: list[Said]


class Thread(TypedDict):
    """The mail an answer answers, for its In-Reply-To and References."""

    in_reply_to: str
    references: list[str]


class AnswerPayload(Thread):
    """The answer to a seat's reply mail: the door's lines, written then in the reader's
    language; the seqs of the moves it played (first, last), of the board and the round its
    commands showed, and of the game whose pending decision it names (None: not shown)."""

    colour: str
    outcome: str
    lines: list[str]
    seq: int | None
    played: list[int] | None
    board_seq: int | None
    log_seq: int | None
    help: bool


class WebhookPayload(TypedDict):
    after: int
    seq: int
    format: str | None


class PushPayload(TypedDict, total=False):
    """What a push may say: a decision's kind alone, a hint's seat, the words said at the
    table by whom (a game's end says nothing more)."""

    decision_kind: str
    colour: str
    speaker: str
    speaker_colour: str
    lines: list[str]


# -- mails of no game ---------------------------------------------------------------------


class KeyPayload(TypedDict):
    key: str


class SignInPayload(TypedDict):
    """Who asked, as they asked (a player made meanwhile by the link changes nothing)."""

    name: str
    language: str
    known: bool
    registering: bool
    link: str
    minutes: int


class EmailChangePayload(TypedDict):
    link: str
    hours: int
    old_email: str


class EmailChangedPayload(TypedDict):
    new_email: str


class ModerationPayload(TypedDict):
    action: str
    until: str | None
    reason: str


#: What a game's mail says before it is composed.
GamePayload = (
    MovesPayload
    | EveryMovePayload
    | DecisionPayload
    | TimeoutPayload
    | TableTalkPayload
    | HintPayload
    | SeqPayload
    | InvitationPayload
    | WelcomePayload
    | DeclinedPayload
    | NoticePayload
    | AnswerPayload
)

#: What any row says before it is composed.
Payload = (
    GamePayload
    | WebhookPayload
    | PushPayload
    | Thread
    | KeyPayload
    | SignInPayload
    | EmailChangePayload
    | EmailChangedPayload
    | ModerationPayload
)
