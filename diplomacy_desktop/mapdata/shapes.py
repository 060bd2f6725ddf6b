"""What a map's SVG holds, as plain Shapely values, and how it is read.

The SVG is read with svgelements (group transforms applied), then each space element
becomes a Shapely polygon.  Conventions (see the comment at the top of the SVG):

* a space is a shape whose ``class`` is ``land``, ``coast``, ``sea`` or ``impassable``; its
  ``id`` is the canonical space id;
* a split coast is a shape of class ``split-coast`` with id ``<province>_<coast>``; its
  canonical id is ``<province>/<coast>``;
* ``<circle id="anchor_<id>">`` is a unit anchor, ``<circle id="sc_<id>">`` a supply-centre
  marker (both by their centre), ``<text id="label_<id>">`` a label (its point is
  ``(x, y - 0.35 * font-size)``, the middle of the text).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import reduce
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

SPACE_CLASSES = frozenset({"land", "coast", "sea", "impassable"})
SPLIT_COAST_CLASS = "split-coast"

Point2 = tuple[float, float]


def canonical_id(svg_id: str) -> str:
    """``stp_nc`` -> ``stp/nc``; a province id is unchanged."""
    return svg_id.replace("_", "/")


def svg_id(canonical: str) -> str:
    """``stp/nc`` -> ``stp_nc``."""
    return canonical.replace("/", "_")


class MapFileError(ValueError):
    """The map SVG cannot be read or is not a board."""


@dataclass(frozen=True, slots=True)
class MapShapes:
    """Everything the app takes from a map SVG, keyed by canonical ids."""

    view_box: tuple[float, float, float, float]
    spaces: Mapping[str, BaseGeometry]
    kinds: Mapping[str, str]
    coasts: Mapping[str, BaseGeometry]
    anchors: Mapping[str, Point2]
    labels: Mapping[str, Point2]
    centres: Mapping[str, Point2]

    # -- (de)serialisation for the load cache ------------------------------------------------
    def to_json(self) -> str:
        def wkb(g: BaseGeometry) -> str:
            return base64.b64encode(shapely.to_wkb(g)).decode("ascii")

        data: dict[str, Any] = {
            "view_box": list(self.view_box),
            "spaces": {k: wkb(v) for k, v in sorted(self.spaces.items())},
            "kinds": dict(sorted(self.kinds.items())),
            "coasts": {k: wkb(v) for k, v in sorted(self.coasts.items())},
            "anchors": {k: list(v) for k, v in sorted(self.anchors.items())},
            "labels": {k: list(v) for k, v in sorted(self.labels.items())},
            "centres": {k: list(v) for k, v in sorted(self.centres.items())},
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> MapShapes:
        data = json.loads(text)

        def geoms(d: Mapping[str, str]) -> dict[str, BaseGeometry]:
            keys = list(d)
            values = shapely.from_wkb([base64.b64decode(d[k]) for k in keys])
            return dict(zip(keys, values, strict=True))

        def points(d: Mapping[str, list[float]]) -> dict[str, Point2]:
            return {k: (float(v[0]), float(v[1])) for k, v in d.items()}

        x, y, w, h = (float(v) for v in data["view_box"])
        return cls(
            view_box=(x, y, w, h),
            spaces=geoms(data["spaces"]),
            kinds=dict(data["kinds"]),
            coasts=geoms(data["coasts"]),
            anchors=points(data["anchors"]),
            labels=points(data["labels"]),
            centres=points(data["centres"]),
        )


def _rings_of(element: Any) -> list[list[Point2]]:
    """The closed rings of an svgelements shape, curves sampled, transforms applied."""
    from svgelements import Close, Line, Move
    from svgelements import Path as SvgPath

    path = element if isinstance(element, SvgPath) else SvgPath(element)
    rings: list[list[Point2]] = []
    current: list[Point2] = []
    for seg in path.segments():
        if isinstance(seg, Move):
            if len(current) >= 3:
                rings.append(current)
            current = [(float(seg.end.x), float(seg.end.y))]
        elif isinstance(seg, Close):
            if len(current) >= 3:
                rings.append(current)
            current = []
        elif isinstance(seg, Line):
            current.append((float(seg.end.x), float(seg.end.y)))
        else:  # curves: sample them
            for i in range(1, 9):
                p = seg.point(i / 8)
                current.append((float(p.x), float(p.y)))
    if len(current) >= 3:
        rings.append(current)
    return rings


def element_polygon(element: Any, what: str) -> BaseGeometry:
    """An svgelements shape as a (multi)polygon: its rings combined by the even-odd rule."""
    polys = [Polygon(r) for r in _rings_of(element)]
    polys = [p if p.is_valid else shapely.make_valid(p) for p in polys]
    if not polys:
        raise MapFileError(f"{what}: the shape has no area")
    geom = reduce(lambda a, b: a.symmetric_difference(b), polys)
    if not isinstance(geom, Polygon | MultiPolygon):
        parts = [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon | MultiPolygon)]
        geom = shapely.union_all(parts)
    return geom


def _point_of(element: Any) -> Point2:
    from svgelements import Matrix

    matrix = Matrix(element.transform)
    p = matrix.point_in_matrix_space((float(element.cx), float(element.cy)))
    return (float(p.x), float(p.y))


def _label_point(element: Any) -> Point2:
    from svgelements import Matrix

    size = float(element.font_size or 0.0)
    matrix = Matrix(element.transform)
    p = matrix.point_in_matrix_space((float(element.x), float(element.y) - 0.35 * size))
    return (float(p.x), float(p.y))


def read_svg(path: Path) -> MapShapes:
    """Parse a map SVG with svgelements into :class:`MapShapes` (slow: cache the result)."""
    from svgelements import SVG, Circle, Shape, Text

    try:
        svg = SVG.parse(str(path))
    except (OSError, ValueError, SyntaxError) as exc:  # ElementTree.ParseError is a SyntaxError
        raise MapFileError(f"cannot read map SVG {path}: {exc}") from exc
    vb = svg.viewbox
    if vb is None:
        view_box = (0.0, 0.0, float(svg.width), float(svg.height))
    else:
        view_box = (float(vb.x), float(vb.y), float(vb.width), float(vb.height))
    spaces: dict[str, BaseGeometry] = {}
    kinds: dict[str, str] = {}
    coasts: dict[str, BaseGeometry] = {}
    anchors: dict[str, Point2] = {}
    labels: dict[str, Point2] = {}
    centres: dict[str, Point2] = {}
    duplicates: list[str] = []
    for element in svg.elements():
        eid = element.values.get("id") if hasattr(element, "values") else None
        if not eid:
            continue
        cls = str(element.values.get("class", "")).split()
        if isinstance(element, Circle) and eid.startswith("anchor_"):
            anchors[canonical_id(eid.removeprefix("anchor_"))] = _point_of(element)
        elif isinstance(element, Circle) and eid.startswith("sc_"):
            centres[eid.removeprefix("sc_")] = _point_of(element)
        elif isinstance(element, Text) and eid.startswith("label_"):
            labels[eid.removeprefix("label_")] = _label_point(element)
        elif isinstance(element, Shape) and SPLIT_COAST_CLASS in cls:
            cid = canonical_id(eid)
            if cid in coasts:
                duplicates.append(eid)
            coasts[cid] = element_polygon(element, eid)
        elif isinstance(element, Shape) and SPACE_CLASSES.intersection(cls):
            if eid in spaces:
                duplicates.append(eid)
            spaces[eid] = element_polygon(element, eid)
            kinds[eid] = next(c for c in cls if c in SPACE_CLASSES)
    if duplicates:
        raise MapFileError(f"{path.name}: ids used more than once: {', '.join(sorted(duplicates))}")
    return MapShapes(view_box, spaces, kinds, coasts, anchors, labels, centres)
