"""Table ▸ Phones, the window's side of the table host (``diplomacy_desktop.host``).

* ``HostBridge``: the host's changes (made on the server's thread when a phone writes) as a Qt
  signal delivered on the GUI thread, so the window refreshes its seal strip without ever waiting
  for a phone.
* ``PhonesHosting``: hosting on and off: the server is bound only when the host turns it on and
  stopped when it is turned off or the game closes.
* ``PhonesDialog``: the join screen: the table's address, one power's QR code and link at a time,
  shown only when asked for (the player of that power looks, nobody else), "kick this phone", and
  who has sealed, live (never what).

Not yet wired into the window's menus: the table mode takes it with the hot seat's next revision
(the curtain shows a power's code to that power only).
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QObject, Qt, Signal
from PySide6.QtSvgWidgets import QSvgWidget
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...host.qr import join_qr_svg
from ...host.serve import lan_address
from ...host.server import HostServer
from ...host.table import Change, TableHost
from .. import override

DEFAULT_PORT = 8642


class HostBridge(QObject):
    """``changed(Change)``, emitted on the GUI thread whatever thread changed the host."""

    changed = Signal(object)

    def __init__(self, host: TableHost, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        host.add_listener(self._heard)

    def _heard(self, change: Change) -> None:
        self.changed.emit(change)  # queued to the GUI thread when heard on the server's

    def close(self) -> None:
        self.host.remove_listener(self._heard)


class PhonesHosting(QObject):
    """The server, on when the host turns it on: ``start`` binds (OSError if it cannot), ``stop``
    closes every phone's connection and unbinds."""

    started = Signal(str)
    stopped = Signal()

    def __init__(self, host: TableHost, address: str = "0.0.0.0", port: int = DEFAULT_PORT,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.address = address
        self.port = port
        self.server: HostServer | None = None

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def base_url(self) -> str:
        if self.server is None:
            return ""
        shown = lan_address() if self.address in ("", "0.0.0.0", "::") else self.address
        return f"http://{shown}:{self.server.port}"

    def start(self) -> str:
        if not self.running:
            server = HostServer(self.host, self.address, self.port)
            server.start()
            self.server = server
            self.started.emit(self.base_url)
        return self.base_url

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
            self.stopped.emit()


class PhonesDialog(QDialog):
    """The join screen (see the module documentation)."""

    def __init__(self, hosting: PhonesHosting, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Phones")
        self.hosting = hosting
        self.host = hosting.host
        self.bridge = HostBridge(self.host, self)
        self.bridge.changed.connect(self.refresh)
        board = self.host.game.board
        layout = QVBoxLayout(self)
        self.address = QLabel()
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.address)
        row = QHBoxLayout()
        self.power = QComboBox()
        for p in board.power_ids:
            self.power.addItem(board.power(p).name, p)
        self.show_button = QPushButton("Show this power's code")
        self.show_button.clicked.connect(self.show_code)
        self.hide_button = QPushButton("Hide")
        self.hide_button.clicked.connect(self.hide_code)
        self.kick_button = QPushButton("Kick this phone")
        self.kick_button.clicked.connect(self.kick)
        for w in (self.power, self.show_button, self.hide_button, self.kick_button):
            row.addWidget(w)
        layout.addLayout(row)
        self.code = QSvgWidget()
        self.code.setFixedSize(260, 260)
        layout.addWidget(self.code, 0, Qt.AlignmentFlag.AlignHCenter)
        self.link = QLabel()
        self.link.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.link.setWordWrap(True)
        layout.addWidget(self.link)
        self.seals = QLabel()
        self.seals.setWordWrap(True)
        layout.addWidget(self.seals)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.hide_code()
        self.refresh()

    @property
    def shown_power(self) -> str:
        return str(self.power.currentData())

    def refresh(self, _change: Change | None = None) -> None:
        base = self.hosting.base_url
        self.address.setText(f"The table: {base}/ (a player with a PIN joins there)" if base
                             else "Hosting is off.")
        board = self.host.game.board
        state = self.host.public_state()
        done = state["declared"] if state["stage"] == "declarations" else state["sealed"]
        parts = [f"{board.power(p).name} {'✓' if p in done else '…'}" for p in state["owing"]]
        self.seals.setText(f"{state['phase']['label']}: " + ", ".join(parts) if parts else state["phase"]["label"])

    def show_code(self) -> None:
        base = self.hosting.base_url
        if not base:
            self.link.setText("Turn hosting on first.")
            return
        url = f"{base}/t/{self.host.token_of(self.shown_power)}"
        self.code.load(QByteArray(join_qr_svg(url).encode("utf-8")))
        self.code.show()
        self.link.setText(f"{self.power.currentText()}: {url}")
        self.hide_button.setEnabled(True)

    def hide_code(self) -> None:
        self.code.load(QByteArray())
        self.code.hide()
        self.link.setText("Choose a power and show its code to its player only.")
        self.hide_button.setEnabled(False)

    def kick(self) -> None:
        """A new link for the chosen power (and the other powers of its player); the old phone is
        cut off at once."""
        self.host.kick(self.shown_power)
        self.hide_code()
        self.link.setText(f"{self.power.currentText()} has a new link: the old phone is cut off. Show the new "
                          f"code to its player.")

    @override
    def done(self, result: int) -> None:
        self.bridge.close()
        super().done(result)
