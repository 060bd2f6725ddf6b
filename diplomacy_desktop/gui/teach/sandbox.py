"""The sandbox: set up any position, give every power's orders, adjudicate, step back and try again.

A sandbox always lives in its own window (``open_sandbox_window``): File ▸ New sandbox, "Open this
phase in a sandbox" and a lesson never touch the game in the window they came from, which stays
as it was, ready to go on.  The sandbox is a :class:`~diplomacy_desktop.gui.mode.WindowMode`:
nothing is hidden, every power may order, and its game actions mean "new sandbox", "open / save a
scenario" (the DATC case format of :mod:`diplomacy_desktop.io.scenario`).

Setting up: with *Set up the position* on, a click on a space opens a menu (place an army or a
fleet of any power, remove the unit, a dislodged unit, the centre's owner) and a unit dragged onto
another space moves there.  The engine decides what may stand where (``GameState.build``); the
sandbox only puts the reason in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QMouseEvent
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDockWidget, QFileDialog, QFormLayout,
                               QHBoxLayout, QInputDialog, QLabel, QListWidget, QListWidgetItem, QMenu,
                               QMessageBox, QPushButton, QSpinBox, QTextBrowser, QVBoxLayout, QWidget)

from ...table.changes import TableChange
from ...engine.board import ARMY, FLEET, IMPASSABLE, LAND, SEA, Board, province_of
from ...engine.errors import OrderError
from ...engine.game import Game, HistoryEntry
from ...engine.results import Outcome
from ...engine.rules import Edition, RuleSet
from ...engine.state import (ADJUSTMENT, FALL, MOVEMENT, PHASE_KINDS, RETREAT, SPRING, DislodgedUnit,
                             GameState, Phase, Unit)
from ...io.caserun import expectation_mismatches
from ...io.notation import format_order, location_label, parse_order
from ...io.scenario import (CaseError, OrderLine, Scenario, ScenarioError, read_scenarios, scenario_state,
                            write_scenario)
from .. import override
from ..board.map_scene import BoardPicture, results_picture
from ..controller import GameController
from ..mode import WindowMode
from ..orders.interaction import COAST_NAMES
from ..table.dialogs.new_game import EDITIONS

if TYPE_CHECKING:
    from ..shell import WindowShell

SCENARIO_FILTER = "Scenarios (DATC case format) (*.txt *.case);;All files (*)"
#: the editions as the New Game dialog names them
EDITION_NAMES = {Edition.parse(value): text for value, text in EDITIONS}
KIND_WORDS = {MOVEMENT: "Movement", RETREAT: "Retreat", ADJUSTMENT: "Adjustment"}
_DRAG_THRESHOLD = 6
SETUP_HINT = ("Setting up: click a space to place or remove a unit or set its owner; drag a unit to move it. "
              "Switch set-up off to give orders.")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def kind_name(kind: str) -> str:
    return "army" if kind == ARMY else "fleet"


def place_name(board: Board, loc: str) -> str:
    space = board.spaces.get(province_of(loc))
    name = space.name if space is not None else loc
    coast = loc.partition("/")[2]
    return f"{name} ({COAST_NAMES.get(coast, coast)} coast)" if coast else name


def unit_words(board: Board, unit: Unit) -> str:
    """``the French fleet in Spain (north coast)``"""
    return f"the {board.power(unit.power).adjective} {kind_name(unit.kind)} in {place_name(board, unit.location)}"


def standing_problem(board: Board, kind: str, loc: str) -> str | None:
    """Why a unit of ``kind`` cannot stand on ``loc`` (``None``: it can).  The board decides
    (``unit_can_stand``, the check ``GameState.build`` makes); this only says why in words."""
    if board.unit_can_stand(kind, loc):
        return None
    space = board.spaces.get(province_of(loc))
    if space is None:
        return f"there is no space {loc!r} on this board"
    name = space.name
    if space.kind == IMPASSABLE:
        return f"{name} is impassable: no unit may ever enter it"
    if kind == ARMY:
        if space.kind == SEA:
            return f"an army cannot stand at sea ({name} is a sea space)"
        return f"an army stands on {name} itself, not on one of its coasts"
    if space.kind == LAND:
        return f"a fleet cannot stand inland ({name} has no coast)"
    if space.coasts and "/" not in loc:
        coasts = " or the ".join(COAST_NAMES.get(c, c) for c in space.coasts)
        return f"{name} has two coasts: a fleet there must be on the {coasts} coast"
    return f"a fleet cannot stand on {place_name(board, loc)}"


def _power_word(board: Board, power: str) -> str:
    return board.power(power).name


def legal_places(board: Board, province: str) -> list[tuple[str, str]]:
    """``(kind, location)`` of every unit that may stand in ``province``: an army on land or a coast,
    a fleet at sea or on a coast (on each coast of a split-coast province, never on the province)."""
    out = [(ARMY, province)] if board.unit_can_stand(ARMY, province) else []
    return out + [(FLEET, loc) for loc in board.fleet_locations(province) if board.unit_can_stand(FLEET, loc)]


def place_label(kind: str, loc: str) -> str:
    """``Army``, ``Fleet``, ``Fleet (north coast)``."""
    coast = loc.partition("/")[2]
    if kind == ARMY:
        return "Army"
    return f"Fleet ({COAST_NAMES.get(coast, coast)} coast)" if coast else "Fleet"


# -- the setup panel --------------------------------------------------------------------------------


class SandboxPanel(QDockWidget):
    """The sandbox's side panel: set-up switch, phase and rules, the lesson, earlier tries."""

    def __init__(self, mode: SandboxMode) -> None:
        super().__init__("Sandbox", mode.window)
        self.setObjectName("SandboxPanel")
        self.mode = mode
        body = QWidget()
        col = QVBoxLayout(body)
        col.setContentsMargins(8, 6, 8, 6)

        self.setup_button = QPushButton("Set up the position")
        self.setup_button.setCheckable(True)
        self.setup_button.setToolTip("On: click a space to place or remove units and set its owner; drag a unit "
                                     "to move it. Off: give orders.")
        self.setup_button.toggled.connect(mode.set_setup)
        col.addWidget(self.setup_button)

        form = QFormLayout()
        row = QHBoxLayout()
        self.season = QComboBox()
        self.season.addItem("Spring", SPRING)
        self.season.addItem("Fall", FALL)
        self.year = QSpinBox()
        self.year.setRange(1, 9999)
        self.kind = QComboBox()
        for k in PHASE_KINDS:
            self.kind.addItem(KIND_WORDS[k], k)
        row.addWidget(self.season)
        row.addWidget(self.year)
        row.addWidget(self.kind)
        self.set_phase_button = QPushButton("Set")
        self.set_phase_button.setToolTip("Make this the phase being played (orders of another kind are dropped)")
        self.set_phase_button.clicked.connect(self._set_phase)
        row.addWidget(self.set_phase_button)
        form.addRow("Phase", row)
        self.edition = QComboBox()
        for ed, text in EDITION_NAMES.items():
            self.edition.addItem(text, ed)
        self.edition.activated.connect(lambda _i: mode.set_edition(self.edition.currentData()))
        form.addRow("Rules", self.edition)
        col.addLayout(form)

        self.message = QLabel()
        self.message.setObjectName("SandboxMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("#SandboxMessage { color: #9B1C1C; font-weight: bold; }")
        col.addWidget(self.message)

        self.lesson = QTextBrowser()
        self.lesson.setObjectName("LessonText")
        self.lesson.setOpenExternalLinks(False)
        col.addWidget(self.lesson, 3)

        col.addWidget(QLabel("Adjudications tried (select one to see it again):"))
        self.tries = QListWidget()
        self.tries.setObjectName("SandboxTries")
        self.tries.setMaximumHeight(self.tries.fontMetrics().lineSpacing() * 5)
        self.tries.currentRowChanged.connect(mode.show_try)
        col.addWidget(self.tries, 1)
        self.setWidget(body)

    def _set_phase(self) -> None:
        self.mode.set_phase(self.year.value(), str(self.season.currentData()), str(self.kind.currentData()))

    def show_phase(self, phase: Phase, edition: Edition) -> None:
        self.season.setCurrentIndex(self.season.findData(phase.season))
        self.year.setValue(phase.year)
        self.kind.setCurrentIndex(self.kind.findData(phase.kind))
        self.edition.setCurrentIndex(self.edition.findData(edition))


class DislodgedDialog(QDialog):
    """Place a dislodged unit: its power, kind and coast, and where its attacker came from."""

    def __init__(self, mode: SandboxMode, province: str) -> None:
        super().__init__(mode.window)
        self.setWindowTitle("Place a dislodged unit")
        self.mode = mode
        self.province = province
        board = mode.board
        form = QFormLayout(self)
        form.addRow(QLabel(f"A unit dislodged from <b>{place_name(board, province)}</b>"))
        self.power = QComboBox()
        for p in board.power_ids:
            self.power.addItem(_power_word(board, p), p)
        form.addRow("Power", self.power)
        self.unit = QComboBox()
        for kind, loc in legal_places(board, province):  # only what may stand there
            self.unit.addItem(place_label(kind, loc), (kind, loc))
        form.addRow("Unit", self.unit)
        self.attacker = QComboBox()
        self.attacker.addItem("unknown (it may retreat anywhere free)", None)
        near = sorted({province_of(x) for x in (*board.army_moves.get(province, ()),
                                                 *(y for loc in board.fleet_locations(province)
                                                   for y in board.fleet_moves.get(loc, ())))})
        for prov in near:
            self.attacker.addItem(place_name(board, prov), prov)
        form.addRow("Attacked from", self.attacker)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    @override
    def accept(self) -> None:
        kind, loc = self.unit.currentData()
        unit = Unit(str(self.power.currentData()), kind, loc)
        if self.mode.place_dislodged(unit, self.attacker.currentData()):
            super().accept()


# -- the mode -----------------------------------------------------------------------------------------


class SandboxMode(WindowMode):
    """Any position, every power's orders in the open, adjudicate and take back at will."""

    title = "Sandbox"

    def __init__(self, window: WindowShell) -> None:
        super().__init__(window)
        self.controller: GameController = window.controller
        self.board: Board = self.controller.board
        self.setup = False
        self.dirty = False
        self.path: Path | None = None
        self.scenario: Scenario | None = None  # the lesson or scenario file loaded, with its expectation
        self.lesson_title = ""
        self.lesson_text = ""
        self.unreadable: list[str] = []
        self.lesson_orders: list[str] | None = None
        #: every adjudication tried from this sandbox, taken back or not (what-if)
        self.tried: list[HistoryEntry] = []
        self.last_menu: QMenu | None = None
        self.last_refusal = ""
        #: ask "save the sandbox?" before it is replaced or closed (tests turn it off)
        self.ask_before_closing = False
        self._press: QPoint | None = None
        self._drag: str | None = None  # province of the unit being dragged
        self._dragging = False

        self.panel = SandboxPanel(self)
        window.add_panel(self.panel)
        window.tabifyDockWidget(window.centres_dock, self.panel)  # the lesson gets the room under the orders
        self.panel.show()
        self.panel.raise_()

        self.act_setup = QAction("Set &up the position", self)
        self.act_setup.setCheckable(True)
        self.act_setup.setShortcut("Ctrl+Shift+U")
        self.act_setup.toggled.connect(self.panel.setup_button.setChecked)
        self.act_step = QAction("Adjudicate &step by step", self)
        self.act_step.triggered.connect(lambda _c=False: self.step_through(predict=False))
        self.act_predict = QAction("&Predict the outcome…", self)
        self.act_predict.triggered.connect(lambda _c=False: self.step_through(predict=True))
        self.act_phase = QAction("Set p&hase…", self)
        self.act_phase.triggered.connect(self._focus_phase)
        self.act_owners = QAction("Centres to the units standing on them", self)
        self.act_owners.setStatusTip("Every supply centre with a unit on it goes to that unit's power")
        self.act_owners.triggered.connect(lambda _c=False: self.owners_from_units())
        self.act_lesson = QAction("Compare with the lesson's expected result", self)
        self.act_lesson.triggered.connect(lambda _c=False: self.show_lesson())
        self.act_clear = QAction("&Clear the board", self)
        self.act_clear.setStatusTip("Take every unit off the board and make every centre neutral (Ctrl+Z puts "
                                    "them back)")
        self.act_clear.setToolTip(self.act_clear.statusTip())
        self.act_clear.triggered.connect(lambda _c=False: self.clear_board())
        self.act_close = QAction("C&lose the sandbox", self)
        self.act_close.setShortcut("Ctrl+W")
        self.act_close.setStatusTip("Close this sandbox window (the game it came from is not touched)")
        self.act_close.triggered.connect(lambda _c=False: self.window.close())
        for act in (self.act_setup, self.act_step, self.act_predict, self.act_close):
            window.addAction(act)

        from .setup_palette import SetupPaletteBar

        self.palette = SetupPaletteBar(self, window)
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.palette)

        self._viewport = window.view.viewport()
        self._viewport.installEventFilter(self)
        window.installEventFilter(self)
        self.controller.changed.connect(self._on_changed)
        self.controller.phase_advanced.connect(self._on_adjudicated)

    # -- the mode's hooks ----------------------------------------------------------------------

    def phase_actions(self) -> list[QAction]:
        return [self.act_setup, self.act_step, self.act_predict, self.act_phase, self.act_owners, self.act_clear,
                self.act_close]

    def new_game(self) -> None:
        start = ask_start_position(self.window)
        if start is None:
            return
        if not self.maybe_save():
            return
        self.start(start_state(self.board, start), edition=self.edition)
        if start == EMPTY:
            self.set_setup(True)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = str(self.window.settings.value("sandbox/last_dir", str(Path.home())))
        path, _ = QFileDialog.getOpenFileName(self.window, "Open a scenario", start, SCENARIO_FILTER)
        if path:
            self.open_scenario(path)

    def save(self) -> None:
        if self.path is None:
            self.save_as()
        else:
            self.save_scenario(self.path)

    def save_as(self) -> None:
        start = str(self.window.settings.value("sandbox/last_dir", str(Path.home())))
        path, _ = QFileDialog.getSaveFileName(self.window, "Save the scenario", str(Path(start) / "scenario.txt"),
                                              SCENARIO_FILTER)
        if path:
            self.save_scenario(Path(path))

    def adjudicate(self) -> None:
        """Adjudicate at once: in a sandbox a unit without an order simply holds (no question asked)."""
        c = self.controller
        if c.viewing is not None:
            c.view_phase(None)
        try:
            c.adjudicate()
        except OrderError as exc:
            self.window.show_error("Cannot adjudicate", str(exc))

    def undo_adjudication(self) -> None:
        """Step back: the position and orders come back, the result stays in the list of tries."""
        if self.controller.undo_adjudication() is None:
            self.window.statusBar().showMessage("Nothing has been adjudicated yet.", 4000)
            return
        self.show_lesson()
        self.window.statusBar().showMessage("Adjudication taken back: change the orders and adjudicate again. "
                                            "The earlier result stays in the sandbox panel.", 8000)

    def detach(self) -> None:
        self._viewport.removeEventFilter(self)
        self.window.removeEventFilter(self)
        self.window.removeToolBar(self.palette)

    # -- starting ------------------------------------------------------------------------------

    @property
    def edition(self) -> Edition:
        return self.controller.game.rules.edition

    def start(self, state: GameState, *, edition: Edition | str | None = None, orders: Iterable[object] = (),
              title: str = "", text: str = "", scenario: Scenario | None = None) -> None:
        """A new sandbox game from ``state`` with ``orders`` (engine orders, or ``OrderLine``s to read)."""
        ed = Edition.parse(edition) if edition is not None else Edition.CLASSIC
        game = Game(self.board, RuleSet.for_edition(ed), state)
        self.unreadable = []
        for o in orders:
            if isinstance(o, OrderLine):
                try:
                    order = parse_order(o.text, o.power, state, case_file=True)
                except OrderError as exc:
                    self.unreadable.append(f"{_power_word(self.board, o.power)}: {o.text} — line {o.line}: {exc}")
                    continue
            else:
                order = o  # type: ignore[assignment]
            try:
                game.set_order(order, allow_illegal=True)
            except OrderError as exc:
                self.unreadable.append(f"{format_order(order)}: {exc}")
        self.scenario = scenario
        #: the orders the lesson came with (a what-if with other orders is told so beside the verdict)
        self.lesson_orders = sorted(format_order(o) for o in game.all_orders()) if scenario is not None else None
        self.lesson_title = title
        self.lesson_text = text
        self.tried = []
        self.panel.tries.clear()
        self.controller.replace_game(game)
        self.dirty = False
        self.panel.show_phase(state.phase, ed)
        self.show_lesson()
        self.window.view.fit_to_window()

    def load_scenario(self, scenario: Scenario, edition: Edition | str | None = None, *, title: str = "",
                      text: str = "") -> bool:
        """Set up a scenario (a lesson, a case file): its position and orders; its POSTSTATE, if any, is
        the expected result shown beside the board.  An impossible position gives a message."""
        try:
            state = scenario_state(scenario, self.board)
        except ScenarioError as exc:
            self.window.show_error("Cannot set up the scenario", str(exc))
            return False
        self.start(state, edition=edition, orders=scenario.orders, title=title or scenario.name,
                   text=text or "\n".join(scenario.comments), scenario=scenario)
        return True

    def open_scenario(self, path: str | Path) -> bool:
        """Open a scenario file; a bad file gives a message naming the line and changes nothing."""
        path = Path(path)
        try:
            raw = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            self.window.show_error("Cannot open the scenario", f"{path.name}: {exc}")
            return False
        try:
            items = read_scenarios(raw, self.board)
        except ScenarioError as exc:
            self.window.show_error("Cannot open the scenario", f"{path.name}: {exc}")
            return False
        errors = [i for i in items if isinstance(i, CaseError)]
        cases = [i for i in items if isinstance(i, Scenario)]
        if errors:
            e = errors[0]
            self.window.show_error("Cannot open the scenario",
                                   f"{path.name}: case {e.name!r} (line {e.line}): {e.message}")
            return False
        if not cases:
            self.window.show_error("Cannot open the scenario", f"{path.name}: there is no CASE in it")
            return False
        sc = cases[0]
        if len(cases) > 1:
            names = [c.name for c in cases]
            name, ok = QInputDialog.getItem(self.window, "Open a scenario", "The file has several cases: which one?",
                                            names, 0, False)
            if not ok:
                return False
            sc = cases[names.index(name)]
        edition = Edition.CLASSIC if ".classic" in sc.name else self.edition
        if not self.load_scenario(sc, edition):
            return False
        self.path = path
        self.window.settings.setValue("sandbox/last_dir", str(path.resolve().parent))
        self._title()
        return True

    def current_scenario(self) -> Scenario:
        """The sandbox's current position and orders as a scenario (what Save writes)."""
        state = self.controller.state
        name = self.lesson_title or (self.path.stem if self.path else "Sandbox")
        sc = Scenario(name=name, line=0, phase=state.phase, owners=dict(state.owners),
                      units=list(state.units.values()), dislodged=[d.unit for d in state.dislodged])
        if state.phase.kind == RETREAT and state.contested:
            sc.standoffs = sorted(state.contested)  # the standoff marks of a retreat lesson
        if state.phase.kind == RETREAT:
            # where each attacker came from, as the case format says it: the move that dislodged the
            # unit, a SUCCESS of PRESTATE_RESULTS (the attacker stands in the space it took)
            for d in state.dislodged:
                attacker = state.unit_in(d.province)
                if d.attacker_from is None or attacker is None:
                    continue
                text = (f"{attacker.kind} {location_label(d.attacker_from)} - {location_label(attacker.location)}"
                        + (" via convoy" if d.by_convoy else ""))
                sc.results.append(OrderLine(attacker.power, text, 0, True))
        board = self.board
        sc.orders = [OrderLine(o.power, format_order(o, board), 0) for o in self.controller.game.all_orders()]
        sc.comments = [line for line in self.lesson_text.splitlines()] if self.lesson_text else []
        kept = self.scenario
        if kept is not None and kept.phase == state.phase and kept.units == sc.units:
            sc.post_units, sc.post_dislodged, sc.post_same = kept.post_units, kept.post_dislodged, kept.post_same
        return sc

    def save_scenario(self, path: Path) -> bool:
        state = self.controller.state
        lost = [d for d in state.dislodged if d.attacker_from and state.unit_in(d.province) is None]
        if state.phase.kind == RETREAT and lost:
            note = ("Where the attackers came from is saved as the attacker's move, and no attacker stands in "
                    f"{', '.join(place_name(self.board, d.province) for d in lost)}: ")
            self.window.statusBar().showMessage(note + "that origin is not saved.", 8000)
        try:
            path.write_text(write_scenario(self.current_scenario(), self.board), encoding="utf-8")
        except OSError as exc:
            self.window.show_error("Cannot save the scenario", f"{path}: {exc.strerror or exc}")
            return False
        self.path = path
        self.dirty = False
        self.window.settings.setValue("sandbox/last_dir", str(path.resolve().parent))
        self.window.statusBar().showMessage(f"Saved {path.name}", 4000)
        self._title()
        return True

    def maybe_save(self) -> bool:
        """Before the sandbox is replaced or closed: save it as a scenario, discard, or cancel."""
        if not self.dirty or not self.ask_before_closing:
            return True
        answer = QMessageBox.question(
            self.window, "Save the sandbox?", "The sandbox has changes that are not saved. Save it as a scenario?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            self.save()
            return not self.dirty
        return answer == QMessageBox.StandardButton.Discard

    # -- setting up ----------------------------------------------------------------------------

    def set_setup(self, on: bool) -> None:
        self.setup = on
        self.act_setup.setChecked(on)
        self.panel.setup_button.setChecked(on)
        self.window.interaction.back()
        if on and self.controller.viewing is not None:
            self.controller.view_phase(None)  # one sets up the phase being played, not a result
        self._hint()

    def _hint(self) -> None:
        if self.setup:
            self.window.hint_label.setText(self.setup_hint())
        else:
            self.window.hint_label.setText(self.window.interaction.hint())

    def setup_hint(self) -> str:
        """What a click does now, with the palette's tool and power."""
        from .setup_palette import MENU, OWNER, REMOVE, STANDOFF

        tool, power = self.palette.tool, _power_word(self.board, self.palette.power)
        adjective = self.board.power(self.palette.power).adjective
        if tool == MENU:
            return SETUP_HINT
        doing = {ARMY: f"click a space to place a {adjective} army",
                 FLEET: f"click a space to place a {adjective} fleet (on a split coast, click near the coast)",
                 REMOVE: "click a unit or a standoff mark to remove it",
                 OWNER: f"click a supply centre to give it to {power} (again: neutral)",
                 STANDOFF: "click an empty space to mark it left empty by a standoff: no retreat there "
                           "(again: unmark)"}[tool]
        return f"Setting up: {doing}; drag a unit to move it; Ctrl+Z undoes. Palette tool Menu: the set-up menu."

    def palette_changed(self) -> None:
        if self.setup:
            self._hint()

    def refuse(self, reason: str, point: QPointF | None = None) -> None:
        """An illegal setup: nothing changes, and the reason is shown (on the board beside the
        click, when there was one)."""
        self.last_refusal = reason
        self.panel.message.setText(f"Not possible: {reason}.")
        self.window.statusBar().showMessage(f"Not possible: {reason}.", 8000)
        if point is not None:
            self.window.interaction.board_notes.show(f"Not possible: {reason}.", point)

    def _apply(self, *, units: Iterable[Unit] | None = None, owners: dict[str, str] | None = None,
               dislodged: Iterable[DislodgedUnit] | None = None, phase: Phase | None = None,
               standoffs: Iterable[str] | None = None, said: str = "", step: str = "") -> bool:
        """Make the set-up edit (one undo step, named ``step``); ``said`` goes to the status line."""
        st = self.controller.state
        if self.controller.viewing is not None:
            self.controller.view_phase(None)
        phase = phase or st.phase
        dis = tuple(dislodged) if dislodged is not None else st.dislodged
        placed = list(st.units.values() if units is None else units)
        marks: set[str] = set()
        if phase.kind == RETREAT:
            # a standoff leaves a space empty: a unit put there takes the mark away
            marks = set(st.contested if standoffs is None else standoffs) - {u.province for u in placed}
        else:
            dis = ()
        try:
            new = GameState.build(self.board, phase, placed, st.owners if owners is None else owners, dis, marks,
                                  st.relations)
        except ValueError as exc:
            self.refuse(str(exc))
            return False
        self.panel.message.setText("")
        self.last_refusal = ""
        if new == st:
            return True
        self.controller.set_position(new, step or (said[:1].lower() + said[1:]) or "set up the position")
        self.dirty = True
        if said:
            self.window.statusBar().showMessage(said, 5000)
        return True

    def place_unit(self, unit: Unit) -> bool:
        """Put ``unit`` on the board; refused (with the reason) where it cannot stand or the space is taken."""
        board = self.board
        if not self._may_stand(unit, " (remove it first)"):
            return False
        units = [*self.controller.state.units.values(), unit]
        return self._apply(units=units, said=f"Placed {unit_words(board, unit)}",
                           step=f"place {unit_words(board, unit)}")

    def _may_stand(self, unit: Unit, remedy: str = "", moving: Unit | None = None) -> bool:
        """May ``unit`` stand where it is placed (a space of its kind, and nobody else's there besides
        the unit ``moving`` itself)?  Refused, with the reason, when not."""
        problem = standing_problem(self.board, unit.kind, unit.location)
        there = self.controller.state.unit_in(unit.province)
        if problem is None and there is not None and there != moving:
            problem = (f"{place_name(self.board, unit.province)} already holds {unit_words(self.board, there)}: "
                       f"two units cannot stand in one space{remedy}")
        if problem is not None:
            self.refuse(problem)
        return problem is None

    def _unit_at(self, province: str) -> Unit | None:
        """The unit standing in ``province`` (None, refused with the reason, when there is none)."""
        unit = self.controller.state.unit_in(province)
        if unit is None:
            self.refuse(f"there is no unit in {place_name(self.board, province)}")
        return unit

    def remove_unit(self, province: str) -> bool:
        gone = self._unit_at(province)
        if gone is None:
            return False
        units = [u for u in self.controller.state.units.values() if u.province != province_of(province)]
        return self._apply(units=units, said=f"Removed {unit_words(self.board, gone)}",
                           step=f"remove {unit_words(self.board, gone)}")

    def move_unit(self, province: str, location: str) -> bool:
        """Move the unit standing in ``province`` to ``location`` (a drag)."""
        unit = self._unit_at(province)
        if unit is None or location == unit.location:
            return False
        moved = Unit(unit.power, unit.kind, location)
        if not self._may_stand(moved, moving=unit):
            return False
        units = [u for u in self.controller.state.units.values() if u != unit] + [moved]
        return self._apply(units=units, said=f"Moved the {kind_name(unit.kind)} to {place_name(self.board, location)}",
                           step=f"move {unit_words(self.board, unit)} to {place_name(self.board, location)}")

    def set_unit_power(self, province: str, power: str) -> bool:
        st = self.controller.state
        unit = st.unit_in(province)
        if unit is None:
            return False
        given = Unit(power, unit.kind, unit.location)
        units = [u for u in st.units.values() if u != unit] + [given]
        return self._apply(units=units, said=f"Gave the {kind_name(unit.kind)} in "
                                             f"{place_name(self.board, unit.location)} to {_power_word(self.board, power)}")

    def place_dislodged(self, unit: Unit, attacker_from: str | None) -> bool:
        st = self.controller.state
        if st.phase.kind != RETREAT:
            self.refuse("dislodged units only exist in a retreat phase: set the phase to Retreat first")
            return False
        problem = standing_problem(self.board, unit.kind, unit.location)
        if problem is not None:
            self.refuse(problem)
            return False
        if st.dislodged_in(unit.province) is not None:
            self.refuse(f"a unit has already been dislodged from {place_name(self.board, unit.province)}")
            return False
        if attacker_from is not None and province_of(attacker_from) == unit.province:
            self.refuse("a unit cannot be dislodged by an attack from its own space")
            return False
        d = DislodgedUnit(unit, attacker_from)
        return self._apply(dislodged=(*st.dislodged, d),
                           said=f"Placed {unit_words(self.board, unit)}, dislodged"
                                + (f" from {place_name(self.board, attacker_from)}" if attacker_from else ""))

    def remove_dislodged(self, province: str) -> bool:
        st = self.controller.state
        gone = st.dislodged_in(province)
        if gone is None:
            self.refuse(f"no unit has been dislodged from {place_name(self.board, province)}")
            return False
        return self._apply(dislodged=tuple(d for d in st.dislodged if d.province != province_of(province)),
                           said=f"Removed {unit_words(self.board, gone.unit)}, dislodged")

    def set_owner(self, centre: str, power: str | None) -> bool:
        if not self.board.spaces[centre].centre:
            self.refuse(f"{place_name(self.board, centre)} is not a supply centre")
            return False
        owners = dict(self.controller.state.owners)
        if power is None:
            owners.pop(centre, None)
        else:
            owners[centre] = power
        whose = _power_word(self.board, power) if power is not None else "nobody"
        return self._apply(owners=owners, said=f"{place_name(self.board, centre)} now belongs to {whose}")

    def clear_board(self) -> bool:
        """Every unit, dislodged unit and standoff mark off the board, every centre neutral (one undo
        step); the phase stays."""
        st = self.controller.state
        if not st.units and not st.dislodged and not st.owners and not st.contested:
            self.window.statusBar().showMessage("The board is already empty.", 4000)
            return False
        return self._apply(units=(), owners={}, dislodged=(), standoffs=(),
                           said="Cleared the board: no units, every centre neutral (Ctrl+Z puts it back)",
                           step="clear the board")

    def standoff_problem(self, province: str) -> str | None:
        """Why ``province`` cannot be marked as left empty by a standoff (``None``: it can)."""
        st = self.controller.state
        space = self.board.spaces.get(province)
        if space is None or space.kind == IMPASSABLE:
            return f"{place_name(self.board, province)} is impassable: no unit ever stands off there"
        if st.phase.kind != RETREAT:
            return ("a standoff mark only matters while units retreat (rules XI): "
                    "set the phase to Retreat first")
        unit = st.unit_in(province)
        if unit is not None:
            return (f"{place_name(self.board, province)} holds {unit_words(self.board, unit)}: "
                    "a standoff leaves a space empty")
        return None

    def set_standoff(self, province: str, on: bool) -> bool:
        """Mark (or unmark) ``province`` as left empty by a standoff this turn: no unit may retreat
        there (rules XI: "nor to a space which was left vacant due to a standoff on the move")."""
        province = province_of(province)
        st = self.controller.state
        if on:
            problem = self.standoff_problem(province)
            if problem is not None:
                self.refuse(problem)
                return False
            if province in st.contested:
                return True
            return self._apply(standoffs=st.contested | {province},
                               said=f"{place_name(self.board, province)} was left empty by a standoff: "
                                    "no unit may retreat there",
                               step=f"mark a standoff in {place_name(self.board, province)}")
        if province not in st.contested:
            return True
        return self._apply(standoffs=st.contested - {province},
                           said=f"{place_name(self.board, province)}: standoff mark removed",
                           step=f"remove the standoff mark in {place_name(self.board, province)}")

    def owners_from_units(self) -> bool:
        st = self.controller.state
        owners = dict(st.owners)
        for u in st.units.values():
            if self.board.spaces[u.province].centre:
                owners[u.province] = u.power
        return self._apply(owners=owners, said="Every occupied supply centre now belongs to its occupier",
                           step="give the centres to the units on them")

    def set_phase(self, year: int, season: str, kind: str) -> bool:
        try:
            phase = Phase(year, season, kind)
        except ValueError as exc:
            self.refuse(f"{exc} (adjustments are in the winter, after the fall)")
            self.panel.show_phase(self.controller.state.phase, self.edition)
            return False
        return self._apply(phase=phase, said=f"Now {phase.label}", step=f"set the phase to {phase.label}")

    def set_edition(self, edition: Edition) -> None:
        self.controller.set_edition(edition)
        self.dirty = True
        self.window.statusBar().showMessage(f"Adjudicated under {EDITION_NAMES[Edition.parse(edition)]}", 5000)

    def give_room(self) -> None:
        """The lesson's text and the set-up get two thirds of the height at the right."""
        h = self.window.height()
        self.window.resizeDocks([self.window.order_dock, self.panel], [h * 2 // 5, h * 3 // 5],
                                Qt.Orientation.Vertical)

    def _focus_phase(self) -> None:
        self.panel.show()
        self.panel.raise_()
        self.panel.year.setFocus()

    # -- the setup menu ------------------------------------------------------------------------

    def setup_menu(self, province: str) -> QMenu:
        """What a click on ``province`` offers while setting up."""
        board = self.board
        st = self.controller.state
        menu = QMenu(self.window.view)
        menu.setObjectName("SetupMenu")
        title = menu.addAction(place_name(board, province))
        title.setEnabled(False)
        unit = st.unit_in(province)

        def add(parent: QMenu, text: str, fn: Callable[[], object]) -> QAction:
            act = parent.addAction(text)
            act.triggered.connect(lambda _c=False: fn())
            return act

        if unit is not None:
            add(menu, f"Remove {unit_words(board, unit)}", lambda: self.remove_unit(province))
            change = menu.addMenu("Give it to")
            for p in board.power_ids:
                if p != unit.power:
                    add(change, _power_word(board, p), partial(self.set_unit_power, province, p))
        space = board.spaces[province]
        # only what may stand here: no army at sea, no fleet inland, a fleet on a split coast on one coast
        places = legal_places(board, province)
        if space.kind == IMPASSABLE:
            note = menu.addAction(f"{space.name} is impassable: no unit may stand there")
            note.setEnabled(False)
        elif unit is None:
            for p in board.power_ids:
                sub = menu.addMenu(f"Place {_power_word(board, p)}")
                for kind, loc in places:
                    add(sub, place_label(kind, loc), partial(self.place_unit, Unit(p, kind, loc)))
        if st.phase.kind == RETREAT and space.kind != IMPASSABLE:
            d = st.dislodged_in(province)
            if d is None:
                add(menu, "Place a dislodged unit…", lambda: self.dislodged_dialog(province))
            else:
                add(menu, f"Remove the dislodged {kind_name(d.unit.kind)}", lambda: self.remove_dislodged(province))
            if province in st.contested:
                add(menu, "Remove the standoff mark", lambda: self.set_standoff(province, False))
            elif unit is None:
                act = add(menu, "Left empty by a standoff (no retreat here)", lambda: self.set_standoff(province, True))
                act.setStatusTip("Rules XI: no unit may retreat to a space left vacant by a standoff")
        if space.centre:
            owner = st.owners.get(province)
            own = menu.addMenu("Centre owner")
            add(own, "Nobody" + (" ✓" if owner is None else ""), lambda: self.set_owner(province, None))
            for p in board.power_ids:
                add(own, _power_word(board, p) + (" ✓" if owner == p else ""), partial(self.set_owner, province, p))
        return menu

    def dislodged_dialog(self, province: str) -> DislodgedDialog:
        dialog = DislodgedDialog(self, province)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def fleet_location(self, province: str, point: QPointF) -> str:
        """Where a fleet put in ``province`` by a click at ``point`` stands: on a split coast, the coast
        whose unit place is nearest the click."""
        coasts = self.board.spaces[province].coast_locations
        if not coasts:
            return province
        geometry = self.window.geometry_data

        def dist(loc: str) -> float:
            x, y = geometry.unit_anchor(loc)
            return (x - point.x()) ** 2 + (y - point.y()) ** 2
        return min(coasts, key=dist)

    def paint(self, point: QPointF) -> bool:
        """A click with a palette tool at ``point``: one edit (one undo step), or a refusal saying why
        on the board beside the click."""
        from .setup_palette import OWNER, REMOVE, STANDOFF

        self.window.interaction.board_notes.clear()
        found = self.window.interaction.province_at(point)
        if found is None:
            return False
        prov = province_of(found)
        board, st = self.board, self.controller.state
        tool, power = self.palette.tool, self.palette.power
        if tool in (ARMY, FLEET):
            loc = prov if tool == ARMY else self.fleet_location(prov, point)
            unit = Unit(power, tool, loc)
            problem = standing_problem(board, tool, loc)
            if problem is not None:
                self.refuse(problem, point)
                return False
            there = st.unit_in(prov)
            if there == unit:
                self.window.statusBar().showMessage(f"{_cap(unit_words(board, unit))} is already there.", 4000)
                return False
            units = [u for u in st.units.values() if u.province != prov] + [unit]
            said = f"Placed {unit_words(board, unit)}" + (f" (instead of {unit_words(board, there)})" if there else "")
            return self._apply(units=units, said=said, step=f"place {unit_words(board, unit)}")
        if tool == REMOVE:
            if st.unit_in(prov) is not None:
                return self.remove_unit(prov)
            if st.dislodged_in(prov) is not None:
                return self.remove_dislodged(prov)
            if prov in st.contested:
                return self.set_standoff(prov, False)
            self.refuse(f"there is nothing to remove in {place_name(board, prov)}", point)
            return False
        if tool == OWNER:
            if not board.spaces[prov].centre:
                self.refuse(f"{place_name(board, prov)} is not a supply centre", point)
                return False
            return self.set_owner(prov, None if st.owners.get(prov) == power else power)
        if tool == STANDOFF:
            if prov in st.contested:
                return self.set_standoff(prov, False)
            problem = self.standoff_problem(prov)
            if problem is not None:
                self.refuse(problem, point)
                return False
            return self.set_standoff(prov, True)
        return False

    def _setup_click(self, point: QPointF) -> None:
        from .setup_palette import MENU

        if self.palette.tool != MENU:
            self.paint(point)
            return
        self._setup_menu_at(point)

    def _setup_menu_at(self, point: QPointF) -> None:
        prov = self.window.interaction.province_at(point)
        if prov is None:
            return
        prov = province_of(prov)
        menu = self.setup_menu(prov)
        if self.last_menu is not None:
            self.last_menu.deleteLater()
        self.last_menu = menu
        if self.window.interaction.popup_menus:
            menu.popup(self.window.view.viewport().mapToGlobal(self.window.view.mapFromScene(point)))

    def drop_location(self, unit: Unit, point: QPointF) -> str | None:
        """Where a unit dropped at ``point`` stands: the space, or for a fleet the nearest coast."""
        geometry = self.window.geometry_data
        space = geometry.space_at(point.x(), point.y())
        if space is None:
            return None
        return self.fleet_location(space, point) if unit.kind == FLEET else space

    @staticmethod
    def _is_mouse(event: QEvent) -> bool:
        return event.type() in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove, QEvent.Type.MouseButtonRelease)

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close:
            assert isinstance(event, QCloseEvent)
            if not self.maybe_save():
                event.ignore()
                return True
            return False
        if not self.setup or not self._is_mouse(event) or watched is not self._viewport:
            return False
        assert isinstance(event, QMouseEvent)
        view = self.window.view
        pos = event.position().toPoint()
        point = view.mapToScene(pos)
        if event.button() == Qt.MouseButton.RightButton:  # the set-up menu, whichever the palette's tool
            if event.type() == QEvent.Type.MouseButtonRelease:
                self._setup_menu_at(point)
            return event.type() != QEvent.Type.MouseMove
        if event.type() == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            self._press = pos
            # the unit's whole disc counts, also under an arrowhead or a support line drawn over it
            item = self.window.interaction.unit_at(point)
            self._drag = item.province if item is not None and not item.displaced else None
            self._dragging = False
            return self._drag is not None  # the view pans when the press is not on a unit
        if event.type() == QEvent.Type.MouseMove and self._press is not None and self._drag is not None:
            if (pos - self._press).manhattanLength() > _DRAG_THRESHOLD:
                self._dragging = True
                item = self.window.scene.unit_items.get(self._drag)
                if item is not None:
                    item.setPos(point)
            return True
        if event.type() == QEvent.Type.MouseButtonRelease and event.button() == Qt.MouseButton.LeftButton:
            press, drag, dragging = self._press, self._drag, self._dragging
            self._press, self._drag, self._dragging = None, None, False
            if press is None:
                return False
            if dragging and drag is not None:
                unit = self.controller.state.unit_in(drag)
                loc = self.drop_location(unit, point) if unit is not None else None
                if unit is None or loc is None or not self.move_unit(drag, loc):
                    self.window.scene.show_picture(self._picture())  # put the unit back
                return True
            if (pos - press).manhattanLength() <= _DRAG_THRESHOLD:
                self._setup_click(point)  # and not an order: the view never hears of this release
                return True
        return False

    def _picture(self) -> BoardPicture:
        from ..board.map_source import picture_for

        return picture_for(self.controller)

    # -- adjudicating ----------------------------------------------------------------------------

    def _on_adjudicated(self, entry: HistoryEntry) -> None:
        self.tried.append(entry)
        n = len(self.tried)
        changed = ""
        if n > 1:
            before = {format_order(o) for o in self.tried[-2].orders}
            now = {format_order(o) for o in entry.orders}
            added, dropped = sorted(now - before), sorted(before - now)
            words = ([f"changed: {', '.join(added)}"] if added else []) + \
                    ([f"no longer: {', '.join(dropped)}"] if dropped else [])
            changed = f" — {'; '.join(words)}" if words else " — same orders"
        failed = sum(1 for r in entry.results if r.outcome is not Outcome.SUCCESS)
        item = QListWidgetItem(f"Try {n}: {entry.state.phase.label}, {len(entry.results)} results, "
                               f"{failed} not carried out{changed}")
        item.setToolTip(item.text())
        self.panel.tries.blockSignals(True)
        self.panel.tries.addItem(item)
        self.panel.tries.setCurrentRow(-1)
        self.panel.tries.blockSignals(False)
        self.show_lesson(entry)

    def show_try(self, row: int) -> None:
        """Show an earlier adjudication (kept even when it was taken back) on the map."""
        if row < 0 or row >= len(self.tried):
            return
        entry = self.tried[row]
        self.window.scene.show_picture(results_picture(entry))
        self.window.banner_label.setText(f"<b>Try {row + 1}: results of {entry.state.phase.label}</b> "
                                         "(an earlier adjudication; press End to come back)")
        self.window.banner.setVisible(True)
        lines = [f"{format_order(r.order)}: {r.outcome.value}" + (f" ({r.reason})" if r.reason else "")
                 for r in entry.results]
        self.window.statusBar().showMessage(f"Try {row + 1}: " + "; ".join(lines), 15000)

    def step_through(self, *, predict: bool) -> None:
        """Adjudicate (if the current phase is not yet) and reveal the decisions one by one."""
        c = self.controller
        entry = c.viewed_entry
        if entry is None:
            try:
                entry = c.adjudicate()
            except OrderError as exc:
                self.window.show_error("Cannot adjudicate", str(exc))
                return
        try:
            from .step_through import start_step_through
        except ImportError:
            self.window.show_error("Step by step is not available",
                                   "The step-by-step view is not part of this build: the results are shown "
                                   "on the map and in the Results panel.")
            return
        start_step_through(self.window, entry, predict=predict)

    # -- the lesson ------------------------------------------------------------------------------

    def expected_html(self) -> str:
        sc = self.scenario
        if sc is None or not sc.has_expectation:
            return ""
        board = self.board

        def units(us: list[Unit]) -> str:
            if not us:
                return "none"
            return "<br>".join(f"{_power_word(board, u.power)}: {u.kind} {location_label(u.location)}"
                               for u in sorted(us, key=lambda u: (u.power, u.location)))

        out = ["<h4>Expected result</h4>"]
        if sc.post_same:
            out.append("<p>Every unit stays where it is (nobody moves).</p>")
        else:
            if sc.post_units is not None:
                out.append(f"<p><b>Units after the phase</b><br>{units(sc.post_units)}</p>")
            if sc.post_dislodged:
                out.append(f"<p><b>Dislodged</b><br>{units(sc.post_dislodged)}</p>")
        return "".join(out)

    def verdict(self, entry: HistoryEntry) -> tuple[str, ...] | None:
        """How the adjudicated ``entry`` differs from the lesson's expectation (``None``: none to compare)."""
        sc = self.scenario
        if sc is None or not sc.has_expectation or entry.state.phase != sc.phase:
            return None
        return expectation_mismatches(sc, entry.state, entry.after)

    def show_lesson(self, entry: HistoryEntry | None = None) -> None:
        import html

        parts = []
        if self.lesson_title:
            parts.append(f"<h3>{html.escape(self.lesson_title)}</h3>")
        verdict_at = len(parts)  # the verdict comes first, under the title: it is what one looks for
        if self.lesson_text:
            paras = [p for p in self.lesson_text.split("\n\n") if p.strip()]
            parts += [f"<p>{html.escape(p).replace(chr(10), ' ')}</p>" for p in paras]
        if self.unreadable:
            parts.append("<p><b>Orders that cannot be followed</b> (they are not on the board; "
                         "the unit holds):<br>" + "<br>".join(html.escape(u) for u in self.unreadable) + "</p>")
        parts.append(self.expected_html())
        if entry is None:
            entry = self.controller.last_entry
        if entry is not None:
            mism = self.verdict(entry)
            if mism is not None:
                if not mism:
                    parts.insert(verdict_at, "<p style='color:#1B6E2E'><b>✓ The adjudication agrees with the "
                                             "expected result.</b></p>")
                else:
                    parts.insert(verdict_at, "<p style='color:#9B1C1C'><b>✗ The adjudication differs from the "
                                             "expected result:</b><br>"
                                             + "<br>".join(html.escape(m) for m in mism) + "</p>")
                    if self.lesson_orders is not None and \
                            sorted(format_order(o) for o in entry.orders) != self.lesson_orders:
                        parts.insert(verdict_at + 1, "<p><i>These are not the lesson's orders: its expected "
                                                     "result is for its own orders.</i></p>")
        parts = [p for p in parts if p]
        if not parts:
            parts = [("<p>A sandbox. Set up the position with the palette above the map: choose a power and "
                      "<b>Army</b> or <b>Fleet</b>, then each click on the map places one; <b>Remove</b>, "
                      "<b>Centre owner</b> and <b>Standoff</b> (a retreat lesson) work the same way, <b>Menu</b> "
                      "gives every choice for a space, and Ctrl+Z undoes any of it. Switch off <b>Set up the "
                      "position</b> to give orders to every power; Ctrl+Return adjudicates.</p>")]
        self.panel.lesson.setHtml("".join(parts))

    # -- keeping up ------------------------------------------------------------------------------

    def _on_changed(self, record: TableChange) -> None:
        if record.orders and not record.phase:
            self.dirty = True
        if record.phase or record.game:
            self.panel.show_phase(self.controller.state.phase, self.edition)
        if self.setup:
            self._hint()  # after the window's own hint
        self._title()

    def _title(self) -> None:
        name = self.path.name if self.path is not None else (self.lesson_title or "New sandbox")
        self.window.setWindowTitle(f"Sandbox: {name} — {self.controller.state.phase.label} — Diplomacy Desktop")


# -- making sandboxes ---------------------------------------------------------------------------------


def empty_state(board: Board) -> GameState:
    """An empty board in Spring of the board's first year, every centre neutral."""
    return GameState.build(board, Phase(board.start_year, SPRING, MOVEMENT))


STANDARD, EMPTY = "standard", "empty"
#: the start chosen last in this session: New sandbox offers it first (Return repeats it)
_last_start = STANDARD


def start_state(board: Board, start: str) -> GameState:
    return GameState.initial(board) if start == STANDARD else empty_state(board)


def ask_start_position(parent: QWidget) -> str | None:
    """New sandbox: "the standard start or an empty board?" asked each time, the last answer of the
    session first (Return takes it); ``None``: cancelled (Escape)."""
    global _last_start
    box = QMessageBox(parent)
    box.setObjectName("NewSandboxBox")
    box.setWindowTitle("New sandbox")
    box.setText("Start the sandbox from which position?")
    box.setInformativeText("The standard start: every power's units of Spring 1901. An empty board: no units and "
                           "every centre neutral, to set up a lesson with the set-up palette.")
    standard = box.addButton("&Standard start", QMessageBox.ButtonRole.AcceptRole)
    empty = box.addButton("&Empty board", QMessageBox.ButtonRole.AcceptRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setEscapeButton(cancel)
    box.setDefaultButton(empty if _last_start == EMPTY else standard)
    box.exec()
    clicked = box.clickedButton()
    box.deleteLater()
    if clicked is standard:
        _last_start = STANDARD
    elif clicked is empty:
        _last_start = EMPTY
    else:
        return None
    return _last_start


def enter_sandbox(window: WindowShell, *, state: GameState | None = None, edition: Edition | str | None = None,
                  orders: Iterable[object] = (), title: str = "", text: str = "") -> SandboxMode:
    """Make ``window`` a sandbox with a new game from ``state`` (default: the standard start)."""
    mode = window.mode if isinstance(window.mode, SandboxMode) else SandboxMode(window)
    window.set_mode(mode)
    if window.ask_before_closing:  # the mode asks about saving the scenario, not the window about the game
        mode.ask_before_closing = True
        window.ask_before_closing = False
    mode.start(state if state is not None else GameState.initial(window.controller.board), edition=edition,
               orders=orders, title=title, text=text)
    return mode


#: sandbox windows opened from a window (kept alive while they are open)
_WINDOWS: list[WindowShell] = []


def open_sandbox_window(parent: WindowShell, *, state: GameState | None = None, edition: Edition | str | None = None,
                        orders: Iterable[object] = (), title: str = "", text: str = "") -> SandboxMode:
    """A new window holding a sandbox; ``parent`` (and its game) is not touched."""
    controller = GameController(Game.new(parent.controller.board))
    window = parent.new_window(controller)  # the same kind of window, sharing the map and settings
    window.ask_before_closing = parent.ask_before_closing
    window.interaction.popup_menus = parent.interaction.popup_menus
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _WINDOWS.append(window)
    window.destroyed.connect(lambda _o=None, w=window: _WINDOWS.remove(w) if w in _WINDOWS else None)
    mode = enter_sandbox(window, state=state, edition=edition, orders=orders, title=title, text=text)
    window.setGeometry(parent.geometry())  # in the same place: it is seen at once, over the game
    window.show()
    QTimer.singleShot(0, window, mode.give_room)  # (not after the window is closed)
    window.raise_()
    window.activateWindow()
    window.view.fit_to_window()
    return mode


def sandbox_for(window: WindowShell) -> SandboxMode:
    """The window's own sandbox, or a new sandbox window beside it."""
    if isinstance(window.mode, SandboxMode):
        return window.mode
    return open_sandbox_window(window)


def new_sandbox(window: WindowShell) -> SandboxMode | None:
    """File ▸ New sandbox: the standard start or an empty board (asked first; Escape: nothing
    happens), in a sandbox window."""
    if isinstance(window.mode, SandboxMode):
        window.mode.new_game()
        return window.mode
    start = ask_start_position(window)
    if start is None:
        return None
    mode = open_sandbox_window(window, state=start_state(window.controller.board, start))
    if start == EMPTY:
        mode.set_setup(True)  # an empty board is there to be set up: the palette is ready
    return mode


def open_phase_in_sandbox(window: WindowShell) -> SandboxMode | None:
    """Copy the phase being looked at (its position, and the orders that may be seen) into a new
    sandbox window.  The game is not touched."""
    if window.mode.covered():
        window.show_error("Not now", "The curtain is up: the orders are secret.")
        return None
    c = window.controller
    entry = c.viewed_entry
    if entry is not None:
        state, orders = entry.state, list(entry.orders)
    else:
        state, orders = c.state, c.visible_orders()  # never another power's secret orders
    title = f"{state.phase.label} of {c.path.name if c.path is not None else 'the game'}"
    return open_sandbox_window(window, state=state, edition=c.game.rules.edition, orders=orders, title=title)


def open_scenario_in_sandbox(window: WindowShell) -> None:
    """File ▸ Open scenario from a game window: the scenario opens in a sandbox window."""
    if isinstance(window.mode, SandboxMode):
        window.mode.open_dialog()
        return
    start = str(window.settings.value("sandbox/last_dir", str(Path.home())))
    path, _ = QFileDialog.getOpenFileName(window, "Open a scenario", start, SCENARIO_FILTER)
    if path:
        mode = open_sandbox_window(window)
        if not mode.open_scenario(path):
            mode.window.close()
