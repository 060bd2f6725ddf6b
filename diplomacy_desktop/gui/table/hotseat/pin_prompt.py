"""The PIN prompts of the hot seat: the host PIN before a host action, a power's own PIN."""

from __future__ import annotations

from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from ....io.pins import MAX_PIN_DIGITS
from ...widgets import answer_nothing_when_lost


class HostPinDialog(QDialog):
    """Asks for the host PIN before a host action (the digits are checked by the caller)."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.text_label = QLabel(text)
        self.text_label.setWordWrap(True)
        self.note = QLabel("This is a host action: the host types the host PIN.")
        self.pin_edit = QLineEdit()
        self.pin_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin_edit.setMaxLength(MAX_PIN_DIGITS)
        self.pin_edit.setValidator(QIntValidator(0, 99_999_999, self))
        self.pin_edit.setPlaceholderText("Host PIN")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text_label)
        layout.addWidget(self.note)
        layout.addWidget(self.pin_edit)
        layout.addWidget(self.buttons)
        self.resize(440, 200)


def _ask_pin(parent: QWidget, title: str, text: str, *, own: bool) -> str | None:
    dialog = HostPinDialog(title, text, parent)
    answer_nothing_when_lost(dialog)  # destroyed from outside (under X): as Cancel, never blocking the window
    if own:
        dialog.note.setText("The power's own PIN.")
        dialog.pin_edit.setPlaceholderText("PIN")
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.pin_edit.text()
    finally:
        dialog.deleteLater()


def ask_host_pin(parent: QWidget, title: str, text: str) -> str | None:
    """The app's host prompt: the typed PIN, or None when the host cancels."""
    return _ask_pin(parent, title, text, own=False)


def ask_power_pin(parent: QWidget, title: str, text: str) -> str | None:
    """The app's prompt for a power's own PIN: the typed PIN, or None when cancelled."""
    return _ask_pin(parent, title, text, own=True)
