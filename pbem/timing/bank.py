"""A time bank: the clock correspondence sites play by (a Fischer clock, as OGS, BGA and
lichess run it), a game's alternative to fixed hours per decision.

Each seat starts with `bank_hours`. While a decision of the seat's is open its bank runs
down, except over the game's quiet days and the holder's declared absences (within the
game's vacation allowance), which stop the clock; the decision is due when the bank would
run out. When the seat answers, the time the decision took is drawn from the bank, then
`increment_hours` is added, the whole capped at `cap_hours`.

- A timeout leaves the bank at the increment, not at nothing: at nothing the seat's next
  decision would be due the moment it opened, and the seat would time out at every
  decision after one slow one, until a bot took it over; the increment gives a player who
  missed one deadline a fair chance to answer the next.
- One clock per seat, however many decisions it holds at once (a rare case: a Veto
  window and a pick): the clock starts when the first opens (`bank_at`), every open one is
  due when the bank runs out, and each answer settles the bank at that moment (drawing
  the time since `bank_at`, adding the increment) and starts the clock again for what is
  still open. Time is never drawn twice.
- A decision closed by another seat's move (not answered by its holder) draws nothing
  and adds nothing: its holder was not given the time to finish it.
- A house bot's answer leaves the bank as it was, for the holder taking the seat back.
- An organiser's extension moves the deadline, not the bank: an answer after the bank
  ran out leaves the increment, as a timeout does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, time, timedelta
from typing import Any, TypedDict

from pbem.timing import policy

#: Sensible upper bound of every clock setting: 60 days, as for the fixed hours.
MOST_HOURS = 24 * 60


class Clock(TypedDict):
    """A time-bank game's clock (`timing.clock`), in whole hours."""

    bank_hours: int
    increment_hours: int
    cap_hours: int


#: The clock `/games/new` offers: 5 days to start with, a day more per answer, 10 at most.
DEFAULT_CLOCK: Clock = {"bank_hours": 120, "increment_hours": 24, "cap_hours": 240}


def clock_of(timing: Mapping[str, Any] | None) -> Clock | None:
    """The game's clock, if it plays with a time bank."""
    clock: Clock | None = (timing or {}).get("clock")
    return clock


def problems(clock: Mapping[str, Any]) -> list[str]:
    """What is wrong with a clock whose fields are whole hours in range (the schema checked
    those), said so a person can mend it: none if it is sound."""
    found = []
    bank, increment, cap = clock["bank_hours"], clock["increment_hours"], clock["cap_hours"]
    if increment > cap:
        found.append(
            f"increment_hours ({increment}) is more than cap_hours ({cap}): a bank never holds "
            "more than its cap, so lower the increment or raise the cap"
        )
    if bank > cap:
        found.append(
            f"bank_hours ({bank}) is more than cap_hours ({cap}): a seat would start with more "
            "than its bank may ever hold, so lower the bank or raise the cap"
        )
    return found


def starting_seconds(timing: Mapping[str, Any] | None) -> int | None:
    """What each seat's bank holds when the game is made (None: no time bank)."""
    clock = clock_of(timing)
    return clock["bank_hours"] * 3600 if clock else None


def held(clock: Clock, stored: int | None) -> int:
    """A seat's bank as its row keeps it (`bank_seconds`), or the starting bank where the
    row keeps none."""
    return stored if stored is not None else clock["bank_hours"] * 3600


def pauses(
    timing: policy.Timing,
    start: datetime,
    until: datetime,
    absences: Iterable[tuple[datetime, datetime]] = (),
) -> list[tuple[datetime, datetime]]:
    """When the clock stands still between `start` and `until`: the holder's absences
    (within the game's vacation allowance, used up in the order they come, as
    `policy.due` does) and its quiet days (whole days, UTC), merged and in order."""
    stopped: list[tuple[datetime, datetime]] = []
    allowance = timedelta(days=timing["vacation_days"])
    for first, last in sorted(absences):
        if last <= start or allowance <= timedelta(0):
            continue
        first = max(first, start)
        taken = min(last - first, allowance)
        allowance -= taken
        stopped.append((first, first + taken))
    quiet = {policy.WEEKDAYS.index(d) for d in timing.get("quiet_days") or []}
    if quiet:
        day = datetime.combine(start.date(), time(0), tzinfo=start.tzinfo)
        while day < until:
            if day.weekday() in quiet:
                stopped.append((max(day, start), day + timedelta(days=1)))
            day += timedelta(days=1)
    merged: list[tuple[datetime, datetime]] = []
    for first, last in sorted(stopped):
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def counted(
    timing: policy.Timing,
    start: datetime,
    end: datetime,
    absences: Iterable[tuple[datetime, datetime]] = (),
) -> int:
    """The seconds the clock ran from `start` to `end`: the time between, less its pauses."""
    if end <= start:
        return 0
    stopped = sum(
        (min(last, end) - max(first, start)).total_seconds()
        for first, last in pauses(timing, start, end, absences)
        if first < end and last > start
    )
    return int((end - start).total_seconds() - stopped)


def runs_out(
    timing: policy.Timing,
    start: datetime,
    seconds: int,
    absences: Iterable[tuple[datetime, datetime]] = (),
) -> datetime:
    """When a bank of `seconds`, counting down from `start`, is empty: `counted`'s inverse."""
    allowance = timedelta(days=timing["vacation_days"])
    # Far enough for any quiet days: at most six a week, so a day counts at least weekly.
    horizon = start + timedelta(seconds=seconds, days=1) * 7 + allowance
    moment, left = start, timedelta(seconds=seconds)
    for first, last in pauses(timing, start, horizon, absences):
        if first > moment:
            if moment + left <= first:
                return moment + left
            left -= first - moment
        moment = max(moment, last)
    return moment + left


def settled(clock: Clock, seconds: int, used: int, timed_out: bool) -> int:
    """The bank after an answer that took `used` seconds of the clock: drawn from, then the
    increment added, capped. A timeout leaves the increment alone (see above)."""
    left = 0 if timed_out else max(0, seconds - used)
    return min(clock["cap_hours"] * 3600, left + clock["increment_hours"] * 3600)
