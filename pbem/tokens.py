"""Signed tokens: every link that carries a signed credential or promise, made and read in
one place under the app's SECRET_KEY, each kind with its own salt so that one kind can
never be read as another.

| kind | signs | where it travels |
| --- | --- | --- |
| seat link | (game, colour, player), timed | `/games/<id>/sign-in/<token>` in every seat's mail |
| claim | (player, one-time nonce) | an invited player's first mail: a link to claim a key |
| unsubscribe | (player, game) | `List-Unsubscribe` and the link in every game mail |
| decline | (game, colour, player) | an invitation's "decline the seat" link |
| accept | (game, colour, player) | an invitation to a forming game: "accept the seat" |
| sign-in | (link id, one-time nonce) | `/sign-in/link/<token>`, mailed from `/sign-in` |
| never invite | (address,) | every invitation: "never invite me again" (`/never-invite/<token>`) |
| calendar | (a player's random seed) | `/calendar/<token>.ics`, shown on `/me` and by the API |

Reading a token gives its values, or None when it is forged, altered or not of that kind;
the caller says what to do next. Only the seat link expires (PBEM_SEAT_LINK_MAX_AGE); a
sign-in link's row says when it was made and whether it was used.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer

#: Keeps seat-link signatures apart from anything else signed with the same SECRET_KEY.
SEAT_LINK_SALT = "pbem.web.seat-link"
_CLAIM_SALT = "pbem-claim"
_UNSUBSCRIBE_SALT = "pbem-unsubscribe"
_DECLINE_SALT = "pbem-decline"
_SIGN_IN_SALT = "pbem-sign-in"
_ACCEPT_SALT = "pbem-accept"
_EMAIL_CHANGE_SALT = "pbem-email-change"
_NEVER_INVITE_SALT = "pbem-never-invite"
_CALENDAR_SALT = b"pbem-calendar"


class Expired(Exception):
    """A timed token that was good once and is too old now."""


def _signer(salt: str) -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=salt)


def _read(salt: str, token: str, size: int) -> list[Any] | None:
    try:
        values = _signer(salt).loads(token)
    except (BadSignature, ValueError, TypeError):
        return None
    return values if isinstance(values, list) and len(values) == size else None


def seat_link_token(game_id: int, colour: str, player_id: int) -> str:
    timed = URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=SEAT_LINK_SALT)
    return timed.dumps([game_id, colour, player_id])


def read_seat_link_token(token: str) -> list[Any] | None:
    """[game, colour, player] of a seat link signed by us; raises Expired for one too old."""
    timed = URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=SEAT_LINK_SALT)
    try:
        values = timed.loads(token, max_age=current_app.config["PBEM_SEAT_LINK_MAX_AGE"])
    except SignatureExpired:
        raise Expired from None
    except (BadSignature, ValueError, TypeError):
        return None
    return values if isinstance(values, list) and len(values) == 3 else None


def claim_token(player_id: int, nonce: str) -> str:
    return _signer(_CLAIM_SALT).dumps([player_id, nonce])


def read_claim_token(token: str) -> tuple[int, str] | None:
    values = _read(_CLAIM_SALT, token, 2)
    if values is None or not isinstance(values[0], int) or not isinstance(values[1], str):
        return None
    return values[0], values[1]


def unsubscribe_token(player_id: int, game_id: int) -> str:
    return _signer(_UNSUBSCRIBE_SALT).dumps([player_id, game_id])


def read_unsubscribe_token(token: str) -> tuple[int, int] | None:
    values = _read(_UNSUBSCRIBE_SALT, token, 2)
    try:
        return (int(values[0]), int(values[1])) if values is not None else None
    except (TypeError, ValueError):
        return None


def decline_token(game_id: int, colour: str, player_id: int) -> str:
    return _signer(_DECLINE_SALT).dumps([game_id, colour, player_id])


def accept_token(game_id: int, colour: str, player_id: int) -> str:
    return _signer(_ACCEPT_SALT).dumps([game_id, colour, player_id])


def read_accept_token(token: str) -> tuple[int, str, int] | None:
    return _seat_values(_read(_ACCEPT_SALT, token, 3))


def read_decline_token(token: str) -> tuple[int, str, int] | None:
    return _seat_values(_read(_DECLINE_SALT, token, 3))


def _seat_values(values: list[Any] | None) -> tuple[int, str, int] | None:
    """(game, colour, player) of a seat's token, or None for one of another shape."""
    try:
        return (int(values[0]), str(values[1]), int(values[2])) if values is not None else None
    except (TypeError, ValueError):
        return None


def sign_in_token(link_id: int, nonce: str) -> str:
    return _signer(_SIGN_IN_SALT).dumps([link_id, nonce])


def read_sign_in_token(token: str) -> list[Any] | None:
    """[link id, nonce] of a sign-in link signed by us. How long it is good, and whether it
    was used, its row says (by the service's clock)."""
    return _read(_SIGN_IN_SALT, token, 2)


def email_change_token(
    player_id: int, old_email: str, new_email: str, issued_at: int, version: int
) -> str:
    """A link mailed to `new_email` that makes it the player's address; `issued_at` (seconds,
    by the service's clock) dates it, and `version` (the player's `email_version` when it was
    mailed) spends it once the address changes, even back to `old_email`."""
    values = [player_id, old_email, new_email, issued_at, version]
    return _signer(_EMAIL_CHANGE_SALT).dumps(values)


def read_email_change_token(token: str) -> tuple[int, str, str, int, int] | None:
    values = _read(_EMAIL_CHANGE_SALT, token, 5)
    if values is None:
        return None
    player_id, old_email, new_email, issued_at, version = values
    if not all(isinstance(number, int) for number in (player_id, issued_at, version)):
        return None
    if not (isinstance(old_email, str) and isinstance(new_email, str)):
        return None
    return player_id, old_email, new_email, issued_at, version


def never_invite_token(email: str) -> str:
    """The link in an invitation that asks never to be invited again: it names the address
    only, so it keeps working whoever invited it and after the game is gone."""
    return _signer(_NEVER_INVITE_SALT).dumps([email])


def read_never_invite_token(token: str) -> str | None:
    values = _read(_NEVER_INVITE_SALT, token, 1)
    return values[0] if values is not None and isinstance(values[0], str) else None


def calendar_token(seed: str) -> str:
    """A player's calendar token: an HMAC of their random seed (`secrets.token_urlsafe(24)`,
    192 bits) under the SECRET_KEY, 43 URL-safe characters. Derived rather than kept, so the
    page shows the link again while the table holds only the seed and the token's hash; a
    new seed (a new link) is the old token's end."""
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    digest = hmac.new(key, _CALENDAR_SALT + b"\0" + seed.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
