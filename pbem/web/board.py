"""The board as SVG and the side panel as HTML, drawn from one viewer's `engine.view` dict.

Only the view is read for what is on the board, so a page can never show more than the
engine lets that viewer see. The drawing itself (outlines, anchors) comes from `geometry`.

Templates live in the repository's top-level `templates/web/`; this module renders them with
its own Jinja environment (autoescape on for every template), so it works with or without a
Flask app.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from engine.data import CASTILLO, REGIONS, SCORING_ROUNDS
from pbem.web import geometry, templating

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"
STATIC_DIR = Path(__file__).resolve().parent / "static"

# A letter on every piece, so colours can be told apart without seeing colour.
# Brown is N (for its "n"), since B is blue.
COLOUR_LETTERS: dict[str, str] = {
    "red": "R",
    "yellow": "Y",
    "green": "G",
    "blue": "B",
    "brown": "N",
}
COLOUR_FILLS: dict[str, str] = {
    "red": "#c62828",
    "yellow": "#f9c80e",
    "green": "#2e7d32",
    "blue": "#1e63c4",
    "brown": "#7b4a2a",
}
# Text colour that reads on each fill.
COLOUR_INKS: dict[str, str] = {
    "red": "#ffffff",
    "yellow": "#222222",
    "green": "#ffffff",
    "blue": "#ffffff",
    "brown": "#ffffff",
}


# Stacks show at most this many cubes; the count says the rest.
STACK_DRAWN = 3


@cache
def environment() -> jinja2.Environment:
    """The Jinja environment for `templates/` with autoescape on for everything."""
    return templating.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def place_name(place: str) -> str:
    return geometry.PLACE_NAMES.get(place, place.replace("_", " ").title())


def card_title(card: str) -> str:
    """An action card's id as words: `intrigue_four_own` -> `Intrigue four own`."""
    return card.replace("_", " ").capitalize()


def colour_chip(colour: str) -> dict[str, str]:
    """A colour with its letter, fill and ink, as chips and pieces are drawn."""
    return {
        "colour": colour,
        "letter": COLOUR_LETTERS.get(colour, colour[:1].upper()),
        "fill": COLOUR_FILLS.get(colour, "#888888"),
        "ink": COLOUR_INKS.get(colour, "#ffffff"),
    }


def _stacks(place: str, caballeros: Mapping[str, int], colours: list[str]) -> list[dict[str, Any]]:
    # Each seat keeps its own cell in every place, so a colour is always found in the same spot.
    cells = geometry.cube_cells(place)
    stacks = []
    for seat, colour in enumerate(colours):
        count = int(caballeros.get(colour, 0))
        if count <= 0:
            continue
        x, y = cells[seat]
        stacks.append(
            {
                **colour_chip(colour),
                "count": count,
                "x": x,
                "y": y,
                "drawn": min(count, STACK_DRAWN),
            }
        )
    return stacks


def board_context(view: Mapping[str, Any]) -> dict[str, Any]:
    """What `web/_board.svg` needs: every place with its outline, label and pieces."""
    colours = list(view["colours"])
    mobile_at = {
        place: name for name, place in (view.get("mobile_scoreboards") or {}).items() if place
    }
    places = []
    for place in (*REGIONS, CASTILLO):
        seen = view["castillo"] if place == CASTILLO else view["regions"][place]
        layout = geometry.LAYOUTS[place]
        tokens = geometry.token_cells(place)
        king = None
        grandes = []
        if place != CASTILLO:
            if view.get("king") == place:
                king = {"x": tokens[0][0], "y": tokens[0][1]}
            # The king, if here, takes the first token cell; grandes follow in seat order.
            start = 1 if king else 0
            here = [c for c in colours if c in seen.get("grandes", [])]
            for i, colour in enumerate(here):
                x, y = tokens[start + i]
                grandes.append({**colour_chip(colour), "x": x, "y": y})
        scoreboard = list(seen["scoreboard"])
        places.append(
            {
                "id": place,
                "region": place != CASTILLO,
                "name": place_name(place),
                "points": (
                    geometry.svg_points(geometry.region_polygon(place))
                    if place != CASTILLO
                    else geometry.svg_points(geometry.CASTILLO_TOWER)
                ),
                "fill": geometry.REGION_FILLS.get(place, "#d8d2c4"),
                "label": layout.label,
                "scoreboard": "/".join(str(v) for v in scoreboard),
                "mobile": mobile_at.get(place),
                "stacks": _stacks(place, seen["caballeros"], colours),
                "king": king,
                "grandes": grandes,
            }
        )
    return {
        "width": geometry.WIDTH,
        "height": geometry.HEIGHT,
        "map_bottom": geometry.MAP_BOTTOM,
        "land": [
            {"id": name, "points": geometry.svg_points(points)}
            for name, points in geometry.LAND.items()
        ],
        "land_labels": [
            {"text": text, "x": xy[0], "y": xy[1]} for text, xy in geometry.LAND_LABELS.values()
        ],
        "places": places,
        "legend": [colour_chip(c) for c in colours],
        "cube": geometry.CUBE,
        "token": geometry.TOKEN,
        "viewer": view.get("viewer"),
    }


def board_svg(view: Mapping[str, Any]) -> Markup:
    """The board as an inline `<svg>` element, for `viewer`'s view."""
    return Markup(environment().get_template("web/_board.svg").render(**board_context(view)))


def panel_context(
    view: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    deadlines: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What `web/_panel.html` needs. `names` maps colours to players' names;
    `deadlines` maps a pending player's colour to a text such as "in 2 days"."""
    names = names or {}
    colours = list(view["colours"])
    players = view["players"]
    viewer = view.get("viewer")
    chart = list(view.get("chart") or [])
    round_now = view["round"]
    over = view.get("phase") == "over"
    # Scoring after the current round counts as still to come until the game is over.
    scorings = [] if over else [r for r in chart if r >= round_now and r in SCORING_ROUNDS]
    taken = {t["stack"]: t for t in view["action_cards"]["taken"]}
    face_up = {c["stack"]: c for c in view["action_cards"]["face_up"]}
    action_cards = []
    for stack in sorted(set(taken) | set(face_up)):
        if stack in taken:
            card = taken[stack]
            action_cards.append(
                {
                    "stack": stack,
                    "card": card["card"],
                    "title": card_title(card["card"]),
                    "by": colour_chip(card["player"]),
                }
            )
        else:
            card = face_up[stack]
            action_cards.append(
                {
                    "stack": stack,
                    "card": card["card"],
                    "title": card_title(card["card"]),
                    "by": None,
                }
            )
    pending_by = {}
    for item in view.get("pending", []):
        pending_by.setdefault(item["player"], []).append(
            item["kind"].replace("_", " ") + (f" ({item['step']})" if item.get("step") else "")
        )
    rows = []
    for colour in colours:
        seen = players[colour]
        rows.append(
            {
                **colour_chip(colour),
                "name": names.get(colour, colour),
                "score": seen["score"],
                "court": seen["court"],
                "province": seen["province"],
                "grande": place_name(seen["grande"]) if seen.get("grande") else "",
                "power_card": seen.get("power_card"),
                "played": seen.get("power_cards_played", []),
                "hand_size": seen.get("hand_size"),
                "is_viewer": colour == viewer,
                "pending": pending_by.get(colour, []),
            }
        )
    hand = players[viewer].get("hand") if viewer in players else None
    pending = [
        {
            **colour_chip(colour),
            "name": names.get(colour, colour),
            "what": ", ".join(kinds),
            "deadline": (deadlines or {}).get(colour),
        }
        for colour, kinds in pending_by.items()
    ]
    return {
        "round_number": view.get("round_number", round_now),
        "rounds_total": view["rounds_total"],
        "chart_round": round_now,
        "short_game": view["rounds_total"] != len(SCORING_ROUNDS) * 3,
        "phase": view.get("phase", "").replace("_", " "),
        "over": over,
        "scorings": scorings,
        "king_region": place_name(view["king"]) if view.get("king") else "",
        "action_cards": action_cards,
        "players": rows,
        "viewer": colour_chip(viewer) if viewer else None,
        "viewer_name": names.get(viewer, viewer) if viewer else None,
        "hand": hand,
        "pending": pending,
        "veto_holders": [
            {**colour_chip(v["player"]), "name": names.get(v["player"], v["player"]), **v}
            for v in view.get("veto", {}).get("holders", [])
        ],
        "winners": [{**colour_chip(c), "name": names.get(c, c)} for c in view.get("winners", [])],
    }


def panel_html(
    view: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    deadlines: Mapping[str, str] | None = None,
) -> Markup:
    """The side panel: round, action cards, players, the viewer's hand, who must act."""
    template = environment().get_template("web/_panel.html")
    return Markup(template.render(**panel_context(view, names, deadlines)))


def stylesheet() -> str:
    """The board's CSS (also served as a static file once pages exist)."""
    return (STATIC_DIR / "board.css").read_text(encoding="utf-8")


def standalone_page(
    view: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    title: str = "El Grande",
) -> str:
    """A self-contained HTML page (CSS inlined) with the board and the panel, for snapshots
    and browser tests that open it from a file."""
    return (
        environment()
        .get_template("web/board_page.html")
        .render(
            title=title,
            css=Markup(stylesheet()),
            board=board_svg(view),
            panel=panel_html(view, names),
        )
    )
