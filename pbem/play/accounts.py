"""Account changes: a new API key, mailed, claimed by an invitation's link, or made on the
player's own page; a private calendar link of their deadlines, made or made anew; a one-time
sign-in link, mailed to an address, which signs its holder in (and makes a player on first
use); a new address, confirmed by a link mailed to it; a new name. And page sessions ended:
one signed out, or every one at once."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError

from pbem import tokens
from pbem.addresses import kept_address, mailbox
from pbem.clock import now
from pbem.errors import Conflict, Forbidden, Invalid, NotFound, TooMany
from pbem.extensions import db
from pbem.game.players import (
    calendar_token_of,
    hash_api_key,
    is_unreachable,
    new_api_key,
    normal_email,
)
from pbem.languages import N_
from pbem.notify import account_mails, compose
from pbem.play import moderation, unit
from pbem.store import limits, queries, suppressed, tables
from pbem.store.counters import STANDINGS, raise_counter
from pbem.store.models import Player, SignInLink
from pbem.texts import kept_text

#: New keys mailed to one player per hour, at most: a loop or a prankster stops there.
KEY_MAILS_PER_HOUR = 3
#: A sign-in link works once, within this many minutes of being mailed.
SIGN_IN_LINK_MINUTES = 30
#: Sign-in links mailed to one mailbox an hour (`pbem.addresses.mailbox`: its sub-addresses
#: are one person, else each would be an account more for free), at most (past it: silently
#: none, as for an unknown address, so the answer says nothing of who plays here).
SIGN_IN_LINKS_PER_ADDRESS = 3
#: Sign-in links one client (network address) may ask for an hour, at most (past it: 429).
SIGN_IN_LINKS_PER_CLIENT = 10
HOUR = timedelta(hours=1)


def reset_key_by_mail(email: str) -> None:
    """A new key for the player registered as `email`, sent through the outbox; nothing for
    an unknown email, and nothing past the hourly limit (the caller's answer is the same).
    An address that is none is refused (Invalid): that says nothing of who plays here."""
    player = _player(kept_address(email))
    if player is None or is_unreachable(player.email) or moderation.refusal(player):
        return
    if not _within_limit("key-mail:player", str(player.id), KEY_MAILS_PER_HOUR):
        return
    key, player.api_key_hash = new_api_key()
    account_mails.queue_key_mail(db.session.connection(), player, key)


def _player(email: str) -> Player | None:
    query = db.select(Player).where(Player.email == normal_email(email))
    return db.session.execute(query).scalar_one_or_none()


def _within_limit(what: str, value: str, limit: int) -> bool:
    """One more use of `what` by `value` this hour, counted and checked in one statement."""
    return limits.take(db.session.connection(), f"{what}:{value}", limit, HOUR, now())


def _nonce_hash(nonce: str) -> str:
    return hashlib.sha256(nonce.encode()).hexdigest()


def mail_sign_in_link(
    email: str,
    client: str,
    next_path: str | None,
    link_for: Callable[[str], str],
    name: str | None = None,
) -> None:
    """Mail `email` a one-time sign-in link (`link_for(token)`: its URL); the caller
    commits. The same for a known address and an unknown one (whose link makes a player),
    and nothing past the address's hourly limit; a client past its own limit is refused,
    and so is an address mail cannot reach (Invalid), before anything is kept.
    With `name`, the link registers: asked for by `POST /api/players`, it makes the player
    so named (or signs in a known one) and shows a new API key once."""
    email = kept_address(email)
    if name is not None:
        name = kept_text(name, "name")  # kept in the link until it is spent: checked now
    if not _within_limit("mail-link:client", client, SIGN_IN_LINKS_PER_CLIENT):
        raise TooMany(
            N_(
                "Too many sign-in links were asked for from here in the last hour; try again "
                "later, or sign in with your API key."
            ),
            code="too-many-sign-in-links",
            retry_after=3600,
        )
    purpose = "sign_in" if name is None else "register"
    if not _within_limit("mail-link:address", mailbox(email), SIGN_IN_LINKS_PER_ADDRESS):
        # Kept all the same (spent): the answer and the work are those of a mailed link.
        _keep_link(email, client, next_path, used=True, purpose=purpose, name=name)
        return
    link, nonce = _keep_link(email, client, next_path, used=False, purpose=purpose, name=name)
    token = tokens.sign_in_token(link.id, nonce)
    account_mails.queue_sign_in_mail(
        db.session.connection(),
        email,
        _player(email),
        link_for(token),
        SIGN_IN_LINK_MINUTES,
        registering=name is not None,
    )


def sign_in_url(token: str) -> str:
    """A sign-in link's address, for a door that has no page of its own (the API); the pages
    build theirs with the same path (`web.sign_in_link`)."""
    return f"{compose.base_url()}/sign-in/link/{token}"


def _keep_link(
    email: str, client: str, next_path: str | None, used: bool, purpose: str, name: str | None
) -> tuple[SignInLink, str]:
    nonce = secrets.token_urlsafe(24)
    moment = now()
    link = SignInLink(
        email=email,
        nonce_hash=_nonce_hash(nonce),
        client=client[:64],
        next_path=next_path,
        created_at=moment,
        used_at=moment if used else None,
        purpose=purpose,
        name=(name or "").strip()[:100] or None,
    )
    db.session.add(link)
    db.session.flush()
    return link, nonce


@dataclass(frozen=True)
class SignInOffer:
    """A good sign-in link, read: whose address, the player if there is one yet (None: the
    link makes one), whether they must still choose a name (`name`: the one asked for, if
    any), where to go after, and whether following it shows a new API key (`registers`)."""

    email: str
    player: Player | None
    needs_name: bool
    next_path: str | None
    name: str | None = None
    registers: bool = False


def read_sign_in_link(token: str) -> SignInOffer:
    """What a sign-in link offers, checked (signed by us, not used, not too old); reading
    spends nothing (mail scanners follow links). Raises Forbidden with what to do."""
    return _offer(_good_link(token))


def _offer(link: SignInLink) -> SignInOffer:
    player = _player(link.email)
    # An invited address has a player but no key yet: it chooses its name on first use.
    needs_name = player is None or player.api_key_hash is None
    registers = link.purpose == "register"
    return SignInOffer(link.email, player, needs_name, link.next_path, link.name, registers)


def _good_link(token: str) -> SignInLink:
    values = tokens.read_sign_in_token(token) or [None, None]
    link_id, nonce = values
    link = db.session.get(SignInLink, link_id) if isinstance(link_id, int) else None
    if link is None or not hmac.compare_digest(link.nonce_hash, _nonce_hash(str(nonce))):
        raise Forbidden(
            N_(
                "This sign-in link is not valid (perhaps cut short when it was copied); ask for "
                "a new one at /sign-in."
            ),
            code="sign-in-link-not-valid",
        )
    if link.used_at is not None:
        raise _used_already()
    if now() - link.created_at > timedelta(minutes=SIGN_IN_LINK_MINUTES):
        raise Forbidden(
            N_(
                "This sign-in link has expired (each works for %(minutes)s minutes); "
                "ask for a new one."
            ),
            code="sign-in-link-expired",
            minutes=SIGN_IN_LINK_MINUTES,
        )
    return link


def _used_already() -> Forbidden:
    return Forbidden(
        N_("This sign-in link was used already: each works once. Ask for a new one."),
        code="sign-in-link-used",
    )


@dataclass(frozen=True)
class SignedIn:
    """A sign-in link spent: whose, where to go next, and the new API key a registration
    link shows once (None for a plain sign-in)."""

    player_id: int
    next_path: str | None
    api_key: str | None


def spend_sign_in_link(token: str, name: str | None) -> SignedIn:
    """Spend a good sign-in link: the player (made now, on first use, with `name`), proved
    to hold the address; the link then works no more. Of links followed at once, one wins
    (the others: Forbidden). The caller commits."""
    link = _good_link(token)
    offer = _offer(link)
    if offer.player is not None:
        moderation.refuse_kept_away(offer.player)  # the link stays good for after
    if offer.needs_name:
        name = kept_text(name or offer.name or "", "name")
        if not name or len(name) > 100:
            raise Invalid(
                N_("Choose the name the other players will see: 1 to 100 characters."),
                code="name-length",
            )
    # The spend is one conditional update: of N requests with this link, one changes the row.
    spent = db.session.connection().execute(
        update(tables.sign_in_links)
        .where(tables.sign_in_links.c.id == link.id, tables.sign_in_links.c.used_at.is_(None))
        .values(used_at=now())
    )
    if spent.rowcount != 1:
        raise _used_already()
    player = offer.player or _new_player(link.email)
    if offer.needs_name:
        player.name = name or ""
        player.preferences = {
            k: v for k, v in (player.preferences or {}).items() if k != "claim_nonce"
        }
    key = None
    if offer.needs_name or offer.registers or player.email_proved_at is None:
        # A first sign-in, a registration, or an address never proved before (an account made
        # by an unproved registration): a new key, so that no key handed out before the
        # address was proved works on.
        key, player.api_key_hash = new_api_key()
    player.email_proved_at = player.email_proved_at or now()
    # Its holder showed the address is theirs: whoever asked never to be invited, they may be.
    suppressed.lift(db.session.connection(), link.email)
    db.session.flush()
    return SignedIn(player.id, link.next_path, key if offer.registers else None)


def _new_player(email: str) -> Player:
    """A player for an address that has none, made inside a savepoint: two links for one new
    address spent at once make one player, and the other request gets Conflict."""
    player = Player(email=email, name="", api_key_hash=None, preferences={})
    try:
        with db.session.begin_nested():
            db.session.add(player)
            db.session.flush()
    except IntegrityError:
        raise Conflict(
            N_(
                "%(email)s was made a player by another link at the same moment; sign in "
                "again with a new link."
            ),
            code="registered-meanwhile",
            email=email,
        ) from None
    return player


#: A link to change one's address works within this many hours.
EMAIL_CHANGE_HOURS = 24
#: Address-change links one player may have mailed an hour, at most.
EMAIL_CHANGES_PER_HOUR = 3


def mail_email_change(player: Player, new_email: str, link_for: Callable[[str], str]) -> str:
    """Mail `new_email` a link that makes it the player's address (`link_for(token)`: its
    URL); the address changes only when the link is followed, so a typo costs nothing. The
    caller commits. The normalised address, for the answer."""
    new_email = normal_email(new_email)
    if is_unreachable(new_email):
        raise Invalid(
            N_("No mail reaches %(email)s (.invalid addresses are for house bots)."),
            code="new-address-reserved",
            email=new_email,
        )
    new_email = kept_address(new_email)
    if new_email == player.email:
        raise Invalid(
            N_("%(email)s is your address already."), code="address-unchanged", email=new_email
        )
    if not _within_limit("email-change:player", str(player.id), EMAIL_CHANGES_PER_HOUR):
        raise TooMany(
            N_(
                "Three address-change links were mailed in the last hour; follow one of them, "
                "or try again later."
            ),
            code="too-many-address-changes",
            retry_after=3600,
        )
    issued = int(now().timestamp())
    version = player.email_version or 0
    token = tokens.email_change_token(player.id, player.email, new_email, issued, version)
    connection = db.session.connection()
    account_mails.queue_email_change_mails(
        connection, player, new_email, link_for(token), EMAIL_CHANGE_HOURS
    )
    return new_email


#: An address-change link refused because the address changed since it was mailed.
_SUPERSEDED = N_("Your address has changed since this link was mailed; it works no more.")


@dataclass(frozen=True)
class EmailChange:
    """A good address-change link, read: whose, from which address to which."""

    player: Player
    old_email: str
    new_email: str
    version: int  # the player's email_version it was mailed at


def read_email_change(token: str) -> EmailChange:
    """What an address-change link would do, checked (ours, not too old, not spent: the
    player's address is still the one it changes); reading changes nothing (mail scanners
    follow links). Raises Forbidden with what to do."""
    values = tokens.read_email_change_token(token)
    player = db.session.get(Player, values[0]) if values is not None else None
    if values is None or player is None:
        raise Forbidden(
            N_(
                "This link is not valid (perhaps cut short when it was copied); ask for a new "
                "one on your page, /me."
            ),
            code="address-link-not-valid",
        )
    _kind, old_email, new_email, issued, version = values
    if player.email == new_email:
        raise Forbidden(
            N_("%(email)s is your address already: this link has done its work."),
            code="address-link-done",
            email=new_email,
        )
    # Any change of address since (this link's or another's, even back to the old one)
    # raised the version: a link is good once, for the address it was mailed for.
    if player.email != old_email or version != (player.email_version or 0):
        raise Forbidden(_SUPERSEDED, code="address-link-superseded")
    if now().timestamp() - issued > EMAIL_CHANGE_HOURS * 3600:
        raise Forbidden(
            N_(
                "This link has expired (each works for %(hours)s hours); ask for a new "
                "one on your page, /me."
            ),
            code="address-link-expired",
            hours=EMAIL_CHANGE_HOURS,
        )
    return EmailChange(player, old_email, new_email, version)


def change_email(token: str) -> EmailChange:
    """Follow a good address-change link: the player's address becomes the new one, and the
    old one is told. The caller commits."""
    change = read_email_change(token)
    taken = _player(change.new_email)
    if taken is not None:
        raise Invalid(
            N_(
                "%(email)s is already the address of another player here. Sign in with "
                "it to use that account instead."
            ),
            code="address-taken",
            email=change.new_email,
        )
    account_mails.queue_email_change_mails(
        db.session.connection(), change.player, change.new_email, None, EMAIL_CHANGE_HOURS
    )
    try:
        # Changed only while still at the link's version (of two links followed at once, one
        # changes it), and to an address no other player took meanwhile (the unique address
        # decides between two players confirming it at once).
        with db.session.begin_nested():
            changed = db.session.execute(
                update(Player)
                .where(Player.id == change.player.id, Player.email_version == change.version)
                .values(
                    email=change.new_email,
                    email_version=Player.email_version + 1,
                    email_proved_at=now(),
                )
            )
    except IntegrityError:
        raise Conflict(
            N_(
                "%(email)s became the address of another player at the same moment; it "
                "cannot be yours too."
            ),
            code="address-taken-meanwhile",
            email=change.new_email,
        ) from None
    if queries.changed(changed) != 1:
        raise Forbidden(_SUPERSEDED, code="address-link-superseded")
    db.session.flush()
    return change


def sign_out_everywhere(player: Player) -> None:
    """End every page session the player has signed in (on any device); the caller commits
    and signs this one out. API keys are not sessions: a new key ends the old one."""
    player.session_epoch = (player.session_epoch or 0) + 1


def end_session(sid: str, lifetime: timedelta, *, for_good: bool = False) -> None:
    """Keep page session `sid` as ended (a copy of its cookie is refused from now on), and
    forget sessions ended longer ago than a cookie lives: those cookies are refused anyway.
    With the request's unit of work; `for_good`: committed now, whatever the request does
    next (a link followed as another player goes on to do what it does, which may fail)."""
    _ended(sid, lifetime)
    if for_good:
        unit.commit()


def _ended(sid: str, lifetime: timedelta) -> None:
    connection = db.session.connection()
    moment = now()
    connection.execute(
        delete(tables.ended_sessions).where(tables.ended_sessions.c.ended_at < moment - lifetime)
    )
    # Signing out twice (a copied cookie, or two tabs at once) keeps the first row.
    ended_now = queries.insert_or_else(connection, tables.ended_sessions).values(
        sid=sid, ended_at=moment
    )
    connection.execute(ended_now.on_conflict_do_nothing())


def make_new_key(player: Player) -> str:
    """A new API key for the player, shown once by the caller (which commits): the old key
    works no more."""
    key, player.api_key_hash = new_api_key()
    return key


def calendar_url(token: str) -> str:
    """A calendar link's address (`web.calendar_feed`'s path), absolute: a calendar program
    fetches it from elsewhere, and the API has no page to build it from."""
    return f"{compose.base_url()}/calendar/{token}.ics"


def new_calendar_link(player: Player) -> str:
    """A new calendar link for the player (its address); the caller commits. The old link
    answers 404 from then on: its token's hash is no longer kept."""
    player.calendar_seed = secrets.token_urlsafe(24)
    token = tokens.calendar_token(player.calendar_seed)
    player.calendar_token_hash = hash_api_key(token)
    return calendar_url(token)


def calendar_link(player: Player) -> str:
    """The player's calendar link, made if they have none that works; the caller commits."""
    token = calendar_token_of(player)
    return calendar_url(token) if token is not None else new_calendar_link(player)


def rename(player: Player, name: str) -> str:
    """The player's name becomes `name` (trimmed), what the other players see; the caller
    commits. The name kept."""
    name = kept_text(name, "name")
    if not 1 <= len(name) <= 100:
        raise Invalid(
            N_("Your name is what the other players see: 1 to 100 characters."),
            code="new-name-length",
        )
    player.name = name
    # The standings show names: those kept drawn on every node are drawn anew.
    raise_counter(db.session.connection(), STANDINGS)
    return name


def claim_link_player(token: str) -> int | None:
    """The player a claim link would make a key for, while it is unspent (None: not ours,
    or used already); reading spends nothing (mail scanners follow links)."""
    claimed = tokens.read_claim_token(token)
    player = db.session.get(Player, claimed[0]) if claimed is not None else None
    if claimed is None or player is None or not claimed[1]:
        return None
    return player.id if (player.preferences or {}).get("claim_nonce") == claimed[1] else None


def claim_key(token: str) -> tuple[Player, str]:
    """Spend a claim link: the player gets a key, shown once; the link then stops working.
    The caller commits."""
    claimed = tokens.read_claim_token(token)
    if claimed is None:
        raise NotFound(N_("This link is not valid."), code="claim-link-not-valid")
    player_id, nonce = claimed
    # Locked: of two claims of one link at once, the second reads the nonce already spent.
    player = db.session.get(Player, player_id, with_for_update=True, populate_existing=True)
    if player is None or not nonce or (player.preferences or {}).get("claim_nonce") != nonce:
        raise Conflict(
            N_(
                "This link was used already: each works once. Ask for a new key with POST "
                "/api/players/key-reset."
            ),
            code="claim-link-used",
        )
    moderation.refuse_kept_away(player)
    key, player.api_key_hash = new_api_key()
    player.preferences = {k: v for k, v in (player.preferences or {}).items() if k != "claim_nonce"}
    # The claim link was mailed to the address: following it proves it.
    player.email_proved_at = player.email_proved_at or now()
    return player, key
