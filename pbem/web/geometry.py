"""The board's drawing as data: region outlines, where pieces and labels go, the Castillo.

The outline is our own rough sketch of Spain, drawn by hand from a few approximate coastal and
inland points given as (longitude, latitude) and projected onto the SVG plane. Regions are
polygons over shared named vertices, so two regions that border each other share an edge
exactly, and the adjacency test can compare the drawing with `engine.data.BORDERS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.data import PLACE_NAMES, REGIONS
from pbem.languages import N_

Point = tuple[float, float]

# The SVG canvas: Spain, a sea margin, the Castillo in the Mediterranean, a legend strip below.
WIDTH = 1290
HEIGHT = 1080
MAP_BOTTOM = 1030  # the legend strip starts here


def project(lon: float, lat: float) -> Point:
    """Longitude/latitude to SVG units; x is squeezed by about cos(40°) so Spain keeps its shape."""
    return (round((lon + 9.8) * 96.0, 1), round((44.1 - lat) * 124.0, 1))


# Every vertex of the map, by name. A vertex used by several regions is where they meet.
_LONLAT: dict[str, tuple[float, float]] = {
    # Galicia
    "finisterre": (-9.3, 42.9),
    "muros": (-9.1, 42.55),
    "vigo": (-8.85, 42.2),
    "minho": (-8.8, 41.87),
    "galicia_pt": (-7.6, 41.85),
    "sanabria": (-6.9, 41.95),  # galicia | old_castile | Portugal
    "ancares": (-6.85, 42.35),
    "leitariegos": (-6.8, 42.75),  # galicia | basque_country | old_castile
    "ribadeo": (-7.05, 43.55),  # galicia | basque_country on the coast
    "bares": (-7.7, 43.8),
    "coruna": (-8.4, 43.4),
    # The north coast (the Basque Country of the board runs from Asturias to the Pyrenees)
    "penas": (-5.85, 43.68),
    "llanes": (-4.7, 43.45),
    "santander": (-3.8, 43.5),
    "bilbao": (-2.95, 43.42),
    "hondarribia": (-1.8, 43.38),  # basque_country | aragon | France
    "picos": (-5.2, 42.6),
    "reinosa": (-4.1, 42.55),
    "miranda": (-3.1, 42.45),
    "ebro_head": (-2.55, 42.25),  # basque_country | aragon | old_castile
    "navarra": (-2.0, 42.65),
    # The Pyrenees
    "roncesvalles": (-1.3, 43.05),
    "somport": (-0.5, 42.8),
    "aran": (0.7, 42.85),  # aragon | catalonia | France
    "puigcerda": (1.9, 42.45),
    "creus": (3.35, 42.4),
    # The Mediterranean coast
    "palamos": (3.3, 41.8),
    "barcelona": (2.6, 41.3),
    "tarragona": (1.5, 40.9),
    "ebro_delta": (0.95, 40.5),  # catalonia | valencia on the coast
    "castellon": (-0.05, 39.95),
    "valencia_city": (-0.3, 39.45),
    "nao": (0.2, 38.75),
    "alicante": (-0.5, 38.3),
    "segura": (-0.75, 37.9),  # valencia | granada on the coast
    "cartagena": (-0.95, 37.55),
    "gata": (-2.05, 36.75),
    "motril": (-3.5, 36.72),
    "malaga": (-4.4, 36.68),
    "marbella": (-4.95, 36.48),  # granada | seville on the coast
    "gibraltar": (-5.4, 36.1),
    "tarifa": (-5.65, 36.0),
    "cadiz": (-6.3, 36.5),
    "donana": (-6.45, 36.85),
    "ayamonte": (-7.4, 37.15),  # seville | Portugal on the coast
    # The Portuguese border, south to north
    "guadiana": (-7.45, 37.65),
    "aracena": (-7.1, 38.1),  # seville | new_castile | Portugal
    "badajoz": (-7.05, 38.85),
    "alcantara": (-7.4, 39.6),
    "gata_sierra": (-6.9, 40.2),  # old_castile | new_castile | Portugal
    "ciudad_rodrigo": (-6.85, 40.9),
    "duero": (-6.3, 41.45),
    "miranda_duero": (-6.55, 41.75),
    # Inland
    "aragon_oc_1": (-2.75, 41.85),
    "moncayo": (-2.2, 41.5),
    "medinaceli": (-2.45, 41.05),  # aragon | old_castile | new_castile
    "somosierra": (-3.6, 41.15),
    "gredos": (-4.6, 40.55),
    "bejar": (-5.7, 40.3),
    "molina": (-2.0, 40.8),
    "cuenca": (-1.85, 40.25),  # aragon | new_castile | valencia
    "teruel": (-1.0, 40.35),
    "maestrazgo": (-0.35, 40.65),
    "montsant": (0.0, 40.75),  # aragon | catalonia | valencia
    "lleida": (0.3, 41.55),
    "ribagorza": (0.5, 42.25),
    "requena": (-1.95, 39.5),
    "almansa": (-1.75, 38.9),
    "yecla": (-1.6, 38.5),  # new_castile | valencia | granada
    "orihuela": (-1.2, 38.15),
    "segura_sierra": (-2.6, 38.35),
    "despenaperros": (-3.6, 38.35),
    "cardena": (-4.25, 38.25),  # new_castile | granada | seville
    "morena": (-5.5, 38.4),
    "llerena": (-6.4, 38.2),
    "subbetica": (-4.35, 37.45),
    "antequera": (-4.7, 36.95),
}

VERTICES: dict[str, Point] = {name: project(*ll) for name, ll in _LONLAT.items()}

# Each region's outline: vertex names in order round the polygon.
_OUTLINES: dict[str, str] = {
    "galicia": (
        "finisterre coruna bares ribadeo leitariegos ancares sanabria galicia_pt minho vigo muros"
    ),
    "basque_country": (
        "ribadeo penas llanes santander bilbao hondarribia navarra ebro_head miranda reinosa "
        "picos leitariegos"
    ),
    "aragon": (
        "hondarribia roncesvalles somport aran ribagorza lleida montsant maestrazgo teruel "
        "cuenca molina medinaceli moncayo aragon_oc_1 ebro_head navarra"
    ),
    "catalonia": (
        "aran puigcerda creus palamos barcelona tarragona ebro_delta montsant lleida ribagorza"
    ),
    "old_castile": (
        "leitariegos picos reinosa miranda ebro_head aragon_oc_1 moncayo medinaceli "
        "somosierra gredos bejar gata_sierra ciudad_rodrigo duero miranda_duero sanabria "
        "ancares"
    ),
    "new_castile": (
        "medinaceli molina cuenca requena almansa yecla segura_sierra despenaperros cardena "
        "morena llerena aracena badajoz alcantara gata_sierra bejar gredos somosierra"
    ),
    "seville": (
        "cardena subbetica antequera marbella gibraltar tarifa cadiz donana ayamonte guadiana "
        "aracena llerena morena"
    ),
    "granada": (
        "yecla orihuela segura cartagena gata motril malaga marbella antequera subbetica "
        "cardena despenaperros segura_sierra"
    ),
    "valencia": (
        "montsant ebro_delta castellon valencia_city nao alicante segura orihuela yecla "
        "almansa requena cuenca teruel maestrazgo"
    ),
}
REGION_OUTLINES: dict[str, tuple[str, ...]] = {r: tuple(v.split()) for r, v in _OUTLINES.items()}

# Land that is not in play, drawn grey so the map reads as the Iberian peninsula. Where it
# meets Spain it reuses the regions' vertices, so the two cannot drift apart.
_PORTUGAL_COAST = ((-8.65, 41.3), (-8.9, 40.6), (-9.4, 39.4), (-9.5, 38.75), (-8.9, 38.5))
_PORTUGAL_SOUTH = ((-8.8, 37.95), (-9.0, 37.05), (-8.0, 37.0))
_PORTUGAL_BORDER = "ayamonte guadiana aracena badajoz alcantara gata_sierra ciudad_rodrigo duero"
_PORTUGAL_NORTH = "miranda_duero sanabria galicia_pt minho"
_FRANCE_BORDER = "hondarribia roncesvalles somport aran puigcerda creus"
_FRANCE_NORTH = ((3.1, 43.1), (4.2, 43.5), (4.6, 44.4), (-1.4, 44.4))
LAND: dict[str, tuple[Point, ...]] = {
    "portugal": (
        *(project(*ll) for ll in _PORTUGAL_COAST + _PORTUGAL_SOUTH),
        *(VERTICES[v] for v in f"{_PORTUGAL_BORDER} {_PORTUGAL_NORTH}".split()),
    ),
    "france": (
        *(VERTICES[v] for v in _FRANCE_BORDER.split()),
        *(project(*ll) for ll in _FRANCE_NORTH),
    ),
}
LAND_LABELS: dict[str, tuple[str, Point]] = {
    "portugal": (N_("Portugal"), project(-8.25, 39.55)),
    "france": (N_("France"), project(0.6, 43.75)),
}

# Piece layout. A cell holds one colour's stack of caballeros; grandes and the king are smaller.
CELL_W = 42
CELL_H = 42
CUBE = 25
TOKEN = 34


@dataclass(frozen=True)
class Layout:
    """Where one place's label, scoreboard and pieces go (top-left corners, SVG units).

    `cubes` is the top-left of a grid of caballero cells, `cube_cols` cells per row (five
    colours at most); `tokens` is the top-left of the row for the king and the grandes.
    """

    label: Point
    cubes: Point
    cube_cols: int
    tokens: Point
    token_cols: int = 6


# Found by a search for the spot nearest each region's middle where everything fits, then
# fixed here; tests/web/test_geometry.py checks every cell still lies inside its place.
LAYOUTS: dict[str, Layout] = {
    "galicia": Layout(
        label=(182, 114), cubes=(103, 146), cube_cols=2, tokens=(193, 146), token_cols=2
    ),
    "basque_country": Layout(
        label=(440, 110), cubes=(525, 92), cube_cols=3, tokens=(657, 92), token_cols=2
    ),
    "aragon": Layout(
        label=(840, 239), cubes=(735, 271), cube_cols=5, tokens=(738, 315), token_cols=6
    ),
    "catalonia": Layout(
        label=(1068, 227), cubes=(989, 259), cube_cols=2, tokens=(1079, 259), token_cols=2
    ),
    "old_castile": Layout(
        label=(470, 263), cubes=(365, 295), cube_cols=5, tokens=(368, 339), token_cols=6
    ),
    "new_castile": Layout(
        label=(525, 520), cubes=(420, 552), cube_cols=5, tokens=(423, 596), token_cols=6
    ),
    "seville": Layout(
        label=(384, 765), cubes=(279, 797), cube_cols=5, tokens=(282, 841), token_cols=6
    ),
    "granada": Layout(
        label=(669, 762), cubes=(564, 794), cube_cols=5, tokens=(567, 838), token_cols=6
    ),
    "valencia": Layout(
        label=(840, 498), cubes=(777, 530), cube_cols=3, tokens=(789, 616), token_cols=3
    ),
    "castillo": Layout(
        label=(1153, 790), cubes=(1090, 835), cube_cols=3, tokens=(0, 0), token_cols=0
    ),
}


def _tower(left: float, right: float, top: float, bottom: float) -> tuple[Point, ...]:
    """A tower's outline: battlements (merlons 16 wide) on a wall, the body a little narrower."""
    merlon, notch, body_inset = 16.0, 14.0, 10.0
    wall = top + 40
    points: list[Point] = [(left, wall), (left, top)]
    x = left
    while x + merlon + notch + merlon <= right + 0.1:
        x += merlon
        points += [(x, top), (x, top + notch), (x + notch, top + notch), (x + notch, top)]
        x += notch
    points += [(right, top), (right, wall), (right - body_inset, wall)]
    points += [(right - body_inset, bottom), (left + body_inset, bottom), (left + body_inset, wall)]
    return tuple(points)


# The Castillo: a tower standing in the Mediterranean, off the map.
CASTILLO_TOWER: tuple[Point, ...] = _tower(1070, 1236, 700, 1000)

# Fills for the regions: pale, and far from every player colour, so pieces stand out.
REGION_FILLS: dict[str, str] = {
    "galicia": "#d9e8c4",
    "basque_country": "#cfe0d8",
    "aragon": "#eadcb8",
    "catalonia": "#e8cfc4",
    "old_castile": "#efe6c6",
    "new_castile": "#f3ddb0",
    "seville": "#e3d3e8",
    "granada": "#d6dcee",
    "valencia": "#f0d8c8",
}


def region_polygon(region: str) -> tuple[Point, ...]:
    """The outline of `region` as points, in drawing order."""
    return tuple(VERTICES[name] for name in REGION_OUTLINES[region])


def label_width(place: str) -> float:
    """About how wide a place's name is drawn (bold 19px: some 11 units a letter)."""
    return max(11.0 * len(PLACE_NAMES[place]), 72.0)


def svg_points(points: tuple[Point, ...]) -> str:
    """Points as an SVG `points` attribute."""
    return " ".join(f"{x:g},{y:g}" for x, y in points)


def cube_cells(place: str) -> list[Point]:
    """Top-left corners of the five caballero cells of `place`, one per seat colour slot."""
    layout = LAYOUTS[place]
    x0, y0 = layout.cubes
    return [
        (x0 + (i % layout.cube_cols) * CELL_W, y0 + (i // layout.cube_cols) * CELL_H)
        for i in range(5)
    ]


def token_cells(place: str) -> list[Point]:
    """Top-left corners of the cells for the king and up to five grandes in `place`."""
    layout = LAYOUTS[place]
    if not layout.token_cols:
        return []
    x0, y0 = layout.tokens
    return [
        (x0 + (i % layout.token_cols) * TOKEN, y0 + (i // layout.token_cols) * TOKEN)
        for i in range(6)
    ]


assert set(REGION_OUTLINES) == set(REGIONS)
