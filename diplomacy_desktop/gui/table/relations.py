"""Formal Diplomacy (seed 003): the relations panel, who is allied, neutral or at war with whom.

``RelationsDock`` shows the current relation of every pair of powers as a matrix (colour and
word in every cell, readable on a 1366x768 screen) with the allied and warring pairs listed
beneath it, and the relations' history by turn: the relations each movement phase was played
with, read from the game's history (a movement phase's position carries the relations its
declarations made), then the phase being played.  It follows the controller: a reveal of the
declarations, an undo, a new or opened game.

Only revealed relations are ever shown here: declarations sealed behind the curtain live in the
table (``table.declarations``) until the reveal, and this panel never reads them.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QFrame, QHeaderView, QLabel, QScrollArea,
                               QTableWidget, QTableWidgetItem, QTextBrowser, QWidget)

from ...table.changes import TableChange
from ...engine.formal import ALLIANCE, NEUTRAL, WAR, Relations
from ...engine.state import MOVEMENT
from ..board.palette import power_colour, power_ink
from ..controller import GameController
from ..widgets import GameDock, titled_column

#: a relation's colour (cell background) and ink, and how the panel names it
RELATION_COLOURS = {ALLIANCE: QColor("#2e7d32"), NEUTRAL: QColor("#e3e6ea"), WAR: QColor("#b71c1c")}
RELATION_INKS = {ALLIANCE: QColor("#ffffff"), NEUTRAL: QColor("#37474f"), WAR: QColor("#ffffff")}
RELATION_WORDS = {ALLIANCE: "allied", NEUTRAL: "neutral", WAR: "at war"}
#: the word in a matrix cell (short: seven columns share a panel)
CELL_WORDS = {ALLIANCE: "Ally", NEUTRAL: "\u00b7", WAR: "War"}


def pair_text(a: str, b: str, relation: str, name: Callable[[str], str]) -> str:
    """"France and Germany: at war"."""
    return f"{name(a)} and {name(b)}: {RELATION_WORDS[relation]}"


def relations_summary(relations: Relations, name: Callable[[str], str]) -> str:
    """The allied and warring pairs in words ("all neutral" when there are none)."""
    allied = [f"{name(a)} \u2013 {name(b)}" for a, b, r in relations.pairs if r == ALLIANCE]
    war = [f"{name(a)} \u2013 {name(b)}" for a, b, r in relations.pairs if r == WAR]
    parts = []
    if allied:
        parts.append("Allied: " + ", ".join(allied))
    if war:
        parts.append("At war: " + ", ".join(war))
    if not parts:
        return "All neutral"
    return "; ".join(parts) + "; every other pair neutral"


def relations_history(controller: GameController) -> list[tuple[str, Relations]]:
    """(phase label, relations) of every movement phase played, then of the phase being played
    when it is a movement phase: the relations each was played under."""
    out: list[tuple[str, Relations]] = []
    for entry in controller.game.history:
        rel = entry.state.relations
        if entry.state.phase.kind == MOVEMENT and rel is not None:
            out.append((entry.state.phase.label, rel))
    state = controller.state
    if state.phase.kind == MOVEMENT and state.relations is not None and not controller.game.is_over:
        out.append((f"{state.phase.label} (now)", state.relations))
    return out


class RelationsDock(GameDock):
    """Who is allied, neutral or at war with whom, now and turn by turn (Formal Diplomacy)."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__("Relations", "RelationsDock", controller, parent)
        body, layout, self.title = titled_column()
        self.matrix = QTableWidget()
        self.matrix.setAccessibleName("Relations between the powers")
        self.matrix.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.matrix.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.matrix.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.matrix.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.matrix.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.matrix.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.matrix.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.matrix)
        self.legend = QLabel(
            "<span style='background:#2e7d32; color:white'>&nbsp;Ally&nbsp;</span> allied &nbsp; "
            "<span style='background:#e3e6ea; color:#37474f'>&nbsp;\u00b7&nbsp;</span> neutral &nbsp; "
            "<span style='background:#b71c1c; color:white'>&nbsp;War&nbsp;</span> at war")
        layout.addWidget(self.legend)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.summary)
        layout.addWidget(QLabel("<b>History by turn</b>"))
        self.history = QTextBrowser()
        self.history.setAccessibleName("Relations turn by turn")
        self.history.setMinimumHeight(60)
        layout.addWidget(self.history, 1)
        # tabbed with the orders at 1366x768 the dock can be shorter than the fixed-height matrix
        # and its labels: scroll, rather than let the layout squeeze the legend over the last rows
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        self.body = body
        self.setWidget(scroll)
        self._history_rows: list[str] = []
        controller.changed.connect(self._on_changed)
        self.refresh()

    def _on_changed(self, record: TableChange) -> None:
        if record.phase or record.game or record.relations:
            self.refresh()

    # -- what is shown -----------------------------------------------------------------------

    @property
    def relations(self) -> Relations | None:
        return self.controller.state.relations

    def cell_text(self, a: str, b: str) -> str:
        """The matrix cell of ``a`` (row) and ``b`` (column): "Ally", "War", "·" (or "" on the diagonal)."""
        powers = list(self.controller.board.power_ids)
        item = self.matrix.item(powers.index(a), powers.index(b))
        return item.text() if item is not None else ""

    @property
    def history_rows(self) -> list[str]:
        """One line per turn, as shown: "Spring 1901: All neutral"."""
        return list(self._history_rows)

    def refresh(self) -> None:
        c = self.controller
        rel = self.relations
        powers: Sequence[str] = c.board.power_ids
        self.matrix.clear()
        if rel is None:
            self.title.setText("Not a Formal Diplomacy game: there are no relations between the powers.")
            self.matrix.setRowCount(0)
            self.matrix.setColumnCount(0)
            self.summary.clear()
            self.history.clear()
            self._history_rows = []
            return
        self.title.setText(f"<b>Relations in {html.escape(c.state.phase.label)}</b> (Formal Diplomacy, seed 003)")
        self.matrix.setRowCount(len(powers))
        self.matrix.setColumnCount(len(powers))
        bold = QFont(self.matrix.font())
        bold.setBold(True)
        for i, p in enumerate(powers):
            name = c.power_name(p)
            for header, setter in ((QTableWidgetItem(name[:3].upper()), self.matrix.setHorizontalHeaderItem),
                                   (QTableWidgetItem(name[:3].upper()), self.matrix.setVerticalHeaderItem)):
                header.setBackground(QBrush(power_colour(p)))
                header.setForeground(QBrush(power_ink(p)))
                header.setToolTip(name)
                header.setFont(bold)
                setter(i, header)
        for i, a in enumerate(powers):
            for j, b in enumerate(powers):
                if a == b:
                    item = QTableWidgetItem("")
                    item.setBackground(QBrush(QColor("#9aa3ad")))
                else:
                    r = rel.between(a, b)
                    item = QTableWidgetItem(CELL_WORDS[r])
                    item.setBackground(QBrush(RELATION_COLOURS[r]))
                    item.setForeground(QBrush(RELATION_INKS[r]))
                    item.setToolTip(pair_text(a, b, r, c.power_name))
                    if r != NEUTRAL:
                        item.setFont(bold)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.matrix.setItem(i, j, item)
        row_height = self.matrix.fontMetrics().height() + 10
        self.matrix.verticalHeader().setDefaultSectionSize(row_height)
        header_height = self.matrix.horizontalHeader().sizeHint().height()
        self.matrix.setFixedHeight(header_height + row_height * len(powers) + 2 * self.matrix.frameWidth() + 2)
        self.summary.setText(relations_summary(rel, c.power_name) + ".")
        rows = [f"{label}: {relations_summary(r, c.power_name)}" for label, r in relations_history(c)]
        self._history_rows = rows
        self.history.setHtml("".join(
            f"<p style='margin:2px 0'><b>{html.escape(label)}</b>: {html.escape(relations_summary(r, c.power_name))}</p>"
            for label, r in reversed(relations_history(c))))


__all__ = ["CELL_WORDS", "RELATION_COLOURS", "RELATION_WORDS", "RelationsDock", "pair_text", "relations_history",
           "relations_summary"]
