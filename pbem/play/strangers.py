"""What keeps the server from mailing people who never asked: caps a day on the games one
player makes, on the invitations one player sends to addresses with no account here, and
on the invitations one such address receives from anyone; the addresses that asked never to
be invited; and titles and seat names a mail program would make a link of (an invitation
shows them to someone who may not know the sender).

An invitation, for the caps, is a seat given to an address with no account (no player, or
an invited one that has not claimed a key) when a game is made, or when its organiser hands
it one (`give_seat`): one a game for each address, however many seats it holds. Seats for
players with an account, bots and open seats are not counted. An address's cap, and the
never-invite list, count its mailbox (`pbem.addresses.mailbox`): `ana+1@example.org` and
`ana+2@example.org` are one person to them. Each cap is taken with
`pbem.store.limits.take`, in the caller's transaction: a refused request rolls back, and is
not counted. Nothing here commits."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from datetime import datetime, timedelta

from flask import current_app

from pbem.addresses import mailbox
from pbem.clock import now
from pbem.errors import Invalid, TooMany
from pbem.extensions import db
from pbem.languages import N_, later, moment_text
from pbem.play.asked import SeatAsked
from pbem.store import limits, suppressed
from pbem.store.models import Player
from pbem.words import colour_name

#: The caps' window: a day, from midnight UTC.
DAY = timedelta(days=1)

# What mail programs make links of. Deliberately broad: a title is refused, and mended with
# a space, far more cheaply than a stranger is fooled by a link the server seemed to send.
_LINKS = [
    re.compile(r"[a-z][a-z0-9+.-]*:/", re.IGNORECASE),  # https://, ftp:/ ...
    re.compile(
        r"\b(?:mailto|tel|sms|callto|skype|sip|xmpp|news|data|javascript|file|magnet|tg"
        r"|whatsapp|facetime)\s*:",
        re.IGNORECASE,
    ),
    re.compile(r"\bwww\d{0,3}\.", re.IGNORECASE),
    re.compile(r"[^\s@]@[^\s@]"),  # an address
    # A domain-like word: name.name ending in letters (paypal.com, evil.test/unlock, пример.рф).
    re.compile(r"\w(?:[\w-]*\w)?(?:\.[\w-]+)*\.[^\W\d_]{2,}(?!\w)"),
    re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b"),  # an IP address
]
# Dots other scripts write, and characters that show nothing but may split a word.
_DOTS = str.maketrans({"\u3002": ".", "\uff61": ".", "\uff0e": "."})
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")


def looks_like_link(text: str) -> bool:
    """Whether a mail program might show some of `text` as a link."""
    plain = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text).translate(_DOTS))
    return any(pattern.search(plain) for pattern in _LINKS)


def check_words(title: str, seats: list[SeatAsked]) -> None:
    """Refuse a title or a seat's name (given by the organiser) that holds a link."""
    if looks_like_link(title):
        raise Invalid(
            N_(
                "The title “%(title)s” holds something a mail program would show as a link (a "
                "web or mail address, or a name like example.com). Invitations show the title "
                "to people who may not know you: write it without one."
            ),
            code="title-with-link",
            title=title.strip(),
        )
    for position, seat in enumerate(seats):
        name = seat.get("name") or ""
        if looks_like_link(name):
            raise Invalid(
                N_(
                    "The name for seat %(seat)s (%(colour)s), “%(name)s”, holds something a "
                    "mail program would show as a link (a web or mail address, or a name like "
                    "example.com): give a name without one."
                ),
                code="seat-name-with-link",
                seat=position + 1,
                colour=later(colour_name, str(seat.get("colour"))),
                name=name.strip(),
            )


def admit_game(creator: Player, invited: Mapping[str, str]) -> None:
    """A game may be made by `creator` and mail `invited` ({address: colour of its first
    seat}, the creator's own left out): else Invalid (an address that asked never to be
    invited) or TooMany (a cap), before anything is written."""
    connection = db.session.connection()
    _refuse_suppressed(invited)
    moment = now()
    if not limits.take(
        connection, f"games:player:{creator.id}", _cap("PBEM_GAMES_PER_DAY"), DAY, moment
    ):
        raise TooMany(
            N_(
                "You have made as many games today as one player may here (%(most)s); make the "
                "next one after %(when)s."
            ),
            code="too-many-games-today",
            most=_cap("PBEM_GAMES_PER_DAY"),
            when=later(moment_text, _day_end(moment)),
            retry_after=_wait(moment),
        )
    strangers = _strangers(invited)
    _take_invitations(creator, {e: c for e, c in invited.items() if e in strangers})


def admit_seat(admin: Player, email: str, colour: str) -> None:
    """A seat may be handed to `email` (normal) by its organiser `admin`, and so mailed."""
    if email == admin.email:
        return  # the organiser takes the seat back themselves: nobody is invited
    _refuse_suppressed({email: colour})
    _take_invitations(admin, {email: colour} if _strangers({email: colour}) else {})


def _refuse_suppressed(invited: Mapping[str, str]) -> None:
    refused = suppressed.among(db.session.connection(), invited)
    for email, colour in invited.items():
        if email in refused:
            raise Invalid(
                N_(
                    "%(email)s (the %(colour)s seat) asked never to be invited to a game here, "
                    "by anyone: give that seat to someone else, a house bot or an open seat."
                ),
                code="never-invite",
                email=email,
                colour=later(colour_name, colour),
            )


def _strangers(invited: Mapping[str, str]) -> set[str]:
    """Which of the addresses have no account here: no player, or one whose holder never
    proved the address by a mailed link (an invited one, or an account made before)."""
    known = db.session.execute(
        db.select(Player.email).where(
            Player.email.in_(list(invited)), Player.email_proved_at.is_not(None)
        )
    ).scalars()
    return set(invited) - set(known)


def _take_invitations(inviter: Player, strangers: Mapping[str, str]) -> None:
    connection, moment = db.session.connection(), now()
    most = _cap("PBEM_INVITATIONS_PER_DAY")
    for email, colour in strangers.items():
        if not limits.take(connection, f"invitations:player:{inviter.id}", most, DAY, moment):
            raise TooMany(
                N_(
                    "This would take you past the invitations one player may send in a day to "
                    "addresses with no account here (%(most)s). Seat friends once they have "
                    "signed in here, or house bots or open seats, or invite them after %(when)s."
                ),
                code="too-many-invitations-sent",
                most=most,
                when=later(moment_text, _day_end(moment)),
                retry_after=_wait(moment),
            )
        each, key = _cap("PBEM_INVITATIONS_PER_ADDRESS_PER_DAY"), mailbox(email)
        if not limits.take(connection, f"invitations:address:{key}", each, DAY, moment):
            raise TooMany(
                N_(
                    "%(email)s (the %(colour)s seat) has had as many invitations today as an "
                    "address with no account here may get (%(most)s), whoever sent them: invite "
                    "it after %(when)s, or ask its owner to sign in here first."
                ),
                code="too-many-invitations-received",
                email=email,
                colour=later(colour_name, colour),
                most=each,
                when=later(moment_text, _day_end(moment)),
                retry_after=_wait(moment),
            )


def _cap(name: str) -> int:
    return int(current_app.config[name])


def _day_end(moment: datetime) -> datetime:
    """When the cap's window (a day, aligned to midnight UTC as `limits` aligns it) ends."""
    seconds = int(DAY.total_seconds())
    return datetime.fromtimestamp((int(moment.timestamp()) // seconds + 1) * seconds, moment.tzinfo)


def _wait(moment: datetime) -> int:
    return max(1, int((_day_end(moment) - moment).total_seconds()))


def never_invite(email: str) -> None:
    """`email`, and every address of its mailbox, is never invited again, by anyone (a
    repeat changes nothing)."""
    suppressed.suppress(db.session.connection(), email, now())


def is_suppressed(email: str) -> bool:
    """Whether `email` asked never to be invited, or another address of its mailbox did."""
    return bool(suppressed.among(db.session.connection(), [email]))
