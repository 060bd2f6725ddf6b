"""``NewGameDialog``: a new game's settings (players, powers, seats, PINs, clock, secrecy, rules).

``TableSettings`` (``table.settings``) is what the New Game dialog returns (plain data, no Qt);
``to_table()`` is the form it takes in the controller's ``table`` dict and so in the saved game:

    {"players": {"france": "Anna", ...},        # player names (optional)
     "powers": ["austria", ...],                # powers with a player; the others hold (civil disorder)
     "clock": {"spring_minutes": 15, ...,       # ClockSettings
               "wilson_rounds": 0, "round_minutes": 5, "declaration_minutes": 3},
     "secrecy": true,                           # hot-seat curtain on / off
     "pins": {"france": "scrypt$..."},          # salted PIN hashes, never PINs (io.pins)
     "host_pin": "scrypt$...",                  # the host PIN's salted hash (absent: no host PIN)
     "formal": true,                            # Formal Diplomacy (seed 003); absent: the standard game
     "short_game_by": "centres",                # a short game's winner: most "centres" or "pieces"
     "seating": {"method": "priority", ...},    # how the powers were assigned (seed and draws)
     "notes_allowed": true}                     # private notes between players (absent: not allowed)

Players and seats: the powers with the same player name are one player's *seat*, written in one
curtain turn.  One PIN per player: the player's PIN is hashed once and the same hash is kept
under each of their powers in ``pins`` (so a save from before seats, with a PIN per power, still
loads and works: any PIN of a seat opens it).  ``disorder`` (the host's civil-disorder marks) is
added to the table during the game, not by the New Game dialog.

A new game never carries the previous game's PINs: the dialog starts with none, and only the PINs
typed into it are kept (as hashes).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, QRegularExpression, Qt
from PySide6.QtGui import QFontMetrics, QRegularExpressionValidator
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QFrame, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit,
                               QPushButton, QScrollArea, QSpinBox, QVBoxLayout, QWidget)

from ....engine.board import Board
from ....engine.game import BY_CENTRES, BY_PIECES
from ....engine.rules import Edition
from ....engine.seating import GROUPINGS
from ....io.pins import MAX_PIN_DIGITS, is_valid_pin
from ....io.vault import passphrase_problem
from ....table.computer import LEVEL_WORDS, draw_computer_seed
from ....table.hotseat import hash_pin
from ....table.pins import pin_problem
from ....table.parts import SeatingPart
from ....table.settings import TableSettings, seating_part
from ... import override
from ...board.palette import power_colour, power_ink, power_letter
from ..seating import PriorityDialog
from ....table.seating import join_names, seat_name, seats_from_players
from .clock_settings import ClockSettingsBox
from ...widgets import open_kept

#: the New Game dialog's result when "Practice: you against the computer…" was chosen instead
PRACTICE_CHOSEN = 2

#: the "Played by" column: a person, or the computer at one of its levels (bots.LEVELS)
PLAYED_BY = (("a person", None), ("the computer: beginner", "beginner"), ("the computer: club player", "club"),
             ("the computer: strong", "strong"))

EDITIONS = ((Edition.CLASSIC.value, "Classic rules (1971/1982 rulebook, DATC 2.4)"),
            (Edition.Y2023.value, "2023 rulebook (DATC 3.0)"))


#: New Game's explicit choice to play in secret without PINs (issue 20: told plainly what it allows)
NO_PINS_TEXT = "No PINs: anyone at the laptop may open a power's orders when the curtain calls it"


def _sentence_of(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", ")")) else text + "."


def _chip(power: str, name: str) -> QLabel:
    chip = QLabel(f" {power_letter(power)}  {name} ")
    chip.setStyleSheet(f"QLabel {{ background: {power_colour(power).name()}; color: {power_ink(power).name()};"
                       " border-radius: 6px; padding: 2px 6px; font-weight: bold; }")
    return chip


#: a window manager's title bar, at least (the dialog's own is known only once it is shown)
TITLE_BAR = 32


def screen_room(widget: QWidget) -> QRect:
    """The part of ``widget``'s screen a window may use (without the taskbar)."""
    screen = widget.screen() or QApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 10_000, 10_000)


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
        players_box = QVBoxLayout(players)
        seats_row = QHBoxLayout()
        seats_row.addWidget(QLabel("Number of players:"))
        self.players_spin = QSpinBox()
        self.players_spin.setRange(min(GROUPINGS), max(GROUPINGS))
        self.players_spin.setToolTip("Seven is best; as few as two may play (rules I). Fewer players: the "
                                     "rulebook's grouping is filled in; one player may hold several powers.")
        seats_row.addWidget(self.players_spin)
        seats_row.addWidget(QLabel("Powers assigned:"))
        self.assign_combo = QComboBox()
        self.assign_combo.addItem("by the host (names below)", "hand")
        self.assign_combo.addItem("by priority, choices written openly", "priority")
        self.assign_combo.addItem("by priority, choices written secretly", "secret")
        self.assign_combo.setToolTip("Rules I: each player names three powers in priority; ties are settled by "
                                     "a seeded draw shown to the table")
        seats_row.addWidget(self.assign_combo)
        self.priority_button = QPushButton("Players' priorities\u2026")
        seats_row.addWidget(self.priority_button)
        seats_row.addStretch(1)
        players_box.addLayout(seats_row)
        names_row = QHBoxLayout()
        self.players_caption = QLabel("Players:")
        names_row.addWidget(self.players_caption)
        self.player_edits: list[QLineEdit] = []
        for i in range(max(GROUPINGS)):
            edit = QLineEdit()
            edit.setPlaceholderText(f"Player {i + 1}")
            edit.setMinimumWidth(70)
            names_row.addWidget(edit, 1)
            self.player_edits.append(edit)
        players_box.addLayout(names_row)
        self.grouping_label = QLabel()
        self.grouping_label.setWordWrap(True)
        players_box.addWidget(self.grouping_label)
        self.record_label = QPlainTextEdit()  # the priority draw, in words (scrolls: the dialog fits 768 px)
        self.record_label.setReadOnly(True)
        self.record_label.setStyleSheet("color: #1d3f6e;")
        self.record_label.setMaximumHeight(QFontMetrics(self.font()).lineSpacing() * 5 + 12)
        self.record_label.hide()
        players_box.addWidget(self.record_label)
        grid = QGridLayout()
        players_box.addLayout(grid)
        self.unplayed_label = QLabel()
        self.unplayed_label.setWordWrap(True)
        self.unplayed_label.setStyleSheet("color: #6b4a00;")
        players_box.addWidget(self.unplayed_label)
        grid.addWidget(QLabel("Plays"), 0, 0)
        grid.addWidget(QLabel("Power"), 0, 1)
        grid.addWidget(QLabel("Played by"), 0, 2)
        grid.addWidget(QLabel("Player's name (optional)"), 0, 3)
        grid.addWidget(QLabel("PIN (4 to 8 digits; one per player)"), 0, 4)
        self.play_boxes: dict[str, QCheckBox] = {}
        self.name_edits: dict[str, QLineEdit] = {}
        self.pin_edits: dict[str, QLineEdit] = {}
        #: issue 33: who plays each power, a person or the computer at a level (``table.computer``)
        self.played_by: dict[str, QComboBox] = {}
        #: the computer's seed for this game (drawn here: every new game plays differently)
        self.computer_seed = initial.computer_seed or draw_computer_seed()
        for row, power in enumerate(board.power_ids, start=1):
            name = board.power(power).name
            box = QCheckBox()
            box.setChecked(not initial.powers or power in initial.powers)
            box.setToolTip(f"{name} has a player (unchecked: its units hold, civil disorder)")
            edit = QLineEdit(initial.players.get(power, ""))
            edit.setPlaceholderText(name)
            pin = QLineEdit()
            pin.setEchoMode(QLineEdit.EchoMode.Password)
            pin.setMaxLength(MAX_PIN_DIGITS)
            pin.setValidator(QRegularExpressionValidator(QRegularExpression("[0-9]{0,8}"), pin))
            pin.setPlaceholderText("none")
            pin.setToolTip("Protects this power's orders: asked at the curtain. Type it yourself, unseen.")
            who = QComboBox()
            for text, level in PLAYED_BY:
                who.addItem(text, level)
            who.setCurrentIndex(max(0, who.findData(initial.computer.get(power))))
            who.setToolTip(f"Who writes {name}'s orders: a person behind the curtain (or on a phone), or the "
                           "computer, which writes and seals them when the writing begins: secret until the "
                           "reveal, like everyone's")
            grid.addWidget(box, row, 0, Qt.AlignmentFlag.AlignCenter)
            grid.addWidget(_chip(power, name), row, 1)
            grid.addWidget(who, row, 2)
            grid.addWidget(edit, row, 3)
            grid.addWidget(pin, row, 4)
            self.play_boxes[power] = box
            self.name_edits[power] = edit
            self.pin_edits[power] = pin
            self.played_by[power] = who
            box.toggled.connect(lambda _on, p=power: self._update_row(p))
            who.currentIndexChanged.connect(lambda _i, p=power: self._update_row(p))
            self._update_row(power, quiet=True)

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
        short.addWidget(QLabel("winner:"))
        self.short_by_combo = QComboBox()
        self.short_by_combo.addItem("most supply centres (XIV.4)", BY_CENTRES)
        self.short_by_combo.addItem("most pieces on the board (III)", BY_PIECES)
        self.short_by_combo.setCurrentIndex(max(0, self.short_by_combo.findData(initial.short_game_by)))
        self.short_by_combo.setToolTip("Ties are shown as ties")
        short.addWidget(self.short_by_combo)
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
        self.notes_box = QCheckBox("Private notes: players may write short notes to one or more powers "
                                   "(behind the curtain or on their phones)")
        self.notes_box.setToolTip("Seed 001's written messages, for tables that allow them: a note reaches only "
                                  "the powers it is written to, never the shared board. Off by default.")
        self.notes_box.setChecked(initial.notes)
        host = QHBoxLayout()
        host.addWidget(QLabel("Host PIN (4 to 8 digits):"))
        self.host_pin_edit = QLineEdit()
        self.host_pin_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.host_pin_edit.setMaxLength(MAX_PIN_DIGITS)
        self.host_pin_edit.setValidator(QRegularExpressionValidator(QRegularExpression("[0-9]{0,8}"),
                                                                    self.host_pin_edit))
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
        # issue 20: secrecy means PINs, unless the table says plainly that it plays without them
        self.no_pins_box = QCheckBox(NO_PINS_TEXT)
        self.no_pins_box.setToolTip("Without PINs, whoever sits at the laptop when the curtain calls a power "
                                    "sees and changes its orders, and its phone link can be carried away.")
        # and a passphrase: the unrevealed orders, notes and phone links are written encrypted under it
        passphrase_row = QHBoxLayout()
        passphrase_row.addWidget(QLabel("Host's passphrase (four or more words):"))
        self.passphrase_edit = QLineEdit()
        self.passphrase_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase_edit.setPlaceholderText("asked again after a crash")
        self.passphrase_again = QLineEdit()
        self.passphrase_again.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase_again.setPlaceholderText("the same again")
        for w in (self.passphrase_edit, self.passphrase_again):
            w.setToolTip("The orders, notes and phone links not yet revealed are saved encrypted under it: "
                         "nobody reads them from the laptop's files. Restarting after a crash asks for it.")
            passphrase_row.addWidget(w, 1)
        # issue 31: a weak passphrase is refused; a strong one is offered (five words of a fixed list)
        self.suggest_button = QPushButton("Suggest one")
        self.suggest_button.setToolTip("Five words drawn at random from a list of common words: write them down")
        self.suggest_button.clicked.connect(self.suggest_passphrase)
        passphrase_row.addWidget(self.suggest_button)
        self.suggestion_label = QLabel()
        self.suggestion_label.setWordWrap(True)
        self.suggestion_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.suggestion_label.hide()
        self.passphrase_edit.textEdited.connect(lambda _t: self.suggestion_label.hide())

        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #a50021;")
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.start_button = self.buttons.addButton("Start game", QDialogButtonBox.ButtonRole.AcceptRole)
        self.start_button.setDefault(True)
        self.defaults_button = self.buttons.addButton("Standard settings", QDialogButtonBox.ButtonRole.ResetRole)
        self.call_button = self.buttons.addButton("Board call\u2026", QDialogButtonBox.ButtonRole.ResetRole)
        self.call_button.setToolTip("Read the tournament's board call: a CSV of power, player and player id")
        self.call_button.clicked.connect(lambda: self.import_board_call())
        #: the board call read into the dialog (``table.results.BoardCall``; its ids go into the game's table)
        self.board_call: Any = None
        # issue 33: one person alone plays the six others' computer (gui/table/practice.py)
        self.practice_button = self.buttons.addButton("Practice: you against the computer\u2026",
                                                      QDialogButtonBox.ButtonRole.ActionRole)
        self.practice_button.setToolTip("One person plays one power, the computer the other six: no curtain, "
                                        "no PINs, every result explained")
        self.practice_button.clicked.connect(lambda: self.done(PRACTICE_CHOSEN))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.defaults_button.clicked.connect(self.reset_to_defaults)

        # the settings scroll when the screen is too short for them (a laptop's 768 px with the
        # "Players:" row of 2 to 6 players); the refusal and Start game always stay in sight
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(players)
        settings_row = QHBoxLayout()
        settings_row.addWidget(rules, 3)
        settings_row.addWidget(clock, 2)
        layout.addLayout(settings_row)
        layout.addWidget(self.secrecy_box)
        layout.addWidget(self.notes_box)
        layout.addLayout(host)
        layout.addWidget(self.no_pins_box)
        layout.addLayout(passphrase_row)
        layout.addWidget(self.suggestion_label)
        layout.addStretch(1)
        self.settings_scroll = QScrollArea()
        self.settings_scroll.setWidgetResizable(True)
        self.settings_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.settings_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.settings_scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.addWidget(self.settings_scroll, 1)
        outer.addWidget(self.error_label)
        outer.addWidget(self.buttons)
        self.fit_to_screen(body)

        #: the priority draw (``TableSettings.seating``), once the players' priorities are assigned
        self.seating: SeatingPart = seating_part(initial.seating)
        self.priority_dialog: PriorityDialog | None = None
        seats = seats_from_players(board, initial.powers_in_play(board), initial.players)
        self.players_spin.setValue(max(min(GROUPINGS), min(len(seats), max(GROUPINGS))))
        names = [next((initial.players[p] for p in seat if initial.players.get(p)), "") for seat in seats]
        for edit, name in zip(self.player_edits, names, strict=False):
            edit.setText(name if len(seats) < len(board.power_ids) else "")
        self._show_players()
        self.players_spin.valueChanged.connect(self.apply_grouping)
        self.assign_combo.currentIndexChanged.connect(lambda _i: self._assign_mode_changed())
        self.priority_button.clicked.connect(self.open_priorities)
        for i, edit in enumerate(self.player_edits):
            edit.textChanged.connect(lambda _t, i=i: self._player_renamed(i))
        self._assign_mode_changed()
        self._show_unplayed()
        for field in (*self.pin_edits.values(), *self.name_edits.values(), self.host_pin_edit,
                      self.passphrase_edit, self.passphrase_again):
            field.textChanged.connect(lambda _t: self._recheck())
        self.no_pins_box.toggled.connect(lambda _on: self._recheck())

    # -- players and seats ---------------------------------------------------------------------

    @property
    def player_count(self) -> int:
        return self.players_spin.value()

    def player_names(self) -> list[str]:
        """The players' names (typed, or "Player N"), as many as there are players."""
        return [e.text().strip() or e.placeholderText() for e in self.player_edits[:self.player_count]]

    def grouping(self) -> tuple[tuple[str, ...], ...]:
        """The rulebook's seats for this number of players (the published groupings)."""
        return GROUPINGS[self.player_count]

    def _show_players(self) -> None:
        n = self.player_count
        # seven players each at one power, placed by the host: the name column below is the one
        # place for names (a second row of names said the same thing twice)
        row = n < len(self.board.power_ids) or self.assign_combo.currentData() != "hand"
        self.players_caption.setVisible(row)
        for i, edit in enumerate(self.player_edits):
            edit.setVisible(row and i < n)
        seats = [seat_name(self.board, seat) for seat in self.grouping()]
        self.grouping_label.setText(f"Rulebook grouping for {n} players: " + " \u00b7 ".join(seats))

    def apply_grouping(self, n: int | None = None) -> None:
        """The rulebook's grouping for ``n`` players: its seats get the players in order (the host
        may change who plays what below); the powers in no seat are not played."""
        if n is not None and n != self.players_spin.value():
            self.players_spin.setValue(n)  # valueChanged comes back here
            return
        self.seating = SeatingPart()
        self.record_label.hide()
        self._show_players()
        self._fill_names({i: i for i in range(len(self.grouping()))})

    def _fill_names(self, owner: dict[int, int]) -> None:
        """Seat ``s`` goes to player ``owner[s]``; powers of seats nobody has are not played."""
        seats = self.grouping()
        names = self.player_names()
        everyone_alone = len(seats) == len(self.board.power_ids)
        for p in self.board.power_ids:
            self.play_boxes[p].setChecked(False)
            self.played_by[p].setCurrentIndex(0)  # the grouping's seats are the players'
            self.name_edits[p].setText("")
        for s, seat in enumerate(seats):
            if s not in owner:
                continue
            typed = self.player_edits[owner[s]].text().strip()
            for p in seat:
                self.play_boxes[p].setChecked(True)
                # seven single seats keep the old default: no name unless one was typed
                self.name_edits[p].setText(typed if everyone_alone else (typed or names[owner[s]]))
        self._owner = dict(owner)
        self._show_unplayed()

    def _player_renamed(self, i: int) -> None:
        owner = getattr(self, "_owner", None)
        if owner is None:
            owner = {s: s for s in range(len(self.grouping()))}
        if i in owner.values():
            self._fill_names(owner)
        if self.seating:  # the draw named the players as they were: keep its names right
            self.seating = SeatingPart()
            self.record_label.setPlainText("A player's name changed: draw the priorities again.")
            if self.assign_combo.currentData() != "hand":
                self.record_label.show()

    def _assign_mode_changed(self) -> None:
        mode = self.assign_combo.currentData()
        self.priority_button.setEnabled(mode != "hand")
        self._show_players()
        if mode == "hand":
            self.seating = SeatingPart()
            self.record_label.hide()

    def computer_choice(self) -> dict[str, str]:
        """The played powers the computer plays, with its level."""
        return {p: str(who.currentData()) for p, who in self.played_by.items()
                if who.currentData() is not None and self.play_boxes[p].isChecked()}

    def _update_row(self, power: str, *, quiet: bool = False) -> None:
        """A power played by a person has a name and a PIN; by the computer neither; unplayed nothing."""
        played = self.play_boxes[power].isChecked()
        person = self.played_by[power].currentData() is None
        if not person:  # the computer has no name and no PIN
            self.name_edits[power].clear()
            self.pin_edits[power].clear()
        self.played_by[power].setEnabled(played)
        self.name_edits[power].setEnabled(played and person)
        self.pin_edits[power].setEnabled(played and person)
        if not quiet:  # (while the dialog is made: shown once it is)
            self._show_unplayed()
            self._recheck()

    def _show_unplayed(self) -> None:
        gone = [p for p in self.board.power_ids if not self.play_boxes[p].isChecked()]
        text = (f"Not played: {seat_name(self.board, gone)} \u2014 in civil disorder (rules XIV.1): "
                "units hold, do not support each other, are disbanded when dislodged, no builds." if gone else "")
        computer = self.computer_choice()
        if computer:
            text += (" " if text else "") + (
                "Played by the computer: " + join_names([f"{self.board.power(p).name} ({LEVEL_WORDS[lvl]})"
                                                         for p, lvl in computer.items()])
                + " \u2014 the curtain never calls them; their orders are sealed when the writing begins.")
        self.unplayed_label.setText(text)
        self.unplayed_label.setVisible(bool(text))

    def open_priorities(self) -> PriorityDialog:
        """The players' three choices each (openly, or one at a time behind the dialog's curtain),
        then the seeded draw; "Use this assignment" fills in who plays what."""
        secret = self.assign_combo.currentData() == "secret"
        dialog = PriorityDialog(self.board, self.grouping(), self.player_names(), secret=secret, parent=self)

        def finished(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.assignment is not None:
                self.use_assignment(dialog)

        open_kept(self, "priority_dialog", dialog, finished)
        return dialog

    def use_assignment(self, dialog: PriorityDialog) -> None:
        assignment = dialog.assignment
        assert assignment is not None
        names = self.player_names()
        seats = list(self.grouping())
        owner = {seats.index(seat): names.index(player) for player, seat in assignment.seats}
        self._fill_names(owner)
        self.seating = dialog.table_record()
        self.record_label.setPlainText("\n".join(str(line) for line in self.seating.record or []))
        self.record_label.show()

    def import_board_call(self, path: str | None = None) -> bool:
        """Fill the players' names from a board call (gui/table/tournament.py reads it)."""
        from ..tournament import fill_from_board_call

        return fill_from_board_call(self, path)

    def reset_to_defaults(self) -> None:
        d = TableSettings()
        for edit in self.player_edits:
            edit.clear()
        self.players_spin.setValue(max(GROUPINGS))
        self.assign_combo.setCurrentIndex(0)
        self.short_by_combo.setCurrentIndex(0)
        for power in self.board.power_ids:
            self.play_boxes[power].setChecked(True)
            self.played_by[power].setCurrentIndex(0)
        self.edition_combo.setCurrentIndex(self.edition_combo.findData(d.edition))
        self.short_box.setChecked(False)
        self.clock_box.set_settings(d.clock)
        self.formal_box.setChecked(False)
        self.secrecy_box.setChecked(True)
        self.notes_box.setChecked(False)

    def suggest_passphrase(self) -> str:
        """Fill both passphrase boxes with a generated passphrase and show it once, to write down."""
        from ....io.passphrase import generate_passphrase

        passphrase = generate_passphrase()
        self.passphrase_edit.setText(passphrase)
        self.passphrase_again.setText(passphrase)
        self.suggestion_label.setText(f"The passphrase: <b>{passphrase}</b> — write it down; a restart after a "
                                      "crash asks for it.")
        self.suggestion_label.show()
        self.settings_scroll.ensureWidgetVisible(self.suggestion_label)
        return passphrase

    def _pin_problems(self, playing: list[str], host: str) -> list[str]:
        """The PINs typed for the powers people play: well formed, not the host's, and (in secret
        without the "No PINs" choice) one for every player."""
        out = []
        for p in playing:
            pin = self.pin_edits[p].text()
            if not pin:
                continue
            problem = pin_problem(pin, what=f"{self.board.power(p).name}'s PIN")
            if problem is None and host and pin == host:
                problem = f"{self.board.power(p).name}'s PIN may not be the same as the host PIN"
            if problem:
                out.append(_sentence_of(problem))
        secrecy = self.secrecy_box.isChecked()
        if secrecy and not self.no_pins_box.isChecked():
            bare = [self.board.power(p).name for p in playing if not self.pin_edits[p].text()
                    and not any(self.pin_edits[q].text() for q in self._seat_of(p))]
            if bare:
                out.append(f"Give every player a PIN ({join_names(bare)} {'has' if len(bare) == 1 else 'have'} none), or tick "
                           f"“{NO_PINS_TEXT}”.")
        return out

    def problems(self) -> list[str]:
        out = []
        computer = self.computer_choice()
        playing = [p for p, b in self.play_boxes.items() if b.isChecked() and p not in computer]
        if len(playing) + len(computer) < 2:
            out.append("At least two powers need players.")
        elif not playing:
            out.append("At least one power needs a person: the computer does not play alone.")
        host = self.host_pin_edit.text()
        out += self._pin_problems(playing, host)
        secrecy = self.secrecy_box.isChecked()
        if secrecy:
            problem = passphrase_problem(self.passphrase_edit.text())
            if problem:
                out.append(_sentence_of(problem) + " (the host's passphrase).")
            elif self.passphrase_again.text() != self.passphrase_edit.text():
                out.append("The two passphrases differ.")
        for player, powers in self._players_powers().items():
            typed = {self.pin_edits[p].text() for p in powers if self.pin_edits[p].text()}
            if len(typed) > 1:
                out.append(f"{player} typed different PINs for {join_names([self.board.power(p).name for p in powers])}:"
                           " one PIN per player.")
        if self.assign_combo.currentData() != "hand" and not self.seating:
            out.append("Draw the powers by priority first (Players' priorities\u2026), or let the host assign them.")
        if host:
            problem = pin_problem(host, what="The host PIN")
            if problem:
                out.append(_sentence_of(problem))
        return out

    def fit_to_screen(self, body: QWidget | None = None) -> None:
        """As tall as the settings want, but no taller than the screen (they scroll then), with
        room below them for the refusal's reasons (when there are some) and the buttons."""
        body = body or self.settings_scroll.widget()
        if body is None:
            return
        # the screen's free height less the dialog's title bar (a window manager's, not yet known
        # before the dialog is shown: 32 px at least), or Start sat under a laptop's taskbar
        title = max(TITLE_BAR, self.frameGeometry().height() - self.height())
        room = screen_room(self).height() - title
        outer = self.layout()
        m, gap = (outer.contentsMargins(), max(outer.spacing(), 0)) if outer is not None else (None, 6)
        below = self.buttons.sizeHint().height() + gap + 8 + (m.top() + m.bottom() if m is not None else 22)
        self.error_label.setVisible(bool(self.error_label.text()))  # no room taken while there is none
        if self.error_label.text():
            width = max(self.width(), body.sizeHint().width())
            below += max(self.error_label.heightForWidth(width), self.error_label.sizeHint().height()) + gap + 12
        want = body.sizeHint()
        bar = self.settings_scroll.verticalScrollBar().sizeHint().width()
        self.settings_scroll.setMinimumSize(want.width() + bar, max(160, min(want.height(), room - below)))

    def _recheck(self) -> None:
        """Once Start was refused, its reasons follow the edits that answer them."""
        if self.error_label.text():
            self.error_label.setText(" ".join(self.problems()))
            self.fit_to_screen()

    def _seat_of(self, power: str) -> list[str]:
        for powers in self._players_powers().values():
            if power in powers:
                return list(powers)
        return [power]

    def settings(self) -> TableSettings:
        """What the dialog says now (PINs hashed here; the digits go no further)."""
        playing = tuple(p for p in self.board.power_ids if self.play_boxes[p].isChecked())
        computer = self.computer_choice()
        pins: dict[str, str] = {}
        for p in (p for p in playing if p not in computer):
            typed = self.pin_edits[p].text()
            if typed and is_valid_pin(typed) and p not in pins:
                pins[p] = hash_pin(typed)
        for powers in self._players_powers().values():  # one PIN per player: one hash for all
            stored = next((pins[p] for p in powers if p in pins), None)
            if stored is not None:
                for p in powers:
                    pins[p] = stored
        host = self.host_pin_edit.text()
        clock = self.clock_box.settings()
        return TableSettings(
            powers=() if len(playing) == len(self.board.power_ids) else playing,
            players={p: self.name_edits[p].text().strip() for p in playing
                     if self.name_edits[p].text().strip() and p not in computer},
            edition=str(self.edition_combo.currentData()),
            end_year=self.end_year_spin.value() if self.short_box.isChecked() else None,
            clock=clock,
            secrecy=self.secrecy_box.isChecked(),
            pins=pins,
            host_pin=hash_pin(host) if host and is_valid_pin(host) else None,
            formal=self.formal_box.isChecked(),
            short_game_by=str(self.short_by_combo.currentData()),
            seating=seating_part(self.seating) if self.assign_combo.currentData() != "hand" else SeatingPart(),
            notes=self.notes_box.isChecked(),
            passphrase=self.passphrase_edit.text() if self.secrecy_box.isChecked() else None,
            computer=computer,
            computer_seed=self.computer_seed if computer else 0,
        )

    def _players_powers(self) -> dict[str, list[str]]:
        """Player name -> the powers they play (rows with the same name are one player)."""
        out: dict[str, list[str]] = {}
        for p in self.board.power_ids:
            name = self.name_edits[p].text().strip()
            if name and self.play_boxes[p].isChecked():
                out.setdefault(name, []).append(p)
        return out

    @override
    def accept(self) -> None:
        problems = self.problems()
        if problems:
            self.error_label.setText(" ".join(problems))
            self.fit_to_screen()
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
