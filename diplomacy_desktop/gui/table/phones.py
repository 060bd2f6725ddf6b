"""Table ▸ Phones, the window's side of the table host (``diplomacy_desktop.host``).

The laptop is the table's host: the window's game and the phones' game are ONE game.  The
``WindowHost`` (a ``TableHost``) is made over the controller's own ``Game`` and table dict, with
``auto_reveal=False`` and no file of its own (the window's autosave writes the table dict, tokens
and phone seals included).

Threads (the design): the server (aiohttp, on its own thread) never touches the game itself.
Every ``TableHost`` call the server makes -- reading a phone's state as well as writing an
order, sealing, declaring, a note -- is run on the GUI thread (``WindowHost._on_gui``: a queued
Qt signal, the server's thread waits for the answer).  So the game, the table dict and the
hot-seat session are only ever touched by the GUI thread, as every other part of the window
assumes, and the host's listeners (``HostBridge``, ``PhonesLink``) run there too: when a phone
seals, the hot seat counts it and the autosave is written *before* the phone gets its answer.
The server's wait never blocks the window (the window never waits for the server while it runs
a call, except ``stop``, which first turns the host's calls away with 503 so the two cannot wait
for each other).  The host never adjudicates by itself here: the hot-seat flow reveals (all
sealed, or the host forces it, host PIN as always) and tells the host (``phase_moved``,
``declarations_done``).

* ``HostBridge``: the host's changes as a Qt signal delivered on the GUI thread.
* ``PhonesHosting``: hosting on and off: the server is bound only when the host turns it on and
  stopped when it is turned off, a game is opened or started, or the window quits.
* ``PhonesLink``: the hot seat and the phones kept together: a phone's seal counts in the
  session (the curtain skips it, the strip marks it ✓☎, never what), the laptop's seals and
  reopenings reach the phones, a Formal Diplomacy declaration from a phone counts in the
  declarations round, the window's clock is shown on the phones.
* ``PhonesDialog``: the join screen: the table's address for all, one power's QR code and link
  at a time, shown only after a host action (the host PIN when the game has one; the code hides
  by itself after a minute), "kick this phone" (a host action), and who has sealed, live.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from PySide6.QtCore import QByteArray, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPushButton,
                               QSpinBox, QVBoxLayout, QWidget)

from ...engine.game import Game
from ...host.table import HostError, RefusedError, SaveFailedError, TableHost
from ...table.hotseat import CURTAIN, ENTERING, READY
from ...table.computer import computer_seats
from ...table.changes import TableChange
from ...table.service import TableService
from ...table.session import LAPTOP, TableSession
from ...table.state import TableState  # (the game's table key, importable here too)
from .. import override

if TYPE_CHECKING:
    from ...host.server import HostServer
    from ..controller import GameController
    from .hotseat.flow import HotSeatFlow

DEFAULT_PORT = 8642
#: a power's code hides by itself after this long (the next player must not find it there)
CODE_SHOWN_MS = 60_000

_T = TypeVar("_T")


class HostUnavailableError(HostError):
    """The window is closing the host: the phone tries again later (its page reconnects)."""

    status = 503


class _GuiRunner(QObject):
    """Runs a job on the thread it lives on (the GUI thread), whoever emits ``call``."""

    call = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.call.connect(self._run, Qt.ConnectionType.QueuedConnection)

    def _run(self, job: Callable[[], None]) -> None:
        job()


class WindowHost(TableHost):
    """The window's ``TableHost``: over the controller's own game and table, every call made on
    another thread (the server's) run on the GUI thread (see the module documentation)."""

    def __init__(self, game: Game, table: TableState, *,
                 declarations_open: Callable[[], bool] = lambda: True, session: TableSession | None = None,
                 service: TableService | None = None) -> None:
        self._gui_thread = threading.get_ident()
        self._runner = _GuiRunner()
        #: set by ``PhonesHosting.stop`` before it waits for the server: calls still waiting get 503
        self.closing = False
        self.declarations_open = declarations_open
        super().__init__(game, table, None, auto_reveal=False, session=session, service=service)

    @override
    def _on_service_change(self, change: TableChange) -> None:
        """The window's service: a seal at the laptop reaches the phones once, through the
        session (``seals_moved``), not a second time from the service."""
        if change.initiator == LAPTOP and change.kind in ("seal", "unseal"):
            return
        super()._on_service_change(change)

    @override
    def _serial(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Seal, unseal and join touch the game on the GUI thread, step by step: their slow PIN
        hash runs on the server's thread between the steps (red team, issue 31: it froze the
        window and held every phone)."""
        out: _T = self._on_gui(fn, *args)
        return out

    def _on_gui(self, fn: Callable[..., Any], *args: Any) -> Any:
        if threading.get_ident() == self._gui_thread:
            return fn(*args)
        if self.closing:
            raise HostUnavailableError("the host is closing")
        import concurrent.futures  # (threads: loaded when hosting is on)

        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def job() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # noqa: BLE001 - handed to the server's thread
                future.set_exception(exc)

        self._runner.call.emit(job)
        while True:
            try:
                return future.result(timeout=0.05)
            except concurrent.futures.TimeoutError:
                if self.closing and future.cancel():
                    raise HostUnavailableError("the host is closing") from None

    # the calls the server makes, each on the GUI thread
    @override
    def powers_of(self, token: str) -> tuple[str, ...]:
        out: tuple[str, ...] = self._on_gui(super().powers_of, token)
        return out

    @override
    def public_state(self) -> dict[str, Any]:
        out: dict[str, Any] = self._on_gui(super().public_state)
        return out

    @override
    def state_for(self, token: str) -> dict[str, Any]:
        out: dict[str, Any] = self._on_gui(super().state_for, token)
        return out

    @override
    def options_for(self, token: str) -> dict[str, dict[str, list[dict[str, Any]]]]:
        out: dict[str, dict[str, list[dict[str, Any]]]] = self._on_gui(super().options_for, token)
        return out

    @override
    def set_order_text(self, token: str, power: str, phase: str, text: str, *,
                       replace: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = self._on_gui(partial(super().set_order_text, replace=replace), token, power, phase, text)
        return out

    @override
    def results_at(self, index: int | None) -> dict[str, Any] | None:
        out: dict[str, Any] | None = self._on_gui(super().results_at, index)
        return out

    @override
    def set_order(self, token: str, power: str, phase: str, order: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = self._on_gui(super().set_order, token, power, phase, order)
        return out

    @override
    def clear_order(self, token: str, power: str, phase: str, key: str) -> dict[str, Any]:
        out: dict[str, Any] = self._on_gui(super().clear_order, token, power, phase, key)
        return out


    @override
    def declare(self, token: str, power: str, phase: str, declarations: Mapping[str, Any]) -> dict[str, Any]:
        def go() -> dict[str, Any]:
            self._mine(token, power)
            if not self.declarations_open():
                raise RefusedError("declarations are written when the talks are over: wait for the host "
                                   "to end them")
            return TableHost.declare(self, token, power, phase, declarations)

        out: dict[str, Any] = self._on_gui(go)
        return out

    @override
    def send_note(self, token: str, power: str, to: Iterable[Any], text: str) -> dict[str, Any]:
        out: dict[str, Any] = self._on_gui(super().send_note, token, power, to, text)
        return out

    @override
    def phone_seen(self, token: str, client: str) -> None:
        self._on_gui(super().phone_seen, token, client)



class HostBridge(QObject):
    """``changed(TableChange)``, emitted on the GUI thread whatever thread changed the host."""

    changed = Signal(object)

    def __init__(self, host: TableHost, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        host.add_listener(self._heard)

    def _heard(self, change: TableChange) -> None:
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
    def bound_port(self) -> int | None:
        return self.server.port if self.server is not None else None

    @property
    def base_url(self) -> str:
        if self.server is None:
            return ""
        from ...host.serve import lan_address  # (sockets: loaded when hosting is on)

        shown = lan_address() if self.address in ("", "0.0.0.0", "::") else self.address
        return f"http://{shown}:{self.server.port}"

    def start(self) -> str:
        if not self.running:
            if isinstance(self.host, WindowHost):
                self.host.closing = False
            from ...host.server import HostServer  # aiohttp: loaded when the host is first turned on

            server = HostServer(self.host, self.address, self.port)
            server.start()
            self.server = server
            self.started.emit(self.base_url)
        return self.base_url

    def stop(self) -> None:
        if self.server is not None:
            if isinstance(self.host, WindowHost):
                self.host.closing = True  # a phone's call still waiting for the window gets 503
            self.server.stop()
            self.server = None
            self.stopped.emit()


class PhonesLink(QObject):
    """The hot seat and the phones over one record (see the module documentation).  Made when
    the host turns hosting on, for the game of that moment; ``close`` stops it.

    The record of who has sealed or declared is the hot-seat flow's ``TableSession``, which the
    phone host is given too: a phone's seal is made in it (the curtain and the strip then follow),
    and a seal at the laptop is read from it by the phones (they are told that it moved)."""

    def __init__(self, controller: GameController, flow: HotSeatFlow, *, save_now: Callable[[], object],
                 address: str = "0.0.0.0", port: int = DEFAULT_PORT, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.flow = flow
        self.save_now = save_now
        self.game = controller.game
        self.session = flow.table_session
        # the window's own table service: the phones' orders, seals and PINs go through the same
        # service as the curtain's (its write hook is the window's autosave; its controller hears them)
        self.host = WindowHost(controller.game, controller.table, declarations_open=self._declarations_open,
                               session=self.session, service=controller.service)
        self.hosting = PhonesHosting(self.host, address, port, self)
        self.bridge = HostBridge(self.host, self)
        #: the devices that joined by PIN the table was told of (those before hosting was on too)
        self._told_devices = {d for d, _p in self.host.devices()}
        self.closed = False
        # heard directly, on the GUI thread (the window runs every host call there), before the
        # phone is answered: refusing a change that cannot be saved raises through the host's call
        self.host.add_listener(self._on_host_change)
        self.session.add_listener(self._on_session_change)
        flow.declarations_revealed.connect(self._on_declarations_revealed)
        controller.changed.connect(self._on_controller_changed)
        self.session.turn_moved()  # the laptop's seals so far, in the phones' key

    def _declarations_open(self) -> bool:
        s = self.flow.session
        return s.declaring and s.stage in (CURTAIN, ENTERING, READY)

    def start(self) -> str:
        base = self.hosting.start()
        self.controller.service.keep_hosting_port(self.hosting.bound_port)
        self.save_now()
        return base

    def close(self) -> None:
        """Stop serving; the phones' links stay valid for the next time hosting is turned on."""
        self.closed = True  # its slots do nothing more (Qt disconnects them when it is deleted)
        self.session.remove_listener(self._on_session_change)
        self.hosting.stop()
        self.host.remove_listener(self._on_host_change)
        self.host.close()  # the window's service tells it nothing more
        self.bridge.close()
        if self.controller.game is self.game:
            self.controller.service.keep_hosting_port(None)

    def _live(self) -> bool:
        return not self.closed and self.controller.game is self.game

    # -- phones -> the window ----------------------------------------------------------------------

    def _on_host_change(self, change: TableChange) -> None:
        """A phone's change, heard before the phone is answered: it is in the autosave first, or
        (the autosave failed) it is taken back and the phone hears 507, not "Given" or "sealed".
        The laptop's own changes told to the phones come back here started by ``LAPTOP``: the
        window has them already (no echo guard needed)."""
        if not self._live() or change.initiator == LAPTOP:
            return
        if change.kind == "restored":  # a phone's change that could not be saved was taken back
            self.controller.orders_restored(frozenset(self.game.board.power_ids))
            self.flow.refresh()
            return
        if change.kind == "joined":  # every new phone on a power's link is told to the table
            names = ", ".join(self.controller.power_name(p) for p in sorted(change.powers or ()))
            devices = self.host.devices()
            new = [d for d, p in devices if p in (change.powers or ()) and d not in self._told_devices]
            self._told_devices.update(d for d, _p in devices)
            if new:  # joined with its PIN: a token of its own, cut off alone if need be (issue 31)
                self.flow.tell(f"A new phone joined {names} with its PIN: device {new[-1]}. If it is not "
                               "theirs, cut it off (Table \u25b8 Phones).")
            else:
                self.flow.tell(f"A new phone is on {names}'s link: if it is not theirs, kick it (Table \u25b8 Phones).")
            self.save_now()
            return
        if change.kind in ("orders", "note", "seal", "declarations") and not self._save():
            raise self._not_saved()  # a phone's order or seal is in the autosave before its answer
        # (a phone's orders reached the views through the controller's own service listener)

    def _save(self) -> bool:
        """The autosave, written while a phone waits for its answer (a failure is shown after)."""
        owner = getattr(self.save_now, "__self__", None)
        if owner is None or not hasattr(owner, "message_later"):
            return bool(self.save_now())
        owner.message_later = True
        try:
            return bool(self.save_now())
        finally:
            owner.message_later = False

    def _not_saved(self) -> SaveFailedError:
        why = getattr(getattr(self.save_now, "__self__", None), "last_error", None) or "the laptop's autosave failed"
        return SaveFailedError("not saved, so not done: the laptop could not save the game; try again, or "
                               "tell the host", str(why))

    def _on_session_change(self, change: TableChange) -> None:
        if not self._live():
            return
        if change.via == LAPTOP:
            # the laptop sealed, reopened, or the turn moved on: the phones are told (they read
            # who has sealed from the same session)
            self.host.seals_moved()
            return
        self.flow.refresh()  # a phone sealed, unsealed or declared: the strip and the curtain

    # -- the window -> phones ------------------------------------------------------------------------

    def _on_declarations_revealed(self, declarations: object, *_: object) -> None:
        if not self._live():
            return
        said = declarations if isinstance(declarations, dict) else {}
        self.host.declarations_done(said)

    def _on_controller_changed(self, record: TableChange) -> None:
        if not self._live():
            return
        if record.phase:
            self.host.phase_moved()
            self.session.turn_moved()

    # -- the clock ----------------------------------------------------------------------------------

    def show_clock(self, title: str, seconds: float | None, running: bool) -> None:
        """The window's clock on every phone ("Round 2 of 5" during Wilson rounds)."""
        view = self.host.clock_view()
        if seconds is None:
            if view is not None:
                self.host.set_clock(title, None)
            return
        if view is not None and seconds is not None and view["title"] == title[:80] \
                and view["running"] == running and abs(view["remaining"] - seconds) < 2.0:
            return  # the phones count down by themselves
        self.host.set_clock(title, seconds, running=running)


#: listening on every interface: offered, and said for what it is, never chosen silently
EVERY_INTERFACE = "0.0.0.0"
LOOPBACK = "127.0.0.1"


def default_hosting_address() -> str:
    """Where the window listens unless the host chooses: the table's Wi-Fi/LAN address (the one a
    route out would use; 127.0.0.1 without a network), never every interface (issue 31)."""
    from ...host.serve import lan_address  # (sockets: loaded when hosting is first asked for)

    return lan_address()


def hosting_interfaces() -> list[tuple[str, str]]:
    """(label, address) the window may listen on, as ``serve --host`` may: the table's address
    first, the laptop's other IPv4 addresses, 127.0.0.1 (this laptop only) and, last and said so,
    every interface."""
    import ifaddr  # (the laptop's addresses: read when the join screen is first opened)

    found: list[tuple[str, str]] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                found.append((f"{ip.ip} ({adapter.nice_name})", ip.ip))
    lan = default_hosting_address()
    if lan != LOOPBACK:
        mine = [x for x in found if x[1] == lan] or [(lan, lan)]
        found = [(f"{mine[0][0]}: the table's network", lan)] + [x for x in found if x[1] != lan]
    return [*found, (f"{LOOPBACK} (this laptop only: no phone can reach it)", LOOPBACK),
            (f"{EVERY_INTERFACE}: every interface (any network this laptop is on)", EVERY_INTERFACE)]


class PhonesSwitch(Protocol):
    """The window's hosting switch, as the join screen uses it."""

    def turn_on(self, port: int, address: str | None = None) -> PhonesHosting: ...

    def turn_off(self) -> None: ...


class PhonesDialog(QDialog):
    """The join screen (see the module documentation).

    ``hosting``: the server (None while hosting is off); ``switch``: turns hosting on and off
    from here (the window's); ``host_action(title, text)``: showing a power's code and kicking a
    phone are host actions (the host PIN when the game has one)."""

    def __init__(self, hosting: PhonesHosting | None, parent: QWidget | None = None, *,
                 switch: PhonesSwitch | None = None, host_action: Callable[[str, str], bool] | None = None,
                 host: TableHost | None = None, board_powers: Iterable[tuple[str, str]] = (),
                 address: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Phones")
        # the host's screen: it shows no order, and hides any code itself when someone sits down
        # (``hide_when_someone_sits``), so a change of seat does not close it
        self.setProperty("survives_seat_change", True)
        self.hosting = hosting
        self.switch = switch
        self.host_action = host_action
        self.host: TableHost | None = hosting.host if hosting is not None else host
        self.bridge: HostBridge | None = None
        layout = QVBoxLayout(self)
        switch_row = QHBoxLayout()
        self.port = QSpinBox()
        self.port.setRange(1024, 65535)
        self.port.setValue(hosting.port if hosting is not None and hosting.port else DEFAULT_PORT)
        self.port.setPrefix("Port ")
        # issue 31: where to listen, as serve --host: the table's address unless the host chooses
        self.interface = QComboBox()
        self.interface.setToolTip("The network the phones join on (the table's Wi-Fi); 127.0.0.1: this laptop only")
        if switch is not None:
            for label, value in hosting_interfaces():
                self.interface.addItem(label, value)
            chosen = hosting.address if hosting is not None and hosting.running else address
            at = self.interface.findData(chosen or default_hosting_address())
            if at < 0 and chosen:
                self.interface.addItem(chosen, chosen)
                at = self.interface.count() - 1
            self.interface.setCurrentIndex(max(0, at))
        self.switch_button = QPushButton()
        self.switch_button.clicked.connect(self.toggle_hosting)
        switch_row.addWidget(self.port)
        switch_row.addWidget(self.interface, 1)
        switch_row.addWidget(self.switch_button, 1)
        layout.addLayout(switch_row)
        self.address = QLabel()
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.address.setWordWrap(True)
        layout.addWidget(self.address)
        row = QHBoxLayout()
        self.power = QComboBox()
        powers = list(board_powers)
        if not powers and self.host is not None:
            board = self.host.game.board
            powers = [(p, board.power(p).name) for p in board.power_ids]
        for p, name in powers:
            self.power.addItem(name, p)
        self.show_button = QPushButton("Show this power's code")
        self.show_button.setToolTip("Only this power's player should be looking (a host action)")
        self.show_button.clicked.connect(self.show_code)
        self.hide_button = QPushButton("Hide")
        self.hide_button.clicked.connect(self.hide_code)
        self.kick_button = QPushButton("Kick this phone")
        self.kick_button.setToolTip("A new link for this power: its old link and every phone that joined with "
                                    "its PIN are cut off (a host action)")
        self.kick_button.clicked.connect(self.kick)
        for w in (self.power, self.show_button, self.hide_button, self.kick_button):
            row.addWidget(w)
        layout.addLayout(row)
        # issue 31: each phone that joined with a PIN has a token of its own, cut off alone here
        device_row = QHBoxLayout()
        self.devices = QComboBox()
        self.devices.setToolTip("The phones that joined with a PIN, each with a token of its own")
        self.cut_device_button = QPushButton("Cut off this device")
        self.cut_device_button.setToolTip("That phone alone is cut off; the power's other phones and link go on "
                                          "(a host action)")
        self.cut_device_button.clicked.connect(lambda _checked=False: self.cut_device())
        device_row.addWidget(QLabel("Phones joined with a PIN:"))
        device_row.addWidget(self.devices, 1)
        device_row.addWidget(self.cut_device_button)
        layout.addLayout(device_row)
        from PySide6.QtSvgWidgets import QSvgWidget  # (loaded when the phones' dialog is first opened)

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
        self.code_timer = QTimer(self)
        self.code_timer.setSingleShot(True)
        self.code_timer.timeout.connect(self.hide_code)
        self.power.currentIndexChanged.connect(lambda _i: self.hide_code())
        self._attach()
        self.hide_code()
        self.refresh()

    def _attach(self) -> None:
        if self.bridge is not None:
            self.bridge.close()
            self.bridge = None
        if self.hosting is not None:
            self.host = self.hosting.host
            self.bridge = HostBridge(self.host, self)
            self.bridge.changed.connect(self.refresh)
            self.hosting.started.connect(self._on_started)
            self.hosting.stopped.connect(self.refresh)

    def _on_started(self, _base: str) -> None:
        self.refresh()

    @property
    def shown_power(self) -> str:
        return str(self.power.currentData())

    @property
    def on(self) -> bool:
        return self.hosting is not None and self.hosting.running

    def _host_agrees(self, title: str, question: str) -> bool:
        """A host action: the host says yes (with the host PIN, when the game has one)."""
        return self.host_action is None or self.host_action(title, question)

    def toggle_hosting(self) -> None:
        if self.switch is None:
            return
        self.hide_code()
        # issue 20: hosting on and off is a host action (the host PIN, when the game has one)
        want = "off" if self.on else "on"
        if not self._host_agrees(
                f"Turn hosting {want}",
                "Turn off hosting? The phones lose the game until it is on again." if self.on else
                "Turn on hosting? The phones on this network can then join the game with their links "
                "and PINs."):
            self.refresh()
            return
        if self.on:
            self.switch.turn_off()
            self.hosting = None
        else:
            address = str(self.interface.currentData() or default_hosting_address())
            try:
                self.hosting = self.switch.turn_on(self.port.value(), address)
            except OSError as exc:
                self.link.setText(f"Port {self.port.value()} cannot be used on {address} ({exc.strerror or exc}): "
                                  "choose another port or address.")
                self.hosting = None
        self._attach()
        self.refresh()

    def refresh(self, _change: TableChange | None = None) -> None:
        on = self.on
        self.switch_button.setText("Turn hosting off" if on else "Turn hosting on")
        self.switch_button.setVisible(self.switch is not None)
        self.port.setVisible(self.switch is not None)
        self.port.setEnabled(not on)
        self.interface.setVisible(self.switch is not None)
        self.interface.setEnabled(not on)
        for b in (self.show_button, self.kick_button, self.power):
            b.setEnabled(on)
        self._fill_devices()
        if not on or self.hosting is None or self.host is None:
            self.address.setText("Hosting is off: the phones cannot reach the game.")
            self.seals.setText("")
            return
        base = self.hosting.base_url
        self.address.setText(f"The table: {base}/ (a player with a PIN joins there)")
        board = self.host.game.board
        state = self.host.public_state()
        done = state["declared"] if state["stage"] == "declarations" else state["sealed"]
        parts = [f"{board.power(p).name} {'✓' if p in done else '…'}" for p in state["owing"]]
        self.seals.setText(f"{state['phase']['label']}: " + ", ".join(parts) if parts else state["phase"]["label"])

    def show_code(self) -> None:
        """One power's code and link, after a host action, for a minute at most."""
        if not self.on or self.hosting is None or self.host is None:
            self.link.setText("Turn hosting on first.")
            return
        name = self.power.currentText()
        if self.shown_power in computer_seats(self.host.table):  # its link opens nothing (issue 33)
            self.link.setText(f"{name} is played by the computer: no phone plays it (Table \u25b8 Computer seats).")
            return
        if not self._host_agrees(
                f"Show {name}'s code",
                f"Show {name}'s join code? Only {name}'s player should see the screen now: the code lets "
                f"a phone read and write {name}'s orders."):
            return
        url = f"{self.hosting.base_url}/t/{self.host.token_of(self.shown_power)}"
        from ...host.qr import join_qr_svg  # segno: loaded when a code is first shown

        self.code.load(QByteArray(join_qr_svg(url).encode("utf-8")))
        self.code.show()
        from ...host.serve import shared_link_note

        note = shared_link_note(self.host, self.shown_power)
        self.link.setText(f"{name}: {url}" + (f" ({note})" if note else ""))
        self.hide_button.setEnabled(True)
        self.code_timer.start(CODE_SHOWN_MS)

    def hide_when_someone_sits(self, stage: str) -> None:
        """A power takes the laptop behind the curtain: no other power's code stays up."""
        if stage == ENTERING:
            self.hide_code()

    def hide_code(self) -> None:
        self.code_timer.stop()
        self.code.load(QByteArray())
        self.code.hide()
        self.link.setText("Choose a power and show its code to its player only.")
        self.hide_button.setEnabled(False)

    def kick(self) -> None:
        """A new link for the chosen power (and the other powers of its player); the old phone is
        cut off at once (a host action)."""
        if self.host is None or not self.on:
            return
        name = self.power.currentText()
        if not self._host_agrees(
                f"Kick {name}'s phone", f"Cut off {name}'s phone? Its link stops working at once; {name}'s "
                                        "player joins again with the new code."):
            return
        self.host.kick(self.shown_power)
        self.hide_code()
        self.link.setText(f"{name} has a new link: the old phone is cut off. Show the new "
                          f"code to its player.")

    def _fill_devices(self) -> None:
        """The devices that joined by PIN (kept chosen across a refresh)."""
        chosen = self.devices.currentData()
        self.devices.clear()
        if self.host is not None and self.on:
            board = self.host.game.board
            for device, power in self.host.devices():
                self.devices.addItem(f"{device} ({board.power(power).name})", device)
        at = self.devices.findData(chosen)
        self.devices.setCurrentIndex(max(at, 0))
        has = self.devices.count() > 0
        self.devices.setEnabled(has)
        self.cut_device_button.setEnabled(has)

    def cut_device(self) -> None:
        """Cut off the chosen device alone (a host action): its token stops at once; the power's
        other devices and link go on, and the PIN it knew no longer joins until it is changed."""
        device = self.devices.currentData()
        if self.host is None or not self.on or not device:
            return
        label = self.devices.currentText()
        if not self._host_agrees(
                f"Cut off {label}", f"Cut off the phone {label}? It stops at once; the power's other phones and "
                                    "its link go on. Its PIN no longer joins until the PIN is changed."):
            return
        try:
            self.host.kick_device(str(device))
        except HostError as exc:
            self.link.setText(f"Not done: {exc}")
            return
        self.link.setText(f"{label} is cut off; the power's other phones go on. TableChange its PIN before it "
                          "joins again.")
        self._fill_devices()

    @override
    def done(self, result: int) -> None:
        self.hide_code()
        if self.bridge is not None:
            self.bridge.close()
            self.bridge = None
        super().done(result)


class MyPhoneDialog(QDialog):
    """"Use my phone…": the code and link of the seat at the keyboard, on its own curtain turn.

    Only that seat's link is ever put in it (one link per player: a token of one of a player's
    powers covers all of them), and the table mode closes it the moment the seat steps away,
    seals, or hosting stops; closing it clears the code and the link from its widgets."""

    def __init__(self, seat: Iterable[str], seat_title: str, url: str, parent: QWidget | None = None, *,
                 has_pin: bool = False) -> None:
        super().__init__(parent)
        self.seat = tuple(seat)
        self.setProperty("keeps_turn", True)  # opening it is not stepping away from the keyboard
        self.setWindowTitle(f"Use my phone: {seat_title}")
        layout = QVBoxLayout(self)
        self.heading = QLabel(f"{seat_title}: scan this code with your phone to write your orders there.")
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        from PySide6.QtSvgWidgets import QSvgWidget

        self.code = QSvgWidget()
        self.code.setFixedSize(280, 280)
        from ...host.qr import join_qr_svg  # segno: loaded when a code is first shown

        self.code.load(QByteArray(join_qr_svg(url).encode("utf-8")))
        layout.addWidget(self.code, 0, Qt.AlignmentFlag.AlignHCenter)
        self.link = QLabel(url)
        self.link.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.link.setWordWrap(True)
        layout.addWidget(self.link)
        hint = ("Keep this link to yourself: it reads and writes your orders. It closes when your turn "
                "at the laptop ends.")
        if has_pin:
            hint += " Sealing on the phone asks for your PIN."
        self.hint = QLabel(hint)
        self.hint.setWordWrap(True)
        layout.addWidget(self.hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.url = url

    @override
    def done(self, result: int) -> None:
        """Closed: the code and the link leave its widgets at once (not when it is deleted)."""
        self.code.load(QByteArray())
        self.link.clear()
        self.url = ""
        super().done(result)
