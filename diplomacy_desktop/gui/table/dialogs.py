"""The table's dialogs: a new game's settings, the secret draw vote, and the game-over screen.

``TableSettings`` is what the New Game dialog returns (plain data, no Qt); ``to_table()`` is
the form it takes in the controller's ``table`` dict and so in the saved game:

    {"players": {"france": "Anna", ...},        # player names (optional)
     "powers": ["austria", ...],                # powers with a player; the others hold (civil disorder)
     "clock": {"spring_minutes": 15, ...,       # ClockSettings
               "wilson_rounds": 0, "round_minutes": 5, "declaration_minutes": 3},
     "secrecy": true,                           # hot-seat curtain on / off
     "pins": {"france": "pbkdf2_sha256$..."},   # salted PIN hashes, never PINs
     "host_pin": "pbkdf2_sha256$...",           # the host PIN's salted hash (absent: no host PIN)
     "formal": true}                            # Formal Diplomacy (seed 003); absent: the standard game

A new game never carries the previous game's PINs: the dialog starts with none, and only the PINs
typed into it are kept (as hashes).

``DrawVote`` is the plain model of a draw proposal: every surviving player votes in secret, the
result is only "all accepted" or "not accepted" (never who declined).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QIntValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...engine.board import Board
from ...engine.game import GameEnd
from ...engine.rules import Edition
from ...engine.state import GameState
from .. import override
from ..board.palette import power_colour, power_ink, power_letter
from .clock import MAX_ROUNDS, ClockSettings
from .hotseat import hash_pin, is_valid_pin, pin_matches

EDITIONS = ((Edition.CLASSIC.value, "Classic rules (1971/1982 rulebook, DATC 2.4)"),
            (Edition.Y2023.value, "2023 rulebook (DATC 3.0)"))


# -- settings ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How this table plays: who plays which power, rules, length, clock and secrecy."""

    powers: tuple[str, ...] = ()  # empty: every power of the board
    players: Mapping[str, str] = field(default_factory=dict)
    edition: str = Edition.CLASSIC.value
    end_year: int | None = None
    clock: ClockSettings = field(default_factory=ClockSettings)
    secrecy: bool = True
    pins: Mapping[str, str] = field(default_factory=dict)  # power -> salted hash
    host_pin: str | None = None  # salted hash of the host PIN; None: anyone may do host actions
    formal: bool = False  # Formal Diplomacy (seed 003): relations, declarations, restrictions

    def __post_init__(self) -> None:
        Edition.parse(self.edition)
        for power, stored in self.pins.items():
            if not stored.startswith("pbkdf2_sha256$"):
                raise ValueError(f"the PIN of {power} must be given as a hash")
        if self.host_pin is not None and not self.host_pin.startswith("pbkdf2_sha256$"):
            raise ValueError("the host PIN must be given as a hash")

    def powers_in_play(self, board: Board) -> tuple[str, ...]:
        return tuple(p for p in board.power_ids if not self.powers or p in self.powers)

    def to_table(self) -> dict[str, Any]:
        return {
            "players": {p: n for p, n in self.players.items() if n},
            "powers": list(self.powers),
            "clock": self.clock.to_dict(),
            "secrecy": self.secrecy,
            "pins": dict(self.pins),
            **({"host_pin": self.host_pin} if self.host_pin is not None else {}),
            **({"formal": True} if self.formal else {}),
        }

    @classmethod
    def from_table(cls, table: Mapping[str, Any], *, edition: str = Edition.CLASSIC.value,
                   end_year: int | None = None, formal: bool | None = None) -> TableSettings:
        """The settings kept in a game's table (edition and end year live in the game itself, and
        so does Formal Diplomacy: ``formal`` is the game's own flag when given)."""
        players = table.get("players") or {}
        powers = table.get("powers") or []
        pins = table.get("pins") or {}
        host_pin = table.get("host_pin")
        try:
            clock = ClockSettings.from_dict(table.get("clock") or {})
        except (TypeError, ValueError):
            clock = ClockSettings()
        return cls(tuple(str(p) for p in powers) if isinstance(powers, list) else (),
                   {str(k): str(v) for k, v in players.items()} if isinstance(players, dict) else {},
                   edition, end_year, clock, bool(table.get("secrecy", True)),
                   {str(k): str(v) for k, v in pins.items() if str(v).startswith("pbkdf2_sha256$")}
                   if isinstance(pins, dict) else {},
                   host_pin if isinstance(host_pin, str) and host_pin.startswith("pbkdf2_sha256$") else None,
                   bool(table.get("formal", False)) if formal is None else formal)


def _minutes(value: float, tip: str, *, least: float = 0) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(least, 120)
    spin.setDecimals(1)
    spin.setSingleStep(1)
    spin.setSuffix(" min")
    spin.setValue(value)
    spin.setToolTip(tip)
    return spin


class ClockSettingsBox(QGroupBox):
    """The clock's settings: the talks (one period a season, or Wilson rounds), the Formal
    Diplomacy declarations window, order writing, retreats, builds.  In the New Game dialog and in
    Table ▸ Clock settings."""

    def __init__(self, initial: ClockSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__("Clock (minutes; 0 = no clock)", parent)
        c = initial or ClockSettings()
        form = QFormLayout(self)
        self.wilson_box = QCheckBox("Wilson rounds: talk in the open, in rounds")
        self.wilson_box.setToolTip("Seed 003: all discussions at the table and in the open, in five-minute "
                                   "rounds; the last round's end ends the talks")
        self.rounds_spin = QSpinBox()
        self.rounds_spin.setRange(1, MAX_ROUNDS)
        self.rounds_spin.setSuffix(" rounds")
        self.rounds_spin.setToolTip("How many rounds of talks in each Spring and Fall (the host may add one "
                                    "during a phase)")
        self.round_spin = _minutes(c.round_minutes if c.round_minutes > 0 else 5.0, "Each round's length",
                                   least=0.5)
        rounds_row = QHBoxLayout()
        rounds_row.addWidget(self.rounds_spin)
        rounds_row.addWidget(QLabel("of"))
        rounds_row.addWidget(self.round_spin)
        self.spring_spin = _minutes(c.spring_minutes, "Spring talks (tournaments: 15\u201318)")
        self.fall_spin = _minutes(c.fall_minutes, "Fall talks")
        self.declaration_spin = _minutes(c.declaration_minutes, "Formal Diplomacy games only: the declarations "
                                                                "window between the talks and the orders")
        self.writing_spin = _minutes(c.writing_minutes, "Writing orders after the talks")
        self.retreat_spin = _minutes(c.retreat_minutes, "Retreats")
        self.adjustment_spin = _minutes(c.adjustment_minutes, "Builds and removals")
        form.addRow(self.wilson_box)
        form.addRow("Rounds", rounds_row)
        for label, spin in (("Spring diplomacy", self.spring_spin), ("Fall diplomacy", self.fall_spin),
                            ("Declarations (Formal)", self.declaration_spin),
                            ("Writing orders", self.writing_spin), ("Retreats", self.retreat_spin),
                            ("Builds and removals", self.adjustment_spin)):
            form.addRow(label, spin)
        self.wilson_box.toggled.connect(self._update_enabled)
        self.set_settings(c)

    def _update_enabled(self) -> None:
        on = self.wilson_box.isChecked()
        self.rounds_spin.setEnabled(on)
        self.round_spin.setEnabled(on)
        self.spring_spin.setEnabled(not on)  # Wilson rounds replace the one talks period
        self.fall_spin.setEnabled(not on)

    def set_settings(self, c: ClockSettings) -> None:
        self.wilson_box.setChecked(c.wilson)
        self.rounds_spin.setValue(c.wilson_rounds if c.wilson else 5)
        self.round_spin.setValue(c.round_minutes if c.round_minutes > 0 else 5.0)
        for spin, value in ((self.spring_spin, c.spring_minutes), (self.fall_spin, c.fall_minutes),
                            (self.declaration_spin, c.declaration_minutes), (self.writing_spin, c.writing_minutes),
                            (self.retreat_spin, c.retreat_minutes), (self.adjustment_spin, c.adjustment_minutes)):
            spin.setValue(value)
        self._update_enabled()

    def settings(self) -> ClockSettings:
        return ClockSettings(self.spring_spin.value(), self.fall_spin.value(), self.writing_spin.value(),
                             self.retreat_spin.value(), self.adjustment_spin.value(),
                             wilson_rounds=self.rounds_spin.value() if self.wilson_box.isChecked() else 0,
                             round_minutes=self.round_spin.value(),
                             declaration_minutes=self.declaration_spin.value())


class ClockSettingsDialog(QDialog):
    """Table ▸ Clock settings: the clock of the game in progress (Wilson rounds on or off, how many,
    how long).  A phase whose clock has started keeps its plan; the new settings apply from the
    next phase."""

    def __init__(self, initial: ClockSettings, parent: QWidget | None = None, *, note: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Clock settings")
        self.box = ClockSettingsBox(initial)
        self.note = QLabel(note)
        self.note.setWordWrap(True)
        self.note.setVisible(bool(note))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.addWidget(self.box)
        layout.addWidget(self.note)
        layout.addWidget(buttons)

    def settings(self) -> ClockSettings:
        return self.box.settings()


def _chip(power: str, name: str) -> QLabel:
    chip = QLabel(f" {power_letter(power)}  {name} ")
    chip.setStyleSheet(f"QLabel {{ background: {power_colour(power).name()}; color: {power_ink(power).name()};"
                       " border-radius: 6px; padding: 2px 6px; font-weight: bold; }")
    return chip


class NewGameDialog(QDialog):
    """Who plays, which rules, how long, the clock, secrecy and the host PIN.  "Start game" with
    no change gives the standard game: seven powers, classic rules, 15 + 5 minute clock, secrecy
    on, no PINs.  PINs are never carried over from ``initial`` (a new game starts without any)."""

    def __init__(self, board: Board, initial: TableSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.board = board
        initial = initial or TableSettings()

        players = QGroupBox("Players")
        grid = QGridLayout(players)
        grid.addWidget(QLabel("Plays"), 0, 0)
        grid.addWidget(QLabel("Power"), 0, 1)
        grid.addWidget(QLabel("Player's name (optional)"), 0, 2)
        grid.addWidget(QLabel("PIN (optional, 4 digits)"), 0, 3)
        self.play_boxes: dict[str, QCheckBox] = {}
        self.name_edits: dict[str, QLineEdit] = {}
        self.pin_edits: dict[str, QLineEdit] = {}
        for row, power in enumerate(board.power_ids, start=1):
            name = board.power(power).name
            box = QCheckBox()
            box.setChecked(not initial.powers or power in initial.powers)
            box.setToolTip(f"{name} has a player (unchecked: its units hold, civil disorder)")
            edit = QLineEdit(initial.players.get(power, ""))
            edit.setPlaceholderText(name)
            pin = QLineEdit()
            pin.setEchoMode(QLineEdit.EchoMode.Password)
            pin.setMaxLength(4)
            pin.setValidator(QIntValidator(0, 9999, pin))
            pin.setPlaceholderText("none")
            pin.setToolTip("Protects this power's orders: asked at the curtain. Type it yourself, unseen.")
            box.toggled.connect(edit.setEnabled)
            box.toggled.connect(pin.setEnabled)
            edit.setEnabled(box.isChecked())
            pin.setEnabled(box.isChecked())
            grid.addWidget(box, row, 0, Qt.AlignmentFlag.AlignCenter)
            grid.addWidget(_chip(power, name), row, 1)
            grid.addWidget(edit, row, 2)
            grid.addWidget(pin, row, 3)
            self.play_boxes[power] = box
            self.name_edits[power] = edit
            self.pin_edits[power] = pin

        rules = QGroupBox("Rules and length")
        form = QFormLayout(rules)
        self.edition_combo = QComboBox()
        for value, text in EDITIONS:
            self.edition_combo.addItem(text, value)
        self.edition_combo.setCurrentIndex(max(0, self.edition_combo.findData(initial.edition)))
        form.addRow("Rule edition", self.edition_combo)
        short = QHBoxLayout()
        self.short_box = QCheckBox("Short game: end after")
        self.end_year_spin = QSpinBox()
        self.end_year_spin.setRange(board.start_year, board.start_year + 200)
        self.end_year_spin.setValue(initial.end_year or board.start_year + 6)
        self.short_box.setChecked(initial.end_year is not None)
        self.end_year_spin.setEnabled(initial.end_year is not None)
        self.short_box.toggled.connect(self.end_year_spin.setEnabled)
        short.addWidget(self.short_box)
        short.addWidget(self.end_year_spin)
        short.addWidget(QLabel("(most centres wins; ties are shown)"))
        short.addStretch(1)
        form.addRow("Length", short)
        self.formal_box = QCheckBox("Formal Diplomacy (seed 003)")
        self.formal_box.setChecked(initial.formal)
        self.formal_box.setToolTip(
            "Every pair of powers is allied, neutral or at war. After the talks each power declares its relations "
            "in secret, behind the curtain; all are revealed together, then orders are written. Relations "
            "restrict moves, supports, convoys and centres (seed 003, Formal Diplomacy).")
        form.addRow("Variant", self.formal_box)

        clock = self.clock_box = ClockSettingsBox(initial.clock)
        self.spring_spin = clock.spring_spin
        self.fall_spin = clock.fall_spin
        self.writing_spin = clock.writing_spin
        self.retreat_spin = clock.retreat_spin
        self.adjustment_spin = clock.adjustment_spin

        self.secrecy_box = QCheckBox("Hot-seat secrecy: each power writes its orders alone, behind a curtain")
        self.secrecy_box.setChecked(initial.secrecy)
        host = QHBoxLayout()
        host.addWidget(QLabel("Host PIN (optional, 4 digits):"))
        self.host_pin_edit = QLineEdit()
        self.host_pin_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.host_pin_edit.setMaxLength(4)
        self.host_pin_edit.setValidator(QIntValidator(0, 9999, self.host_pin_edit))
        self.host_pin_edit.setPlaceholderText("none")
        self.host_pin_edit.setFixedWidth(90)
        self.host_pin_edit.setToolTip("The host types it, unseen. It guards lifting secrecy, revealing before "
                                      "everyone has sealed, undoing an adjudication, reopening someone "
                                      "else's orders and ending the game.")
        host.addWidget(self.host_pin_edit)
        self.host_note = QLabel("Without a host PIN, anyone at the table may do the host's actions "
                                "(lift secrecy, reveal now, undo an adjudication, reopen, end the game).")
        self.host_note.setWordWrap(True)
        host.addWidget(self.host_note, 1)

        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #a50021;")
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.start_button = self.buttons.addButton("Start game", QDialogButtonBox.ButtonRole.AcceptRole)
        self.start_button.setDefault(True)
        self.defaults_button = self.buttons.addButton("Standard settings", QDialogButtonBox.ButtonRole.ResetRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.defaults_button.clicked.connect(self.reset_to_defaults)

        layout = QVBoxLayout(self)
        layout.addWidget(players)
        settings_row = QHBoxLayout()
        settings_row.addWidget(rules, 3)
        settings_row.addWidget(clock, 2)
        layout.addLayout(settings_row)
        layout.addWidget(self.secrecy_box)
        layout.addLayout(host)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)

    def reset_to_defaults(self) -> None:
        d = TableSettings()
        for power in self.board.power_ids:
            self.play_boxes[power].setChecked(True)
        self.edition_combo.setCurrentIndex(self.edition_combo.findData(d.edition))
        self.short_box.setChecked(False)
        self.clock_box.set_settings(d.clock)
        self.formal_box.setChecked(False)
        self.secrecy_box.setChecked(True)

    def problems(self) -> list[str]:
        out = []
        playing = [p for p, b in self.play_boxes.items() if b.isChecked()]
        if len(playing) < 2:
            out.append("At least two powers need players.")
        for p in playing:
            pin = self.pin_edits[p].text()
            if pin and not is_valid_pin(pin):
                out.append(f"{self.board.power(p).name}'s PIN must be four digits.")
        host = self.host_pin_edit.text()
        if host and not is_valid_pin(host):
            out.append("The host PIN must be four digits.")
        return out

    def settings(self) -> TableSettings:
        """What the dialog says now (PINs hashed here; the digits go no further)."""
        playing = tuple(p for p in self.board.power_ids if self.play_boxes[p].isChecked())
        pins: dict[str, str] = {}
        for p in playing:
            typed = self.pin_edits[p].text()
            if typed and is_valid_pin(typed):
                pins[p] = hash_pin(typed)
        host = self.host_pin_edit.text()
        clock = self.clock_box.settings()
        return TableSettings(
            powers=() if len(playing) == len(self.board.power_ids) else playing,
            players={p: self.name_edits[p].text().strip() for p in playing if self.name_edits[p].text().strip()},
            edition=str(self.edition_combo.currentData()),
            end_year=self.end_year_spin.value() if self.short_box.isChecked() else None,
            clock=clock,
            secrecy=self.secrecy_box.isChecked(),
            pins=pins,
            host_pin=hash_pin(host) if host and is_valid_pin(host) else None,
            formal=self.formal_box.isChecked(),
        )

    @override
    def accept(self) -> None:
        problems = self.problems()
        if problems:
            self.error_label.setText(" ".join(problems))
            return
        super().accept()

    @classmethod
    def ask(cls, board: Board, initial: TableSettings | None = None,
            parent: QWidget | None = None) -> TableSettings | None:
        dialog = cls(board, initial, parent)
        try:
            if dialog.exec() == QDialog.DialogCode.Accepted:
                return dialog.settings()
            return None
        finally:
            dialog.deleteLater()


# -- the draw vote -----------------------------------------------------------------------------


class DrawVoteError(ValueError):
    """A vote out of turn, twice, or by a power that has no vote."""


@dataclass(slots=True)
class DrawVote:
    """A draw proposal: each surviving power votes in turn; a draw only if all accept."""

    voters: tuple[str, ...]
    votes: dict[str, bool] = field(default_factory=dict)

    @property
    def next_voter(self) -> str | None:
        for p in self.voters:
            if p not in self.votes:
                return p
        return None

    @property
    def complete(self) -> bool:
        return self.next_voter is None

    @property
    def accepted(self) -> bool:
        """All voted, and all accepted."""
        return self.complete and bool(self.voters) and all(self.votes[p] for p in self.voters)

    def vote(self, power: str, accept: bool) -> None:
        if power != self.next_voter:
            raise DrawVoteError(f"it is not {power}'s turn to vote")
        self.votes[power] = bool(accept)


class DrawVoteDialog(QDialog):
    """Passes the laptop round: each surviving player accepts or declines the draw unseen.

    Shows only the outcome: "accepted by all" or "not accepted", never who declined.
    """

    voted = Signal(str)

    def __init__(self, voters: Sequence[str], parent: QWidget | None = None, *,
                 names: Mapping[str, str] | None = None, pins: Mapping[str, str] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Draw vote")
        self.vote = DrawVote(tuple(voters))
        self.names = dict(names or {})
        self.pins = dict(pins or {})
        self.stack = QStackedWidget()

        big = QFont(self.font())
        big.setPointSize(26)
        big.setBold(True)

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
        self.pin_edit.setMaxLength(4)
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
        self.resize(520, 340)
        self._show_next()

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

    def _on_ready(self) -> None:
        nxt = self.vote.next_voter
        if nxt is None:
            return
        stored = self.pins.get(nxt)
        if stored is not None and not pin_matches(stored, self.pin_edit.text()):
            self.pin_error.setText("Wrong PIN")
            return
        self.vote_heading.setText(self._name(nxt))
        others = [self._name(p) for p in self.vote.voters if p != nxt]
        self.vote_question.setText(f"Do you accept a draw shared by {', '.join(others)} and you?")
        self.stack.setCurrentWidget(self.vote_page)

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


# -- game over ---------------------------------------------------------------------------------


def standings(state: GameState) -> list[tuple[str, int, int]]:
    """(power, centres, units), most centres first, then board order."""
    centres = state.centre_counts()
    units = state.unit_counts()
    order = {p: i for i, p in enumerate(state.board.power_ids)}
    return sorted(((p, centres.get(p, 0), units.get(p, 0)) for p in state.board.power_ids),
                  key=lambda row: (-row[1], order[row[0]]))


def end_headline(end: GameEnd, board: Board, names: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The big title and the line under it."""
    names = names or {}

    def who(p: str) -> str:
        player = names.get(p)
        return f"{board.power(p).name} ({player})" if player else board.power(p).name

    winners = [who(p) for p in end.winners]
    joined = ", ".join(winners[:-1]) + " and " + winners[-1] if len(winners) > 1 else (winners[0] if winners else "")
    if end.kind == "victory":
        return f"{joined} wins!", end.text
    if end.kind == "draw":
        return "A draw", f"Shared by {joined}."
    if len(end.winners) > 1:
        return f"Tie: {joined}", end.text
    return f"{joined} leads", end.text


class GameOverDialog(QDialog):
    """The end: who won (or drew, or led when time ran out), and everyone's centres."""

    NEW_GAME = 2

    def __init__(self, end: GameEnd, state: GameState, parent: QWidget | None = None, *,
                 names: Mapping[str, str] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Game over")
        self.end = end
        board = state.board
        names = dict(names or {})
        headline, subline = end_headline(end, board, names)
        kicker = QLabel({"victory": "Victory", "draw": "The game ends in a draw",
                         "short_game": "The agreed last year has been played"}
                        .get(end.kind, "Game over"))
        kicker.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.headline = QLabel(headline)
        f = QFont(self.headline.font())
        f.setPointSize(30)
        f.setBold(True)
        self.headline.setFont(f)
        self.headline.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.headline.setWordWrap(True)
        if len(end.winners) == 1:
            self.headline.setStyleSheet(f"color: {power_colour(end.winners[0]).darker(130).name()};")
        self.subline = QLabel(subline)
        self.subline.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.subline.setWordWrap(True)

        rows = standings(state)
        self.table = QTableWidget(len(rows), 4)
        self.table.setHorizontalHeaderLabels(["", "Power", "Centres", "Units"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        for r, (p, centres, units) in enumerate(rows):
            mark = "\u2605" if p in end.winners else ""
            player = names.get(p)
            name = board.power(p).name + (f" ({player})" if player else "")
            if state.is_eliminated(p):
                name += " \u2014 eliminated"
            items = [QTableWidgetItem(mark), QTableWidgetItem(name), QTableWidgetItem(str(centres)),
                     QTableWidgetItem(str(units))]
            items[0].setBackground(power_colour(p))
            items[0].setForeground(power_ink(p))
            items[0].setText(f"{power_letter(p)} {mark}".strip())
            for c, it in enumerate(items):
                if c >= 2:
                    it.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if p in end.winners:
                    font = it.font()
                    font.setBold(True)
                    it.setFont(font)
                self.table.setItem(r, c, it)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2, 3):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)

        self.buttons = QDialogButtonBox()
        self.board_button = self.buttons.addButton("Look at the board", QDialogButtonBox.ButtonRole.RejectRole)
        self.new_button = self.buttons.addButton("New game\u2026", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.rejected.connect(self.reject)
        self.new_button.clicked.connect(lambda: self.done(self.NEW_GAME))

        layout = QVBoxLayout(self)
        layout.addWidget(kicker)
        layout.addWidget(self.headline)
        layout.addWidget(self.subline)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self.resize(520, 520)
