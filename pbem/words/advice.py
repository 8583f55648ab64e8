"""Hints and reviews in words, the same on the page and in a mail: what the search found,
and nothing it did not (no reason is made up for a move; only its figures are given)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from engine.bots.review import Flagged, Review
from pbem.languages import _, ngettext
from pbem.words.moves import describe_move


def _decision(kind: str) -> str:
    names = {
        "play_power_card": _("your power card"),
        "choose_card": _("your action card"),
        "castillo_pick": _("your Castillo region"),
        "secret_pick": _("your secret disk"),
        "move_king": _("where you moved the King"),
    }
    return names.get(kind, kind.replace("_", " "))


def _points(value: float) -> str:
    return f"{value:+.1f}"


def hint_lines(moves: Sequence[Mapping[str, Any]], card: str | None = None) -> list[str]:
    """A hint's moves, best first, each with what the search expects of it (`card`: the
    action card in play, which a special action's move is described under); the mail and
    the page number them."""
    if not moves:
        return []
    best = moves[0]["value"]
    lines = []
    for number, found in enumerate(moves, 1):
        move = describe_move(found["move"], card=card)
        if number == 1:
            lines.append(
                _(
                    "%(move)s: the search's best, %(points)s points against your rivals by "
                    "the round's end.",
                    move=move,
                    points=_points(found["value"]),
                )
            )
        else:
            lines.append(
                _(
                    "%(move)s: %(less)s points less.",
                    move=move,
                    less=f"{best - found['value']:.1f}",
                )
            )
    return lines


def hint_basis(playouts: int) -> str:
    """How a hint was found, in a sentence."""
    return ngettext(
        "The strong bot played each move out to the end of the round in %(num)d deal of "
        "what you cannot see (the others' hands and picks, the decks), using only what your "
        "seat sees, and valued where it led: your points against the best of the others'.",
        "The strong bot played each move out to the end of the round in %(num)d deals of "
        "what you cannot see (the others' hands and picks, the decks), using only what your "
        "seat sees, and valued where it led: your points against the best of the others'.",
        playouts,
    )


class ReviewLine(TypedDict):
    seq: int  # the position before the decision, for a link to the replay there
    text: str


def review_lines(flagged: Sequence[Flagged]) -> list[ReviewLine]:
    """Each flagged decision of one seat in a sentence, most points at stake first."""
    return [
        {
            "seq": f["seq"],
            "text": _(
                "Round %(round)s, %(decision)s. Played: %(played)s. Better: %(better)s, "
                "worth %(points)s points more by the search's figures.",
                round=f["round_number"],
                decision=_decision(f["played"]["type"]),
                played=describe_move(f["played"]),
                better=describe_move(f["better"]),
                points=f"{f['at_stake']:.1f}",
            ),
        }
        for f in flagged
    ]


def review_summary(review: Review, colour: str) -> str:
    """What the review looked at for `colour`, and what it found, in a sentence."""
    reviewed = review["reviewed"].get(colour, 0)
    decisions = review["decisions"].get(colour, 0)
    found = len(review["flagged"].get(colour, []))
    if not found:
        return ngettext(
            "The strong bot looked again at %(num)d of your decisions (power cards, action "
            "cards, the Castillo, secret disks, the King) and found no choice worth a point "
            "more than yours.",
            "The strong bot looked again at %(num)d of your decisions (power cards, action "
            "cards, the Castillo, secret disks, the King) and found no choice worth a point "
            "more than yours.",
            reviewed,
        )
    if reviewed < decisions:
        return _(
            "The strong bot looked again at %(reviewed)s of your %(decisions)s decisions "
            "(its time ran out before the rest); where it found better, most points first:",
            reviewed=reviewed,
            decisions=decisions,
        )
    return ngettext(
        "The strong bot looked again at your %(num)d decision (power cards, action cards, "
        "the Castillo, secret disks, the King); where it found better, most points first:",
        "The strong bot looked again at your %(num)d decisions (power cards, action cards, "
        "the Castillo, secret disks, the King); where it found better, most points first:",
        reviewed,
    )


__all__ = ["ReviewLine", "hint_basis", "hint_lines", "review_lines", "review_summary"]
