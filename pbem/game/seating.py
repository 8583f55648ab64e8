"""Who acts, and as which colour: the one answer every door and every view uses.

An `Actor` is whoever comes through a door: a seat holder found by API key (the REST API,
the web page), a player whose mail came from a signed seat address, or the scheduler acting
for a colour (a timeout, a bot). `seating` finds, in one query, the game and the seats the
actor holds in it; `resolve_colour` decides which of those colours acts or looks.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Literal, overload

from pbem.errors import Forbidden, Invalid, NotFound
from pbem.extensions import db
from pbem.game.players import unknown_key
from pbem.languages import N_, _, later
from pbem.store import queries


@dataclass(frozen=True)
class Actor:
    """Who is acting. Build one with `by_key`, `by_player` or `scheduler`."""

    #: The player, when known by id (a verified mail sender, a signed-in page).
    player_id: int | None = None
    #: The SHA-256 of an API key: the player is found with the game in one query.
    key_hash: str | None = None
    #: The one colour this actor acts for: the scheduler's, or a signed mail address's seat.
    colour: str | None = None

    @classmethod
    def by_key(cls, key_hash: str) -> Actor:
        return cls(key_hash=key_hash)

    @classmethod
    def by_player(cls, player_id: int, colour: str | None = None) -> Actor:
        return cls(player_id=player_id, colour=colour)

    @classmethod
    def scheduler(cls, colour: str) -> Actor:
        """The server itself acting for `colour` (no player: a timeout, a bot)."""
        return cls(colour=colour)

    @property
    def is_scheduler(self) -> bool:
        return self.player_id is None and self.key_hash is None


@dataclass(frozen=True)
class Seating:
    """A game's row (without its state) and the colours the actor may act for in it."""

    game: Any  # a Row: game_id, seq, status, title, colours, seed, timing
    player_id: int | None
    own: list[str]
    timeouts: dict[str, int]  # the own seats' timeouts in a row


def seating(actor: Actor, game_id: int, *, read_only: bool = False) -> Seating:
    """The game and the actor's seats in it, in one query.

    `read_only` requests run their one SELECT without a transaction: one SELECT is consistent
    on its own, and on PostgreSQL this saves the BEGIN and ROLLBACK round trips around it.
    """
    # Only as the session's first use: a page that has read something already has its
    # connection (and its transaction), and its options can no longer change.
    fresh = read_only and not db.session().in_transaction()
    options = {"isolation_level": "AUTOCOMMIT"} if fresh else None
    connection = db.session.connection(execution_options=options)
    rows = queries.game_and_seats(
        connection, game_id, player_id=actor.player_id, key_hash=actor.key_hash
    )
    if actor.key_hash is not None and not rows:
        raise unknown_key()
    if not rows or rows[0].game_id is None:
        raise NotFound(
            N_("There is no game %(game)s; GET /api/games lists yours."),
            code="no-such-game",
            game=game_id,
        )
    game = rows[0]
    player_id = rows[0].player_id if actor.key_hash is not None else actor.player_id
    if actor.is_scheduler:
        colour = actor.colour
        if colour is None or colour not in game.colours:
            raise Invalid(
                N_("Game %(game)s has no %(colour)s seat."),
                code="no-such-seat",
                game=game_id,
                colour=colour,
            )
        own = [colour]
    else:
        own = [r.own_colour for r in rows if r.own_colour is not None]
    timeouts = {r.own_colour: r.own_timeouts or 0 for r in rows if r.own_colour is not None}
    return Seating(game=game, player_id=player_id, own=own, timeouts=timeouts)


@overload
def resolve_colour(
    game_id: int,
    own: list[str],
    asked: str | None,
    pending: Collection[str],
    *,
    acting: Literal[True],
) -> str: ...


@overload
def resolve_colour(
    game_id: int,
    own: list[str],
    asked: str | None,
    pending: Collection[str],
    *,
    acting: bool,
) -> str | None: ...


def resolve_colour(
    game_id: int,
    own: list[str],
    asked: str | None,
    pending: Collection[str],
    *,
    acting: bool,
) -> str | None:
    """The colour a caller holding the seats `own` acts or looks as.

    `asked` (which must be one of `own`: nobody acts or looks as another seat) if given;
    else their only colour; else, for a person holding two (the two-colour variant), the one
    of theirs in `pending`. When both or neither are pending, a look gets the first in seat
    order and an act is refused: it must say which. Someone holding no seat looks at the
    public view (None) and may not act: acting, the answer is never None.
    """
    if asked is not None and asked not in own:
        if not own:
            raise Forbidden(
                N_(
                    "You have no seat in game %(game)s, so you cannot see or act as %(colour)s; "
                    "leave out `colour` for the public view."
                ),
                code="not-seated-to-look",
                game=game_id,
                colour=asked,
            )
        if acting:
            raise Forbidden(
                N_("You hold %(own)s in game %(game)s; you cannot move for %(colour)s."),
                code="not-your-colour-to-move",
                own=later(held_colours, own),
                game=game_id,
                colour=asked,
            )
        raise Forbidden(
            N_("You hold %(own)s in game %(game)s, not %(colour)s; name one of your own colours."),
            code="not-your-colour",
            own=later(held_colours, own),
            game=game_id,
            colour=asked,
        )
    if not own:
        if acting:
            raise Forbidden(
                N_("You have no seat in game %(game)s; only its players may move."),
                code="not-seated-to-move",
                game=game_id,
            )
        return None
    if asked is not None:
        return asked
    if len(own) == 1:
        return own[0]
    mine = [c for c in own if c in pending]
    if len(mine) == 1:
        return mine[0]
    if not acting:
        return own[0]
    if mine:
        raise Invalid(
            N_(
                "You hold %(own)s in game %(game)s, and both of them must act now; "
                'say which colour these moves are for with "colour".'
            ),
            code="which-colour-both-act",
            own=later(held_colours, own),
            game=game_id,
        )
    raise Invalid(
        N_(
            "You hold %(own)s in game %(game)s, and neither of them must act now; "
            'say which colour these moves are for with "colour".'
        ),
        code="which-colour-neither-acts",
        own=later(held_colours, own),
        game=game_id,
    )


def held_colours(own: list[str]) -> str:
    """A seat holder's colours in a sentence: `red`, or `red and blue`."""
    if len(own) == 2:
        return _("%(first)s and %(second)s", first=own[0], second=own[1])
    return " and ".join(own)
