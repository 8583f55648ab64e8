"""What a move looks like: its type, its fields and their types. No rules here.

A move is a JSON dict `{"type": ..., field: value}`. `check_form` refuses anything that is
not a well-formed move of a known type, with a sentence saying what to send instead, so
no `KeyError` or `TypeError` can escape `apply` later. Each form has its `TypedDict` in
`engine.types` (tests/engine/test_types.py keeps the two alike). `check_region` refuses a
field that names no region.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import cast

from engine.data import PLACES, REGIONS
from engine.types import Move


class IllegalMove(Exception):
    """A move the rules (or the move form) do not allow. The message names the rule."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Secrecy(Enum):
    """What players other than the mover may see of a move in the log.

    Every move form declares one (there is no default), so a new card's move cannot forget
    to; `engine.observer.visible_log` is the one place that applies them.
    """

    #: Everything, at once.
    PUBLIC = "public"
    #: A secret pick: only that a pick was made, until the picks are revealed together.
    UNTIL_REVEALED = "until_revealed"
    #: Only that the move was made, for good (which power card came back to a hand).
    PRIVATE = "private"


@dataclass(frozen=True)
class MoveForm:
    type: str
    required: dict[str, builtins.type] = field(default_factory=dict)
    optional: dict[str, builtins.type] = field(default_factory=dict)
    secrecy: Secrecy = field(kw_only=True)


_TYPE_NAMES = {int: "a whole number", str: "a text string", bool: "true or false"}

#: The word each move's line starts with in the notation (`engine.notation` checks that it
#: writes the same): what a refusal calls a move, since a person reads it, not the API's
#: type (`pick`, never `secret_pick`).
VERBS = {
    "play_power_card": "power",
    "take_caballeros": "take",
    "take_from_region": "take from",
    "choose_card": "card",
    "place": "place",
    "skip_special": "skip",
    "end_turn": "done",
    "castillo_pick": "castillo",
    "do_special": "special",
    "special_option": "option",
    "special_region": "region",
    "special_place": "send",
    "move_caballero": "move",
    "target": "target",
    "remove_caballero": "remove",
    "move_scoreboard": "scoreboard",
    "move_king": "king",
    "move_grande": "grande",
    "return_power_card": "return power",
    "return_caballero": "return",
    "end_special": "stop",
    "secret_pick": "pick",
    "allow": "allow",
    "veto": "veto",
}


def verb(move_type: str) -> str:
    """A move named in a sentence, as its line starts: `"pick"`."""
    return f'"{VERBS.get(move_type, move_type)}"'


def verbs(move_types: Iterable[str]) -> str:
    """Several moves named in a sentence: `"king", "special"` (sorted), or "none"."""
    return ", ".join(sorted(verb(t) for t in move_types)) or "none"


FORMS: dict[str, MoveForm] = {}


def register_form(form: MoveForm) -> None:
    FORMS[form.type] = form


def check_form(move: object) -> MoveForm:
    """Refuse a move that is not a dict of a known type with correctly typed fields."""
    if not isinstance(move, dict):
        raise IllegalMove(
            f'A move must be an object like {{"type": "end_turn"}}, not {type(move).__name__}.'
        )
    kind = move.get("type")
    if not isinstance(kind, str):
        raise IllegalMove('A move needs a "type" field naming what to do, e.g. "end_turn".')
    form = FORMS.get(kind)
    if form is None:
        known = ", ".join(sorted(FORMS))
        raise IllegalMove(f'Unknown move type "{kind}". Known move types: {known}.')
    for name, expected in form.required.items():
        if name not in move:
            raise IllegalMove(
                f'A "{kind}" move needs the field "{name}" ({_TYPE_NAMES[expected]}).'
            )
    for name, value in move.items():
        if name == "type":
            continue
        wanted = form.required.get(name) or form.optional.get(name)
        if wanted is None:
            allowed = ", ".join(sorted([*form.required, *form.optional])) or "none"
            raise IllegalMove(f'A "{kind}" move has no field "{name}" (its fields: {allowed}).')
        # bool is a subclass of int in Python; true is not a card number.
        if not isinstance(value, wanted) or (wanted is int and isinstance(value, bool)):
            raise IllegalMove(
                f'The field "{name}" of a "{kind}" move must be {_TYPE_NAMES[wanted]}, '
                f"not {json_type(value)}."
            )
    return form


def check_region(name: str, *, castillo: bool = False) -> None:
    """Refuse a name that is not a region (or, where allowed, the Castillo)."""
    allowed = PLACES if castillo else REGIONS
    if name not in allowed:
        what = "a region or the castillo" if castillo else "a region"
        raise IllegalMove(f'"{name}" is not {what}: choose from {", ".join(allowed)}.')


def well_formed(move: object) -> Move:
    """`move`, once `check_form` has found it well formed; IllegalMove if it is not."""
    check_form(move)
    # check_form has just checked its type and every field against its form, which the Move
    # TypedDicts mirror (tests/engine/test_types.py): a checker cannot follow that.
    return cast(Move, move)


def json_type(value: object) -> str:
    return {
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "text",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }.get(type(value), type(value).__name__)


PUBLIC, UNTIL_REVEALED, PRIVATE = Secrecy.PUBLIC, Secrecy.UNTIL_REVEALED, Secrecy.PRIVATE

for _form in (
    MoveForm("play_power_card", {"card": int}, secrecy=PUBLIC),
    MoveForm("take_caballeros", {"count": int}, secrecy=PUBLIC),
    MoveForm("take_from_region", {"region": str}, secrecy=PUBLIC),
    MoveForm("choose_card", {"card": str}, {"stack": int}, secrecy=PUBLIC),
    MoveForm("place", {"to": str}, secrecy=PUBLIC),
    MoveForm("skip_special", secrecy=PUBLIC),
    MoveForm("end_turn", secrecy=PUBLIC),
    MoveForm("castillo_pick", {"region": str}, secrecy=UNTIL_REVEALED),
):
    register_form(_form)
