"""The sandbox's set-up palette: a power and a tool, then one click on the map per unit.

A toolbar over the map: the seven powers (one is always chosen) and the tools *Menu* (a click
opens the set-up menu of the space), *Army*, *Fleet* (on a split coast, the coast nearest the
click), *Remove*, *Centre owner* (a click gives the centre to the chosen power, a second click
makes it neutral) and *Standoff* (a retreat lesson: the space was left empty by a standoff, so
no unit may retreat there, rules XI), and *Clear board*.  Choosing a tool switches set-up on.
The palette only says what was chosen: the sandbox mode (``SandboxMode.paint``) makes the edit,
through the same checks as the menu, as one undo step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QAction, QActionGroup, QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QToolBar, QToolButton, QWidget

from ...engine.board import ARMY, FLEET, Board
from ..board.palette import power_colour

if TYPE_CHECKING:
    from .sandbox import SandboxMode

#: the tools, in the order shown: (id, text, tip)
MENU, REMOVE, OWNER, STANDOFF = "menu", "remove", "owner", "standoff"
TOOLS: tuple[tuple[str, str, str], ...] = (
    (MENU, "Menu", "A click on a space opens its set-up menu (place, remove, owner, dislodged unit)"),
    (ARMY, "Army", "A click places an army of the chosen power (it replaces a unit standing there)"),
    (FLEET, "Fleet", ("A click places a fleet of the chosen power; on Spain, Bulgaria or St Petersburg "
                     "on the coast nearest the click")),
    (REMOVE, "Remove", "A click removes the unit there (or the dislodged unit, or the standoff mark)"),
    (OWNER, "Centre owner", "A click gives the supply centre to the chosen power; a second click makes it neutral"),
    (STANDOFF, "Standoff", ("Retreat phase: a click marks a space left empty by a standoff, where no unit may "
                           "retreat (rules XI); a second click takes the mark away")),
)


def power_icon(board: Board, power: str, size: int = 18) -> QIcon:
    """A square in the power's colour with its unit letter, as the units are drawn."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = power_colour(power)
    painter.setBrush(colour)
    painter.setPen(QColor(20, 20, 20))
    painter.drawRoundedRect(QRectF(0.5, 0.5, size - 1, size - 1), 3, 3)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(int(size * 0.62))
    painter.setFont(font)
    painter.setPen(QColor(255, 255, 255) if colour.lightnessF() < 0.55 else QColor(0, 0, 0))
    painter.drawText(QRectF(0, 0, size, size), int(Qt.AlignmentFlag.AlignCenter), board.power(power).name[:1])
    painter.end()
    return QIcon(pix)


class SetupPaletteBar(QToolBar):
    """The palette (see the module documentation)."""

    def __init__(self, mode: SandboxMode, parent: QWidget) -> None:
        super().__init__("Set-up palette", parent)
        self.setObjectName("SetupPalette")
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setMovable(False)
        # the chosen power and tool stand out at a glance (the style's own "checked" is faint)
        self.setStyleSheet("#SetupPalette QToolButton:checked { background: #D6E6FF; border: 2px solid #1F5FBF; "
                           "border-radius: 4px; font-weight: bold; }")
        self.mode = mode
        board = mode.board
        self.powers = QActionGroup(self)
        self.powers.setExclusive(True)
        self.power_actions: dict[str, QAction] = {}
        for p in board.power_ids:
            act = QAction(power_icon(board, p), board.power(p).name, self)
            act.setCheckable(True)
            act.setData(p)
            act.setToolTip(f"Units and centres placed with the palette are {board.power(p).adjective}")
            self.powers.addAction(act)
            self.addAction(act)
            self.power_actions[p] = act
        self.power_actions[board.power_ids[0]].setChecked(True)
        self.addSeparator()
        self.tools = QActionGroup(self)
        self.tools.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        for tool, text, tip in TOOLS:
            act = QAction(text, self)
            act.setCheckable(True)
            act.setData(tool)
            act.setToolTip(tip)
            act.setStatusTip(tip)
            self.tools.addAction(act)
            self.addAction(act)
            self.tool_actions[tool] = act
        self.tool_actions[MENU].setChecked(True)
        self.tools.triggered.connect(self._tool_chosen)
        self.powers.triggered.connect(self._power_chosen)
        self.addSeparator()
        self.addAction(mode.act_clear)
        for act in (*self.power_actions.values(), *self.tool_actions.values(), mode.act_clear):
            button = self.widgetForAction(act)
            if isinstance(button, QToolButton):
                button.setObjectName(f"Palette_{act.data() or 'clear'}")
                button.setAutoRaise(False)

    @property
    def power(self) -> str:
        act = self.powers.checkedAction()
        return str(act.data()) if act is not None else self.mode.board.power_ids[0]

    @property
    def tool(self) -> str:
        act = self.tools.checkedAction()
        return str(act.data()) if act is not None else MENU

    def choose(self, tool: str | None = None, power: str | None = None) -> None:
        """Choose a tool and / or a power (as a click on their buttons does)."""
        if power is not None:
            self.power_actions[power].setChecked(True)
            self._power_chosen(self.power_actions[power])
        if tool is not None:
            self.tool_actions[tool].setChecked(True)
            self._tool_chosen(self.tool_actions[tool])

    def _tool_chosen(self, act: QAction) -> None:
        if not self.mode.setup:
            self.mode.set_setup(True)
        self.mode.palette_changed()

    def _power_chosen(self, _act: QAction) -> None:
        if not self.mode.setup and self.tool != MENU:
            self.mode.set_setup(True)
        self.mode.palette_changed()
