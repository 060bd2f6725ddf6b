"""Private notes behind the curtain (seed 001's one-to-one and group messages; a table option, off
by default: ``table.notes_allowed``).

A note goes to one or more powers and only they (and its writer) ever read it: on their phone
(``host.table``'s notes, the same list) or here, on their own curtain turn.  The notes are kept
in the table (``table.notes``, a ``NotesPart`` of ``NotePart`` records, as the table service's
``send_note`` writes them), so they are saved with the game.  ``NotesDialog`` is opened only
while a seat is at the keyboard behind the curtain and is closed the moment that seat steps away
or seals; it shows that seat's notes only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QGridLayout, QLabel,
                               QListWidget, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget)

from ...table.notes import (
    NoteError,
    notes_for,
)
from ...table.state import TableState
from .. import override

__all__ = []


Sender = Callable[[str, list[str], str], None]  # from, to, text; raises NoteError


class NotesDialog(QDialog):
    """One seat's notes: those it received and wrote, and a new note to one or more powers."""

    def __init__(self, seat: Sequence[str], powers: Sequence[tuple[str, str]], table: TableState,
                 send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setProperty("keeps_turn", True)  # opening it is not stepping away from the keyboard
        self.seat = tuple(seat)
        self.names = dict(powers)
        self.table = table
        self.send_note = send
        self.setWindowTitle("Private notes: " + " and ".join(self.names.get(p, p) for p in self.seat))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Only the powers a note is written to (and its writer) can read it."))
        self.note_list = QListWidget()
        layout.addWidget(self.note_list, 2)
        self.from_combo = QComboBox()
        for p in self.seat:
            self.from_combo.addItem(self.names.get(p, p), p)
        self.from_combo.setVisible(len(self.seat) > 1)
        layout.addWidget(self.from_combo)
        grid = QGridLayout()
        self.boxes: dict[str, QCheckBox] = {}
        for i, (p, name) in enumerate(powers):
            box = QCheckBox(name)
            self.boxes[p] = box
            grid.addWidget(box, i // 4, i % 4)
        layout.addLayout(grid)
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText("Your note")
        self.text.setFixedHeight(80)
        layout.addWidget(self.text)
        self.error = QLabel()
        self.error.setStyleSheet("color: #a00;")
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.send_button = QPushButton("Send")
        buttons.addButton(self.send_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.send_button.clicked.connect(self.send)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.from_combo.currentIndexChanged.connect(lambda _i: self._update_boxes())
        self._update_boxes()
        self.refresh()
        self.resize(560, 480)

    @property
    def writer(self) -> str:
        return str(self.from_combo.currentData())

    def _update_boxes(self) -> None:
        for p, box in self.boxes.items():
            box.setEnabled(p != self.writer)
            if p == self.writer:
                box.setChecked(False)

    def refresh(self) -> None:
        self.note_list.clear()
        for n in notes_for(self.table, self.seat):
            to = ", ".join(self.names.get(p, p) for p in n.recipients())
            self.note_list.addItem(f"{n.phase or ''} \u2014 {self.names.get(str(n.sender), n.sender)}"
                                   f" to {to}: {n.text or ''}")
        if self.note_list.count() == 0:
            self.note_list.addItem("(no notes yet)")

    @override
    def done(self, result: int) -> None:
        """Closed: nothing of the seat's notes stays in a widget waiting to be deleted."""
        self.note_list.clear()
        self.text.clear()
        self.error.clear()
        super().done(result)

    def send(self) -> None:
        to = [p for p, box in self.boxes.items() if box.isChecked()]
        try:
            self.send_note(self.writer, to, self.text.toPlainText())
        except NoteError as exc:
            self.error.setText(str(exc)[:1].upper() + str(exc)[1:] + ".")
            return
        self.error.setText("Sent.")
        self.text.clear()
        for box in self.boxes.values():
            box.setChecked(False)
        self.refresh()
