"""What a widget tree cuts off: every text shown narrower than it needs, every widget outside the
screen.  For the laptop-size tests (issue 34, finding 6): a one-line label, a button, a check
box, a tab (a window's tab bars of docked panels too) whose text does not fit its width, a tab bar
whose tabs do not all show, a label ending in an ellipsis, a widget reaching beyond the screen."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QCheckBox, QLabel, QPushButton, QTabBar, QWidget


def _shown(widget: QWidget) -> bool:
    return widget.isVisible() and widget.width() > 0 and widget.height() > 0


def _label_cut(label: QLabel) -> str | None:
    text = label.text()
    if not text or label.wordWrap() or label.textFormat() == label.textFormat().RichText or "<" in text:
        return None
    if text.endswith(("…", "...")):
        return f"label ends in an ellipsis: {text!r}"
    lines = text.split("\n")
    need = max(label.fontMetrics().horizontalAdvance(line) for line in lines)
    room = label.contentsRect().width() - 2 * label.margin() - 2 * max(label.indent(), 0)
    if need > room + 1:
        return f"label {text!r} needs {need} px, has {room}"
    return None


def _button_cut(button: QAbstractButton) -> str | None:
    text = button.text().replace("&&", "\x00").replace("&", "").replace("\x00", "&")
    if not text:
        return None
    need = button.fontMetrics().horizontalAdvance(text)
    if not button.icon().isNull():
        need += button.iconSize().width() + 4
    extra = 20 if isinstance(button, QCheckBox) else 12 if isinstance(button, QPushButton) else 4
    if need + extra > button.width() + 1:
        return f"button {text!r} needs {need + extra} px, has {button.width()}"
    return None


def _tabs_cut(bar: QTabBar) -> list[str]:
    found = []
    shown = QRect(0, 0, bar.width(), bar.height())
    for i in range(bar.count()):
        if not bar.isTabVisible(i):
            continue
        rect = bar.tabRect(i)
        if not shown.contains(rect):
            found.append(f"tab {bar.tabText(i)!r} not wholly shown ({rect} in {shown})")
        elif bar.tabSizeHint(i).width() > rect.width() + 1:
            found.append(f"tab {bar.tabText(i)!r} cut: needs {bar.tabSizeHint(i).width()} px, has {rect.width()}")
    return found


def _in_scroll_area(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def cut_off(root: QWidget, screen: QRect) -> list[str]:
    """Everything shown in ``root`` (a window or a dialog) that is cut off, or outside ``screen``
    (the part of the screen a window's content may use: below its title bar, above the taskbar)."""
    found: list[str] = []
    window = QRect(root.mapToGlobal(root.rect().topLeft()), root.size())
    if not screen.contains(window):
        found.append(f"{type(root).__name__} {root.objectName()!r} {window} is not inside the screen's {screen}")
    for widget in [root, *root.findChildren(QWidget)]:
        if not _shown(widget) or widget.window() is not root:
            continue
        where = QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())
        if not where.intersects(window):
            continue  # (a panel behind another's tab: Qt parks it out of the window)
        if not _in_scroll_area(widget) and not window.adjusted(-1, -1, 1, 1).contains(where):
            found.append(f"{type(widget).__name__} {widget.objectName()!r} reaches out of its window: {where}")
        problem: str | None = None
        if isinstance(widget, QLabel):
            problem = _label_cut(widget)
        elif isinstance(widget, QAbstractButton) and type(widget).__name__ != "QToolButton":
            problem = _button_cut(widget)
        elif isinstance(widget, QTabBar):
            found.extend(_tabs_cut(widget))
        if problem:
            found.append(problem)
    return found
