"""``TableFeatures``: the table game, the window's mode for a table sharing one laptop.

It puts the negotiation clock in the bar above the map, the sealing status strip in the status
bar, the hot-seat curtain over the window, the autosave behind every phase, the recent files in
Game ▸ Open recent, and a Table menu (write orders, seal, reveal, clock, draw, secrecy).  As the
window's mode (``gui.mode.WindowMode``) it answers the window's hooks the table's way: New
asks for the New Game settings, Adjudicate goes through the hot-seat reveal when secrecy is on,
undoing an adjudication and replacing a game in progress are the host's, a file dialog brings
the curtain down first, and the end of the game shows the game-over screen.

Everything it keeps lives in the controller's ``table`` dict, so it is saved with the game:
``clock`` (settings), ``clock_state`` (time left, running or paused), ``clock_plans`` (each
phase's clock as played: its periods and lengths, the host's added rounds and minutes included,
by short phase name such as ``S1901M``), ``secrecy``, ``players``,
``powers``, ``pins`` (hashes), ``host_pin`` (a hash, when the table chose a host PIN) and
``hotseat`` (the turn: order, who has sealed).

Host actions go through ``HotSeatFlow.ask_host`` (the host PIN, or when none is set a question
that says anyone at the table may do it): lifting or restoring secrecy, the forced reveal
(Ctrl+Return, F8, "Host: reveal now"), undoing an adjudication, reopening someone else's
orders, ending the game in an accepted draw, and replacing a game in progress (New, Open).

The class is put together from its parts (``base.py`` says which file holds what); this file
makes the widgets and wires them in ``__init__``, and ``install_table_features`` installs it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from ..clock import ClockSound, ClockWidget, qt_time_source
from ....table.clock import ClockModel, TimeSource
from ..file_dialogs import DataFolderGuard
from ..hotseat.flow import Confirm, HostPrompt, HotSeatFlow
from ..hotseat.seal_strip import SealStatusStrip
from ..persistence import (Autosave, Autosaver, Message, PassphrasePrompt, RecentFiles, ask_passphrase,
                           show_warning)
from ..relations import RelationsDock
from .actions import TableActions
from .draw import TableDraw
from .hooks import TableHooks
from .hosting import TableHosting
from ...widgets import connect_all

if TYPE_CHECKING:
    # the dialogs, the phones (and the host's server side behind them) and the tournament are
    # imported when they are first used, not at every start (tests/gui/test_start_imports.py)
    from ...shell import WindowShell
    from ..declarations import OpenDeclarationsDialog, RevealDialog
    from ..dialogs.clock_settings import ClockSettingsDialog
    from ..dialogs.draw_vote import DrawVoteDialog
    from ..dialogs.game_over import GameOverDialog
    from ..dialogs.new_game import NewGameDialog
    from ..hotseat.review import ReviewDialog
    from ..computer_seats import ComputerSeatsDialog
    from ..notes import NotesDialog
    from ..phones import MyPhoneDialog, PhonesDialog, PhonesLink
    from ..seating import CivilDisorderDialog


class TableFeatures(TableHooks, TableActions, TableHosting, TableDraw):
    """Clock, hot-seat, dialogs and persistence: the table game's mode of one main window."""

    title = "Table game"

    def __init__(self, window: WindowShell, *, autosave: Autosave | None = None, rng: random.Random | None = None,
                 now: TimeSource | None = None, sound: ClockSound | None = None, message: Message | None = None,
                 confirm: Confirm | None = None, review: Callable[[ReviewDialog], bool] | None = None,
                 settings: QSettings | None = None, host_prompt: HostPrompt | None = None,
                 passphrase_prompt: PassphrasePrompt | None = None) -> None:
        super().__init__(window)
        #: asks the host for a secret game's passphrase (opening it, resuming it after a crash)
        self.passphrase_prompt: PassphrasePrompt = passphrase_prompt if passphrase_prompt is not None \
            else ask_passphrase
        window.passphrase_prompt = self.passphrase_prompt
        self.controller = c = window.controller
        c.civil_disorder_rules = True  # marked, unplayed and order-less powers are in civil disorder
        self.disorder_dialog: CivilDisorderDialog | None = None
        self.computer_dialog: ComputerSeatsDialog | None = None
        self.settings = settings if settings is not None else window.settings
        self.message = message if message is not None else show_warning
        self.now = now if now is not None else qt_time_source()
        self.game_over_dialog: GameOverDialog | None = None
        self.draw_dialog: DrawVoteDialog | None = None
        self.new_game_dialog: NewGameDialog | None = None
        self.clock_dialog: ClockSettingsDialog | None = None
        self.resume_offer: QMessageBox | None = None
        self.reveal_dialog: RevealDialog | None = None
        self.open_declarations: OpenDeclarationsDialog | None = None
        #: Table ▸ Phones: the link between the hot seat and the phones while hosting is on
        self.phones: PhonesLink | None = None
        self.phones_dialog: PhonesDialog | None = None
        #: where the phones' server listens when nobody chose (None: the table's Wi-Fi/LAN address,
        #: chosen in Table ▸ Phones; never every interface unless chosen there); tests use loopback
        self.phones_address: str | None = None
        self.notes_dialog: NotesDialog | None = None
        #: "Use my phone…": the code of the seat at the keyboard, closed when its turn ends
        self.my_phone_dialog: MyPhoneDialog | None = None
        self._practice_play = None  # a practice game's play: made when first needed

        # the clock, above the map
        self.clock = ClockWidget(ClockModel(now=self.now), sound=sound, compact=True)
        window.set_table_widget(self.clock)
        # the hot-seat strip in the status bar, the curtain over the whole window
        self.strip = SealStatusStrip(None, c)
        window.status_slot.addWidget(self.strip)
        self.flow = HotSeatFlow(c, window, rng=rng, strip=self.strip, review=review, confirm=confirm,
                                host_prompt=host_prompt)
        # persistence
        self.autosaver = Autosaver(c, autosave, parent=self, message=self.message, window=window)
        self.recent = RecentFiles(self.settings)
        # Formal Diplomacy: the relations panel (View menu; shown in Formal Diplomacy games only)
        self.relations_dock = RelationsDock(c, window)
        window.add_panel(self.relations_dock)
        window.tabifyDockWidget(window.results_dock, self.relations_dock)
        window.order_dock.raise_()
        self.flow.declarations_revealed.connect(self._on_declarations_revealed)

        self._build_menu()
        c.changed.connect(self._on_changed)
        c.saved.connect(self._on_saved)
        window.discarded_on_close.connect(self.autosaver.discard)  # Discard means: not offered again
        clock = self.clock
        connect_all((clock.changed, self._on_clock_changed), (clock.ticked, self._store_clock),
                    (clock.period_ended, self._on_period_ended), (clock.expired, self._on_clock_expired),
                    (clock.reveal_requested, self._on_reveal_requested),
                    (self.flow.stage_changed, self._on_stage_changed), (self.strip.notes_requested, self.open_notes),
                    (self.strip.phone_requested, self.open_my_phone))
        # "My PIN…": the seat at the keyboard changes its own PIN (once it opened with it)
        self.my_pin_button = QPushButton("My PIN\u2026")
        self.my_pin_button.setToolTip("Change your PIN (you opened with it this turn)")
        self.my_pin_button.hide()
        self.my_pin_button.clicked.connect(lambda: self.change_pin(own=True))
        strip_layout = self.strip.layout()
        if strip_layout is not None:
            strip_layout.addWidget(self.my_pin_button)
        self.flow.phone_requested.connect(self.open_my_phone)
        self.strip.write_requested.disconnect(self.flow.start_writing)
        self.strip.write_requested.connect(self.write_orders)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.turn_off)  # the port is closed before the last save
            app.aboutToQuit.connect(self.autosaver.flush)
        # file dialogs are Qt's own in table mode: a desktop's native dialog may preview the data folder
        QApplication.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs, True)
        # ... and none of them renames, deletes or shows the autosave (issue 31, finding 13)
        self.file_dialog_guard = DataFolderGuard(self.autosaver.autosave.folder, self)
        self.autosaver.enabled = False  # setting up is no change worth saving
        self._sync_from_table()
        self.autosaver.enabled = True
        self.refresh_recent_menu()


def install_table_features(window: WindowShell, **options: object) -> TableFeatures:
    """Make the table game ``window``'s mode (kept as ``window.mode`` and ``window.table_features``)."""
    features = TableFeatures(window, **options)  # type: ignore[arg-type]
    window.install_feature("table_features", features)
    window.set_mode(features)
    from ..tournament import install_tournament

    window.install_feature("tournament", install_tournament(features))
    return features
