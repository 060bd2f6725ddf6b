"""Table ▸ Computer seats…: the host hands a power's seat to the computer (a player left) or back
to a person (issue 33).  The dialog only chooses; the table mode's ``set_computer_seats`` asks the
host, changes the table through the controller and tells the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtWidgets import QComboBox, QFormLayout, QWidget

from ...engine.board import Board
from .dialogs.new_game import PLAYED_BY
from .seating import HostSeatsDialog


class ComputerSeatsDialog(HostSeatsDialog):
    """Who plays each power in play: a person, or the computer at a level."""

    def __init__(self, board: Board, powers: Sequence[str], seats: Mapping[str, str],
                 names: Mapping[str, str] | None = None, parent: QWidget | None = None) -> None:
        super().__init__("Computer seats", (
            "Hand a power to the computer when its player leaves, or back to a person. The computer writes "
            "and seals its orders when the writing begins (now, if the orders are being written and the "
            "power has written none); they stay secret until the reveal. The table is told."), parent)
        form = QFormLayout()
        self.combos: dict[str, QComboBox] = {}
        for p in powers:
            combo = QComboBox()
            for text, level in PLAYED_BY:
                combo.addItem(text, level)
            combo.setCurrentIndex(max(0, combo.findData(seats.get(p))))
            form.addRow(self.seat_title(board, p, names), combo)
            self.combos[p] = combo
        self.rows.addLayout(form)

    def choice(self) -> dict[str, str]:
        """The powers the computer is to play, with its level."""
        return {p: str(combo.currentData()) for p, combo in self.combos.items() if combo.currentData() is not None}
