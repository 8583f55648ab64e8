"""The drawing of the map must agree with the rules' map, and pieces must sit inside places."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.data import BORDERS, CASTILLO, REGIONS
from pbem.web import geometry
from pbem.web.geometry import Point


def edges(region: str) -> set[frozenset[str]]:
    names = geometry.REGION_OUTLINES[region]
    return {frozenset((a, b)) for a, b in zip(names, names[1:] + names[:1], strict=True)}


def segments(polygon: tuple[Point, ...]) -> list[tuple[Point, Point]]:
    return list(zip(polygon, polygon[1:] + polygon[:1], strict=True))


def inside(point: Point, polygon: tuple[Point, ...]) -> bool:
    """Strictly inside (ray casting); points on an edge may go either way, callers avoid them."""
    x, y = point
    hit = False
    for (x1, y1), (x2, y2) in segments(polygon):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def proper_crossing(p: tuple[Point, Point], q: tuple[Point, Point]) -> bool:
    """Whether two segments cross at a point inside both (touching at an end does not count)."""
    d1, d2 = cross(q[0], q[1], p[0]), cross(q[0], q[1], p[1])
    d3, d4 = cross(p[0], p[1], q[0]), cross(p[0], p[1], q[1])
    return d1 * d2 < 0 and d3 * d4 < 0


def place_polygon(place: str) -> tuple[Point, ...]:
    if place == CASTILLO:
        return geometry.CASTILLO_TOWER
    return geometry.region_polygon(place)


def box_inside(x: float, y: float, w: float, h: float, polygon: tuple[Point, ...]) -> bool:
    """A box is inside when its corners are and no edge of the polygon cuts through it."""
    corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    if not all(inside(c, polygon) for c in corners):
        return False
    return not any(
        proper_crossing(side, edge) for side in segments(corners) for edge in segments(polygon)
    )


def test_regions_that_border_share_an_edge_and_others_do_not_touch():
    borders = {frozenset(b) for b in BORDERS}
    assert len(borders) == 15
    for a, b in combinations(REGIONS, 2):
        shared_edges = edges(a) & edges(b)
        shared_vertices = set(geometry.REGION_OUTLINES[a]) & set(geometry.REGION_OUTLINES[b])
        if frozenset((a, b)) in borders:
            assert shared_edges, f"{a} and {b} border each other but share no edge"
        else:
            assert not shared_vertices, f"{a} and {b} do not border but touch at {shared_vertices}"


def test_each_edge_belongs_to_at_most_two_regions():
    seen: dict[frozenset[str], list[str]] = {}
    for region in REGIONS:
        for edge in edges(region):
            seen.setdefault(edge, []).append(region)
    assert all(len(owners) <= 2 for owners in seen.values()), seen


def test_regions_do_not_overlap():
    # No edge of one region crosses an edge of another, and no vertex lies inside another
    # region: with shared edges above, the regions tile the map without overlap.
    for a, b in combinations(REGIONS, 2):
        pa, pb = geometry.region_polygon(a), geometry.region_polygon(b)
        for p in segments(pa):
            for q in segments(pb):
                assert not proper_crossing(p, q), (a, b, p, q)
        assert not any(inside(v, pb) for v in pa if v not in pb), (a, b)
        assert not any(inside(v, pa) for v in pb if v not in pa), (a, b)


def test_each_region_outline_is_simple():
    for region in REGIONS:
        polygon = geometry.region_polygon(region)
        assert len(set(polygon)) == len(polygon), region
        sides = segments(polygon)
        for i, j in combinations(range(len(sides)), 2):
            assert not proper_crossing(sides[i], sides[j]), (region, i, j)


def centre(region: str) -> Point:
    polygon = geometry.region_polygon(region)
    return (
        sum(x for x, _ in polygon) / len(polygon),
        sum(y for _, y in polygon) / len(polygon),
    )


def test_the_map_reads_as_spain():
    c = {region: centre(region) for region in REGIONS}
    x = {r: p[0] for r, p in c.items()}
    y = {r: p[1] for r, p in c.items()}  # SVG y grows southwards
    assert x["galicia"] == min(x.values()) and y["galicia"] < y["new_castile"]
    assert y["basque_country"] == min(y.values())
    assert x["catalonia"] == max(x.values()) and y["catalonia"] < y["valencia"]
    assert x["valencia"] > x["new_castile"] and y["valencia"] > y["catalonia"]
    assert y["granada"] > y["new_castile"] and x["granada"] > x["seville"]
    assert y["seville"] > y["new_castile"] and x["seville"] < x["new_castile"]
    assert y["old_castile"] < y["new_castile"] < y["seville"]
    assert x["old_castile"] < x["aragon"] < x["catalonia"] and y["aragon"] < y["valencia"]
    # The Castillo stands off the map, to the south-east, in the sea.
    tower = geometry.CASTILLO_TOWER
    assert all(not inside(corner, geometry.region_polygon(r)) for r in REGIONS for corner in tower)
    assert min(px for px, _ in tower) > x["valencia"]


@pytest.mark.parametrize("place", [*REGIONS, CASTILLO])
def test_pieces_and_labels_sit_inside_their_place(place):
    polygon = place_polygon(place)
    for x, y in geometry.cube_cells(place):
        # The cell plus the count badge, which pokes out a little to the right and below.
        assert box_inside(x, y, geometry.CELL_W + 2, geometry.CELL_H, polygon), (place, x, y)
    for x, y in geometry.token_cells(place):
        assert box_inside(x, y, geometry.TOKEN, geometry.TOKEN, polygon), (place, x, y)
    lx, ly = geometry.LAYOUTS[place].label
    name_width = geometry.label_width(place)
    assert box_inside(lx - name_width / 2, ly - 18, name_width, 48, polygon), place


def test_pieces_do_not_overlap_each_other_or_the_label():
    for place in (*REGIONS, CASTILLO):
        lx, ly = geometry.LAYOUTS[place].label
        w = geometry.label_width(place)
        boxes = [(lx - w / 2, ly - 18, w, 48)]
        boxes += [(x, y, geometry.CELL_W, geometry.CELL_H) for x, y in geometry.cube_cells(place)]
        boxes += [(x, y, geometry.TOKEN, geometry.TOKEN) for x, y in geometry.token_cells(place)]
        for (ax, ay, aw, ah), (bx, by, bw, bh) in combinations(boxes, 2):
            apart = ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay
            assert apart, (place, (ax, ay), (bx, by))
