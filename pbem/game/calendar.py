"""A player's deadlines as an iCalendar feed (RFC 5545): one event for each decision they
owe now, in their language, for the private link on their page (`/calendar/<token>.ics`).

It says only what the player's own mails say (their decisions, their games' titles and
pages), never a hand, a pick or another seat's anything.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from icalendar import Alarm, Calendar, Event, vDuration
from sqlalchemy.engine import Row

from pbem.clock import now
from pbem.extensions import db
from pbem.languages import N_, _, in_language, language_of, moment_text
from pbem.store.models import Player
from pbem.timing import deadlines, policy
from pbem.words import ASKS, colour_name

#: The alarm's time before a deadline when its game mails no reminder.
ALARM_WITHOUT_REMINDER = timedelta(hours=1)
#: How often a calendar program should fetch the feed again (a hint; most choose their own).
REFRESH = timedelta(minutes=30)


def feed(player: Player, game_link: Callable[[int], str], domain: str) -> bytes:
    """The player's feed: `game_link(game_id)` is a game's page (a plain link, never one
    that signs in), `domain` the site's, which makes each event's UID unique worldwide."""
    preferences = player.preferences or {}
    calendar = Calendar()
    calendar.add("prodid", "-//El Grande turn server//calendar feed//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    with in_language(language_of(preferences)):
        calendar.add("x-wr-calname", _("El Grande: your deadlines"))
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))  # an X- property: typed here
    stamp = now()
    for row in deadlines.owed_by(db.session.connection(), player.id):
        with in_language(language_of(preferences, row.language)):
            calendar.add_component(_event(row, stamp, game_link(row.game_id), domain))
    written: bytes = calendar.to_ical()
    return written


def _event(row: Row[Any], stamp: datetime, link: str, domain: str) -> Event:
    """One decision owed, in the language being rendered."""
    asks = _(ASKS.get(row.decision.partition(":")[0], N_("A decision is yours.")))
    event = Event()
    # One decision of one seat, from when it opened: the same on every fetch while it is
    # open; the seat's next decision, even of the same kind, opens later and is another.
    opened = row.opened_at.strftime("%Y%m%dT%H%M%S%fZ")
    decision = row.decision.replace(":", "-")
    event.add("uid", f"{row.game_id}-{row.colour}-{decision}-{opened}@{domain}")
    event.add("dtstamp", stamp)
    # A deadline is a moment: a date-time DTSTART and no DTEND is an event that ends where
    # it starts (RFC 5545 3.6.1; a DTEND equal to DTSTART is forbidden by 3.8.2.2).
    event.add("dtstart", row.due_at)
    # The deadline row counts its moves (an organiser's extension, an absence declared or
    # withdrawn) and never counts down: a monotonic SEQUENCE, so a calendar program takes a
    # moved deadline as a newer version of the event, never an older one.
    event.add("sequence", row.moved)
    # A person holding two colours owes a decision per seat: each event names its seat.
    seat = f" ({colour_name(row.colour)})" if row.seats_held > 1 else ""
    event.add("summary", f"{row.title}{seat}: {asks.rstrip('.')}")
    lines = [
        asks,
        _(
            "Decide by %(deadline)s; after that the server plays for you.",
            deadline=moment_text(row.due_at, year=True),
        ),
        _("The board: %(link)s", link=link),
    ]
    event.add("description", "\n\n".join(lines))
    event.add("url", link)
    event.add("transp", "TRANSPARENT")  # a deadline takes up no time in the diary
    event.add_component(_alarm(row, asks))
    return event


def _alarm(row: Row[Any], asks: str) -> Alarm:
    """The alarm at the game's first reminder for this decision (what its mail would do),
    else a little before the deadline: given relative to the deadline, so it moves with it."""
    timing = policy.timing_of(row.timing)
    hours = policy.first_reminder(timing, row.due_at, row.opened_at)
    before = timedelta(hours=hours) if hours is not None else ALARM_WITHOUT_REMINDER
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", asks)
    alarm.add("trigger", -before)
    return alarm
