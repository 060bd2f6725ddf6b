"""Practice: you against the computer (issue 33, build point 3), the window's side.

``PracticeDialog`` asks for the person's power and the computer's level; the table mode starts
the game (``table.practice.practice_settings``: the other six powers are computer seats, no
curtain, no PINs, no clock).  ``PracticePlay`` plays it: the person writes on the map; at
Adjudicate (F8, Ctrl+Return) the computer writes its orders for the phase in a worker thread
(``computer_worker``: the window keeps running meanwhile), and only then, on the GUI thread, they
are filed and the phase adjudicated at once, so nothing of them is ever seen before the results.
The Why? panel then shows and explains the person's first result (every result is a click away).
Retreats and builds: the person's own by hand, the computer's by its seats, the same way.

"What would the computer do here?" (Ctrl+H) asks the club player for the person's own power and
shows its orders as a suggestion; nothing is entered unless the person chooses "Use these orders".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout,
                               QWidget)

from ...engine.board import Board
from ...engine.disorder import disorder_told
from ...engine.errors import OrderError
from ...engine.game import HistoryEntry
from ...engine.options import orders_needed
from ...engine.orders import Order, UnitOrder
from ...io.notation import format_order
from ...table.computer import LEVEL_WORDS, LEVELS, computer_seats, computer_seed
from ...table.practice import HINT_LEVEL, practice_power
from .computer_worker import ComputerThinker, Orders

if TYPE_CHECKING:
    from .features.mode import TableFeatures

#: the power a practice game offers first
DEFAULT_POWER = "france"


class PracticeDialog(QDialog):
    """Practice: you against the computer: your power, and the computer's level."""

    def __init__(self, board: Board, power: str = DEFAULT_POWER, level: str = HINT_LEVEL,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Practice: you against the computer")
        layout = QVBoxLayout(self)
        text = QLabel("You play one power; the computer plays the other six. There is no curtain and no PIN: "
                      "write your orders on the map and press F8 (Adjudicate). The computer writes its orders "
                      "only then, the phase is adjudicated, and the Why? panel explains every result. "
                      "Ctrl+H shows what the computer would order for you.")
        text.setWordWrap(True)
        layout.addWidget(text)
        form = QFormLayout()
        self.power_combo = QComboBox()
        for p in board.power_ids:
            self.power_combo.addItem(board.power(p).name, p)
        self.power_combo.setCurrentIndex(max(0, self.power_combo.findData(power)))
        form.addRow("You play", self.power_combo)
        self.level_combo = QComboBox()
        for lvl in LEVELS:
            self.level_combo.addItem(f"the computer: {LEVEL_WORDS[lvl]}", lvl)
        self.level_combo.setCurrentIndex(max(0, self.level_combo.findData(level)))
        self.level_combo.setToolTip("Beginner: plausible and beatable. Club player: plans supports and "
                                    "convoys. Strong: compares its plans against likely replies.")
        form.addRow("The other six", self.level_combo)
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.start_button = buttons.addButton("Start practice", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.start_button.setDefault(True)  # (once in the dialog: Enter starts)

    def choice(self) -> tuple[str, str]:
        """(the person's power, the computer's level)."""
        return str(self.power_combo.currentData()), str(self.level_combo.currentData())


class HintDialog(QDialog):
    """The computer's orders for the person's power, as a suggestion: "Use these orders" enters
    them (one undo step); Close enters nothing."""

    def __init__(self, power_name: str, orders: list[Order], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("What would the computer do here?")
        self.orders = orders
        layout = QVBoxLayout(self)
        lines = "<br>".join(format_order(o) for o in orders) or "(nothing to order)"
        self.text = QLabel(f"The computer (club player) would order for {power_name}:<br><br><b>{lines}</b><br><br>"
                           "A suggestion only: nothing is entered unless you use it.")
        self.text.setWordWrap(True)
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.use_button = buttons.addButton("Use these orders", QDialogButtonBox.ButtonRole.AcceptRole)
        self.use_button.setEnabled(bool(orders))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.use_button.setDefault(bool(orders))  # (once in the dialog: Enter uses them)


class PracticePlay(QObject):
    """Plays a practice game in the table mode: the computer's orders at Adjudicate, the results
    explained, the hint."""

    def __init__(self, features: TableFeatures) -> None:
        super().__init__(features.window)
        self.features = features
        self.controller = features.controller
        self.thinker: ComputerThinker = features.flow.thinker  # the table's one worker
        self.hint_dialog: HintDialog | None = None
        self.dialog: PracticeDialog | None = None

    @property
    def power(self) -> str | None:
        """The person's power when the game on the table is a practice game."""
        c = self.controller
        return practice_power(c.table, c.board.power_ids)

    def _say(self, text: str, ms: int = 8000) -> None:
        self.features.window.statusBar().showMessage(text, ms)

    # -- Adjudicate -------------------------------------------------------------------------------

    def adjudicate(self) -> bool:
        """F8 in a practice game: the computer writes (in the worker), then the phase is adjudicated.
        Whether the computer was asked (False: refused, or the game is over)."""
        c = self.controller
        me = self.power
        if me is None or c.game.is_over:
            return False
        if self.thinker.busy:
            self._say("The computer is still writing its orders\u2026", 3000)
            return False
        if c.viewing is not None:
            c.view_phase(None)
        missing = c.orders_missing(me)
        if missing and not self.features.flow.confirm(self.features.window, "Adjudicate?",
                                                      self._missing_question(me, missing)):
            return False
        state = c.state
        seats = {p: lvl for p, lvl in computer_seats(c.table, c.board.power_ids).items()
                 if p != me and orders_needed(state, p) > 0 and not c.game.orders.get(p)}
        self._say("The computer is writing its orders\u2026", 0)
        self.thinker.think(computer_seed(c.table), state, seats, self._written, failed=self._failed)
        return True

    def _missing_question(self, me: str, missing: int) -> str:
        """The question before adjudicating with ``missing`` of the person's orders not given: with
        none given in a movement phase the power is in civil disorder (rules XIV.1), said in the
        words its results will say; else what becomes of the orders not given."""
        c = self.controller
        name = c.power_name(me)
        if me in c.phase_disorder():
            return (f"{name} has given no orders: adjudicated now, {name} is in civil disorder (rules XIV.1) "
                    f"\u2014 {disorder_told(c.state.phase.kind)}. Adjudicate now?")
        return (f"{name} still has {missing} order{'s' if missing != 1 else ''} to give "
                f"({self._missing_words()}). Adjudicate now?")

    def _missing_words(self) -> str:
        kind = self.controller.state.phase.kind
        return {"movement": "units without an order hold", "retreat": "dislodged units without an order are disbanded",
                "adjustment": "builds not chosen are lost; removals not chosen are made by the rules"}[kind]

    def _failed(self, text: str) -> None:
        self._say("")
        self.features.message(self.features.window, "The computer could not play", text)

    def _written(self, orders: Orders) -> None:
        """On the GUI thread, the game unchanged: file the computer's orders, adjudicate, explain."""
        c = self.controller
        for power, mine in orders.items():
            c.file_computer_orders(power, mine)
        try:
            entry = c.adjudicate()
        except OrderError as exc:
            self._failed(str(exc))
            return
        self._say(f"{entry.state.phase.label} adjudicated: now {c.state.phase.label}. The Why? panel explains "
                  "each result (click an order).")
        self.explain(entry)

    def explain(self, entry: HistoryEntry) -> None:
        """The Why? panel shown, on the person's first result (else the first of all)."""
        from ..teach.explanations import ExplanationDock, filed_results

        dock = self.features.window.explanations
        if not isinstance(dock, ExplanationDock):
            return
        dock.show()
        dock.raise_()
        dock.refresh()
        results = filed_results(entry)
        me = self.power
        mine = [r for r in results if r.order.power == me]
        chosen = mine or results
        if chosen:
            dock.show_result(entry, chosen[0])

    # -- the hint -----------------------------------------------------------------------------------

    def hint(self) -> bool:
        """Ctrl+H: what the computer (club player) would order for the person's power now."""
        c = self.controller
        me = self.power
        if me is None:
            self._say("The hint is for practice games (Game \u25b8 New practice game).", 5000)
            return False
        if c.game.is_over or orders_needed(c.state, me) == 0:
            self._say(f"{c.power_name(me)} has nothing to order now.", 5000)
            return False
        if c.viewing is not None:  # the last results are shown: back to the phase being played
            c.view_phase(None)
        self._say("The computer is thinking about your position\u2026", 0)
        self.thinker.think(computer_seed(c.table), c.state, {me: HINT_LEVEL},
                           lambda orders: self._show_hint(me, orders.get(me, [])), failed=self._failed)
        return True

    def _show_hint(self, power: str, orders: list[Order]) -> None:
        from ..widgets import accepted, open_kept

        self._say("")
        if self.hint_dialog is not None:
            self.hint_dialog.reject()
        dialog = HintDialog(self.controller.power_name(power), orders, self.features.window)
        open_kept(self, "hint_dialog", dialog, accepted(lambda: self.use(power, dialog.orders)))

    def use(self, power: str, orders: list[Order]) -> int:
        """Enter the suggested orders for ``power`` (its earlier ones replaced): one undo step.
        How many were entered."""
        c = self.controller
        if not c.can_order(power):
            return 0
        stack = c.undo_stack
        stack.beginMacro("use the computer's orders")
        entered = 0
        try:
            c.clear_orders(power)
            for order in orders:
                try:
                    c.set_order(order)
                    entered += 1
                except OrderError as exc:  # the position changed since: say so, keep the rest
                    where = order.province if isinstance(order, UnitOrder) else ""
                    self._say(f"Not entered {where}: {exc}", 6000)
        finally:
            stack.endMacro()
        return entered

    # -- a new practice game ----------------------------------------------------------------------

    def offer(self) -> PracticeDialog:
        """Game ▸ New practice game… (never blocks): "Start practice" starts it."""
        from ..widgets import open_kept

        dialog = PracticeDialog(self.controller.board, self.power or DEFAULT_POWER, parent=self.features.window)

        def finished(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.features.start_practice(*dialog.choice())

        open_kept(self, "dialog", dialog, finished)
        return dialog
