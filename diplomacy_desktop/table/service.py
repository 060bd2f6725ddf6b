"""``TableService``: the one owner of a table's game, its table state and its ``TableSession``.

A *seat* is where a power's orders come from: the curtain at the laptop, a phone, and (next) the
computer.  The window's ``GameController`` and the phone host's ``TableHost`` are two doors to the
same game; before this module each ran its own pipeline over the same ``Game`` and the two copies
disagreed (the same order filed two ways, a bare ``reveal`` that adjudicated a phase nobody had
written, late orders void announced but still accepted, a wrong-PIN count not saved).  Now every
operation a seat or the host can make is one method here:

1. it checks who may do it (``may_order`` is the one answer to "may this power order now?");
2. it changes the game, the table state or the session;
3. it asks the durable-write hook (``write``) to put the change on disk: the hook raises to
   refuse it (a full disk), and then nobody is told;
4. it returns one :class:`TableChange` (what, for whom, started by whom), and its listeners hear
   that same record once.

Qt-free and socket-free: the window calls it on its GUI thread, the host under its own lock.

The change kinds: ``orders`` (powers' drafts), ``seal``, ``unseal``, ``declare``, ``phase`` (an
adjudication, or one taken back), ``declarations`` (revealed together), ``pin`` (a PIN set, or a
wrong one counted: written at once), ``late`` (late orders void), ``table`` (a setting),
``position`` (the sandbox), ``game`` (a draw, an end year), ``turn`` (the laptop's hot-seat turn,
its pending declarations, its reveal of the seal codes: the window's own bookkeeping).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .computer import LEVELS
from ..engine.disorder import without_orders
from ..engine.errors import IllegalOrderError, OrderError
from ..engine.formal import relation_word
from ..engine.game import Game, HistoryEntry
from ..engine.options import orders_needed
from ..engine.rules import RuleSet
from ..engine.orders import Hold, Order, Waive
from ..engine.state import MOVEMENT, GameState
from ..engine.validation import check_order
from ..io.notation import format_order
from . import computer, phonebook, sealcodes
from .changes import CLOCK, COMPUTER, HOST, LAPTOP, PHONE, TURN, TableChange
from .pins import HOST as HOST_COUNTER
from .pins import PinGuard, PinWaitError, hash_pin, needs_upgrade, pin_matches
from .declarations import pending_declarations
from .notes import MAX_NOTES_PER_POWER, NoteError, notes_allowed, with_note
from .hotseat import CURTAIN, ENTERING, READY, HotSeatSession
from .session import TableSession
from .parts import BallotPart, BallotsPart, BoardInfoPart, ClockPlansPart, ClockStatePart, ComputerSeatsPart, EventPart
from .parts import LateOrderPart, LateOrdersPart, NotePart
from .parts import DeclarationsPart, PinsPart, PlayerIdsPart, PlayersPart
from .parts import PhoneClockPart, RevealedDeclarationsPart, made
from .state import TableState

if TYPE_CHECKING:
    from .clock import ClockSettings
    from .event import EventRules
    from .results import BallotRecord

INITIATORS = (LAPTOP, PHONE, COMPUTER, HOST, CLOCK)

STAGE_DECLARATIONS = "declarations"
STAGE_ORDERS = "orders"
STAGE_OVER = "over"

# the table keys of the computer's seats and seed (table/computer.py: the one rule of every door)

#: the table key of the late orders record (``table.event``: warning or void, per phase and power)
LATE_KEY = "late_orders"
LATE_VOID = "void"


TableListener = Callable[[TableChange], None]
#: the durable write: called with each change before anybody is told; raises to refuse it
WriteHook = Callable[[TableChange], None]


class TableRefusal(Exception):
    """An operation the table does not allow now; the message says why, in the table's words."""


class StalePhaseError(TableRefusal):
    """The operation names a phase that has already ended: nothing was done."""


class PinRefusal(TableRefusal):
    """A wrong PIN, or none where one is needed (counted when it was a try)."""


class PinWait(TableRefusal):
    """Too many wrong PINs: ``retry_after`` seconds before the next try."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TableService:
    """See the module documentation.  ``table`` is the table's one live record (a
    :class:`TableState`, shared with the session, the window's controller and the phone host;
    a saved game's table object is read into one); it changes only through the operations here."""

    def __init__(self, game: Game, table: TableState | Mapping[str, Any] | None = None, *,
                 session: TableSession | None = None, write: WriteHook | None = None,
                 wall_clock: Callable[[], float] | None = None) -> None:
        self.game = game
        self.table: TableState = as_state(table)
        if session is not None and session.table is not self.table:
            raise ValueError("the table session must be over the service's own table")
        self.session = session if session is not None else TableSession(self.table, game.board.power_ids)
        self.write = write
        self._listeners: list[TableListener] = []
        self.pin_guard = PinGuard(self.table, wall_clock) if wall_clock is not None else PinGuard(self.table)
        #: the window keeps its own reveal (the hot-seat flow: declarations turn, review); the
        #: service still tells whether the phase is ready
        self.civil_disorder_rules = False

    # -- listeners --------------------------------------------------------------------------------

    def add_listener(self, listener: TableListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: TableListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _done(self, change: TableChange) -> TableChange:
        """The one notification path: on disk first (the hook may refuse), then every listener once."""
        if self.write is not None:
            self.write(change)
        for listener in list(self._listeners):
            listener(change)
        return change

    def replace(self, game: Game, table: TableState, session: TableSession | None = None) -> None:
        """Another game on the table (a new game, an opened file)."""
        self.game = game
        self.table = table
        self.session = session if session is not None else TableSession(table, game.board.power_ids)
        self.pin_guard.table = table

    # -- questions --------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def phase(self) -> str:
        return self.game.state.phase.short

    def typed(self) -> TableState:
        """The table state (the live record itself: read it, change it through the operations)."""
        return self.table

    def power_name(self, power: str) -> str:
        try:
            return self.game.board.power(power).name
        except KeyError:
            return power

    @property
    def declarations_revealed(self) -> str | None:
        value = self.table.phones.declarations_revealed if self.table.phones is not None else None
        return value or None

    @property
    def stage(self) -> str:
        if self.game.is_over:
            return STAGE_OVER
        state = self.game.state
        if (state.relations is not None and state.phase.kind == MOVEMENT
                and self.declarations_revealed != self.phase):
            return STAGE_DECLARATIONS
        return STAGE_ORDERS

    def owing(self) -> list[str]:
        """The powers that must act before the reveal: write declarations, or seal orders."""
        state = self.game.state
        stage = self.stage
        if stage == STAGE_OVER:
            return []
        if stage == STAGE_DECLARATIONS:
            return state.surviving_powers()
        return [p for p in state.board.power_ids if orders_needed(state, p) > 0]

    def unsealed(self) -> list[str]:
        """The powers that owe orders and have not sealed them (board order)."""
        sealed = set(self.session.sealed)
        return [p for p in self.owing() if p not in sealed]

    def voided(self, power: str) -> bool:
        """The event's rule voided ``power``'s late orders this phase (its units hold)."""
        late = self.table.late_orders.entries() if self.table.late_orders is not None else []
        return any(e.phase == self.phase and e.power == power and e.verdict == LATE_VOID for e in late)

    def order_refusal(self, power: str) -> str | None:
        """Why ``power`` may not order now, in the table's words (``None``: it may).  The one
        answer to "may this power order now?", for every seat."""
        name = self.power_name(power)
        stage = self.stage
        if stage == STAGE_OVER:
            return "the game is over"
        if stage == STAGE_DECLARATIONS:
            return "declarations come first: orders open once every power has declared"
        if self.session.is_sealed(power):
            return f"{name} has sealed its orders: unseal to change them"
        if orders_needed(self.game.state, power) == 0:
            return f"{name} has nothing to order this phase"
        return self.void_refusal(power)

    def void_refusal(self, power: str) -> str | None:
        """Why ``power`` may write nothing more this phase because the event's rule voided its late
        orders (``None``: it did not).  Part of :meth:`order_refusal`, asked on its own by the
        window, whose other checks (who is at the keyboard, the mode) are its own."""
        if not self.voided(power):
            return None
        return (f"{self.power_name(power)}'s orders are void this phase (late orders, the event's rule): "
                "its units hold; nothing more can be written")

    def may_order(self, power: str) -> bool:
        return self.order_refusal(power) is None

    def _check_order_now(self, power: str) -> None:
        refusal = self.order_refusal(power)
        if refusal is not None:
            raise TableRefusal(refusal)

    def check_phase(self, phase: str | None) -> None:
        """StalePhaseError when ``phase`` (``S1901M``) is not the phase being played."""
        if phase is not None and phase != self.phase:
            raise StalePhaseError(f"that was for {_phase_text(phase)}; the game is now at "
                                  f"{self.game.state.phase.label}: nothing done")

    # -- orders -----------------------------------------------------------------------------------

    def normalise(self, order: Order) -> Order:
        """The order as the rules read it (``stp - bot`` by Russia's fleet: ``F stp/sc - bot``);
        an order that does not check is kept as written."""
        try:
            return check_order(self.game.state, order)
        except OrderError:
            return order

    def give_order(self, order: Order, *, initiator: str, allow_illegal: bool = False,
                   checked: bool = False) -> tuple[Order, TableChange]:
        """File ``order`` for its power (normalised the same way for every seat).  TableRefusal
        when the power may not order now; OrderError for an illegal order without
        ``allow_illegal`` and for a build beyond what the power owes.  ``checked``: the caller
        already asked ``may_order`` (the window's own checks), no second refusal text."""
        power = order.power
        if not checked:
            self._check_order_now(power)
        elif self.game.is_over:
            raise IllegalOrderError("the game is over")
        filed, key = self.game.to_file(order, allow_illegal=allow_illegal)
        self.game.put_orders(power, {key: filed})
        return filed, self._done(TableChange("orders", frozenset({power}), initiator))

    def waive(self, power: str, *, initiator: str) -> TableChange:
        """Waive one build (rules XIII.2): a build not taken."""
        self._check_order_now(power)
        if self.game.state.adjustment_delta(power) <= 0 or self.game.state.phase.kind == MOVEMENT:
            raise TableRefusal(f"{self.power_name(power)} has no build to waive")
        return self.give_order(Waive(power), initiator=initiator, checked=True)[1]

    def can_waive(self, power: str) -> bool:
        """Whether "Waive one" is offered to ``power`` now (every seat asks this)."""
        if not self.may_order(power):
            return False
        try:
            self.game.check_room(Waive(power))
        except OrderError:
            return False
        return self.game.state.phase.kind != MOVEMENT and self.game.state.adjustment_delta(power) > 0

    def clear_order(self, power: str, key: str, *, initiator: str) -> tuple[Order | None, TableChange | None]:
        """Withdraw the order filed under ``key``; (the order, the change), or (None, None)."""
        self._check_order_now(power)
        gone = self.game.order_for(power, key)
        if gone is None:
            return None, None
        self.game.put_orders(power, {key: None})
        return gone, self._done(TableChange("orders", frozenset({power}), initiator))

    def put_orders(self, power: str, book: Mapping[str, Order | None], *, initiator: str) -> TableChange:
        """An undo step's redo or undo: the power's order book as it leaves it (checked when the
        step was first made)."""
        self.game.put_orders(power, book)
        return self._done(TableChange("orders", frozenset({power}), initiator))

    def file_orders(self, power: str, orders: Iterable[Order], *, initiator: str) -> TableChange | None:
        """A computer seat's orders for ``power``, each filed as the rules read it (``Game.to_file``:
        a second waive takes the next number), one change for them all; ``None`` when there were
        none.  The caller decided the seat may write (the window's flow, ``write_computer_orders``)."""
        if self.game.is_over:
            raise IllegalOrderError("the game is over")
        filed_any = False
        for order in orders:
            filed, key = self.game.to_file(order)
            self.game.put_orders(power, {key: filed})
            filed_any = True
        return self._done(TableChange("orders", frozenset({power}), initiator)) if filed_any else None

    def clear_orders(self, power: str, *, initiator: str) -> TableChange | None:
        self._check_order_now(power)
        mine = self.game.orders.get(power, {})
        if not mine:
            return None
        self.game.put_orders(power, dict.fromkeys(mine))
        return self._done(TableChange("orders", frozenset({power}), initiator))

    # -- seals ------------------------------------------------------------------------------------

    def seal(self, power: str, *, initiator: str, pin: str | None = None,
             then_reveal: bool = False, pin_checked: tuple[str, bool] | None = None) -> TableChange | None:
        """Seal ``power``'s orders (with its PIN when it has one and the seat is a phone).
        ``None`` when it was sealed already.  ``then_reveal`` (``serve``): when that was the last
        seal owed, the phase is revealed and adjudicated in the same operation (one "phase"
        change), and the phases nobody orders in after it too."""
        if self.stage != STAGE_ORDERS:
            raise TableRefusal("there are no orders to seal now")
        if power not in self.owing():
            raise TableRefusal(f"{self.power_name(power)} has nothing to order this phase")
        if initiator == PHONE:
            self.check_pin(power, pin, initiator=initiator, checked=pin_checked)
        if self.session.is_sealed(power):
            return None
        change = self.session.seal(power, via=initiator if initiator in (LAPTOP, COMPUTER) else PHONE)
        for p in sorted(change.powers or {power}) if change is not None else [power]:
            sealcodes.record_seal(self.table, p, self.phase, [format_order(o) for o in self.game.orders_of(p)])
        if then_reveal and self.ready():
            self._adjudicate(self.phase_disorder(), skip_empty=True)
            return self._then_computer(self._done(TableChange("phase", None, initiator)))
        return self._done(TableChange("seal", None, initiator))

    def seal_seat(self, power: str, items: Mapping[str, Iterable[str] | Mapping[str, str]], *,
                  via: str = LAPTOP, initiator: str = LAPTOP) -> list[str]:
        """The window's seal (its hot-seat turn checks who may: the power at the keyboard, a
        computer seat): ``power`` seals, with the rest of its seat at the laptop, in the session
        (when the record has no term for it, declarations at the laptop, in the hot-seat turn
        itself); the seal codes of ``items`` (power -> what it sealed: its orders' texts, or its
        declarations) are recorded; written at once.  Returns the codes, in ``items``' order."""
        if self.session.seal(power, via=via) is None and via == LAPTOP and self.session.hotseat is not None:
            self.session.hotseat.seal(power)
        phase = self.phase
        codes = [sealcodes.record_seal(self.table, p, phase, dict(what) if isinstance(what, Mapping) else list(what))
                 for p, what in items.items()]
        self._keep_turn()
        self._done(TableChange("seal", frozenset(items) or frozenset({power}), initiator))
        return codes

    def _keep_turn(self) -> None:
        """The window's hot-seat turn (who has sealed, at the laptop) in the table as it is now, so
        that the write that follows holds the seal it is written for (``serve`` has no turn)."""
        if self.session.hotseat is not None:
            self.table.hotseat = self.session.hotseat.to_part()

    # -- the laptop's hot-seat turn -------------------------------------------------------------------

    def adopt_seals(self, *, initiator: str = HOST) -> TableChange | None:
        """A game saved by the other door (the window's by ``serve``, ``serve``'s by the window):
        who had sealed this phase moves into this door's one record (``TableSession.adopt``).
        ``None`` when nothing moved."""
        if not self.session.adopt(self.phase):
            return None
        self._keep_turn()
        return self._done(TableChange("seal", frozenset(self.session.sealed), initiator))

    def seat_turn(self, hotseat: HotSeatSession) -> TableSession:
        """The window's hot-seat turn joins the one record of who has sealed: the service's session
        is over its own table with ``hotseat`` (a new one when the table or the turn is another)."""
        ts = self.session
        if ts.table is not self.table or ts.hotseat is not hotseat:
            ts = TableSession(self.table, self.game.board.power_ids, hotseat=hotseat)
            self.session = ts
        return ts

    def keep_turn(self, *, initiator: str = LAPTOP) -> TableChange | None:
        """The laptop's hot-seat turn moved (a stage, a round, a notice): kept in the table as it
        is now, and the phones are told when who has sealed changed (the session's record).
        ``None`` when the table held it already."""
        hotseat = self.session.hotseat
        if hotseat is None:
            return None
        value = hotseat.to_part()
        moved = self.table.hotseat != value  # (the parts' JSON objects compared: exact)
        if moved:
            self.table.hotseat = value
        self.session.turn_moved()
        return self._done(TableChange(TURN, frozenset(), initiator)) if moved else None

    # the turn's steps: the window's curtain asks, the service moves the turn and keeps it (each
    # step one operation: the turn changed, kept in the table, its one change record)

    def _hotseat(self) -> HotSeatSession:
        hotseat = self.session.hotseat
        if hotseat is None:
            raise TableRefusal("this table has no hot-seat turn (phones only)")
        return hotseat

    def begin_turn(self, phase: str, writers: Sequence[str], *, last: Iterable[str] = (),
                   kept: tuple[str, tuple[str, ...], frozenset[str], str] | None = None,
                   initiator: str = LAPTOP) -> TableChange | None:
        """A phase begins at the laptop: ``writers`` owe orders, the first drawn at random;
        ``last`` (the computer's seats) go after the people (the curtain never calls them);
        ``kept`` (phase, order, sealed, round) after the host took back an adjudication and kept
        the seals: when it is this phase's orders round, its order and seals come back."""
        s = self._hotseat()
        s.begin_turn(phase, writers)
        behind = set(last)
        if behind:
            s.order = tuple(p for p in s.order if p not in behind) + tuple(p for p in s.order if p in behind)
        if kept is not None and kept[0] == s.phase and kept[3] == s.round and not s.declaring:
            s.order = tuple(p for p in kept[1] if p in s.order) + tuple(p for p in s.order if p not in kept[1])
            s.sealed = set(kept[2]) & set(s.order)
            if s.sealed:
                s.stage = READY if s.all_sealed else CURTAIN
        return self.keep_turn(initiator=initiator)

    def resume_turn(self, saved: HotSeatSession, *, initiator: str = LAPTOP) -> TableChange | None:
        """An opened file's turn for the phase being played: who writes, who sealed, what the table
        was told, the stage (nobody at the keyboard)."""
        self._hotseat().resume(saved)
        return self.keep_turn(initiator=initiator)

    def set_writers(self, writers: Sequence[str], *, initiator: str = LAPTOP) -> TableChange | None:
        """The host marked or lifted civil disorder: the turn goes on without (or with) them."""
        self._hotseat().set_writers(writers)
        return self.keep_turn(initiator=initiator)

    def start_writing(self, *, initiator: str = LAPTOP) -> TableChange | None:
        """The talks are over: the curtain goes up (``HotSeatError`` when it is up already)."""
        self._hotseat().start_writing()
        return self.keep_turn(initiator=initiator)

    def start_declarations(self, *, initiator: str = LAPTOP) -> TableChange | None:
        """Formal Diplomacy: the talks are over, each power declares behind the curtain."""
        self._hotseat().start_declarations()
        return self.keep_turn(initiator=initiator)

    def end_declarations(self, notice: str, *, initiator: str = LAPTOP) -> TableChange | None:
        """The declarations were revealed (``notice``: what the table is told): the orders round
        begins behind the curtain."""
        s = self._hotseat()
        s.end_declarations()
        s.notices.append(notice[:1000])
        return self.keep_turn(initiator=initiator)

    def open_seat(self, power: str, pin: str | None = None, *, by_host: bool = False, proved: bool = False,
                  notice: str | None = None, initiator: str = LAPTOP) -> TableChange | None:
        """``power`` takes the laptop (``HotSeatError`` when it may not: the turn decides, see
        :meth:`HotSeatSession.open`); ``notice``: what the table is told (opened out of turn)."""
        s = self._hotseat()
        s.open(power, pin, by_host=by_host, proved=proved)
        if notice:
            s.notices.append(notice[:1000])
        return self.keep_turn(initiator=initiator)

    def close_seat(self, *, initiator: str = LAPTOP) -> TableChange | None:
        """The power at the keyboard steps away without sealing (``None``: nobody was there)."""
        s = self._hotseat()
        if s.stage != ENTERING:
            return None
        s.close()
        return self.keep_turn(initiator=initiator)

    def reveal_turn(self, *, force: bool = False, initiator: str = LAPTOP) -> TableChange | None:
        """The laptop's round is revealed: everyone sealed, or the host forces it (``HotSeatError``
        otherwise)."""
        self._hotseat().reveal(force=force)
        return self.keep_turn(initiator=initiator)

    def tell_table(self, notice: str, *, initiator: str = LAPTOP) -> TableChange | None:
        """What the table was told this turn (kept with the turn: a resumed game shows it again)."""
        self._hotseat().notices.append(notice[:1000])
        return self.keep_turn(initiator=initiator)

    def seat_pins(self, pins: Mapping[str, str], players: Mapping[str, str]) -> None:
        """The turn's copy of the table's PIN hashes and players (read from the table: the table
        is their one record, nothing is written)."""
        s = self._hotseat()
        s.pins = dict(pins)
        s.players = dict(players)

    def keep_declarations(self, said: Mapping[str, Mapping[str, str]], *, initiator: str = LAPTOP) -> TableChange | None:
        """Formal Diplomacy at the laptop: powers seal their declarations (``said``: power ->
        other power -> relation), kept in the table, secret, until all are revealed (a power's
        own name and powers not on the board are left out).  ``None`` when there were none."""
        if not said:
            return None
        ids = self.game.board.power_ids
        pending = pending_declarations(self.table)
        for power, mine in said.items():
            pending[power] = {o: r for o, r in mine.items() if o != power and o in ids}
        self.table.declarations = DeclarationsPart.from_dict(pending)
        return self._done(TableChange(TURN, frozenset(said), initiator))

    def drop_declarations(self, *, initiator: str = LAPTOP) -> TableChange | None:
        """A new turn or round at the laptop: no declaration is pending (``None``: none was)."""
        if self.table.declarations is None:
            return None
        self.table.declarations = None
        return self._done(TableChange(TURN, frozenset(), initiator))

    def take_declarations(self, powers: Iterable[str], *, initiator: str = LAPTOP) -> dict[str, dict[str, str]]:
        """The laptop reveals its declarations round: the pending declarations of ``powers`` (the
        ones that sealed or declared on a phone) are taken out of the table, with their seal
        codes; the caller applies them (:meth:`apply_declarations`)."""
        counted = set(powers)
        pending = {p: d for p, d in pending_declarations(self.table).items() if p in counted}
        self.table.declarations = None
        sealcodes.clear_declaration_codes(self.table)
        self._done(TableChange(TURN, frozenset(), initiator))
        return pending

    def reveal_seal_codes(self, *, initiator: str = LAPTOP) -> sealcodes.Verdict:
        """The laptop's reveal: the phase's secret becomes public with the codes given at sealing,
        and every code is recomputed from the orders revealed now (a mismatch is an alarm)."""
        verdict = sealcodes.reveal_codes(self.table, self.phase, sealcodes.orders_by_power(self.game.all_orders()))
        self._done(TableChange(TURN, frozenset(), initiator))
        return verdict

    def forget_seals(self, powers: Iterable[str], *, initiator: str = LAPTOP) -> TableChange | None:
        """The window reopened ``powers`` at the curtain: their seal codes go (a new seal gives new
        ones); ``None`` when none had a code."""
        gone = [p for p in powers if sealcodes.code_of(self.table, p, self.phase)]
        for p in gone:
            sealcodes.forget_seal(self.table, p)
        return self._done(TableChange("unseal", frozenset(gone), initiator)) if gone else None

    def unseal(self, power: str, *, initiator: str, pin: str | None = None,
               pin_checked: tuple[str, bool] | None = None) -> TableChange | None:
        if not self.session.is_sealed(power):
            return None
        if initiator == PHONE:
            self.check_pin(power, pin, initiator=initiator, checked=pin_checked)
        self.session.unseal(power, via=PHONE if initiator != LAPTOP else LAPTOP)
        sealcodes.forget_seal(self.table, power)
        self._keep_turn()
        return self._done(TableChange("unseal", None, initiator))

    # -- Formal Diplomacy -------------------------------------------------------------------------

    def write_declarations(self, power: str, declarations: Mapping[str, Any], *, initiator: str,
                           then_reveal: bool = False) -> TableChange:
        """``power``'s declarations for this phase, secret until all are written (may be written
        again until then).  ``then_reveal``: the last one owed reveals them all, in the same
        operation (one "declarations" change)."""
        if self.stage != STAGE_DECLARATIONS:
            raise TableRefusal("declarations are made only before the orders of a movement phase, in "
                               "a game of Formal Diplomacy")
        if power not in self.owing():
            raise TableRefusal(f"{self.power_name(power)} has no pieces left to declare for")
        said: dict[str, str] = {}
        for other, word in declarations.items():
            if other not in self.game.board.power_ids or other == power:
                raise TableRefusal(f"there is no other power {str(other)[:40]!r} in this game")
            try:
                said[str(other)] = relation_word(str(word))
            except ValueError as exc:
                raise TableRefusal(str(exc)) from None
        self.table.declarations_part().put(power, said)
        self.session.declare(power, via=PHONE if initiator == PHONE else LAPTOP)
        if then_reveal and self.all_declared():
            self._reveal_declarations(None)
            return self._then_computer(self._done(TableChange("declarations", None, initiator)))
        return self._done(TableChange("declare", None, initiator))

    def all_declared(self) -> bool:
        return set(self.owing()) <= set(self.session.declared)

    def reveal_declarations(self, *, initiator: str,
                            declarations: Mapping[str, Mapping[str, str]] | None = None) -> TableChange:
        """Reveal this phase's declarations together and apply them (``Game.declare``)."""
        self._reveal_declarations(declarations)
        return self._then_computer(self._done(TableChange("declarations", None, initiator)))

    def _reveal_declarations(self, declarations: Mapping[str, Mapping[str, str]] | None) -> None:
        pending = declarations if declarations is not None else (
            self.table.declarations.entries() if self.table.declarations is not None else {})
        revealed = {p: dict(d) for p, d in pending.items()}
        sealcodes.clear_declaration_codes(self.table)
        self.game.declare(revealed)
        self._record_declarations(revealed)

    def _record_declarations(self, revealed: Mapping[str, Mapping[str, str]]) -> None:
        """This phase's declarations are revealed (the stage moves on to the orders at every
        door, whoever revealed them): kept with what they said."""
        phones = self.table.phones_part()
        phones.declarations_revealed = self.phase
        phones.revealed_declarations = RevealedDeclarationsPart.from_dict({p: dict(d) for p, d in revealed.items()})

    # -- reveal, adjudicate, undo ------------------------------------------------------------------

    def ready(self) -> bool:
        """Every power that owes orders has sealed them."""
        owing = self.owing()
        return self.stage == STAGE_ORDERS and bool(owing) and set(owing) <= set(self.session.sealed)

    def anything_written(self) -> bool:
        return bool(self.game.all_orders()) or bool(self.session.sealed)

    def waiting(self) -> list[str]:
        """The powers the reveal would not wait for: owing orders (or declarations) and not sealed
        (or declared), board order."""
        if self.stage == STAGE_DECLARATIONS:
            return [p for p in self.owing() if p not in self.session.declared]
        return self.unsealed()

    def reveal_refusal(self, phase: str | None) -> str | None:
        """Why the host's reveal would not adjudicate now (``None``: it would).  A bare reveal
        (``phase`` None) never adjudicates a phase in which nothing was written or sealed (it may
        already be the next phase); a forced one names the phase it means, and one named for a
        phase that has ended does nothing."""
        if self.stage == STAGE_OVER:
            return "the game is over"
        if phase is not None:
            if phase != self.phase:
                return (f"{_phase_text(phase)} is not being played (the game is at "
                        f"{self.game.state.phase.label}): nothing done")
            return None
        if self.ready() or self.anything_written() or self.stage == STAGE_DECLARATIONS and self.session.declared:
            return None
        label = self.game.state.phase.label
        return (f"nothing has been written or sealed in {label} yet. To reveal and adjudicate {label} "
                f"anyway, name it: reveal {self.phase}")

    def reveal(self, phase: str | None = None, *, initiator: str = HOST,
               disorder: Iterable[str] | None = None, skip_empty: bool = False) -> TableChange:
        """The host's reveal.  Bare (``phase`` None): only when all have sealed, else
        TableRefusal naming who has not.  Forced: ``phase`` must be the phase being played
        (StalePhaseError otherwise: one typed for a phase that ended does nothing)."""
        refusal = self.reveal_refusal(phase)
        if refusal is not None:
            raise (StalePhaseError if phase is not None else TableRefusal)(refusal)
        if self.stage == STAGE_DECLARATIONS:
            return self.reveal_declarations(initiator=initiator)
        return self.adjudicate(initiator=initiator, disorder=disorder, skip_empty=skip_empty)

    def phase_disorder(self) -> frozenset[str]:
        """The powers in civil disorder if the phase were adjudicated now (rules XIV.1): marked
        by the host, unplayed, and in a movement phase those with units that gave no order."""
        if not self.civil_disorder_rules:
            return frozenset()
        state = self.game.state
        ids = self.game.board.power_ids
        typed = self.table
        out = set(typed.marked_disorder(ids)) | (set(ids) - set(typed.powers_in_play(ids)))
        out |= without_orders(state, self.game.all_orders())
        return frozenset(p for p in out if not state.is_eliminated(p))

    def adjudicate(self, *, initiator: str = HOST, disorder: Iterable[str] | None = None,
                   skip_empty: bool = False, turn_kept_by_caller: bool = False) -> TableChange:
        """Adjudicate the phase with every filed order and move on (nobody has sealed the next);
        ``skip_empty``: adjudicate straight after the phases in which nobody has anything to order.
        ``turn_kept_by_caller`` (the window): the hot-seat flow reveals the seal codes, starts the
        next turn and lets its computer seats write, itself; only the game moves here."""
        if self.game.is_over:
            raise TableRefusal("the game is over")
        gone = self.phase_disorder() if disorder is None else frozenset(disorder)
        if turn_kept_by_caller:
            self.game.adjudicate(disorder=gone)
            return self._done(TableChange("phase", None, initiator))
        self._adjudicate(gone, skip_empty=skip_empty)
        return self._then_computer(self._done(TableChange("phase", None, initiator)))

    def _adjudicate(self, disorder: frozenset[str], *, skip_empty: bool) -> HistoryEntry:
        # every code recomputed from the orders revealed now (a mismatch is an alarm: io's MAC
        # refuses an edited file, this catches what got past it)
        sealcodes.reveal_codes(self.table, self.phase, sealcodes.orders_by_power(self.game.all_orders()))
        entry = self.game.adjudicate(disorder=disorder)
        self.session.begin_phase(self.phase)
        if skip_empty:
            self._skip_empty_phases()
        return entry

    def _skip_empty_phases(self) -> None:
        while self.stage == STAGE_ORDERS and not self.owing():
            self.game.adjudicate()
            self.session.begin_phase(self.phase)

    def skip_empty_phases(self, *, initiator: str = HOST) -> TableChange | None:
        before = len(self.game.history)
        self._skip_empty_phases()
        if len(self.game.history) == before:
            return None
        return self._done(TableChange("phase", None, initiator))

    @property
    def last_entry(self) -> HistoryEntry | None:
        return self.game.history[-1] if self.game.history else None

    def undo_adjudication(self, *, initiator: str = HOST, skip_empty: bool = False,
                          turn_kept_by_caller: bool = False) -> tuple[HistoryEntry | None, TableChange | None]:
        """The host takes back the last adjudication (its position and orders come back, and
        nobody has sealed them); (the entry, the change), or (None, None) when nothing was.
        ``skip_empty`` (``serve``, which adjudicates the phases nobody orders in by itself): the
        phases nobody orders in are taken back too, down to one somebody orders in.
        ``turn_kept_by_caller`` (the window): the hot-seat flow restores its own turn."""
        entry = self.game.undo_adjudication()
        if entry is None:
            return None, None
        while skip_empty and self.stage == STAGE_ORDERS and not self.owing() and self.game.history:
            entry = self.game.undo_adjudication()
            assert entry is not None
        if not turn_kept_by_caller:
            self.session.begin_phase(self.phase)
        return entry, self._done(TableChange("phase", None, initiator))

    def restore(self, state: GameState, history: Iterable[HistoryEntry], orders: Mapping[str, Mapping[str, Order]],
                draw: Any, table: TableState) -> None:
        """Put the game and the table back as a write that failed found them (the same objects:
        the doors share them).  No change record: the caller tells everybody to look again."""
        g = self.game
        g.state = state
        g.history[:] = list(history)
        g.orders.clear()
        g.orders.update({p: dict(o) for p, o in orders.items()})
        g.draw = draw
        self.table.assign(table.copy())

    def phase_moved(self, *, initiator: str = LAPTOP) -> TableChange:
        """The window's hot-seat turn moved to a new phase (its own reveal): the session starts it."""
        self.session.begin_phase(self.phase)
        return self._then_computer(self._done(TableChange("phase", None, initiator)))

    # -- PINs -------------------------------------------------------------------------------------

    def pin_hash(self, power: str) -> str | None:
        return self.table.pin_hash(power)

    def check_pin(self, power: str, pin: str | None, *, initiator: str,
                  checked: tuple[str, bool] | None = None) -> None:
        """``power``'s PIN through the one failure counter every PIN door shares.  A wrong PIN is
        counted and written at once (a restart does not reset it) before PinRefusal is raised;
        PinWait while it must wait; an empty PIN is no try (PinRefusal, not counted).
        ``checked``: (the stored hash, whether ``pin`` matched it), compared by the caller outside
        its lock; used only while that hash is still the stored one (else compared here)."""
        stored = self.pin_hash(power)
        if stored is None:
            return
        name = self.power_name(power)
        if not isinstance(pin, str):
            pin = None
        before = self.pin_guard.failures(power)
        try:
            ok = self.pin_guard.check(power, stored, pin, name,
                                      matched=checked[1] if checked is not None and checked[0] == stored else None)
        except PinWaitError as exc:
            raise PinWait(str(exc), exc.retry_after) from None
        if not pin:
            raise PinRefusal(f"{name} has a PIN: type it")
        if not ok:
            self._done(TableChange("pin", frozenset({power}), initiator))  # the count, on disk now
            raise PinRefusal(f"wrong PIN for {name}")
        if needs_upgrade(stored):
            self._store_pin(power, hash_pin(pin))
        if before or needs_upgrade(stored):
            self._done(TableChange("pin", frozenset({power}), initiator))

    def pin_failed(self, counter: str, *, initiator: str, counted: bool = False) -> TableChange:
        """A wrong PIN typed elsewhere than :meth:`check_pin` (the curtain, the host prompt: the
        window checks those itself): counted on ``counter`` (a power, or ``pins.HOST``) and
        written at once, so a restart does not reset it.  ``counted``: the table's ``PinGuard``
        has counted it already (its ``check``), only the write is left."""
        if not counted:
            self.pin_guard.failed(counter)
        powers = frozenset({counter}) if counter in self.game.board.power_ids else frozenset()
        return self._done(TableChange("pin", powers, initiator))

    def try_pin(self, counter: str, stored: str, pin: str | None, name: str = "", *, initiator: str) -> bool:
        """A PIN typed at a prompt the window checks itself (the host prompt, the draw vote, a
        ballot) through the table's one counter: PinWaitError while ``counter`` must wait; a wrong
        PIN is counted and written at once, a right one clears the count (written when there was
        one); an empty PIN is no try (False, not counted)."""
        before = self.pin_guard.failures(counter)
        ok = self.pin_guard.check(counter, stored, pin, name)
        if pin and (not ok or before):
            self._done(TableChange("pin", self._pin_powers(counter), initiator))
        return ok

    def pin_succeeded(self, counter: str, *, initiator: str) -> TableChange | None:
        """A right PIN the window checked itself: ``counter``'s count is cleared (written when
        there was one; ``None`` when there was none)."""
        if not self.pin_guard.failures(counter):
            self.pin_guard.succeeded(counter)
            return None
        self.pin_guard.succeeded(counter)
        return self._done(TableChange("pin", self._pin_powers(counter), initiator))

    def renew_pin_hashes(self, powers: Iterable[str], pin: str, *, initiator: str) -> TableChange | None:
        """A right PIN of ``powers``' seat opened it: an older save's hash of that PIN is
        renewed (scrypt); ``None`` when none needed it."""
        renewed = []
        for p in powers:
            stored = self.pin_hash(p)
            if stored is not None and needs_upgrade(stored) and pin_matches(stored, pin):
                self._store_pin(p, hash_pin(pin))
                renewed.append(p)
        return self._done(TableChange("pin", frozenset(renewed), initiator)) if renewed else None

    def pin_door(self, initiator: str, counter: str | None = None) -> PinDoor:
        """The table's one counter as a prompt of ``initiator``'s seat uses it (every try through
        the service); ``counter``: every try counts there (see :class:`PinDoor`)."""
        return PinDoor(self, initiator, counter)

    def _pin_powers(self, counter: str) -> frozenset[str]:
        return frozenset({counter}) if counter in self.game.board.power_ids else frozenset()

    def set_pins(self, pins: Mapping[str, str], *, initiator: str = HOST) -> TableChange:
        """The table's PIN hashes (never PINs), all at once (New Game's): kept as ``pins``."""
        self.table.pins = PinsPart.of_entries(pins)
        return self._done(TableChange("pin", frozenset(self.table.pins.entries()), initiator))

    def change_pin(self, powers: Iterable[str], pin: str, *, initiator: str) -> str:
        """A PIN renewed mid-game (issue 20: the host's, or a seat's own): ``pin`` (checked by
        the caller with ``pins.pin_problem``) hashed at once and stored for every power of the
        seat, the kick's block and their failure counts lifted; written at once.  The hash."""
        stored = hash_pin(pin)
        self.set_pin_hash(powers, stored, initiator=initiator)
        return stored

    def _store_pin(self, power: str, stored: str) -> None:
        turn_pins = self.table.hotseat.pins if self.table.hotseat is not None else None
        in_turn = turn_pins is not None and turn_pins.holds(power)
        if turn_pins is not None and in_turn:
            turn_pins.put(power, stored)  # (an older save's PIN, in its turn)
        if (self.table.pins is not None and self.table.pins.holds(power)) or not in_turn:
            self.table.pins_part().put(power, stored)

    def set_pin_hash(self, powers: Iterable[str], stored: str, *, initiator: str) -> TableChange:
        """``powers`` get the PIN whose hash is ``stored`` (a phone cut off may join with it)."""
        chosen = tuple(powers)
        kicked = self.table.phones.kicked if self.table.phones is not None else None
        for p in chosen:
            self._store_pin(p, stored)
            if kicked is not None:
                kicked.drop(p)
            self.pin_guard.succeeded(p)
        return self._done(TableChange("pin", frozenset(chosen), initiator))

    # -- the event's rulings ----------------------------------------------------------------------

    def void_late_orders(self, powers: Iterable[str], *, initiator: str = CLOCK,
                         record: bool = True) -> TableChange | None:
        """Late orders void (the event's rule): the powers' orders are withdrawn, each of their
        units holds, and nothing more is accepted from them this phase (recorded in the table's
        ``late_orders``; ``order_refusal`` says so to every seat).  ``record`` False: the caller
        records the verdict itself (the window's event, with its warning), in the same step."""
        state = self.game.state
        if state.phase.kind != MOVEMENT:
            return None
        gone = tuple(p for p in self.game.board.power_ids if p in set(powers))
        if not gone:
            return None
        for p in gone:
            book: dict[str, Order | None] = dict.fromkeys(self.game.orders.get(p, {}))
            book.update({u.province: Hold(p, u.kind, u.location) for u in state.units_of(p)})
            self.game.put_orders(p, book)
        if record:
            self.record_late(gone, LATE_VOID)
        return self._done(TableChange("late", frozenset(gone), initiator))

    def record_late(self, powers: Iterable[str], verdict: str) -> None:
        """The verdict on ``powers``' late orders this phase, after the ones before it (an item of
        the list that is no object is left out, as it always was)."""
        log = self.table.late_orders.entries() if self.table.late_orders is not None else []
        log += [LateOrderPart(phase=self.phase, power=p, verdict=verdict) for p in powers]
        self.table.late_orders = LateOrdersPart(log)

    def warn_late(self, powers: Iterable[str], *, initiator: str = CLOCK) -> TableChange:
        late = tuple(powers)
        self.record_late(late, "warning")
        return self._done(TableChange("table", frozenset(late), initiator))

    # -- notes ------------------------------------------------------------------------------------

    def send_note(self, sender: str, to: Iterable[str], text: str, *,
                  initiator: str) -> tuple[NotePart, TableChange]:
        """A private note (seed 001) from ``sender`` to ``to``, by the one rule of every seat: the
        table allows notes, the text and the recipients are right, the game and the sender have
        room for it (``MAX_NOTES``, ``MAX_NOTES_PER_POWER``); NoteError says why not (nothing
        kept).  The door checks who is writing and how often.  (The note, the change: every
        power of the sender's and the recipients' players may see it.)"""
        if not notes_allowed(self.table):
            raise NoteError("this table does not allow written notes")
        ids = self.game.board.power_ids
        notes = with_note(self.table, self.phase, sender, list(to), text, ids)
        if sum(1 for n in notes.entries() if n.sender == sender) > MAX_NOTES_PER_POWER:
            raise NoteError(f"{self.power_name(sender)} has written as many notes as one power may in a game "
                            f"({MAX_NOTES_PER_POWER})")
        self.table.notes = notes
        note = notes.entries()[-1]
        reach: set[str] = set()
        for p in (sender, *note.recipients()):
            reach |= set(self.players_powers(p))
        return note, self._done(TableChange("note", frozenset(reach), initiator))

    def players_powers(self, power: str) -> tuple[str, ...]:
        """Every power of ``power``'s player (the player's name in the table), board order."""
        typed = self.table
        player = typed.player_of(power)
        if not player:
            return (power,)
        return tuple(p for p in self.game.board.power_ids if p == power or typed.player_of(p) == player)

    # -- table settings, the game's end -----------------------------------------------------------

    # each setting is one operation: the table changes, one "table" change record (the views
    # look again, the game counts as modified, the autosave writes it)

    def _setting(self, initiator: str) -> TableChange:
        return self._done(TableChange("table", None, initiator))

    def set_clock(self, settings: ClockSettings, *, initiator: str = HOST) -> TableChange:
        """The clock's settings (Table ▸ Clock)."""
        self.table.clock_part().keep_settings(settings)
        return self._setting(initiator)

    def set_secrecy(self, on: bool, *, initiator: str = HOST) -> TableChange:
        """The hot seat on or off (orders written behind the curtain)."""
        self.table.secrecy = bool(on)
        return self._setting(initiator)

    def set_disorder(self, powers: Iterable[str], *, initiator: str = HOST) -> TableChange:
        """The powers the host marks as in civil disorder (rules XIV.1), board order."""
        chosen = set(powers)
        self.table.disorder = [p for p in self.game.board.power_ids if p in chosen]
        return self._setting(initiator)

    def set_players(self, players: Mapping[str, str], *, powers: Sequence[str] | None = None,
                    player_ids: Mapping[str, str] | None = None, board_info: Mapping[str, str] | None = None,
                    initiator: str = HOST) -> TableChange:
        """Who plays which power (a board call): their names, and when given the powers in play,
        the tournament's id of each player and the event, round and board names."""
        self.table.players = PlayersPart.of_entries(players)
        if powers is not None:
            self.table.powers = list(powers)
        if player_ids is not None:
            self.table.player_ids = PlayerIdsPart.of_entries(player_ids)
        if board_info is not None:
            self.table.board_info = BoardInfoPart.of_text(board_info)
        return self._setting(initiator)

    def set_board_call(self, player_ids: Mapping[str, str], board_info: Mapping[str, str] | None = None, *,
                       initiator: str = HOST) -> TableChange:
        """The tournament's id of each power's player (New Game's board call), and the event, round
        and board names it gave."""
        self.table.player_ids = PlayerIdsPart.of_entries(player_ids)
        if board_info:
            self.table.board_info = BoardInfoPart.of_text(board_info)
        return self._setting(initiator)

    def set_board_info(self, info: Mapping[str, str], *, initiator: str = HOST) -> TableChange:
        """The event, round and board names for the result files."""
        made(self.table, "board_info", BoardInfoPart).keep(info)
        return self._setting(initiator)

    def confirm_pieces(self, phases: Sequence[str], *, initiator: str = HOST) -> TableChange:
        """The phases whose physical board was confirmed to match (the list as it is now)."""
        self.table.pieces_confirmed = [str(p) for p in phases]
        return self._setting(initiator)

    def set_hide_map(self, on: bool, *, initiator: str = HOST) -> TableChange:
        """The table plays on its own board: no map on the phones or the projector."""
        self.table.hide_map = bool(on)
        return self._setting(initiator)

    def set_event(self, rules: EventRules, *, initiator: str = HOST) -> TableChange:
        """A tournament board's rules (Tournament ▸ Event rules)."""
        made(self.table, "event", EventPart).keep_rules(rules)
        return self._setting(initiator)

    def set_ballots(self, records: Sequence[BallotRecord], *, initiator: str = HOST) -> TableChange:
        """The ballots' outcomes (who proposed what, passed or not; never who voted what): a new
        ballot is recorded after the ones before it."""
        self.table.ballots = BallotsPart([BallotPart.from_dict(r.as_dict()) for r in records])
        return self._setting(initiator)

    def set_computer_players(self, seats: Mapping[str, str], seed: int, players: Mapping[str, str], *,
                             initiator: str = HOST) -> TableChange:
        """The window's choice of the computer's seats, all at once: ``seats`` (power -> level),
        the computer's seed, and the people's names left (the computer's powers have none)."""
        self.table.computer_seats = ComputerSeatsPart.of_entries(seats)
        self.table.computer_seed = int(seed)
        self.table.players = PlayersPart.of_entries(players)
        return self._setting(initiator)

    def table_changed(self, *, initiator: str = HOST) -> TableChange:
        """Nothing in the record moved, but the table counts as changed (an imported game is not
        saved yet: closing asks)."""
        return self._setting(initiator)

    # the table's own bookkeeping: no view draws it, it does not make the game "modified" (no
    # change record); written with the next change

    def keep_clock(self, state: Mapping[str, Any] | None) -> None:
        """The running clock (``ClockModel.to_dict``), or none."""
        self.table.clock_state = ClockStatePart.from_dict(state) if state is not None else None

    def keep_clock_plan(self, phase: str, plan: list[Any]) -> None:
        """The periods ``phase`` (``S1901M``) is played with (Wilson rounds), beside the other
        phases' (a later version's keys of the part stay)."""
        made(self.table, "clock_plans", ClockPlansPart).keep_plan(phase, plan)

    def keep_notes_allowed(self, on: bool) -> None:
        """Private notes allowed at this table (Table ▸ Notes)."""
        self.table.notes_allowed = bool(on)

    def keep_declared(self, phases: Sequence[str]) -> None:
        """Formal Diplomacy: the phases whose declarations were revealed."""
        self.table.declared = [str(p) for p in phases]

    def keep_hosting_port(self, port: int | None) -> None:
        """The phones' port while the game is hosted (``None``: not hosted)."""
        self.table.hosting_port = port

    # -- the phones' links and devices (table/phonebook.py) ------------------------------------------

    def phone_links(self) -> dict[str, str]:
        """Each power's link token; made (for every power) when the table has none that fit the
        board, as a host starts: not a change anybody hears (no phone has a link yet)."""
        phones = self.table.phones_part()
        phonebook.ensure_links(phones, self.game.board.power_ids)
        return phonebook.tokens(phones)

    def _phone_pin_hashes(self, powers: Iterable[str]) -> dict[str, str | None]:
        return {p: self.pin_hash(p) for p in powers}

    def kick_phones(self, power: str, *, initiator: str = HOST) -> tuple[str, TableChange]:
        """The host cuts off the phones of ``power``'s player: new links for all the player's powers
        (the old ones answer "not valid"), every device of theirs gone, the PIN they had no longer
        joins.  Returns ``power``'s new link token and the change."""
        if power not in self.game.board.power_ids:
            raise TableRefusal(f"there is no power {power!r}")
        affected = self.players_powers(power)
        phones = self.table.phones_part()
        phonebook.cut_off(phones, affected, self._phone_pin_hashes(affected))
        change = self._done(TableChange("kicked", frozenset(affected), initiator))
        return phonebook.tokens(phones)[power], change

    def kick_device(self, device: str, *, initiator: str = HOST) -> str:
        """The host cuts off one device that joined by PIN: its token stops working, the power's
        other devices and its link go on, the PIN it knew no longer joins.  Returns its power."""
        phones = self.table.phones_part()
        known = phonebook.devices(phones, self.game.board.power_ids)
        entry = known.get(device)
        if entry is None:
            raise TableRefusal(f"there is no device {device!r} (devices: {', '.join(known) or 'none'})")
        power = entry.power
        phonebook.cut_off_device(phones, device, self.pin_hash(power))
        self._done(TableChange("kicked", frozenset(self.players_powers(power)), initiator))
        return power

    def join_device(self, power: str, stored: str, *, initiator: str = PHONE) -> tuple[str, str]:
        """A device proved ``power``'s PIN (``stored``: the hash it matched, checked by the caller):
        it gets a token of its own (device, token), and the power's phones count one more.
        Refused when the PIN changed meanwhile, when the host cut the power off with that PIN, or
        when the power has as many devices as it may."""
        name = self.power_name(power)
        if self.pin_hash(power) != stored:  # changed while it was checked
            raise TableRefusal(f"{name}'s PIN has just changed: type the new one")
        phones = self.table.phones_part()
        if phonebook.cut_off_with(phones, power) == stored:
            raise TableRefusal(f"the host cut {name}'s phone off: joining needs a new PIN (ask the host)")
        mine = [d for d, e in phonebook.devices(phones, self.game.board.power_ids).items() if e.power == power]
        if len(mine) >= phonebook.MAX_DEVICES_PER_POWER:
            raise TableRefusal(f"{len(mine)} devices have joined {name} already: the host cuts one off first "
                               f"(kick DEVICE)")
        device, token = phonebook.add_device(phones, power)
        phonebook.count_join(phones, power)
        self._done(TableChange("joined", frozenset(self.players_powers(power)), initiator))
        return device, token

    def phone_joined(self, power: str, *, initiator: str = PHONE) -> TableChange:
        """Another phone opened ``power``'s link: counted, and the player's powers are told."""
        phonebook.count_join(self.table.phones_part(), power)
        return self._done(TableChange("joined", frozenset(self.players_powers(power)), initiator))

    def keep_phone_clock(self, clock: PhoneClockPart | None) -> None:
        """The clock the phones show, kept in the table (``serve`` shows it again after a restart);
        the host tells the phones itself (the clock is not a change of the game)."""
        phonebook.keep_clock(self.table.phones_part(), clock)

    # -- computer seats ---------------------------------------------------------------------------

    def computer_seats(self) -> dict[str, str]:
        """The powers the computer plays, with its level (the table's ``computer_seats``)."""
        return computer.computer_seats(self.table, self.game.board.power_ids)

    def set_computer_seat(self, power: str, level: str | None, *, initiator: str = HOST) -> TableChange:
        """The host hands ``power``'s seat to the computer at ``level``, or back to a person
        (``None``).  Orders the person wrote this phase stay; the computer writes its own only
        when it has written none (:meth:`write_computer_orders`)."""
        if initiator != HOST:
            raise TableRefusal("only the host hands a seat to the computer or back")
        if power not in self.game.board.power_ids:
            raise TableRefusal(f"there is no power {power!r} at this table")
        if level is not None and level not in LEVELS:
            raise TableRefusal(f"the computer plays at {', '.join(LEVELS)}, not {level!r}")
        part = self.table.computer_seats_part()
        if level is None:
            part.drop(power)
        else:
            part.put(power, level)
            if not computer.computer_seed(self.table):  # a known seed would tell its orders
                self.table.computer_seed = computer.draw_computer_seed()
        return self._done(TableChange("table", None, initiator))

    def _then_computer(self, change: TableChange) -> TableChange:
        """After a change that starts a writing period: the computer seats write theirs."""
        self.write_computer_orders()
        return change

    def write_computer_orders(self) -> TableChange | None:
        """The writing period starts: every computer seat that owes orders and has not sealed
        writes them from the public position (never anyone's orders) and seals them; they stay
        secret until the reveal like everyone's.  None when no computer seat owed anything."""
        if self.stage == STAGE_DECLARATIONS:
            return self._computer_declarations()
        if self.stage != STAGE_ORDERS:
            return None
        wrote = False
        for power, level in sorted(self.computer_seats().items()):
            if power not in self.unsealed():
                continue
            if not self.game.orders.get(power):
                for order in computer.computer_orders(self.table, self.game.state, power, level):
                    self.give_order(order, initiator=COMPUTER)
            self.seal(power, initiator=COMPUTER)
            wrote = True
        return TableChange("seal", None, COMPUTER) if wrote else None

    def _computer_declarations(self) -> TableChange | None:
        last: TableChange | None = None
        for power, level in sorted(self.computer_seats().items()):
            if power in self.owing() and power not in self.session.declared:
                said = computer.computer_declarations(self.table, self.game.state, power, level)
                last = self.write_declarations(power, said, initiator=COMPUTER)
        return last

    def computer_votes(self, proposal: str, to: str | None = None) -> dict[str, bool]:
        """The computer seats' votes on a draw (``proposal`` "draw") or a concession to ``to``."""
        return computer.computer_votes(self.table, self.game.state, proposal, to)

    def apply_declarations(self, declarations: Mapping[str, Mapping[str, str]], *,
                           initiator: str) -> TableChange:
        """Formal Diplomacy: the declarations revealed together are applied (``Game.declare``);
        the window's flow, which keeps its own declarations round, reveals them through here."""
        revealed = {p: dict(d) for p, d in declarations.items()}
        self.game.declare(revealed)
        self._record_declarations(revealed)
        return self._done(TableChange("declarations", None, initiator))

    def set_rules(self, rules: RuleSet, *, initiator: str = HOST) -> None:
        """The sandbox's choice of rules: the next adjudication follows them (nothing to redraw,
        no change record; the file keeps the edition with the next change)."""
        self.game.rules = rules

    def declare_draw(self, powers: Iterable[str], *, initiator: str = HOST) -> TableChange:
        self.game.declare_draw(list(powers))
        return self._done(TableChange("game", None, initiator))

    def set_end_year(self, year: int | None, *, initiator: str = HOST) -> TableChange | None:
        if self.game.end_year == year:
            return None
        was_over = self.game.is_over
        self.game.end_year = year
        # a limit that ends the game (or a limit lifted that lets it go on): every view looks again,
        # as after a phase; a limit set or fallen during a phase only names the last year: the phase,
        # its running clock and its seals go on
        return self._done(TableChange("game" if self.game.is_over != was_over else "table", None, initiator))

    def set_position(self, state: GameState, orders: Mapping[str, Mapping[str, Order]] | None = None, *,
                     initiator: str = HOST) -> TableChange:
        """The sandbox's set-up: ``state`` replaces the position; ``orders``: the order book to put
        back (an undo), else the orders the new position keeps."""
        self.game.set_position(state)
        if orders is not None:
            self.game.clear_orders()
            for power, book in orders.items():
                self.game.put_orders(power, dict(book))
        return self._done(TableChange("position", None, initiator))


class PinDoor:
    """The table's one PIN failure counter as a prompt uses it (the draw vote, a ballot): the
    waits are read from the service's ``PinGuard``, and every try is counted and written by the
    service (:meth:`TableService.try_pin`).  ``counter``: every try counts there whoever's PIN
    it is (``pins.HOST`` for a voter's page, which the laptop's holder summons at will: its
    wrong PINs must not lock that power out at its curtain and on its phone)."""

    def __init__(self, service: TableService, initiator: str, counter: str | None = None) -> None:
        self._service = service
        self._initiator = initiator
        self._counter = counter

    def _who(self, who: str, name: str) -> tuple[str, str]:
        return (who, name) if self._counter is None else (self._counter, "the host" if self._counter == HOST_COUNTER
                                                           else self._service.power_name(self._counter))

    def check_allowed(self, who: str, name: str = "") -> None:
        self._service.pin_guard.check_allowed(who, name)  # a power that waits at any door waits here too
        self._service.pin_guard.check_allowed(*self._who(who, name))

    def check(self, who: str, stored: str, pin: str | None, name: str = "") -> bool:
        if self._counter is None:
            return self._service.try_pin(who, stored, pin, name, initiator=self._initiator)
        self.check_allowed(who, name)
        if not pin:
            return False
        if pin_matches(stored, pin):
            return True  # never clears the counter it counts on: another power's right PIN is no
            # licence for more guesses at this one
        self._service.pin_failed(self._counter, initiator=self._initiator)
        return False

    def failures(self, who: str) -> int:
        return self._service.pin_guard.failures(self._who(who, "")[0])

    def wait(self, who: str) -> float:
        guard = self._service.pin_guard
        return max(guard.wait(who), guard.wait(self._who(who, "")[0]))


def _phase_text(short: str) -> str:
    """``S1901M`` -> "Spring 1901 (movement)"; anything else as written (cut short)."""
    seasons = {"S": "Spring", "F": "Fall", "W": "Winter"}
    kinds = {"M": "movement", "R": "retreats", "A": "adjustments"}
    if len(short) == 6 and short[0] in seasons and short[1:5].isdigit() and short[5] in kinds:
        return f"{seasons[short[0]]} {short[1:5]} ({kinds[short[5]]})"
    return repr(short[:20])


def as_state(table: TableState | Mapping[str, Any] | None) -> TableState:
    """The table's record: ``table`` itself when it is one, else read from a saved table object
    (the save boundary: ``TableState.from_table``)."""
    if isinstance(table, TableState):
        return table
    return TableState.from_table(table)
