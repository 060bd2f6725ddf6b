"""Hot-seat secrecy, the Qt side: one laptop, each power writes its orders in turn behind a curtain.

The turn itself (open, curtain, entering, ready, revealed; who writes next; PINs; the host's
notices) is ``table.hotseat.HotSeatSession``, plain Python; its module says how the cycle goes.

``HotSeatFlow`` keeps a session, drives the controller's secrecy hook (``set_view``: who may be
seen and who is at the keyboard, one record), and shows the ``CurtainWidget`` (``curtain.py``),
the ``ReviewDialog`` (``review.py``) and the ``SealStatusStrip`` (``seal_strip.py``).  Its seals
are operations of the table's ``TableSession`` (``table_session``), the one record the phone host
reads too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QApplication, QDialog, QDockWidget, QMessageBox, QWidget

from ....engine.options import orders_needed
from ....io.notation import format_order
from ....io.pins import is_pin_hash, pin_matches
from ....table import sealcodes
from ....table.changes import COMPUTER
from ....engine.orders import Order
from ....table.computer import (computer_declarations, computer_seats,
                                computer_seed, draw_computer_seed, seat_words)
from ....table.declarations import pending_declarations
from ....table.practice import practice_power
from ....table.hotseat import (CURTAIN, ENTERING, HOTSEAT_KEY, NO_HOST_PIN, OPEN, READY, REVEALED,
                               HotSeatError, HotSeatSession)
from ....table.pins import HOST, PinGuard, PinWaitError
from ....table.parts import text_entries
from ....table.service import TableService
from ....table.session import LAPTOP, TableSession
from ... import override
from ..computer_worker import ComputerThinker
from .curtain import CurtainWidget
from .names import _sentence, seat_title
from .pin_prompt import ask_host_pin, ask_power_pin
from .seal_strip import SealStatusStrip
from ...widgets import connect_all

if TYPE_CHECKING:
    from .review import ReviewDialog
    from ...controller import GameController
    from ..declarations import DeclarationsForm


# -- the flow ------------------------------------------------------------------------------------

Confirm = Callable[[QWidget, str, str], bool]
HostPrompt = Callable[[QWidget, str, str], "str | None"]  # parent, title, text -> typed PIN or None
_BY_HOST = "\0host"  # (HotSeatFlow._out_of_turn_pin: the host PIN was right and the host reopens)
_HOST_THEN_OWN = "\0host, then the power"  # (the host PIN was right; the power's PIN comes next)


def _ask(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(parent, title, text,
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                  QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def _is_review(dialog: QDialog) -> bool:
    """Whether ``dialog`` is a power's review before sealing (its module is loaded with the first one)."""
    from .review import ReviewDialog

    return isinstance(dialog, ReviewDialog)


class HotSeatFlow(QObject):
    """Runs the hot-seat cycle around a controller: curtain, turns, review, seal, reveal.

    ``host`` is the widget the curtain covers (the main window).  ``review`` decides whether to
    seal (it receives the dialog and returns True to seal); tests replace it, the app shows the
    dialog modally.

    Host actions (``ask_host``) go through the game's host PIN (``table.host_pin``, a salted
    hash): ``host_prompt`` asks for it; with no host PIN set, ``confirm`` asks instead and says
    that anyone at the table may do it.  While a power is writing, any dialog of the window that
    appears (a draw vote, a question, a file dialog, help) brings the curtain down first: the
    writer steps away and nothing of theirs is left on screen behind the dialog.
    """

    stage_changed = Signal(str)
    sealed = Signal(str)
    revealed = Signal()
    #: Formal Diplomacy: the declarations were revealed together (declarations, relations before, after)
    declarations_revealed = Signal(object, object, object)
    #: the declarations sheet's "Use my phone…" (the table mode answers it)
    phone_requested = Signal()

    TABLE_KEY = HOTSEAT_KEY  # (the table service keeps the turn under it too)

    def __init__(self, controller: GameController, host: QWidget, *, rng: random.Random | None = None,
                 strip: SealStatusStrip | None = None, enabled: bool = True,
                 review: Callable[[ReviewDialog], bool] | None = None,
                 confirm: Confirm | None = None, adjudicate_on_reveal: bool = True,
                 host_prompt: HostPrompt | None = None) -> None:
        super().__init__(host)
        self.controller = controller
        self.host = host
        #: the last reveal's seal code alarm ("" when every code matched)
        self.seal_alarm = ""
        self.session = HotSeatSession(rng if rng is not None else random.Random())
        #: checks before the orders are revealed (the tournament's "the board matches"); each may refuse
        self.before_reveal: list[Callable[[], bool]] = []
        self.curtain = CurtainWidget(host, controller)
        self.strip = strip if strip is not None else SealStatusStrip(None, controller)
        self.strip.controller = controller
        self.enabled = enabled
        self.review = review if review is not None else (lambda dialog: dialog.exec() == QDialog.DialogCode.Accepted)
        self.confirm = confirm if confirm is not None else _ask
        self.host_prompt: HostPrompt = host_prompt if host_prompt is not None else ask_host_pin
        #: asks for a power's own PIN (None: the app's dialog, or ``host_prompt`` where a test replaced it)
        self.pin_prompt: HostPrompt | None = None
        self._filtering = False
        self.adjudicate_on_reveal = adjudicate_on_reveal
        cu, st = self.curtain, self.strip
        connect_all((cu.open_requested, self.open_power), (cu.other_requested, self.open_other),
                    (cu.seal_code_requested, self.show_seal_code_again),
                    (cu.reveal_requested, self.reveal), (cu.force_requested, self.force_reveal),
                    (st.write_requested, self.start_writing), (st.seal_requested, self.request_seal),
                    (st.hide_requested, self.hide), (st.reveal_requested, self.reveal))
        #: the seat at the keyboard proved itself with its PIN this turn (then, and only then, it may
        #: take its phone link: "Use my phone…")
        self.proved = False
        #: what was on screen at the last refresh: a change of seat covers every other window
        self._seat_shown: tuple[str, ...] | None = None
        self._keep_window: QWidget | None = None
        self.declarations_form: DeclarationsForm | None = None  # made at the first declarations round
        #: the last turn before this phase (phase, order, sealed, round), and the one to restore at a
        #: take-back that keeps the seals
        self._last_turn: tuple[str, tuple[str, ...], frozenset[str], str] | None = None
        self._keep_seals: tuple[str, tuple[str, ...], frozenset[str], str] | None = None
        #: the computer's thinking, off the GUI thread (``computer_worker``); the seats it writes for now
        self.thinker = ComputerThinker(controller, self)
        self._thinking: set[tuple[str, str]] = set()  # (phase, power)
        #: the powers of the seat at the keyboard that have filled in their declarations this turn (a
        #: player with several powers declares for each of them, one sheet after another, then one seal)
        self.declared_this_turn: list[str] = []

    @property
    def table_session(self) -> TableSession:
        """The one record of who has sealed or declared, for the game on the table: this flow's
        hot-seat turn, shared with the phone host (Table ▸ Phones) when hosting is on."""
        return self.controller.service.seat_turn(self.session)  # the service keeps this one record

    @property
    def service(self) -> TableService:
        """The window's table service, over this flow's record of who has sealed."""
        self.table_session  # noqa: B018  (the service holds the hot seat's record)
        return self.controller.service

    # -- which powers write this phase ---------------------------------------------------------

    def powers_in_play(self) -> tuple[str, ...]:
        table_powers = self.controller.table.powers
        ids = self.controller.board.power_ids
        if isinstance(table_powers, list) and table_powers:
            return tuple(p for p in ids if p in table_powers)
        return tuple(ids)

    def powers_to_write(self) -> tuple[str, ...]:
        """Who passes behind the curtain this phase: played powers that owe orders and are not
        marked as in civil disorder (their units hold: rules XIV.1)."""
        state = self.controller.state
        marked = self.controller.marked_disorder()
        return tuple(p for p in self.powers_in_play() if p not in marked and orders_needed(state, p) > 0)

    def computer_seats(self) -> dict[str, str]:
        """The powers the computer plays at this table, with its level (``table.computer``)."""
        return computer_seats(self.controller.table, self.controller.board.power_ids)

    @property
    def practice(self) -> str | None:
        """The person's power in a practice game (``table.practice``), else None."""
        return practice_power(self.controller.table, self.controller.board.power_ids)

    def computer_refusal(self, power: str) -> str | None:
        """Why the laptop may not open ``power`` (a computer seat), or None."""
        level = self.computer_seats().get(power)
        if level is None:
            return None
        return (f"{self.controller.power_name(power)} is played by {seat_words(level)}: its orders are written "
                "and sealed when the writing begins, and shown at the reveal")

    def write_computer_orders(self) -> list[str]:
        """The writing begins: every computer seat that owes orders writes them from the public
        position and (with secrecy) seals them, its seal code recorded like anyone's.  They stay
        secret until the reveal: nobody may see them (the controller's ``can_see``).  The orders
        are computed in the worker thread (``thinker``: the window keeps running) and filed and
        sealed on the GUI thread when they come, unless the phase moved on meanwhile (then they
        are dropped).  Returns the powers asked to write.  In a practice game the computer writes
        only at the adjudication (``gui/table/practice.py``): never here."""
        c = self.controller
        seats = self.computer_seats()
        s = self.session
        if not seats or c.game.is_over or (self.enabled and s.declaring) or self.practice is not None:
            return []
        writers = s.order if self.enabled else self.powers_to_write()
        phase = c.state.phase.short
        self._thinking = {(ph, p) for ph, p in self._thinking if ph == phase}  # (answers of other phases: dropped)
        todo = {p: lvl for p in writers if (lvl := seats.get(p)) is not None and p not in s.sealed
                and (phase, p) not in self._thinking}
        if not todo:
            return []
        self._thinking |= {(phase, p) for p in todo}

        def failed(text: str) -> None:
            self._thinking -= {(phase, p) for p in todo}
            self.tell(text)

        self.thinker.think(computer_seed(c.table), c.state, todo, lambda orders: self._computer_wrote(phase, orders),
                           failed=failed)
        return list(todo)

    def _computer_wrote(self, phase: str, orders: Mapping[str, list[Order]]) -> None:
        """On the GUI thread, the game's phase unchanged: the computer's orders are filed, and
        with secrecy sealed (a seat handed back to a person meanwhile, or sealed, is left alone)."""
        c = self.controller
        s = self.session
        self._thinking -= {(phase, p) for p in orders}
        seats = self.computer_seats()
        if c.state.phase.short != phase or c.game.is_over or (self.enabled and (s.declaring or s.stage == REVEALED)):
            return
        for power, mine in orders.items():
            if power not in seats or power in s.sealed:
                continue
            c.file_computer_orders(power, mine)
            if self.enabled:  # sealed through the table service: the seal and its code, on disk at once
                self.service.seal_seat(power, {power: [format_order(o) for o in c.game.orders_of(power)]},
                                       via=COMPUTER, initiator=COMPUTER)
        self._apply()

    def write_computer_declarations(self) -> list[str]:
        """Formal Diplomacy: every computer seat declares (secret, like anyone's) and seals."""
        c = self.controller
        seats = self.computer_seats()
        s = self.session
        relations = c.state.relations
        if not seats or not s.declaring or relations is None:
            return []
        said: dict[str, dict[str, str]] = {}
        for power in s.order:
            level = seats.get(power)
            if level is None or power in s.sealed:
                continue
            said[power] = computer_declarations(c.table, c.state, power, level)
            self.service.seal_seat(power, {}, via=COMPUTER, initiator=COMPUTER)
        self.service.keep_declarations(said, initiator=COMPUTER)  # secret until all are revealed
        return list(said)

    def set_computer_seats(self, choice: Mapping[str, str]) -> tuple[list[str], list[str]]:
        """The host hands seats to the computer or back (``choice``: the computer's powers and
        levels from now on), through the controller's table door; returns (handed to the computer,
        handed back to a person).  A power handed over mid-writing writes and seals at once (a
        person's orders written so far are kept); one handed back is unsealed, for the curtain to
        call.  The caller asks the host first and tells the table."""
        c = self.controller
        before = self.computer_seats()
        given = [p for p in c.board.power_ids if p in choice and before.get(p) != choice[p]]
        back = [p for p in c.board.power_ids if p in before and p not in choice]
        if not given and not back:
            return [], []
        self.step_away()
        kept = {p: n for p, n in text_entries(c.table.players).items() if p not in choice}
        seed = computer_seed(c.table) or draw_computer_seed()
        c.service.set_computer_players(choice, seed, kept, initiator=LAPTOP)
        self._sync_pins()
        s = self.session
        for p in back:
            if p in s.sealed and s.stage != REVEALED and not s.declaring:
                self.service.unseal(p, initiator=LAPTOP)
        if s.stage in (CURTAIN, READY) or not self.enabled:
            self._computer_catches_up()
        self._apply()
        return given, back

    def _computer_catches_up(self) -> None:
        if self.session.declaring:
            self.write_computer_declarations()
        else:
            self.write_computer_orders()

    def update_writers(self) -> None:
        """The host marked or unmarked civil disorder: the round goes on without (or with) them."""
        s = self.session
        if s.phase != self.controller.state.phase.short or s.stage == REVEALED:
            return
        self._sync_pins()
        self.service.set_writers(self.powers_to_write(), initiator=LAPTOP)
        self._apply()

    # -- phase boundaries ------------------------------------------------------------------------

    def set_enabled(self, enabled: bool) -> None:
        """Secrecy on or off.  Never unseals anyone and never sends the phase back to the talks:
        the turn goes on where it was (the power at the keyboard steps behind the curtain)."""
        self.enabled = enabled
        s = self.session
        if s.phase != self.controller.state.phase.short or s.stage == REVEALED:
            self.begin_phase()
            return
        self._sync_pins()
        self.service.close_seat(initiator=LAPTOP)
        self._apply()

    def set_pins(self, pins: Mapping[str, str]) -> None:
        """PIN hashes (from the New Game dialog), never PINs; kept in the table as ``pins`` by the
        table service (written at once)."""
        self.controller.service.set_pins(pins, initiator=LAPTOP)
        self._sync_pins()

    def _sync_pins(self) -> None:
        table = self.controller.table
        # a game without PINs has none: never the previous game's
        self.service.seat_pins(text_entries(table.pins), {k: v for k, v in text_entries(table.players).items() if v})

    def begin_phase(self, *_: object) -> None:
        """A phase begins (new game, after an adjudication or its undo): talks, board open.
        After the host's take-back with the seals kept (:meth:`keep_seals_on_take_back`), the
        phase taken back begins again with every seal it had: the curtain, ready to reveal."""
        self._sync_pins()
        s = self.session
        kept, self._keep_seals = self._keep_seals, None
        if s.phase:
            self._last_turn = (s.phase, s.order, frozenset(s.sealed), s.round)
        # the people first: the curtain never calls a computer seat
        self.service.begin_turn(self.controller.state.phase.short, self.powers_to_write(),
                                last=self.computer_seats(), kept=kept, initiator=LAPTOP)
        self.service.drop_declarations(initiator=LAPTOP)  # a new turn: no declaration is pending
        if not self.enabled:  # no secrecy: the computer writes in the open as the phase begins
            self.write_computer_orders()
        self._apply()

    def keep_seals_on_take_back(self) -> None:
        """The host takes back the last adjudication and keeps the seals: when its phase begins
        again, each power that had sealed it is still sealed (its orders come back as they were)."""
        self._keep_seals = self._last_turn

    def restore(self) -> None:
        """After a file was opened: pick up the saved turn if it is for this phase."""
        saved_turn = self.controller.table.hotseat
        phase = self.controller.state.phase.short
        if saved_turn is not None:
            try:
                restored = HotSeatSession.from_part(saved_turn, rng=self.session.rng)
            except ValueError:
                restored = None
            if restored is not None:
                self._sync_pins()
                if restored.phase == phase and not self.controller.game.is_over:
                    self.service.resume_turn(restored, initiator=LAPTOP)
                    self.service.adopt_seals(initiator=LAPTOP)  # a game serve played: its phones' seals
                    if self.session.stage != OPEN:  # (a seat handed to the computer since: it writes now)
                        self._computer_catches_up()
                    self._apply()
                    return
        self.begin_phase()
        if self.service.adopt_seals(initiator=LAPTOP) is not None:  # a game serve played mid-phase
            self._apply()

    def _may_start(self) -> bool:
        """Whether writing (or declaring) may start now; the current phase is shown if it may."""
        if not self.enabled or self.session.stage != OPEN or self.controller.game.is_over:
            return False
        if self.controller.viewing is not None:
            self.controller.view_phase(None)
        return True

    def start_writing(self) -> None:
        if not self._may_start():
            return
        self.write_computer_orders()
        self.service.start_writing(initiator=LAPTOP)
        self._apply()

    # -- Formal Diplomacy: the declarations round ---------------------------------------------------

    def start_declarations(self) -> None:
        """The talks are over in a Formal Diplomacy game: each power declares behind the curtain."""
        if not self._may_start():
            return
        self.service.drop_declarations(initiator=LAPTOP)
        self.service.start_declarations(initiator=LAPTOP)
        self.write_computer_declarations()
        self._apply()

    def seal_declarations(self, power: str, said: Mapping[str, str]) -> None:
        """``power`` seals its declarations: kept in the table, secret, until all are revealed."""
        s = self.session
        if not s.declaring or s.stage != ENTERING or power != self.declaring_power:
            raise HotSeatError(f"{power} is not declaring now")
        self.service.keep_declarations({power: said}, initiator=LAPTOP)  # kept in the table, secret
        self.declared_this_turn.append(power)
        if self.declaring_power is not None:  # the next power of the same player declares
            self._show_declarations_form()
            return
        self.declared_this_turn = []
        self.seal(power)

    @property
    def declaring_power(self) -> str | None:
        """The power whose declarations sheet is up: the seat's powers in turn (None: all done)."""
        s = self.session
        if not (s.declaring and s.stage == ENTERING):
            return None
        return next((p for p in s.current_seat if p not in self.declared_this_turn), None)

    def _declarations_form(self) -> DeclarationsForm:
        if self.declarations_form is None:
            from ..declarations import DeclarationsForm  # Formal Diplomacy's sheet: when first needed

            form = DeclarationsForm(self.curtain, self.controller.power_name)
            form.seal_requested.connect(self.seal_declarations)
            form.hide_requested.connect(self.hide)
            form.phone_requested.connect(self.phone_requested)
            self.declarations_form = form
        return self.declarations_form

    def _show_declarations_form(self) -> None:
        s = self.session
        if not (s.declaring and s.stage == ENTERING):
            self.declared_this_turn = []
        power = self.declaring_power
        if self.enabled and s.declaring and s.stage == ENTERING and power is not None:
            relations = self.controller.state.relations
            if relations is None:
                return
            mine = pending_declarations(self.controller.table).get(power)  # reopened: its sealed choices
            others = [p for p in self.controller.board.power_ids
                      if p != power and not self.controller.state.is_eliminated(p)]
            note = (f"{self.controller.power_name(power)} declared this on the phone: it is shown as it was sent. "
                    "Seal to keep it, or change it here first." if power in s.part_declared and mine else "")
            self._declarations_form().show_power(power, others, relations, mine, note=note)
        elif self.declarations_form is not None and (self.declarations_form.isVisible()
                                                     or self.declarations_form.power is not None):
            self.declarations_form.take_down()

    def reveal_declarations_now(self) -> bool:
        """Reveal the declarations as they stand (secrecy is being lifted: the host agreed)."""
        if not self.session.declaring or self.session.stage == REVEALED:
            return False
        self.step_away()
        self._reveal_declarations(force=True)
        return True

    def _reveal_declarations(self, *, force: bool) -> None:
        s = self.session
        c = self.controller
        self.service.reveal_turn(force=force, initiator=LAPTOP)
        # sealed, or declared on a phone (the rest of its seat not yet): taken out with their codes
        pending = self.service.take_declarations(s.declared, initiator=LAPTOP)
        from ..declarations import apply_declarations  # with the sheet's module

        before, after, lines = apply_declarations(c, pending)
        notice = ("Declarations revealed: " + ("; ".join(lines) if lines else "no relation changed") + ".")[:1000]
        self.service.end_declarations(notice, initiator=LAPTOP)
        self.write_computer_orders()  # the orders round begins: the computer writes its orders
        self._apply()
        self.declarations_revealed.emit(pending, before, after)
        self.tell(notice)

    # -- one power's turn -----------------------------------------------------------------------

    @property
    def pin_guard(self) -> PinGuard:
        """The table's one failure counter per power, the table service's (shared with the draw
        vote and the phones); read here, counted through the service's operations."""
        return self.controller.service.pin_guard

    def _seat_pin_ok(self, power: str, pin: str, *, out_of_turn: bool = False) -> bool:
        """``power``'s seat PIN, through the failure counter: a wait, or a wrong PIN, is said on the
        curtain and counted; a right one clears the count (and an old save's hash is renewed).
        ``out_of_turn`` (the curtain called another power): a wrong PIN counts toward the host's
        prompt, never ``power``'s own counter (issue 31): a player at the curtain cannot lock
        another power out, at the curtain or on its phone; the host's wait holds these tries too."""
        s = self.session
        name = seat_title(self.controller, s.seat_of(power))
        guard = self.pin_guard
        counter, label = (HOST, "the host") if out_of_turn else (power, name)
        try:
            guard.check_allowed(counter, label)
            guard.check_allowed(power, name)
        except PinWaitError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return False
        if not pin:
            self.curtain.show_error("This power's orders are protected by a PIN")
            return False
        if not s.check_pin(power, pin):
            self.controller.service.pin_failed(counter, initiator=LAPTOP)  # counted and on disk at once
            try:
                guard.check_allowed(counter, label)
                self.curtain.show_error(f"Wrong PIN: {name}'s orders are protected by a PIN"
                                        + (" (out of turn, wrong PINs count toward the host's prompt)"
                                           if out_of_turn else ""))
            except PinWaitError as exc:
                self.curtain.show_error(f"Wrong PIN. {_sentence(str(exc))}")
            return False
        service = self.controller.service
        service.pin_succeeded(power, initiator=LAPTOP)
        if service.renew_pin_hashes(self.session.seat_of(power), pin, initiator=LAPTOP) is not None:
            self._sync_pins()
        return True

    def open_power(self, power: str, pin: str = "") -> bool:
        s = self.session
        if not self._may_open(power):
            return False
        if s.has_pin(power) and not self._seat_pin_ok(power, pin):
            return False
        # the PIN was checked once just above
        if not self._shown_refusal(lambda: self.service.open_seat(power, pin or None, proved=s.has_pin(power), initiator=LAPTOP)):
            return False
        self.proved = s.has_pin(power)
        self._forget_seals(power)
        self._apply()
        return True

    def _may_open(self, power: str) -> bool:
        """Whether ``power`` may be opened at the curtain now (not a computer's seat, the right
        stage); why not is shown on the curtain."""
        refusal = self.computer_refusal(power)
        if refusal is not None:
            self.curtain.show_error(refusal)
            return False
        return self._shown_refusal(lambda: self.session.verify_open_stage(power))

    def _shown_refusal(self, step: Callable[[], object]) -> bool:
        """Do ``step``; a refusal of the hot seat's (HotSeatError) is shown on the curtain: False."""
        try:
            step()
        except HotSeatError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return False
        return True

    def _forget_seals(self, power: str) -> None:
        self.service.forget_seals(self.session.seat_of(power), initiator=LAPTOP)

    def open_other(self, power: str, pin: str = "") -> bool:
        """"Someone else / Reopen": a power the curtain did not call.  A power's own PIN (asked
        when its button is pressed, checked through the failure counter) reopens its own written
        or sealed orders on every path.  Anything else out of turn is a host action: the host PIN
        (or, with none set, a question that says anyone may); the host may reopen written or sealed
        orders without the power's PIN, but a power with a PIN that has written nothing opens only
        with its PIN.  Every opening is told to the table on the curtain and the strip."""
        s = self.session
        c = self.controller
        if not self._may_open(power):
            return False
        seat = s.seat_of(power)
        name = seat_title(c, seat)
        called = s.next_power
        if called is not None and power in s.seat_of(called) and s.stage != READY:
            return self.open_power(power, pin)  # the curtain's own call, chosen from the list
        sealed = any(p in s.sealed for p in seat)
        written = not s.declaring and any(c.game.orders_of(p) for p in seat)
        what = f"sealed {s.round}" if sealed else ("orders written so far" if written else f"{s.round}")
        host_pin = self.host_pin()
        verb = "Reopen" if sealed or written else "Open"
        if s.has_pin(power) and not pin:
            typed = self._out_of_turn_pin(power, name, verb, what, sealed or written)
            if typed is None:
                return False
            if typed == _BY_HOST:
                return self._reopen_by_host(power, name, what)
            if typed == _HOST_THEN_OWN:
                return self._open_by_host_with_pin(power, name, what)
            pin = typed
        own_pin = bool(s.has_pin(power) and pin)
        # the power's PIN first: a wrong one is counted before anything is asked
        if own_pin and not self._seat_pin_ok(power, pin, out_of_turn=True):
            return False
        by_host = True
        if own_pin and (sealed or written):
            # a power's own PIN reopens its own orders on every path (issue 17); the table is told
            by_host = False
            notice = f"{name}'s {what} were reopened with {name}'s PIN."
        else:
            # anything else out of turn is a host action (issue 20), announced
            text = (f"{verb} {name} out of turn? Whoever opens it sees its {what} and can change them. "
                    "The table will be told.")
            if not self.ask_host(f"{verb} {name}", text):
                return False
            by = "the host (host PIN)" if host_pin is not None else "someone at the table (no host PIN is set)"
            if sealed or written:
                notice = (f"{name}'s {what} were reopened by {by}"
                          + (f" without {name}'s PIN." if s.has_pin(power) else "."))
            else:
                notice = (f"{name} was opened out of turn by {by}"
                          + (f" with {name}'s PIN." if own_pin else
                             f" without {name}'s PIN." if s.has_pin(power) else "."))
        # own_pin: checked once above
        if not self._shown_refusal(lambda: self.service.open_seat(power, pin or None, by_host=by_host, proved=own_pin,
                                                                  notice=notice, initiator=LAPTOP)):
            return False
        self.proved = own_pin
        self._forget_seals(power)
        self.tell(notice)
        self._apply()
        return True

    def _out_of_turn_pin(self, power: str, name: str, verb: str, what: str, reopening: bool) -> str | None:
        """A power with a PIN chosen out of turn: the host PIN first (issue 34: the curtain says
        so, and a host's entry is checked as the host's, never counted against the power); the
        power's own PIN only when the host cancels and the power reopens its own orders (issue 17).
        Returns the power's PIN typed, ``_BY_HOST`` (the host reopens), ``_HOST_THEN_OWN`` (the
        host agreed; the power's PIN is still to come) or None (nothing is done; said)."""
        if self.host_pin() is None:  # no host PIN: the power's own PIN, then the table's question
            typed = self._ask_power_pin(f"{verb} {name}", f"Type {name}'s PIN to {verb.lower()} {name}'s {what}.")
            if not typed:
                self.curtain.show_error(f"{name}'s orders are protected by a PIN")
            return typed or None
        if reopening:
            return self._reopen_pin(power, name, verb, what)
        # the right host PIN keeps the host's count here: the power's PIN comes next, and its wrong
        # ones count there (alternating would otherwise clear them)
        answer = self._host_answer(f"{verb} {name}", f"{verb} {name} out of turn? The host types the host PIN first "
                                   f"(the table will be told). Then {name} types {name}'s own PIN.", clear=False)
        if answer == "ok":
            return _HOST_THEN_OWN
        if answer == "cancelled":
            self.curtain.show_error(f"{name}'s orders are protected by a PIN: out of turn, the host PIN first, "
                                    f"then {name}'s")
        return None

    def _reopen_pin(self, power: str, name: str, verb: str, what: str) -> str | None:
        """Written or sealed orders of a power with a PIN: one box takes the host PIN (the host
        reopens, the table is told) or the power's own (it reopens its own, issue 17).  A PIN that
        is neither counts against the host's door, never the power's: the power did not type it."""
        stored = self.host_pin()
        assert stored is not None
        guard = self.pin_guard
        try:
            guard.check_allowed(HOST, "the host")
        except PinWaitError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return None
        typed = self.host_prompt(self.host, f"{verb} {name}",
                                 f"{verb} {name}'s {what}: the host types the host PIN (the table will be told), "
                                 f"or {name} types {name}'s PIN to {verb.lower()} its own.")
        if not typed:
            self.curtain.show_error(f"{name}'s orders are protected by a PIN")
            return None
        if pin_matches(stored, typed):
            self.controller.service.pin_succeeded(HOST, initiator=LAPTOP)
            return _BY_HOST
        if self.session.check_pin(power, typed):
            return typed  # (checked again, and counted, by _seat_pin_ok)
        self.controller.service.pin_failed(HOST, initiator=LAPTOP)
        self.curtain.show_error(f"Wrong PIN: neither the host PIN nor {name}'s. nothing was opened")
        return None

    def _open_by_host_with_pin(self, power: str, name: str, what: str) -> bool:
        """The host agreed (host PIN); ``power``, which has written nothing, opens with its own PIN."""
        typed = self._ask_power_pin(f"Open {name}", f"The host agreed. Type {name}'s PIN to open {name}'s {what}.")
        if not typed:
            self.curtain.show_error(f"{name}'s orders are protected by a PIN")
            return False
        if not self._seat_pin_ok(power, typed, out_of_turn=True):
            return False
        # the PIN was checked once just above
        return self._host_opens(power, typed,
                                f"{name} was opened out of turn by the host (host PIN) with {name}'s PIN.")

    def _ask_power_pin(self, title: str, text: str) -> str | None:
        """Ask for a power's own PIN (``pin_prompt``; tests that replace ``host_prompt`` answer it too)."""
        prompt = self.pin_prompt or (ask_power_pin if self.host_prompt is ask_host_pin else self.host_prompt)
        return prompt(self.host, title, text)

    def _reopen_by_host(self, power: str, name: str, what: str) -> bool:
        """The host, who typed the host PIN, reopens ``power`` (with a PIN of its own) without it."""
        return self._host_opens(power, None,
                                f"{name}'s {what} were reopened by the host (host PIN) without {name}'s PIN.")

    def _host_opens(self, power: str, pin: str | None, notice: str) -> bool:
        """The host opens ``power``'s orders (with its PIN, already checked, or without it); the
        table is told ``notice``."""
        if not self._shown_refusal(lambda: self.service.open_seat(power, pin, by_host=True, proved=pin is not None,
                                                                  notice=notice, initiator=LAPTOP)):
            return False
        self.proved = pin is not None
        self._forget_seals(power)
        self.tell(notice)
        self._apply()
        return True

    def refresh(self) -> None:
        """The session changed from outside (a phone sealed): the curtain, the strip and the
        secrecy follow it."""
        self._apply(activate=False)

    def hide(self) -> None:
        if self.service.close_seat(initiator=LAPTOP) is not None:
            self._apply()

    def step_away(self) -> None:
        """A dialog is about to appear: the power at the keyboard steps away (its orders are kept,
        not sealed) and the curtain covers the map, the orders and the lists first."""
        if self.enabled and self.service.close_seat(initiator=LAPTOP) is not None:
            self._apply(activate=False)

    # -- the host -------------------------------------------------------------------------------

    def host_pin(self) -> str | None:
        """The host PIN's salted hash, or None when the game has no host PIN."""
        stored = self.controller.table.host_pin
        return stored if is_pin_hash(stored) else None

    def ask_host(self, title: str, text: str) -> bool:
        """A host action: the host PIN when one is set; otherwise a question that says anyone at
        the table may do it.  A wrong PIN is said where the table sees it, and nothing is done.
        A practice game has one person and no PINs by design: a plain question."""
        if self.practice is not None and self.host_pin() is None:
            return self.confirm(self.host, title, text)
        return self.ask_host_of(self.host_pin(), title, text)

    def ask_host_of(self, stored: str | None, title: str, text: str) -> bool:
        """A host action of a game not on the table yet (the unfinished game at the offer to
        resume): its host PIN's hash ``stored``, or ``None`` when it has none (a question)."""
        if stored is None:
            return self.confirm(self.host, title, f"{text}\n\n{NO_HOST_PIN}")
        return self._host_answer(title, text, stored=stored) == "ok"

    def _host_answer(self, title: str, text: str, *, clear: bool = True, stored: str | None = None) -> str:
        """The host PIN asked (one is set) and checked as the host's: "ok", "wrong" (said to
        the table; a wait after too many is the host's, not a power's) or "cancelled".
        ``clear``: a right host PIN clears the host's count (not when a power's PIN, counted
        there, is asked next); ``stored``: another game's host PIN hash (default: this game's)."""
        stored = stored if stored is not None else self.host_pin()
        assert stored is not None
        guard = self.pin_guard
        try:
            guard.check_allowed(HOST, "the host")
        except PinWaitError as exc:
            self.tell(f"{_sentence(str(exc))}: {title[:1].lower() + title[1:]} was not done.")
            return "wrong"
        pin = self.host_prompt(self.host, title, text)
        if not pin:
            return "cancelled"
        try:
            if clear:  # counted (and on disk at once) or cleared by the table service
                if self.controller.service.try_pin(HOST, stored, pin, "the host", initiator=LAPTOP):
                    return "ok"
            else:
                guard.check_allowed(HOST, "the host")
                if pin_matches(stored, pin):
                    return "ok"
                self.controller.service.pin_failed(HOST, initiator=LAPTOP)
        except PinWaitError as exc:
            self.tell(f"{_sentence(str(exc))}: {title[:1].lower() + title[1:]} was not done.")
            return "wrong"
        self.tell(f"Wrong host PIN: {title[:1].lower() + title[1:]} was not done.")
        return "wrong"

    def tell(self, text: str) -> None:
        """A message for the whole table: on the curtain when it is up, and in the status bar."""
        if self.curtain.isVisible():
            self.curtain.show_error(text)
        self.strip.show_notice(text)
        bar = getattr(self.host, "statusBar", None)
        if callable(bar):
            bar().showMessage(text, 15000)

    # -- dialogs while a power writes -------------------------------------------------------------

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.Show and isinstance(watched, QDialog) and watched.isWindow()
                and not _is_review(watched) and not watched.property("keeps_turn")
                and self._belongs(watched)):
            self._keep_window = watched
            try:
                self.step_away()
            finally:
                self._keep_window = None
        return False

    def _belongs(self, dialog: QWidget) -> bool:
        parent = dialog.parentWidget()
        return parent is not None and parent.window() is self.host.window()

    def _filter_dialogs(self, on: bool) -> None:
        app = QApplication.instance()
        if app is None or on == self._filtering:
            return
        if on:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
        self._filtering = on

    def review_dialog(self) -> ReviewDialog | None:
        power = self.session.current
        if power is None or self.session.stage != ENTERING:
            return None
        # the review's modules: when a power first seals (not at the window's start)
        from ....table.review import review_warnings
        from ....table.seal_review import seal_notes
        from .review import ReviewDialog

        game = self.controller.game
        seat = self.session.current_seat
        orders = [o for p in seat for o in game.orders_of(p)]  # only the player at the keyboard
        warnings: list[str] = []
        for p in seat:
            said = review_warnings(game.state, p, game.orders_of(p))
            warnings.extend(f"{self.controller.power_name(p)}: {w}" if len(seat) > 1 else w for w in said)
        notes = seal_notes(game.state, seat, {p: game.orders_of(p) for p in seat}, self.controller.power_name,
                           disorder_rules=self.controller.civil_disorder_rules)
        return ReviewDialog(power, orders, warnings, self.host, power_name=seat_title(self.controller, seat),
                            has_pin=self.session.has_pin(power), notes=notes)

    def request_seal(self) -> bool:
        form = self.declarations_form
        if self.session.declaring:
            if self.session.stage != ENTERING or form is None or form.power != self.session.current:
                return False
            form.seal()
            return True
        dialog = self.review_dialog()
        if dialog is None:
            return False
        power = dialog.power
        try:
            if not self.review(dialog):
                return False
        finally:
            dialog.hide()
            shiboken6.delete(dialog)  # gone now, not at the next event loop turn: it held orders
        self.seal(power)
        return True

    def seal(self, power: str) -> None:
        """``power`` (and the rest of its seat) seals at the laptop: one operation of the table's
        session, which tells the phones; the seat's seal codes are recorded and the first shown."""
        seat = self.session.current_seat
        items = self.seal_items(seat)  # what the seat seals (codes from it), before the seal
        codes = self.service.seal_seat(power, items, via=LAPTOP, initiator=LAPTOP)  # on disk at once
        code = codes[0] if codes else ""
        self._apply()
        if code:
            self.show_seal_codes(seat)
        self.sealed.emit(power)

    def seal_codes_text(self, seat: Sequence[str]) -> str:
        """The seat's seal codes this phase, as shown to it ("" when it sealed nothing)."""
        c = self.controller
        phase = c.state.phase.short
        codes = [(p, sealcodes.code_of(c.table, p, phase)) for p in seat]
        shown = [(p, code) for p, code in codes if code]
        if len(shown) == 1:
            return shown[0][1]
        return "\n".join(f"{c.power_name(p)} {code}" for p, code in shown)

    def show_seal_codes(self, seat: Sequence[str], *, again: bool = False) -> bool:
        """The seat that sealed sees its seal code large on the curtain, until it hides it
        (issue 34, finding 7); the table is told only that it sealed, never the code."""
        text = self.seal_codes_text(seat)
        if not text or not self.curtain.isVisible():
            return False
        self.curtain.show_seal_code(seat[0], seat_title(self.controller, seat), text, again=again)
        if not again:
            self.strip.show_notice(f"{seat_title(self.controller, seat)} sealed.")
        return True

    def show_seal_code_again(self, power: str) -> bool:
        """A power that sealed sees its seal code again behind the curtain, large, with its own PIN
        (issue 34, finding 7: it was one line on the next player's curtain, then gone until the
        reveal).  Nothing is opened: its orders stay sealed.  A wrong PIN is counted as at the
        curtain (toward the host's prompt when the curtain called another power)."""
        s = self.session
        c = self.controller
        seat = s.seat_of(power)
        name = seat_title(c, seat)
        if not self.curtain.isVisible() or not all(p in s.sealed for p in seat) or not self.seal_codes_text(seat):
            self.curtain.show_error(f"{name} has no seal code to see: it has not sealed at the laptop this phase.")
            return False
        if s.has_pin(power):
            typed = self._ask_power_pin(f"{name}: your seal code",
                                        f"{name}'s own PIN, to see its seal code again. Everyone else: look away.")
            if typed is None:
                return False
            if not self._seat_pin_ok(power, typed, out_of_turn=power not in s.seat_of(s.next_power or power)):
                return False
        self.curtain.error_label.clear()
        return self.show_seal_codes(seat, again=True)

    def seal_items(self, seat: Sequence[str]) -> dict[str, list[str] | dict[str, str]]:
        """What each power of the seat seals, its seal code's input: its declarations while
        declaring, else its orders' texts."""
        c = self.controller
        items: dict[str, list[str] | dict[str, str]] = {}
        for p in seat:
            if self.session.declaring:
                items[p] = dict(pending_declarations(c.table).get(p, {}))
            else:
                items[p] = [format_order(o) for o in c.game.orders_of(p)]
        return items

    def reveal_seal_codes(self) -> str:
        """The reveal: every seal's code, recomputed from the orders revealed, said to the table
        (and to every phone); a code that differs from the one given at sealing is an alarm."""
        c = self.controller
        verdict = self.service.reveal_seal_codes(initiator=LAPTOP)
        self.seal_alarm = ""
        if not verdict.codes:
            return ""
        text = "Seal codes: " + "; ".join(f"{c.power_name(p)} {code}" for p, code in
                                          sorted(verdict.codes.items(), key=lambda x: c.board.power_ids.index(x[0])))
        alarm = self.seal_alarm = verdict.alarm(c.power_name)
        if alarm:
            text = alarm + " " + text
            self.alarm(alarm)
        self.service.tell_table(text, initiator=LAPTOP)
        return text

    def alarm(self, text: str) -> None:
        """A seal code that does not match: a box the table must answer, besides the notice."""
        box = QMessageBox(QMessageBox.Icon.Critical, "Seal codes do not match", text, QMessageBox.StandardButton.Ok,
                          self.host)
        box.setObjectName("seal_alarm")
        box.open()

    # -- the reveal -------------------------------------------------------------------------------

    def reveal(self) -> None:
        if self.session.stage != READY:
            return
        self._reveal(force=False)

    def force_reveal(self) -> bool:
        """The host reveals before everyone has sealed (a host action)."""
        self.step_away()
        if self.session.stage == REVEALED:
            return False
        waiting = [self.controller.power_name(p) for p in self.session.waiting]
        if self.session.declaring:
            text = ("Reveal all declarations now?\n\nNot sealed yet: " + ", ".join(waiting) +
                    ".\nThey declare nothing: their relations stay as they are (a war stays a war).") if waiting else \
                "Reveal all declarations now?"
            if not self.ask_host("Reveal the declarations now", text):
                return False
            self._reveal(force=True)
            return True
        text = "Reveal all orders and adjudicate now?" + self._unsealed_words()
        if not self.ask_host("Reveal now", text):
            return False
        self._reveal(force=True)
        return True

    def _unsealed_words(self) -> str:
        """Who has not sealed, for the host's reveal question: those who wrote orders (they count
        as written) and those who wrote none, named as in civil disorder (rules XIV.1: their
        units hold and do not support each other)."""
        c = self.controller
        waiting = list(self.session.waiting)
        if not waiting:
            return ""
        wrote = [c.power_name(p) for p in waiting if c.game.orders_of(p)]
        none = [c.power_name(p) for p in waiting if not c.game.orders_of(p)]
        words = "\n\nNot sealed yet: " + ", ".join(c.power_name(p) for p in waiting) + "."
        if wrote:
            words += "\n" + ", ".join(wrote) + ": the orders written so far count as they are."
        if none:
            verb = "is" if len(none) == 1 else "are"
            words += (f"\n{', '.join(none)} {verb} in civil disorder (no orders at all): the units hold and do "
                      "not support each other (rules XIV.1).")
        return words

    def ready_to_reveal(self) -> bool:
        """Every check before a reveal agrees (e.g. the tournament's "the board matches")."""
        return all(check() for check in self.before_reveal)

    def _reveal(self, *, force: bool) -> None:
        self.cover_windows()  # the reveal starts: nothing of anyone's turn is left on screen
        if self.session.declaring:
            self._reveal_declarations(force=force)
            return
        if not self.ready_to_reveal():
            return
        self.service.reveal_turn(force=force, initiator=LAPTOP)
        codes = self.reveal_seal_codes()
        self._apply(view=False)  # the curtain, the strip, the turn kept; who may be seen: the reveal's own record
        if codes:
            self.tell(codes)
        self.revealed.emit()
        # one record: the adjudication (the next phase's turn begins inside it, when the table
        # mode is connected), or, with no adjudication, everybody's orders shown
        self.controller.reveal(adjudicate=self.adjudicate_on_reveal)
        if self.seal_alarm:  # the last word of the reveal, not covered by the next phase's notice
            self.tell(self.seal_alarm)

    # -- secrecy, curtain and strip follow the session ----------------------------------------------

    def _apply(self, *, activate: bool = True, view: bool = True) -> None:
        """The controller's view, the curtain and the strip follow the session (``view=False``:
        all but who may be seen, which the caller changes itself, as the reveal does)."""
        c = self.controller
        s = self.session
        if not self.enabled:
            if view:  # (a practice game: the person's power alone, at the keyboard)
                me = self.practice
                c.set_view(None if me is None else {me}, me)
            self.curtain.hide()
        else:
            # who may be seen and who is at the keyboard change together: one record, no moment
            # where too much is visible
            entering = s.stage == ENTERING and s.current is not None
            if view:
                c.set_view(s.visible_powers, s.current if entering else None,
                           seat=s.current_seat if entering else ())
            if s.stage in (CURTAIN, READY) or (s.declaring and s.stage == ENTERING):
                # (a power declaring writes inside the curtain: the window stays covered)
                self.curtain.show_session(s, host_pin=self.host_pin() is not None)
                self.curtain.cover(activate=activate)
            else:
                self.curtain.hide()
        self._show_declarations_form()
        seat_now = tuple(s.current_seat) if self.enabled and s.stage == ENTERING else None
        if seat_now != self._seat_shown:
            if self._seat_shown is not None:  # the seat at the keyboard left (stepped away, sealed, ...)
                self.cover_windows(keep=self._keep_window)
            if seat_now is None or self._seat_shown is None or set(seat_now) != set(self._seat_shown):
                self.proved = self.proved and seat_now is not None
            self._seat_shown = seat_now
        self._filter_dialogs(self.enabled and s.stage == ENTERING)
        self.strip.show_session(s, secrecy=self.enabled)
        self.service.keep_turn(initiator=LAPTOP)  # the turn in the table; the phones told who sealed
        self.stage_changed.emit(s.stage)

    def cover_windows(self, keep: QWidget | None = None) -> int:
        """Nothing of a player is left on screen (issue 20): every other window the app opened —
        a sandbox, an explanation, a lesson, a dialog — is closed when the seat at the keyboard
        changes, steps away, seals or the reveal starts.  Returns how many were closed."""
        app = QApplication.instance()
        if not isinstance(app, QApplication):
            return 0
        main = self.host.window()
        closed = 0
        for w in list(app.topLevelWidgets()):
            if (not shiboken6.isValid(w) or w is main or w is keep or w is self.curtain or not w.isVisible()
                    or isinstance(w, QDockWidget) or w.property("survives_seat_change")):
                continue
            if hasattr(w, "ask_before_closing"):  # another main window: a sandbox copy of this game
                w.ask_before_closing = False
            if isinstance(w, QDialog):
                w.reject()
            w.close()
            closed += 1
        return closed

    @property
    def curtain_up(self) -> bool:
        return self.curtain.isVisible()
