"""Signing in to the pages: a signed link per seat (sent in mails), or an API key pasted
into a form. Either way the session cookie then carries the player's id.

A seat link is `/games/<id>/sign-in/<token>`, the token an `itsdangerous` signature of
(game, colour, player) under the app's SECRET_KEY. It stays good for PBEM_SEAT_LINK_MAX_AGE
seconds, and only while that player still holds that seat: a seat given to someone else
(`PUT /api/games/{id}/seats/{colour}`) voids the old holder's links.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import current_app, session

from pbem import tokens
from pbem.errors import Forbidden
from pbem.game import players
from pbem.game.seating import Actor, seating
from pbem.languages import _, known
from pbem.notify.compose import base_url
from pbem.play import accounts, moderation
from pbem.store.queries import ReaderParams
from pbem.web.wording import colour_name

ENDPOINT = "web.seat_sign_in"
#: The session's key for its random id, kept as ended when it signs out.
SESSION_ID_KEY = "sid"
#: The session's key for the reader's language (`pbem.web.language`).
LANGUAGE_KEY = "lang"


@dataclass(frozen=True)
class SeatLink:
    game_id: int
    colour: str
    player_id: int


def read_seat_link_token(token: str, game_id: int) -> SeatLink:
    """The seat a token signs in to, checked: signed by us, not too old, for this game, and
    the player still holds the seat. Raises Forbidden with what to do otherwise."""
    try:
        data = tokens.read_seat_link_token(token)
    except tokens.Expired:
        raise Forbidden(
            _(
                "This sign-in link has expired; use the link in a newer mail, or sign in with "
                "your API key."
            )
        ) from None
    if data is None:
        raise Forbidden(
            _(
                "This sign-in link is not valid (perhaps cut short when it was copied); use the "
                "link from the mail again, or sign in with your API key."
            )
        )
    link_game, colour, player_id = data
    if link_game != game_id:
        raise Forbidden(
            _(
                "This sign-in link is for game %(link)s, not game %(id)s.",
                link=link_game,
                id=game_id,
            )
        )
    if colour not in seating(Actor.by_player(player_id), game_id, read_only=True).own:
        raise Forbidden(
            _(
                "This sign-in link was for the %(colour)s seat of game %(id)s, which you no "
                "longer hold.",
                colour=colour_name(colour),
                id=game_id,
            )
        )
    return SeatLink(game_id=game_id, colour=colour, player_id=player_id)


def seat_link(game_id: int, colour: str, player_id: int) -> str:
    """The absolute URL that signs `player_id` in to their `colour` seat of a game: for mails."""
    token = tokens.seat_link_token(game_id, colour, player_id)
    return absolute_link(ENDPOINT, game_id=game_id, token=token)


def absolute_link(endpoint: str, **values: Any) -> str:
    """An absolute URL for a mail, built on PBEM_BASE_URL (`compose.base_url`), never on the
    request's Host header: anyone may send any Host, and a link mailed to someone else would
    then lead them to the sender's site."""
    parts = urlsplit(base_url())
    adapter = current_app.url_map.bind(
        parts.netloc, script_name=parts.path or "/", url_scheme=parts.scheme or "https"
    )
    return adapter.build(endpoint, values, force_external=True)


def sign_in(player_id: int) -> None:
    """Start a fresh session for the player (nothing of an earlier session carries over),
    good until they sign out everywhere (which raises their epoch past this one's), or sign
    this session out (which ends its id: `end_session`). Refused (Forbidden) for a player
    suspended or banned, whichever link or key they came by."""
    player = players.find_player(player_id)
    if player is not None:
        moderation.refuse_kept_away(player)
    epoch, chosen = players.epoch_and_preferences(player_id)
    session.clear()
    session.permanent = True
    session["player_id"] = player_id
    session["epoch"] = epoch
    session[SESSION_ID_KEY] = secrets.token_urlsafe(24)
    # Their pages in the language they chose (kept in the session: choosing costs no query).
    language = known((chosen or {}).get("language"))
    if language:
        session[LANGUAGE_KEY] = language


def sign_out(for_good: bool = False) -> None:
    """End this session: its id is kept as ended (with the request; `for_good`: at once),
    so a copy of its cookie taken before is refused afterwards, and the cookie is cleared."""
    sid = session.get(SESSION_ID_KEY)
    if isinstance(sid, str):
        lifetime = current_app.permanent_session_lifetime
        accounts.end_session(sid[:64], lifetime, for_good=for_good)
    session.clear()


@dataclass(frozen=True)
class Reader:
    """Who the session says reads: a player (None: nobody) as of the epoch they signed in
    at, in the session `sid`. Believed only where a query finds the player still at that
    epoch and the session not ended."""

    player_id: int | None
    epoch: int
    sid: str = ""

    @property
    def params(self) -> ReaderParams:
        """The bind parameters of the queries that read the signed-in player."""
        return {"player": self.player_id, "epoch": self.epoch, "sid": self.sid}


def session_reader() -> Reader:
    player_id = session.get("player_id")
    epoch = session.get("epoch", 0)  # sessions from before epochs: the first epoch
    sid = session.get(SESSION_ID_KEY)
    # A session without an id (signed in before ids) could not be ended: signed out.
    if not isinstance(player_id, int) or not isinstance(epoch, int) or not isinstance(sid, str):
        return Reader(None, 0)
    return Reader(player_id, epoch, sid)


@dataclass(frozen=True)
class SignedIn:
    """The signed-in player, as the pages need them."""

    id: int
    name: str


def signed_in_player() -> SignedIn | None:
    """The player whose id the session carries, if they still exist, have not signed out
    everywhere since, and this session was not signed out (one query)."""
    reader = session_reader()
    if reader.player_id is None:
        return None
    found = players.session_player(reader.params)
    return SignedIn(id=found[0], name=found[1]) if found is not None else None
