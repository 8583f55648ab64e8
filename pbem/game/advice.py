"""Hints and reviews as read: a seat's hint for one decision, and a finished game's review
as each door shows it (`pbem.words.advice` puts them in words)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from sqlalchemy import select

import engine
from engine.bots.review import Review
from pbem import words
from pbem.errors import Conflict
from pbem.extensions import db
from pbem.game.seating import Actor, seating
from pbem.game.states import current_state, hints_allowed
from pbem.languages import N_, _
from pbem.store import tables
from pbem.words import advice
from pbem.words.moves import describe_move


class HintMove(TypedDict):
    move: engine.Move
    value: float  # the search's mean evaluation: the seat's points against the others'
    playouts: int


class HintShown(TypedDict):
    colour: str
    seq: int  # the decision's: the moves played before it
    asked_at: datetime
    answered: bool
    moves: list[HintMove]  # best first; empty while it is worked out, or if moved on
    moved_on: bool  # the seat had decided before the hint was worked out


def hint_for(game_id: int, colour: str, seq: int) -> HintShown | None:
    """The hint asked for `colour`'s decision at `seq`, if any."""
    row = db.session.execute(
        select(tables.hints).where(
            tables.hints.c.game_id == game_id,
            tables.hints.c.colour == colour,
            tables.hints.c.seq == seq,
        )
    ).first()
    if row is None:
        return None
    return {
        "colour": row.colour,
        "seq": row.seq,
        "asked_at": row.asked_at,
        "answered": row.answered_at is not None,
        "moves": list(row.advice or []),
        "moved_on": row.answered_at is not None and row.advice is None,
    }


def hint_by_id(hint_id: int) -> HintShown | None:
    row = db.session.execute(
        select(tables.hints.c.game_id, tables.hints.c.colour, tables.hints.c.seq).where(
            tables.hints.c.id == hint_id
        )
    ).first()
    return None if row is None else hint_for(row.game_id, row.colour, row.seq)


def people_seats(game_id: int) -> list[str]:
    """The colours held by people, in seat order: not by house bots, nor any address no mail
    reaches (`players.is_unreachable`)."""
    seats, players = tables.seats.c, tables.players.c
    return list(
        db.session.execute(
            select(seats.colour)
            .join(tables.players, players.id == seats.player_id)
            .where(seats.game_id == game_id, ~players.email.endswith(".invalid"))
            .order_by(seats.position)
        ).scalars()
    )


def review_of(game_id: int) -> Review | None:
    """The finished game's review, None until it is done."""
    review: Review | None = db.session.execute(
        select(tables.game_reviews.c.review).where(
            tables.game_reviews.c.game_id == game_id,
            tables.game_reviews.c.done_at.is_not(None),
        )
    ).scalar()
    return review


def review_waits(game_id: int) -> bool:
    """Whether the game's review is due and not done yet."""
    return (
        db.session.execute(
            select(tables.game_reviews.c.game_id).where(
                tables.game_reviews.c.game_id == game_id,
                tables.game_reviews.c.done_at.is_(None),
            )
        ).first()
        is not None
    )


def game_seed(game_id: int) -> int:
    return int(
        db.session.execute(
            select(tables.games.c.seed).where(tables.games.c.id == game_id)
        ).scalar_one()
    )


def finished_colours(actor: Actor, game_id: int) -> list[str]:
    """The colours of a finished game, in seat order, for anyone who may look at it;
    refused (409) while it is played."""
    game = seating(actor, game_id, read_only=True).game
    if game.status != "finished":
        raise Conflict(
            N_("Game %(game)s is not over: its review comes once it ends."),
            code="review-game-not-over",
            game=game_id,
        )
    return list(game.colours)


def hint_words(game_id: int, seed: int, hint: HintShown) -> dict[str, Any]:
    """A hint as the API and the page show it: its moves, each in words, and its lines."""
    card = None
    if hint["moves"]:
        view = engine.view(current_state(game_id, seed, hint["seq"]), hint["colour"])
        card = words.card_in_play(view)
    if hint["moved_on"]:
        detail = _("You decided before the hint was worked out: none is kept for it.")
    elif not hint["answered"]:
        detail = _("The strong bot is working it out; it takes a few seconds. Look again soon.")
    else:
        detail = advice.hint_basis(hint["moves"][0]["playouts"] if hint["moves"] else 0)
    return {
        **hint,
        "moves": [{**m, "text": describe_move(m["move"], card=card)} for m in hint["moves"]],
        "lines": advice.hint_lines(hint["moves"], card),
        "detail": detail,
    }


def review_words(game_id: int, colours: list[str]) -> dict[str, Any]:
    """A finished game's review as the API and the page show it: each person's seat with
    what the review found, in words (`done` False while it waits)."""
    done = review_of(game_id)
    if done is None:
        return {
            "done": False,
            "playouts": 0,
            "cpu_seconds": 0.0,
            "seats": [],
            "detail": _("The strong bot is reviewing this game; it takes a few minutes."),
        }
    seats = []
    for colour in colours:
        if colour not in done["flagged"]:
            continue  # a house bot's
        flagged = done["flagged"][colour]
        texts = [line["text"] for line in advice.review_lines(flagged)]
        seats.append(
            {
                "colour": colour,
                "reviewed": done["reviewed"][colour],
                "decisions": done["decisions"][colour],
                "summary": advice.review_summary(done, colour),
                "flagged": [{**f, "text": t} for f, t in zip(flagged, texts, strict=True)],
            }
        )
    return {
        "done": True,
        "playouts": done["playouts"],
        "cpu_seconds": done["cpu_seconds"],
        "seats": seats,
        "detail": _(
            "The strong bot's review: each decision replayed from what its seat could see, "
            "and played out in %(playouts)s deals of what it could not.",
            playouts=done["playouts"],
        ),
    }


def hint_panel(game_id: int, seed: int, colour: str, seq: int) -> dict[str, Any] | None:
    """What the page shows of hints for `colour`'s decision at `seq`: None in a game that
    does not allow them, or when no decision waits on `colour`; else whether one was asked,
    and if so, as `hint_words` says it."""
    game = db.session.execute(
        select(tables.games.c.options, tables.games.c.pending).where(tables.games.c.id == game_id)
    ).one()
    if not hints_allowed(game.options) or colour not in [p["player"] for p in game.pending]:
        return None
    hint = hint_for(game_id, colour, seq)
    if hint is None:
        return {"asked": False, "colour": colour, "seq": seq}
    return {"asked": True, **hint_words(game_id, seed, hint)}


def review_panel(game_id: int) -> dict[str, Any] | None:
    """A finished game's review as its page shows it, seats in seat order: None if none is
    kept or due."""
    if review_of(game_id) is None and not review_waits(game_id):
        return None
    colours = db.session.execute(
        select(tables.games.c.colours).where(tables.games.c.id == game_id)
    ).scalar_one()
    return review_words(game_id, list(colours))
