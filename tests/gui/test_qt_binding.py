"""The Qt binding must not leak or drop references: a guard against broken PySide6 builds.

PySide6 6.12.0 under Python 3.11 releases a reference to ``None`` on every call of a method
returning nothing; after a few thousand calls ``None`` is "deallocated" and the app aborts.
pyproject.toml excludes that release; this test names the problem if a build like it returns.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QColor, QImage, QPainter


def test_qt_calls_keep_none_alive() -> None:
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    colour = QColor("red")
    for _ in range(50):  # warm up whatever the binding caches
        painter.setBrush(colour)
    before = sys.getrefcount(None)
    for _ in range(2000):
        painter.setBrush(colour)
    after = sys.getrefcount(None)
    painter.end()
    assert after >= before - 10, (
        f"this PySide6 build drops references to None ({before} -> {after} over 2000 calls): it will crash "
        "the app; install another PySide6 release")
