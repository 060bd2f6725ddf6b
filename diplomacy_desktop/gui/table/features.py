"""``TableFeatures``: the table game, the window's mode for a table sharing one laptop.

It puts the negotiation clock in the bar above the map, the sealing status strip in the status
bar, the hot-seat curtain over the window, the autosave behind every phase, the recent files in
Game ▸ Open recent, and a Table menu (write orders, seal, reveal, clock, draw, secrecy).  As the
window's mode (:class:`..mode.WindowMode`) it answers the window's hooks the table's way: New
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
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDialog, QMenu, QMessageBox, QPushButton

from ...engine.formal import Relations
from ...engine.game import GameEnd
from ...engine.state import MOVEMENT
from ...host.table import HostError
from ...io.vault import Vault
from ...table.hotseat import CURTAIN, ENTERING, OPEN, READY, REVEALED
from ...table.pins import PinGuard
from ...table.settings import TableSettings
from ..controller import ChangeRecord
from ..keys import menu_action
from ..mode import WindowMode
from .clock import (
    DECLARATIONS,
    EXPIRED,
    IDLE,
    OFF,
    PAUSED,
    RUNNING,
    TALK_KINDS,
    WRITING,
    ClockModel,
    ClockSettings,
    ClockSound,
    ClockWidget,
    TimeSource,
    qt_time_source,
)
from .declarations import OpenDeclarationsDialog, RevealDialog, apply_declarations, declared_phases
from .dialogs.clock_settings import ClockSettingsDialog
from .dialogs.draw_vote import DrawVoteDialog
from .dialogs.game_over import GameOverDialog
from .dialogs.new_game import NewGameDialog
from .hotseat.flow import Confirm, HostPrompt, HotSeatFlow
from .hotseat.names import seat_title
from .hotseat.review import ReviewDialog
from .hotseat.seal_strip import SealStatusStrip
from .notes import NoteError, NotesDialog, notes_allowed, notes_for, with_note
from .persistence import (
    Autosave,
    Autosaver,
    DamagedAutosave,
    Message,
    PassphrasePrompt,
    RecentFiles,
    ask_passphrase,
    open_game_file,
    resume_box,
    resume_from_autosave,
    show_warning,
)
from .phones import HOSTING_KEY, MyPhoneDialog, PhonesDialog, PhonesHosting, PhonesLink
from .pin_change import ChangePinDialog
from .relations import RelationsDock
from .seating import CivilDisorderDialog, join_names

if TYPE_CHECKING:
    from ..shell import WindowShell

FIRST_START_KEY = "table/new_game_offered"


PHONES_WERE_ON = ("This game was being played with phones: Table ▸ Phones… turns hosting on again "
                  "(the same links; what the phones sealed is kept).")


class TableFeatures(WindowMode):
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
        #: where the phones' server listens: every interface (the table's Wi-Fi); tests use loopback
        self.phones_address = "0.0.0.0"
        self.notes_dialog: NotesDialog | None = None
        #: "Use my phone…": the code of the seat at the keyboard, closed when its turn ends
        self.my_phone_dialog: MyPhoneDialog | None = None

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
        self.clock.changed.connect(self._on_clock_changed)
        self.clock.ticked.connect(self._store_clock)
        self.clock.period_ended.connect(self._on_period_ended)
        self.clock.expired.connect(self._on_clock_expired)
        self.flow.stage_changed.connect(self._on_stage_changed)
        self.strip.notes_requested.connect(self.open_notes)
        self.strip.phone_requested.connect(self.open_my_phone)
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
        self.autosaver.enabled = False  # setting up is no change worth saving
        self._sync_from_table()
        self.autosaver.enabled = True
        self.refresh_recent_menu()

    # -- wiring into the window ------------------------------------------------------------------

    def _build_menu(self) -> None:
        w = self.window
        menu = QMenu("&Table", w)
        self.menu = menu

        def act(text: str, slot: Callable[[], object], shortcut: str | None = None, tip: str = "") -> QAction:
            return menu_action(w, menu, text, slot, shortcut, tip)

        self.act_write = act("&Write orders (end the talks)", self.write_orders, "F6",
                             "Pass the laptop round: each power writes its orders behind the curtain")
        self.act_seal = act("Review and &seal my orders\u2026", self.flow.request_seal, "F7")
        self.act_reveal = act("&Reveal and adjudicate\u2026", self.adjudicate, "F8",
                              "When all have sealed; the host may force it")
        self.act_declare = act("&Declarations in the open\u2026", self.declare_in_the_open, None,
                               "Formal Diplomacy with hot-seat secrecy off: each power declares in turn, in the open")
        menu.addSeparator()
        # F4: F5 is the projector view, in every mode
        self.act_clock = act("&Clock: start / pause", self.clock.start_button.click, "F4")
        self.act_minute = act("Clock: add a &minute", self.clock.add_button.click, "Shift+F4")
        self.act_skip = act("Clock: end this &period", self.clock.skip_button.click, "Ctrl+F4")
        self.act_round = act("Clock: one more Wilson &round", self.clock.round_button.click, "Ctrl+Shift+F4",
                             "The talks get one more round of the table's round length")
        self.act_clock_settings = act("Clock se&ttings\u2026", self.edit_clock_settings, None,
                                      "Wilson rounds on or off, how many and how long; the other periods")
        menu.addSeparator()
        self.act_draw = act("Propose a &draw\u2026", self.propose_draw, "Ctrl+D",
                            "Every surviving player votes in secret; a draw only if all accept")
        self.act_disorder = act("C&ivil disorder\u2026", self.edit_disorder,
                                tip="The host marks a power whose player has left (its units hold), or unmarks it")
        self.act_secrecy = act("Hot-seat &secrecy", self.toggle_secrecy)
        self.act_secrecy.setCheckable(True)
        menu.addSeparator()
        self.act_notes = act("Private &notes between players", self.toggle_notes, None,
                             "Players may write short notes to one or more powers, behind the curtain or on "
                             "their phones (a host action)")
        self.act_notes.setCheckable(True)
        self.act_change_pin = act("Change a &PIN\u2026", self.change_pin, None,
                                  "The host gives a player a new PIN (a host action); a player changes their own "
                                  "behind the curtain with \u201cMy PIN\u2026\u201d")
        self.act_phones = act("&Phones\u2026", self.show_phones, None,
                              "Players write their orders on their own phones (the laptop hosts the game on "
                              "the local network; off until turned on)")
        bar = w.menuBar()
        before = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
        if before is not None:
            bar.insertMenu(before, menu)
        else:
            bar.addMenu(menu)

    # -- the window's hooks (WindowMode) ------------------------------------------------------------

    def covered(self) -> bool:
        return self.flow.curtain_up

    def phase_actions(self) -> list[QAction]:
        return [self.act_write, self.act_seal, self.act_reveal]

    def save(self) -> None:
        # a file dialog may be the desktop's own (not a Qt dialog we see appear): curtain first
        if self.controller.path is None:
            self.flow.step_away()
            if not self._file_out_allowed("Save the game"):
                return
        self.window.save()

    def save_as(self) -> None:
        self.flow.step_away()
        if self._file_out_allowed("Save the game as"):
            self.window.save_as()

    def export_picture(self) -> None:
        self.flow.step_away()
        if self._file_out_allowed("Export or print"):
            self.window.export_picture()

    def phase_is_secret(self) -> bool:
        """Whether this phase has orders (or declarations) nobody may see yet."""
        s = self.flow.session
        c = self.controller
        return (self.flow.enabled and not c.game.is_over and s.phase == c.state.phase.short
                and s.stage != REVEALED)

    def _file_out_allowed(self, title: str) -> bool:
        """Save As, Export and Print while a phase is secret are host actions (issue 20): a file
        written anywhere could carry the game away (the save holds PIN hashes and phone links)."""
        if not self.phase_is_secret():
            return True
        return self.flow.ask_host(title, f"{title}? This phase is secret: the file is written where you "
                                         "choose. This is a host action.")

    def game_ended(self, end: GameEnd) -> None:
        self.show_game_over(end)

    # -- the table's settings follow the game ------------------------------------------------------

    @property
    def table_settings(self) -> TableSettings:
        g = self.controller.game
        return TableSettings.from_table(self.controller.table, edition=g.rules.edition.value, end_year=g.end_year,
                                        formal=g.formal)

    @property
    def secrecy(self) -> bool:
        return bool(self.controller.table.get("secrecy", True))

    def _sync_from_table(self) -> None:
        """A game was opened, resumed or started: clock, secrecy and turn as its table says."""
        self._show_relations_panel()
        self._restore_clock()
        self.flow.enabled = self.secrecy
        self.act_secrecy.setChecked(self.secrecy)
        self.act_notes.setChecked(notes_allowed(self.controller.table))
        self.flow.restore()
        self._update_actions()

    def _restore_clock(self) -> None:
        c = self.controller
        table = c.table
        try:
            settings = ClockSettings.from_dict(table.get("clock") or {})
        except (TypeError, ValueError):
            settings = ClockSettings()
        phase = c.state.phase
        formal = bool(c.game.formal)
        model: ClockModel | None = None
        saved = table.get("clock_state")
        if isinstance(saved, dict) and saved.get("phase") == phase.label and not c.game.is_over:
            try:
                model = ClockModel.from_dict(saved, now=self.now)
                model.settings = settings
                model.formal = formal
            except ValueError:
                model = None
        if model is None:
            model = ClockModel.for_phase(phase, settings, now=self.now, formal=formal)
        self.clock.set_model(model)
        self._store_clock()

    def _store_clock(self) -> None:
        c = self.controller
        model = self.clock.model
        c.keep_in_table(clock_state=model.to_dict())
        if model.periods and not c.game.is_over:
            saved = c.table.get("clock_plans")
            plans = dict(saved) if isinstance(saved, dict) else {}
            plan = model.plan()
            short = c.state.phase.short
            if plans.get(short) != plan or not isinstance(saved, dict):
                plans[short] = plan
                c.keep_in_table(clock_plans=plans)
        self._update_curtain_clock()
        self._feed_phones_clock()

    def _feed_phones_clock(self) -> None:
        """The window's clock on the phones, live ("Round 2 of 5" during Wilson rounds)."""
        if self.phones is None:
            return
        m = self.clock.model
        if m.period is None or m.status not in (RUNNING, PAUSED, EXPIRED) or self.controller.game.is_over:
            self.phones.show_clock("", None, False)
            return
        title = m.round_text or m.period.title
        self.phones.show_clock(title, m.remaining, m.status == RUNNING)

    # -- private notes ---------------------------------------------------------------------------------

    def _update_notes_button(self) -> None:
        s = self.flow.session
        on = self.flow.enabled and s.stage == ENTERING and not s.declaring and notes_allowed(self.controller.table)
        self.strip.notes_button.setVisible(on)
        if on:
            n = len([x for x in notes_for(self.controller.table, s.current_seat) if x.get("from") not in s.current_seat])
            self.strip.notes_button.setText(f"Notes ({n})\u2026" if n else "Notes\u2026")

    def toggle_notes(self) -> bool:
        """Allow private notes or not: a host action."""
        table = self.controller.table
        want = not notes_allowed(table)
        self.flow.step_away()
        if not self.flow.ask_host("Private notes", ("Allow" if want else "Stop") + " private notes between players?"):
            self.act_notes.setChecked(notes_allowed(table))
            return False
        self.controller.keep_in_table(notes_allowed=want)
        self.act_notes.setChecked(want)
        self.autosaver.schedule()
        if self.phones is not None:
            self.phones.host.phase_moved()  # the phones learn it (nothing else changes)
        return True

    def open_notes(self) -> NotesDialog | None:
        """The seat at the keyboard reads its notes and writes one (behind the curtain only)."""
        s = self.flow.session
        c = self.controller
        if not (self.flow.enabled and s.stage == ENTERING and notes_allowed(c.table)) or self.notes_dialog is not None:
            return None
        seat = s.current_seat

        def send(sender: str, to: list[str], text: str) -> None:
            if sender not in seat:
                raise NoteError("write from your own power")
            if self.phones is not None and self.phones.game is c.game:
                try:
                    self.phones.host.send_note(self.phones.host.token_of(sender), sender, to, text)
                except HostError as exc:
                    raise NoteError(str(exc)) from None
            else:
                c.keep_in_table(notes=with_note(c.table, c.state.phase.short, sender, to, text, c.board.power_ids))
            self.autosaver.save_now()

        dialog = NotesDialog(seat, [(p, c.board.power(p).name) for p in c.board.power_ids], c.table, send,
                             self.window)
        self.notes_dialog = dialog

        def done(_result: int) -> None:
            dialog.deleteLater()
            self.notes_dialog = None
            self._update_notes_button()

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    # -- changing a PIN mid-game (issue 20) ---------------------------------------------------------------

    def change_pin(self, *, own: bool = False) -> ChangePinDialog | None:
        """The host changes a player's PIN (a host action), or (``own``) the seat at the keyboard,
        which opened with its PIN, changes its own."""
        c = self.controller
        s = self.flow.session
        if own:
            if not (self.flow.enabled and s.stage == ENTERING and self.flow.proved and s.current_seat):
                return None
            seats = [(seat_title(c, s.current_seat), tuple(s.current_seat))]
        else:
            self.flow.step_away()
            if not self.flow.ask_host("Change a PIN", "Give a player a new PIN? The table will be told."):
                return None
            seen: set[str] = set()
            seats = []
            for p in self.flow.powers_in_play():
                seat = s.seat_of(p) if p in s.order else tuple(
                    q for q in c.board.power_ids if q == p or (c.player_name(p) and c.player_name(q) == c.player_name(p)))
                if seat[0] not in seen:
                    seen.update(seat)
                    seats.append((seat_title(c, seat), seat))

        def changed(seat: Sequence[str]) -> None:
            self.flow._sync_pins()
            text = f"{seat_title(c, seat)}'s PIN was changed" + (" by the player." if own else " by the host.")
            self.flow.tell(text)
            self.autosaver.save_now()

        dialog = ChangePinDialog(seats, c.table, self.window, done=changed)
        if own:
            dialog.setProperty("keeps_turn", True)  # the seat changes its own PIN without stepping away
        dialog.finished.connect(lambda _r: dialog.deleteLater())
        dialog.open()
        return dialog

    # -- "Use my phone…": a seat's own code on its own curtain turn ----------------------------------

    def _hosting_on(self) -> bool:
        return self.phones is not None and self.phones.game is self.controller.game and self.phones.hosting.running

    def _update_phone_button(self) -> None:
        s = self.flow.session
        # only a seat that proved itself with its PIN may carry its link away (issue 20)
        proved = self.flow.enabled and s.stage == ENTERING and self.flow.proved
        self.my_pin_button.setVisible(proved and not s.declaring)
        on = proved and self._hosting_on()
        self.strip.phone_button.setVisible(on and not s.declaring)
        form = self.flow.declarations_form  # a seat declaring writes inside the curtain: the button is there
        if form is not None:
            form.phone_button.setVisible(on and s.declaring)

    def open_my_phone(self) -> MyPhoneDialog | None:
        """The seat at the keyboard (and only it) gets its phone's code and link: one link for
        the player, whichever of its powers; the dialog closes when the turn ends."""
        s = self.flow.session
        if not (self.flow.enabled and s.stage == ENTERING and self._hosting_on() and s.current_seat
                and self.flow.proved):
            return None
        if self.my_phone_dialog is not None:
            self.my_phone_dialog.raise_()
            return self.my_phone_dialog
        assert self.phones is not None  # _hosting_on
        seat = s.current_seat
        url = f"{self.phones.hosting.base_url}/t/{self.phones.host.token_of(seat[0])}"
        dialog = MyPhoneDialog(seat, seat_title(self.controller, seat), url, self.window, has_pin=s.has_pin(seat[0]))
        self.my_phone_dialog = dialog

        def done(_result: int) -> None:
            dialog.deleteLater()
            if self.my_phone_dialog is dialog:
                self.my_phone_dialog = None

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    def _close_my_phone(self) -> None:
        if self.my_phone_dialog is not None:
            dialog, self.my_phone_dialog = self.my_phone_dialog, None
            dialog.reject()  # its code and link are cleared at once

    # -- Table ▸ Phones ------------------------------------------------------------------------------

    def show_phones(self) -> PhonesDialog:
        """The join screen: hosting on and off, one power's code at a time (a host action)."""
        self.flow.step_away()
        if self.phones_dialog is not None:
            self.phones_dialog.raise_()
            return self.phones_dialog
        board = self.controller.board
        dialog = PhonesDialog(self.phones.hosting if self.phones is not None else None, self.window,
                              switch=self, host_action=self.flow.ask_host,
                              board_powers=[(p, board.power(p).name) for p in board.power_ids])
        saved_port = self.controller.table.get(HOSTING_KEY)
        if isinstance(saved_port, int) and self.phones is None:
            dialog.port.setValue(saved_port)
        self.phones_dialog = dialog
        self.flow.stage_changed.connect(dialog.hide_when_someone_sits)

        def done(_result: int) -> None:
            dialog.deleteLater()
            self.phones_dialog = None

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    def turn_on(self, port: int, address: str | None = None) -> PhonesHosting:
        """Serve this game to the phones on ``port`` (OSError when it cannot be bound)."""
        if self.phones is not None and self.phones.game is not self.controller.game:
            self.turn_off()
        if self.phones is None:
            link = PhonesLink(self.controller, self.flow, save_now=self.autosaver.save_now,
                              address=address if address is not None else self.phones_address,
                              port=port, parent=self)
            try:
                link.start()
            except OSError:
                link.close()
                raise
            self.phones = link
            self._feed_phones_clock()
            self._update_phone_button()
            self.window.statusBar().showMessage(f"Phones: the table is at {link.hosting.base_url}/", 15000)
        return self.phones.hosting

    def turn_off(self) -> None:
        """Stop serving (the phones' links stay valid for the next time)."""
        link, self.phones = self.phones, None
        self._close_my_phone()
        self._update_phone_button()
        if link is not None:
            link.close()
            link.deleteLater()
            if self.autosaver.enabled:
                self.autosaver.save_now()

    def clock_plan(self, phase_short: str) -> list[list[object]] | None:
        """The clock a phase was (or is being) played with: [kind, title, seconds] per period."""
        plans = self.controller.table.get("clock_plans")
        plan = plans.get(phase_short) if isinstance(plans, dict) else None
        return plan if isinstance(plan, list) else None

    def _on_changed(self, record: ChangeRecord) -> None:
        c = self.controller
        if record.game:
            if self.phones is not None and self.phones.game is not c.game:
                self.turn_off()  # another game: its phones are not this one's
                if self.phones_dialog is not None:
                    self.phones_dialog.reject()
            if isinstance(c.table.get(HOSTING_KEY), int):  # said after what the opening says
                QTimer.singleShot(0, self.window, lambda: self.window.statusBar().showMessage(PHONES_WERE_ON, 60000))
            self._sync_from_table()
            if c.path is not None:
                self.recent.add(c.path)
                self.refresh_recent_menu()
        elif record.phase:
            self.clock.set_phase(c.state.phase)
            self.flow.begin_phase()
        self._update_actions()

    def _on_saved(self, path: str) -> None:
        self.recent.add(path)
        self.refresh_recent_menu()

    def _on_clock_changed(self) -> None:
        self._store_clock()
        self.autosaver.schedule()

    def write_orders(self) -> None:
        """F6 and the strip's "Write orders" end the talks like the clock's "Write orders now":
        the writing clock starts (it stayed on the talks' time, stopped at "Press Start")."""
        m = self.clock.model
        if (self.flow.enabled and self.flow.session.stage == OPEN and not self.controller.game.is_over
                and m.in_talks and any(p.kind in (DECLARATIONS, WRITING) for p in m.periods[m.index + 1:])):
            self.clock.end_talks()  # the talks (every round left) end: _on_period_ended ends them
        self.end_talks()  # no-op once the curtain is up

    def needs_declarations(self) -> bool:
        """Formal Diplomacy: this movement phase's declarations are still to be made (an undone
        adjudication keeps the declarations already revealed for its phase)."""
        c = self.controller
        state = c.state
        return (c.game.formal and state.phase.kind == MOVEMENT and not c.game.is_over
                and state.phase.short not in declared_phases(c.table))

    def end_talks(self) -> None:
        """The talks are over: in a Formal Diplomacy movement phase the declarations round first
        (behind the curtain; in the open when secrecy is off), then the orders round; otherwise
        the orders round at once."""
        if self.needs_declarations():
            if self.flow.enabled:
                self.flow.start_declarations()
            else:
                self.declare_in_the_open()
        else:
            self.flow.start_writing()

    def declare_in_the_open(self) -> OpenDeclarationsDialog | None:
        """Formal Diplomacy without hot-seat secrecy: every power declares in turn on one sheet,
        in the open; all are applied together at the end (closing the sheet applies nothing)."""
        c = self.controller
        if self.flow.enabled or not self.needs_declarations() or self.open_declarations is not None:
            return None
        relations = c.state.relations
        assert relations is not None  # needs_declarations: a Formal Diplomacy game
        survivors = [p for p in c.board.power_ids if not c.state.is_eliminated(p)]
        dialog = OpenDeclarationsDialog(self.flow.powers_to_write(), survivors, relations, c.power_name, self.window)
        self.open_declarations = dialog

        def done(result: int) -> None:
            self.open_declarations = None
            dialog.deleteLater()
            if result == QDialog.DialogCode.Accepted and self.needs_declarations():
                before, after, lines = apply_declarations(c, dialog.declarations)
                self._on_declarations_revealed(dialog.declarations, before, after)
                self.window.statusBar().showMessage(
                    "Declarations revealed: " + ("; ".join(lines) if lines else "no relation changed") + ".", 15000)
            self._update_actions()

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    def _on_period_ended(self, kind: str) -> None:
        """A period ran out (or was ended): the talks' last period (the diplomacy period, or the
        last Wilson round) ending ends the talks, and the laptop goes round."""
        if kind in TALK_KINDS and not self.clock.model.in_talks:
            self._talks_ended()
        elif kind == DECLARATIONS and self.flow.session.declaring and self.flow.session.stage != REVEALED:
            self.flow.tell("Time for declarations is up: seal them, or the host reveals now (F8).")

    def _on_clock_expired(self) -> None:
        m = self.clock.model
        if m.periods and m.periods[-1].kind in TALK_KINDS:  # no writing window: the talks' end is the clock's
            self._talks_ended()

    def _talks_ended(self) -> None:
        if self.controller.game.is_over:
            return
        if self.flow.enabled and self.flow.session.stage == OPEN:
            self.end_talks()  # talks are over: the laptop goes round (declarations first, Formal)
        elif not self.flow.enabled and self.needs_declarations():
            self.declare_in_the_open()

    def _on_declarations_revealed(self, declarations: object, before: Relations, after: Relations) -> None:
        """All declarations shown together: the table sees what changed; the orders round starts
        (and a clock on its "declarations" period moves on to the writing)."""
        m = self.clock.model
        if m.period is not None and m.period.kind == "declarations" and m.status not in (EXPIRED, OFF) \
                and m.has_next_period:
            self.clock.skip_button.click()
        c = self.controller
        if self.reveal_dialog is not None:
            self.reveal_dialog.close()
        dialog = RevealDialog(c.state.phase.label, declarations, before, after,  # type: ignore[arg-type]
                              c.board.power_ids, c.power_name, self.window)
        self.reveal_dialog = dialog

        def done(_result: int) -> None:
            if self.reveal_dialog is dialog:
                self.reveal_dialog = None
            dialog.deleteLater()

        dialog.finished.connect(done)
        dialog.open()
        self.relations_dock.refresh()

    def _show_relations_panel(self) -> None:
        """The relations panel belongs to Formal Diplomacy games: offered (View menu) and shown
        there only."""
        formal = self.controller.game.formal
        toggle = self.relations_dock.toggleViewAction()
        toggle.setVisible(formal)
        if formal and not self.flow.curtain_up:
            self.relations_dock.show()
        elif not formal:
            self.relations_dock.hide()

    def _on_stage_changed(self, stage: str) -> None:
        if stage != ENTERING and self.notes_dialog is not None:
            self.notes_dialog.reject()  # the seat stepped away or sealed: its notes go with it
        if self.my_phone_dialog is not None and (stage != ENTERING
                                                 or self.my_phone_dialog.seat != self.flow.session.current_seat):
            self._close_my_phone()  # the seat's turn ended: its code goes with it
        if stage in (CURTAIN, READY) and not self.window.view.fitted:
            self.window.view.fit_to_window()  # the next power finds the whole board, not the last one's zoom
        self._update_notes_button()
        self._update_phone_button()
        self._update_actions()
        self._update_curtain_clock()
        self.autosaver.schedule()

    def _update_curtain_clock(self) -> None:
        m = self.clock.model
        if not self.flow.curtain_up or m.period is None or m.status not in (RUNNING, PAUSED, EXPIRED):
            self.flow.curtain.set_clock_text("")
            return
        if m.status == EXPIRED:
            self.flow.curtain.set_clock_text("Time is up: declarations are due" if self.flow.session.declaring
                                             else "Time is up: orders are due")
            return
        what = {WRITING: "to write orders", DECLARATIONS: "for declarations"}.get(m.period.kind, "left")
        if self.flow.session.declaring:
            what = "to declare" if m.period.kind == DECLARATIONS else \
                ("to declare, then write orders" if m.period.kind == WRITING else "left")
        paused = " (paused)" if m.status == PAUSED else ""
        label = m.round_text or "Clock"  # "Round 2 of 5: 3:12 left" during Wilson rounds
        self.flow.curtain.set_clock_text(f"{label}: {m.remaining_text} {what}{paused}")

    def _update_actions(self) -> None:
        s = self.flow.session
        on = self.flow.enabled
        over = self.controller.game.is_over
        self.act_write.setEnabled(on and s.stage == OPEN and not over)
        self.act_seal.setEnabled(on and s.stage == ENTERING)
        self.act_reveal.setEnabled(not over)
        self._word_phase_actions()
        self.act_draw.setEnabled(not over)
        self.act_declare.setVisible(self.controller.game.formal)
        self.act_declare.setEnabled(not on and self.needs_declarations())
        self.act_disorder.setEnabled(not over)
        self.act_clock.setEnabled(self.clock.start_button.isEnabled())

    def _word_phase_actions(self) -> None:
        """F6, F7 and F8 say what they do in this round: a Formal Diplomacy movement phase's
        declarations round seals and reveals declarations, not orders."""
        s = self.flow.session
        declarations_next = self.needs_declarations()
        declaring = self.flow.enabled and s.declaring and s.stage != REVEALED and declarations_next
        if declarations_next and self.flow.enabled:
            write = ("&Declarations, then orders (end the talks)",
                     "Pass the laptop round: each power declares behind the curtain, then writes its orders")
        elif declarations_next:
            write = ("&Declarations, then orders (end the talks)",
                     "Each power declares in turn, in the open; then the orders")
        else:
            write = ("&Write orders (end the talks)",
                     "Pass the laptop round: each power writes its orders behind the curtain")
        seal = (("&Seal my declarations", "Seal the declarations written behind the curtain") if declaring else
                ("Review and &seal my orders\u2026", "Review the orders written behind the curtain, then seal them"))
        reveal = (("&Reveal all declarations\u2026",
                   "Show every power's declarations together when all have sealed; the host may force it")
                  if declaring else
                  ("&Reveal and adjudicate\u2026", "When all have sealed; the host may force it"))
        for action, (text, tip) in ((self.act_write, write), (self.act_seal, seal), (self.act_reveal, reveal)):
            action.setText(text)
            action.setToolTip(text.replace("&", "").rstrip("\u2026"))
            action.setStatusTip(tip)
        # the strip's F6 button too: in a Formal Diplomacy movement phase the declarations come first
        self.strip.write_button.setText("Declarations, then orders" if declarations_next else "Write orders")
        self.strip.write_button.setToolTip("End the talks: pass the laptop round behind the curtain, "
                                           + ("for the declarations first, then the orders" if declarations_next
                                              else "for the orders"))

    # -- the clock's settings during a game -------------------------------------------------------

    def edit_clock_settings(self) -> ClockSettingsDialog:
        """Table ▸ Clock settings (never blocks): Wilson rounds on or off, M, the minutes."""
        if self.clock_dialog is not None:
            self.clock_dialog.close()
        started = not self._clock_untouched()
        note = ("This phase's clock has started: it keeps its plan, and the new settings apply from the next "
                "phase." if started else "")
        dialog = ClockSettingsDialog(self.table_settings.clock, self.window, note=note)
        self.clock_dialog = dialog

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.apply_clock_settings(dialog.settings())
            dialog.deleteLater()
            self.clock_dialog = None

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    def _clock_untouched(self) -> bool:
        m = self.clock.model
        return m.status in (IDLE, OFF) and m.index == 0 and m.plan() == [
            [p.kind, p.title, p.seconds] for p in m.settings.periods_for(self.controller.state.phase,
                                                                         formal=m.formal)]

    def apply_clock_settings(self, settings: ClockSettings) -> None:
        """The table's clock from now on.  A phase whose clock has not started is planned again
        with it; one under way keeps its plan (its rounds, the minutes added) to its end."""
        untouched = self._clock_untouched()
        self.controller.update_table(clock=settings.to_dict())
        if untouched and not self.controller.game.is_over:
            self.clock.set_settings(settings, self.controller.state.phase)
        else:
            self.clock.model.settings = settings
            self.clock.refresh()
        self._on_clock_changed()

    # -- actions ---------------------------------------------------------------------------------

    def adjudicate(self) -> None:
        """Ctrl+Return: with secrecy, reveal (all sealed) or the host's forced reveal; else the
        window's own adjudication."""
        if self.controller.game.is_over:
            self.window.adjudicate()  # says the game is over
            return
        if not self.flow.enabled and self.needs_declarations() and self.flow.confirm(
                self.window, "Declarations first?",
                "This phase's declarations (Formal Diplomacy) have not been made. Make them now, before "
                "adjudicating? (No: adjudicate with the relations as they are.)"):
            self.declare_in_the_open()
        elif not self.flow.enabled or self.flow.session.stage == REVEALED:
            self.window.adjudicate()
        elif self.flow.session.stage == READY:
            self.flow.reveal()
        else:
            self.flow.force_reveal()

    def unrevealed_summary(self) -> str:
        """Who has sealed or written orders that are not revealed yet ("" when nobody has)."""
        c = self.controller
        s = self.flow.session
        if s.stage == REVEALED or s.phase != c.state.phase.short:
            return ""
        sealed = [c.power_name(p) for p in s.order if p in s.sealed]
        written = [c.power_name(p) for p in c.board.power_ids if p not in s.sealed and c.game.orders_of(p)]
        parts = []
        if sealed:
            parts.append(("Declarations sealed: " if s.declaring else "Sealed: ") + ", ".join(sealed) + ".")
        if written:
            parts.append("Written, not sealed: " + ", ".join(written) + ".")
        return " ".join(parts)

    def toggle_secrecy(self) -> bool:
        """Table ▸ Hot-seat secrecy, a host action.  Lifting it while orders are sealed or written
        asks the table "Reveal all sealed orders now?" (No: nothing is lifted).  Restoring it
        unseals nobody and keeps the phase where it is, and says where that is."""
        f = self.flow
        on = not self.secrecy
        self.act_secrecy.setChecked(self.secrecy)  # until it is done
        if not on:
            f.step_away()
            if not f.ask_host("Lift secrecy", "Turn hot-seat secrecy off? Every power's orders will be "
                                              "shown to everyone at the table."):
                return False
            hidden = self.unrevealed_summary()
            if hidden and not f.confirm(self.window, "Reveal all sealed orders now?",
                                        f"Reveal all sealed orders now?\n\n{hidden}\n\nEveryone at the table will "
                                        "see them. If the table says No, secrecy stays on and nothing is shown."):
                f.tell("Secrecy stays on: nothing was revealed.")
                return False
            f.step_away()
            f.reveal_declarations_now()  # Formal Diplomacy: sealed declarations are revealed with the rest
        elif not f.ask_host("Restore secrecy", "Turn hot-seat secrecy back on? Nobody is unsealed and the phase "
                                               "goes on where it is; orders are hidden again."):
            return False
        self.controller.update_table(secrecy=on)
        f.set_enabled(on)
        self.act_secrecy.setChecked(on)
        self._update_actions()
        if not on:
            f.tell("Hot-seat secrecy is off: every power's orders are shown.")
        elif f.session.stage == OPEN:
            f.tell("Hot-seat secrecy is on: the talks go on; Write orders (F6) when they end.")
        elif f.session.stage in (CURTAIN, READY):
            sealed = ", ".join(self.controller.power_name(p) for p in f.session.order if p in f.session.sealed)
            f.tell("Hot-seat secrecy is on again: the orders are being written"
                   + (f" (still sealed: {sealed})." if sealed else "."))
        return True

    def game_in_progress(self) -> bool:
        c = self.controller
        return not c.game.is_over and bool(c.game.history or c.game.all_orders())

    def may_end_game(self, title: str) -> bool:
        """Replacing a game in progress ends it: a host action."""
        if not self.game_in_progress():
            return True
        phase = self.controller.state.phase.label
        return self.flow.ask_host(title, f"{title}? The game in progress ({phase}) ends here; "
                                         "save it first if the table wants to come back to it.")

    def new_game(self) -> None:
        """Ctrl+N: the host's say, save?, then the New Game settings (standard ones filled in)."""
        self.flow.step_away()
        if not self.may_end_game("Start a new game"):
            return
        if not self.window.maybe_save():
            return
        self.offer_new_game()

    def open_dialog(self) -> None:
        """Ctrl+O: the host's say when a game is in progress, then the window's Open dialog."""
        self.flow.step_away()
        if self.may_end_game("Open another game"):
            self.window.open_dialog()

    def undo_adjudication(self) -> bool:  # type: ignore[override]  # tells whether it was undone
        """Take back the last adjudication: a host action."""
        c = self.controller
        last = c.last_entry
        if last is None:
            self.window.statusBar().showMessage("Nothing has been adjudicated yet.", 4000)
            return False
        self.flow.step_away()
        if not self.flow.ask_host("Undo the last adjudication",
                                  f"Take back the adjudication of {last.state.phase.label}? "
                                  "Its orders come back and can be changed."):
            return False
        if self.flow.enabled and not self.flow.confirm(
                self.window, "Reopen all?",
                f"Reopen every power's orders of {last.state.phase.label}? Yes: reopen all, and every power "
                "writes again. No (the default): each power's orders come back sealed as they were, ready to be "
                "revealed again; a power may still reopen its own."):
            self.flow.keep_seals_on_take_back()
        return c.undo_adjudication() is not None

    def offer_new_game(self, initial: TableSettings | None = None) -> NewGameDialog:
        """Show the New Game dialog without blocking; "Start game" starts it."""
        board = self.controller.board
        if initial is None:
            current = self.table_settings  # the same people, clock and secrecy; never the PINs
            initial = TableSettings(current.powers, dict(current.players), current.edition, None, current.clock,
                                    current.secrecy, formal=current.formal, short_game_by=current.short_game_by,
                                    notes=current.notes)
        dialog = NewGameDialog(board, initial, self.window)
        self.new_game_dialog = dialog

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.start_new_game(dialog.settings())
                if dialog.board_call is not None:  # the tournament's player ids (a board call)
                    self.controller.update_table(player_ids=dialog.board_call.player_ids)
            dialog.deleteLater()
            self.new_game_dialog = None

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    def start_new_game(self, settings: TableSettings | None = None) -> None:
        s = settings if settings is not None else TableSettings()
        self.controller.new_game(s.edition, s.end_year, table=s.to_table(), formal=s.formal,
                                 short_game_by=s.short_game_by)
        if s.secrecy and s.passphrase:  # the unrevealed part of every save is written encrypted
            self.controller.vault = Vault.create(s.passphrase)
        self.window.view.fit_to_window()
        self.autosaver.save_now()

    def propose_draw(self) -> DrawVoteDialog | None:
        c = self.controller
        if c.game.is_over:
            return None
        survivors = c.state.surviving_powers()  # eliminated powers are neither asked nor counted
        in_play = self.flow.powers_in_play()
        marked = c.marked_disorder()
        # one vote per player: a player with several surviving powers votes once for all of them
        voters: list[str] = []
        seats: dict[str, list[str]] = {}
        for p in survivors:
            if p not in in_play or p in marked:
                continue
            key = c.player_name(p) or f"\0{p}"
            if key not in seats:
                voters.append(p)
            seats.setdefault(key, []).append(p)
        self.flow.step_away()  # the writer's orders are covered before the laptop goes round
        names: dict[str, str] = {}
        for p in voters:
            seat = seats[c.player_name(p) or f"\0{p}"]
            player = c.player_name(p)
            powers = join_names([c.power_name(q) for q in seat])
            names[p] = f"{player} \u2014 {powers}" if player and len(seat) > 1 else (
                powers + (f" ({player})" if player else ""))
        table_pins = c.table.get("pins")
        pins = {p: h for p, h in table_pins.items() if p in voters} if isinstance(table_pins, dict) else {}
        for p in voters:  # a player's PIN (any of their powers' PINs)
            seat = seats[c.player_name(p) or f"\0{p}"]
            if p not in pins and isinstance(table_pins, dict):
                found = next((table_pins[q] for q in seat if q in table_pins), None)
                if found is not None:
                    pins[p] = found
        dialog = DrawVoteDialog(voters, self.window, names=names, pins=pins, guard=PinGuard(c.table))
        self.draw_dialog = dialog

        def done(_result: int) -> None:
            if dialog.accepted_draw:
                shared = ", ".join(c.power_name(p) for p in survivors)
                if self.flow.ask_host("End the game in a draw",
                                      f"Every surviving player accepted. End the game now, as a draw shared by "
                                      f"{shared}?"):
                    self.declare_draw(survivors)
            dialog.deleteLater()
            self.draw_dialog = None

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    # -- civil disorder (rules XIV.1) ----------------------------------------------------------------

    def edit_disorder(self) -> CivilDisorderDialog | None:
        """Table ▸ Civil disorder…: the host marks the powers whose player has left (a host action,
        asked when the marks change)."""
        c = self.controller
        if c.game.is_over:
            return None
        self.flow.step_away()
        powers = [p for p in self.flow.powers_in_play() if not c.state.is_eliminated(p)]
        names = {p: n for p in powers if (n := c.player_name(p))}
        dialog = CivilDisorderDialog(c.board, powers, sorted(c.marked_disorder()), names, self.window)
        self.disorder_dialog = dialog

        def done(result: int) -> None:
            if result == QDialog.DialogCode.Accepted:
                self.set_disorder(dialog.marked())
            dialog.deleteLater()
            self.disorder_dialog = None

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    def set_disorder(self, marked: list[str]) -> bool:
        """Mark exactly ``marked`` as in civil disorder (a host action); the curtain round goes on
        without them (or with them again), and the table is told."""
        c = self.controller
        before = c.marked_disorder()
        after = frozenset(marked)
        if after == before:
            return False
        added = [c.power_name(p) for p in c.board.power_ids if p in after - before]
        removed = [c.power_name(p) for p in c.board.power_ids if p in before - after]
        ask = " ".join(part for part in (
            f"Mark {join_names(added)} as in civil disorder (the player has left)?" if added else "",
            f"End the civil disorder of {join_names(removed)} (the player is back)?" if removed else "") if part)
        if not self.flow.ask_host("Civil disorder", ask):
            return False
        c.update_table(disorder=[p for p in c.board.power_ids if p in after])
        self.flow.update_writers()
        told = " ".join(part for part in (
            f"{join_names(added)}: civil disorder (the player has left) \u2014 units hold, left out of the round."
            if added else "",
            f"{join_names(removed)}: back in play, writes orders again." if removed else "") if part)
        self.flow.tell(told)
        self.strip.show_session(self.flow.session, secrecy=self.flow.enabled)
        return True

    def declare_draw(self, powers: list[str]) -> None:
        self.controller.declare_draw(powers)

    def show_game_over(self, end: GameEnd) -> GameOverDialog:
        c = self.controller
        names = {p: n for p in c.board.power_ids if (n := c.player_name(p))}
        self.clock.model.pause()
        self.clock.refresh()
        if self.game_over_dialog is not None:
            self.game_over_dialog.close()
        dialog = GameOverDialog(end, c.state, self.window, names=names)
        self.game_over_dialog = dialog

        def done(result: int) -> None:
            self.game_over_dialog = None
            dialog.deleteLater()
            if result == GameOverDialog.NEW_GAME:
                self.new_game()

        dialog.finished.connect(done)
        dialog.open()
        return dialog

    # -- files -------------------------------------------------------------------------------------

    def refresh_recent_menu(self) -> None:
        self.recent.fill_menu(self.window.recent_menu, self.open_recent)

    def open_recent(self, path: object) -> bool:
        self.flow.step_away()
        if not self.may_end_game("Open another game"):
            return False
        if not self.window.maybe_save():
            return False
        ok = open_game_file(self.controller, str(path), parent=self.window, message=self.message,
                            recent=self.recent, prompt=self.passphrase_prompt)
        self.refresh_recent_menu()
        if ok:
            self.window.view.fit_to_window()
        return ok

    def check_autosave(self) -> DamagedAutosave | None:
        """At start-up, before anything is autosaved: remove what a kill mid-write left behind,
        and keep an autosave that cannot be read aside (renamed, never overwritten), telling
        the table where it is.  The app always starts."""
        autosave = self.autosaver.autosave
        autosave.clean_temp_files()
        damaged = autosave.set_aside_if_damaged()
        if damaged is not None:
            self.message(self.window, "The autosave is damaged", damaged.text)
        return damaged

    def first_start(self) -> None:
        """At start-up (no file given): offer to resume an unfinished game; on the very first
        start, offer the New Game settings (Enter starts the standard game).  Never blocks."""
        info = self.autosaver.autosave.info()
        if info is not None:
            box = resume_box(self.window, info)
            self.resume_offer = box
            self.autosaver.enabled = False  # the unfinished game stays on disk until the table answers

            def done(_result: int) -> None:
                self.autosaver.enabled = True
                if box.clickedButton() is box.resume_button:  # type: ignore[attr-defined]
                    resume_from_autosave(self.controller, self.autosaver.autosave, parent=self.window,
                                         message=self.message, prompt=self.passphrase_prompt)
                    self.window.view.fit_to_window()
                self.resume_offer = None
                box.deleteLater()

            box.finished.connect(done)
            box.open()
            return
        if not self.settings.value(FIRST_START_KEY, False, type=bool):
            self.settings.setValue(FIRST_START_KEY, True)
            QTimer.singleShot(0, lambda: self.offer_new_game(TableSettings()))


def install_table_features(window: WindowShell, **options: object) -> TableFeatures:
    """Make the table game ``window``'s mode (kept as ``window.mode`` and ``window.table_features``)."""
    features = TableFeatures(window, **options)  # type: ignore[arg-type]
    window.install_feature("table_features", features)
    window.set_mode(features)
    from .tournament import install_tournament

    window.install_feature("tournament", install_tournament(features))
    return features


__all__ = ["FIRST_START_KEY", "TableFeatures", "install_table_features"]
