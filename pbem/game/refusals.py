"""The engine's refusals (`engine.IllegalMove`) in the reader's language.

The engine is a pure library and writes its refusals in English, each a sentence of a fixed
pattern with parts filled in (a card, a colour, a nested reason). This table, the
service's, holds those patterns beside their catalog texts: `translated` reads a message
against them and writes it again in the language being rendered, translating its parts in
turn. Patterns rather than codes from the engine: the engine keeps its one plain message
(and its golden records), and a sentence it gains is one row here. A sentence no row reads
stays as the engine wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pbem.game.words import colour_name
from pbem.languages import N_, _

#: Parts that are a sentence of their own, read against the table again.
_NESTED = frozenset({"reason", "waiting"})
#: How deep sentences nest (a line's reason, a batch's, a rule's, who is waited for).
_DEEPEST = 5


def _colours(text: str) -> str:
    return ", ".join(colour_name(c) for c in text.split(" and "))


#: Each of the engine's patterns (its English, the parts named) and its catalog text.
ROWS: list[tuple[str, str]] = [
    (
        r'Line (?P<number>\d+) \("(?P<text>.*)"\): (?P<reason>.+)',
        N_('Line %(number)s ("%(text)s"): %(reason)s'),
    ),
    (
        r"Move (?P<index>\d+) of (?P<count>\d+) \((?P<move>.+?)\) is illegal: (?P<reason>.+) "
        r"Nothing was played\.",
        N_("Move %(index)s of %(count)s (%(move)s) is illegal: %(reason)s Nothing was played."),
    ),
    (
        r"The move \((?P<move>.+?)\) is illegal: (?P<reason>.+) Nothing was played\.",
        N_("The move (%(move)s) is illegal: %(reason)s Nothing was played."),
    ),
    (
        r"Power cards are played at the start of a round: (?P<waiting>.+)\.",
        N_("Power cards are played at the start of a round: %(waiting)s."),
    ),
    (
        r"It is not your turn to play a power card: (?P<waiting>.+)\.",
        N_("It is not your turn to play a power card: %(waiting)s."),
    ),
    (
        r"There is no power card (?P<card>\S+): power cards run from 1 to 13\.",
        N_("There is no power card %(card)s: power cards run from 1 to 13."),
    ),
    (
        r"Power card (?P<card>\S+) is not in your hand: each card is played once\.",
        N_("Power card %(card)s is not in your hand: each card is played once."),
    ),
    (r"the game is over", N_("the game is over")),
    (
        r"waiting for (?P<who>.+) to play a power card",
        N_("waiting for %(who)s to play a power card"),
    ),
    (r"waiting for (?P<who>.+) to take their turn", N_("waiting for %(who)s to take their turn")),
    (
        r"waiting for (?P<who>.+) to pick a region for their Castillo caballeros",
        N_("waiting for %(who)s to pick a region for their Castillo caballeros"),
    ),
    (
        r"waiting for (?P<who>.+) to make their secret pick",
        N_("waiting for %(who)s to make their secret pick"),
    ),
    (
        r"waiting for (?P<who>.+) to return caballeros to the province \(King rages\)",
        N_("waiting for %(who)s to return caballeros to the province (King rages)"),
    ),
    (
        r"waiting for (?P<who>.+) to allow or veto the special action",
        N_("waiting for %(who)s to allow or veto the special action"),
    ),
]
_COMPILED = [(re.compile(pattern, re.S), text) for pattern, text in ROWS]
_PARTS: dict[str, Callable[[str], str]] = {"who": _colours}


def translated(message: str, depth: int = 0) -> str:
    """`message`, an engine refusal, in the language being rendered (as it is if no row
    reads it)."""
    if depth > _DEEPEST:
        return message
    for pattern, text in _COMPILED:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        parts = {
            name: translated(value, depth + 1) if name in _NESTED else _PARTS.get(name, str)(value)
            for name, value in found.groupdict().items()
        }
        return _(text) % parts  # a part may be called `text`, as `_` names its own
    return message


__all__ = ["ROWS", "translated"]
