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

**PySide's look at every module imported** (:func:`answer_imports_without_source`).  Once
``PySide6.QtCore`` is imported, PySide is told of every module imported after it, to remember
whether the module uses PySide (for its optional ``from __feature__ import snake_case``): its
answer reads the module's whole source file and searches it for "PySide6" (a known cost of
PySide's start, napari issue 8584).  The window imports some 150 modules after Qt (ours, and the
standard library's json, datetime, dataclasses...): 8 ms of the start's processor time went to
reading their sources again.  The application answers from what the module holds instead (a
PySide class or module among its names), which never reads a file.  Nothing here selects a
feature, so PySide's answer changes nothing it does; a module that does select one is recorded
by PySide when it asks for it, before this question is put.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from types import ModuleType

#: the pause ends this long after the event loop starts, if no map has been drawn by then
FALLBACK_MS = 3000

_paused = False
_armed = False
#: what waits for the start's end (:func:`after_start`)
_waiting: list[Callable[[], object]] = []


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
    waiting = list(_waiting)
    _waiting.clear()
    for callback in waiting:
        callback()


def after_start(callback: Callable[[], object]) -> None:
    """Call ``callback`` once the start is over (the map's first frame drawn: see :func:`resume`),
    or now if no start is under way (the pause is over, or this process never paused).  For what
    the first frame need not wait for."""
    if _paused:
        _waiting.append(callback)
    else:
        callback()


def _holds_pyside(module: ModuleType) -> bool:
    """Whether ``module`` holds a PySide class or module among its names: PySide's question of
    a module just imported ("does it use PySide?"), answered without reading its source."""
    try:
        names = object.__getattribute__(module, "__dict__")  # (a lazy module is not loaded by this)
    except AttributeError:
        return False
    for value in list(names.values()):
        kind = type(value)  # (not isinstance: it asks a lazy module for its __class__, which loads it)
        if issubclass(kind, type):
            origin = getattr(value, "__module__", "")
        elif issubclass(kind, ModuleType):
            origin = object.__getattribute__(value, "__dict__").get("__name__", "")
        else:
            continue
        if isinstance(origin, str) and (origin == "PySide6" or origin.startswith(("PySide6.", "shiboken6"))):
            return True
    return False


def answer_imports_without_source() -> bool:
    """Answer PySide's question about each module imported from the module's names, not by
    reading its source file (see the module's docstring); True if PySide asks it that way (a
    PySide that does not is left alone)."""
    feature = sys.modules.get("shibokensupport.feature")
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    setattr(feature, "_mod_uses_pyside", _holds_pyside)  # noqa: B010  (a private name of PySide's)
    return True


__all__ = ["FALLBACK_MS", "after_start", "answer_imports_without_source", "pause", "paused", "resume", "resume_after_frame"]
