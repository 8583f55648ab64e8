"""The board as a plain-text table, for the text part of a mail: read from one viewer's
`engine.view` and nothing else. Its words are in the language being rendered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from engine.data import PLACE_NAMES, REGIONS
from pbem.languages import _
from pbem.words.names import colour_name, place_name, term


def row_label(key: str) -> str:
    """The board's last rows: a player's score, court and province."""
    return _("score") if key == "score" else term(key)


def board_table(view: engine.View) -> str:
    """Regions (caballeros per colour, scoreboard, king, grandes), the Castillo, then each
    player's score, court and province."""
    colours = view["colours"]
    labels = ("score", "court", "province")
    width = max(len(n) for n in [*map(place_name, PLACE_NAMES), *map(row_label, labels)]) + 2
    # The colours as the reader calls them, each column as wide as its longest name needs.
    shown = [colour_name(c) for c in colours]
    column = max(7, *(len(name) + 1 for name in shown))
    names_row = "".join(name.rjust(column) for name in shown)
    head = "".ljust(width) + names_row
    head += "   " + _("scores") + "  " + _("notes")
    lines = [head, "-" * len(head)]
    # A region and the Castillo read alike here (the Castillo has no grandes).
    places: list[tuple[str, Mapping[str, Any]]] = [(r, view["regions"][r]) for r in REGIONS]
    places.append(("castillo", view["castillo"]))
    mobile = {place: board for board, place in view["mobile_scoreboards"].items() if place}
    for place, seen in places:
        counts = seen["caballeros"]
        row = place_name(place).ljust(width)
        row += "".join(str(counts.get(c, 0) or ".").rjust(column) for c in colours)
        row += "   " + "/".join(map(str, seen["scoreboard"])).ljust(8)
        notes = []
        if view["king"] == place:
            notes.append(term("king"))
        if seen.get("grandes"):
            notes.append(term("grande") + " " + ", ".join(map(colour_name, seen["grandes"])))
        if place in mobile:
            notes.append(_("mobile %(board)s", board=mobile[place]))
        lines.append((row + "  " + "; ".join(notes)).rstrip())
    lines.append("")
    lines.append("".ljust(width) + names_row)
    for key in labels:
        players: Mapping[str, Mapping[str, Any]] = view["players"]
        label = row_label(key)
        lines.append(
            label.ljust(width) + "".join(str(players[c][key]).rjust(column) for c in colours)
        )
    return "\n".join(lines)
