"""API keys: made, hashed, and checked from the `Authorization: Bearer` header."""

from __future__ import annotations

import hashlib
import secrets

from flask import g, request

from pbem.errors import Unauthorized
from pbem.extensions import db
from pbem.models import Player

KEY_PREFIX = "pbem_"


def new_api_key() -> tuple[str, str]:
    """A fresh key and its hash; the key itself is never stored."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    return key, hash_api_key(key)


def hash_api_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def api_key_hash(required: bool = True) -> str | None:
    """The hash of the key sent as `Authorization: Bearer <key>`, or None without a header.

    Nothing is looked up here: the move routes find the player together with the game and
    seat in one query, and call `unknown_key()` when no player holds the hash. A header of
    the wrong form is always 401, and no header is 401 when `required`.
    """
    header = request.headers.get("Authorization")
    if header is None:
        if required:
            raise key_needed()
        return None
    scheme, _, key = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise Unauthorized(
            "Send your API key as `Authorization: Bearer <key>`; the header given "
            "does not have that form."
        )
    return hash_api_key(key.strip())


def key_needed() -> Unauthorized:
    return Unauthorized(
        "This request needs your API key as `Authorization: Bearer <key>`; "
        "register with POST /api/players to get one."
    )


def unknown_key() -> Unauthorized:
    return Unauthorized("This API key is not known; check it, or register with POST /api/players.")


def current_player(required: bool = True) -> Player | None:
    """The player whose key came with the request.

    No header: None, or 401 when `required`. A header with a wrong key is always 401, so a
    client with a typo in its key learns so instead of silently getting the public view.
    """
    if "player" in g:
        player = g.player
    else:
        key_hash = api_key_hash(required=False)
        player = None
        if key_hash is not None:
            player = db.session.execute(
                db.select(Player).where(Player.api_key_hash == key_hash)
            ).scalar_one_or_none()
            if player is None:
                raise unknown_key()
        g.player = player
    if player is None and required:
        raise key_needed()
    return player
