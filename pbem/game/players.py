"""Players: people with an email address and a secret API key (stored only as a hash).

Nothing here commits: the door that called it does."""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pbem import tokens
from pbem.addresses import kept_address
from pbem.clock import now
from pbem.errors import Conflict, Invalid, Unauthorized
from pbem.extensions import db
from pbem.languages import N_
from pbem.store import queries
from pbem.store.models import BOT_DOMAIN as BOT_DOMAIN  # the house bots' (kept with the tables)
from pbem.store.models import Player
from pbem.texts import kept_text

KEY_PREFIX = "pbem_"


def new_api_key() -> tuple[str, str]:
    """A fresh key and its hash; the key itself is never stored."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    return key, hash_api_key(key)


def hash_api_key(key: str) -> str:
    # The key is 256 random bits, so a fast hash is enough and lets a player be found by an
    # indexed lookup. surrogatepass: a header can carry anything; it must hash, not crash.
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


#: A house bot's mail preferences: it reads no mail, so none is queued for it.
NO_MAIL = {
    "mail": {
        "decision": False,
        "every_move": False,
        "scoring": False,
        "game_over": False,
        "table_talk": False,
    }
}


def normal_email(email: str) -> str:
    return email.strip().lower()


def is_unreachable(email: str) -> bool:
    """An address no mail reaches: a house bot's, or any other on `.invalid`."""
    return normal_email(email).endswith(".invalid")


def newcomer(email: str, name: str | None = None) -> Player:
    """The player for an email with no player yet: the house bot a bot address names (the
    one place a bot's address is taken, before any address check), else an invited player
    (`invite`, by `name` if given). Any other address on `.invalid` is refused."""
    number = house_bot_number(email)
    if number is not None:
        return house_bot(number)
    if is_unreachable(email):
        raise Invalid(
            N_("%(email)s cannot receive mail: a seat needs a person's address."),
            code="seat-needs-person",
            email=email,
        )
    return invite(email, name)


def house_bot_number(email: str) -> int | None:
    """N for a house bot's address `bot-N@bots.invalid`, else None."""
    bot = re.fullmatch(rf"bot-(\d{{1,3}})@{re.escape(BOT_DOMAIN)}", normal_email(email))
    return int(bot.group(1)) if bot else None


def house_bot(number: int) -> Player:
    """House bot `number` (a player with no key and no mail), made on first use."""
    email = f"bot-{number}@{BOT_DOMAIN}"
    bot = db.session.execute(db.select(Player).where(Player.email == email)).scalar_one_or_none()
    if bot is None:
        bot = Player(email=email, name=f"Bot {number}", api_key_hash=None, preferences=NO_MAIL)
        db.session.add(bot)
        db.session.flush()
    return bot


def add_player(email: str, name: str) -> tuple[Player, str]:
    """A player the operator vouches for (`pbem players add`, the demo): proved at once, with
    an API key (returned once, stored only as a hash). People prove their own address by a
    mailed link instead (`play.accounts`). An address invited to a game but never claimed
    becomes this player; one that has a key already is refused."""
    name = kept_text(name, "name")
    email = normal_email(email)
    if is_unreachable(email):
        # Also what keeps anyone from claiming a house bot's account by registering as it.
        raise Invalid(
            N_(
                "%(email)s cannot receive mail (.invalid is reserved, and bots.invalid holds the "
                "house bots): register with an address you read."
            ),
            code="register-address-reserved",
            email=email,
        )
    email = kept_address(email)
    player = db.session.execute(
        db.select(Player).where(Player.email == email).with_for_update()
    ).scalar_one_or_none()
    if player is not None and player.api_key_hash is not None:
        raise Conflict(N_("%(email)s plays here already."), code="already-registered", email=email)
    if player is None:
        player = Player(email=email, preferences={})
        db.session.add(player)
    key, player.api_key_hash = new_api_key()
    player.name = name[:100]
    player.email_proved_at = now()
    player.preferences = {k: v for k, v in (player.preferences or {}).items() if k != "claim_nonce"}
    try:
        with db.session.begin_nested():
            db.session.flush()
    except IntegrityError:
        raise Conflict(
            N_("%(email)s plays here already."), code="already-registered", email=email
        ) from None
    return player, key


def calendar_token_of(player: Player) -> str | None:
    """The token of the player's calendar link, or None if they have none that works (never
    made, or made under another SECRET_KEY: its hash no longer matches)."""
    if player.calendar_seed is None:
        return None
    token = tokens.calendar_token(player.calendar_seed)
    return token if hash_api_key(token) == player.calendar_token_hash else None


def player_by_calendar_token(token: str) -> Player | None:
    """Whose calendar link `token` is (None: unknown, or replaced by a newer link): found by
    the token's hash, as a key is."""
    return db.session.execute(
        db.select(Player).where(Player.calendar_token_hash == hash_api_key(token))
    ).scalar_one_or_none()


def player(player_id: int) -> Player:
    """The player numbered `player_id`, who exists (a signed-in reader, a link's holder)."""
    return db.session.get_one(Player, player_id)


def find_player(player_id: int) -> Player | None:
    """The player numbered `player_id`, or None if there is none (any more)."""
    return db.session.get(Player, player_id)


def epoch_and_preferences(player_id: int) -> tuple[int, dict[str, Any] | None]:
    """What a new page session of the player starts from: the epoch their sessions are at
    (signing out everywhere raises it) and their preferences (the language they chose)."""
    epoch, chosen = db.session.execute(
        select(Player.session_epoch, Player.preferences).where(Player.id == player_id)
    ).one()
    return epoch, chosen


def session_player(reader: queries.ReaderParams) -> tuple[int, str] | None:
    """The id and name of the player a page session names (`reader`: the player, their
    epoch and the session's id), if they exist, are still at that epoch, and the session
    was not signed out; else None. One query."""
    connection = db.session.connection()
    row = connection.execute(queries.SELECT_PLAYER_NAME, reader).first()
    return (row.id, row.name) if row is not None else None


def player_by_key_hash(key_hash: str) -> Player | None:
    return db.session.execute(
        db.select(Player).where(Player.api_key_hash == key_hash)
    ).scalar_one_or_none()


def unknown_key() -> Unauthorized:
    return Unauthorized(
        N_("This API key is not known; check it, or register with POST /api/players."),
        code="unknown-api-key",
    )


def invite(email: str, name: str | None = None) -> Player:
    """A player for an email that has no account yet: no key until they claim one with the
    link in their first mail (a one-time nonce, kept until then). Named `name` (given by
    whoever invited them; they may choose another) or else by their address's first part.
    The caller looks the address up first, in the form `kept_address` gives."""
    email = kept_address(email)
    local = email.partition("@")[0]
    player = Player(
        email=email,
        name=((name or "").strip() or local)[:100],
        api_key_hash=None,
        preferences={"claim_nonce": secrets.token_urlsafe(16)},
    )
    db.session.add(player)
    db.session.flush()
    return player


def claim_token(player: Player) -> str | None:
    nonce = (player.preferences or {}).get("claim_nonce")
    return tokens.claim_token(player.id, nonce) if nonce else None
