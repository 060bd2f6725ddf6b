"""The tournament's dialogs: the scores if the game ended now (Ctrl+K), the event's rules, a ballot
proposed and voted in secret, and the board's result with its files (CSV, JSON, the PDF sheet).

They are opened from the Tournament menu (``tournament.py``, which re-exports them) and imported
when first opened, not at every start of the window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFileDialog, QFormLayout, QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QMessageBox, QRadioButton, QSpinBox, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from ...io.pins import MAX_PIN_DIGITS
from .dialogs.draw_vote import DrawVoteDialog
from ..widgets import choice_combo

if TYPE_CHECKING:
    from ...engine.state import GameState
    from ...table.event import Ballot, EventRules
    from ...table.pins import PinGuard
    from ...table.service import PinDoor
    from ...table.results import BallotRecord, BoardResult


# -- scores ------------------------------------------------------------------------------------------------


class ScoresDialog(QDialog):
    """Every scoring system's scores if the game ended now (or as it ended)."""

    def __init__(self, result: BoardResult, parent: QWidget | None = None, *, large: bool = False,
                 title: str = "Scores if the game ended now") -> None:
        from ...table.results import result_sentence
        from ...table.scoring import SYSTEMS, score_all
        super().__init__(parent)
        self.setWindowTitle(title)
        self.shown = result
        board, o = result.board, result.outcome
        layout = QVBoxLayout(self)
        self.headline = QLabel(f"<b>{title}</b> \u2014 {result_sentence(result)}")
        self.headline.setWordWrap(True)
        layout.addWidget(self.headline)
        # the event's system first, with the event's rank (its tie-break), then the others; no row
        # numbers (they read as places where places are shared)
        systems = sorted((s for s in SYSTEMS if s.key in result.scores), key=lambda s: s.key != result.event_system)
        event = bool(systems) and systems[0].key == result.event_system
        ranks = result.event_ranks() if event else {}
        heads = [s.name for s in systems]
        if event:
            heads[:1] = [f"{systems[0].name} (the event's)", "Event rank"]
        self.table = QTableWidget(len(o.powers), 2 + len(heads))
        self.table.setHorizontalHeaderLabels(["Power", "Centres", *heads])
        self.table.verticalHeader().hide()
        working = score_all(o)
        order = sorted(o.powers, key=lambda p: -o.count(p))
        for r, p in enumerate(order):
            player = result.players.get(p, "")
            self.table.setItem(r, 0, QTableWidgetItem(board.power(p).name + (f" ({player})" if player else "")))
            self.table.setItem(r, 1, QTableWidgetItem(str(o.count(p))))
            column = 2
            for k, s in enumerate(systems):
                item = QTableWidgetItem(f"{result.scores[s.key][p]:.2f}".rstrip("0").rstrip("."))
                item.setToolTip(working[s.key].working.get(p, ""))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, column, item)
                column += 1
                if event and k == 0:
                    self.table.setItem(r, column, QTableWidgetItem(ranks[p]))
                    column += 1
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        layout.addWidget(self.table)
        sources = QLabel("<small>" + "<br>".join(f"{s.name}: {s.source}" for s in systems) + "</small>")
        sources.setWordWrap(True)
        layout.addWidget(sources)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        if large:
            f = QFont(self.font())
            f.setPointSize(20)
            self.setFont(f)
        self.resize(900 if large else 760, 520 if large else 400)


# -- event rules -------------------------------------------------------------------------------------------


def _optional_year(text: str, year: int | None, start_year: int, default: int) -> tuple[QCheckBox, QSpinBox, QHBoxLayout]:
    """A year that may be set or not: a check box (checked when ``year`` is set), its year (``year``,
    else ``default``; from ``start_year`` on), side by side in a row."""
    box = QCheckBox(text)
    spin = QSpinBox()
    spin.setRange(start_year, start_year + 100)
    spin.setValue(year or default)
    box.setChecked(year is not None)
    row = QHBoxLayout()
    row.addWidget(box)
    row.addWidget(spin)
    row.addStretch(1)
    return box, spin, row


class EventRulesDialog(QDialog):
    """The event's clock (a preset or the custom clock), the game's end, late orders and ballots."""

    def __init__(self, rules: EventRules, start_year: int, parent: QWidget | None = None) -> None:
        from ...table.event import CUSTOM, LATE_VOID, LATE_WARN, PRESETS
        super().__init__(parent)
        self.setWindowTitle("Event rules")
        layout = QVBoxLayout(self)
        # two columns: one column of every group was taller than a 1366x768 screen (its OK button
        # below the screen's edge, seen under Xvfb, issue 35)
        columns = QHBoxLayout()
        left, right = QVBoxLayout(), QVBoxLayout()
        columns.addLayout(left, 1)
        columns.addLayout(right, 1)
        layout.addLayout(columns)
        clock = QGroupBox("Clock")
        cf = QFormLayout(clock)
        self.preset_combo = choice_combo([*((p.name, p.key) for p in PRESETS), ("Custom", CUSTOM)], rules.preset,
                                         "The event's clock")
        cf.addRow("Structure", self.preset_combo)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setMinimumHeight(self.summary.fontMetrics().lineSpacing() * 2 + 6)
        cf.addRow("", self.summary)
        c = rules.clock
        self.spins: dict[str, QDoubleSpinBox] = {}
        for key, label, value in (("spring_minutes", "Spring talks", c.spring_minutes),
                                  ("fall_minutes", "Fall talks", c.fall_minutes),
                                  ("writing_minutes", "Writing orders", c.writing_minutes),
                                  ("retreat_minutes", "Retreats", c.retreat_minutes),
                                  ("adjustment_minutes", "Builds", c.adjustment_minutes)):
            spin = QDoubleSpinBox()
            spin.setRange(0, 240)
            spin.setDecimals(1)
            spin.setSuffix(" min")
            spin.setValue(value)
            self.spins[key] = spin
            cf.addRow(label, spin)
        self.next_clock_box = QCheckBox("Adjudicate on the next period's clock")
        self.next_clock_box.setChecked(c.adjudicate_on_next_clock)
        cf.addRow("", self.next_clock_box)
        left.addWidget(clock)

        end = QGroupBox("End of the game")
        ef = QFormLayout(end)
        self.end_year_box, self.end_year_spin, row = _optional_year("after Fall", rules.end_year, start_year,
                                                                     start_year + 6)
        ef.addRow("Turn limit", row)
        self.end_time_edit = QLineEdit(rules.end_time)
        self.end_time_edit.setPlaceholderText("HH:MM (none)")
        ef.addRow("Time limit", self.end_time_edit)
        left.addWidget(end)

        late = QGroupBox("Late orders")
        lf = QFormLayout(late)
        self.late_combo = choice_combo([("A warning only", LATE_WARN),
                                        ("A warning, then the power's orders are void and its units hold", LATE_VOID)],
                                       rules.late_orders, "When orders are late")
        lf.addRow("When orders are late", self.late_combo)
        self.grace_spin = QSpinBox()
        self.grace_spin.setRange(0, 3600)
        self.grace_spin.setSuffix(" s")
        self.grace_spin.setValue(rules.late_grace_seconds)
        lf.addRow("Grace after the warning", self.grace_spin)
        left.addWidget(late)
        left.addStretch(1)

        ballots = QGroupBox("Ballots")
        bf = QFormLayout(ballots)
        self.all_survivors_box = QCheckBox("A draw includes every survivor")
        self.all_survivors_box.setChecked(rules.draw_includes_all_survivors)
        bf.addRow(self.all_survivors_box)
        self.earliest_box, self.earliest_spin, er = _optional_year("no draw before", rules.earliest_draw_year,
                                                                   start_year, start_year + 3)
        bf.addRow("Earliest year", er)
        self.unanimous_box = QCheckBox("Unanimous (otherwise a majority of the voters)")
        self.unanimous_box.setChecked(rules.unanimous)
        bf.addRow(self.unanimous_box)
        self.vetoes_box = QCheckBox("Announce the number of votes against")
        self.vetoes_box.setChecked(rules.reveal_vetoes)
        bf.addRow(self.vetoes_box)
        self.concession_box = QCheckBox("Concessions to a leader allowed")
        self.concession_box.setChecked(rules.concession_allowed)
        bf.addRow(self.concession_box)
        self.concession_min = QSpinBox()
        self.concession_min.setRange(0, 34)
        self.concession_min.setValue(rules.concession_min_centres)
        bf.addRow("Leader's minimum centres", self.concession_min)
        self.largest_box = QCheckBox("The leader must be the largest power, alone")
        self.largest_box.setChecked(rules.concession_must_be_largest)
        bf.addRow(self.largest_box)
        right.addWidget(ballots)

        scoring = QGroupBox("Scoring")
        sf = QFormLayout(scoring)
        from ...table.results import TIE_BREAKS
        from ...table.scoring import CONCESSION_SCORING, SYSTEMS
        self.scoring_combo = choice_combo([(s.name, s.key) for s in SYSTEMS], rules.scoring, "The event's system")
        sf.addRow("The event's system", self.scoring_combo)
        self.tie_combo = choice_combo([(w, k) for k, w in TIE_BREAKS.items()], rules.tie_break, "Level scores")
        sf.addRow("Level scores", self.tie_combo)
        self.concession_combo = choice_combo([(w, k) for k, w in CONCESSION_SCORING.items()],
                                             rules.concession_scored_as, "A concession is scored")
        sf.addRow("A concession is scored", self.concession_combo)
        right.addWidget(scoring)
        right.addStretch(1)

        self.error = QLabel()
        self.error.setStyleSheet("color: #a50021;")
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.preset_combo.currentIndexChanged.connect(lambda _i: self._preset_changed())
        for spin in self.spins.values():
            spin.valueChanged.connect(lambda _v: self._edited())
        self.next_clock_box.toggled.connect(lambda _on: self._edited())
        self._loading = False
        self._preset_changed()
        self.rules_out: EventRules | None = None

    def _preset_changed(self) -> None:
        from ...table.event import PRESETS
        key = self.preset_combo.currentData()
        preset = next((p for p in PRESETS if p.key == key), None)
        if preset is not None:
            self._loading = True
            for k, v in preset.clock_settings().items():
                if k in self.spins:
                    self.spins[k].setValue(v)
            self.next_clock_box.setChecked(preset.adjudicate_on_next_clock)
            self._loading = False
            self.summary.setText(preset.description)
        else:
            self.summary.setText("Your own lengths (0: no such period).")

    def _edited(self) -> None:
        from ...table.event import CUSTOM, PRESETS
        if self._loading:
            return
        key = self.preset_combo.currentData()
        preset = next((p for p in PRESETS if p.key == key), None)
        if preset is not None and any(abs(self.spins[k].value() - v) > 1e-9 for k, v in preset.clock_settings().items()
                                      if k in self.spins) or (
                preset is not None and self.next_clock_box.isChecked() != preset.adjudicate_on_next_clock):
            self.preset_combo.setCurrentIndex(self.preset_combo.findData(CUSTOM))

    def rules(self) -> EventRules:
        """The rules as set; ``ValueError`` with a message on a bad value."""
        from ...table.event import CUSTOM, EventRules, custom_preset
        custom: dict[str, Any] = {}
        preset = str(self.preset_combo.currentData())
        if preset == CUSTOM:
            v = {k: s.value() for k, s in self.spins.items()}
            custom_preset(v["spring_minutes"], v["fall_minutes"], v["writing_minutes"], v["retreat_minutes"],
                          v["adjustment_minutes"])  # checks the lengths
            custom = {**v, "adjudicate_on_next_clock": self.next_clock_box.isChecked()}
        return EventRules(
            preset=preset, custom=custom,
            end_year=self.end_year_spin.value() if self.end_year_box.isChecked() else None,
            end_time=self.end_time_edit.text().strip(), late_orders=str(self.late_combo.currentData()),
            late_grace_seconds=self.grace_spin.value(),
            draw_includes_all_survivors=self.all_survivors_box.isChecked(),
            earliest_draw_year=self.earliest_spin.value() if self.earliest_box.isChecked() else None,
            unanimous=self.unanimous_box.isChecked(), reveal_vetoes=self.vetoes_box.isChecked(),
            concession_allowed=self.concession_box.isChecked(), concession_min_centres=self.concession_min.value(),
            concession_must_be_largest=self.largest_box.isChecked(),
            scoring=str(self.scoring_combo.currentData()), tie_break=str(self.tie_combo.currentData()),
            concession_scored_as=str(self.concession_combo.currentData()))

    def accept(self) -> None:
        try:
            self.rules_out = self.rules()
        except ValueError as exc:
            self.error.setText(str(exc))
            return
        super().accept()


# -- ballots ------------------------------------------------------------------------------------------------


#: a proposer's door: (proposer, PIN typed) -> None when the PIN speaks for the proposer (its own,
#: or the host's), else why not (said in the dialog; a wrong PIN is counted by the door)
ProposerDoor = Callable[[str, str], "str | None"]


#: the draw's powers in the proposal, so many to a row
DRAW_BOXES_PER_ROW = 3


class ProposalDialog(QDialog):
    """Who proposes what: a draw (of the powers chosen) or a concession to one power.

    ``pinned``: the powers with a PIN; a ballot is proposed in such a power's name only with its
    PIN or the host's, checked by ``door`` (issue 31: the table's failure counter and its waits)."""

    def __init__(self, state: GameState, rules: EventRules, names: dict[str, str], parent: QWidget | None = None,
                 *, voters: list[str] | None = None, pinned: Iterable[str] = (),
                 door: ProposerDoor | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Propose a ballot")
        self.state, self.rules_, self.voters = state, rules, voters
        self.names = names
        self.pinned = set(pinned)
        self.door = door
        survivors = state.surviving_powers()
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.proposer = QComboBox()
        for p in survivors:
            self.proposer.addItem(names.get(p, p), p)
        form.addRow("Proposed by", self.proposer)
        self.pin_label = QLabel()
        self.pin_edit = QLineEdit()
        self.pin_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin_edit.setMaxLength(MAX_PIN_DIGITS)
        self.pin_edit.setPlaceholderText("PIN")
        form.addRow(self.pin_label, self.pin_edit)
        self.proposer.currentIndexChanged.connect(lambda _i: self._show_pin_row())
        self.kind_draw = QRadioButton("A draw")
        self.kind_concession = QRadioButton("A concession to")
        self.kind_draw.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.kind_draw)
        group.addButton(self.kind_concession)
        self.concede_to = QComboBox()
        for p in survivors:
            self.concede_to.addItem(names.get(p, p), p)
        self.kind_concession.setEnabled(rules.concession_allowed)
        self.concede_to.setEnabled(rules.concession_allowed)
        form.addRow(self.kind_draw)
        self.draw_boxes: dict[str, QCheckBox] = {}
        # in rows of three: seven players' names on one row ran past a 1366-pixel screen (issue 35)
        box_grid = QGridLayout()
        for i, p in enumerate(survivors):
            b = QCheckBox(names.get(p, p))
            b.setChecked(True)
            b.setEnabled(not rules.draw_includes_all_survivors)
            self.draw_boxes[p] = b
            box_grid.addWidget(b, i // DRAW_BOXES_PER_ROW, i % DRAW_BOXES_PER_ROW)
        form.addRow("Draw shared by", box_grid)
        cr = QHBoxLayout()
        cr.addWidget(self.kind_concession)
        cr.addWidget(self.concede_to)
        form.addRow(cr)
        layout.addLayout(form)
        self.error = QLabel()
        self.error.setStyleSheet("color: #a50021;")
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.vote_button = buttons.addButton("Vote in secret", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.ballot: Ballot | None = None
        self._show_pin_row()

    def _show_pin_row(self) -> None:
        proposer = str(self.proposer.currentData())
        name = self.names.get(proposer, proposer)
        needed = proposer in self.pinned
        self.pin_label.setText(f"{name}'s PIN, or the host's")
        self.pin_label.setVisible(needed)
        self.pin_edit.setVisible(needed)
        self.pin_edit.clear()
        self.error.clear()

    def accept(self) -> None:
        from ...table.event import CONCESSION_PROPOSAL, DRAW_PROPOSAL, Ballot, BallotError
        proposer = str(self.proposer.currentData())
        if proposer in self.pinned and self.door is not None:
            # issue 31: a ballot in a power's name is that power's act (its PIN) or the host's
            refusal = self.door(proposer, self.pin_edit.text())
            self.pin_edit.clear()
            if refusal is not None:
                self.error.setText(refusal)
                self.pin_edit.setFocus(Qt.FocusReason.OtherFocusReason)
                return
        try:
            if self.kind_concession.isChecked():
                self.ballot = Ballot.open(self.rules_, self.state, proposer, CONCESSION_PROPOSAL,
                                          (str(self.concede_to.currentData()),), voters=self.voters)
            else:
                powers = tuple(p for p, b in self.draw_boxes.items() if b.isChecked())
                self.ballot = Ballot.open(self.rules_, self.state, proposer, DRAW_PROPOSAL, powers,
                                          voters=self.voters)
        except BallotError as exc:
            self.error.setText(str(exc))
            return
        super().accept()


class BallotVoteDialog(DrawVoteDialog):
    """The laptop passed round for a secret ballot; the outcome is counted by the event's rules
    (:class:`~diplomacy_desktop.table.event.Ballot`), and only the outcome is shown."""

    counted = Signal(object)  # BallotRecord

    def __init__(self, ballot: Ballot, names: dict[str, str], parent: QWidget | None = None, *,
                 pins: dict[str, str] | None = None, voter_names: dict[str, str] | None = None,
                 guard: PinDoor | PinGuard | None = None) -> None:
        self.ballot = ballot
        self.record: BallotRecord | None = None
        self.power_names = dict(names)
        # issue 31: the ballot's PIN prompt counts wrong PINs in the table's one counter, with its waits
        super().__init__(ballot.voters, parent, names={**names, **(voter_names or {})}, pins=pins, guard=guard)
        self.setWindowTitle("Secret ballot")
        what = self._what()
        self.pass_note.setText(f"The ballot: {what}. Nobody will learn who voted what.")
        self.accept_button.setText("Yes")
        self.decline_button.setText("No")

    def _what(self) -> str:
        from ...table.event import DRAW_PROPOSAL
        b = self.ballot
        if b.proposal == DRAW_PROPOSAL:
            return "a draw shared by " + ", ".join(self.power_names.get(p, p) for p in b.powers)
        return f"a concession to {self.power_names.get(b.powers[0], b.powers[0])}"

    def _on_ready(self) -> None:
        super()._on_ready()
        if self.stack.currentWidget() is self.vote_page:
            self.vote_question.setText(f"Do you accept {self._what()}?")

    def _show_result(self) -> None:
        from ...table.event import ballot_announcement
        for power, accept in self.vote.votes.items():
            self.ballot.vote(power, accept)
        self.vote.votes.clear()  # secret: the votes are not kept once counted
        record = self.record = self.ballot.count()
        self.cancel_button.hide()
        self.result_label.setText("The ballot passed" if record.passed else "The ballot failed")
        self.result_note.setText(ballot_announcement(record, self.power_names))
        self.stack.setCurrentWidget(self.result_page)
        self.counted.emit(record)

    def _finish(self) -> None:
        if self.record is not None and self.record.passed:
            self.accept()
        else:
            self.reject()

    @property
    def accepted_draw(self) -> bool:
        return self.record is not None and self.record.passed


# -- the end of the game ------------------------------------------------------------------------------------


class BoardResultDialog(QDialog):
    """The end-of-game summary: the result, the chart by year, every system's score, and the files."""

    def __init__(self, result: BoardResult, parent: QWidget | None = None) -> None:
        from ...table.results import result_sentence
        from .tournament_pages import CentreChart
        super().__init__(parent)
        self.setWindowTitle("Board result")
        self.shown = result
        layout = QVBoxLayout(self)
        head = QLabel(f"<h2>{result_sentence(result)}</h2>")
        head.setWordWrap(True)
        layout.addWidget(head)
        self.chart = CentreChart(result.board, result.centres_by_year)
        layout.addWidget(self.chart, 3)
        scores = ScoresDialog(result, self, title="Scores")
        self.table = scores.table
        self.table.setParent(self)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 2)
        scores.deleteLater()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.write_button = buttons.addButton("Write result files\u2026", QDialogButtonBox.ButtonRole.ActionRole)
        self.write_button.clicked.connect(lambda: self.write_files())
        buttons.rejected.connect(self.reject)
        #: where the files went, once written (the host is told, not left to guess)
        self.written_label = QLabel()
        self.written_label.setWordWrap(True)
        self.written_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.written_label.hide()
        layout.addWidget(self.written_label)
        layout.addWidget(buttons)
        self.resize(900, 720)

    def write_files(self, folder: str | Path | None = None) -> list[Path]:
        """The CSV, the JSON and the PDF result sheet, in ``folder`` (asked for when not given)."""
        if folder is None:
            chosen = QFileDialog.getExistingDirectory(self, "Write the board's result to")
            if not chosen:
                return []
            folder = chosen
        written = write_result_files(self.shown, Path(folder), parent=self)
        if written:
            self.written_label.setText(f"Written to {written[0].parent}: " + ", ".join(p.name for p in written))
            self.written_label.show()
        return written


class BoardDetailsDialog(QDialog):
    """The board's event, round and board: kept with the game, in every result file's name and fields."""

    def __init__(self, details: dict[str, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Board details")
        form = QFormLayout(self)
        self.edits: dict[str, QLineEdit] = {}
        for key, label, hint in (("event", "Event", "Spring Open 2026"), ("round", "Round", "2"),
                                 ("board", "Board", "5")):
            edit = QLineEdit(str(details.get(key, "")))
            edit.setPlaceholderText(hint)
            edit.setMaxLength(80)
            self.edits[key] = edit
            form.addRow(label, edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.resize(420, self.sizeHint().height())

    def details(self) -> dict[str, str]:
        return {k: e.text().strip() for k, e in self.edits.items()}


def result_file_stem(result: BoardResult) -> str:
    """``<event>-r<round>-b<board>-<phase>`` (``board-…`` without an event): two boards of one
    event never share a name."""
    parts = [result.event or "board"]
    if result.round:
        parts.append(f"r{result.round}")
    if result.board_name:
        parts.append(f"b{result.board_name}")
    parts.append(result.ended)
    return "-".join("".join(ch for ch in p if ch.isalnum() or ch in "_") or "x" for p in parts)


def result_files(result: BoardResult, folder: Path) -> list[tuple[Path, bytes]]:
    """Every file of a result, made before any is written: the CSV, the JSON, the signed sheet
    (PDF) and the World Diplomacy Database's two CSVs."""
    from .tournament_pages import result_sheet_pdf
    stem = result_file_stem(result)
    return [(folder / f"{stem}.csv", result.to_csv().encode("utf-8")),
            (folder / f"{stem}.json", result.to_json().encode("utf-8")),
            (folder / f"{stem}-sheet.pdf", result_sheet_pdf(result)),
            (folder / f"{stem}-wdd-boards.csv", result.wdd_boards_csv().encode("utf-8")),
            (folder / f"{stem}-wdd-classification.csv", result.wdd_classification_csv().encode("utf-8"))]


def _ask_replace(parent: QWidget | None, names: list[str]) -> bool:
    answer = QMessageBox.question(parent, "Board result",
                                  "These files are already there (another board's, or this one's written before):\n"
                                  + "\n".join(names) + "\n\nReplace them?",
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                  QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def write_result_files(result: BoardResult, folder: Path, *, parent: QWidget | None = None,
                       ask_replace: Any = None) -> list[Path]:
    """Every file of the result, whole or none: each is written beside its place first, then all
    are moved in; a failure removes what was written and puts back what was replaced.  Files
    already there are replaced only when the host says so."""
    import os

    try:
        files = result_files(result, folder)
    except (OSError, ValueError) as exc:
        QMessageBox.warning(parent, "Board result", f"The result files were not made: {exc}")
        return []
    there = [p.name for p, _ in files if p.exists()]
    if there and not (ask_replace or _ask_replace)(parent, there):
        return []
    staged: list[tuple[Path, Path]] = []
    backups: list[tuple[Path, Path]] = []
    try:
        for path, data in files:
            temp = path.with_name(f".{path.name}.part")
            temp.write_bytes(data)
            staged.append((temp, path))
        for _temp, path in staged:
            if path.exists():
                backup = path.with_name(f".{path.name}.old")
                os.replace(path, backup)
                backups.append((backup, path))
        for temp, path in staged:
            os.replace(temp, path)
    except OSError as exc:
        for temp, path in staged:
            if temp.exists():
                temp.unlink()
            elif path.exists() and not any(p == path for _b, p in backups):
                path.unlink()
        for backup, path in backups:
            os.replace(backup, path)
        QMessageBox.warning(parent, "Board result",
                            f"Nothing was written: {exc.strerror or exc} ({getattr(exc, 'filename', '') or folder})")
        return []
    for backup, _path in backups:
        backup.unlink(missing_ok=True)
    return [path for path, _ in files]


__all__ = ["BallotVoteDialog", "BoardDetailsDialog", "BoardResultDialog", "EventRulesDialog", "ProposalDialog", "ScoresDialog",
           "result_file_stem", "result_files", "write_result_files"]
