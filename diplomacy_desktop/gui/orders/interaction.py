"""Click-to-order: each step of giving an order by mouse is a small mode object.

A click on the map becomes a province (the unit drawn under the pointer, else the space the
map's hit-testing finds); the current mode decides what it means, asks the engine for the
legal options, and either moves to the next mode or files an order through the controller
(which pushes an undo command).  Only orders from the engine's option lists can be completed.

    Idle --click own unit--> UnitMode (move targets lit)
      UnitMode --click lit space--> order "A Par - Bur"
      UnitMode --click the unit again--> hold (or clears an existing order)
      UnitMode --S--> SupportMode (supportable units lit) --click unit--> SupportTargetMode
               (its destinations and its own space lit) --click--> support order
      UnitMode --C--> ConvoyMode (armies lit) --click army--> ConvoyTargetMode --click--> convoy
      RetreatMode (retreat phase): click lit space, or the unit again / D to disband
      BuildMode (adjustments): A army, F fleet (a coast prompt where there are two)
    Esc goes back one step; Delete clears the selected unit's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QObject, QPoint, QPointF, Qt, Signal
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QGraphicsLineItem, QMenu, QToolTip, QWidget

from ...table.changes import TableChange
from ...engine.board import ARMY, FLEET, province_of
from ...engine.errors import OrderError
from ...engine.game import order_key
from ...engine.options import build_options, unit_options
from ...engine.orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                              SupportMove)
from ...engine.state import ADJUSTMENT, MOVEMENT, RETREAT, GameState, Unit
from ...io.notation import format_order
from ..board.board_note import BoardNotes
from ..board.map_view import let_clicks_through_tips
from ..board.map_scene import MapScene, UnitItem
from ..controller import GameController

if TYPE_CHECKING:
    from ...mapdata.click_intent import ClickReading, LabelRect

#: a click this many screen pixels from a legal target is taken as it (see mapdata.click_intent)
NEAR_PX = 8.0
COAST_NAMES = {"nc": "north", "sc": "south", "ec": "east", "wc": "west"}
KIND_WORDS = {"H": "hold", "M": "move", "S": "support", "C": "convoy", "D": "disband", "A": "army", "F": "fleet"}


# -- modes ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mode:
    """A step of giving an order.  ``lit`` are the spaces (or coasts) a click may pick now."""

    lit: frozenset[str] = frozenset()
    hint: str = "Click a unit to give it an order."
    unit: str | None = None  # province of the selected unit (or build site)

    def back(self) -> Mode:
        return IDLE


IDLE = Mode()


@dataclass(frozen=True, slots=True)
class UnitMode(Mode):
    """A unit is selected; its move destinations are lit."""

    options: tuple[Order, ...] = ()


@dataclass(frozen=True, slots=True)
class _Step(Mode):
    """A later step of giving an order: the orders still possible, and Esc goes back a step."""

    options: tuple[Order, ...] = ()
    previous: Mode = IDLE

    def back(self) -> Mode:
        return self.previous


@dataclass(frozen=True, slots=True)
class _TargetStep(_Step):
    """A step once the supported or convoyed unit (``target``) is chosen."""

    target: str = ""


class SupportMode(_Step):
    """A unit to support: the units it could support are lit.

    (A step with no field of its own is a plain subclass, as an order kind is (engine.orders's
    ``Hold``): the dataclass's methods it inherits go by the instance's own class.)"""

    __slots__ = ()


class SupportTargetMode(_TargetStep):
    """Where the supported unit goes (or the unit itself, to support it holding)."""

    __slots__ = ()


class ConvoyMode(_Step):
    """A fleet to convoy: the armies it could carry are lit."""

    __slots__ = ()


class ConvoyTargetMode(_TargetStep):
    """Where the convoyed army lands."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class RetreatMode(Mode):
    options: tuple[Order, ...] = ()


@dataclass(frozen=True, slots=True)
class BuildMode(Mode):
    options: tuple[Order, ...] = ()


@dataclass(frozen=True, slots=True)
class CoastMode(Mode):
    """Pick the coast of a split-coast province (a build, or a fleet's move)."""

    options: tuple[Order, ...] = ()
    previous: Mode = IDLE
    extra: dict[str, Order] = field(default_factory=dict, hash=False, compare=False)

    def back(self) -> Mode:
        return self.previous


# -- the interaction ------------------------------------------------------------------------


def _provs(locations: Iterable[str]) -> frozenset[str]:
    return frozenset(province_of(x) for x in locations)


class OrderInteraction(QObject):
    """Turns clicks and keys on the map into orders for the controller."""

    hint_changed = Signal(str)
    message = Signal(str)
    mode_changed = Signal(object)

    def __init__(self, controller: GameController, scene: MapScene, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.scene = scene
        self.geometry = scene.geometry
        self.mode: Mode = IDLE
        #: pop up a small menu where a choice is needed (build kind, coast); keys work either way
        self.popup_menus = True
        self.menu_parent: QWidget | None = None
        self._last_click: QPointF | None = None
        self._hover_text: str | None = None
        self._menu: QMenu | None = None
        #: a refused click says why on the board, beside the click
        self.board_notes = BoardNotes(scene)
        #: how the last click was read (label, space, near, only)
        self.reading: ClickReading | None = None
        self._refused = False  # the last click was refused: clicking the unit again keeps it selected
        self._drag_line: QGraphicsLineItem | None = None
        #: a unit is being dragged (the magnifier leaves the board still)
        self.dragging = False
        self._labels: tuple[object, list[LabelRect]] | None = None  # label_rects, for the labels as placed
        controller.changed.connect(self._on_changed)

    # -- plumbing ----------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.controller.state

    def set_mode(self, mode: Mode) -> None:
        self.mode = mode
        self.scene.set_lit(mode.lit if mode is not IDLE else self.idle_lit())
        self.scene.set_selected_unit(mode.unit)
        self.hint_changed.emit(self.hint())
        self.mode_changed.emit(mode)

    def idle_lit(self) -> frozenset[str]:
        """With nothing selected: in adjustments, the centres where a build may still be given."""
        c = self.controller
        state = self.state
        if c.viewing is not None or state.phase.kind != ADJUSTMENT or c.ended is not None:
            return frozenset()
        lit: set[str] = set()
        for power in state.board.power_ids:
            if state.adjustment_delta(power) > 0 and c.can_order(power) and c.orders_missing(power) > 0:
                lit.update(o.province for o in build_options(state, power)
                           if isinstance(o, Build) and c.game.order_for(power, o.province) is None)
        return frozenset(lit)

    def hint(self) -> str:
        c = self.controller
        if c.viewing is not None:
            entry = c.viewed_entry
            label = entry.state.phase.label if entry else ""
            return f"Showing the results of {label}. Press End to go back to the current phase."
        if c.ended is not None:
            return c.ended.text
        if self.mode is IDLE:
            if not any(c.can_order(p) for p in c.board.power_ids):
                return "Orders are secret and written in turn: nobody is at the keyboard to give orders now."
            kind = self.state.phase.kind
            if kind == RETREAT:
                return "Retreats: click a dislodged unit (drawn beside its space), then where it retreats."
            if kind == ADJUSTMENT:
                return "Adjustments: click an empty home centre to build, or a unit to remove."
            return "Click a unit to give it an order (then H hold, S support, C convoy)."
        return self.mode.hint

    def _on_changed(self, record: TableChange) -> None:
        self.scene.set_hover(None)  # the next hover describes the space afresh
        if record.board_changed:
            self.set_mode(IDLE)
        elif record.orders:
            if self.mode is IDLE:
                self.scene.set_lit(self.idle_lit())
            self.hint_changed.emit(self.hint())

    def _say(self, text: str) -> None:
        self.message.emit(text)

    def _name(self, prov: str) -> str:
        space = self.controller.board.spaces.get(province_of(prov))
        name = space.name if space else prov
        coast = prov.partition("/")[2]
        return f"{name} ({coast})" if coast else name

    def _unit_text(self, prov: str) -> str:
        state = self.state
        unit = state.units.get(prov)
        if state.phase.kind == RETREAT:
            d = state.dislodged_in(prov)
            unit = d.unit if d else unit
        if unit is None:
            return self._name(prov)
        return f"{'army' if unit.kind == ARMY else 'fleet'} in {self._name(unit.location)}"

    def province_at(self, point: QPointF) -> str | None:
        """What a click at ``point`` names: the unit drawn there, else the space read by intent
        (a province's name names it; a click a few pixels off a lit target is that target)."""
        # not at the top: the package's __init__ loads Shapely, which the window starts without
        from ...mapdata.click_intent import ClickReading, label_at, read_click

        lit = self.scene.lit
        named = label_at(self.label_rects(), point.x(), point.y())
        if named is not None and named in lit:
            # a name is drawn above the units: on a legal target's name, the name counts
            self.reading = ClickReading(named, "label", self.geometry.space_at(point.x(), point.y()))
            return named
        item = self.unit_at(point)
        if item is not None:
            self.reading = ClickReading(item.province, "unit", item.province)
            return item.province
        self.reading = read_click(self.geometry, point.x(), point.y(), lit=lit, labels=self.label_rects(),
                                  tolerance=self.near_distance())
        space = self.reading.space
        return province_of(space) if space is not None else None

    def unit_at(self, point: QPointF) -> UnitItem | None:
        """The unit drawn under ``point``: its whole disc counts (an arrowhead or a name drawn over it
        does not take its click); a dislodged unit first, else the nearest."""
        found = self.scene.unit_item_at(point)
        if found is not None and found.displaced:
            return found
        best: tuple[float, UnitItem] | None = None
        items = list(self.scene.displaced_items.values()) + list(self.scene.unit_items.values())
        for item in items:
            d = (item.pos() - point).manhattanLength() / 1.41
            if d <= item.size * 0.55 and (best is None or d < best[0] or (item.displaced and not best[1].displaced)):
                best = (d, item)
        if best is not None:
            return best[1]
        return found

    def label_rects(self) -> list[LabelRect]:
        """The text of every province's name on the board, in map units."""
        scene = self.scene
        # labels move only as they grow or shrink, and for a unit standing in their province
        key = (getattr(scene, "label_factor", 0.0), getattr(scene, "unit_size", 0.0),
               tuple(sorted(getattr(scene, "unit_items", {}))), getattr(scene, "labels_key", None))
        if self._labels is not None and self._labels[0] == key:
            return self._labels[1]
        out: list[LabelRect] = []
        for space, item in getattr(scene, "label_items", {}).items():
            if not item.isVisible():
                continue
            r = item.mapRectToScene(item.text_rect())
            out.append((space, r.left(), r.top(), r.right(), r.bottom()))
        self._labels = (key, out)
        return out

    def near_distance(self) -> float:
        """``NEAR_PX`` screen pixels in map units at the view's scale."""
        scale = getattr(self.scene, "view_scale", 0.0) or 1.0
        return NEAR_PX / scale

    def _refuse(self, text: str) -> None:
        """A click that gives no order: why, in the status line and on the board beside the click;
        the selection stays as it was (a retry on the unit does not become a hold)."""
        self._say(text)
        if self._last_click is not None:
            self.board_notes.show(text, self._last_click)
        self._refused = True

    def _file(self, order: Order) -> bool:
        try:
            self.controller.set_order(order)
        except OrderError as exc:
            self._say(str(exc))
            return False
        self._say(f"{self.controller.power_name(order.power)}: {format_order(order)}")
        return True

    # -- input -------------------------------------------------------------------------------

    def click_at(self, point: QPointF, button: object = Qt.MouseButton.LeftButton) -> None:
        """A click on the map at ``point`` (scene coordinates)."""
        self._last_click = point
        refused_before, self._refused = self._refused, False
        self.board_notes.clear()
        if button == Qt.MouseButton.RightButton:
            self.context_menu_at(point)
            return
        c = self.controller
        if c.viewing is not None:
            self._say("You are looking at an earlier phase: press End to go back and give orders.")
            return
        if c.ended is not None:
            self._say(c.ended.text)
            return
        prov = self.province_at(point)
        if prov is None:
            self.set_mode(IDLE)
            return
        mode = self.mode
        if isinstance(mode, UnitMode):
            if prov == mode.unit and refused_before:
                self._refuse(f"The {self._unit_text(prov)} is still selected: click where it goes, "
                             "or press H to hold.")
                return
            self._click_unit_mode(mode, prov, point)
        elif isinstance(mode, SupportMode):
            self._click_support(mode, prov)
        elif isinstance(mode, SupportTargetMode):
            self._click_support_target(mode, prov)
        elif isinstance(mode, ConvoyMode):
            self._click_convoy(mode, prov)
        elif isinstance(mode, ConvoyTargetMode):
            self._click_convoy_target(mode, prov)
        elif isinstance(mode, RetreatMode):
            self._click_retreat(mode, prov, point)
        elif isinstance(mode, CoastMode):
            self._click_coast(mode, prov, point)
        else:
            self._click_idle(prov, point)

    # -- drag and drop (one gesture per move, as in jDip) -----------------------------------------

    def can_drag_from(self, point: QPointF) -> bool:
        """May a drag start at ``point``: a unit there that may be ordered now (a move, or a retreat)."""
        c = self.controller
        if c.viewing is not None or c.ended is not None:
            return False
        item = self.unit_at(point)
        if item is None:
            return False
        kind = self.state.phase.kind
        if kind == MOVEMENT and not item.displaced:
            return c.can_order(item.unit.power)
        if kind == RETREAT and item.displaced:
            return c.can_order(item.unit.power)
        return False

    def drag_to(self, start: QPointF, now: QPointF) -> None:
        """A unit is being dragged: a line from it to the pointer, and its targets lit."""
        item = self.unit_at(start)
        if item is None:
            return
        self.dragging = True
        if self.mode.unit != item.province or not isinstance(self.mode, (UnitMode, RetreatMode)):
            self.set_mode(IDLE)
            self._click_idle(item.province, start)
        if self._drag_line is None:
            from PySide6.QtGui import QPen

            self._drag_line = QGraphicsLineItem()
            pen = QPen(QColor(20, 20, 20, 200), 4.0)
            pen.setCosmetic(True)
            pen.setStyle(Qt.PenStyle.DashLine)
            self._drag_line.setPen(pen)
            self._drag_line.setZValue(55)
            self._drag_line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.scene.addItem(self._drag_line)
        self._drag_line.setLine(QLineF(item.pos(), now))

    def drop(self, start: QPointF, end: QPointF) -> None:
        """A unit dragged from ``start`` and let go at ``end``: the move (or retreat) there."""
        if self._drag_line is not None:
            self.scene.removeItem(self._drag_line)
            self._drag_line = None
        self.dragging = True
        try:
            self._drop(start, end)
        finally:
            self.dragging = False

    def _drop(self, start: QPointF, end: QPointF) -> None:
        item = self.unit_at(start)
        if item is None:
            return
        prov = item.province
        if self.mode.unit != prov or not isinstance(self.mode, (UnitMode, RetreatMode)):
            self.set_mode(IDLE)
            self._click_idle(prov, start)
        if not isinstance(self.mode, (UnitMode, RetreatMode)):
            return
        if self.province_at(end) == prov:
            return  # let go where it stands: nothing is ordered, the unit stays selected
        self._refused = False
        self.click_at(end)

    def key(self, letter: str) -> bool:
        """An order-kind key (H M S C D A F) or a build choice; returns True if used."""
        letter = letter.upper()
        mode = self.mode
        if isinstance(mode, CoastMode) and letter in "NSEW":
            chosen = next((o for loc, o in mode.extra.items() if loc.endswith("/" + letter.lower() + "c")), None)
            if chosen is not None:
                self._menu_file(chosen)
                return True
            self._say("That is not one of the coasts offered.")
            return True
        if isinstance(mode, BuildMode) and letter in "NSEW":
            chosen = next((o for o in mode.options if isinstance(o, Build)
                           and o.location.endswith("/" + letter.lower() + "c")), None)
            if chosen is None:
                self._say("No fleet can be built on that coast here.")
            else:
                self._menu_file(chosen)
            return True
        if isinstance(mode, BuildMode) or (isinstance(mode, CoastMode) and letter in "AF"):
            return self._key_build(mode, letter)
        if isinstance(mode, RetreatMode):
            if letter == "D":
                self._retreat_disband(mode)
                return True
            return False
        unit_mode = self._base_unit_mode(mode)
        if unit_mode is None:
            if letter in "HMSC" and mode is IDLE:
                self._say("Click a unit first, then press the key of the order.")
            return False
        if letter == "H":
            hold = next((o for o in unit_mode.options if isinstance(o, Hold)), None)
            if hold is not None and self._file(hold):
                self.set_mode(IDLE)
            return True
        if letter == "M":
            self.set_mode(unit_mode)
            return True
        if letter == "S":
            self._enter_support(unit_mode)
            return True
        if letter == "C":
            self._enter_convoy(unit_mode)
            return True
        return False

    def back(self) -> None:
        """Esc: one step back."""
        if self._menu is not None:
            self._menu.close()
        self.set_mode(self.mode.back())

    def delete(self) -> None:
        """Delete: withdraw the selected unit's order."""
        prov = self.mode.unit
        if prov is None:
            self._say("Select a unit first (click it), then Delete clears its order.")
            return
        power = self.owner_of(prov)
        if power is not None:
            removed = self.controller.clear_order(power, prov)
            if removed is not None:
                self._say(f"cleared {format_order(removed)}")
        self.set_mode(IDLE)

    def select_unit(self, province: str) -> None:
        """Select the unit in ``province`` as if it had been clicked (order panel, keyboard)."""
        if self.controller.viewing is not None:
            return
        self.set_mode(IDLE)
        self._click_idle(province, None)

    def owner_of(self, prov: str) -> str | None:
        state = self.state
        if state.phase.kind == RETREAT:
            d = state.dislodged_in(prov)
            return d.unit.power if d else None
        if state.phase.kind == ADJUSTMENT and prov not in state.units:
            space = state.board.spaces.get(prov)
            return space.home if space else None
        unit = state.units.get(prov)
        return unit.power if unit else None

    def _base_unit_mode(self, mode: Mode) -> UnitMode | None:
        while True:
            if isinstance(mode, UnitMode):
                return mode
            if mode is IDLE or not hasattr(mode, "previous"):
                return None
            mode = mode.previous

    # -- idle --------------------------------------------------------------------------------

    def _click_idle(self, prov: str, point: QPointF | None) -> None:
        state = self.state
        c = self.controller
        kind = state.phase.kind
        if kind == MOVEMENT:
            unit = state.units.get(prov)
            if unit is None:
                self.set_mode(IDLE)
                return
            if not c.can_order(unit.power):
                self._say(f"That is a unit of {c.power_name(unit.power)}; it is not their turn to order.")
                self.set_mode(IDLE)
                return
            self.set_mode(self._unit_mode(prov))
        elif kind == RETREAT:
            d = state.dislodged_in(prov)
            if d is None or not c.can_order(d.unit.power):
                if d is None:
                    self._say("Only dislodged units (drawn beside their space) move in the retreat phase.")
                self.set_mode(IDLE)
                return
            options = tuple(unit_options(state, prov))
            targets = [o.destination for o in options if isinstance(o, Retreat)]
            where = "click a lit space to retreat there, " if targets else "it has nowhere to go: "
            self.set_mode(RetreatMode(_provs(targets), f"Retreat the {self._unit_text(prov)}: {where}"
                                      "click the unit again or press D to disband. Esc: cancel.", prov, options))
        else:
            self._click_adjustment(prov, point)

    def _unit_mode(self, prov: str) -> UnitMode:
        options = tuple(unit_options(self.state, prov))
        moves = [o for o in options if isinstance(o, Move)]
        lit = _provs(o.destination for o in moves)
        power = self.owner_of(prov) or ""
        has = self.controller.order_for(power, prov)
        current = f" (now: {format_order(has)})" if has is not None else ""
        again = "clear its order" if has is not None else "hold"
        return UnitMode(lit, f"{self.controller.power_name(power)} {self._unit_text(prov)}{current}: click a lit "
                        f"space to move; H hold, S support, C convoy; click the unit again to {again}; Esc cancel.",
                        prov, options)

    # -- moves -------------------------------------------------------------------------------

    def _click_unit_mode(self, mode: UnitMode, prov: str, point: QPointF) -> None:
        assert mode.unit is not None
        power = self.owner_of(mode.unit) or ""
        if prov == mode.unit:
            if self.controller.order_for(power, prov) is not None:
                self.controller.clear_order(power, prov)
                self._say(f"order of the {self._unit_text(prov)} cleared")
                self.set_mode(IDLE)
                return
            hold = next((o for o in mode.options if isinstance(o, Hold)), None)
            if hold is not None and self._file(hold):
                self.set_mode(IDLE)
            return
        if prov in mode.lit:
            moves = [o for o in mode.options if isinstance(o, Move) and province_of(o.destination) == prov]
            direct = [o for o in moves if not o.via_convoy]
            moves = direct or moves
            self._finish_with_coast(moves, prov, point, mode, lambda o: o.destination)
            return
        other = self.state.units.get(prov)
        if other is not None and self.controller.can_order(other.power):
            self.set_mode(self._unit_mode(prov))
            return
        self._refuse(f"The {self._unit_text(mode.unit)} cannot move to {self._name(prov)}.")

    def _finish_with_coast(self, candidates: Sequence[Order], prov: str, point: QPointF | None, previous: Mode,
                           location_of: object) -> None:
        """File the one candidate; where several differ by coast, take the coast clicked or ask."""
        if not candidates:
            return
        if len(candidates) == 1:
            if self._file(candidates[0]):
                self.set_mode(IDLE)
            return
        get = location_of
        by_coast = {get(o): o for o in candidates}  # type: ignore[operator]
        # a province's name means the province, not the coast whose part it happens to be drawn in
        named = self.reading is not None and self.reading.how == "label"
        if point is not None and self.geometry.coasts_of(prov) and not named:
            from ...mapdata.click_intent import coast_part

            part = coast_part(self.geometry, prov, point.x(), point.y())
            coast = part or self.geometry.coast_at(point.x(), point.y(), prov)
            near = part is not None or self._near_coast(point, prov, coast)
            if coast in by_coast and near:
                if self._file(by_coast[coast]):
                    self.set_mode(IDLE)
                return
        coasts = frozenset(by_coast)
        keys = " / ".join(loc.partition("/")[2][0].upper() for loc in sorted(by_coast))
        self.set_mode(CoastMode(coasts, f"{self._name(prov)} has two coasts: click the lit coast you mean, press "
                                f"{keys}, or pick it from the menu. Esc: back.", previous.unit,
                                tuple(candidates), previous, dict(by_coast)))
        self._coast_menu(by_coast)

    def _near_coast(self, point: QPointF, prov: str, coast: str | None) -> bool:
        """Was the click on (or right by) the coast strip, rather than inland?"""
        if coast is None:
            return False
        try:
            shape = self.geometry.polygon(coast)
        except KeyError:
            return False
        from shapely import Point

        return bool(shape.distance(Point(point.x(), point.y())) <= 12.0)

    def _click_coast(self, mode: CoastMode, prov: str, point: QPointF) -> None:
        coasts = list(mode.extra)
        if province_of(coasts[0]) == prov:
            read = self.reading.space if self.reading is not None else None
            coast = read if read in mode.extra else self.geometry.coast_at(point.x(), point.y(), prov)
            if coast in mode.extra and self._file(mode.extra[coast]):
                self.set_mode(IDLE)
            return
        self._refuse("Click one of the lit coasts, or press Esc.")

    # -- supports ----------------------------------------------------------------------------

    def _enter_support(self, mode: UnitMode) -> None:
        supports = tuple(o for o in mode.options if isinstance(o, (SupportHold, SupportMove)))
        if not supports:
            self._say(f"The {self._unit_text(mode.unit or '')} has nobody it could support.")
            return
        lit = _provs(o.target for o in supports)
        self.set_mode(SupportMode(lit, f"Support: click the unit the {self._unit_text(mode.unit or '')} supports. "
                                  "Esc: back.", mode.unit, supports, mode))

    def _click_support(self, mode: SupportMode, prov: str) -> None:
        if prov not in mode.lit:
            self._refuse(f"The {self._unit_text(mode.unit or '')} cannot support a unit in {self._name(prov)}.")
            return
        options = tuple(o for o in mode.options if province_of(o.target) == prov)  # type: ignore[attr-defined]
        lit = _provs(o.destination for o in options if isinstance(o, SupportMove))
        if any(isinstance(o, SupportHold) for o in options):
            lit = lit | {prov}
        self.set_mode(SupportTargetMode(lit, f"Support the {self._unit_text(prov)}: click where it moves, or the "
                                        "unit itself to support it holding. Esc: back.", mode.unit, options, mode,
                                        target=prov))

    def _click_support_target(self, mode: SupportTargetMode, prov: str) -> None:
        if prov == mode.target:
            hold = next((o for o in mode.options if isinstance(o, SupportHold)), None)
            if hold is not None and self._file(hold):
                self.set_mode(IDLE)
            elif hold is None:
                self._say("That unit cannot be supported to hold from here.")
            return
        move = next((o for o in mode.options if isinstance(o, SupportMove) and province_of(o.destination) == prov),
                    None)
        if move is None:
            self._refuse(f"The support cannot go to {self._name(prov)}.")
            return
        if self._file(move):
            self.set_mode(IDLE)

    # -- convoys -----------------------------------------------------------------------------

    def _enter_convoy(self, mode: UnitMode) -> None:
        convoys = tuple(o for o in mode.options if isinstance(o, Convoy))
        if not convoys:
            unit = self.state.units.get(mode.unit or "")
            why = "only fleets at sea convoy" if unit is None or unit.kind != FLEET or not \
                self.controller.board.is_sea(unit.province) else "no army could be convoyed through it"
            self._say(f"The {self._unit_text(mode.unit or '')} cannot convoy: {why}.")
            return
        lit = _provs(o.target for o in convoys)
        self.set_mode(ConvoyMode(lit, "Convoy: click the army to carry. Esc: back.", mode.unit, convoys, mode))

    def _click_convoy(self, mode: ConvoyMode, prov: str) -> None:
        if prov not in mode.lit:
            self._refuse(f"The fleet cannot convoy a unit in {self._name(prov)}.")
            return
        options = tuple(o for o in mode.options if province_of(o.target) == prov)  # type: ignore[attr-defined]
        lit = _provs(o.destination for o in options)  # type: ignore[attr-defined]
        self.set_mode(ConvoyTargetMode(lit, f"Convoy the {self._unit_text(prov)}: click where it lands. Esc: back.",
                                       mode.unit, options, mode, target=prov))

    def _click_convoy_target(self, mode: ConvoyTargetMode, prov: str) -> None:
        order = next((o for o in mode.options if province_of(o.destination) == prov), None)  # type: ignore[attr-defined]
        if order is None:
            self._refuse(f"The army cannot be convoyed to {self._name(prov)} through this fleet.")
            return
        if self._file(order):
            self.set_mode(IDLE)

    # -- retreats ----------------------------------------------------------------------------

    def _click_retreat(self, mode: RetreatMode, prov: str, point: QPointF) -> None:
        if prov == mode.unit:
            self._retreat_disband(mode)
            return
        if prov in mode.lit:
            candidates = [o for o in mode.options if isinstance(o, Retreat) and province_of(o.destination) == prov]
            self._finish_with_coast(candidates, prov, point, mode, lambda o: o.destination)
            return
        d = self.state.dislodged_in(prov)
        if d is not None and self.controller.can_order(d.unit.power):
            self.set_mode(IDLE)
            self._click_idle(prov, point)
            return
        self._refuse(f"The {self._unit_text(mode.unit or '')} cannot retreat to {self._name(prov)}.")

    def _retreat_disband(self, mode: RetreatMode) -> None:
        disband = next((o for o in mode.options if isinstance(o, Disband)), None)
        if disband is not None and self._file(disband):
            self.set_mode(IDLE)

    # -- adjustments -------------------------------------------------------------------------

    def _click_removal(self, unit: Unit) -> None:
        """A click on a unit in the adjustments: remove it, or keep it when its removal is already written."""
        c = self.controller
        prov = unit.province
        if self.state.adjustment_delta(unit.power) >= 0:
            self._say(f"{c.power_name(unit.power)} has no units to remove.")
        elif not c.can_order(unit.power):
            return
        elif isinstance(c.order_for(unit.power, prov), Remove):
            c.clear_order(unit.power, prov)
            self._say(f"the {self._unit_text(prov)} stays")
        else:
            self._file(Remove(unit.power, unit.kind, unit.location))

    def _click_adjustment(self, prov: str, point: QPointF | None) -> None:
        state = self.state
        c = self.controller
        unit = state.units.get(prov)
        if unit is not None:
            self._click_removal(unit)
            return
        space = state.board.spaces.get(prov)
        power = space.home if space else None
        if power is None:
            if space is not None and space.centre:
                self._refuse(f"{self._name(prov)} is not a home supply centre: a power builds only in its own "
                             "home centres (rules XIII.2).")
            elif self.scene.lit:
                self._refuse("Builds go only in a power's own home supply centres (rules XIII.2): "
                             "click a lit centre.")
            self.set_mode(IDLE)
            return
        if not c.can_order(power):
            if state.adjustment_delta(power) > 0:
                self._refuse(f"{self._name(prov)} is a home centre of {c.power_name(power)}; "
                             "it is not their turn to order.")
            self.set_mode(IDLE)
            return
        options = tuple(o for o in build_options(state, power) if isinstance(o, Build) and o.province == prov)
        if not options:
            if state.owners.get(prov) != power:
                self._refuse(f"{self._name(prov)} is not controlled by {c.power_name(power)}: no build there "
                             "(rules XIII.2).")
            elif state.adjustment_delta(power) <= 0:
                self._refuse(f"{c.power_name(power)} has no builds.")
            elif prov in state.units:
                self._refuse(f"{self._name(prov)} is occupied: a build needs an empty home centre (rules XIII.2).")
            return
        existing = c.order_for(power, prov)
        if existing is not None:
            c.clear_order(power, prov)
            self._say(f"build in {self._name(prov)} withdrawn")
            self.set_mode(IDLE)
            return
        if len(options) == 1:
            self._file(options[0])
            self.set_mode(IDLE)
            return
        fleets = [o for o in options if o.unit_kind == FLEET]
        coasts = [o.location.partition("/")[2] for o in fleets if "/" in o.location]
        fleet_keys = (" / ".join(c[0].upper() for c in coasts) + " fleet on the " + " / ".join(
            COAST_NAMES.get(c, c) for c in coasts) + " coast") if coasts else "F fleet"
        kinds = f"A army, {fleet_keys}" if any(o.unit_kind == ARMY for o in options) else fleet_keys
        self.set_mode(BuildMode(frozenset({prov}), f"Build in {self._name(prov)}: {kinds} "
                                "(or pick from the menu). Esc: cancel.", prov, options))
        self._build_menu(options)

    def _key_build(self, mode: Mode, letter: str) -> bool:
        options: tuple[Order, ...] = getattr(mode, "options", ())
        if letter == "A":
            army = next((o for o in options if isinstance(o, Build) and o.unit_kind == ARMY), None)
            if army is None:
                self._say("No army can be built there.")
                return True
            if self._file(army):
                self.set_mode(IDLE)
            return True
        if letter == "F":
            fleets = [o for o in options if isinstance(o, Build) and o.unit_kind == FLEET]
            if not fleets:
                self._say("No fleet can be built there: it has no coast.")
                return True
            prov = fleets[0].province
            self._finish_with_coast(fleets, prov, None, mode, lambda o: o.location)
            return True
        return False

    # -- menus -------------------------------------------------------------------------------

    def _popup(self, actions: list[tuple[str, object]]) -> None:
        if not self.popup_menus or self.menu_parent is None:
            return
        if self._menu is not None:
            self._menu.close()
        menu = QMenu(self.menu_parent)
        for text, fn in actions:
            act = QAction(text, menu)
            act.triggered.connect(lambda _checked=False, fn=fn: fn())
            menu.addAction(act)
        self._menu = menu
        menu.aboutToHide.connect(self._menu_closed)
        from PySide6.QtGui import QCursor

        menu.popup(QCursor.pos())

    def _menu_closed(self) -> None:
        self._menu = None

    def _build_menu(self, options: tuple[Order, ...]) -> None:
        actions: list[tuple[str, object]] = []
        for o in options:
            assert isinstance(o, Build)
            coast = o.location.partition("/")[2]
            if o.unit_kind == ARMY:
                label = "Build an &army"
            elif coast:
                name = COAST_NAMES.get(coast, coast)
                label = f"Build a fleet on the &{name} coast"
            else:
                label = f"Build a &fleet ({self._name(o.location)})"
            actions.append((label, lambda o=o: self._menu_file(o)))
        self._popup(actions)

    def _coast_menu(self, by_coast: dict[str, Order]) -> None:
        self._popup([(f"{format_order(o)}  (&{loc.partition('/')[2][0].upper()})", lambda o=o: self._menu_file(o))
                     for loc, o in by_coast.items()])

    def _menu_file(self, order: Order) -> None:
        if self._file(order):
            self.set_mode(IDLE)

    def context_menu_at(self, point: QPointF) -> None:
        """Right click: the order kinds for the unit there (Hold, Move, Support, Convoy, Clear)."""
        prov = self.province_at(point)
        if prov is None or self.controller.viewing is not None:
            return
        if self.mode.unit != prov:
            self.set_mode(IDLE)
            self._click_idle(prov, point)
        mode = self.mode
        if isinstance(mode, UnitMode):
            self._popup(self.unit_menu_actions(mode))
        elif isinstance(mode, RetreatMode):
            self._popup([("Disband (D)", lambda: self.key("D")), ("Cancel (Esc)", self.back)])

    def unit_menu_actions(self, mode: UnitMode) -> list[tuple[str, object]]:
        """The right-click menu of a selected unit: Convoy only for a fleet at sea."""
        actions: list[tuple[str, object]] = [
            ("Hold (H)", lambda: self.key("H")), ("Move (M)", lambda: self.key("M")),
            ("Support (S)", lambda: self.key("S"))]
        unit = self.state.units.get(mode.unit or "")
        if unit is not None and unit.kind == FLEET and self.controller.board.is_sea(unit.province):
            actions.append(("Convoy (C)", lambda: self.key("C")))
        actions.append(("Clear order (Delete)", self.delete))
        return actions

    # -- hover -------------------------------------------------------------------------------

    def hover_at(self, point: QPointF, global_pos: QPoint | None = None, widget: QWidget | None = None) -> str | None:
        """Highlight the space under ``point`` (the space named, over a name) and return (and show)
        its tooltip text."""
        from ...mapdata.click_intent import label_at

        space = label_at(self.label_rects(), point.x(), point.y()) or self.geometry.space_at(point.x(), point.y())
        if space == self.scene.hovered:
            return self._hover_text
        self.scene.set_hover(space)
        if space is None:
            self._hover_text = None
            QToolTip.hideText()
            return None
        self._hover_text = self.describe_space(space)
        if global_pos is not None:
            show_tip_over_map(global_pos, self._hover_text, widget)
        return self._hover_text

    def describe_space(self, space: str) -> str:
        """Name, owner and unit of a space (and the unit's order, if it may be shown)."""
        c = self.controller
        board = c.board
        state = c.viewed_state
        sp = board.spaces.get(space)
        lines = [sp.name if sp else space]
        if sp is not None and sp.centre:
            owner = state.owners.get(space)
            lines.append(f"supply centre of {c.power_name(owner)}" if owner else "supply centre, not owned")
        elif sp is not None and sp.kind == "sea":
            lines.append("sea")
        unit = state.units.get(space)
        if unit is not None:
            lines.append(f"{board.power(unit.power).adjective} {'army' if unit.kind == ARMY else 'fleet'}"
                         + (f" ({unit.location.partition('/')[2]})" if "/" in unit.location else ""))
        d = state.dislodged_in(space)
        if d is not None:
            lines.append(f"dislodged {board.power(d.unit.power).adjective} "
                         f"{'army' if d.unit.kind == ARMY else 'fleet'}, must retreat")
        entry = c.viewed_entry
        if entry is not None:
            for r in entry.results:
                if getattr(r.order, "province", None) == space:
                    lines.append(f"{format_order(r.order)}: {r.reason}")
        else:
            power = unit.power if unit is not None else (d.unit.power if d is not None else None)
            if power is not None and c.can_see(power):
                order = c.game.order_for(power, order_key_for(space))
                if order is not None:
                    lines.append(f"order: {format_order(order)}")
        return "\n".join(lines)


def order_key_for(province: str) -> str:
    return province_of(province)


__all__ = [
    "IDLE", "BuildMode", "CoastMode", "ConvoyMode", "ConvoyTargetMode", "Mode", "OrderInteraction",
    "RetreatMode", "SupportMode", "SupportTargetMode", "UnitMode", "order_key",
]


def show_tip_over_map(global_pos: QPoint, text: str, widget: QWidget | None) -> None:
    """Show the hovered space's tooltip beside the pointer, letting clicks through to the map: the
    tip stands where the next click often goes (the neighbour below and right of the unit just
    clicked), and a click on it only closed it, saying nothing (issue 34, seen playing by mouse
    at 1366x768: France's click on "Bur" after A Paris was selected gave no order)."""
    QToolTip.showText(global_pos, text, widget)
    let_clicks_through_tips()
