"""The board as a plain-text table, for the text part of a mail: read from one viewer's
`engine.view` and nothing else."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from engine.data import PLACE_NAMES, REGIONS


def place_name(place: str) -> str:
    return PLACE_NAMES.get(place, place.replace("_", " ").title())


def board_table(view: engine.View) -> str:
    """Regions (caballeros per colour, scoreboard, king, grandes), the Castillo, then each
    player's score, court and province."""
    colours = view["colours"]
    width = max(len(place_name(p)) for p in PLACE_NAMES) + 2
    head = "".ljust(width) + "".join(c[:6].rjust(7) for c in colours) + "   scores  notes"
    lines = [head, "-" * len(head)]
    # A region and the Castillo read alike here (the Castillo has no grandes).
    places: list[tuple[str, Mapping[str, Any]]] = [(r, view["regions"][r]) for r in REGIONS]
    places.append(("castillo", view["castillo"]))
    mobile = {place: board for board, place in view["mobile_scoreboards"].items() if place}
    for place, seen in places:
        counts = seen["caballeros"]
        row = place_name(place).ljust(width)
        row += "".join(str(counts.get(c, 0) or ".").rjust(7) for c in colours)
        row += "   " + "/".join(map(str, seen["scoreboard"])).ljust(8)
        notes = []
        if view["king"] == place:
            notes.append("king")
        if seen.get("grandes"):
            notes.append("grande " + ", ".join(seen["grandes"]))
        if place in mobile:
            notes.append(f"mobile {mobile[place]}")
        lines.append((row + "  " + "; ".join(notes)).rstrip())
    lines.append("")
    lines.append("".ljust(width) + "".join(c[:6].rjust(7) for c in colours))
    for label, key in (("score", "score"), ("court", "court"), ("province", "province")):
        players: Mapping[str, Mapping[str, Any]] = view["players"]
        lines.append(label.ljust(width) + "".join(str(players[c][key]).rjust(7) for c in colours))
    return "\n".join(lines)
