"""Mail identities: the signed reply address of a seat, Message-IDs that thread a seat's
mails of a game together, and the List-Id. (The links' signed tokens are `pbem.tokens`.)

The reply address carries an HMAC of the game and colour under SECRET_KEY, in lowercase
base32, because mail clients and servers lowercase addresses: a reply to it can act for
that seat only, and a forged or altered address is refused.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from email.utils import parseaddr
from functools import lru_cache

from flask import current_app

SIGNATURE_LENGTH = 16
_SEAT_ADDRESS = re.compile(
    r"^(?P<local>[^+@]+)\+g(?P<game>\d+)-(?P<colour>[a-z]+)-(?P<sig>[a-z2-7]+)$"
)


def sender_address() -> str:
    """MAIL_FROM's bare address, e.g. elgrande@example.org."""
    return _bare_address(current_app.config["MAIL_FROM"])


@lru_cache(maxsize=16)
def _bare_address(mail_from: str) -> str:
    # The full RFC 5322 parser, a few times in every mail composed: kept per setting.
    return parseaddr(mail_from)[1]


def mail_domain() -> str:
    return sender_address().rpartition("@")[2] or "localhost"


def _signature(game_id: int, colour: str) -> str:
    digest = hmac.new(
        current_app.config["SECRET_KEY"].encode(),
        f"seat:{game_id}:{colour}".encode(),
        hashlib.sha256,
    ).digest()
    return base64.b32encode(digest).decode().lower()[:SIGNATURE_LENGTH]


def seat_address(game_id: int, colour: str) -> str:
    """The address replies for `colour` in game `game_id` go to."""
    local, _, domain = sender_address().partition("@")
    return f"{local}+g{game_id}-{colour}-{_signature(game_id, colour)}@{domain}"


def read_seat_address(address: str) -> tuple[int, str] | None:
    """(game id, colour) of a correctly signed seat address, in any case; else None."""
    local, _, domain = address.strip().lower().partition("@")
    match = _SEAT_ADDRESS.match(local)
    if match is None or domain != mail_domain().lower():
        return None
    game_id, colour = int(match["game"]), match["colour"]
    if not hmac.compare_digest(match["sig"], _signature(game_id, colour)):
        return None
    return game_id, colour


def thread_root(game_id: int, colour: str) -> str:
    """The Message-ID a seat's first mail of a game has; every later one refers to it."""
    return f"<g{game_id}.{colour}.start@{mail_domain()}>"


def message_id(game_id: int | None, colour: str | None, seq: int | None) -> str:
    """A new Message-ID naming the game, seat and the seq of the decision it asks for (so a
    reply's In-Reply-To says which decision it answers); a mail of no game (a key, a sign-in
    link, an invitation) is named as such, never "gNone"."""
    if game_id is None:
        return f"<mail.{secrets.token_hex(8)}@{mail_domain()}>"
    parts = [f"g{game_id}", colour or "all", f"s{seq}" if seq is not None else "x"]
    return f"<{'.'.join(parts)}.{secrets.token_hex(6)}@{mail_domain()}>"


def read_message_id(value: str) -> tuple[int, str, int] | None:
    """(game id, colour, seq) from one of our Message-IDs, if it names a decision."""
    match = re.match(r"^<g(\d+)\.([a-z]+)\.s(\d+)\.[0-9a-f]+@", value.strip().lower())
    return (int(match[1]), match[2], int(match[3])) if match else None


def list_id(game_id: int) -> str:
    return f"El Grande game {game_id} <game-{game_id}.{mail_domain()}>"
