"""The Table menu and what it sets going: the end of the talks and the curtain's rounds (Formal
Diplomacy's declarations first), the clock kept in the table and on the curtain, the clock's
settings, hot-seat secrecy, private notes, changing a PIN, civil disorder (rules XIV.1).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QMenu

from ....engine.formal import Relations
from ....engine.state import MOVEMENT, Phase
from ....table.changes import HOST, LAPTOP
from ....table.declarations import declared_phases
from ....table.hotseat import CURTAIN, ENTERING, OPEN, READY, REVEALED
from ....table.notes import NoteError, notes_allowed, notes_for
from ...keys import add_menu_before_help, menu_action
from ....table.clock import (DECLARATIONS, EXPIRED, IDLE, OFF, PAUSED, RUNNING, TALK_KINDS, WRITING,
                             ClockModel, ClockSettings)
from ..hotseat.names import seat_title
from .base import TableModeBase
from ...widgets import accepted, open_kept

if TYPE_CHECKING:  # the dialogs are loaded when they are first opened, not at every start
    from ..declarations import OpenDeclarationsDialog
    from ..dialogs.clock_settings import ClockSettingsDialog
    from ..notes import NotesDialog
    from ..computer_seats import ComputerSeatsDialog
    from ..pin_change import ChangePinDialog
    from ..seating import CivilDisorderDialog


class TableActions(TableModeBase):
    """The Table menu and what the clock, the curtain and the declarations set going."""

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
        self.act_computer = act("Comp&uter seats\u2026", self.edit_computer_seats,
                                tip="The host hands a power to the computer (a player left), or back to a person")
        self.act_hint = act("What would the computer &do here?", lambda: self.practice_play.hint(), "Ctrl+H",
                            "A practice game: the computer's orders for your power, as a suggestion (entered "
                            "only if you use them)")
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
        # Game ▸ New practice game…, after New game (issue 33)
        self.act_practice = menu_action(w, w.game_menu, "New &practice game\u2026", self.new_practice_game,
                                        tip="Practice: you against the computer (you play one power, the "
                                            "computer the other six)")
        w.game_menu.removeAction(self.act_practice)
        w.game_menu.insertAction(w.act_open, self.act_practice)
        add_menu_before_help(w.menuBar(), menu)

    # -- the clock, kept in the table ----------------------------------------------------------------

    def _restore_clock(self) -> None:
        c = self.controller
        table = c.table
        settings = table.clock_settings()
        phase = c.state.phase
        formal = bool(c.game.formal)
        model: ClockModel | None = None
        saved = table.clock_state
        if saved is not None and saved.phase == phase.label and not c.game.is_over:
            try:
                model = ClockModel.from_dict(saved.to_dict(), now=self.now)
                model.settings = settings
                model.formal = formal
                model.writers = self._writers_counter()
            except ValueError:
                model = None
        if model is None:
            model = ClockModel.for_phase(phase, settings, now=self.now, formal=formal, writers=self._writers_counter())
        self.clock.set_model(model)
        self._store_clock()

    def _writers_counter(self) -> Callable[[Phase], int]:
        """:meth:`writers_at_table` for the clock's model, without the model keeping the table's
        features alive (a model outliving them counts one writer)."""
        method = weakref.WeakMethod(self.writers_at_table)

        def count(phase: Phase) -> int:
            writers = method()
            return writers(phase) if writers is not None else 1

        return count

    def writers_at_table(self, phase: Phase) -> int:
        """How many powers write behind the curtain in ``phase`` (the writing window is per power):
        those that owe orders, played, not in civil disorder, not the computer's (it writes at
        once).  The phase is the game's current one when the clock plans it."""
        c = self.controller
        if phase != c.state.phase:
            return len(self.flow.powers_in_play())
        computer = self.flow.computer_seats()
        return len([p for p in self.flow.powers_to_write() if p not in computer])

    def _store_clock(self) -> None:
        c = self.controller
        model = self.clock.model
        c.service.keep_clock(model.to_dict())
        if model.periods and not c.game.is_over:
            saved = c.table.clock_plans
            plan = model.plan()
            short = c.state.phase.short
            if saved is None or saved.plan(short) != plan:
                c.service.keep_clock_plan(short, plan)
        self._update_curtain_clock()
        self._feed_phones_clock()

    # -- private notes ---------------------------------------------------------------------------------

    def _update_notes_button(self) -> None:
        s = self.flow.session
        on = self.flow.enabled and s.stage == ENTERING and not s.declaring and notes_allowed(self.controller.table)
        self.strip.notes_button.setVisible(on)
        if on:
            n = len([x for x in notes_for(self.controller.table, s.current_seat) if x.sender not in s.current_seat])
            self.strip.notes_button.setText(f"Notes ({n})\u2026" if n else "Notes\u2026")

    def toggle_notes(self) -> bool:
        """Allow private notes or not: a host action."""
        table = self.controller.table
        want = not notes_allowed(table)
        self.flow.step_away()
        if not self.flow.ask_host("Private notes", ("Allow" if want else "Stop") + " private notes between players?"):
            self.act_notes.setChecked(notes_allowed(table))
            return False
        self.controller.service.keep_notes_allowed(want)
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
                from ....host.table import HostError  # loaded with the phones

                try:
                    self.phones.host.send_note(self.phones.host.token_of(sender), sender, to, text)
                except HostError as exc:
                    raise NoteError(str(exc)) from None
            else:
                c.service.send_note(sender, to, text, initiator=LAPTOP)  # on disk by the service's write
            self.autosaver.save_now()

        from ..notes import NotesDialog  # the dialog's module: when first opened

        dialog = NotesDialog(seat, [(p, c.board.power(p).name) for p in c.board.power_ids], c.table, send,
                             self.window)

        def finished(_result: int) -> None:
            self._update_notes_button()

        open_kept(self, "notes_dialog", dialog, finished)
        return dialog

    # -- changing a PIN mid-game (issue 20) ---------------------------------------------------------------

    def change_pin(self, *, own: bool = False) -> ChangePinDialog | None:
        """The host changes a player's PIN (a host action), or (``own``) the seat at the keyboard,
        which opened with its PIN, changes its own."""
        from ..pin_change import ChangePinDialog

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

        dialog = ChangePinDialog(seats, c.service, self.window, done=changed, initiator=LAPTOP if own else HOST)
        if own:
            dialog.setProperty("keeps_turn", True)  # the seat changes its own PIN without stepping away
        dialog.finished.connect(lambda _r: dialog.deleteLater())
        dialog.open()
        return dialog

    def clock_plan(self, phase_short: str) -> list[list[object]] | None:
        """The clock a phase was (or is being) played with: [kind, title, seconds] per period."""
        plans = self.controller.table.clock_plans
        return plans.plan(phase_short) if plans is not None else None

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
        from ..declarations import OpenDeclarationsDialog, apply_declarations  # Formal Diplomacy's sheets

        relations = c.state.relations
        assert relations is not None  # needs_declarations: a Formal Diplomacy game
        survivors = [p for p in c.board.power_ids if not c.state.is_eliminated(p)]
        dialog = OpenDeclarationsDialog(self.flow.powers_to_write(), survivors, relations, c.power_name, self.window)

        def finished(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and self.needs_declarations():
                before, after, lines = apply_declarations(c, dialog.declarations)
                self._on_declarations_revealed(dialog.declarations, before, after)
                self.window.statusBar().showMessage(
                    "Declarations revealed: " + ("; ".join(lines) if lines else "no relation changed") + ".", 15000)
            self._update_actions()

        open_kept(self, "open_declarations", dialog, finished)
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
        elif m.periods and m.periods[-1].kind == WRITING:
            self._writing_time_up()

    def writing_time_up_words(self) -> tuple[str, str]:
        """At the end of the writing window: (the clock's short note, what the table is told).

        Who has not sealed and what happens next: the host reveals now (F8, or the clock's
        "Reveal now") and their units hold, or gives more time (+1 min).  With an event's rules
        the tournament's late-order rule is said by the tournament (a warning, or void after the
        grace): the clock's note says who is late, the rest is the event's."""
        c = self.controller
        if c.game.is_over or c.state.phase.kind != MOVEMENT:
            return "", ""
        session = self.flow.session
        if not self.flow.enabled:
            return ("Time is up \u2014 Reveal now, or +1 min",
                    ("Time is up for writing orders: the host reveals and adjudicates now (F8), "
                     "or gives more time (+1 min)."))
        if session.stage == REVEALED:
            return "", ""
        waiting = [c.power_name(p) for p in session.waiting]
        if not waiting:
            return ("Time is up \u2014 all sealed: Reveal now",
                    "Time is up: every power has sealed. The host reveals and adjudicates now (F8).")
        names = ", ".join(waiting)
        note = f"Time is up \u2014 not sealed: {names}"
        if c.table.event is not None:  # the event's late-order rule is said
            return note, ""
        told = (f"Time is up for writing orders. Not sealed yet: {names}. What happens next: the host "
                "reveals now (F8, or \u201cReveal now\u201d on the clock): what they wrote counts, a power "
                "with no orders is in civil disorder and its units hold (rules XIV.1); or the host gives "
                "them more time (+1 min on the clock).")
        return note + ". Reveal now (unordered units hold) or +1 min", told

    def _writing_time_up(self) -> None:
        """The writing window ran out: never a silent "TIME IS UP" (issue 34, finding 3)."""
        note, told = self.writing_time_up_words()
        self.clock.set_time_up_note(note)
        if told:
            self.flow.tell(told)
            curtain = self.flow.curtain
            if curtain.isVisible():  # all of it, wrapped, where the one-line message is cut off
                curtain.error_label.clear()
                waiting = ", ".join(self.controller.power_name(p) for p in self.flow.session.waiting)
                curtain.notice_label.setText(f"Not sealed yet: {waiting}. The host reveals now (F8): units "
                                             "without orders hold (civil disorder, XIV.1); or gives more time "
                                             "(+1 min).")
                curtain.notice_label.show()

    def _on_reveal_requested(self) -> None:
        """The host's choice at time up, from the clock: reveal now (asks the host, as F8 does)."""
        self.clock.stop_flashing()
        self.adjudicate()

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
        from ..declarations import RevealDialog

        dialog = RevealDialog(c.state.phase.label, declarations, before, after,  # type: ignore[arg-type]
                              c.board.power_ids, c.power_name, self.window)
        open_kept(self, "reveal_dialog", dialog)
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
                                             else "Time is up: the host reveals now or gives more time")
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
        people = self.flow.practice is None  # a practice game has one person: no table's seats to change
        self.act_write.setEnabled(on and s.stage == OPEN and not over)
        self.act_seal.setEnabled(on and s.stage == ENTERING)
        self.act_reveal.setEnabled(not over)
        self._word_phase_actions()
        self.act_draw.setEnabled(not over)
        self.act_declare.setVisible(self.controller.game.formal)
        self.act_declare.setEnabled(not on and self.needs_declarations())
        self.act_disorder.setEnabled(not over and people)
        self.act_computer.setEnabled(not over and people)
        self.act_secrecy.setEnabled(people)
        self.act_change_pin.setEnabled(people)  # a practice game has no PINs ...
        self.act_notes.setEnabled(people)  # ... and nobody to write a note to
        self.act_hint.setEnabled(not over and not people)
        if self.clock.game_over != over:
            self.clock.game_over = over
            self.clock.refresh()
        self.act_clock.setEnabled(self.clock.start_button.isEnabled())

    def new_practice_game(self) -> None:
        """Game ▸ New practice game…: the host's say and save? as for New, then the practice dialog."""
        self.flow.step_away()
        if not self.may_end_game("Start a practice game") or not self.window.maybe_save():
            return
        self.practice_play.offer()

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
        from ..dialogs.clock_settings import ClockSettingsDialog

        if self.clock_dialog is not None:
            self.clock_dialog.close()
        started = not self._clock_untouched()
        note = ("This phase's clock has started: it keeps its plan, and the new settings apply from the next "
                "phase." if started else "")
        dialog = ClockSettingsDialog(self.table_settings.clock, self.window, note=note)
        open_kept(self, "clock_dialog", dialog, accepted(lambda: self.apply_clock_settings(dialog.settings())))
        return dialog

    def _clock_untouched(self) -> bool:
        m = self.clock.model
        return m.status in (IDLE, OFF) and m.index == 0 and m.plan() == [
            [p.kind, p.title, p.seconds] for p in m.planned_periods(self.controller.state.phase)]

    def apply_clock_settings(self, settings: ClockSettings) -> None:
        """The table's clock from now on.  A phase whose clock has not started is planned again
        with it; one under way keeps its plan (its rounds, the minutes added) to its end."""
        untouched = self._clock_untouched()
        self.controller.service.set_clock(settings, initiator=LAPTOP)
        if untouched and not self.controller.game.is_over:
            self.clock.set_settings(settings, self.controller.state.phase)
        else:
            self.clock.model.settings = settings
            self.clock.refresh()
        self._on_clock_changed()

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
        self.controller.service.set_secrecy(on, initiator=LAPTOP)
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

    # -- civil disorder (rules XIV.1) ----------------------------------------------------------------

    def edit_disorder(self) -> CivilDisorderDialog | None:
        """Table ▸ Civil disorder…: the host marks the powers whose player has left (a host action,
        asked when the marks change)."""
        from ..seating import CivilDisorderDialog

        c = self.controller
        seats = self._seats_in_play()
        if seats is None:
            return None
        dialog = CivilDisorderDialog(c.board, seats[0], sorted(c.marked_disorder()), seats[1], self.window)
        open_kept(self, "disorder_dialog", dialog, accepted(lambda: self.set_disorder(dialog.marked())))
        return dialog

    def _seats_in_play(self) -> tuple[list[str], dict[str, str]] | None:
        """The curtain steps away; the powers still in play, and their players' names (None when the
        game is over: there are no seats to change)."""
        c = self.controller
        if c.game.is_over:
            return None
        self.flow.step_away()
        powers = [p for p in self.flow.powers_in_play() if not c.state.is_eliminated(p)]
        return powers, {p: n for p in powers if (n := c.player_name(p))}

    def set_disorder(self, marked: list[str]) -> bool:
        """Mark exactly ``marked`` as in civil disorder (a host action); the curtain round goes on
        without them (or with them again), and the table is told."""
        from ....table.seating import join_names

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
        c.service.set_disorder(after, initiator=LAPTOP)
        self.flow.update_writers()
        told = " ".join(part for part in (
            f"{join_names(added)}: civil disorder (the player has left) \u2014 units hold, left out of the round."
            if added else "",
            f"{join_names(removed)}: back in play, writes orders again." if removed else "") if part)
        self.flow.tell(told)
        self.strip.show_session(self.flow.session, secrecy=self.flow.enabled)
        return True

    # -- computer seats (issue 33) --------------------------------------------------------------------

    def edit_computer_seats(self) -> ComputerSeatsDialog | None:
        """Table ▸ Computer seats…: the host hands powers to the computer or back (a host action,
        asked when the seats change)."""
        from ..computer_seats import ComputerSeatsDialog

        seats = self._seats_in_play()
        if seats is None:
            return None
        dialog = ComputerSeatsDialog(self.controller.board, seats[0], self.flow.computer_seats(), seats[1],
                                     self.window)
        open_kept(self, "computer_dialog", dialog, accepted(lambda: self.set_computer_seats(dialog.choice())))
        return dialog

    def set_computer_seats(self, choice: dict[str, str]) -> bool:
        """The computer plays exactly ``choice`` (power -> level) from now on: a host action; the
        table is told who was handed over."""
        from ....table.computer import LEVEL_WORDS
        from ....table.seating import join_names

        c = self.controller
        before = self.flow.computer_seats()
        if choice == before:
            return False
        given = [p for p in c.board.power_ids if p in choice and before.get(p) != choice[p]]
        back = [p for p in c.board.power_ids if p in before and p not in choice]
        words = [f"{c.power_name(p)} to the computer ({LEVEL_WORDS.get(choice[p], choice[p])})" for p in given]
        words += [f"{c.power_name(p)} back to a person" for p in back]
        if not self.flow.ask_host("Computer seats", f"Hand {join_names(words)}? The table will be told."):
            return False
        self.flow.set_computer_seats(choice)
        told = f"The host handed {join_names(words)}."
        self.flow.service.tell_table(told, initiator=HOST)
        self.flow.tell(told)
        self.strip.show_session(self.flow.session, secrecy=self.flow.enabled)
        self._update_actions()
        return True
