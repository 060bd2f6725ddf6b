"""Changing a PIN mid-game (issue 20): the host changes a player's PIN (a host action), a player
their own (behind the curtain, on their own turn, after opening with their PIN).

The new PIN is checked as New Game checks it (4 to 8 digits, no common PIN, not the host PIN),
typed twice, hashed at once (``table.pins``) and stored for every power of the player; a phone that
was cut off (*kick*) may join again with the new PIN, and the power's failure count is cleared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping, Sequence
from typing import Any

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from ...io.pins import MAX_PIN_DIGITS
from ...table.pins import PinGuard, hash_pin, pin_problem
from .. import override


def store_pin(table: MutableMapping[str, Any], seat: Iterable[str], pin: str) -> str:
    """The new PIN's hash under every power of ``seat`` (``table["pins"]``); the kick's block
    and the failure counts of those powers are lifted.  Returns the hash."""
    stored = hash_pin(pin)
    pins = table.get("pins")
    if not isinstance(pins, dict):
        pins = table["pins"] = {}
    phones = table.get("phones")
    kicked = phones.get("kicked") if isinstance(phones, dict) else None
    guard = PinGuard(table)
    for p in seat:
        pins[p] = stored
        if isinstance(kicked, dict):
            kicked.pop(p, None)
        guard.succeeded(p)
    return stored


class ChangePinDialog(QDialog):
    """One seat's new PIN, typed twice (the digits go no further than ``store_pin``)."""

    def __init__(self, seats: Sequence[tuple[str, Sequence[str]]], table: MutableMapping[str, Any],
                 parent: QWidget | None = None, *, done: Callable[[Sequence[str]], None] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Change a PIN")
        self.table = table
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
        host = self.table.get("host_pin")
        problem = pin_problem(pin, host_pin_hash=host if isinstance(host, str) else None, what="The PIN")
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
        store_pin(self.table, seat, self.pin_edit.text())
        self.pin_edit.clear()
        self.again_edit.clear()
        if self.done_callback is not None:
            self.done_callback(seat)
        super().accept()
