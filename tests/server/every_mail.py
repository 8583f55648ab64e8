"""Every kind of mail the server sends, composed for one recipient in one language, from a
real game's states: for sweeps over all of them (headers, words, spam scores)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage
from functools import cache

import engine
from pbem import languages, words
from pbem.languages import lazy_
from pbem.notify import answers, compose
from pbem.notify.compose import Recipient
from pbem.notify.later import Later

COLOURS = ["red", "blue", "green", "yellow"]
NAMES = {"red": "Ana", "blue": "Björn", "green": "Вера", "yellow": "Dave"}
#: A title with words of several alphabets, long enough for subjects to be folded.
TITLE = "Sonntagsrunde für Freunde — Воскресная партия"
#: What players wrote that mails quote: table talk, a digest's parts, an API key.
TALK = ["Hallo!"]
DIGEST = ["one", "two"]
#: What an operator wrote to a player they moderated (quoted as written).
REASON = "Be kind."
KEY = "key"


@cache
def states() -> dict[str, object]:
    """States of one random game: the first where each kind of decision is pending, the
    first general scoring (with its events), a batch orders could play, and the end."""
    state = engine.new_game(COLOURS, seed=1, options={"rounds": 9})
    rng = random.Random(1)
    found: dict[str, object] = {"start": state}
    log: list[engine.LogEntry] = []
    while not engine.is_over(state):
        pending = engine.pending(state)
        for entry in pending:
            found.setdefault(entry["kind"], (state, entry))
        colour = pending[0]["player"]
        move = rng.choice(engine.legal_moves(state, colour))
        before = state
        state, events = engine.apply(state, colour, move)
        log.append({"seq": len(log) + 1, "player": colour, "move": move, "events": events})
        if any(e["type"] == "general_scoring" for e in events):
            found.setdefault("scoring", (state, events))
        if move["type"] == "play_power_card":
            found.setdefault("power", (before, colour, move))
    found["over"] = (state, log[-1]["events"])
    found["log"] = log
    return found


def mails(language: str, game_id: int = 7) -> Iterator[tuple[str, EmailMessage]]:
    """(kind, mail) for every kind of mail, to Björn (blue) in `language`."""
    found = states()
    to = Recipient(2, "bjorn@example.org", "Björn", "blue", language=language)
    game = {"game_id": game_id, "title": TITLE}
    for kind in compose.ASKS:
        state, entry = found[kind]  # type: ignore[misc]
        seat = Recipient(2, to.email, to.name, entry["player"], language=language)
        for reminder in (False, True):
            yield (
                f"{'reminder' if reminder else 'decision'} {kind}",
                compose.decision_mail(
                    seat,
                    **game,
                    state=state,
                    decision=entry,
                    seq=5,
                    deadline="2026-11-28T06:28:00+00:00",
                    reminder=reminder,
                    names=NAMES,
                ),
            )
    log = found["log"]
    yield "every move", compose.moves_mail(to, **game, entries=log[:3], seq=3)  # type: ignore[index]
    for kind in ("scoring", "over"):
        state, events = found[kind]  # type: ignore[misc]
        yield kind, compose.scoring_mail(to, **game, state=state, events=events, seq=9, names=NAMES)
    yield (
        "table talk",
        compose.table_talk_mail(to, **game, speaker="Dave", lines=TALK, seq=4),
    )
    yield from _seat_mails(to, game, language)
    yield from _plain_mails(to, language)
    yield from _answers(to, game, found["turn"][0], language)  # type: ignore[index]


def _seat_mails(to: Recipient, game: dict, language: str) -> Iterator[tuple[str, EmailMessage]]:
    seats = [{"colour": c, "name": n} for c, n in NAMES.items()]
    yield "welcome", compose.welcome_mail(to, **game, seats=seats, claim_token="claim")
    yield (
        "invitation",
        compose.invitation_mail(to, **game, organiser="Ana", seats=seats, pace="24", rounds=9),
    )
    yield "declined", compose.declined_mail(to, **game, colour="green", name="Вера")
    for kind in ("turn", "veto_window"):
        yield (
            f"timed out {kind}",
            compose.timed_out_mail(
                to, **game, kind=kind, moves=[{"type": "end_turn"}], seq=6, bot_now=True
            ),
        )
    for subject in (
        lazy_("a bot now plays %(colour)s", colour=lazy_("yellow")),
        lazy_("you play %(colour)s again", colour=lazy_("blue")),
        lazy_("the game is cancelled"),
        lazy_("the game is abandoned"),
    ):
        yield "notice", compose.notice_mail(to, **game, subject=subject, lines=["…"])
    _, colour, move = states()["power"]  # type: ignore[misc]
    seat = Recipient(2, to.email, to.name, colour, language=language)
    yield "orders played (orders)", compose.orders_mail(seat, **game, moves=[move], seq=8)


def _plain_mails(to: Recipient, language: str) -> Iterator[tuple[str, EmailMessage]]:
    plain = Recipient(2, to.email, to.name, None, language=language)
    link = "https://pbem.example/sign-in/token"
    yield "key", compose.key_mail(plain, KEY)
    for known, registering in ((True, False), (False, False), (False, True)):
        yield "sign in", compose.sign_in_mail(plain, link, 15, known, registering)
    yield "address change", compose.email_change_mail(plain, link, 24, "old@example.org")
    yield "address changed", compose.email_changed_mail(plain, "new@example.org")
    yield "digest", compose.digest_mail(plain, DIGEST)
    until = datetime(2027, 1, 9, 12, tzinfo=UTC)
    for action in ("warn", "suspend", "ban", "lift"):
        moment = until if action == "suspend" else None
        yield f"moderation {action}", compose.moderation_mail(plain, action, moment, REASON)
    with languages.in_language(language):
        yield "help", answers.help_mail(to.email)


def _said(entry: dict) -> list[str]:
    move, effects = words.played_entry(entry, None, {}, entry["player"])
    return [move, *effects]


def _answers(
    to: Recipient, game: dict, state: engine.State, language: str
) -> Iterator[tuple[str, EmailMessage]]:
    # What was played, as the door writes it for the reader (`pbem.play.inbound`): each
    # move in words, as what it did, with what it did below it.
    played = [{"type": "play_power_card", "card": 13}, {"type": "choose_card", "card": "king"}]
    entries = [
        {"seq": 4 + index, "player": to.colour or "blue", "move": move, "events": []}
        for index, move in enumerate(played)
    ]
    entries[-1]["events"] = [{"type": "king_moved", "to": "aragon"}]
    said = [Later(lambda e=e: "\n    ".join(_said(e))) for e in entries]
    context = {
        "recipient": to,
        **game,
        "played": said,
        "lines": [],
        "board": None,
        "log": None,
        "help": False,
        "link": "https://pbem.example/games/7",
        "view": None,
        "hand": [],
        **answers.pending_now(state, to.colour or "blue"),
    }
    moves = Later(lambda: "; ".join(_said(e)[0] for e in entries))
    for subject in (
        lazy_("played %(moves)s", moves=moves),
        lazy_("nothing was played"),
        lazy_("your mail"),
    ):
        yield "answer", answers.answer_mail(to, **game, subject=subject, context=context, seq=5)
