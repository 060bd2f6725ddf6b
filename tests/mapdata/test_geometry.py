"""The shipped standard board SVG against the rules data, read exactly as the app reads it.

Borders: two spaces are adjacent on the map when they share at least ``MIN_BORDER`` px of
border; spaces the rules keep apart may share at most ``MAX_TOUCH`` px (a corner).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from diplomacy_desktop.mapdata import MapGeometry, MapGeometryError, standard_map_path
from diplomacy_desktop.mapdata.shapes import element_polygon

MIN_BORDER = 3.0
MAX_TOUCH = 1.0
OVERLAP_TOLERANCE = 0.5  # px^2


def _board() -> dict:
    path = standard_map_path().with_name("standard.toml")
    return tomllib.loads(path.read_text(encoding="utf-8"))


BOARD = _board()
SPACES: dict[str, dict] = BOARD["spaces"]
IMPASSABLE = {s for s, d in SPACES.items() if d["kind"] == "impassable"}
SEAS = sorted(s for s, d in SPACES.items() if d["kind"] == "sea")
CENTRES = sorted(s for s, d in SPACES.items() if d.get("centre"))
COASTS = {
    f"{s}/{c}": sorted(
        t.split("/")[0] for t in cd.get("fleet", []) if SPACES[t.split("/")[0]]["kind"] == "sea"
    )
    for s, d in SPACES.items()
    for c, cd in d.get("coasts", {}).items()
}


def _rules_pairs() -> set[frozenset[str]]:
    pairs: set[frozenset[str]] = set()
    for sid, d in SPACES.items():
        targets = list(d.get("army", [])) + list(d.get("fleet", []))
        for cd in d.get("coasts", {}).values():
            targets += cd.get("fleet", [])
        for t in targets:
            pairs.add(frozenset({sid, t.split("/")[0]}))
    return pairs


RULES_PAIRS = _rules_pairs()


def shared_border(a: BaseGeometry, b: BaseGeometry) -> float:
    """Length of a's outline that runs along b."""
    return float(a.boundary.intersection(b.buffer(0.25)).length)


@pytest.fixture(scope="module")
def geometry() -> MapGeometry:
    # The SVG itself, parsed with svgelements (no cache), with the board's ids checked.
    ids = list(SPACES) + list(COASTS)
    return MapGeometry.load(standard_map_path(), ids, cache=False)


@pytest.fixture(scope="module")
def borders(geometry: MapGeometry) -> dict[frozenset[str], float]:
    ids = sorted(geometry.space_ids)
    polys = [geometry.polygon(s) for s in ids]
    tree = shapely.STRtree(polys)
    out: dict[frozenset[str], float] = {}
    for i, a in enumerate(ids):
        for j in tree.query(polys[i].buffer(0.5)):
            b = ids[int(j)]
            if b > a:
                out[frozenset({a, b})] = shared_border(polys[i], polys[int(j)])
    return out


def test_geometry_every_board_space_has_exactly_one_shape(geometry: MapGeometry) -> None:
    # read_svg refuses duplicate ids, so one shape per id; here: the sets are equal.
    assert sorted(geometry.space_ids) == sorted(SPACES)
    assert sorted(geometry.coast_ids) == sorted(COASTS)


def test_geometry_every_shape_is_a_space(geometry: MapGeometry) -> None:
    unknown = [s for s in geometry.space_ids if s not in SPACES]
    assert unknown == []
    assert len(COASTS) == 6


def test_geometry_class_is_the_space_kind(geometry: MapGeometry) -> None:
    wrong = {s: geometry.kind(s) for s in geometry.space_ids if geometry.kind(s) != SPACES[s]["kind"]}
    assert wrong == {}


def test_geometry_polygons_are_valid_and_not_empty(geometry: MapGeometry) -> None:
    for sid in list(geometry.space_ids) + list(geometry.coast_ids):
        poly = geometry.polygon(sid)
        assert poly.is_valid, sid
        assert poly.area > 20, sid


def test_geometry_spaces_do_not_overlap(geometry: MapGeometry) -> None:
    ids = sorted(geometry.space_ids)
    polys = [geometry.polygon(s) for s in ids]
    tree = shapely.STRtree(polys)
    overlaps = []
    for i, j in zip(*tree.query(polys, predicate="intersects"), strict=True):
        if i < j:
            area = polys[int(i)].intersection(polys[int(j)]).area
            if area > OVERLAP_TOLERANCE:
                overlaps.append((ids[int(i)], ids[int(j)], round(area, 2)))
    assert overlaps == []


def test_geometry_split_coasts_lie_in_their_province_apart_from_each_other(geometry: MapGeometry) -> None:
    for cid in geometry.coast_ids:
        province = geometry.polygon(cid.split("/")[0])
        assert geometry.polygon(cid).difference(province).area <= OVERLAP_TOLERANCE, cid
    for prov in {c.split("/")[0] for c in COASTS}:
        a, b = (geometry.polygon(c) for c in geometry.coasts_of(prov))
        assert a.intersection(b).area <= OVERLAP_TOLERANCE, prov


def test_geometry_supply_centre_markers_inside_their_space(geometry: MapGeometry) -> None:
    assert list(geometry.centre_ids) == CENTRES
    outside = [s for s in CENTRES if not geometry.polygon(s).contains(Point(geometry.centre_point(s)))]
    assert outside == []


def test_geometry_borders_iff_rules_adjacent(borders: dict[frozenset[str], float]) -> None:
    wanted = {p for p in RULES_PAIRS if not p & IMPASSABLE}
    assert len(wanted) == 206
    considered = {p: ln for p, ln in borders.items() if not p & IMPASSABLE}
    missing = sorted("-".join(sorted(p)) for p in wanted if considered.get(p, 0.0) < MIN_BORDER)
    extra = sorted("-".join(sorted(p)) for p, ln in considered.items() if p not in wanted and ln > MAX_TOUCH)
    assert missing == []
    assert extra == []


def test_geometry_impassable_space_is_drawn_but_apart(borders: dict[frozenset[str], float]) -> None:
    # Switzerland has no adjacencies in the rules; it is on the map between its neighbours.
    assert all(not (p & IMPASSABLE) for p in RULES_PAIRS)
    assert any(p & IMPASSABLE and ln > MIN_BORDER for p, ln in borders.items())


def test_geometry_split_coasts_touch_exactly_their_seas(geometry: MapGeometry) -> None:
    for cid, seas in sorted(COASTS.items()):
        strip = geometry.polygon(cid)
        touching = sorted(s for s in SEAS if shared_border(strip, geometry.polygon(s)) >= MIN_BORDER)
        assert touching == seas, cid
        near = sorted(
            s for s in SEAS if s not in seas and shared_border(strip, geometry.polygon(s)) > MAX_TOUCH
        )
        assert near == [], cid


def test_geometry_label_point_hits_its_space(geometry: MapGeometry) -> None:
    wrong = {s: geometry.space_at(*geometry.label_point(s)) for s in SPACES}
    assert {s: hit for s, hit in wrong.items() if hit != s} == {}


def test_geometry_unit_anchor_hits_its_space(geometry: MapGeometry) -> None:
    wrong = {s: geometry.space_at(*geometry.unit_anchor(s)) for s in SPACES}
    assert {s: hit for s, hit in wrong.items() if hit != s} == {}


def test_geometry_coast_anchor_is_on_its_own_coast(geometry: MapGeometry) -> None:
    for cid in COASTS:
        prov = cid.split("/")[0]
        x, y = geometry.unit_anchor(cid)
        assert geometry.space_at(x, y) == prov, cid
        assert geometry.coast_at(x, y, prov) == cid


def test_geometry_coast_at_picks_the_nearest_coast(geometry: MapGeometry) -> None:
    nc = geometry.polygon("spa/nc").representative_point()
    sc = geometry.polygon("spa/sc").representative_point()
    assert geometry.coast_at(nc.x, nc.y, "spa") == "spa/nc"
    assert geometry.coast_at(sc.x, sc.y, "spa") == "spa/sc"
    assert geometry.coast_at(*geometry.label_point("par"), "par") is None


def test_geometry_open_sea_returns_that_sea(geometry: MapGeometry) -> None:
    for sea in SEAS:
        centre = shapely.Point(geometry.unit_anchor(sea))
        # A point well inside the sea, away from every coast.
        assert geometry.polygon(sea).buffer(-5).contains(centre), sea
        assert geometry.space_at(centre.x, centre.y) == sea


def test_geometry_decorative_islands_return_no_space(geometry: MapGeometry) -> None:
    from svgelements import SVG, Shape

    svg = SVG.parse(str(standard_map_path()))
    islands = {
        str(e.values["id"]): element_polygon(e, "island")
        for e in svg.elements()
        if isinstance(e, Shape) and str(e.values.get("id", "")).startswith("island_")
    }
    for name in ("island_ireland", "island_iceland", "island_corsica", "island_sardinia", "island_crete"):
        assert name in islands, name
        p = islands[name].representative_point()
        assert geometry.space_at(p.x, p.y) is None, name


def test_geometry_points_off_every_shape_return_none(geometry: MapGeometry) -> None:
    w, h = geometry.size
    assert geometry.space_at(-10, -10) is None
    assert geometry.space_at(w + 10, h / 2) is None


def test_geometry_load_names_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(MapGeometryError, match=r"no shape for atl, stp/wc"):
        MapGeometry.load(standard_map_path(), [*SPACES, "atl", "stp/wc"], cache_dir=tmp_path)


def test_geometry_cache_gives_the_same_shapes(tmp_path: Path, geometry: MapGeometry) -> None:
    first = MapGeometry.load(standard_map_path(), cache_dir=tmp_path)
    assert len(list(tmp_path.iterdir())) == 1
    cached = MapGeometry.load(standard_map_path(), cache_dir=tmp_path)
    for sid in list(geometry.space_ids) + list(geometry.coast_ids):
        assert cached.polygon(sid).equals_exact(geometry.polygon(sid), 1e-9), sid
        assert first.polygon(sid).equals_exact(geometry.polygon(sid), 1e-9), sid
    assert cached.shapes.anchors == geometry.shapes.anchors
    assert cached.shapes.labels == geometry.shapes.labels
    assert cached.shapes.centres == geometry.shapes.centres
    assert cached.view_box == geometry.view_box


def test_geometry_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    MapGeometry.load(standard_map_path(), cache_dir=tmp_path)
    (cache_file,) = tmp_path.iterdir()
    cache_file.write_text("{not json", encoding="utf-8")
    again = MapGeometry.load(standard_map_path(), cache_dir=tmp_path)
    assert again.space_at(*again.label_point("par")) == "par"


def test_geometry_view_box_is_landscape(geometry: MapGeometry) -> None:
    x, y, w, h = geometry.view_box
    assert (x, y) == (0, 0)
    assert w > h > 500


def test_geometry_mapdata_imports_no_qt() -> None:
    code = "import sys, diplomacy_desktop.mapdata; print(any(m.startswith('PySide6') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
