"""The GUI tests' window harness: ``Table`` (a main window and the helpers a test needs to play
through it), the map geometry loaded once, fake time and sound for the clock, a scenario file's
text.  Plain classes and functions: the fixtures that make them are in ``conftest.py``.  Tests
import from here, never from ``conftest`` (with a ``conftest.py`` in ``table/`` too, the name
``conftest`` would mean whichever pytest loaded last)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from diplomacy_desktop.gui.controller import GameController  # noqa: E402
from diplomacy_desktop.gui.main_window import MainWindow, load_geometry  # noqa: E402
from diplomacy_desktop.mapdata import MapGeometry  # noqa: E402

_GEOMETRY: dict[str, MapGeometry] = {}


def shared_geometry(controller: GameController) -> MapGeometry:
    """The map geometry, loaded once for the whole test session."""
    key = controller.board.name
    if key not in _GEOMETRY:
        _GEOMETRY[key] = load_geometry(controller)
    return _GEOMETRY[key]


class Table:
    """A main window and the helpers a test needs to play through it."""

    def __init__(self, qtbot: object, window: MainWindow) -> None:
        self.qtbot = qtbot
        self.window = window
        self.controller = window.controller
        self.geometry = window.geometry_data

    # -- where things are --------------------------------------------------------------------

    def point_of(self, space: str) -> QPointF:
        """A point inside ``space``: where the window draws a unit there (its unit spot, or a split
        coast's; the map data's anchor, moved off a marker or a neighbour's unit: issue 34)."""
        return self.window.scene.anchor(space)

    def screen_point(self, scene_point: QPointF) -> QPoint:
        return self.window.view.mapFromScene(scene_point)

    # -- input -------------------------------------------------------------------------------

    def click(self, space: str, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
        """Click the map where the map data puts ``space`` (a unit there, if there is one)."""
        self.click_scene(self.point_of(space), button)

    def click_unit(self, province: str) -> None:
        """Click the unit drawn for ``province`` (also a dislodged one drawn beside its space)."""
        scene = self.window.scene
        item = scene.displaced_items.get(province) or scene.unit_items.get(province)
        assert item is not None, f"no unit drawn in {province}"
        self.click_scene(item.pos())

    def click_scene(self, point: QPointF, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
        pos = self.screen_point(point)
        assert self.window.view.viewport().rect().contains(pos), f"{point} is off the screen at {pos}"
        self.qtbot.mouseClick(self.window.view.viewport(), button, pos=pos)  # type: ignore[attr-defined]
        # as a player does, see the magnifier zoom in before the next click (it zooms once the
        # click's frame is drawn: tests/gui/test_name_images.py; here at once, nothing else happening)
        self.window.target_zoom.settle()

    def on_a_laptop(self) -> None:
        """The window at 1366x768, the whole board fitted in it."""
        self.window.resize(1366, 768)
        self.window.view.fit_to_window()
        QApplication.processEvents()

    def key(self, key: Qt.Key | str, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        self.qtbot.keyClick(self.window.view, key, modifier)  # type: ignore[attr-defined]

    def move(self, province: str, destination: str) -> None:
        self.click_unit(province)
        self.click(destination)

    def hold(self, province: str) -> None:
        self.click_unit(province)
        self.click_unit(province)

    def support(self, province: str, target: str, destination: str | None = None) -> None:
        self.click_unit(province)
        self.key("S")
        self.click_unit(target)
        if destination is None:
            self.click_unit(target)
        else:
            self.click(destination)

    def convoy(self, province: str, army: str, destination: str) -> None:
        self.click_unit(province)
        self.key("C")
        self.click_unit(army)
        self.click(destination)

    def orders(self, power: str) -> set[str]:
        from diplomacy_desktop.io.notation import format_order

        return {format_order(o) for o in self.controller.game.orders_of(power)}

    def adjudicate(self) -> None:
        self.key(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)


# -- orders ----------------------------------------------------------------------------------------

#: an order for each of the 22 units of Spring 1901 (bounces, a support, a convoy's fleet): a
#: phase whose results and explanations fill pages, and more than the Results panel shows
SPRING_1901_EVERY_UNIT = {
    "austria": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
    "england": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
    "france": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"],
    "germany": ["A Mun - Bur", "A Ber - Kie", "F Kie - Den"],
    "italy": ["A Ven - Tyr", "A Rom - Apu", "F Nap - Ion"],
    "russia": ["A War - Gal", "A Mos - Ukr", "F Sev - Bla", "F Stp/sc - Bot"],
    "turkey": ["A Con - Bul", "A Smy - Arm", "F Ank - Bla"],
}


# -- a scenario file for render and export -------------------------------------------------------

TWO_CASES = """\
CASE bounce and dislodge
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
    France: A par
    France: A mar
    Germany: A mun
    Germany: A bur
ORDERS
    France: A par - bur
    France: A mar S A par - bur
    Germany: A bur H
    Germany: A mun - ruh
END

CASE second
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE
    England: F nth
    England: A yor
ORDERS
    England: F nth C A yor - nwy
    England: A yor - nwy
END
"""


class FakeTime:
    """A time source for the clock's model that moves only when a test says so."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class FakeSound:
    def __init__(self) -> None:
        self.played = 0

    def play(self) -> None:
        self.played += 1
