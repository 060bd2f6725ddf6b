"""The computer thinks off the GUI thread (issue 33): its orders are computed in a worker thread
and handed back to the GUI thread, where they are applied, unless the game moved on meanwhile.

A strong computer power takes up to about a second per phase; six of them on the GUI thread froze
the window for seconds.  ``ComputerThinker.think`` takes the public position (a ``GameState``,
never changed once made) and the seats to play, computes each seat's orders in one worker thread
with ``table.computer.computer_orders`` (the one rule of every door; the bots are imported there,
in the worker, when first needed) and calls ``then`` on the GUI thread with the orders.  Every
phase change, undo or new game (a ``changed`` record of the game or the phase) makes the answers
already under way stale: they are dropped, never applied.  The same seed and position give the
same orders, in whichever thread they are computed.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from ...engine.orders import Order
from ...engine.state import GameState
from ...table.computer import computer_orders
from ...table.state import TableState

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    from ...table.changes import TableChange
    from ..controller import GameController

Orders = dict[str, list[Order]]
Then = Callable[[Orders], object]
Failed = Callable[[str], object]


def think_now(seed: int, state: GameState, seats: Mapping[str, str]) -> Orders:
    """Each seat's orders (power -> level in ``seats``) from the public position ``state``."""
    table = TableState(computer_seed=seed)
    return {power: computer_orders(table, state, power, level) for power, level in sorted(seats.items())}


class ComputerThinker(QObject):
    """One worker thread for the computer's thinking; the answers come back on the GUI thread."""

    #: (ticket, future): emitted from the worker thread, received (queued) on the GUI thread
    _answered = Signal(object, object)

    def __init__(self, controller: GameController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        #: the worker thread: made when the computer is first asked (``concurrent.futures`` is imported
        #: then, not at every start: tests/gui/test_start_imports.py)
        self._pool: ThreadPoolExecutor | None = None
        self._shut = False
        self._tickets = itertools.count(1)
        #: ticket -> (the game's generation when asked, what to do with the orders, what to say on failure)
        self._waiting: dict[int, tuple[int, Then, Failed | None]] = {}
        #: bumped by every change of game or phase (an adjudication, its undo, a new or opened game)
        self.generation = 0
        #: answers dropped because the game had moved on when they came (for the tests and the status)
        self.dropped = 0
        self._answered.connect(self._deliver)
        controller.changed.connect(self._on_changed)

    @property
    def busy(self) -> bool:
        """Whether the computer is still thinking about something it will answer."""
        return bool(self._waiting)

    def _on_changed(self, record: TableChange) -> None:
        if record.game or record.phase:
            self.generation += 1

    def think(self, seed: int, state: GameState, seats: Mapping[str, str], then: Then,
              failed: Failed | None = None) -> int:
        """Compute ``seats``' orders from ``state`` in the worker; ``then(orders)`` on the GUI thread
        if the game has not moved on by then (else nothing).  Returns the request's ticket."""
        ticket = next(self._tickets)
        self._waiting[ticket] = (self.generation, then, failed)
        if self._shut:  # as the executor itself says once shut down
            raise RuntimeError("cannot schedule new futures after shutdown")
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
        future = self._pool.submit(think_now, seed, state, dict(seats))
        future.add_done_callback(functools.partial(self._answer, ticket))
        return ticket

    def _answer(self, ticket: int, future: Future[Orders]) -> None:
        """In the worker thread: hand the answer to the GUI thread (nothing if the window is gone)."""
        with contextlib.suppress(RuntimeError):  # the thinker (and its window) was deleted meanwhile
            self._answered.emit(ticket, future)

    def _deliver(self, ticket: int, future: Any) -> None:
        waiting = self._waiting.pop(ticket, None)
        if waiting is None:
            return
        generation, then, failed = waiting
        if generation != self.generation:
            self.dropped += 1
            return
        error = future.exception()
        if error is not None:
            if failed is not None:
                failed(f"The computer could not write its orders: {error}")
            return
        then(future.result())

    def forget(self) -> None:
        """Drop every answer under way (they are computed, but never applied)."""
        self.dropped += len(self._waiting)
        self._waiting.clear()

    def shut_down(self) -> None:
        """At the window's end: nothing more is asked, nothing waited for."""
        self.forget()
        self._shut = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
