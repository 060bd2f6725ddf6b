"""Games in and out of the window: import a game saved by the ``diplomacy`` package (and show
where our adjudication differs), export the game as that package's JSON or as a gamemaster's
text, and export a phase of the history as a DATC case.

Every export writes adjudicated history only; the orders filed for the phase being played are
never written (they are secret until adjudicated).  The window's Game and Phase menus call the
functions here through the mode's hooks (``open_dialog`` and ``export_picture``), so a table
game brings its curtain down before any file dialog opens.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QFileDialog, QHeaderView, QLabel,
                               QPlainTextEdit, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from ..engine.rules import Edition
from ..io.dipjson import MAX_BYTES, ImportedGame, InterchangeError, dumps, loads
from ..io.output import in_words
from ..io.savefile import write_atomic
from ..io.scenario import write_scenario
from ..io.transcript import game_transcript, phase_case, position_case
from ..table.changes import LAPTOP
from . import override

if TYPE_CHECKING:
    from .shell import WindowShell

JSON_FILTER = "diplomacy package games (*.json *.jsonl);;All files (*)"
TEXT_FILTER = "Text files (*.txt);;All files (*)"
CASE_FILTER = "DATC case files (*.txt *.case);;All files (*)"

#: the window's ``export_kind`` values that are exports of this module
EXPORT_KINDS = ("dipjson", "transcript", "case")


class DifferencesDialog(QDialog):
    """What the replay of an imported game found: each phase where our results differ from the
    recorded ones (phase, order, theirs against ours, and our reason), and notes."""

    def __init__(self, imported: ImportedGame, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Imported {name}")
        self.setModal(True)
        layout = QVBoxLayout(self)
        diffs = imported.differences
        board = imported.game.board
        phases = sorted({d.phase for d in diffs})
        if diffs:
            head = (f"Replayed {imported.phases} phases with our adjudicator: {len(diffs)} "
                    f"difference{'s' if len(diffs) != 1 else ''} from the recorded results, in "
                    f"{len(phases)} phase{'s' if len(phases) != 1 else ''}. Where the position after a "
                    f"phase differs, the game goes on from the recorded position.")
        else:
            head = (f"Replayed {imported.phases} phases with our adjudicator: every result agrees with "
                    f"the recorded one.")
        self.summary = QLabel(head)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.table = QTableWidget(len(diffs), 6)
        self.table.setHorizontalHeaderLabels(["Phase", "Power", "Order", "Theirs", "Ours", "Our reason"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setVisible(False)
        for row, d in enumerate(diffs):
            power = board.power(d.power).name if d.power in board.power_ids else ""
            for col, text in enumerate((d.phase, power, d.order or "(position)", d.theirs, d.ours, d.reason)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(row, col, item)
        header = self.table.horizontalHeader()
        for col in range(5):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        self.table.setVisible(bool(diffs))
        layout.addWidget(self.table, 1)
        if not diffs:
            layout.addStretch(1)  # the summary at the top, not floating in the middle
        self.notes = QPlainTextEdit("\n".join(imported.notes))
        self.notes.setReadOnly(True)
        self.notes.setMaximumHeight(90)
        self.notes.setVisible(bool(imported.notes))
        layout.addWidget(self.notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        #: the file was adjudicated under classic conventions and replayed under another edition:
        #: "Replay as classic" (``replay_classic`` is then True)
        self.replay_classic = False
        self.classic_button: QPushButton | None = None
        if imported.replay_as_classic:
            self.classic_button = buttons.addButton("Replay as classic", QDialogButtonBox.ButtonRole.AcceptRole)
            self.classic_button.clicked.connect(self._replay_classic)
        layout.addWidget(buttons)
        self.resize(1100 if diffs else 520, 520 if diffs else 160)

    def _replay_classic(self) -> None:
        self.replay_classic = True
        self.accept()

    @override
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # rows fit their wrapped text once the columns have their widths
        QTimer.singleShot(0, self.table.resizeRowsToContents)

    def rows(self) -> list[list[str]]:
        """The table's text, row by row (what the tests read)."""
        out = []
        for r in range(self.table.rowCount()):
            out.append([self.table.item(r, c).text() for c in range(self.table.columnCount())])  # type: ignore[union-attr]
        return out


# -- import ----------------------------------------------------------------------------------


def import_game_dialog(window: WindowShell) -> None:
    """Game ▸ Import ▸ Game from the diplomacy package: a file dialog, then :func:`import_game`."""
    start = str(window.settings.value("last_dir", str(Path.home())))
    path, _ = QFileDialog.getOpenFileName(window, "Import a game saved by the diplomacy package", start, JSON_FILTER)
    if path:
        import_game(window, Path(path))


def import_game(window: WindowShell, path: Path, *, show_report: bool = True) -> ImportedGame | None:
    """Open ``path`` as a new game (unsaved) whose history is every recorded phase, replayed by
    our adjudicator; then the differences.  A file that is not such a game gives one clear
    message and the open game stays as it was."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise InterchangeError(f"larger than {MAX_BYTES // (1024 * 1024)} MB: not a saved game")
        raw = path.read_bytes()
        imported = loads(raw, edition=window.controller.game.rules.edition, name="the file")
    except (OSError, InterchangeError) as exc:
        window.show_error("Cannot import the game", f"{path.name}: {in_words(exc)}")
        return None
    c = window.controller
    c.replace_game(imported.game, {}, None)
    c.service.table_changed(initiator=LAPTOP)  # an imported game is not saved yet: closing asks
    if imported.game.history:
        c.view_phase(0)  # the history browser, from the first phase
    window.settings.setValue("last_dir", str(path.resolve().parent))
    window.view.fit_to_window()
    window.statusBar().showMessage(
        f"Imported {path.name}: {imported.phases} phases, {len(imported.differences)} differences", 8000)
    window.last_import = imported
    if show_report:
        report = DifferencesDialog(imported, path.name, window)
        report.exec()
        if report.replay_classic:  # the file's own conventions: replayed again, as a classic game
            again = loads(raw, edition=Edition.CLASSIC, name="the file")
            c.replace_game(again.game, {}, None)
            c.service.table_changed(initiator=LAPTOP)
            if again.game.history:
                c.view_phase(0)
            window.last_import = again
            DifferencesDialog(again, path.name, window).exec()
            return again
    return imported


# -- export ----------------------------------------------------------------------------------


def export(window: WindowShell, kind: str) -> Path | None:
    """Ask for a file and write ``kind``: the game as the package's JSON (``dipjson``), its orders
    and results as text (``transcript``), or the phase being looked at as a DATC case (``case``).
    Returns the file written."""
    c = window.controller
    start = Path(str(window.settings.value("last_dir", str(Path.home()))))
    stem = c.path.stem if c.path is not None else "diplomacy"
    viewed = c.viewed_state.phase.short
    if kind == "dipjson":
        title, name, filters = "Export the game for the diplomacy package", f"{stem}.json", JSON_FILTER
    elif kind == "transcript":
        title, name, filters = "Export the orders and results as text", f"{stem}-orders.txt", TEXT_FILTER
    else:
        title, name, filters = "Export this phase as a DATC case", f"{stem}-{viewed}.txt", CASE_FILTER
    path_text, _ = QFileDialog.getSaveFileName(window, title, str(start / name), filters)
    if not path_text:
        return None
    path = Path(path_text)
    if not path.suffix:
        path = path.with_suffix(".json" if kind == "dipjson" else ".txt")
    try:
        text = export_text(window, kind, path.stem)
        write_atomic(path, text)
    except InterchangeError as exc:
        window.show_error("Cannot export", str(exc))
        return None
    except OSError as exc:
        window.show_error("Cannot export", f"{path}: {exc.strerror or exc}")
        return None
    window.settings.setValue("last_dir", str(path.resolve().parent))
    window.statusBar().showMessage(f"Wrote {path.name}", 5000)
    return path


def export_text(window: WindowShell, kind: str, name: str) -> str:
    """What :func:`export` writes (adjudicated history only)."""
    c = window.controller
    game = c.game
    if kind == "dipjson":
        return dumps(game, name)
    if kind == "transcript":
        title = f"{c.path.stem if c.path is not None else 'Diplomacy'} — orders and results"
        return game_transcript(game, title)
    entry = c.viewed_entry
    case_name = f"{name}.{c.viewed_state.phase.short}"
    scenario = phase_case(entry, case_name) if entry is not None else position_case(c.state, case_name)
    return write_scenario(scenario, game.board)


def import_case(window: WindowShell) -> None:
    """Phase ▸ Import a DATC case: the case opens in a sandbox window (the game is not touched)."""
    from .teach.sandbox import open_scenario_in_sandbox

    open_scenario_in_sandbox(window)


__all__ = ["EXPORT_KINDS", "DifferencesDialog", "export", "export_text", "import_case", "import_game",
           "import_game_dialog"]
