"""``DrawVoteDialog``: the secret draw vote, the laptop passed round.

``DrawVote`` (``table.draw``) is the plain model of a draw proposal: every surviving player votes
in secret, the result is only "all accepted" or "not accepted" (never who declined).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCursor, QKeyEvent
from PySide6.QtWidgets import (QDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QStackedWidget,
                               QVBoxLayout, QWidget)

from ....io.pins import MAX_PIN_DIGITS, pin_matches
from ....table.draw import DrawVote
from ....table.pins import PinGuard, PinWaitError
from ....table.service import PinDoor
from ... import override
from ...board.palette import power_colour
from ...widgets import bold_font


class DrawVoteDialog(QDialog):
    """Passes the laptop round: each surviving player accepts or declines the draw unseen.

    Shows only the outcome: "accepted by all" or "not accepted", never who declined.
    """

    voted = Signal(str)
    #: a wrong PIN was counted in the table's failure counter (the window writes it at once: a
    #: kill must not forget it, issue 31)
    pin_counted = Signal()

    def __init__(self, voters: Sequence[str], parent: QWidget | None = None, *,
                 names: Mapping[str, str] | None = None, pins: Mapping[str, str] | None = None,
                 guard: PinDoor | PinGuard | None = None, computer: Mapping[str, bool] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Draw vote")
        #: the table's one failure counter per power (the curtain's and the phones' too)
        self.guard = guard
        # the computer seats vote first, by their rule (table.computer), unseen like everyone
        cast = {p: v for p, v in (computer or {}).items() if p in voters}
        self.vote = DrawVote(tuple(p for p in voters if p in cast) + tuple(p for p in voters if p not in cast))
        for p in self.vote.voters:
            if p in cast:
                self.vote.vote(p, cast[p])
        self.names = dict(names or {})
        self.pins = dict(pins or {})
        self.stack = QStackedWidget()

        big = bold_font(self.font(), 26)

        # page 0: pass the laptop
        self.pass_page = QWidget()
        pl = QVBoxLayout(self.pass_page)
        self.pass_heading = QLabel("Pass the laptop to")
        self.pass_power = QLabel()
        self.pass_power.setFont(big)
        self.pass_note = QLabel("A draw needs every surviving player to accept. Nobody will learn who declined.")
        self.pass_note.setWordWrap(True)
        self.pin_edit = QLineEdit()
        self.pin_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin_edit.setMaxLength(MAX_PIN_DIGITS)
        self.pin_edit.setPlaceholderText("PIN")
        self.pin_error = QLabel()
        self.pin_error.setStyleSheet("color: #a50021;")
        self.ready_button = QPushButton()
        self.ready_button.setDefault(True)
        for w in (self.pass_heading, self.pass_power, self.pass_note, self.pin_edit, self.pin_error,
                  self.ready_button):
            pl.addWidget(w)
        for w in (self.pass_heading, self.pass_power, self.pass_note, self.pin_error):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)

        # page 1: the secret vote
        self.vote_page = QWidget()
        vl = QVBoxLayout(self.vote_page)
        self.vote_heading = QLabel()
        self.vote_heading.setFont(big)
        self.vote_heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.vote_question = QLabel()
        self.vote_question.setWordWrap(True)
        self.vote_question.setAlignment(Qt.AlignmentFlag.AlignCenter)
        row = QHBoxLayout()
        self.accept_button = QPushButton("Accept the draw")
        self.decline_button = QPushButton("Decline")
        for b in (self.accept_button, self.decline_button):
            b.setMinimumHeight(48)
            row.addWidget(b)
        vl.addWidget(self.vote_heading)
        vl.addWidget(self.vote_question)
        vl.addLayout(row)

        # page 2: the outcome
        self.result_page = QWidget()
        rl = QVBoxLayout(self.result_page)
        self.result_label = QLabel()
        self.result_label.setFont(big)
        self.result_label.setWordWrap(True)
        self.result_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.result_note = QLabel()
        self.result_note.setWordWrap(True)
        self.result_note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.close_button = QPushButton("Close")
        rl.addWidget(self.result_label)
        rl.addWidget(self.result_note)
        rl.addWidget(self.close_button)

        for page in (self.pass_page, self.vote_page, self.result_page):
            self.stack.addWidget(page)
        self.cancel_button = QPushButton("Cancel the vote")
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.cancel_button)
        layout.addLayout(bottom)

        self.ready_button.clicked.connect(self._on_ready)
        self.pin_edit.returnPressed.connect(self._on_ready)
        self.accept_button.clicked.connect(lambda: self.cast(True))
        self.decline_button.clicked.connect(lambda: self.cast(False))
        self.close_button.clicked.connect(self._finish)
        self.cancel_button.clicked.connect(self.reject)
        # issue 31: Enter never votes, and nothing on a voter's screen depends on the last vote:
        # no answer button is a default, the focus rests on the page itself, set anew each time
        for b in (self.accept_button, self.decline_button, self.cancel_button, self.close_button):
            b.setAutoDefault(False)
            b.setDefault(False)
        self.ready_button.setAutoDefault(False)
        self.vote_page.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.resize(520, 340)
        self._show_next()

    @override
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.stack.currentWidget() is self.vote_page:
            event.accept()  # a vote is a click on an answer, never Enter
            return
        super().keyPressEvent(event)

    def _name(self, power: str) -> str:
        return self.names.get(power, power.title())

    def _show_next(self) -> None:
        nxt = self.vote.next_voter
        if nxt is None:
            self._show_result()
            return
        self.pass_power.setText(self._name(nxt))
        self.pass_power.setStyleSheet(f"color: {power_colour(nxt).name()};")
        self.ready_button.setText(f"I am {self._name(nxt)}: vote")
        self.pin_edit.clear()
        self.pin_error.clear()
        self.pin_edit.setVisible(nxt in self.pins)
        self.stack.setCurrentWidget(self.pass_page)
        (self.pin_edit if nxt in self.pins else self.ready_button).setFocus(Qt.FocusReason.OtherFocusReason)
        self._park_pointer(self.pass_power)

    def _park_pointer(self, on: QWidget) -> None:
        """Put the mouse pointer on ``on`` (the voter's name): left where the last voter clicked,
        over Yes or No, it showed the next voter the last answer (red team, issue 31).  Where
        the platform cannot move the pointer (Wayland) nothing changes."""
        if not self.isVisible():
            return
        page = self.stack.currentWidget()
        layout = page.layout() if page is not None else None
        if layout is not None:
            layout.activate()
        QCursor.setPos(on.mapToGlobal(on.rect().center()))

    def _on_ready(self) -> None:
        nxt = self.vote.next_voter
        if nxt is None:
            return
        stored = self.pins.get(nxt)
        if stored is not None:
            typed = self.pin_edit.text()
            self.pin_edit.clear()  # each try starts from an empty box (digits are never appended to a wrong PIN)
            try:
                ok = (self.guard.check(nxt, stored, typed, self._name(nxt)) if self.guard is not None
                      else pin_matches(stored, typed))
            except PinWaitError as exc:
                self.pin_error.setText(str(exc)[:1].upper() + str(exc)[1:])
                return
            if not ok:
                self.pin_error.setText("Wrong PIN" if typed else "Type your PIN")
                if typed and self.guard is not None:
                    self.pin_counted.emit()
                return
        self.vote_heading.setText(self._name(nxt))
        others = [self._name(p) for p in self.vote.voters if p != nxt]
        self.vote_question.setText(f"Do you accept a draw shared by {', '.join(others)} and you?")
        self.stack.setCurrentWidget(self.vote_page)
        self.vote_page.setFocus(Qt.FocusReason.OtherFocusReason)  # on no answer
        self._park_pointer(self.vote_heading)  # nor the pointer

    def cast(self, accept: bool) -> None:
        power = self.vote.next_voter
        if power is None or self.stack.currentWidget() is not self.vote_page:
            return
        self.vote.vote(power, accept)
        self.voted.emit(power)
        self._show_next()

    def _show_result(self) -> None:
        self.cancel_button.hide()
        if self.vote.accepted:
            self.result_label.setText("The draw is accepted")
            self.result_note.setText("Every surviving player accepted. The game ends in a draw shared by "
                                     + ", ".join(self._name(p) for p in self.vote.voters) + ".")
        else:
            self.result_label.setText("The draw is not accepted")
            self.result_note.setText("Not every player accepted. The game goes on. (Votes are secret.)")
        self.stack.setCurrentWidget(self.result_page)

    def _finish(self) -> None:
        if self.vote.accepted:
            self.accept()
        else:
            self.reject()

    @property
    def accepted_draw(self) -> bool:
        return self.vote.accepted
