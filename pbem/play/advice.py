"""Advice from the strong bot: a hint asked for a decision, and a finished game's review.

Both are worked out by the scheduler (`answer_hints`, `review_one`), never in a request: a
search takes seconds of a core. A hint is asked by any door (`ask_hint`: mail, page, API)
in a game whose options allow them (`hints: true`, never rated), for a decision that waits
on the asker's seat; its row is the decision's, so asking again, by any door, finds the
same one. The search sees only the seat's view (`SearchBot.appraise`). The answer goes back
by mail when a mail asked; the page and the API read it when they look again. A review is
due when a game ends (`review_later`, in its ending transaction) and goes to each person
at the table by mail once done.
"""

from __future__ import annotations

from typing import Any

from flask import current_app
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from engine.bots import SearchBot
from engine.bots.review import bot_seed, review
from pbem.clock import now
from pbem.errors import Conflict
from pbem.extensions import db
from pbem.game import advice as reading
from pbem.game.seating import Actor, resolve_colour, seating
from pbem.game.states import current_state, hints_allowed, rules_options
from pbem.languages import N_
from pbem.notify import game_mails, outbox
from pbem.notify.payloads import HintPayload, SeqPayload
from pbem.store import tables

#: The moves a hint names at most.
HINT_MOVES = 3
#: Hints one pass works out at most (each is a search of a second or two).
HINTS_A_PASS = 10

_GAME = select(
    tables.games.c.id,
    tables.games.c.options,
    tables.games.c.status,
    tables.games.c.seq,
    tables.games.c.seed,
    tables.games.c.pending,
    tables.games.c.colours,
)


def _game(game_id: int) -> Any:
    return db.session.execute(_GAME.where(tables.games.c.id == game_id)).one()


def ask_hint(actor: Actor, game_id: int, via: str, colour: str | None = None) -> reading.HintShown:
    """A hint for the decision that waits on the actor's seat now: the one asked already
    for it (answered or not), or a new one for the scheduler to work out; the caller
    commits. Refused, asking nothing, in a game that does not allow hints, one not under
    way, or when no decision waits on the seat."""
    seated = seating(actor, game_id)
    game = _game(game_id)
    if not hints_allowed(game.options):
        raise Conflict(
            N_(
                "Game %(game)s does not allow hints: its organiser made it without them "
                "(a game with hints is never rated). Play on by your own judgement."
            ),
            code="hints-off",
            game=game_id,
        )
    if game.status != "active":
        raise Conflict(
            N_("Game %(game)s is not under way: a hint is for a decision still to make."),
            code="hint-game-not-active",
            game=game_id,
        )
    waiting = [p["player"] for p in game.pending]
    chosen = resolve_colour(game_id, seated.own, colour, waiting, acting=True)
    if chosen not in waiting:
        raise Conflict(
            N_(
                "No decision waits on %(colour)s now; ask for a hint when it is your turn "
                "to choose."
            ),
            code="hint-not-your-decision",
            colour=chosen,
        )
    row = {
        "game_id": game_id,
        "colour": chosen,
        "seq": game.seq,
        "asked_by": seated.player_id,
        "via": via,
        "asked_at": now(),
    }
    try:
        with db.session.begin_nested():  # a savepoint: two doors asking at once
            db.session.execute(insert(tables.hints).values(**row))
    except IntegrityError:  # asked already for this decision: that row answers
        if via == "mail":  # and once worked out, goes by mail too
            db.session.execute(
                update(tables.hints)
                .where(
                    tables.hints.c.game_id == game_id,
                    tables.hints.c.colour == chosen,
                    tables.hints.c.seq == game.seq,
                    tables.hints.c.answered_at.is_(None),
                )
                .values(via="mail")
            )
    shown = reading.hint_for(game_id, chosen, game.seq)
    assert shown is not None  # just written, or written before
    return shown


def answer_hints(limit: int = HINTS_A_PASS) -> int:
    """Work out the hints asked and not yet answered, oldest first, each committed as it is
    done (with its mail, if a mail asked); returns how many were answered."""
    asked = db.session.execute(
        select(tables.hints)
        .where(tables.hints.c.answered_at.is_(None))
        .order_by(tables.hints.c.id)
        .limit(limit)
    ).all()
    db.session.rollback()  # no transaction held open through the searches
    for hint in asked:
        game = _game(hint.game_id)
        moved_on = game.status != "active" or game.seq != hint.seq
        advice = None if moved_on else _appraised(game, hint.colour, hint.seq)
        answered = db.session.connection().execute(
            update(tables.hints)
            .where(tables.hints.c.id == hint.id, tables.hints.c.answered_at.is_(None))
            .values(answered_at=now(), advice=advice)
        )
        if answered.rowcount and advice is not None and hint.via == "mail":
            payload = HintPayload(colour=hint.colour, hint=hint.id, seq=hint.seq)
            outbox.seat_mail(db.session.connection(), hint.game_id, hint.colour, "hint", payload)
        elif answered.rowcount and advice is not None:
            game_mails.hint_push(db.session.connection(), hint.game_id, hint.colour)
        db.session.commit()
    return len(asked)


def _appraised(game: Any, colour: str, seq: int) -> list[dict[str, Any]]:
    """The search's best moves for `colour` at `seq`, from its view alone."""
    state = current_state(game.id, game.seed, seq)
    playouts = int(current_app.config["PBEM_HINT_PLAYOUTS"])
    found = SearchBot(bot_seed(seq, colour), playouts=playouts).appraise(state, colour)
    return [
        {"move": a["move"], "value": round(a["value"], 2), "playouts": a["playouts"]}
        for a in found[:HINT_MOVES]
    ]


def review_later(game_id: int) -> None:
    """The finished game's review is due (in its ending transaction): the scheduler works
    it out."""
    if float(current_app.config["PBEM_REVIEW_SECONDS"]) <= 0:
        return
    db.session.execute(insert(tables.game_reviews).values(game_id=game_id, due_at=now()))


def review_one() -> int | None:
    """Review the game whose review has waited longest, within PBEM_REVIEW_SECONDS of CPU,
    keep it and mail it to each person at its table; its id, or None if none waits."""
    waiting = db.session.execute(
        select(tables.game_reviews.c.game_id)
        .where(tables.game_reviews.c.done_at.is_(None))
        .order_by(tables.game_reviews.c.due_at, tables.game_reviews.c.game_id)
        .limit(1)
    ).scalar()
    if waiting is None:
        db.session.rollback()
        return None
    game = _game(waiting)
    log = db.session.execute(
        select(tables.moves.c.colour, tables.moves.c.move)
        .where(tables.moves.c.game_id == waiting)
        .order_by(tables.moves.c.seq)
    ).all()
    people = reading.people_seats(waiting)
    db.session.rollback()  # no transaction held open through the searches
    config = current_app.config
    done = review(
        game.colours,
        game.seed,
        rules_options(game.options),
        [(row.colour, row.move) for row in log],
        people,
        playouts=int(config["PBEM_REVIEW_PLAYOUTS"]),
        seconds=float(config["PBEM_REVIEW_SECONDS"]),
    )
    kept = db.session.connection().execute(
        update(tables.game_reviews)
        .where(tables.game_reviews.c.game_id == waiting, tables.game_reviews.c.done_at.is_(None))
        .values(done_at=now(), review=done)
    )
    if kept.rowcount:  # a second scheduler by mistake mails nobody twice
        for colour in people:
            payload = SeqPayload(colour=colour, seq=game.seq)
            connection = db.session.connection()
            outbox.seat_mail(connection, waiting, colour, "review", payload, wanted="game_over")
    db.session.commit()
    return int(waiting)


__all__ = ["HINT_MOVES", "answer_hints", "ask_hint", "review_later", "review_one"]
