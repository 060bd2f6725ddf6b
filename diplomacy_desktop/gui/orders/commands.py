"""Undo commands for order edits.  They change only the model, through the controller."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from ...engine.orders import Order
from ...io.notation import format_order

if TYPE_CHECKING:
    from ..controller import GameController


class SetOrderCommand(QUndoCommand):
    """File (``after``) or withdraw (``after is None``) the order filed under ``power``/``key``."""

    def __init__(self, controller: GameController, power: str, key: str, before: Order | None,
                 after: Order | None) -> None:
        if after is not None:
            text = f"order {format_order(after)}"
        elif before is not None:
            text = f"clear {format_order(before)}"
        else:
            text = "order"
        super().__init__(text)
        self.controller = controller
        self.power = power
        self.key = key
        self.before = before
        self.after = after

    def redo(self) -> None:
        self.controller.put_order(self.power, self.key, self.after)

    def undo(self) -> None:
        self.controller.put_order(self.power, self.key, self.before)


class ClearOrdersCommand(QUndoCommand):
    """Withdraw every order of one power at once (one undo step)."""

    def __init__(self, controller: GameController, power: str, orders: dict[str, Order]) -> None:
        super().__init__(f"clear all orders of {power.title()}")
        self.controller = controller
        self.power = power
        self.orders = dict(orders)

    def redo(self) -> None:
        self.controller.put_orders(self.power, {key: None for key in self.orders})

    def undo(self) -> None:
        self.controller.put_orders(self.power, dict(self.orders))
