"""Python's cyclic garbage collector paused while the window starts (issue 16).

Starting the window makes some 40,000 objects that live as long as it does (modules, classes,
widgets, the board's data), and the collector, which runs after every 700 new objects, examined
them again and again: 92 collections and 20 ms of the cold start's processor time (measured with
``gc.callbacks``), a fifth of what the window costs to start on top of Python and Qt.  So the
application's start pauses the collector (:func:`pause`: from the window's command before Qt is
imported, and from ``make_application``).  The map's first frame ends the pause
(:func:`resume_after_frame`, from the map view's first paint; or :data:`FALLBACK_MS` after the
event loop starts, whatever happens): right after that frame, what the start left behind is
collected once, the survivors are frozen out of later collections (:func:`gc.freeze`: they would
be examined at every full collection for nothing) and the collector runs as before.

Only the first QApplication of a process pauses (the test suite's application is made by its
fixtures, and a collector already turned off by someone else is left alone).
"""

from __future__ import annotations

import gc
import sys

#: the pause ends this long after the event loop starts, if no map has been drawn by then
FALLBACK_MS = 3000

_paused = False
_armed = False


def paused() -> bool:
    """Whether the collector is paused for the start (not yet resumed)."""
    return _paused


def pause() -> None:
    """Pause the collector until the map's first frame.  Called before Qt is imported (the
    window's command) and again once the application exists, which arms the fallback of
    :data:`FALLBACK_MS`; once per process."""
    global _paused, _armed
    if not _paused:
        if not gc.isenabled() or _armed:
            return  # turned off by someone else, or this process's start is over
        gc.disable()
        _paused = True
    qt = sys.modules.get("PySide6.QtCore")
    if not _armed and qt is not None and qt.QCoreApplication.instance() is not None:
        _armed = True
        qt.QTimer.singleShot(FALLBACK_MS, resume)


def resume_after_frame() -> None:
    """End the pause once the frame being drawn is on screen (not within its paint)."""
    if _paused:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, resume)


def resume() -> None:
    """End the pause now: collect what the start left, freeze the rest, collect as before."""
    global _paused
    if not _paused:
        return
    _paused = False
    gc.collect()
    gc.freeze()
    gc.enable()


__all__ = ["FALLBACK_MS", "pause", "paused", "resume", "resume_after_frame"]
