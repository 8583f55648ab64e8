"""A game's timing policy: how long each kind of decision may wait, reminders, quiet days,
what a timeout does, and vacation. Stored on the game (`Game.timing`); these defaults fill
what a game leaves out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any, TypedDict, cast

import engine

#: A policy as a game stores it (its JSON column): only what the game set, maybe in the old
#: single-setting form. `timing_of` makes it a whole `Timing`.
StoredTiming = Mapping[str, Any]


class Timing(TypedDict):
    """A game's whole policy, every setting filled in (`timing_of`); hours and days are
    whole numbers, as `TimingSchema` takes them."""

    power_card_hours: int
    turn_hours: int
    pick_hours: int
    veto_hours: int
    reminders: list[int]  # hours before a deadline
    quiet_days: list[str]  # of WEEKDAYS
    on_timeout: str  # "default_move", "bot" or "skip"
    bot_after_timeouts: int
    takeover_bot: str  # the level of the bot that takes a seat over (engine.bots.LEVELS)
    abandon_after_days: int
    vacation_days: int


#: The documented defaults (docs/deadlines.md).
DEFAULT_TIMING: Timing = {
    "power_card_hours": 48,
    "turn_hours": 72,
    "pick_hours": 48,
    "veto_hours": 24,
    "reminders": [24, 4],
    "quiet_days": [],
    "on_timeout": "default_move",
    "bot_after_timeouts": 3,
    "takeover_bot": "strong",
    "abandon_after_days": 30,
    "vacation_days": 14,
}

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

#: Which hours setting each pending decision's kind uses.
HOURS_FOR = {
    "power_card": "power_card_hours",
    "turn": "turn_hours",
    "castillo_pick": "pick_hours",
    "secret_pick": "pick_hours",
    "king_rages": "pick_hours",
    "veto_window": "veto_hours",
}


def timing_of(stored: StoredTiming | None) -> Timing:
    """A game's policy with the defaults filled in. Games made before the policy had one
    setting, `deadline_hours`, for every decision."""
    stored = dict(stored or {})
    legacy = stored.pop("deadline_hours", None)
    stored.pop("reminder_hours", None)
    timing: dict[str, Any] = dict(DEFAULT_TIMING)
    if legacy:
        timing.update({name: legacy for name in set(HOURS_FOR.values())})
    timing.update(stored)
    return cast(Timing, timing)  # stored settings were checked by TimingSchema


def decision_key(entry: engine.Pending) -> str:
    """A pending decision's identity: its kind, and for a Veto window whose veto it answers
    (a counter window is a new decision)."""
    if entry["kind"] == "veto_window" and entry.get("vetoer"):
        return f"veto_window:{entry['vetoer']}"
    return entry["kind"]


def answered_along(steps: Iterable[tuple[engine.State, engine.State]]) -> set[tuple[str, str]]:
    """The decisions (colour, key) that steps from one state to the next answered: pending
    before a step, not after it. A move that answers a seat's decision and, with the orders
    it sets off, opens the same kind again (a turn ends; the power cards are played by
    orders; the same seat's turn comes) opens a new decision, not the old one going on."""
    answered: set[tuple[str, str]] = set()
    for before, after in steps:
        now_pending = {(p["player"], decision_key(p)) for p in engine.pending(after)}
        answered |= {(p["player"], decision_key(p)) for p in engine.pending(before)} - now_pending
    return answered


def due(
    timing: Timing,
    kind: str,
    opened: datetime,
    absences: Iterable[tuple[datetime, datetime]] = (),
) -> datetime:
    """When a decision of `kind` opened at `opened` is due: its hours on, moved past the
    holder's absences (within the game's vacation allowance) and off quiet days."""
    hours: int = timing[HOURS_FOR.get(kind, "turn_hours")]  # type: ignore[literal-required]
    moment = opened + timedelta(hours=hours)
    allowance = timedelta(days=timing["vacation_days"])
    for start, end in sorted(absences):
        if allowance <= timedelta(0):
            break
        if end <= opened or start >= moment:
            continue
        # The time the absence takes out of the decision's window, within what is left of
        # the allowance, is added back after it.
        lost = min(end, moment + (end - start)) - max(start, opened)
        lost = min(lost, allowance)
        allowance -= lost
        moment += lost
    quiet = {WEEKDAYS.index(d) for d in timing.get("quiet_days") or []}
    for _ in range(7):
        if moment.weekday() not in quiet:
            break
        moment += timedelta(days=1)
    return moment


def next_look(timing: Timing, due_at: datetime, sent: Iterable[int]) -> datetime:
    """When the sweep must next look at a deadline: its next unsent reminder, else the
    deadline itself."""
    sent = set(sent)
    reminders = [due_at - timedelta(hours=h) for h in timing["reminders"] if h not in sent]
    return min([*reminders, due_at])


def reminders_owed(
    timing: Timing, due_at: datetime, moment: datetime, sent: Iterable[int] = ()
) -> list[int]:
    """The reminders (hours before `due_at`) whose time has come by `moment`, unsent."""
    sent = set(sent)
    return [
        h for h in timing["reminders"] if h not in sent and due_at - timedelta(hours=h) <= moment
    ]


def abandon_at(stored: StoredTiming | None, moment: datetime) -> datetime:
    """When a game is abandoned if no person moves again after `moment`."""
    return moment + timedelta(days=timing_of(stored)["abandon_after_days"])


def first_reminder(timing: Timing, due_at: datetime, opened: datetime) -> int | None:
    """The first reminder mailed for a decision opened at `opened` and due at `due_at`, in
    hours before it: the earliest one after the opening (one due by then is never sent, as
    `deadlines.sync` marks it); None when the game mails none."""
    later = [h for h in timing["reminders"] if due_at - timedelta(hours=h) > opened]
    return max(later, default=None)
