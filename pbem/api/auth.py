"""The API's door: who is asking, from the `Authorization: Bearer <key>` header."""

from __future__ import annotations

from typing import Literal, overload

from flask import g, request

from pbem.errors import Unauthorized
from pbem.game.players import hash_api_key, player_by_key_hash, unknown_key
from pbem.languages import _
from pbem.store.models import Player

#: The OpenAPI security requirement of endpoints that need a key, and of those where a key
#: is optional (the empty requirement means "no key is fine too").
KEY_REQUIRED: list[dict[str, list[str]]] = [{"bearerAuth": []}]
KEY_OPTIONAL: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]


@overload
def api_key_hash(required: Literal[True] = True) -> str: ...
@overload
def api_key_hash(required: bool) -> str | None: ...


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
    scheme, _space, key = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise Unauthorized(
            _(
                "Send your API key as `Authorization: Bearer <key>`; the header given "
                "does not have that form."
            )
        )
    return hash_api_key(key.strip())


def key_needed() -> Unauthorized:
    return Unauthorized(
        _(
            "This request needs your API key as `Authorization: Bearer <key>`; "
            "register with POST /api/players to get one."
        )
    )


@overload
def current_player(required: Literal[True] = True) -> Player: ...
@overload
def current_player(required: bool) -> Player | None: ...


def current_player(required: bool = True) -> Player | None:
    """The player whose key came with the request.

    No header: None, or 401 when `required`. A header with a wrong key is always 401, so a
    client with a typo in its key learns so instead of silently getting the public view.
    """
    player: Player | None
    if "player" in g:
        player = g.player
    else:
        key_hash = api_key_hash(required=False)
        player = None
        if key_hash is not None:
            player = player_by_key_hash(key_hash)
            if player is None:
                raise unknown_key()
        g.player = player
    if player is None and required:
        raise key_needed()
    return player
