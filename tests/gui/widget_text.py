"""Every piece of text a widget tree shows or would show on hover: for secrecy assertions."""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QTableWidget,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)


def _tree_item_texts(item: QTreeWidgetItem) -> Iterator[str]:
    for c in range(item.columnCount()):
        yield item.text(c)
        yield item.toolTip(c)
    for i in range(item.childCount()):
        yield from _tree_item_texts(item.child(i))


def _view_texts(view: QAbstractItemView) -> Iterator[str]:
    """Through the item APIs where there are some (they return "" rather than None: asking a
    model for a role it lacks hands back None, which PySide on Python 3.11 over-releases)."""
    if isinstance(view, QListWidget):
        for i in range(view.count()):
            item = view.item(i)
            yield item.text()
            yield item.toolTip()
        return
    if isinstance(view, QTableWidget):
        for r in range(view.rowCount()):
            for c in range(view.columnCount()):
                item = view.item(r, c)
                if item is not None:
                    yield item.text()
                    yield item.toolTip()
        return
    if isinstance(view, QTreeWidget):
        for i in range(view.topLevelItemCount()):
            yield from _tree_item_texts(view.topLevelItem(i))
        return
    model = view.model()
    if model is None:
        return
    for r in range(model.rowCount()):
        value = model.index(r, 0).data(Qt.ItemDataRole.DisplayRole)
        if isinstance(value, str):
            yield value


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
            out.extend(_view_texts(w))
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
