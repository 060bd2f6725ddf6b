"""Every piece of text a widget tree shows or would show on hover: for secrecy assertions."""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)


def _model_texts(view: QAbstractItemView) -> Iterator[str]:
    model = view.model()
    if model is None:
        return

    def walk(parent: QModelIndex) -> Iterator[str]:
        try:
            columns = model.columnCount(parent)
        except TypeError:  # list models hide it: one column
            columns = 1
        for r in range(model.rowCount(parent)):
            for c in range(columns):
                idx = model.index(r, c, parent)
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    v = model.data(idx, role)
                    if v:
                        yield str(v)
                yield from walk(idx)

    yield from walk(QModelIndex())


def texts(root: QWidget) -> list[str]:
    """Texts of ``root`` and every descendant widget, item-view cell, and graphics item."""
    out: list[str] = []
    for w in [root, *root.findChildren(QWidget)]:
        for attr in ("windowTitle", "toolTip", "statusTip", "whatsThis"):
            v = getattr(w, attr)()
            if v:
                out.append(v)
        if isinstance(w, QLabel | QAbstractButton | QLineEdit):
            out.append(w.text())
        if isinstance(w, QTextEdit):
            out.append(w.toPlainText())
        if isinstance(w, QPlainTextEdit):
            out.append(w.toPlainText())
        if isinstance(w, QComboBox):
            out.extend(w.itemText(i) for i in range(w.count()))
        if isinstance(w, QAbstractItemView):
            out.extend(_model_texts(w))
        if isinstance(w, QGraphicsView) and w.scene() is not None:
            for item in w.scene().items():
                if item.toolTip():
                    out.append(item.toolTip())
                if isinstance(item, QGraphicsSimpleTextItem):
                    out.append(item.text())
                if isinstance(item, QGraphicsTextItem):
                    out.append(item.toPlainText())
    return [t for t in out if t]


def shows(root: QWidget, needle: str) -> list[str]:
    """The texts under ``root`` that contain ``needle`` (case-insensitive)."""
    n = needle.lower()
    return [t for t in texts(root) if n in t.lower()]
