"""``WindowShell``: what a room of the window may use, and nothing more.

The rooms (``table/``: the table game's mode and its dialogs; ``teach/``: the sandbox, lessons,
explanations, the step-through and the projector; ``mode.py``; ``interchange.py``) are handed the
window typed as this shell, never as ``MainWindow``: they do not import ``main_window.py``
(``tests/test_layers.py`` checks it), so the window can import them and no import circle runs
through it, and mypy refuses a room that reaches for anything the shell does not declare.

What the shell offers:

* the game: ``controller`` (the one door for changes) and the ``settings`` (QSettings);
* the board: ``scene``, ``view`` and the click-to-order ``interaction`` (map click hooks: the
  view's ``clicked`` signal and the mode's ``may_order`` / ``covered``);
* panels: ``order_dock``, ``results_dock``, ``centres_dock``, ``add_panel`` (with a View menu
  entry), ``set_table_widget`` (the bar above the map), ``status_slot`` (right of the status bar);
* the status line and errors: ``statusBar()``, ``hint_label``, ``show_error``;
* menus: ``phase_menu`` (and ``mode_phase_separator``, where rooms add Phase entries),
  ``view_menu``, ``recent_menu``, ``act_full``;
* the mode: ``mode`` (a :class:`ModeHooks`), ``set_mode``, and the window's own game actions
  the plain mode calls (``new_game``, ``open_dialog``, ``save``, ``adjudicate``, ...);
* installed features, found by name: ``feature(name)`` / ``install_feature(name, obj)``; the
  table game, the step-through and its panel are kept there (and, for the tests and the other
  rooms that read them, as the attributes ``table_features``, ``step_through``, ``step_panel``
  and ``act_step_through``).

It is a ``QMainWindow`` subclass rather than a ``typing.Protocol`` because a room also uses the
window as a Qt widget (the parent of its dialogs, where docks go, its geometry); the methods
below are declared for the type checker only and implemented by ``MainWindow``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QLabel, QMainWindow, QMenu, QPushButton, QWidget

from ..engine.game import GameEnd, HistoryEntry
from .controller import GameController

if TYPE_CHECKING:
    from ..io.dipjson import ImportedGame
    from ..mapdata import MapGeometry
    from .board.map_points import DeferredGeometry
    from .board.map_scene import MapScene
    from .board.map_view import MapView
    from .orders.interaction import OrderInteraction
    from .orders.order_dock import OrderDock
    from .orders.results_dock import CentresDock, ResultsDock


class ModeHooks(Protocol):
    """The hooks the window calls on its mode (``mode.WindowMode`` is the plain one)."""

    title: str

    def may_order(self, power: str) -> bool: ...

    def covered(self) -> bool: ...

    def phase_actions(self) -> list[QAction]: ...

    def new_game(self) -> None: ...

    def open_dialog(self) -> None: ...

    def save(self) -> None: ...

    def save_as(self) -> None: ...

    def export_picture(self) -> None: ...

    def adjudicate(self) -> None: ...

    def undo_adjudication(self) -> object: ...

    def game_ended(self, end: GameEnd) -> None: ...

    def detach(self) -> None: ...


class ExplanationsPanel(Protocol):
    """The explanation panel, as the step-through uses it."""

    def shown_entry(self) -> HistoryEntry | None: ...

    def suspend(self, on: bool) -> None: ...


class WindowShell(QMainWindow):
    """See the module documentation."""

    #: the window is closing and the table chose Discard for the game's unsaved changes
    discarded_on_close = Signal()

    controller: GameController
    settings: QSettings
    mode: ModeHooks
    geometry_data: MapGeometry | DeferredGeometry
    scene: MapScene
    view: MapView
    interaction: OrderInteraction
    order_dock: OrderDock
    results_dock: ResultsDock
    centres_dock: CentresDock
    explanations: ExplanationsPanel
    hint_label: QLabel
    banner: QWidget
    banner_label: QLabel
    banner_sandbox: QPushButton
    status_slot: QHBoxLayout
    phase_menu: QMenu
    mode_phase_separator: QAction
    view_menu: QMenu
    recent_menu: QMenu
    game_menu: QMenu
    act_open: QAction
    act_full: QAction
    #: ask "save changes?" when closing a modified game (tests turn it off)
    ask_before_closing: bool
    #: the last game imported from the diplomacy package (its differences)
    last_import: ImportedGame | None
    #: asks for a secret game's passphrase when one is opened (None: the app's own prompt)
    passphrase_prompt: Callable[[QWidget | None, str], str | None] | None

    #: the projector view (F5, ``teach/presentation.py``): its ``act``, ``active``, ``panel``
    projector: Any
    # the features rooms install, kept as attributes too (see ``install_feature``)
    table_features: Any = None
    #: the tournament table (``table/tournament.py``), installed with the table game
    tournament: Any = None
    step_through: Any = None
    step_panel: QDockWidget | None = None
    act_step_through: QAction | None = None

    def feature(self, name: str) -> Any:
        """The feature installed under ``name`` (``None``: none is)."""
        return getattr(self, name, None) if name in _FEATURES else None

    def install_feature(self, name: str, feature: object) -> None:
        """Keep a room's feature on the window (``None`` removes it); ``name`` is one of
        ``table_features``, ``tournament``, ``step_through``, ``step_panel``, ``act_step_through``."""
        if name not in _FEATURES:
            raise ValueError(f"the window keeps no feature called {name!r}")
        setattr(self, name, feature)

    if TYPE_CHECKING:  # implemented by ``MainWindow``
        def show_error(self, title: str, text: str) -> None: ...

        def add_panel(self, dock: QDockWidget, area: Qt.DockWidgetArea = ...) -> None: ...

        def set_table_widget(self, widget: QWidget | None) -> None: ...

        def set_mode(self, mode: ModeHooks) -> None: ...

        def new_game(self) -> None: ...

        def open_dialog(self) -> None: ...

        def open_file(self, path: str | Path) -> bool: ...

        def save(self) -> bool: ...

        def save_as(self) -> bool: ...

        def export_picture(self) -> None: ...

        def adjudicate(self) -> None: ...

        def undo_adjudication(self) -> None: ...

        def maybe_save(self) -> bool: ...

        def show_game_over(self, end: GameEnd) -> None: ...

        def new_window(self, controller: GameController) -> WindowShell: ...


_FEATURES = frozenset({"table_features", "tournament", "step_through", "step_panel", "act_step_through"})
