"""The board as SVG and the side panel as HTML, drawn from one viewer's `engine.view` dict.

Only the view is read for what is on the board, so a page can never show more than the
engine lets that viewer see. The drawing itself (outlines, anchors) comes from `geometry`.

Templates live in the top-level `templates/web/` (`pbem.paths.TEMPLATES_DIR`); this module renders
them with its own Jinja environment (autoescape on for every template), so it works with or
without a Flask app.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypedDict

import jinja2
from markupsafe import Markup, escape

import engine
from engine.data import CASTILLO, REGIONS
from pbem import jinja, languages, words
from pbem.languages import N_, _, rendering_locale
from pbem.paths import TEMPLATES_DIR
from pbem.web import geometry, wording
from pbem.web.templating import kept
from pbem.words import place_name
from pbem.words.board import board_rows

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


#: The phases of a round, and what a player may be waited on for (and at which step of a
#: turn), as the panel says them.
PHASE_NAMES: dict[str, str] = {
    "power_cards": N_("power cards"),
    "turn": N_("turn"),
    "castillo_pick": N_("castillo pick"),
    "over": N_("over"),
}
#: What a player is waited on for, as the rule book says it: a decision, or the step of a
#: turn (a turn's step alone says it is their turn).
PENDING_NAMES: dict[str, str] = {
    "power_card": N_("playing a power card"),
    "turn": N_("turn"),
    "castillo_pick": N_("choosing a region for the Castillo caballeros"),
    "secret_pick": N_("a secret pick"),
    "king_rages": N_("returning caballeros to the province (King rages)"),
    "veto_window": N_("deciding whether to veto"),
    # A forming game's seats (`pages.board_and_panel`).
    "accept": N_("accepting the invitation"),
    "open_seat": N_("anyone may join"),
}
STEP_NAMES: dict[str, str] = {
    "draw": N_("turn: taking caballeros into the court"),
    "choose_card": N_("turn: choosing an action card"),
    "act": N_("turn: placing caballeros and the card's action"),
    "special": N_("turn: the card's special action"),
}


def _named(table: Mapping[str, str], key: str) -> str:
    """`key`'s words in `table`, in the reader's language (unknown: the key, as words)."""
    return _(table[key]) if key in table else key.replace("_", " ")


# Stacks show at most this many cubes; the count says the rest.
STACK_DRAWN = 3

PLACES = (*REGIONS, CASTILLO)


@cache
def environment() -> jinja2.Environment:
    """The Jinja environment for `templates/` with autoescape on for everything."""
    env = jinja.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # The catalog look-ups and `_` the app's environment has (`pbem.languages`).
    languages.install_in(env)
    wording.install(env)
    return env


def card_title(card: str) -> str:
    """An action card's id as words: `intrigue_four_own` -> `Intrigue four own`."""
    return words.card_title(card)


class Chip(TypedDict):
    """A colour as chips and pieces are drawn: its name, letter, fill and ink."""

    colour: str
    letter: str
    fill: str
    ink: str


class NamedChip(Chip):
    """A colour's chip with the name of whoever holds it."""

    name: str


def colour_chip(colour: str) -> Chip:
    """A colour with its letter, fill and ink, as chips and pieces are drawn."""
    return {
        "colour": colour,
        "letter": COLOUR_LETTERS.get(colour, colour[:1].upper()),
        "fill": COLOUR_FILLS.get(colour, "#888888"),
        "ink": COLOUR_INKS.get(colour, "#ffffff"),
    }


# --- the board, in pieces ------------------------------------------------------------------
#
# A board is some sixty pieces of `web/_board.svg` (the head, each place's outline, its
# scoreboard, each stack, the king, each grande, the legend). Each piece is drawn from a few
# plain values, all of which are in its key, so it is kept per process and a board is mostly
# joined from pieces drawn before: only a piece never seen (a stack of a new height, a
# scoreboard moved) is drawn. The keys span a small, fixed range (places, seats, colours,
# counts of caballeros), so the caches stay small; each is bounded all the same.


@cache
def _macros() -> Any:
    return environment().get_template("web/_board.svg").module


@dataclass(frozen=True)
class _Place:
    id: str
    region: bool
    name: str
    points: str
    fill: str
    label: geometry.Point


@cache
def _place(place: str, language: str) -> _Place:
    outline = geometry.CASTILLO_TOWER if place == CASTILLO else geometry.region_polygon(place)
    return _Place(
        id=place,
        region=place != CASTILLO,
        name=place_name(place),
        points=geometry.svg_points(outline),
        fill=geometry.REGION_FILLS.get(place, "#d8d2c4"),
        label=geometry.LAYOUTS[place].label,
    )


@lru_cache(maxsize=64)
def _head(viewer: str | None, language: str) -> str:
    land = [
        {"id": name, "points": geometry.svg_points(points)}
        for name, points in geometry.LAND.items()
    ]
    labels = [
        {"text": _(text), "x": xy[0], "y": xy[1]} for text, xy in geometry.LAND_LABELS.values()
    ]
    return str(
        _macros().head(viewer, geometry.WIDTH, geometry.HEIGHT, geometry.MAP_BOTTOM, land, labels)
    )


@cache
def _place_open(place: str, language: str) -> str:
    return str(_macros().place(_place(place, language)))


@lru_cache(maxsize=1024)
def _scoreboard(place: str, scoreboard: str, mobile: str | None) -> str:
    return str(_macros().scoreboard(geometry.LAYOUTS[place].label, scoreboard, mobile))


@lru_cache(maxsize=8192)
def _stack(place: str, seat: int, colour: str, count: int, language: str) -> str:
    # Each seat keeps its own cell in every place, so a colour is always found in one spot.
    x, y = geometry.cube_cells(place)[seat]
    stack = {
        **colour_chip(colour),
        "count": count,
        "x": x,
        "y": y,
        "drawn": min(count, STACK_DRAWN),
    }
    return str(_macros().stack(stack, _place(place, language).name, geometry.CUBE))


@lru_cache(maxsize=64)
def _king(place: str, language: str) -> str:
    x, y = geometry.token_cells(place)[0]
    return str(_macros().king(place, _place(place, language).name, x, y))


@lru_cache(maxsize=1024)
def _grande(place: str, slot: int, colour: str, language: str) -> str:
    x, y = geometry.token_cells(place)[slot]
    return str(_macros().grande({**colour_chip(colour), "x": x, "y": y}))


@lru_cache(maxsize=256)
def _legend(colours: tuple[str, ...], language: str) -> str:
    legend = [colour_chip(c) for c in colours]
    drawn = _macros().legend(
        legend, geometry.WIDTH, geometry.HEIGHT, geometry.MAP_BOTTOM, geometry.CUBE
    )
    return str(drawn).removesuffix("\n")


def board_svg(view: engine.View) -> Markup:
    """The board as an inline `<svg>` element, for `viewer`'s view: every place with its
    outline, label and pieces."""
    colours = tuple(view["colours"])
    mobile_at = {
        place: name for name, place in (view.get("mobile_scoreboards") or {}).items() if place
    }
    king = view.get("king")
    language = rendering_locale()  # the pieces with words are kept per language
    pieces = [_head(view.get("viewer"), language)]
    for place in PLACES:
        seen = view["castillo"] if place == CASTILLO else view["regions"][place]
        pieces.append(_place_open(place, language))
        scoreboard = "/".join(str(v) for v in seen["scoreboard"])
        pieces.append(_scoreboard(place, scoreboard, mobile_at.get(place)))
        caballeros = seen["caballeros"]
        for seat, colour in enumerate(colours):
            count = int(caballeros.get(colour, 0))
            if count > 0:
                pieces.append(_stack(place, seat, colour, count, language))
        if place != CASTILLO:
            # The king, if here, takes the first token cell; grandes follow in seat order.
            slot = 0
            if king == place:
                pieces.append(_king(place, language))
                slot = 1
            here = view["regions"][place]["grandes"]
            for colour in colours:
                if colour in here:
                    pieces.append(_grande(place, slot, colour, language))
                    slot += 1
        pieces.append("  </g>\n")
    pieces.append(_legend(colours, language))
    # Every piece was drawn by an autoescaping template: the whole is markup as it stands.
    return Markup("".join(pieces))


def panel_context(
    view: engine.View,
    names: Mapping[str, str] | None = None,
    deadlines: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What `web/_panel.html` needs. `names` maps colours to players' names;
    `deadlines` maps a pending player's colour to its deadline (ISO 8601)."""
    names = names or {}
    colours = list(view["colours"])
    players = view["players"]
    viewer = view.get("viewer")
    over = view.get("phase") == "over"
    pending_by = _pending_by_colour(view)
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
                "power_card": seen.get("power_card"),
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
            "deadline": _deadline((deadlines or {}).get(colour)),
        }
        for colour, kinds in pending_by.items()
    ]
    return {
        "round_number": view["round_number"],
        "rounds_total": view["rounds_total"],
        "phase": _named(PHASE_NAMES, view["phase"]) if view.get("phase") else "",
        "over": over,
        # In the game's own count of its rounds, as the mails say it.
        "scorings": words.scoring_rounds_line(view),
        "king_region": place_name(view["king"]) if view.get("king") else "",
        "action_cards": _action_cards(view["action_cards"]),
        "players": rows,
        # Apart from the rows: a power card played changes this line, not every row.
        "played": [
            {**colour_chip(c), "played": players[c].get("power_cards_played", [])} for c in colours
        ],
        "viewer": colour_chip(viewer) if viewer else None,
        "viewer_name": names.get(viewer, viewer) if viewer else None,
        "hand": hand,
        "pending": pending,
        "veto_holders": [
            {
                **colour_chip(v["player"]),
                "name": names.get(v["player"], v["player"]),
                "until": words.round_of_chart(view, v["expires"]),
            }
            for v in view.get("veto", {}).get("holders", [])
        ],
        "winners": [{**colour_chip(c), "name": names.get(c, c)} for c in view.get("winners", [])],
    }


def _deadline(iso: str | None) -> dict[str, str] | None:
    """A deadline as the page shows it (`moment_shown`)."""
    return None if iso is None else moment_shown(iso)


def moment_shown(moment: datetime | str) -> dict[str, str]:
    """A moment (a deadline, when words were said) as the page shows it: ISO 8601 for the
    script (which writes it in the reader's time zone), and in UTC, the zone named, for a
    page read without it (no player's zone is kept)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    # Stored in UTC; SQLite hands a moment back without its zone.
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return {"iso": moment.isoformat(), "text": wording.moment_text(moment)}


class ActionCardShown(TypedDict):
    """One stack's card on the panel: face up, or taken (`by` whom)."""

    stack: int
    card: str
    title: str
    by: Chip | None
    places: int  # the caballeros it places: its stack's number
    text: str


def _action_cards(cards: engine.ActionCardsView) -> list[ActionCardShown]:
    """The five stacks' cards in stack order: taken ones with who took them."""
    taken = {t["stack"]: t for t in cards["taken"]}
    face_up = {c["stack"]: c for c in cards["face_up"]}
    shown: list[ActionCardShown] = []
    for stack in sorted(set(taken) | set(face_up)):
        took = taken.get(stack)
        card = took["card"] if took else face_up[stack]["card"]
        shown.append(
            {
                "stack": stack,
                "card": card,
                "title": card_title(card),
                "by": colour_chip(took["player"]) if took else None,
                # What it does, as the mails say it (`pbem.words`).
                "places": stack,
                "text": wording.card_text(card),
            }
        )
    return shown


def _pending_by_colour(view: engine.View) -> dict[str, list[str]]:
    """Each pending colour's decisions, in words ("turn: choosing an action card")."""
    pending_by: dict[str, list[str]] = {}
    for item in view.get("pending", []):
        what = (
            _named(STEP_NAMES, item["step"])
            if item["kind"] == "turn" and item["step"]
            else _named(PENDING_NAMES, item["kind"])
        )
        pending_by.setdefault(item["player"], []).append(what)
    return pending_by


@cache
def _panel_macros() -> Any:
    return environment().get_template("web/_panel.html").module


_ROUND_FIELDS = (
    "round_number",
    "over",
    "winners",
    "rounds_total",
    "phase",
    "scorings",
    "king_region",
)


def panel_html(
    view: engine.View,
    names: Mapping[str, str] | None = None,
    deadlines: Mapping[str, str] | None = None,
) -> Markup:
    """The side panel: round, action cards, players, the viewer's hand, who must act. Each
    of its pieces (`web/_panel.html`) is kept per process by all it shows (`kept`): a move
    changes a few of them."""
    context = panel_context(view, names, deadlines)
    macros = _panel_macros()
    label = escape(_("The game"))
    pieces = [
        f'<aside class="panel" aria-label="{label}">\n',
        kept(macros.round, {key: context[key] for key in _ROUND_FIELDS}),
        "\n",
        kept(macros.pending, context["pending"]),
        "\n",
        kept(macros.action_cards, context["action_cards"]),
        "\n",
        kept(macros.players_head),
        *(kept(macros.player, p) for p in context["players"]),
        kept(macros.players_foot, context["played"]),
        "\n",
    ]
    if context["hand"] is not None:
        pieces.append(kept(macros.hand, context["viewer"], context["hand"]))
    pieces.append("\n")
    if context["veto_holders"]:
        pieces.append(kept(macros.veto, context["veto_holders"]))
    pieces.append("</aside>")
    # Every piece was drawn by an autoescaping template: the whole is markup as it stands.
    return Markup("".join(pieces))


@cache
def _words_macros() -> Any:
    return environment().get_template("web/_board_words.html").module


def board_in_words(view: engine.View) -> Markup:
    """The board as a table of words beside the map, for a reader who does not see the map:
    what the mail's text table says (`words.board_rows`), each colour with its letter."""
    board = board_rows(view)
    chips = [colour_chip(c) for c in board.colours]
    return Markup(str(_words_macros().board_in_words(board, chips)).strip())


def stylesheet() -> str:
    """The board's CSS (also served as a static file once pages exist)."""
    return (STATIC_DIR / "board.css").read_text(encoding="utf-8")


def standalone_page(
    view: engine.View,
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
