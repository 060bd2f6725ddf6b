"""``ReviewDialog``: before sealing, one power's own orders and what it may have overlooked
(the warnings come from ``table.review.review_warnings``)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QVBoxLayout,
                               QWidget)

from ....engine.orders import Order
from ....io.notation import format_order
from ....table.seal_review import SealNotes
from ...widgets import bold_font


class ReviewDialog(QDialog):
    """Before sealing: one power's own orders and what it may have overlooked."""

    def __init__(self, power: str, orders: Sequence[Order], warnings: Sequence[str],
                 parent: QWidget | None = None, *, power_name: str | None = None, has_pin: bool = True,
                 notes: SealNotes | None = None) -> None:
        super().__init__(parent)
        name = power_name or power.title()
        notes = notes if notes is not None else SealNotes()
        self.setWindowTitle(f"{name}: review and seal")
        self.power = power
        title = QLabel(f"{name}'s orders")
        f = bold_font(title.font(), 16)
        title.setFont(f)
        self.order_list = QListWidget()
        for o in orders:
            self.order_list.addItem(format_order(o))
        if not orders:
            self.order_list.addItem("(no orders)")
        self.warning_list = QListWidget()
        for w in warnings:
            item = QListWidgetItem("\u26a0 " + w)
            item.setForeground(QColor("#8a4b00"))
            self.warning_list.addItem(item)
        self.warning_caption = QLabel("Check these:" if warnings else "No problems found.")
        self.warning_list.setVisible(bool(warnings))
        note = QLabel("Once sealed, your orders are hidden until everyone has sealed. "
                      + ("You can reopen them with your PIN before the reveal." if has_pin else
                         "Before the reveal, only the host can reopen them (you have no PIN)."))
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.seal_button = self.buttons.addButton("Seal my orders", QDialogButtonBox.ButtonRole.AcceptRole)
        self.back_button = self.buttons.addButton("Back to my orders", QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        # what the power may not mean, said first and plainly; Enter then goes back, not on
        self.notice = QLabel(" ".join(t for t in (notes.disorder, notes.holding_text()) if t))
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #8a1c00; font-weight: bold;" if notes.disorder else "font-weight: bold;")
        self.notice.setVisible(bool(self.notice.text()))
        if notes.disorder:
            self.seal_button.setText("Seal with no orders (civil disorder)")
        problem = bool(warnings) or notes.problem
        self.seal_button.setAutoDefault(not problem)
        self.back_button.setAutoDefault(problem)
        (self.back_button if problem else self.seal_button).setDefault(True)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.notice)
        layout.addWidget(self.order_list, 2)
        layout.addWidget(self.warning_caption)
        layout.addWidget(self.warning_list, 1)
        layout.addWidget(note)
        layout.addWidget(self.buttons)
        self.resize(520, 460)

    @property
    def warnings(self) -> list[str]:
        return [self.warning_list.item(i).text()[2:] for i in range(self.warning_list.count())]
