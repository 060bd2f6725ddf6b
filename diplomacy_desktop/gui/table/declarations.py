"""Formal Diplomacy (seed 003): the declarations round behind the curtain, and its reveal.

After the talks, before the orders, each power declares behind the curtain, towards every
other power, alliance, neutrality or war (today's relation preselected).  ``DeclarationsForm``
is what the power at the keyboard sees: it lies inside the curtain (so nothing of the window
behind it shows, and the curtain's guards keep everything else down), one row per other power
with today's relation, the three choices and, in one line, what the choice will do by seed 003's
rule.  Sealing stores the declarations in the table, secret like orders, under
``table.declarations`` = ``{power: {other_power: "alliance" | "neutral" | "war"}}`` until all
are revealed together; then ``Game.declare`` applies them, the table is told what changed
(``change_lines``, ``RevealDialog``) and the orders round starts.  ``table.declared`` lists the
phases whose declarations were revealed (an undone adjudication does not ask for them again).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QButtonGroup, QDialog, QDialogButtonBox, QFrame, QGridLayout, QHBoxLayout,
                               QLabel, QPushButton, QRadioButton, QScrollArea, QSizePolicy, QVBoxLayout,
                               QWidget)

from ...engine.formal import NEUTRAL, RELATIONS, Relations
from ...table.declarations import (
    CHOICE_WORDS,
    DECLARATION_RULES,
    change_lines,
    declared_phases,
    effect_text,
    reveal_rows,
)
from .. import override
from ..board.palette import power_colour, power_ink, power_letter
from .relations import RELATION_COLOURS, RELATION_INKS, RELATION_WORDS
from ..widgets import bold_font, centre_on_page

if TYPE_CHECKING:
    from ..controller import GameController



def apply_declarations(controller: GameController, declarations: Mapping[str, Mapping[str, str]]
                       ) -> tuple[Relations, Relations, list[str]]:
    """The declarations revealed together: the game's relations change (``Game.declare``), the
    phase is recorded as declared, and what changed is said in sentences (relations before,
    after, the sentences)."""
    c = controller
    phase = c.state.phase.short
    before, after = c.declare({p: dict(d) for p, d in declarations.items()})
    declared = declared_phases(c.table)
    if phase not in declared:
        declared.append(phase)
    c.service.keep_declared(declared)
    return before, after, change_lines(before, after, c.board.power_ids, c.power_name)




class DeclarationsForm(QWidget):
    """One power's declarations, inside the curtain: today's relation with each other power, the
    three choices, what each will do; "Seal my declarations" or "Step away"."""

    seal_requested = Signal(str, object)  # power, {other: relation}
    hide_requested = Signal()
    phone_requested = Signal()  # "Use my phone…" (shown by the table mode while hosting is on)

    def __init__(self, curtain: QWidget, name: Callable[[str], str]) -> None:
        super().__init__(curtain)
        self.setObjectName("declarationsForm")
        self.name = name
        self.power: str | None = None
        self.before: Relations = Relations()
        self.groups: dict[str, QButtonGroup] = {}
        self.buttons: dict[str, dict[str, QRadioButton]] = {}
        self.effects: dict[str, QLabel] = {}
        self.now_labels: dict[str, QLabel] = {}
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        # the curtain's dark all round; the power's own sheet light and large enough to read at arm's length
        self.setStyleSheet("QWidget#declarationsForm { background: #20262e; }"
                           " QFrame#declarationsPanel { background: #f4f6f8; border-radius: 10px; }"
                           " QFrame#declarationsPanel QLabel { color: #1a1a1a; }"
                           " QFrame#declarationsPanel QRadioButton { color: #1a1a1a; }")
        self.heading = QLabel()
        big = bold_font(self.font(), 22)
        self.heading.setFont(big)
        self.heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.rules_label = QLabel("Seed 003: " + " ".join(DECLARATION_RULES)
                                  + " Your declarations stay secret until all are revealed together.")
        self.rules_label.setWordWrap(True)
        self.rules_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        #: "declared on the phone": the sheet shows what the phone sent (when the player sits down)
        self.note_label = QLabel()
        self.note_label.setWordWrap(True)
        self.note_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.note_label.setStyleSheet("QLabel { color: #7a4a00; font-weight: bold; }")
        self.note_label.hide()
        self.grid_host = QWidget()
        self.grid_host.setObjectName("declarationsGrid")
        self.grid_host.setStyleSheet("QWidget#declarationsGrid { background: transparent; }")
        self.grid = QGridLayout(self.grid_host)
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(8)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        readable = QFont(self.font())
        readable.setPointSizeF(readable.pointSizeF() * 1.15)
        self.grid_host.setFont(readable)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.grid_host)
        scroll.setSizeAdjustPolicy(QScrollArea.SizeAdjustPolicy.AdjustToContents)
        scroll.setStyleSheet("QScrollArea { background: transparent; } QScrollArea > QWidget > QWidget"
                             " { background: transparent; }")
        self.seal_button = QPushButton("Seal my declarations")
        self.seal_button.setMinimumHeight(40)
        self.seal_button.setDefault(True)
        self.hide_button = QPushButton("Step away (not sealed)")
        self.hide_button.setMinimumHeight(40)
        self.phone_button = QPushButton("Use my phone\u2026")
        self.phone_button.setMinimumHeight(40)
        self.phone_button.setToolTip("Your join code and link, to declare and write your orders on your own phone")
        self.phone_button.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.phone_button)
        buttons.addStretch(1)
        buttons.addWidget(self.hide_button)
        buttons.addWidget(self.seal_button)
        panel = QFrame()
        panel.setObjectName("declarationsPanel")
        panel.setMaximumWidth(1100)
        box = QVBoxLayout(panel)
        box.setContentsMargins(18, 14, 18, 14)
        box.addWidget(self.heading)
        box.addWidget(self.rules_label)
        box.addWidget(self.note_label)
        box.addWidget(scroll, 1)
        box.addLayout(buttons)
        centre_on_page(self, panel, 8, 12)
        self.seal_button.clicked.connect(self.seal)
        self.hide_button.clicked.connect(self.hide_requested)
        self.phone_button.clicked.connect(self.phone_requested)
        self.hide()
        self.setGeometry(curtain.rect())
        curtain.installEventFilter(self)  # (the page keeps the curtain's size)

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize and isinstance(watched, QWidget):
            self.setGeometry(watched.rect())
        return False

    def show_power(self, power: str, others: Iterable[str], before: Relations,
                   chosen: Mapping[str, str] | None = None, *, note: str = "") -> None:
        """``power`` declares towards ``others``; ``before``: today's relations; ``chosen``: its
        sealed declarations when it reopens them (else today's relations are preselected)."""
        self.clear()
        self.power = power
        self.before = before
        me = self.name(power)
        self.heading.setText(f"{me}: your declarations")
        self.note_label.setText(note)
        self.note_label.setVisible(bool(note))
        self.heading.setStyleSheet(f"color: {power_ink(power).name()}; background: {power_colour(power).name()};"
                                   " border-radius: 10px; padding: 4px 14px;")
        for col, text in enumerate(("Power", "Today", "You declare", "", "", "What it will do (seed 003)")):
            head = QLabel(f"<b>{text}</b>")
            self.grid.addWidget(head, 0, col)
        last = 0
        for row, other in enumerate(others, start=1):
            now = before.between(power, other)
            chip = QLabel(f" {power_letter(other)}  {html.escape(self.name(other))} ")
            chip.setStyleSheet(f"QLabel {{ background: {power_colour(other).name()}; color: {power_ink(other).name()};"
                               " border-radius: 6px; padding: 2px 6px; font-weight: bold; }")
            chip.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
            now_label = QLabel(RELATION_WORDS[now])
            now_label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
            now_label.setStyleSheet(f"QLabel {{ background: {RELATION_COLOURS[now].name()}; "
                                    f"color: {RELATION_INKS[now].name()}; border-radius: 6px; padding: 2px 6px; }}")
            group = QButtonGroup(self)
            group.setExclusive(True)
            radios: dict[str, QRadioButton] = {}
            for col, relation in enumerate(RELATIONS, start=2):
                radio = QRadioButton(CHOICE_WORDS[relation])
                radio.setToolTip(effect_text(now, relation, self.name(other)))
                group.addButton(radio)
                radios[relation] = radio
                self.grid.addWidget(radio, row, col)
            effect = QLabel()
            effect.setWordWrap(True)
            effect.setMinimumWidth(320)
            self.grid.addWidget(chip, row, 0)
            self.grid.addWidget(now_label, row, 1)
            self.grid.addWidget(effect, row, 5)
            self.grid.setColumnStretch(5, 1)
            self.groups[other] = group
            self.buttons[other] = radios
            self.effects[other] = effect
            self.now_labels[other] = now_label
            pick = (chosen or {}).get(other, now)
            radios[pick if pick in radios else now].setChecked(True)
            group.buttonToggled.connect(lambda _b, _on, o=other: self._update_effect(o))
            self._update_effect(other)
            last = row
        for r in range(self.grid.rowCount()):
            self.grid.setRowStretch(r, 0)
        self.grid.setRowStretch(last + 1, 1)
        self.grid_host.adjustSize()
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        self.show()
        self.raise_()
        self.seal_button.setFocus()

    def clear(self) -> None:
        """Remove the rows now, not at the next turn of the event loop: they held a power's choices."""
        for group in self.groups.values():
            shiboken6.delete(group)
        while self.grid.count():
            item = self.grid.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()
                shiboken6.delete(w)
        self.groups, self.buttons, self.effects, self.now_labels = {}, {}, {}, {}
        self.power = None
        self.note_label.clear()
        self.note_label.hide()

    def take_down(self) -> None:
        """Nobody is declaring: nothing of the last power's choices stays behind."""
        self.clear()
        self.hide()

    def choice(self, other: str) -> str:
        for relation, radio in self.buttons[other].items():
            if radio.isChecked():
                return relation
        return self.before.between(self.power or "", other)

    def choose(self, other: str, relation: str) -> None:
        self.buttons[other][relation].setChecked(True)

    def declarations(self) -> dict[str, str]:
        return {other: self.choice(other) for other in self.buttons}

    def effect(self, other: str) -> str:
        return self.effects[other].text()

    def _update_effect(self, other: str) -> None:
        if self.power is None or other not in self.effects:
            return
        self.effects[other].setText(effect_text(self.before.between(self.power, other), self.choice(other),
                                                self.name(other)))

    def seal(self) -> None:
        if self.power is not None:
            self.seal_requested.emit(self.power, self.declarations())


# -- the reveal -----------------------------------------------------------------------------------------


class RevealDialog(QDialog):
    """All declarations, revealed together: what changed, and each pair's declarations and outcome."""

    def __init__(self, phase: str, declarations: Mapping[str, Mapping[str, str]], before: Relations,
                 after: Relations, powers: Iterable[str], name: Callable[[str], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Declarations revealed \u2014 {phase}")
        powers = list(powers)
        self.changes = change_lines(before, after, powers, name)
        title = QLabel(f"Declarations revealed \u2014 {html.escape(phase)}")
        f = bold_font(title.font(), 16)
        title.setFont(f)
        changed = QLabel("<br>".join(f"<b>{html.escape(line)}.</b>" for line in self.changes)
                         if self.changes else "No relation changed: every pair stays as it was.")
        changed.setWordWrap(True)
        larger = QFont(changed.font())
        larger.setPointSizeF(larger.pointSizeF() * 1.25)
        changed.setFont(larger)
        self.rows: list[str] = []
        lines = []
        for a, b, da, db, old, new in reveal_rows(declarations, before, after, powers):
            outcome = RELATION_WORDS[new]
            text = (f"{name(a)} declared {da}, {name(b)} declared {db}: {outcome}"
                    + (f" (was {RELATION_WORDS[old]})" if old != new else ""))
            self.rows.append(text)
            colour = RELATION_COLOURS[new].name() if new != NEUTRAL else "#37474f"
            lines.append(f"<tr><td>{html.escape(name(a))} \u2194 {html.escape(name(b))}</td>"
                         f"<td>{html.escape(name(a))}: {html.escape(da)}; {html.escape(name(b))}: {html.escape(db)}</td>"
                         f"<td style='color:{colour}; font-weight:bold'>{html.escape(outcome)}"
                         f"{' (was ' + RELATION_WORDS[old] + ')' if old != new else ''}</td></tr>")
        table = QLabel("<table cellspacing='0' cellpadding='3'><tr><th align='left'>Pair</th>"
                       "<th align='left'>Declared</th><th align='left'>Now</th></tr>" + "".join(lines) + "</table>"
                       "<p style='color:#555'>Every other pair: both declared neutral, neutral.</p>"
                       if lines else "Every power declared neutrality towards every other: all neutral.")
        table.setWordWrap(True)
        table.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        table.setContentsMargins(6, 6, 6, 6)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(table)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Write orders")
        self.buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(changed)
        layout.addWidget(scroll, 1)
        layout.addWidget(QLabel("Seed 003: war is one-sided; an alliance needs both sides; ending a war needs both; "
                                "mismatched declarations give neutral."))
        layout.addWidget(self.buttons)
        self.resize(640, 460)


class OpenDeclarationsDialog(QDialog):
    """Declarations at an open table (hot-seat secrecy off): every power in turn on one sheet,
    in the open; when the last has declared, all are applied together (``declarations``)."""

    def __init__(self, powers: Iterable[str], all_powers: Iterable[str], before: Relations,
                 name: Callable[[str], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Declarations (secrecy off: in the open)")
        self.powers = list(powers)
        self.all_powers = list(all_powers)
        self.before = before
        self.declarations: dict[str, dict[str, str]] = {}
        self.form = DeclarationsForm(self, name)
        self.form.hide_button.hide()
        self.form.seal_requested.connect(self._declared)
        self.resize(1000, 520)
        self._next()

    @property
    def current(self) -> str | None:
        return self.form.power

    def _next(self) -> None:
        left = [p for p in self.powers if p not in self.declarations]
        if not left:
            self.form.take_down()
            self.accept()
            return
        power = left[0]
        self.form.show_power(power, [p for p in self.all_powers if p != power], self.before)
        self.form.seal_button.setText("Declare, next power" if len(left) > 1 else "Declare, reveal all")

    def _declared(self, power: str, said: dict[str, str]) -> None:
        self.declarations[power] = dict(said)
        self._next()


__all__ = ["DeclarationsForm", "OpenDeclarationsDialog", "RevealDialog", "apply_declarations"]
