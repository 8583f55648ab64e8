"""Orders carried out at once: after a batch, each seat whose decision its orders answer
(a power card it chose in advance, a Veto window it lets pass) plays it in the same
transaction, seat after seat, as if it had sent the move itself (source `orders`).

Orders are rows (`orders`), read in the batch's transaction; a seat's power-card list is
used up once its power card is played, by its orders or by any other door, or once its
orders had no legal card left (it is then asked as usual).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.engine import Connection

import engine
from pbem.store import tables
from pbem.store.prepared import Prepared

#: The game's row locked before its orders are read, by a move and by orders
#: given: so an order saved while a move is under way is either read by that move or
#: saved after it (and then sees the decision pending), never lost between the two.
_LOCK_GAME = (
    select(tables.games.c.seq).where(tables.games.c.id == bindparam("game")).with_for_update()
)

#: A chain of orders (seat after seat answering at once) plays at most this many moves: each
#: seat answers a decision once, so a real chain is far shorter; this only bounds a loop.
MOST_CHAINED = 40

#: The decisions orders can answer.
ANSWERED = frozenset({"power_card", "veto_window"})

STANDING = Prepared(
    select(
        tables.orders.c.colour,
        tables.orders.c.power_cards,
        tables.orders.c.veto_allow_round,
        tables.seats.c.player_id,
    )
    .join(
        tables.seats,
        (tables.seats.c.game_id == tables.orders.c.game_id)
        & (tables.seats.c.colour == tables.orders.c.colour),
    )
    .where(tables.orders.c.game_id == bindparam("game"))
)


@dataclass(frozen=True)
class Standing:
    """One seat's orders as they stand."""

    power_cards: list[int] = field(default_factory=list)
    veto_allow_round: int | None = None
    player_id: int | None = None

    def lets_veto_pass(self, state: engine.State) -> bool:
        return self.veto_allow_round is not None and self.veto_allow_round == state.round_index


@dataclass
class Chain:
    """The batches orders played after the first one, and whose power-card lists are spent."""

    batches: list[engine.Batch[engine.State]] = field(default_factory=list)
    players: list[int | None] = field(default_factory=list)  # each batch's seat holder
    spent: set[str] = field(default_factory=set)


def standing_of(connection: Connection, game_id: int) -> dict[str, Standing]:
    return {
        row.colour: Standing(list(row.power_cards or []), row.veto_allow_round, row.player_id)
        for row in STANDING.all(connection, {"game": game_id})
    }


def ordered_move(state: engine.State, colour: str, standing: Standing) -> engine.Move | None:
    """The move `colour`'s orders make now, if a decision of theirs is one orders answer."""
    for entry in engine.pending(state):
        if entry["player"] != colour:
            continue
        if entry["kind"] == "power_card" and standing.power_cards:
            legal = engine.legal_moves(state, colour)
            for card in standing.power_cards:
                move: engine.Move = {"type": "play_power_card", "card": card}
                if move in legal:
                    return move
        if entry["kind"] == "veto_window" and standing.lets_veto_pass(state):
            return {"type": "allow"}
    return None


def _power_players(batch: engine.Batch[engine.State]) -> set[str]:
    if any(p.move["type"] == "play_power_card" for p in batch.played):
        return {batch.player}
    return set()


#: SQLite has no row locks: an update that changes nothing takes its one write lock, which
#: it holds until the transaction ends, and begins the transaction there.
_TOUCH_GAME = (
    update(tables.games)
    .where(tables.games.c.id == bindparam("game"), tables.games.c.seq == bindparam("seq"))
    .values(seq=tables.games.c.seq)
)


def lock_game(connection: Connection, game_id: int, seq: int) -> bool:
    """Lock the game's row (on SQLite the database's writes) until the transaction ends.
    False if the game has moved on from `seq`."""
    if connection.dialect.name == "postgresql":
        return bool(connection.execute(_LOCK_GAME, {"game": game_id}).scalar() == seq)
    touched = connection.execute(_TOUCH_GAME, {"game": game_id, "seq": seq})
    return bool(touched.rowcount == 1)


def carry_out(
    connection: Connection, game_id: int, seq: int, first: engine.Batch[engine.State]
) -> Chain | None:
    """Play every order the state after `first` (played from `seq`) calls for, seat after
    seat (bounded). None if the game moved on from `seq` meanwhile."""
    chain = Chain(spent=_power_players(first))
    if not chain.spent and not any(p["kind"] in ANSWERED for p in engine.pending(first.state)):
        return chain  # the common case costs no query
    if not lock_game(connection, game_id, seq):
        return None
    standing = standing_of(connection, game_id)
    state = first.state
    while len(chain.batches) < MOST_CHAINED:
        found = _next_order(state, standing, chain.spent)
        if found is None:
            break
        colour, move = found
        batch = engine.play_batch(state, colour, [move])
        chain.batches.append(batch)
        chain.players.append(standing[colour].player_id)
        chain.spent |= _power_players(batch)
        state = batch.state
    chain.spent &= {c for c, s in standing.items() if s.power_cards}
    return chain


def _next_order(
    state: engine.State, standing: dict[str, Standing], spent: set[str]
) -> tuple[str, engine.Move] | None:
    for entry in engine.pending(state):
        colour = entry["player"]
        orders = standing.get(colour)
        if orders is None or entry["kind"] not in ANSWERED:
            continue
        if entry["kind"] == "power_card" and colour in spent:
            continue
        move = ordered_move(state, colour, orders)
        if entry["kind"] == "power_card" and orders.power_cards:
            spent.add(colour)  # consulted: used up whether a card of it was legal or not
        if move is not None:
            return colour, move
    return None


def spend(connection: Connection, game_id: int, colours: set[str]) -> None:
    """Clear the power-card lists that were used up, in the batch's transaction."""
    if colours:
        connection.execute(
            update(tables.orders)
            .where(tables.orders.c.game_id == game_id, tables.orders.c.colour.in_(sorted(colours)))
            .values(power_cards=[])
        )


def forget(connection: Connection, game_id: int, colours: list[str]) -> None:
    """Seats that change hands: their orders were the old holder's, and go with them."""
    connection.execute(
        delete(tables.orders).where(
            tables.orders.c.game_id == game_id, tables.orders.c.colour.in_(colours)
        )
    )


__all__ = [
    "Chain",
    "Standing",
    "carry_out",
    "forget",
    "lock_game",
    "ordered_move",
    "spend",
    "standing_of",
]
