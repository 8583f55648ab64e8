"""Words to be written in each reader's language, kept as data until then: what a mail
queued in one transaction and composed later by the sender says (a game's notices:
`notify.game_mails.notice`).

A `Said` is JSON, so it can wait in an outbox row: `{"said": msgid, "with": {name: value}}`,
each value text or a number, another `Said`, a colour (`colour_said`), a moment
(`moment_said`) or a table's seats (`seats_said`). `spoken` writes it in the current
language; its msgid is marked where it is written (`said(N_("..."), ...)`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pbem.languages import _, moment_text
from pbem.words.names import colour_name

Said = dict[str, Any]


def said(text: str, **values: Any) -> Said:
    """`text` (a msgid, marked `N_`) with its placeholders' values, to be written later."""
    return {"said": text, "with": values}


def colour_said(colour: str) -> Said:
    """A colour, named in the reader's words."""
    return {"colour": colour}


def moment_said(moment: datetime) -> Said:
    """A moment, written as the reader's language writes one."""
    return {"moment": moment.isoformat()}


def seats_said(seats: Sequence[tuple[str, str]]) -> Said:
    """A table's seats in seat order, as colour and name: "red: Ana, yellow: Bo"."""
    return {"seats": [list(seat) for seat in seats]}


def spoken(value: Any) -> Any:
    """`value` written in the current language (text and numbers as they are)."""
    if not isinstance(value, dict):
        return value
    if "said" in value:
        return _(value["said"], **{name: spoken(v) for name, v in value["with"].items()})
    if "colour" in value:
        return colour_name(value["colour"])
    if "moment" in value:
        return moment_text(value["moment"])
    return ", ".join(f"{colour_name(colour)}: {name}" for colour, name in value["seats"])
