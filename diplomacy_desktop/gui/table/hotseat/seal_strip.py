"""``SealStatusStrip``: the status bar's row of who has sealed (never what), with Write, Seal, Hide
and Reveal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from ....table.computer import computer_seats
from ....table.hotseat import CURTAIN, ENTERING, OPEN, READY, REVEALED, HotSeatSession
from ... import override
from ...board.palette import power_colour, power_ink
from .names import _player_suffix, _power_name

if TYPE_CHECKING:
    from ...controller import GameController


class _ElidedLabel(QLabel):
    """A one-line label that shows as much of its text as its width allows, ending in "…", and
    yields its width to its neighbours (at most 300 pixels wide)."""

    MAX_WIDTH = 300

    def __init__(self) -> None:
        super().__init__()
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(40)

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.updateGeometry()
        self._elide()

    def full_text(self) -> str:
        return self._full

    @override
    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(self.MAX_WIDTH, self.fontMetrics().horizontalAdvance(self._full) + 4), hint.height())

    @override
    def minimumSizeHint(self) -> QSize:
        return QSize(40, super().minimumSizeHint().height())

    @override
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = min(self.width(), self.MAX_WIDTH) if self.isVisible() else self.MAX_WIDTH
        self.setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(width - 4, 10)))


class SealStatusStrip(QWidget):
    """Who has sealed, who is writing, who is waiting: names only, never an order."""

    write_requested = Signal()  # start the writing round (end of the diplomacy period)
    seal_requested = Signal()
    hide_requested = Signal()
    reveal_requested = Signal()
    notes_requested = Signal()
    phone_requested = Signal()

    def __init__(self, parent: QWidget | None = None, controller: GameController | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sealStrip")
        self.controller = controller
        self._chips: dict[str, QLabel] = {}
        self.caption = QLabel()
        self.chip_row = QHBoxLayout()
        self.chip_row.setSpacing(4)
        self.write_button = QPushButton("Write orders")
        self.write_button.setToolTip("End the talks: pass the laptop round behind the curtain")
        self.seal_button = QPushButton("Review and seal\u2026")
        self.hide_button = QPushButton("Hide my orders")
        self.reveal_button = QPushButton("Reveal")
        self.notes_button = QPushButton("Notes\u2026")  # private notes, shown by the table mode
        self.notes_button.setToolTip("Your private notes: read those sent to you, write one")
        self.notes_button.hide()
        self.phone_button = QPushButton("Use my phone\u2026")  # hosting on: this seat's code, shown by the table mode
        self.phone_button.setToolTip("Your join code and link, to write your orders on your own phone")
        self.phone_button.hide()
        self.notice = _ElidedLabel()  # "France's sealed orders were reopened by ...": the table is told
        self.notice.setStyleSheet("color: #8a4b00; font-weight: bold;")
        self.notice.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.addWidget(self.caption)
        layout.addLayout(self.chip_row)
        layout.addWidget(self.notice)
        layout.addStretch(1)
        for b in (self.phone_button, self.notes_button, self.write_button, self.seal_button, self.hide_button,
                  self.reveal_button):
            layout.addWidget(b)
        self.phone_button.clicked.connect(self.phone_requested)
        self.notes_button.clicked.connect(self.notes_requested)
        self.write_button.clicked.connect(self.write_requested)
        self.seal_button.clicked.connect(self.seal_requested)
        self.hide_button.clicked.connect(self.hide_requested)
        self.reveal_button.clicked.connect(self.reveal_requested)
        self.show_session(None)

    @staticmethod
    def _disorder_powers(c: GameController | None) -> list[str]:
        """Powers in civil disorder by the table's say (marked, or nobody plays them) that still
        have units or centres: shown on the strip so the table sees who is not written for."""
        if c is None:
            return []
        gone = c.marked_disorder() | c.unplayed_powers()
        return [p for p in c.board.power_ids if p in gone and not c.state.is_eliminated(p)]

    def show_notice(self, text: str) -> None:
        """The last thing the table must be told, cut to fit beside the chips (all of it on hover);
        it gives way to the chips, which always show their whole name."""
        self.notice.set_full_text(f"\u26a0 {text}" if text else "")
        self.notice.setToolTip(text)
        self.notice.setVisible(bool(text))

    def chip_text(self, power: str) -> str:
        chip = self._chips.get(power)
        return chip.text() if chip is not None else ""

    def show_session(self, session: HotSeatSession | None, *, secrecy: bool = True) -> None:
        for chip in self._chips.values():
            self.chip_row.removeWidget(chip)
            chip.hide()
            chip.deleteLater()
        self._chips = {}
        stage = session.stage if session is not None else None
        self.show_notice(session.notices[-1] if session is not None and session.notices else "")
        if session is None or not secrecy:
            self.caption.setText("Hot-seat secrecy off" if not secrecy else "")
            for b in (self.write_button, self.seal_button, self.hide_button, self.reveal_button):
                b.hide()
            return
        self.caption.setText({OPEN: "Talks \u2014 first to write:", CURTAIN: "Writing orders:",
                              ENTERING: "Writing orders:", READY: "All sealed:",
                              REVEALED: "Revealed:"}[session.stage] if not session.declaring else
                             {CURTAIN: "Declarations:", ENTERING: "Declarations:", READY: "All declared:"}
                             .get(session.stage, "Declarations:"))
        c = self.controller
        computer = computer_seats(c.table, c.board.power_ids) if c is not None else {}
        for p in session.order:
            if p in computer:  # a computer seat: it writes and seals when the writing begins
                mark, state = ("\u2713\u2699", "sealed by the computer") if p in session.sealed else (
                    "\u2699", "the computer writes and seals when the writing begins")
            elif p in session.phone_sealed:
                mark, state = "\u2713\u260e", "sealed on a phone"
            elif p in session.part_declared and p not in session.current_seat:
                mark, state = "\u260e", "declared on a phone; the player's other powers have not yet"
            elif p in session.sealed:
                mark, state = "\u2713", "sealed"
            elif p in session.current_seat:  # every power of the player at the keyboard
                mark, state = "\u270e", "writing now"
            else:
                mark, state = "\u00b7", "waiting"
            if stage == OPEN and p != session.first_power:
                continue  # during the talks only the first writer is named
            name = _power_name(c, p)
            short = name if stage == OPEN else name[:3].upper()
            chip = QLabel(f"{mark} {short}")
            chip.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            chip.setToolTip(f"{_power_name(c, p)}{_player_suffix(c, p)}: {state}")
            colour = power_colour(p)
            ink = power_ink(p)
            border = "2px solid #1a1a1a" if p in session.current_seat else "1px solid #666"
            weight = "bold" if p in session.sealed or p in session.current_seat else "normal"
            chip.setStyleSheet(f"QLabel {{ background: {colour.name()}; color: {ink.name()}; border: {border};"
                               f" border-radius: 8px; padding: 1px 6px; font-weight: {weight}; }}")
            self.chip_row.addWidget(chip)
            self._chips[p] = chip
        for p in self._disorder_powers(c):
            chip = QLabel(f"\u2298 {_power_name(c, p)[:3].upper()}")
            chip.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            chip.setToolTip(f"{_power_name(c, p)}: in civil disorder (no player): its units hold, "
                            "do not support each other, and it builds nothing")
            chip.setStyleSheet("QLabel { background: #d8d8d8; color: #555; border: 1px dashed #777;"
                               " border-radius: 8px; padding: 1px 6px; }")
            self.chip_row.addWidget(chip)
            self._chips[p] = chip
        self.write_button.setVisible(stage == OPEN and bool(session.order))
        self.seal_button.setVisible(stage == ENTERING)
        self.hide_button.setVisible(stage == ENTERING)
        self.reveal_button.setVisible(stage == READY)
