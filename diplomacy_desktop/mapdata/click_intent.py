"""Reading a click on the map by what the player meant (no Qt here).

A click names a space in this order:

1. a province's **name** (its label) names that province, wherever the label is drawn (the
   "Hel" label lies over Holland's and Kiel's waters; "Alb" over the Adriatic's), unless the
   name's province is not a legal target of the step being taken and the space under the
   pointer is one (a name moved clear of the units can stand in a neighbour: "Paris" over
   Burgundy must not turn a click on Burgundy, the legal target, into Paris);
2. otherwise the space under the pointer;
3. when some spaces are *lit* (the legal targets of the step being taken) and the space read so
   far is not one of them: a lit space within ``tolerance`` (a few screen pixels, in map units)
   of the click is taken instead (the nearest); failing that, when only one lit space lies within
   three times that distance, the click has one legal reading and is taken as it; and a
   split-coast province whose only lit part is one coast is taken as that coast.

:func:`coast_part` says which coast of a split-coast province a click fell on, when it fell
clearly nearer one coast than the other (Spain's south coast from a click in southern Spain).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Shapely is imported only when a click needs it (the window starts without it)
    from .geometry import MapGeometry

#: a click counts as "in one coast's part" when it is this many map units nearer that coast
COAST_MARGIN = 8.0

LabelRect = tuple[str, float, float, float, float]  # space, left, top, right, bottom (map units)


@dataclass(frozen=True, slots=True)
class ClickReading:
    """What a click names: ``space`` (a province, or a coast ``spa/sc``) and ``how`` it was read:
    ``"label"``, ``"space"``, ``"near"`` (a lit space a few pixels away) or ``"only"`` (the one lit
    coast of the province clicked).  ``under`` is the space under the pointer itself."""

    space: str | None
    how: str
    under: str | None = None


def label_at(labels: Iterable[LabelRect], x: float, y: float) -> str | None:
    """The space whose label's text covers ``(x, y)`` (the smallest label, if two overlap)."""
    best: tuple[float, str] | None = None
    for space, left, top, right, bottom in labels:
        if left <= x <= right and top <= y <= bottom:
            area = (right - left) * (bottom - top)
            if best is None or area < best[0]:
                best = (area, space)
    return best[1] if best else None


def read_click(geometry: MapGeometry, x: float, y: float, *, lit: AbstractSet[str] = frozenset(),
               labels: Iterable[LabelRect] = (), tolerance: float = 0.0) -> ClickReading:
    """Which space a click at ``(x, y)`` means (see the module's docstring)."""
    under = geometry.space_at(x, y)
    label = label_at(labels, x, y)
    if label is not None and not (label not in lit and under in lit):
        return ClickReading(label, "label", under)
    if under is None and not lit:
        return ClickReading(None, "space", under)
    if not lit or under in lit:
        return ClickReading(under, "space", under)
    if under is not None:
        coasts = [c for c in geometry.coasts_of(under) if c in lit]
        if len(coasts) == 1:
            return ClickReading(coasts[0], "only", under)
    around = lit_within(geometry, x, y, lit, 3 * tolerance)
    if around and around[0][0] <= tolerance:
        return ClickReading(around[0][1], "near", under)
    if len(around) == 1:
        return ClickReading(around[0][1], "only", under)
    return ClickReading(under, "space", under)


def lit_within(geometry: MapGeometry, x: float, y: float, lit: AbstractSet[str], distance: float
               ) -> list[tuple[float, str]]:
    """The lit spaces within ``distance`` map units of ``(x, y)``, nearest first, with their distances."""
    if distance <= 0:
        return []
    import shapely

    point = shapely.Point(x, y)
    found: list[tuple[float, str]] = []
    for space in sorted(lit):
        try:
            shape = geometry.polygon(space)
        except KeyError:
            continue
        d = float(shape.distance(point))
        if d <= distance:
            found.append((d, space))
    return sorted(found)


def nearest_lit(geometry: MapGeometry, x: float, y: float, lit: AbstractSet[str], tolerance: float) -> str | None:
    """The lit space nearest ``(x, y)`` if it is within ``tolerance`` map units, else None."""
    found = lit_within(geometry, x, y, lit, tolerance)
    return found[0][1] if found else None


def coast_part(geometry: MapGeometry, province: str, x: float, y: float, *, margin: float = COAST_MARGIN
               ) -> str | None:
    """The coast of ``province`` (``spa/sc``) whose part of the province ``(x, y)`` lies in: the coast
    nearer the click by at least ``margin`` map units.  None for a click about as near both coasts
    (the middle of Spain) and for a province with one coast."""
    coasts = geometry.coasts_of(province)
    if len(coasts) < 2:
        return None
    import shapely

    point = shapely.Point(x, y)
    ranked = sorted((float(geometry.polygon(c).distance(point)), c) for c in coasts)
    if ranked[1][0] - ranked[0][0] >= margin:
        return ranked[0][1]
    return None


__all__ = ["COAST_MARGIN", "ClickReading", "LabelRect", "coast_part", "label_at", "lit_within", "nearest_lit", "read_click"]
