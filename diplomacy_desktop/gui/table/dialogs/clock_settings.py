"""``ClockSettingsDialog``: the clock's periods and Wilson rounds (``ClockSettingsBox`` is the same
form inside the New Game dialog)."""

from __future__ import annotations

from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget)

from ....table.clock import MAX_ROUNDS, ClockSettings


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
        self.writing_spin = _minutes(c.writing_minutes, "Writing orders after the talks: the minutes for each "
                                                        "power writing behind the curtain, or for all of them")
        self.per_power_box = QCheckBox("each power")
        self.per_power_box.setToolTip("On: the writing window is these minutes times the powers writing at the "
                                      "laptop (2 minutes each by default). Off: these minutes for all of them.")
        writing_row = QHBoxLayout()
        writing_row.addWidget(self.writing_spin)
        writing_row.addWidget(self.per_power_box)
        self.retreat_spin = _minutes(c.retreat_minutes, "Retreats")
        self.adjustment_spin = _minutes(c.adjustment_minutes, "Builds and removals")
        form.addRow(self.wilson_box)
        form.addRow("Rounds", rounds_row)
        for label, spin in (("Spring diplomacy", self.spring_spin), ("Fall diplomacy", self.fall_spin),
                            ("Declarations (Formal)", self.declaration_spin)):
            form.addRow(label, spin)
        form.addRow("Writing orders", writing_row)
        for label, spin in (("Retreats", self.retreat_spin), ("Builds and removals", self.adjustment_spin)):
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
        self.per_power_box.setChecked(c.writing_per_power)
        self._update_enabled()

    def settings(self) -> ClockSettings:
        return ClockSettings(self.spring_spin.value(), self.fall_spin.value(), self.writing_spin.value(),
                             self.retreat_spin.value(), self.adjustment_spin.value(),
                             wilson_rounds=self.rounds_spin.value() if self.wilson_box.isChecked() else 0,
                             round_minutes=self.round_spin.value(),
                             declaration_minutes=self.declaration_spin.value(),
                             writing_per_power=self.per_power_box.isChecked())


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
