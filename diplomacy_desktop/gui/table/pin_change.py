"""Changing a PIN mid-game (issue 20): the host changes a player's PIN (a host action), a player
their own (behind the curtain, on their own turn, after opening with their PIN).

The new PIN is checked as New Game checks it (4 to 8 digits, no common PIN, not the host PIN),
typed twice, and handed to the table service (``TableService.change_pin``, the phone host's door
too): hashed at once and stored for every power of the player, written at once; a phone that was
cut off (*kick*) may join again with the new PIN, and the power's failure count is cleared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from ...io.pins import MAX_PIN_DIGITS
from ...table.pins import pin_problem
from ...table.service import TableService
from .. import override


class ChangePinDialog(QDialog):
    """One seat's new PIN, typed twice (the digits go no further than the table service's
    ``change_pin``, started by ``initiator``: the host, or the seat at the laptop)."""

    def __init__(self, seats: Sequence[tuple[str, Sequence[str]]], service: TableService,
                 parent: QWidget | None = None, *, done: Callable[[Sequence[str]], None] | None = None,
                 initiator: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Change a PIN")
        self.service = service
        self.initiator = initiator
        self.done_callback = done
        self.seat_combo = QComboBox()
        for title, seat in seats:
            self.seat_combo.addItem(title, list(seat))
        self.seat_combo.setEnabled(len(seats) > 1)
        self.pin_edit, self.again_edit = QLineEdit(), QLineEdit()
        for edit, hint in ((self.pin_edit, "new PIN (4 to 8 digits)"), (self.again_edit, "the same again")):
            edit.setEchoMode(QLineEdit.EchoMode.Password)
            edit.setMaxLength(MAX_PIN_DIGITS)
            edit.setPlaceholderText(hint)
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #a50021;")
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Type the new PIN unseen. A phone cut off from this player may join again "
                                "with it."))
        layout.addWidget(self.seat_combo)
        layout.addWidget(self.pin_edit)
        layout.addWidget(self.again_edit)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)

    @property
    def seat(self) -> list[str]:
        return [str(p) for p in (self.seat_combo.currentData() or [])]

    def problem(self) -> str | None:
        pin = self.pin_edit.text()
        problem = pin_problem(pin, host_pin_hash=self.service.typed().host_pin, what="The PIN")
        if problem:
            return problem[:1].upper() + problem[1:] + "."
        if self.again_edit.text() != pin:
            return "The two PINs differ."
        return None

    @override
    def accept(self) -> None:
        problem = self.problem()
        if problem:
            self.error_label.setText(problem)
            self.pin_edit.selectAll()
            return
        seat = self.seat
        self.service.change_pin(seat, self.pin_edit.text(), initiator=self.initiator)  # on disk at once
        self.pin_edit.clear()
        self.again_edit.clear()
        if self.done_callback is not None:
            self.done_callback(seat)
        super().accept()
