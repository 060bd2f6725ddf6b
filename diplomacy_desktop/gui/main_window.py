"""``MainWindow``: the map in the middle, the order, results and centre panels around it.

The window hosts a *mode* (``window.mode``, see :mod:`.mode`): the plain board, the table game or
the sandbox.  Every Game and Phase action, the results panel's "undo adjudication" and the end of
the game go through the mode's hooks; ``set_mode`` installs one.  Places a mode puts its pieces:

* ``table_bar``: a row above the map (hidden while empty) for the negotiation clock;
* ``status_slot``: a layout at the right of the status bar for the sealing status strip;
* ``recent_menu``: the Game ▸ Open Recent menu (disabled while empty);
* ``add_panel(dock, area)``: add a dock widget (and a View menu entry to show it);
* ``controller.set_view``: the secrecy switch (who may be seen, who is at the keyboard).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QMargins, QRect, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (QApplication, QDockWidget, QFileDialog, QHBoxLayout, QLabel, QMenu,
                               QMessageBox, QPushButton, QTabBar, QVBoxLayout, QWidget)

from ..table.changes import LAPTOP, OPENED, TableChange
from ..engine.errors import OrderError
from ..engine.game import GameEnd, HistoryEntry
from ..io.savefile import SaveFileError
from ..resources import assets_dir, cache_dir
from . import override
from .board.label_images import keep_on_disk
from .board.map_overlay import MapOverlayFrame
from .board.map_points import DeferredGeometry
from .board.map_scene import LabelItem, MapScene, current_picture, results_picture
from .board.map_source import (  # the picture-building code: importable here too
    board_ids,
    deferred_geometry,
    load_geometry,
    map_svg,
    picture_for,
)
from .board.map_view import MapView
from .controller import GameController
from .keys import LOUPE_KEY, REDO_KEYS, UNDO_KEYS, HistoryKeys, key_sequences, menu_action
from .mode import WindowMode
from .orders.interaction import IDLE, OrderInteraction
from .orders.order_dock import OrderDock
from .orders.results_dock import CentresDock, ResultsDock
from .orders.target_zoom import TargetZoom
from .shell import ModeHooks, WindowShell
from .teach.explanations import install_explanations
from .teach.presentation import install_projector
from .widgets import phase_buttons

_Keys = str | QKeySequence | QKeySequence.StandardKey
if TYPE_CHECKING:
    from ..io.dipjson import ImportedGame
    from ..mapdata import MapGeometry
    from .board.loupe import Loupe

FILE_FILTER = "Diplomacy Desktop games (*.json *.dipl);;All files (*)"


#: room left for a window manager's title bar and borders before the window is shown
FRAME_GUESS = QMargins(0, 32, 0, 0)


def first_window_rect(available: QRect, frame: QMargins = FRAME_GUESS) -> QRect:
    """The first window's client area: the whole available screen (taskbars and panels left out)
    less the window frame, so the bottom strip is never off screen on a small laptop."""
    inner = available.marginsRemoved(frame)
    return QRect(inner.topLeft(), inner.size())


class MainWindow(WindowShell):
    """The window (see the module documentation); its rooms see it as a ``WindowShell``."""

    def __init__(self, controller: GameController, *, geometry: MapGeometry | DeferredGeometry | None = None,
                 settings: QSettings | None = None, sharpen: bool = True) -> None:
        super().__init__()
        self.controller = controller
        self.settings = settings if settings is not None else QSettings()
        #: ask "save changes?" when closing a modified game (tests turn it off)
        self.ask_before_closing = True
        self._discarded = False  # the last "save changes?" was answered Discard
        self.geometry_data = geometry if geometry is not None else deferred_geometry(controller)
        if sharpen:  # the names' places and images, kept for the next start as the board's pictures are
            keep_on_disk(cache_dir(), LabelItem.draw)
        self.scene = MapScene(self.geometry_data, map_svg(controller), self, sharpen=sharpen)
        self.view = MapView(self.scene)
        self.interaction = OrderInteraction(controller, self.scene, self)
        self.interaction.menu_parent = self.view
        self.view.clicked.connect(self.interaction.click_at)
        self.view.drag_test = self.interaction.can_drag_from
        self.view.dragging.connect(self.interaction.drag_to)
        self.view.dropped.connect(self.interaction.drop)
        self.view.typed.connect(self.type_into_entry)
        self.target_zoom = TargetZoom(self.interaction, self.view)  # the magnifier for crowded areas
        self.view.hovered.connect(lambda p, g: self.interaction.hover_at(p, g, self.view.viewport()))
        self.view.left.connect(lambda: self.scene.set_hover(None))

        central = QWidget()
        col = QVBoxLayout(central)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(0)
        self.table_bar_widget = QWidget()
        self.table_bar = QHBoxLayout(self.table_bar_widget)
        self.table_bar.setContentsMargins(6, 4, 6, 4)
        self.table_bar_widget.setVisible(False)
        col.addWidget(self.table_bar_widget)
        # the results bar floats over the map's corner: a row above the map would rescale the board
        self.banner = MapOverlayFrame(self.view)
        self.banner.setObjectName("HistoryBanner")
        self.banner.setStyleSheet("#HistoryBanner { background: #FFF4C2; border: 1px solid #C9B458; "
                                  "border-radius: 4px; }")
        bl = QHBoxLayout(self.banner)
        bl.setContentsMargins(10, 4, 10, 4)
        self.banner_label = QLabel()
        self.banner_label.setWordWrap(True)
        bl.addWidget(self.banner_label, 1)
        self.banner_prev, self.banner_next = phase_buttons(controller, "◀", "▶")
        self.banner_continue = QPushButton()
        self.banner_continue.setDefault(True)
        self.banner_continue.clicked.connect(lambda: controller.view_phase(None))
        self.banner_sandbox = QPushButton("Open in sandbox")
        self.banner_sandbox.setToolTip("Copy this phase (position and orders) into a sandbox window to try "
                                       "other orders; the game is not touched (Ctrl+Shift+B)")
        self.banner_sandbox.clicked.connect(partial(self._teach, "open_phase_in_sandbox"))
        bl.addWidget(self.banner_sandbox)
        for arrow in (self.banner_prev, self.banner_next):  # compact: the bar floats over the map
            arrow.setFixedWidth(arrow.fontMetrics().horizontalAdvance("◀") + 22)
        bl.addWidget(self.banner_prev)
        bl.addWidget(self.banner_next)
        bl.addWidget(self.banner_continue)
        self.banner.setVisible(False)
        col.addWidget(self.view, 1)
        self.hint_label = QLabel()
        self.hint_label.setObjectName("HintBar")
        self.hint_label.setWordWrap(True)
        self.hint_label.setStyleSheet("#HintBar { background: #F2F4F7; border-top: 1px solid #C8CDD3; "
                                      "padding: 5px 10px; font-size: 11pt; }")
        self.hint_label.setAccessibleName("What to do next")
        # two lines, always: a hint that wraps must not resize (and rescale) the map
        lines = self.hint_label.fontMetrics().lineSpacing() * 2
        self.hint_label.setFixedHeight(lines + 14)
        self.hint_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        # it paints its whole background (the style sheet's): when its text changes, nothing under it
        # is repainted (the window's background, and Qt's spare dock tab bars kept under it)
        self.hint_label.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        col.addWidget(self.hint_label)
        self.setCentralWidget(central)

        self.order_dock = OrderDock(controller, self.interaction, self)
        self.results_dock = ResultsDock(controller, self)
        self.results_dock.undo_adjudication_requested.connect(lambda: self.mode.undo_adjudication())
        self.centres_dock = CentresDock(controller, self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.order_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.results_dock)
        self.tabifyDockWidget(self.order_dock, self.results_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.centres_dock)
        self.order_dock.raise_()
        # the Orders and Results tabs share one width: switching tabs must not move the map
        self.tabifiedDockWidgetActivated.connect(self._keep_tab_width)
        self._laid_out = False

        self.status_slot_widget = QWidget()
        self.status_slot = QHBoxLayout(self.status_slot_widget)
        self.status_slot.setContentsMargins(0, 0, 0, 0)
        self.statusBar().addPermanentWidget(self.status_slot_widget)
        self.phase_label = QLabel()
        self.phase_label.setStyleSheet("font-weight: bold; padding: 0 8px;")
        self.statusBar().addPermanentWidget(self.phase_label)
        self.interaction.hint_changed.connect(self.hint_label.setText)
        self.interaction.message.connect(lambda text: self.statusBar().showMessage(text, 6000))

        self.mode: ModeHooks = WindowMode(self)
        controller.set_order_policy(lambda power: self.mode.may_order(power))
        #: what the next export makes (``view``, ``phases``, ``sheets``; gui/interchange's ``dipjson``,
        #: ``transcript``, ``case``); the mode's hook runs it
        self.export_kind = "view"
        #: asks for a secret game's passphrase when one is opened (None: the app's own prompt)
        self.passphrase_prompt: Callable[[QWidget | None, str], str | None] | None = None
        #: what the next Open opens: a saved ``game`` or a ``dipjson`` import
        self.open_kind = "game"
        #: the last game imported from the diplomacy package (its differences)
        self.last_import: ImportedGame | None = None
        self._build_menus()
        self.projector = install_projector(self)
        controller.changed.connect(self._on_changed)
        controller.game_ended.connect(lambda end: self.mode.game_ended(end))
        controller.phase_advanced.connect(self._on_phase_advanced)
        controller.undo_stack.cleanChanged.connect(self._clean_changed)  # a method: disconnected with us
        self.setMinimumSize(720, 480)
        screen = self.screen()
        if screen is not None:
            self.setGeometry(first_window_rect(screen.availableGeometry()))
        else:
            self.resize(1280, 800)
        self._first_rect = self.geometry()
        icon = assets_dir() / "icon.svg"
        if icon.exists():
            from PySide6.QtGui import QIcon

            self.setWindowIcon(QIcon(str(icon)))
        # the explanation panel (every mode: only adjudicated, public history is explained)
        self.explanations = install_explanations(self)
        self.restore_window_state()
        # Page Up / Page Down / End browse the history whatever has focus (lists and text views
        # would take them): the window's focused widget is watched
        self.history_keys = HistoryKeys(self)
        self.history_keys.follow(self.focusWidget())
        app_instance().focusChanged.connect(self._focus_changed)
        self._on_changed(TableChange(OPENED, initiator=LAPTOP))

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is not None and new.window() is self:
            self.history_keys.follow(new)

    # -- menus -------------------------------------------------------------------------------

    def _action(self, menu: QMenu, text: str, slot: Callable[[], object],
                shortcut: _Keys | list[_Keys] | None = None, tip: str = "") -> QAction:
        return menu_action(self, menu, text, slot, shortcut, tip)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        game = bar.addMenu("&Game")
        self.game_menu = game
        self.act_new = self._action(game, "&New game", lambda: self.mode.new_game(), QKeySequence.StandardKey.New)
        self.act_open = self._action(game, "&Open…", lambda: self.mode.open_dialog(), QKeySequence.StandardKey.Open)
        self.recent_menu = game.addMenu("Open &recent")
        self.recent_menu.setEnabled(False)
        game.addSeparator()
        self.act_new_sandbox = self._action(game, "New sand&box", partial(self._teach, "new_sandbox"), "Ctrl+Shift+N",
                                            "A board to set up any position and try orders on (its own window)")
        self.act_open_scenario = self._action(game, "Open s&cenario…", partial(self._teach, "open_scenario_in_sandbox"),
                                              tip="Open a position and its orders (DATC case format) in a sandbox")
        game.addSeparator()
        self.act_save = self._action(game, "&Save", lambda: self.mode.save(), QKeySequence.StandardKey.Save)
        self.act_save_as = self._action(game, "Save &as…", lambda: self.mode.save_as(), "Ctrl+Shift+S")
        self.act_export = self._action(game, "&Export…", lambda: self._export("view"), "Ctrl+E",
                                       "This phase as shown: a PNG, SVG or PDF page with its orders and results")
        self.act_export_phases = self._action(game, "Export every &phase…", lambda: self._export("phases"),
                                              tip="Every phase of the game, a PDF page each")
        self.act_order_sheets = self._action(game, "&Print order sheets…", lambda: self._export("sheets"), "Ctrl+P",
                                             tip="A PDF page per power with its units, to write orders on paper")
        game.addSeparator()
        # games in and out (gui/interchange.py): the package's JSON, text, DATC cases
        self.import_menu = game.addMenu("&Import")
        self.act_import_dipjson = self._action(
            self.import_menu, "Game from the &diplomacy package (JSON)…", self._import_game,
            tip="Open a game saved by the diplomacy package as a new game, replayed phase by phase, with every "
                "difference from its recorded results")
        self.act_import_case = self._action(self.import_menu, "Import a DATC &case…",
                                            partial(self._interchange, "import_case"),
                                            tip="Open a position and its orders (DATC case format) in a sandbox")
        self.export_game_menu = game.addMenu("Export &game")
        self.act_export_dipjson = self._action(
            self.export_game_menu, "Game as diplomacy-package &JSON…", lambda: self._export("dipjson"),
            tip="Every adjudicated phase with its orders and results, as the diplomacy package saves a game")
        self.act_export_text = self._action(
            self.export_game_menu, "&Orders and results as text…", lambda: self._export("transcript"),
            tip="One block per adjudicated phase, as a gamemaster posts them")
        self.act_export_case = self._action(
            self.export_game_menu, "Export this phase as a DATC &case…", lambda: self._export("case"),
            tip="The phase shown as a DATC case file: position, orders and the position after it (the phase "
                "being played: its position only)")
        game.addSeparator()
        self.act_quit = self._action(game, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit = bar.addMenu("&Orders")
        stack = self.controller.undo_stack
        self.act_undo = stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcuts(key_sequences(UNDO_KEYS))
        self.act_redo = stack.createRedoAction(self, "&Redo")
        # one action, both keys, each once: a sequence claimed twice (the platform's Redo is
        # Ctrl+Shift+Z on X11) is an "Ambiguous shortcut overload" and fires nothing
        self.act_redo.setShortcuts(key_sequences(REDO_KEYS))
        edit.addAction(self.act_undo)
        edit.addAction(self.act_redo)
        self.addAction(self.act_undo)
        self.addAction(self.act_redo)
        edit.addSeparator()
        self.kind_actions: dict[str, QAction] = {}
        for letter, text in (("H", "&Hold"), ("M", "&Move"), ("S", "&Support"), ("C", "&Convoy"),
                             ("D", "&Disband (retreats)"), ("A", "Build &army"), ("F", "Build &fleet")):
            self.kind_actions[letter] = self._action(edit, text, partial(self._letter_key, letter), letter)
        for letter in "NEW":  # coasts: north, east, west (S is also "south" when a coast is asked)
            act = QAction(self)
            act.setShortcut(QKeySequence(letter))
            act.triggered.connect(lambda _checked=False, k=letter: self._letter_key(k))
            self.addAction(act)
        # "Del", not the platform's Delete: on X11 that is Del and Ctrl+D, which is Propose a draw
        self.act_clear = self._action(edit, "Clear &order", self.interaction.delete, ["Del", "Backspace"])
        self.act_back = self._action(edit, "Back one step", self._escape, "Esc")
        edit.addSeparator()
        self.act_type = self._action(edit, "&Type an order", self.focus_entry, "Ctrl+L")
        self.act_next_power = self._action(edit, "Next power", lambda: self._step_power(1), "Ctrl+]")
        self.act_prev_power = self._action(edit, "Previous power", lambda: self._step_power(-1), "Ctrl+[")

        phase = bar.addMenu("&Phase")
        self.act_adjudicate = self._action(phase, "&Adjudicate", lambda: self.mode.adjudicate(),
                                           ["Ctrl+Return", "Ctrl+Enter"])
        self.act_undo_adj = self._action(phase, "&Undo last adjudication…", lambda: self.mode.undo_adjudication(),
                                         "Ctrl+Shift+Backspace")
        phase.addSeparator()
        self.act_prev_phase = self._action(phase, "&Previous phase", self.controller.view_previous,
                                           ["PgUp", "Alt+Left"])
        self.act_next_phase = self._action(phase, "&Next phase", self.controller.view_next, ["PgDown", "Alt+Right"])
        self.act_current = self._action(phase, "&Current phase", lambda: self.controller.view_phase(None),
                                        ["End", "Alt+End"])
        phase.addSeparator()
        self.act_open_in_sandbox = self._action(phase, "Open this phase in a sand&box",
                                                partial(self._teach, "open_phase_in_sandbox"), "Ctrl+Shift+B",
                                                "Copy the position and orders shown into a sandbox; the game is "
                                                "not touched")
        phase.addAction(self.act_export_case)
        phase.addAction(self.act_import_case)
        self.phase_menu = phase
        self.mode_phase_separator = phase.addSeparator()
        self.mode_phase_separator.setVisible(False)

        view = bar.addMenu("&View")
        self._action(view, "Zoom &in", self.view.zoom_in, [QKeySequence.StandardKey.ZoomIn, "Ctrl+="])
        self._action(view, "Zoom &out", self.view.zoom_out, [QKeySequence.StandardKey.ZoomOut])
        self._action(view, "&Fit to window", self.view.fit_to_window, "Ctrl+0")
        self.act_full = self._action(view, "F&ull screen", self.toggle_full_screen,
                                     [QKeySequence.StandardKey.FullScreen, "F11"])
        self._loupe: Loupe | None = None  # a magnifier that follows the pointer (crowded areas)
        self.act_loupe = self._action(view, "&Loupe (magnify under the pointer)",
                                      lambda: self.loupe.set_active(self.act_loupe.isChecked()), LOUPE_KEY,
                                      "A round glass follows the pointer and shows the board under it larger; "
                                      "clicks go through it to the point under its cross")
        self.act_loupe.setCheckable(True)
        view.addSeparator()
        self.view_menu = view
        for dock in (self.order_dock, self.results_dock, self.centres_dock):
            view.addAction(dock.toggleViewAction())

        helpm = bar.addMenu("&Help")
        self._action(helpm, "&Keys", self.show_keys, "F1")
        self.act_lessons = self._action(helpm, "&Lessons…", partial(self._teach, "show_lessons"), "Ctrl+Shift+L",
                                        "The rulebook's examples and the DATC cases, ready to open in a sandbox")
        self._action(helpm, "&About", self.show_about)

    def _teach(self, name: str) -> None:
        """The sandbox and the lessons (gui/teach), loaded when first asked for."""
        from .teach import lessons_panel, sandbox

        action = getattr(sandbox, name, None) or getattr(lessons_panel, name)
        action(self)

    def _interchange(self, name: str) -> None:
        """Games in and out (gui/interchange), loaded when first asked for."""
        from . import interchange

        getattr(interchange, name)(self)

    def _import_game(self) -> None:
        """Import a game of the diplomacy package, through the mode's Open hook (a table game asks
        the host and brings the curtain down first)."""
        if self.mode.title == "Sandbox":
            self.show_error("Not in a sandbox", "Import a game in a game window: it opens as a new game there.")
            return
        self.open_kind = "dipjson"
        try:
            self.mode.open_dialog()
        finally:
            self.open_kind = "game"

    def add_panel(self, dock: QDockWidget, area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea) -> None:
        """Add a panel (dock widget) with a View menu entry."""
        self.addDockWidget(area, dock)
        self.view_menu.addAction(dock.toggleViewAction())

    def set_table_widget(self, widget: QWidget | None) -> None:
        """Put a widget (the negotiation clock) in the bar above the map."""
        while self.table_bar.count():
            item = self.table_bar.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None:
                old.setParent(None)
        if widget is not None:
            self.table_bar.addWidget(widget)
        self.table_bar_widget.setVisible(widget is not None)

    # -- refresh -----------------------------------------------------------------------------

    def _on_changed(self, record: TableChange) -> None:
        c = self.controller
        if record.visibility:
            self.statusBar().clearMessage()  # it may name the last power's order
        if record.board_changed:
            self.scene.show_picture_when_sized(lambda: picture_for(c))
        elif record.orders and c.viewing is None:
            for power in sorted(record.orders):
                orders = c.game.orders_of(power) if c.can_see(power) else []
                illegal = [o for o in orders if c.illegal_reason(o) is not None]
                self.scene.show_orders(power, orders, illegal)
        if record.board_changed:
            self._update_banner()
            self.phase_label.setText(c.state.phase.label + (" · Formal Diplomacy" if c.game.formal else ""))
            self.hint_label.setText(self.interaction.hint())
            self.act_adjudicate.setEnabled(c.ended is None)
            if c.viewing is not None:
                self.results_dock.raise_()
            else:
                self.order_dock.raise_()
        self._update_title()

    def _update_banner(self) -> None:
        c = self.controller
        entry = c.viewed_entry
        if entry is None:
            self.banner.setVisible(False)
            return
        last = c.viewing == len(c.game.history) - 1
        self.banner_label.setText(f"<b>Results of {entry.state.phase.label}</b>")
        self.banner_label.setToolTip("Failed orders are dashed and crossed, bounces starred, dislodged units "
                                     "drawn beside their space.")
        self.banner_continue.setText(f"Continue to {c.state.phase.label} ▸" if last else "Back to the current phase ▸")
        self.banner_prev.setEnabled(c.viewing is not None and c.viewing > 0)
        self.banner.setVisible(True)

    def _clean_changed(self, _clean: bool) -> None:
        self._update_title()

    def _update_title(self) -> None:
        c = self.controller
        name = c.path.name if c.path is not None else "New game"
        variant = " — Formal Diplomacy" if c.game.formal else ""
        self.setWindowTitle(f"{name}[*] — {c.state.phase.label}{variant} — Diplomacy Desktop")
        self.setWindowModified(c.modified)

    def _on_phase_advanced(self, entry: HistoryEntry) -> None:
        self.statusBar().showMessage(f"{entry.state.phase.label} adjudicated: now {self.controller.state.phase.label}",
                                     8000)

    def show_game_over(self, end: GameEnd) -> None:
        QMessageBox.information(self, "The game is over", end.text)

    def new_window(self, controller: GameController) -> MainWindow:
        """Another window of the same kind for ``controller`` (a sandbox beside the game), sharing
        this one's map geometry and settings."""
        return type(self)(controller, geometry=self.geometry_data, settings=self.settings,
                          sharpen=getattr(self.scene.board_item, "_sharpen", True))

    # -- the mode --------------------------------------------------------------------------------

    def set_mode(self, mode: ModeHooks) -> None:
        """Let ``mode`` decide who may order what, what is hidden and what the game actions do."""
        old = self.mode
        if old is mode:
            return
        for act in old.phase_actions():
            self.phase_menu.removeAction(act)
        old.detach()
        self.mode = mode
        extra = mode.phase_actions()
        for act in extra:
            self.phase_menu.addAction(act)
        self.mode_phase_separator.setVisible(bool(extra))
        self.controller.notify_access_changed()

    # -- actions -----------------------------------------------------------------------------

    def adjudicate(self) -> None:
        c = self.controller
        if c.ended is not None:
            self.show_error("The game is over", c.ended.text)
            return
        if c.viewing is not None:
            c.view_phase(None)
        missing = {p: n for p in c.board.power_ids if (n := c.orders_missing(p))}
        if missing and c.active_power is None:
            names = ", ".join(f"{c.power_name(p)} ({n})" for p, n in missing.items())
            what = {"movement": "Some units have no orders and will hold",
                    "retreat": "Some dislodged units have no orders and will be disbanded",
                    "adjustment": "Some builds or removals are not chosen (builds are lost; the rules choose "
                                  "removals)"}[c.state.phase.kind]
            answer = QMessageBox.question(
                self, "Adjudicate?", f"{what}: {names}.\n\nAdjudicate now?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                return
        try:
            c.adjudicate()
        except OrderError as exc:
            self.show_error("Cannot adjudicate", str(exc))

    def undo_adjudication(self) -> None:
        c = self.controller
        last = c.last_entry
        if last is None:
            self.statusBar().showMessage("Nothing has been adjudicated yet.", 4000)
            return
        answer = QMessageBox.question(
            self, "Undo the last adjudication?",
            f"Take back the adjudication of {last.state.phase.label}? Its orders come back and can be changed.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer == QMessageBox.StandardButton.Yes:
            c.undo_adjudication()

    def new_game(self) -> None:
        if not self.maybe_save():
            return
        self.controller.new_game()

    def open_dialog(self) -> None:
        kind, self.open_kind = self.open_kind, "game"
        if not self.maybe_save():
            return
        if kind == "dipjson":
            self._interchange("import_game_dialog")
            return
        start = str(self.settings.value("last_dir", str(Path.home())))
        path, _ = QFileDialog.getOpenFileName(self, "Open a saved game", start, FILE_FILTER)
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path) -> bool:
        """Open a saved game (a secret game asks for its passphrase: ``passphrase_prompt``); a bad
        file gives a message and changes nothing."""
        from .table.persistence import ask_passphrase, open_secret_file

        try:
            # the table game opens a secret save only whole (it could not honour the seals otherwise)
            whole_only = bool(getattr(self.mode, "whole_secret_games", False))
            opened = open_secret_file(Path(path), self.passphrase_prompt or ask_passphrase, parent=self,
                                      message=lambda _p, title, text: self.show_error(title, text),
                                      whole_only=whole_only)
            # a game opened without its secrets never gets its file's name: Save asks for another
            self.controller.replace_game(opened.game, opened.table, None if opened.locked else path,
                                         vault=opened.vault)
        except (SaveFileError, OSError) as exc:
            from ..io.output import in_words

            self.show_error("Cannot open the game", f"{Path(path).name}: {in_words(exc)}")
            return False
        self.settings.setValue("last_dir", str(Path(path).resolve().parent))
        self.view.fit_to_window()
        return True

    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as()
        return self._save_to(self.controller.path)

    def save_as(self) -> bool:
        start = str(self.settings.value("last_dir", str(Path.home())))
        suggested = str(Path(start) / f"diplomacy-{self.controller.state.phase.short}.json")
        path, _ = QFileDialog.getSaveFileName(self, "Save the game", suggested, FILE_FILTER)
        if not path:
            return False
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            saved = self.controller.save(path)
        except OSError as exc:
            self.show_error("Cannot save the game", f"{path}: {exc.strerror or exc}")
            return False
        self.settings.setValue("last_dir", str(path.resolve().parent))
        if saved != path:
            self.show_error("Saved beside the game", f"{path.name} changed on disk since this window opened it "
                            f"(the phones' host wrote it): it is kept as it is, and this window's game is saved "
                            f"beside it as {saved.name}.")
        self.statusBar().showMessage(f"Saved {saved.name}", 4000)
        self._update_title()
        return True

    def _export(self, kind: str) -> None:
        """Export this phase, every phase or the order sheets, through the mode (which may bring
        the curtain down first: a desktop's own file dialog is no dialog the window sees)."""
        self.export_kind = kind
        self.mode.export_picture()

    def export_picture(self) -> None:
        """Ask for a file and write what ``export_kind`` names: this phase (PNG, SVG or PDF by the
        name's extension), every phase (PDF) or the order sheets (PDF)."""
        from .board.export import (ExportError, export_pages, format_of, order_sheets, order_sheets_pdf,
                                   page_for)
        from .board.export import write_file as write_export
        from .board.render import RenderError, picture_scene

        kind, self.export_kind = self.export_kind, "view"
        if kind in ("dipjson", "transcript", "case"):
            from .interchange import export

            export(self, kind)
            return
        c = self.controller
        start = Path(str(self.settings.value("last_dir", str(Path.home()))))
        phase = c.viewed_state.phase.short
        if kind == "view":
            title, name, filters = ("Export this phase", f"map-{phase}.png",
                                    "PNG pictures (*.png);;SVG pictures (*.svg);;PDF documents (*.pdf)")
        elif kind == "phases":
            title, name, filters = "Export every phase", "game.pdf", "PDF documents (*.pdf)"
        else:
            title, name, filters = "Print order sheets", f"order-sheets-{c.state.phase.short}.pdf", \
                "PDF documents (*.pdf)"
        path_text, chosen = QFileDialog.getSaveFileName(self, title, str(start / name), filters)
        if not path_text:
            return
        path = Path(path_text)
        if not path.suffix:  # no extension typed: the chosen filter's
            path = path.with_suffix("." + (chosen.split("*.")[-1].rstrip(")") if "*." in chosen else "png"))
        try:
            if kind == "sheets":
                write_export(path, order_sheets_pdf(order_sheets(c.state)))
            else:
                format_of(path)
                if kind == "phases" and path.suffix.lower() != ".pdf":
                    raise ExportError("every phase makes several pages: choose a name ending in .pdf")
                entries = list(c.game.history) if kind == "phases" else []
                pictures = [results_picture(e) for e in entries] + [picture_for(c)] if kind == "phases" \
                    else [picture_for(c)]
                if kind == "phases" and c.viewing is not None:  # the current phase, not the one viewed
                    pictures[-1] = current_picture(c.state, c.visible_orders())
                # every result of each adjudicated phase shown, for its explanations
                results = [tuple(e.results) for e in entries] + [None] if kind == "phases" \
                    else [tuple(c.viewed_entry.results) if c.viewed_entry is not None else None]
                game = c.path.stem if c.path is not None else ""
                pages = [page_for(p, game=game, adjudication=r) for p, r in zip(pictures, results, strict=True)]
                options = None
                if path.suffix.lower() == ".pdf":
                    from .board.pdf_options import ask_pdf_options

                    options = ask_pdf_options(self, self.settings, pages=len(pages),
                                              can_explain=any(p.adjudication is not None for p in pages))
                    if options is None:
                        return
                export_pages(picture_scene(pages[0].picture), pages, path, options=options)  # type: ignore[arg-type]
        except (ExportError, RenderError) as exc:
            self.show_error("Cannot export", str(exc))
            return
        self.settings.setValue("last_dir", str(path.resolve().parent))
        self.statusBar().showMessage(f"Wrote {path.name}", 5000)

    def maybe_save(self) -> bool:
        """Before a modified game is replaced or closed: save, discard, or cancel."""
        if not self.controller.modified or not self.ask_before_closing:
            return True
        answer = QMessageBox.question(
            self, "Save the game?", "The game has changes that are not saved. Save them?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        self._discarded = answer == QMessageBox.StandardButton.Discard
        return self._discarded

    def _escape(self) -> None:
        """Esc: one step back while an order is being given; otherwise out of the projector view."""
        if self.projector.active and self.interaction.mode is IDLE:
            self.projector.leave()
        else:
            self.interaction.back()

    def _letter_key(self, letter: str) -> None:
        """An order-kind letter: for the step being taken; with nothing selected, typed on the map,
        the start of a typed order ("A Par - Bur")."""
        if self.interaction.key(letter):
            return
        if self.interaction.mode is IDLE and self.view.hasFocus():
            self.type_into_entry(letter)

    def type_into_entry(self, text: str) -> None:
        """A key typed on the map starts the order box with that key (Ctrl+L, without the Ctrl+L)."""
        if self.mode.covered() or not self.order_dock.entry.isEnabled():
            self.statusBar().showMessage("Nobody may give orders now.", 4000)
            return
        self.focus_entry()
        self.order_dock.entry.insert(text)

    def focus_entry(self) -> None:
        if self.mode.covered():
            return  # the curtain is up: no order panel over it
        self.order_dock.show()
        self.order_dock.raise_()
        self.order_dock.entry.setFocus()

    def _step_power(self, step: int) -> None:
        ids = list(self.controller.board.power_ids)
        if self.controller.active_power is not None:  # a player's own powers only (one curtain turn)
            ids = [p for p in ids if p in self.controller.active_powers]
            if len(ids) < 2 or self.order_dock.power not in ids:
                return
        i = (ids.index(self.order_dock.power) + step) % len(ids)
        self.order_dock.show_power(ids[i])

    @property
    def loupe(self) -> Loupe:
        """The glass of View ▸ Loupe (made, and its module imported, when first wanted)."""
        if self._loupe is None:
            from .board.loupe import Loupe

            self._loupe = Loupe(self.view)
        return self._loupe

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def show_keys(self) -> None:
        QMessageBox.information(self, "Keys", KEYS_HELP)

    def show_about(self) -> None:
        QMessageBox.about(self, "About Diplomacy Desktop",
                          "<b>Diplomacy Desktop</b><br>Face-to-face Diplomacy on one laptop.<br>"
                          "Map geography: Natural Earth (public domain).")

    def show_error(self, title: str, text: str) -> None:
        """A clear message, never a traceback."""
        QMessageBox.warning(self, title, text)

    # -- window state ------------------------------------------------------------------------

    def restore_window_state(self) -> None:
        geom = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        self._restored = False
        if isinstance(geom, QByteArray) and not geom.isEmpty():
            self.restoreGeometry(geom)
        if isinstance(state, QByteArray) and not state.isEmpty():
            self._restored = self.restoreState(state)

    def load_map_shapes(self) -> None:
        """Load hit-testing shapes (after the first picture is on screen); a bad map is reported."""
        geometry = self.geometry_data
        if isinstance(geometry, DeferredGeometry) and not geometry.loaded:
            try:
                geometry.load()
            except ValueError as exc:  # MapGeometryError, MapFileError
                self.show_error("The map cannot be used", str(exc))

    @override
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if isinstance(self.geometry_data, DeferredGeometry) and not self.geometry_data.loaded:
            QTimer.singleShot(30, self.load_map_shapes)  # just after the first paint
        if not self._laid_out:
            self._laid_out = True
            QTimer.singleShot(0, self, self.hide_stray_tab_bars)  # once the docks are laid out
            # a window nobody resized fills the screen; a remembered one is brought onto it
            if self._restored:
                self._fit_frame_on_screen(only_if_off_screen=True)
            elif self.geometry() == self._first_rect:
                self._fit_frame_on_screen()
            if not self._restored:
                # first start: the map gets the room; panels take about a quarter of the width
                self.resizeDocks([self.order_dock], [max(300, self.width() // 4)], Qt.Orientation.Horizontal)
                self.resizeDocks([self.order_dock, self.centres_dock], [self.height() * 2 // 3, self.height() // 3],
                                 Qt.Orientation.Vertical)

    def hide_stray_tab_bars(self) -> list[QTabBar]:
        """Hide the tab bars Qt leaves behind; returns them.

        Tabbed panels set up before the window is first shown (Orders and Results, Supply centres
        and Why?, and a remembered layout restored) leave copies of their tab bars that Qt never
        lays out again, yet keeps visible where the window's first layout put them (over the map,
        under the hint bar): each was painted again with every hint, that is at every click.  A
        tab bar in use is laid out with its panels, as wide as they are, in line with them and
        right under them (a copy left where the first layout put it can be as wide and in line:
        issue 34 saw one under the status bar once the panels' titles were short).
        """
        # the window's own children only (a search of every widget below was most of the cost)
        direct = Qt.FindChildOption.FindDirectChildrenOnly
        docks = [d.geometry() for d in self.findChildren(QDockWidget, options=direct) if d.isVisible()]
        stray = []
        for bar in self.findChildren(QTabBar, options=direct):
            if not bar.isVisibleTo(self):
                continue
            rect = bar.geometry()
            if not any(d.left() == rect.left() and d.width() == rect.width() and 0 <= rect.top() - d.bottom() <= 8
                       for d in docks):
                bar.hide()
                stray.append(bar)
        return stray

    def _keep_tab_width(self, dock: QDockWidget) -> None:
        tabs = (self.order_dock, self.results_dock)
        if dock in tabs:
            other = tabs[1] if dock is tabs[0] else tabs[0]
            if other.width() > 0 and dock.width() != other.width():
                self.resizeDocks([dock], [other.width()], Qt.Orientation.Horizontal)

    def _fit_frame_on_screen(self, *, only_if_off_screen: bool = False) -> None:
        """Once the window is framed (or not: no window manager), fit the frame to the available screen
        (a window restored from a larger screen too)."""
        screen = self.screen()
        if screen is None or self.isMaximized() or self.isFullScreen():
            return
        inner, frame = self.geometry(), self.frameGeometry()
        available = screen.availableGeometry()
        if only_if_off_screen and available.contains(frame):
            return
        margins = QMargins(inner.left() - frame.left(), inner.top() - frame.top(),
                           frame.right() - inner.right(), frame.bottom() - inner.bottom())
        wanted = first_window_rect(available, margins)
        if only_if_off_screen:  # keep its size where it fits, and bring it onto the screen
            w, h = min(inner.width(), wanted.width()), min(inner.height(), wanted.height())
            x = max(wanted.left(), min(inner.left(), wanted.right() + 1 - w))
            y = max(wanted.top(), min(inner.top(), wanted.bottom() + 1 - h))
            wanted = QRect(x, y, w, h)
        if wanted != inner:
            self.setGeometry(wanted)

    def save_window_state(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())

    @override
    def closeEvent(self, event: QCloseEvent) -> None:
        self._discarded = False
        if not self.maybe_save():
            event.ignore()
            return
        if self._discarded:
            self.discarded_on_close.emit()
        self.save_window_state()
        self.scene.board_item.stop()
        event.accept()


KEYS_HELP = """Orders on the map
  click a unit, then a lit space: move there
  H hold · S support · C convoy · M back to moving
  click the unit again: hold (or clear its order)
  D disband (retreats) · A / F build army / fleet
  Delete: clear the selected unit's order · Esc: one step back
  right click: a menu of order kinds

Typing
  Ctrl+L: type an order (with completion) · Ctrl+] / Ctrl+[: next / previous power

Game
  Ctrl+Return adjudicate · Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo / redo an order edit
  Page Up / Page Down: browse earlier phases · End: the current phase
  Ctrl+N new · Ctrl+O open · Ctrl+S save · Ctrl+Shift+S save as
  Ctrl+E export (PNG, SVG, PDF) · Ctrl+P print order sheets (PDF)

Map
  wheel or pinch, Ctrl+plus / Ctrl+minus: zoom · Ctrl+0: fit · drag the map: pan · F11 full screen
  drag a unit onto a space: move it there · a key typed on the map starts a typed order
  Ctrl+G: the loupe, a glass following the pointer for crowded areas (clicks go through it)
  F5: projector view (large units, names and results; F5 or Esc to leave)"""


def app_instance() -> QApplication:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    return app


__all__ = ["FILE_FILTER", "KEYS_HELP", "MainWindow", "app_instance", "board_ids", "deferred_geometry",
           "first_window_rect", "load_geometry", "map_svg", "picture_for"]
