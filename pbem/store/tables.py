"""Every table, named once: the Core statements above `store` are written on these, never on
a module's own alias of a model's `__table__`, so that a table's name is found in one place
and a grep for a table's statements finds them all."""

from __future__ import annotations

from pbem.store.models import (
    Absence,
    Block,
    BotRating,
    CardPlay,
    Counter,
    Deadline,
    Decision,
    DrawnRecord,
    EndedSession,
    Game,
    GameRating,
    GameReview,
    Heartbeat,
    Hint,
    IdempotencyRecord,
    IdleLimit,
    InboundMail,
    ModerationAction,
    Move,
    Note,
    Notification,
    Order,
    Player,
    PlayerRating,
    PushSubscription,
    RateCount,
    Report,
    Seat,
    SignInLink,
    Snapshot,
    SuppressedAddress,
    TableTalk,
    TalkMute,
    Tournament,
    TournamentEntry,
    TournamentTable,
)

absences = Absence.__table__
blocks = Block.__table__
bot_ratings = BotRating.__table__
card_plays = CardPlay.__table__
counters = Counter.__table__
deadlines = Deadline.__table__
decisions = Decision.__table__
drawn_records = DrawnRecord.__table__
ended_sessions = EndedSession.__table__
games = Game.__table__
game_reviews = GameReview.__table__
game_ratings = GameRating.__table__
heartbeats = Heartbeat.__table__
hints = Hint.__table__
idempotency_records = IdempotencyRecord.__table__
idle_limits = IdleLimit.__table__
inbound_mails = InboundMail.__table__
moderation_actions = ModerationAction.__table__
moves = Move.__table__
notes = Note.__table__
#: `Notification`'s table: every mail, webhook post and push, queued to be sent.
outbox = Notification.__table__
orders = Order.__table__
players = Player.__table__
player_ratings = PlayerRating.__table__
push_subscriptions = PushSubscription.__table__
rate_counts = RateCount.__table__
reports = Report.__table__
seats = Seat.__table__
sign_in_links = SignInLink.__table__
snapshots = Snapshot.__table__
suppressed_addresses = SuppressedAddress.__table__
table_talk = TableTalk.__table__
talk_mutes = TalkMute.__table__
tournaments = Tournament.__table__
tournament_entries = TournamentEntry.__table__
tournament_tables = TournamentTable.__table__
