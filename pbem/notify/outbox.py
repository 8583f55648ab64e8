"""Writing the outbox: which mails a committed change causes, written in its transaction.

Never one mail per atomic step: after a batch, each player to whom a decision has newly
come (a turn, a power card, a pick, a Veto window) gets one mail with the latest board; the
steps of their own turn send nothing. A general scoring and the end of the game are mailed
to everyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from email.message import EmailMessage
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection

import engine
from pbem.clock import now
from pbem.notify import compose
from pbem.notify.compose import Recipient
from pbem.store.models import Notification, Player, Seat

_OUTBOX = insert(Notification.__table__)
_seats, _players = Seat.__table__, Player.__table__


def recipients(connection: Connection, game_id: int) -> list[tuple[Recipient, dict]]:
    """Each seat's holder as a mail recipient, with their preferences, in seat order."""
    rows = connection.execute(
        select(
            _seats.c.colour,
            _players.c.id,
            _players.c.email,
            _players.c.name,
            _players.c.preferences,
        )
        .join(_players, _players.c.id == _seats.c.player_id)
        .where(_seats.c.game_id == game_id)
        .order_by(_seats.c.position)
    ).all()
    return [(Recipient(r.id, r.email, r.name, r.colour), r.preferences or {}) for r in rows]


def wants(preferences: dict[str, Any], game_id: int, kind: str) -> bool:
    """Whether a player's preferences ask for mails of `kind` from game `game_id`."""
    if game_id in (preferences.get("muted_games") or []):
        return False
    defaults = {"decision": True, "scoring": True, "game_over": True, "every_move": False}
    return bool((preferences.get("mail") or {}).get(kind, defaults.get(kind, False)))


def rows_for(
    mails: Iterable[tuple[Recipient, str, EmailMessage]], game_id: int
) -> list[dict[str, Any]]:
    moment = now()
    return [
        {
            "game_id": game_id,
            "player_id": recipient.player_id,
            "channel": "mail",
            "kind": kind,
            "recipient": recipient.email,
            "message": mail.as_string(),
            "status": "queued",
            "attempts": 0,
            "next_attempt_at": moment,
            "created_at": moment,
        }
        for recipient, kind, mail in mails
    ]


def queue(connection: Connection, rows: list[dict[str, Any]]) -> None:
    if rows:
        connection.execute(_OUTBOX, rows)


def general_scoring_events(
    events: list[dict[str, Any]], state: engine.State
) -> list[dict[str, Any]] | None:
    """The events of a general scoring this batch completed, else None.

    A general scoring begins (`general_scoring`) at a round's end and, where caballeros are
    in the Castillo, waits for the Castillo picks; it is complete once that phase is over
    (`castillo_revealed`, or at once without picks).
    """
    types = [e["type"] for e in events]
    if state.phase == "castillo_pick" or not {"general_scoring", "castillo_revealed"} & set(types):
        return None
    if "general_scoring" in types:
        start = len(types) - 1 - types[::-1].index("general_scoring")
        return events[start:]
    return events


def decision_key(entry: dict[str, Any]) -> tuple:
    """What makes a pending decision a new one: its player and kind (a turn's steps are one
    decision), and for a Veto window, whose veto it answers."""
    return (entry["player"], entry["kind"], entry.get("vetoer"))


def after_batch(
    connection: Connection,
    *,
    game_id: int,
    title: str,
    before: engine.State,
    batch: engine.Batch,
    seq: int,
) -> None:
    """Queue the mails a committed batch causes (see the module's docstring)."""
    state = batch.state
    seen_before = {decision_key(p) for p in engine.pending(before)}
    fresh: dict[str, dict[str, Any]] = {}
    for entry in engine.pending(state):
        if decision_key(entry) not in seen_before:
            fresh.setdefault(entry["player"], entry)
    events = general_scoring_events(batch.events, state)
    scored = events is not None
    if not fresh and not scored:
        return
    mails = []
    for recipient, preferences in recipients(connection, game_id):
        decision = fresh.get(recipient.colour)
        if decision is not None and wants(preferences, game_id, "decision"):
            mail = compose.decision_mail(
                recipient,
                game_id=game_id,
                title=title,
                state=state,
                decision=decision,
                seq=seq,
            )
            mails.append((recipient, "decision", mail))
        kind = "game_over" if engine.is_over(state) else "scoring"
        if scored and wants(preferences, game_id, kind):
            mail = compose.scoring_mail(
                recipient, game_id=game_id, title=title, state=state, events=events, seq=seq
            )
            mails.append((recipient, kind, mail))
    queue(connection, rows_for(mails, game_id))


def game_started(connection: Connection, *, game_id: int, title: str, state: engine.State) -> None:
    """Each seat's first mail (the root of its thread), then the first decision's."""
    seated = recipients(connection, game_id)
    seats = [{"colour": r.colour, "name": r.name} for r, _ in seated]
    mails = [
        (r, "welcome", compose.welcome_mail(r, game_id=game_id, title=title, seats=seats))
        for r, preferences in seated
        if wants(preferences, game_id, "decision")
    ]
    pending = {entry["player"]: entry for entry in engine.pending(state)}
    for recipient, preferences in seated:
        if recipient.colour in pending and wants(preferences, game_id, "decision"):
            mail = compose.decision_mail(
                recipient,
                game_id=game_id,
                title=title,
                state=state,
                decision=pending[recipient.colour],
                seq=0,
            )
            mails.append((recipient, "decision", mail))
    queue(connection, rows_for(mails, game_id))
