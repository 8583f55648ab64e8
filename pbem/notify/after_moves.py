"""What a batch of moves tells, written in its transaction (`after_batch`): a decision mail
to each player a decision has newly come to, a general scoring's and the game's end to
everyone, a bot's story to its seat's holder, the pushes and webhooks beside them, and the
orders played for a seat (`order_rows`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy.engine import Connection

import engine
from engine.board import Board
from pbem.game.players import is_unreachable
from pbem.notify.compose import Recipient, seat_of
from pbem.notify.outbox import (
    OutboxRow,
    Pushed,
    Seated,
    decision_row,
    first_colour,
    present,
    push_rows,
    queue,
    recipients,
    row,
    told_row,
    webhook_rows,
)
from pbem.notify.payloads import EveryMovePayload, MovesPayload
from pbem.notify.preferences import wants, wants_push
from pbem.timing import policy


def general_scoring_events(events: list[engine.Event], state: Board) -> list[engine.Event] | None:
    """The events of a general scoring this batch completed, else None.

    A general scoring begins (`general_scoring`) at a round's end and, where caballeros are
    in the Castillo, waits for the Castillo picks; it is complete once that phase is over
    (`castillo_revealed`, or at once without picks).
    """
    types = [e["type"] for e in events]
    if state.phase == "castillo_pick" or not {"general_scoring", "castillo_revealed"} & set(types):
        return None
    if "general_scoring" in types:
        start = len(types) - 1 - types[::-1].index("general_scoring")
        return events[start:]
    return events


def decision_key(entry: engine.Pending) -> tuple[str, str]:
    """Whose decision and which (policy.decision_key): a turn's steps are one decision."""
    return entry["player"], policy.decision_key(entry)


def after_batch(
    connection: Connection,
    *,
    game_id: int,
    before: engine.State,
    batch: engine.Batch[engine.State],
    seq: int,
    due: Mapping[str, datetime] | None = None,
    chain: Sequence[engine.Batch[engine.State]] = (),
) -> None:
    """Queue the mails a committed batch causes (see the module's docstring) as rows that
    name what happened (the moves after seq `after` up to `seq`, whose seat's thread, what
    the reader may see); the sender composes them from the log at those seqs. `due` gives
    each pending colour's deadline. `chain`: the batches other seats' orders played at once
    after it, in the same transaction (a decision they answered is mailed to nobody)."""
    batches = [batch, *chain]
    state = batches[-1].state
    # A decision answered and opened again by the orders it set off is a new one.
    seen_before = {decision_key(p) for p in engine.pending(before)} - policy.answered_along(
        (b.before, b.state) for b in batches
    )
    fresh: dict[str, engine.Pending] = {}
    for entry in engine.pending(state):
        if decision_key(entry) not in seen_before:
            fresh.setdefault(entry["player"], entry)
    seated = recipients(connection, game_id)
    mover = {r.player_id for r, _ in seated if r.colour == batch.player}
    after = seq - sum(len(b.played) for b in batches)
    told: list[OutboxRow | None] = []
    deferred: list[OutboxRow] = []
    hooks = []
    pushed: dict[int, Pushed] = {}  # one push a person, however many seats they hold
    for recipient, preferences in seated:
        # A person holding two colours gets one copy of what is not their seat's own.
        game_wide = recipient.colour == first_colour(seated, recipient.player_id)
        for hook in preferences.get("webhooks") or []:
            if hook.get("game_id") == game_id and game_wide:
                hooks.append({**hook, "player_id": recipient.player_id})
        if (
            recipient.player_id not in mover
            and game_wide
            and wants(preferences, game_id, "every_move")
        ):
            # What they may see is what their seats of now may see, whoever holds them later.
            mine = [seat_of(r) for r, _ in seated if r.player_id == recipient.player_id]
            payload = EveryMovePayload(colour=seat_of(recipient), seen=mine, after=after, seq=seq)
            told.append(told_row(game_id, recipient, "every_move", payload, preferences))
        colour = recipient.colour
        if colour is not None:  # always: these are the seats' recipients
            decision = fresh.get(colour)
            if (
                decision is not None
                and not recipient.bot_plays
                and wants(preferences, game_id, "decision")
            ):
                deferred.append(
                    decision_row(game_id, recipient, decision, seq, (due or {}).get(colour))
                )
            if (
                decision is not None
                and recipient.pushes
                and not recipient.bot_plays
                and wants_push(preferences, game_id, "decision")
            ):
                pushed.setdefault(recipient.player_id, decision_push(recipient, decision))
    events = general_scoring_events([e for b in batches for e in b.events], state)
    if events is not None:
        told += scoring_rows(game_id, state, after, seq, seated)
        if engine.is_over(state):
            pushed.update(game_over_pushes(game_id, seated))
    told += order_rows(game_id, seated, chain, after + len(batch.played), seq)
    rows = present(told) + deferred
    rows += bot_story_rows(game_id, seated, batch.player, after, seq)
    # A webhook posts where others may read it (a channel): only the public record.
    rows += webhook_rows(hooks, game_id, after, seq)
    rows += push_rows(connection, game_id, list(pushed.values()))
    queue(connection, rows)


def decision_push(recipient: Recipient, decision: engine.Pending) -> Pushed:
    """A push that a decision is theirs: its kind alone (a Veto window's plan, say, names
    a card its player holds)."""
    return (recipient.player_id, "decision", {"decision_kind": decision["kind"]})


def game_over_pushes(game_id: int, seated: list[Seated]) -> dict[int, Pushed]:
    """Each person at the table's push that the game ended."""
    return {
        r.player_id: (r.player_id, "game_over", {})
        for r, preferences in seated
        if r.pushes and wants_push(preferences, game_id, "game_over")
    }


def scoring_rows(
    game_id: int,
    state: engine.State,
    after: int,
    seq: int,
    seated: list[Seated],
) -> list[OutboxRow | None]:
    """After a general scoring (the last: the game's end, with everyone's points by source
    over the whole game), each person's mail of it: the scoring the moves after `after` up
    to `seq` completed."""
    kind = "game_over" if engine.is_over(state) else "scoring"
    rows = []
    for recipient, preferences in seated:
        game_wide = recipient.colour == first_colour(seated, recipient.player_id)
        if game_wide and wants(preferences, game_id, kind):
            payload = MovesPayload(colour=seat_of(recipient), after=after, seq=seq)
            rows.append(told_row(game_id, recipient, kind, payload, preferences))
    return rows


def bot_story_rows(
    game_id: int,
    seated: list[Seated],
    colour: str,
    after: int,
    seq: int,
) -> list[OutboxRow]:
    """After a bot played a seat (moves `after` + 1 to `seq`): the story since that seat's
    previous move, the bot's own included, as a part of its person's digest (they get no
    decision mails meanwhile)."""
    holder, preferences = next(((r, p) for r, p in seated if r.colour == colour), (None, {}))
    if holder is None or not holder.bot_plays or is_unreachable(holder.email):
        return []  # a person's seat a bot plays for now; a house bot reads no mail
    if not wants(preferences, game_id, "decision"):
        return []
    payload = MovesPayload(colour=colour, after=after, seq=seq)
    return [
        row(
            game_id=game_id,
            player_id=holder.player_id,
            kind="bot_story",
            recipient=holder.email,
            payload=payload,
            status="digest",
        )
    ]


def order_rows(
    game_id: int,
    seated: list[Seated],
    chain: Sequence[engine.Batch[engine.State]],
    after: int,
    seq: int,
) -> list[OutboxRow | None]:
    """Each seat whose orders played (among the moves after `after` up to `seq`) tells its
    holder what they played (its own mail: the others learn only the moves, as any other
    move)."""
    played = {each.player for each in chain if each.played}
    rows = []
    for recipient, preferences in seated:
        if (
            recipient.colour in played
            and not recipient.bot_plays
            and wants(preferences, game_id, "decision")
        ):
            payload = MovesPayload(colour=seat_of(recipient), after=after, seq=seq)
            rows.append(told_row(game_id, recipient, "orders", payload))
    return rows
