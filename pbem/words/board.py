"""The board in words, read from one viewer's `engine.view` and nothing else: what every
place holds (caballeros per colour, its scoreboard, the King, grandes, a mobile
scoreboard) and each player's score, court and province. `board_rows` says it once; the
mail's text part lays it out as a plain-text table (`board_table`) and the page as a table
a screen reader can walk. Its words are in the language being rendered."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engine
from engine.data import PLACE_NAMES, REGIONS
from pbem.languages import _
from pbem.words.names import colour_name, place_name, term

#: The players' rows under the places, in this order.
PLAYER_ROWS = ("score", "court", "province")


@dataclass(frozen=True)
class PlaceInWords:
    """One place (a region or the Castillo): its caballeros in the view's colour order,
    its scoreboard (`5/3/1`) and what else stands there, each note a phrase."""

    place: str
    name: str
    caballeros: tuple[int, ...]
    scoreboard: str
    notes: tuple[str, ...]


@dataclass(frozen=True)
class PlayerRowInWords:
    """A row of numbers under the places, one per colour: a score, a court or a province."""

    key: str
    label: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class BoardInWords:
    colours: tuple[str, ...]
    colour_names: tuple[str, ...]
    places: tuple[PlaceInWords, ...]
    players: tuple[PlayerRowInWords, ...]


def row_label(key: str) -> str:
    """The board's last rows: a player's score, court and province."""
    return _("score") if key == "score" else term(key)


def board_rows(view: engine.View) -> BoardInWords:
    """Regions in the board's order, then the Castillo (which has no grandes), then each
    player's score, court and province."""
    colours = tuple(view["colours"])
    places: list[tuple[str, engine.RegionView | engine.CastilloView, list[str]]] = [
        (r, view["regions"][r], view["regions"][r]["grandes"]) for r in REGIONS
    ]
    places.append(("castillo", view["castillo"], []))  # the Castillo holds no grandes
    mobile = {place: board for board, place in view["mobile_scoreboards"].items() if place}
    shown = []
    for place, seen, grandes in places:
        notes = []
        if view["king"] == place:
            notes.append(term("king"))
        if grandes:
            notes.append(term("grande") + " " + ", ".join(map(colour_name, grandes)))
        if place in mobile:
            notes.append(_("mobile %(board)s", board=mobile[place]))
        counts = seen["caballeros"]
        shown.append(
            PlaceInWords(
                place=place,
                name=place_name(place),
                caballeros=tuple(int(counts.get(c, 0)) for c in colours),
                scoreboard="/".join(map(str, seen["scoreboard"])),
                notes=tuple(notes),
            )
        )
    players: Mapping[str, Mapping[str, Any]] = view["players"]
    rows = tuple(
        PlayerRowInWords(key, row_label(key), tuple(int(players[c][key]) for c in colours))
        for key in PLAYER_ROWS
    )
    return BoardInWords(colours, tuple(map(colour_name, colours)), tuple(shown), rows)


def board_table(view: engine.View) -> str:
    """`board_rows` as a plain-text table for a mail: a column per colour, `.` for none."""
    board = board_rows(view)
    width = max(len(n) for n in [*map(place_name, PLACE_NAMES), *map(row_label, PLAYER_ROWS)])
    width += 2
    # The colours as the reader calls them, each column as wide as its longest name needs.
    column = max(7, *(len(name) + 1 for name in board.colour_names))
    names_row = "".join(name.rjust(column) for name in board.colour_names)
    head = "".ljust(width) + names_row
    head += "   " + _("scores") + "  " + _("notes")
    lines = [head, "-" * len(head)]
    for place in board.places:
        row = place.name.ljust(width)
        row += "".join(str(count or ".").rjust(column) for count in place.caballeros)
        row += "   " + place.scoreboard.ljust(8)
        lines.append((row + "  " + "; ".join(place.notes)).rstrip())
    lines.append("")
    lines.append("".ljust(width) + names_row)
    for player_row in board.players:
        values = "".join(str(value).rjust(column) for value in player_row.values)
        lines.append(player_row.label.ljust(width) + values)
    return "\n".join(lines)
