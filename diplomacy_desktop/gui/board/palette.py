"""Power colours, power letters and the army / fleet symbols drawn on the board.

The colours are Paul Tol's "bright" qualitative scheme, chosen to stay distinct for the common
forms of colour blindness (Germany takes a dark grey rather than Tol's light one, so that it is
also set apart by lightness).  Colour is never the only cue: every unit carries its power's
letter, and armies and fleets have different silhouettes.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainterPath


@dataclass(frozen=True, slots=True)
class PowerStyle:
    colour: str
    letter: str
    #: colour of the letter drawn on the unit (black or white, whichever reads better)
    ink: str


POWER_STYLES: dict[str, PowerStyle] = {
    "austria": PowerStyle("#EE6677", "A", "#000000"),
    "england": PowerStyle("#4477AA", "E", "#FFFFFF"),
    "france": PowerStyle("#66CCEE", "F", "#000000"),
    "germany": PowerStyle("#5F5F5F", "G", "#FFFFFF"),
    "italy": PowerStyle("#228833", "I", "#FFFFFF"),
    "russia": PowerStyle("#AA3377", "R", "#FFFFFF"),
    "turkey": PowerStyle("#CCBB44", "T", "#000000"),
}
_FALLBACK = PowerStyle("#BBBBBB", "?", "#000000")

OUTLINE = QColor("#1A1A1A")
SUCCESS_MARK = QColor("#1A1A1A")
FAILURE_MARK = QColor("#C00000")
HOVER_FILL = QColor(255, 255, 255, 70)
HOVER_EDGE = QColor(20, 20, 20, 200)
LIT_FILL = QColor(255, 236, 64, 110)
LIT_EDGE = QColor(160, 120, 0, 230)
SELECTED_EDGE = QColor("#FFD400")


def power_style(power: str | None) -> PowerStyle:
    return POWER_STYLES.get(power or "", _FALLBACK)


def power_colour(power: str | None) -> QColor:
    return QColor(power_style(power).colour)


def power_letter(power: str | None) -> str:
    return power_style(power).letter


def power_ink(power: str | None) -> QColor:
    return QColor(power_style(power).ink)


def army_path(size: float) -> QPainterPath:
    """An army token: a round disc (diameter ``size``) centred on the origin."""
    path = QPainterPath()
    path.addEllipse(QPointF(0, 0), size / 2, size / 2)
    return path


def fleet_path(size: float) -> QPainterPath:
    """A fleet token: a ship's hull, wider than tall, flat deck and a raked bow and stern."""
    w = size * 1.45
    h = size * 0.72
    top = -h / 2 + size * 0.12
    bottom = top + h
    hull = QPainterPath()
    hull.moveTo(-w / 2, top)
    hull.lineTo(w / 2 + size * 0.12, top - size * 0.10)  # raised bow
    hull.lineTo(w / 2 - h * 0.45, bottom)
    hull.lineTo(-w / 2 + h * 0.25, bottom)
    hull.closeSubpath()
    # a small funnel (superstructure) on the deck
    funnel = QPainterPath()
    funnel.addRect(QRectF(-size * 0.42, top - size * 0.30, size * 0.40, size * 0.32))
    return hull.united(funnel)


def unit_path(kind: str, size: float) -> QPainterPath:
    return fleet_path(size) if kind == "F" else army_path(size)


def unit_bounds(kind: str, size: float) -> QRectF:
    return unit_path(kind, size).boundingRect()


#: how strongly an owned supply centre's province is filled with its owner's colour (0 to 255): strong
#: enough to read across a table, light enough that the province's name and the units stay clear
OWNERSHIP_ALPHA = 150


def ownership_colour(power: str) -> QColor:
    """The fill of an owned supply centre's province."""
    colour = power_colour(power)
    colour.setAlpha(OWNERSHIP_ALPHA)
    return colour
