"""Undo commands for order edits.  They change only the model, through the controller.

A command is given the controller's one operation for writing an order book back
(``GameController._write_orders``) when the controller makes it, so it needs nothing else of the
controller (and does not import it): redo and undo each write one power's orders through it,
which emits one ``changed`` record.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from ...engine.orders import Order
from ...engine.state import GameState
from ...io.notation import format_order

#: the controller's operation: write ``power``'s orders by key (``None``: no order under that key)
WriteOrders = Callable[[str, dict[str, Order | None]], object]


class SetOrderCommand(QUndoCommand):
    """File (``after``) or withdraw (``after is None``) the order filed under ``power``/``key``."""

    def __init__(self, write: WriteOrders, power: str, key: str, before: Order | None,
                 after: Order | None) -> None:
        if after is not None:
            text = f"order {format_order(after)}"
        elif before is not None:
            text = f"clear {format_order(before)}"
        else:
            text = "order"
        super().__init__(text)
        self.write = write
        self.power = power
        self.key = key
        self.before = before
        self.after = after

    def redo(self) -> None:
        self.write(self.power, {self.key: self.after})

    def undo(self) -> None:
        self.write(self.power, {self.key: self.before})


class ClearOrdersCommand(QUndoCommand):
    """Withdraw every order of one power at once (one undo step)."""

    def __init__(self, write: WriteOrders, power: str, orders: dict[str, Order]) -> None:
        super().__init__(f"clear all orders of {power.title()}")
        self.write = write
        self.power = power
        self.orders = dict(orders)

    def redo(self) -> None:
        self.write(self.power, {key: None for key in self.orders})

    def undo(self) -> None:
        self.write(self.power, dict(self.orders))


#: the controller's operation: write a position and its order book (``None``: the orders the
#: position keeps); returns the order book it left
WritePosition = Callable[[GameState, "dict[str, dict[str, Order]] | None"], "dict[str, dict[str, Order]]"]


class SetPositionCommand(QUndoCommand):
    """A set-up edit of the sandbox (a unit placed, moved or removed, a centre's owner, a standoff
    mark, the phase, the board cleared): the position and every order before and after it."""

    def __init__(self, write: WritePosition, text: str, before: GameState,
                 before_orders: dict[str, dict[str, Order]], after: GameState) -> None:
        super().__init__(text)
        self.write = write
        self.before = before
        self.before_orders = before_orders
        self.after = after
        #: the orders the new position kept (known after the first redo)
        self.after_orders: dict[str, dict[str, Order]] | None = None

    def redo(self) -> None:
        self.after_orders = self.write(self.after, self.after_orders)

    def undo(self) -> None:
        self.write(self.before, self.before_orders)
