"""A seat's orders given in advance: the power cards it will play, first legal one first,
and a standing `allow` for this round's Veto windows. Read and written by the seat's holder
alone; carried out by `chain` in the transaction of the move that makes them due, or here at
once when the decision they answer is already pending.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from sqlalchemy import delete, insert
from sqlalchemy.engine import Connection

import engine
from pbem.clock import now
from pbem.errors import Conflict, Invalid, StaleSequence
from pbem.extensions import db
from pbem.game.seating import Actor, resolve_colour, seating
from pbem.game.states import current_state
from pbem.languages import N_, _, later
from pbem.play import batch, chain
from pbem.store import reads, tables
from pbem.words import status_word

#: Tries to save an order and play it at once while other moves keep landing first.
TRIES = 3


class OrdersShown(TypedDict):
    """A seat's orders as the API shows them to their holder, the moves in notation."""

    colour: str
    power_cards: list[int]
    veto: str
    played: list[str]
    seq: int


@dataclass
class Orders:
    """A seat's orders as they stand, and what giving them played at once."""

    colour: str
    power_cards: list[int]
    veto: str  # "allow" or "ask"
    played: list[engine.Move] = field(default_factory=list)
    seq: int = 0

    def as_dict(self) -> OrdersShown:
        return {
            "colour": self.colour,
            "power_cards": self.power_cards,
            "veto": self.veto,
            "played": [engine.format_move(m) for m in self.played],
            "seq": self.seq,
        }


def _own_seat(actor: Actor, game_id: int, colour: str | None) -> tuple[Any, str]:
    seats = seating(actor, game_id)
    own = resolve_colour(game_id, seats.own, colour, (), acting=True)
    return seats.game, own


def read(actor: Actor, game_id: int, colour: str | None) -> Orders:
    """The actor's own seat's orders (nobody reads another seat's)."""
    game, own = _own_seat(actor, game_id, colour)
    return _orders_of(db.session.connection(), game_id, game.seed, game.seq, own)


def read_own_seat(game_id: int, seed: int, seq: int, colour: str) -> Orders:
    """`colour`'s orders in the game at `seq`, for a caller that has read the game with its
    reader's seats and so knows the seat is the reader's own (the board page, on its read
    connection); anyone else asks `read`, which checks."""
    return _orders_of(reads.connection(), game_id, seed, seq, colour)


def _orders_of(connection: Connection, game_id: int, seed: int, seq: int, colour: str) -> Orders:
    standing = chain.standing_of(connection, game_id).get(colour, chain.Standing())
    veto = "allow" if standing.lets_veto_pass(current_state(game_id, seed, seq)) else "ask"
    return Orders(colour, standing.power_cards, veto, seq=seq)


def _checked_cards(state: engine.State, colour: str, cards: list[int]) -> list[int]:
    hand = list(state.hands.get(colour, []))
    if len(set(cards)) != len(cards):
        raise Invalid(
            N_("power_cards names a card twice; name each card once, best first."),
            code="power-card-twice",
        )
    missing = [card for card in cards if card not in hand]
    if missing:
        held = ", ".join(map(str, hand)) or _("none")
        raise Invalid(
            N_(
                "power_cards: %(missing)s not in your hand (you hold %(held)s); "
                "order only cards you hold."
            ),
            code="power-card-not-held",
            missing=", ".join(map(str, missing)),
            held=held,
        )
    return cards


def give(
    actor: Actor,
    game_id: int,
    colour: str | None,
    *,
    power_cards: list[int] | None = None,
    veto: str | None = None,
) -> Orders:
    """Set the seat's orders (None: leave that part as it is; `[]` cancels the cards). If
    the decision they answer is pending now, it is played at once (source `orders`) in the
    same transaction; a move landing first makes it try again."""
    if power_cards is None and veto is None:
        raise Invalid(
            N_('Give "power_cards" (a list, [] to cancel) or "veto" ("allow" or "ask").'),
            code="no-orders-given",
        )
    for _try in range(TRIES):
        game, own = _own_seat(actor, game_id, colour)
        if game.status == "forming":
            raise Conflict(
                N_(
                    "Game %(game)s has not begun yet: give orders once it has (everyone is "
                    "mailed when it begins)."
                ),
                code="orders-before-start",
                game=game_id,
            )
        if game.status != "active":
            raise Conflict(
                N_("Game %(game)s is %(status)s; it takes no more orders."),
                code="orders-after-end",
                game=game_id,
                status=later(status_word, game.status),
            )
        connection = db.session.connection()
        if not chain.lock_game(connection, game_id, game.seq):
            db.session.rollback()  # a move landed between reading the game and locking it
            continue
        state = current_state(game_id, game.seed, game.seq)
        standing = chain.standing_of(connection, game_id).get(own, chain.Standing())
        cards = standing.power_cards
        if power_cards is not None:
            cards = _checked_cards(state, own, power_cards)
        allow_round = standing.veto_allow_round
        if veto is not None:
            allow_round = state.round_index if veto == "allow" else None
        _save(connection, game_id, own, cards, allow_round)
        wanted = chain.Standing(cards, allow_round)
        given = Orders(own, cards, "allow" if wanted.lets_veto_pass(state) else "ask")
        given.seq = game.seq
        if chain.ordered_move(state, own, wanted) is None:
            return given
        try:
            return _play_now(actor, game_id, game.seq, given, wanted)
        except StaleSequence:
            db.session.rollback()
    raise Conflict(
        N_("The game kept moving while your orders were saved; send them again."),
        code="orders-raced",
    )


def _play_now(
    actor: Actor, game_id: int, seq: int, given: Orders, wanted: chain.Standing
) -> Orders:
    def plan(state: engine.State, colour: str) -> list[engine.Move]:
        move = chain.ordered_move(state, colour, wanted)
        return [move] if move is not None else []

    outcome = batch.submit(actor, game_id, seq, plan, source="orders", colour=given.colour)
    given.played, given.seq = outcome.moves, outcome.seq
    if any(m["type"] == "play_power_card" for m in outcome.moves):
        given.power_cards = []  # used up (submit cleared the row in its transaction)
    return given


def _save(
    connection: Connection, game_id: int, colour: str, cards: list[int], allow_round: int | None
) -> None:
    key = {"game_id": game_id, "colour": colour}
    connection.execute(
        delete(tables.orders).where(
            tables.orders.c.game_id == game_id, tables.orders.c.colour == colour
        )
    )
    connection.execute(
        insert(tables.orders).values(
            **key, power_cards=cards, veto_allow_round=allow_round, updated_at=now()
        )
    )


__all__ = ["Orders", "give", "read"]
