"""Help ▸ Lessons: the rulebook's examples, the DATC cases and a teacher's own, opened in a sandbox.

The library lists every lesson of :mod:`diplomacy_desktop.io.lessons` and finds them by number,
title or any word of their text.  A teacher's folder of case files (chosen here, remembered in the
settings) adds its cases; a folder with a bad file gives a message naming the file and the line,
and the built-in lessons stay.  Opening a lesson sets it up in a sandbox (the window's own, or a
new sandbox window beside a game), with its text and its expected result beside the board.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QPushButton, QSplitter, QTextBrowser,
                               QVBoxLayout)

from ...engine.board import Board
from ...io.lessons import Lesson, LessonError, builtin_lessons, folder_lessons, search
from .sandbox import EDITION_NAMES, SandboxMode, sandbox_for

if TYPE_CHECKING:
    from ..shell import WindowShell

FOLDER_KEY = "lessons/folder"
_BUILTIN: dict[str, list[Lesson]] = {}


def library(board: Board) -> list[Lesson]:
    """The built-in lessons for ``board`` (read once)."""
    if board.name not in _BUILTIN:
        _BUILTIN[board.name] = builtin_lessons(board)
    return _BUILTIN[board.name]


class LessonLibrary(QDialog):
    """Search the lessons and open one in the sandbox."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__(window)
        self.setObjectName("LessonLibrary")
        self.setWindowTitle("Lessons")
        self.window_ = window
        self.board = window.controller.board
        self.own: list[Lesson] = []
        self.opened: SandboxMode | None = None
        col = QVBoxLayout(self)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search by number, title or words of the text (e.g. 6.F.14, convoy, "
                                       "beleaguered)")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.refresh)
        col.addWidget(self.search)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.list = QListWidget()
        self.list.setObjectName("LessonList")
        self.list.currentItemChanged.connect(lambda cur, _prev: self._preview(cur))
        self.list.itemActivated.connect(lambda _item: self.open_current())
        split.addWidget(self.list)
        self.preview = QTextBrowser()
        split.addWidget(self.preview)
        split.setSizes([380, 420])
        col.addWidget(split, 1)
        row = QHBoxLayout()
        self.folder_label = QLabel()
        self.folder_label.setWordWrap(True)
        row.addWidget(self.folder_label, 1)
        self.folder_button = QPushButton("Teacher's folder…")
        self.folder_button.setToolTip("Add the cases of every .txt file in a folder of your own (DATC case format)")
        self.folder_button.clicked.connect(self.choose_folder)
        row.addWidget(self.folder_button)
        col.addLayout(row)
        buttons = QDialogButtonBox()
        self.open_button = buttons.addButton("Open in the sandbox", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.accepted.connect(self.open_current)
        buttons.rejected.connect(self.reject)
        col.addWidget(buttons)
        self.resize(880, 560)
        folder = window.settings.value(FOLDER_KEY)
        self.load_folder(Path(str(folder)) if folder else None, quiet=True)

    @property
    def lessons(self) -> list[Lesson]:
        return library(self.board) + self.own

    def load_folder(self, folder: Path | None, *, quiet: bool = False) -> bool:
        """Add a teacher's folder; a bad file is reported (naming it and its line) and nothing is added."""
        self.own = []
        ok = True
        if folder is not None:
            try:
                self.own = folder_lessons(folder, self.board)
            except LessonError as exc:
                ok = False
                if not quiet:
                    self.window_.show_error("Cannot read the teacher's folder", str(exc))
                self.folder_label.setText(f"Your folder {folder}: not read ({exc})")
            else:
                self.folder_label.setText(f"Your folder {folder}: {len(self.own)} lesson"
                                          f"{'s' if len(self.own) != 1 else ''}")
        else:
            self.folder_label.setText("Your own lessons: choose a folder of case files.")
        self.refresh()
        return ok

    def choose_folder(self) -> None:
        start = str(self.window_.settings.value(FOLDER_KEY, str(Path.home())))
        folder = QFileDialog.getExistingDirectory(self, "A folder of lessons (case files)", start)
        if folder:
            self.set_folder(Path(folder))

    def set_folder(self, folder: Path) -> bool:
        if self.load_folder(folder):
            self.window_.settings.setValue(FOLDER_KEY, str(folder))
            return True
        return False

    def refresh(self) -> None:
        current = self.list.currentItem()
        key = current.data(Qt.ItemDataRole.UserRole).key if current is not None else None
        self.list.clear()
        query = self.search.text().strip().lower()

        def rank(lesson: Lesson) -> int:  # a number asked for comes first ("Example 7", "6.F.1")
            key = lesson.key.lower()
            return 0 if key == query else 1 if key.startswith((query + " ", query + ".")) else 2

        for lesson in sorted(search(self.lessons, query), key=rank):
            item = QListWidgetItem(f"{lesson.label}    ·    {lesson.source}")
            item.setData(Qt.ItemDataRole.UserRole, lesson)
            self.list.addItem(item)
            if lesson.key == key:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        self.open_button.setEnabled(self.list.count() > 0)

    def shown(self) -> list[Lesson]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())]

    def _preview(self, item: QListWidgetItem | None) -> None:
        if item is None:
            self.preview.clear()
            return
        lesson: Lesson = item.data(Qt.ItemDataRole.UserRole)
        paras = "".join(f"<p>{html.escape(p)}</p>" for p in lesson.text.split("\n\n") if p.strip())
        edition = EDITION_NAMES.get(lesson.edition, str(lesson.edition))
        self.preview.setHtml(f"<h3>{html.escape(lesson.label)}</h3><p><i>{html.escape(lesson.source)}</i></p>"
                             f"<p><b>Rules:</b> {html.escape(edition)}</p>{paras}")

    def open_current(self) -> SandboxMode | None:
        item = self.list.currentItem()
        if item is None:
            return None
        return self.open_lesson(item.data(Qt.ItemDataRole.UserRole))

    def open_lesson(self, lesson: Lesson) -> SandboxMode | None:
        mode = open_lesson(self.window_, lesson)
        if mode is not None:
            self.opened = mode
            self.accept()
        return mode


def open_lesson(window: WindowShell, lesson: Lesson) -> SandboxMode | None:
    """Set ``lesson`` up in the window's sandbox (or a new sandbox window beside a game)."""
    mode = sandbox_for(window)
    if not mode.maybe_save():
        return None
    title = lesson.label
    edition = f"Rules: {EDITION_NAMES.get(lesson.edition, str(lesson.edition))}"
    text = f"{lesson.source}\n{edition}\n\n{lesson.text}" if lesson.source else f"{edition}\n\n{lesson.text}"
    if not mode.load_scenario(lesson.scenario, lesson.edition, title=title, text=text):
        return None
    return mode


def show_lessons(window: WindowShell) -> LessonLibrary:
    """Help ▸ Lessons…"""
    dialog = LessonLibrary(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
