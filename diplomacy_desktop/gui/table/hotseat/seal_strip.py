"""``SealStatusStrip``: the status bar's row of who has sealed (never what), with Write, Seal, Hide
and Reveal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ....table.computer import LEVEL_WORDS, computer_seats
from ....table.practice import practice_power
from ....table.hotseat import CURTAIN, ENTERING, OPEN, READY, REVEALED, HotSeatSession
from ...board.palette import power_colour, power_ink
from .names import _player_suffix, _power_name
from ...widgets import connect_all

if TYPE_CHECKING:
    from ...controller import GameController


class _NoticeLabel(QLabel):
    """The strip's notice: its whole text, wrapped over as many lines as the width needs."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self._full = ""

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.setText(text)

    def full_text(self) -> str:
        return self._full


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
        # "France's sealed orders were reopened by ...": the table is told, all of it, on a line of
        # its own under the chips (cut to fit beside them, a laptop read "⚠ Italy was opened out
        # of turn by the hos…": issue 34)
        self.notice = _NoticeLabel()
        self.notice.setStyleSheet("color: #8a4b00; font-weight: bold;")
        # its line is kept while no notice is shown: a notice coming and going would change the
        # strip's height, and with it the map's scale (a redraw of the whole board at each seal)
        policy = self.notice.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.notice.setSizePolicy(policy)
        self.notice.hide()
        rows = QVBoxLayout(self)
        rows.setContentsMargins(4, 0, 4, 0)
        rows.setSpacing(2)
        layout = QHBoxLayout()
        layout.setContentsMargins(0, 0, 0, 0)
        rows.addLayout(layout)
        rows.addWidget(self.notice)
        layout.addWidget(self.caption)
        layout.addLayout(self.chip_row)
        layout.addStretch(1)
        for b in (self.phone_button, self.notes_button, self.write_button, self.seal_button, self.hide_button,
                  self.reveal_button):
            layout.addWidget(b)
        connect_all((self.phone_button.clicked, self.phone_requested), (self.notes_button.clicked, self.notes_requested),
                    (self.write_button.clicked, self.write_requested), (self.seal_button.clicked, self.seal_requested),
                    (self.hide_button.clicked, self.hide_requested), (self.reveal_button.clicked, self.reveal_requested))
        self.show_session(None)

    @staticmethod
    def _disorder_powers(c: GameController | None) -> list[str]:
        """Powers in civil disorder by the table's say (marked, or nobody plays them) that still
        have units or centres: shown on the strip so the table sees who is not written for."""
        if c is None:
            return []
        gone = c.marked_disorder() | c.unplayed_powers()
        return [p for p in c.board.power_ids if p in gone and not c.state.is_eliminated(p)]

    def _open_caption(self) -> str:
        """Without secrecy: that it is off, or in a practice game who plays what (issue 33)."""
        c = self.controller
        me = practice_power(c.table, c.board.power_ids) if c is not None else None
        if c is None or me is None:
            return "Hot-seat secrecy off"
        levels = sorted(set(self._practice_seats(c, me).values()))
        level = "mixed levels" if len(levels) > 1 else "".join(LEVEL_WORDS.get(lvl, lvl) for lvl in levels)
        return (f"Practice: you are {c.power_name(me)}, the computer ({level}) the others "
                "\u2014 F8 adjudicates, Ctrl+H: a hint")

    @staticmethod
    def _practice_seats(c: GameController, me: str) -> dict[str, str]:
        """The computer's seats of a practice game (a save edited by hand may mix the levels)."""
        return {p: lvl for p, lvl in computer_seats(c.table, c.board.power_ids).items() if p != me}

    def _open_tooltip(self) -> str:
        """In a practice game, each computer seat's level (the caption names mixed ones only so)."""
        c = self.controller
        me = practice_power(c.table, c.board.power_ids) if c is not None else None
        if c is None or me is None:
            return ""
        return "\n".join(f"{c.power_name(p)}: {LEVEL_WORDS.get(lvl, lvl)}"
                         for p, lvl in sorted(self._practice_seats(c, me).items()))

    def show_notice(self, text: str) -> None:
        """The last thing the table must be told, whole, under the chips (and on hover)."""
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
            self.caption.setText(self._open_caption() if not secrecy else "")
            self.caption.setToolTip(self._open_tooltip() if not secrecy else "")
            for b in (self.write_button, self.seal_button, self.hide_button, self.reveal_button):
                b.hide()
            return
        self.caption.setToolTip("")
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
