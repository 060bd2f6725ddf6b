"""Who plays which power: the players' priorities (rules I), the draw that settles ties, and the
host's civil-disorder marks (rules XIV.1).

``PriorityDialog`` collects each player's three choices in priority, openly (one row per player)
or secretly (the laptop goes round: one player at a time sees only their own three boxes), then
assigns the seats with ``engine.seating.assign_by_priority`` and shows the table the seed and
every draw in words (:func:`draw_record`).  ``CivilDisorderDialog`` is the host's list of powers
whose player has left.  ``seats_from_players`` reads the seats off the table's ``players`` (the
powers with the same player name are one seat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QGridLayout, QHBoxLayout,
                               QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget)

from ...engine.board import Board
from ...engine.seating import CHOICES, Assignment, assign_by_priority
from ...table.parts import SeatingPart
from ...table.seating import (
    NO_CHOICE,
    ORDINALS,
    assignment_to_table,
    draw_record,
    new_seed,
    seat_name,
)
from ..widgets import bold_font


class PriorityDialog(QDialog):
    """Each player names three seats in priority, then the seats are drawn and the record shown.

    ``secret``: the laptop goes round; each player sees only their own three boxes (cleared for
    the next player) and nothing of anyone else's choices until the assignment is shown.
    """

    def __init__(self, board: Board, seats: Sequence[Sequence[str]], players: Sequence[str], *,
                 secret: bool = False, seed: int | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Powers by priority")
        self.board = board
        self.seat_list = [tuple(s) for s in seats]
        self.players = list(players)
        self.secret = secret
        self.seed = seed if seed is not None else new_seed()
        self.choices: dict[str, list[str]] = {}
        self.assignment: Assignment | None = None
        self.stack = QStackedWidget()
        big = bold_font(self.font(), 22)

        # open: one row per player
        self.open_page = QWidget()
        grid = QGridLayout(self.open_page)
        grid.addWidget(QLabel("Player"), 0, 0)
        for i, o in enumerate(ORDINALS):
            grid.addWidget(QLabel(f"{o} choice"), 0, i + 1)
        self.open_combos: dict[str, list[QComboBox]] = {}
        for row, player in enumerate(self.players, start=1):
            grid.addWidget(QLabel(player), row, 0)
            combos = [self._seat_combo() for _ in range(CHOICES)]
            for i, combo in enumerate(combos):
                grid.addWidget(combo, row, i + 1)
            self.open_combos[player] = combos

        # secret: pass the laptop, then one player's own three boxes
        self.pass_page = QWidget()
        pl = QVBoxLayout(self.pass_page)
        self.pass_heading = QLabel("Pass the laptop to")
        self.pass_name = QLabel()
        self.pass_name.setFont(big)
        self.pass_note = QLabel("Everyone else: look away. Your choices stay secret until the powers are drawn.")
        self.pass_note.setWordWrap(True)
        self.ready_button = QPushButton()
        self.ready_button.setMinimumHeight(40)
        for w in (self.pass_heading, self.pass_name, self.pass_note):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)
            pl.addWidget(w)
        pl.addWidget(self.ready_button)
        self.choose_page = QWidget()
        cl = QVBoxLayout(self.choose_page)
        self.choose_name = QLabel()
        self.choose_name.setFont(big)
        self.choose_name.setAlignment(Qt.AlignmentFlag.AlignCenter)
        cl.addWidget(self.choose_name)
        cl.addWidget(QLabel("Your three powers in priority (rules I):"))
        self.secret_combos = [self._seat_combo() for _ in range(CHOICES)]
        for o, combo in zip(ORDINALS, self.secret_combos, strict=True):
            line = QHBoxLayout()
            line.addWidget(QLabel(f"{o} choice"))
            line.addWidget(combo, 1)
            cl.addLayout(line)
        self.done_button = QPushButton("Done: hide my choices and pass the laptop")
        self.done_button.setMinimumHeight(40)
        cl.addWidget(self.done_button)

        # the result: the seed, the draws, the seats
        self.result_page = QWidget()
        rl = QVBoxLayout(self.result_page)
        heading = QLabel("The powers are drawn")
        heading.setFont(big)
        rl.addWidget(heading)
        self.record_label = QLabel()
        self.record_label.setWordWrap(True)
        self.record_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        rl.addWidget(self.record_label, 1)

        for page in (self.open_page, self.pass_page, self.choose_page, self.result_page):
            self.stack.addWidget(page)
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #a50021;")
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.assign_button = self.buttons.addButton("Draw and assign", QDialogButtonBox.ButtonRole.ActionRole)
        self.use_button = self.buttons.addButton("Use this assignment", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.rejected.connect(self.reject)
        self.use_button.clicked.connect(self.accept)
        self.assign_button.clicked.connect(self.assign_open)
        self.ready_button.clicked.connect(self._show_choose)
        self.done_button.clicked.connect(self._secret_done)
        layout = QVBoxLayout(self)
        intro = QLabel(f"Each player names three powers in priority (a seat of several powers counts as one). "
                       f"Ties are settled by a draw with the seed {self.seed}, shown to the table.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.resize(620, 420)
        self.use_button.hide()
        if secret:
            self.assign_button.hide()
            self._show_pass()
        else:
            self.stack.setCurrentWidget(self.open_page)

    def _seat_combo(self) -> QComboBox:
        combo = QComboBox()
        combo.addItem("(none)", NO_CHOICE)
        for seat in self.seat_list:
            combo.addItem(seat_name(self.board, seat), seat[0])
        return combo

    @staticmethod
    def _read(combos: Sequence[QComboBox]) -> list[str]:
        return [str(c.currentData()) for c in combos if c.currentData()]

    # -- the secret round ----------------------------------------------------------------------

    @property
    def next_player(self) -> str | None:
        return next((p for p in self.players if p not in self.choices), None)

    def _show_pass(self) -> None:
        nxt = self.next_player
        if nxt is None:
            self._assign()
            return
        self.pass_name.setText(nxt)
        self.ready_button.setText(f"I am {nxt}: write my priorities")
        self.stack.setCurrentWidget(self.pass_page)

    def _show_choose(self) -> None:
        nxt = self.next_player
        if nxt is None:
            return
        for combo in self.secret_combos:
            combo.setCurrentIndex(0)  # nothing of the last player's choices
        self.error_label.clear()
        self.choose_name.setText(nxt)
        self.stack.setCurrentWidget(self.choose_page)

    def _secret_done(self) -> None:
        nxt = self.next_player
        if nxt is None or self.stack.currentWidget() is not self.choose_page:
            return
        chosen = self._read(self.secret_combos)
        if len(set(chosen)) != len(chosen):
            self.error_label.setText("The same power is named twice: choose three different ones.")
            return
        self.choices[nxt] = chosen
        for combo in self.secret_combos:
            combo.setCurrentIndex(0)
        self.error_label.clear()
        self._show_pass()

    # -- the assignment ------------------------------------------------------------------------

    def assign_open(self) -> None:
        choices = {p: self._read(combos) for p, combos in self.open_combos.items()}
        for p, chosen in choices.items():
            if len(set(chosen)) != len(chosen):
                self.error_label.setText(f"{p} named the same power twice.")
                return
        self.choices = choices
        self._assign()

    def _assign(self) -> None:
        try:
            self.assignment = assign_by_priority(self.choices, self.seat_list, self.seed, self.board.power_ids)
        except ValueError as exc:
            self.error_label.setText(f"The powers cannot be assigned: {exc}.")
            return
        self.error_label.clear()
        self.record_label.setText("\n".join(draw_record(self.board, self.assignment)))
        self.stack.setCurrentWidget(self.result_page)
        self.assign_button.hide()
        self.use_button.show()
        self.use_button.setDefault(True)

    def table_record(self) -> SeatingPart:
        assert self.assignment is not None
        return assignment_to_table(self.assignment, self.choices, secret=self.secret, board=self.board)


class HostSeatsDialog(QDialog):
    """A host's list of the powers in play, one row each under a word of explanation, with OK and
    Cancel: subclasses add their rows to ``rows``."""

    def __init__(self, title: str, intro: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        label = QLabel(intro)
        label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        self.rows = QVBoxLayout()
        layout.addLayout(self.rows)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    @staticmethod
    def seat_title(board: Board, power: str, names: Mapping[str, str] | None) -> str:
        """The power's name, and its player's in brackets when the table knows it."""
        player = (names or {}).get(power)
        return board.power(power).name + (f" ({player})" if player else "")


class CivilDisorderDialog(HostSeatsDialog):
    """The host's list: which powers' players have left (their units hold; rules XIV.1)."""

    def __init__(self, board: Board, powers: Sequence[str], marked: Sequence[str],
                 names: Mapping[str, str] | None = None, parent: QWidget | None = None) -> None:
        super().__init__("Civil disorder", (
            "Mark a power whose player has left the game: it is in civil disorder (rules XIV.1). Its units "
            "hold and do not support each other, a dislodged unit is disbanded, it builds nothing, and its "
            "removals follow XIV.2. It is left out of the curtain round. Unmark it when its player, or a "
            "replacement, comes back."), parent)
        self.boxes: dict[str, QCheckBox] = {}
        for p in powers:
            box = QCheckBox(self.seat_title(board, p, names) + " \u2014 player has left")
            box.setChecked(p in marked)
            self.boxes[p] = box
            self.rows.addWidget(box)

    def marked(self) -> list[str]:
        return [p for p, box in self.boxes.items() if box.isChecked()]


__all__ = ["CivilDisorderDialog", "HostSeatsDialog", "PriorityDialog"]
