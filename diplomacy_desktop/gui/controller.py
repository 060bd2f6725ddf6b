"""``GameController``: the window's door to the table service, and what the views hear of it.

Widgets never touch the :class:`~diplomacy_desktop.engine.game.Game` directly.  They call the
controller (order edits go through undo commands that call it back), and they redraw what the
one ``changed`` signal's record names: the table's one change type,
:class:`~diplomacy_desktop.table.changes.TableChange`.  The controller does not write the game or
the table itself either: every change is an operation of its :class:`~diplomacy_desktop.table.
service.TableService` (the same rules as the phones' door), and the service's change record,
heard once, is passed on in the controller's Qt signals (``_on_service_change``).  What stays here
is the window's own: who may be seen and who is at the keyboard, the phase being looked at, the
undo stack, the file's name (their changes are the record's window kinds: ``opened``,
``viewing``, ``visibility``).

Secrecy: ``visible_powers`` says whose current orders may be shown at all.  Every widget,
arrow and tooltip that shows orders asks :meth:`GameController.can_see` first.  By default all
powers are visible; the hot-seat flow narrows it to the power at the keyboard.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from ..engine.board import Board
from ..engine.disorder import without_orders
from ..engine.errors import IllegalOrderError
from ..engine.formal import Relations
from ..engine.game import BY_CENTRES, Game, GameEnd, HistoryEntry
from ..engine.options import orders_needed
from ..engine.orders import Build, Order, Remove, UnitOrder, Waive
from ..engine.results import OrderResult
from ..engine.rules import Edition, RuleSet
from ..engine.state import ADJUSTMENT, MOVEMENT, RETREAT, GameState
from ..io.boardfile import load_board
from ..io.savefile import open_game, save_game
from ..io.vault import Vault
from ..table.changes import CLOCK, COMPUTER, HOST, LAPTOP, OPENED, PHONE, VIEWING, VISIBILITY, TableChange
from ..table.service import TableService, as_state
from ..table.state import TableState
from .orders.commands import ClearOrdersCommand, SetOrderCommand, SetPositionCommand


class GameController(QObject):
    changed = Signal(object)  # TableChange
    phase_advanced = Signal(object)  # HistoryEntry of the phase just adjudicated
    game_ended = Signal(object)  # GameEnd
    saved = Signal(str)  # path
    error_reported = Signal(str)

    def __init__(self, game: Game | None = None, table: TableState | Mapping[str, Any] | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.game: Game = game if game is not None else Game.new(load_board("standard"))
        #: the table's one live record (the service's own: read it here, change it through the service)
        self.table: TableState = as_state(table)
        self.path: Path | None = None
        self._stamp: str | None = None  # the game file as this window last read or wrote it
        #: the game key of a table playing in secret (io.vault): with it every save of this game
        #: writes the unrevealed part encrypted; None: not a secret game (or its passphrase not given)
        self.vault: Vault | None = None
        self.undo_stack = QUndoStack(self)
        self._viewing: int | None = None
        self._visible: frozenset[str] | None = None  # None = everybody
        self._policy: Callable[[str], bool] | None = None  # who may be ordered at all (the window's mode)
        self._active: str | None = None
        self._active_seat: frozenset[str] = frozenset()  # every power of the player at the keyboard
        self._dirty = False
        #: the table game's rules of civil disorder (rules XIV.1): powers the host marked, powers
        #: nobody plays, and in a movement phase powers that gave no order are in civil disorder
        #: when adjudicated (the sandbox leaves it off: there, a power without orders just holds)
        self.civil_disorder_rules = False
        #: after an adjudication, show its results (the history entry) until the table moves on
        self.show_results_after_adjudication = True
        #: the table service over this game and table (table/service.py): the rules every door
        #: shares ("may this power order now?", late orders void, the PIN counter on disk at once)
        self.service = TableService(self.game, self.table)
        # heard through a weak reference: a QObject in a reference cycle with a plain object is
        # left to Python's garbage collector, which may then delete it under Qt (a crash)
        self.service.add_listener(weak_listener(self._on_service_change))
        #: the history's length the views last heard of (an adjudication adds one, an undo takes one)
        self._history_seen = len(self.game.history)
        #: the record of the service's last change (an undo step's redo returns it)
        self._last_record: TableChange | None = None

    def _on_service_change(self, change: TableChange) -> None:
        """The service made a change (on disk first, through its ``write`` hook): the views hear
        it once, as the controller's ``changed`` record and, for a phase, ``phase_advanced`` and
        ``game_ended`` (a PIN count or a seal is drawn by no view from the record: not passed on)."""
        if not change.drawn:
            return
        record = change.for_board(frozenset(self.board.power_ids))
        if change.kind in ("phase", "position"):
            self._on_phase_change(change.kind, record)
            return
        self._last_record = record
        self._emit(record)
        if change.kind == "game" and self.game.ended is not None:
            self.game_ended.emit(self.game.ended)

    def _on_phase_change(self, kind: str, record: TableChange) -> None:
        """A phase adjudicated or taken back, or the sandbox's position set: the orders' undo
        steps go (not a set-up's), the views look again, and an adjudication is announced."""
        history = self.game.history
        advanced = kind == "phase" and len(history) > self._history_seen
        self._history_seen = len(history)
        if kind == "phase":
            self.undo_stack.clear()
            self._viewing = len(history) - 1 if advanced and self.show_results_after_adjudication else None
        else:
            self._viewing = None
        self._last_record = record
        self._emit(record)
        if advanced:
            self.phase_advanced.emit(history[-1])
            end = self.game.ended
            if end is not None:
                self.game_ended.emit(end)

    # -- the game ---------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def state(self) -> GameState:
        """The phase being played (not the one being looked at: see :attr:`viewed_state`)."""
        return self.game.state

    @property
    def ended(self) -> GameEnd | None:
        return self.game.ended

    @property
    def modified(self) -> bool:
        return self._dirty or not self.undo_stack.isClean()

    def _emit(self, record: TableChange) -> None:
        if record.modifies:
            self._dirty = True
        self.changed.emit(record)

    # -- secrecy ----------------------------------------------------------------------------

    @property
    def visible_powers(self) -> frozenset[str]:
        if self._visible is None:
            return frozenset(self.board.power_ids)
        return self._visible

    def set_visible_powers(self, powers: Iterable[str] | None) -> None:
        """Whose current orders may be shown (``None``: everybody's)."""
        new = None if powers is None else frozenset(powers)
        if new == self._visible:
            return
        self._visible = new
        self._forget_edits()
        self.changed.emit(TableChange(VISIBILITY, initiator=LAPTOP))

    def can_see(self, power: str | None) -> bool:
        """May a widget show this power's current orders?"""
        if self._visible is None:
            return True
        return power in self._visible

    @property
    def active_power(self) -> str | None:
        """The power at the keyboard (``None``: any power may order); with a player who holds
        several powers, the first of them (:attr:`active_powers` names them all)."""
        return self._active

    @property
    def active_powers(self) -> frozenset[str]:
        """Every power of the player at the keyboard (empty: no one is, any power may order)."""
        if self._active is None:
            return frozenset()
        return self._active_seat | {self._active}

    def set_active_power(self, power: str | None, *, seat: Iterable[str] = ()) -> None:
        """``power`` is at the keyboard; ``seat``: the other powers its player holds, who may be
        ordered too (one curtain turn for the whole seat)."""
        new_seat = frozenset(seat) if power is not None else frozenset()
        if power == self._active and new_seat == self._active_seat:
            return
        self._active = power
        self._active_seat = new_seat
        self._forget_edits()
        self.changed.emit(TableChange(VISIBILITY, initiator=LAPTOP))

    def set_view(self, visible: Iterable[str] | None, active: str | None = None, *,
                 seat: Iterable[str] = ()) -> TableChange | None:
        """Whose orders may be shown (``None``: everybody's) and who is at the keyboard
        (``active`` and the rest of its ``seat``), changed together: one ``changed`` record (the
        hot seat's step after a seal, an opening or a reveal), ``None`` when nothing changed."""
        new_visible = None if visible is None else frozenset(visible)
        new_seat = frozenset(seat) if active is not None else frozenset()
        if new_visible == self._visible and active == self._active and new_seat == self._active_seat:
            return None
        self._visible = new_visible
        self._active = active
        self._active_seat = new_seat
        self._forget_edits()
        record = TableChange(VISIBILITY, initiator=LAPTOP)
        self.changed.emit(record)
        return record

    def _forget_edits(self) -> None:
        """A new power at the keyboard must neither undo nor read (in the Undo menu) the last one's edits."""
        if self.undo_stack.count():
            dirty = self.modified
            self.undo_stack.clear()
            self._dirty = self._dirty or dirty

    def set_order_policy(self, policy: Callable[[str], bool] | None) -> None:
        """Who may be given orders at all (the window's mode decides); ``None``: every power."""
        self._policy = policy
        self.notify_access_changed()

    def notify_access_changed(self) -> None:
        """Who may order or see what has changed: every view looks again."""
        self.changed.emit(TableChange(VISIBILITY, initiator=LAPTOP))

    def can_order(self, power: str) -> bool:
        """May orders be given for ``power`` now (from the map or the order panel)?"""
        if self._viewing is not None or self.game.is_over:
            return False
        if self._policy is not None and not self._policy(power):
            return False
        if self._active is not None and power not in self.active_powers:
            return False
        return self.can_see(power)

    def order_refusal(self, power: str) -> str | None:
        """Why orders for ``power`` cannot be given now (``None``: they can)."""
        if self.can_order(power):
            return None
        if self._viewing is not None:
            return "you are looking at an earlier phase: go back to the current one first"
        if self.game.is_over:
            return "the game is over"
        if self._active is not None and power not in self.active_powers:
            who = " and ".join(self.power_name(p) for p in self.board.power_ids if p in self.active_powers)
            return f"only {who} may give orders now"
        if self._policy is not None and not self._policy(power):
            return f"{self.power_name(power)} cannot be given orders here"
        return f"{self.power_name(power)}'s orders are secret now"

    def write_refusal(self, power: str) -> str | None:
        """Why nothing more may be written for ``power`` now although it may be ordered (the
        table service's answer: late orders void), asked when an order is given, not on hover."""
        return self.service.void_refusal(power)

    # -- history browsing -------------------------------------------------------------------

    @property
    def viewing(self) -> int | None:
        """Index into the history of the phase being looked at, or ``None`` for the current one."""
        return self._viewing

    def view_phase(self, index: int | None) -> None:
        if index is not None:
            index = None if not self.game.history else max(0, min(index, len(self.game.history) - 1))
        if index == self._viewing:
            return
        self._viewing = index
        self.changed.emit(TableChange(VIEWING, initiator=LAPTOP))

    def view_previous(self) -> None:
        if self._viewing is None:
            if self.game.history:
                self.view_phase(len(self.game.history) - 1)
        elif self._viewing > 0:
            self.view_phase(self._viewing - 1)

    def view_next(self) -> None:
        if self._viewing is None:
            return
        if self._viewing + 1 >= len(self.game.history):
            self.view_phase(None)
        else:
            self.view_phase(self._viewing + 1)

    @property
    def viewed_entry(self) -> HistoryEntry | None:
        if self._viewing is None:
            return None
        return self.game.history[self._viewing]

    @property
    def viewed_state(self) -> GameState:
        entry = self.viewed_entry
        return entry.state if entry is not None else self.game.state

    @property
    def last_entry(self) -> HistoryEntry | None:
        return self.game.history[-1] if self.game.history else None

    # -- orders -----------------------------------------------------------------------------

    def orders_of(self, power: str) -> dict[str, Order]:
        """The current orders of ``power`` by key; empty if they may not be shown."""
        if not self.can_see(power):
            return {}
        return dict(self.game.orders.get(power, {}))

    def order_for(self, power: str, key: str) -> Order | None:
        if not self.can_see(power):
            return None
        return self.game.order_for(power, key)

    def visible_orders(self) -> list[Order]:
        return [o for p in self.board.power_ids if self.can_see(p) for o in self.game.orders_of(p)]

    def illegal_reason(self, order: Order) -> str | None:
        """Why ``order`` is illegal in the current phase, or ``None`` if it is legal.  An order
        Formal Diplomacy forbids names the rule too ("... (Formal Diplomacy: neutral powers, seed 003)")."""
        from ..io.typed_orders import illegal_reason  # the order checks: when there is an order

        return illegal_reason(self.game.state, order)

    def orders_owed(self, power: str) -> int:
        return orders_needed(self.game.state, power)

    def unordered(self, power: str) -> list[str]:
        """Keys (provinces) of the units of ``power`` that still have no order this phase."""
        state = self.game.state
        mine = self.game.orders.get(power, {})
        kind = state.phase.kind
        if kind == MOVEMENT:
            return [u.province for u in state.units_of(power) if u.province not in mine]
        if kind == RETREAT:
            return [d.province for d in state.dislodged if d.unit.power == power and d.province not in mine]
        return []

    def orders_missing(self, power: str) -> int:
        """How many orders ``power`` still owes: unordered units, or builds / removals not chosen."""
        state = self.game.state
        if state.phase.kind != ADJUSTMENT:
            return len(self.unordered(power))
        mine = self.game.orders.get(power, {}).values()
        owed = orders_needed(state, power)
        if state.adjustment_delta(power) > 0:
            return max(0, owed - sum(1 for o in mine if isinstance(o, (Build, Waive))))
        return max(0, owed - sum(1 for o in mine if isinstance(o, Remove)))

    def set_order(self, order: Order, *, allow_illegal: bool = False) -> Order:
        """File ``order`` (one undo step); returns it as the engine understands it.

        Raises :class:`OrderError` for an order that cannot be given now; an illegal one is
        kept only with ``allow_illegal`` (as a player's written order would be).
        """
        power = order.power
        if self._viewing is not None:
            raise IllegalOrderError("you are looking at an earlier phase: go back to the current one first")
        if self.game.is_over:
            raise IllegalOrderError("the game is over")
        if not self.can_order(power):
            raise IllegalOrderError(f"{self.board.power(power).name} cannot give orders now")
        void = self.service.void_refusal(power)
        if void is not None:
            raise IllegalOrderError(void)
        filed, key = self.game.to_file(order, allow_illegal=allow_illegal)
        before = self.game.order_for(power, key)
        if before == filed:
            return filed
        self.undo_stack.push(SetOrderCommand(self._write_orders, power, key, before, filed))
        return filed

    def clear_order(self, power: str, key: str) -> Order | None:
        """Withdraw the order filed under ``key`` (one undo step)."""
        if not self.can_order(power) or self.service.voided(power):
            return None
        before = self.game.orders.get(power, {}).get(key)
        if before is None:
            return None
        self.undo_stack.push(SetOrderCommand(self._write_orders, power, key, before, None))
        return before

    def clear_orders(self, power: str) -> None:
        if not self.can_order(power) or self.service.voided(power):
            return
        mine = self.game.orders.get(power, {})
        if mine:
            self.undo_stack.push(ClearOrdersCommand(self._write_orders, power, mine))

    def _write_orders(self, power: str, orders: dict[str, Order | None]) -> TableChange:
        """The order book as an undo step's redo or undo leaves it (the steps were checked when
        they were made by ``set_order`` / ``clear_order`` / ``clear_orders``): the one way the
        undo commands change the game, handed to them when they are made (through the service)."""
        self.service.put_orders(power, orders, initiator=LAPTOP)
        assert self._last_record is not None
        return self._last_record

    def orders_restored(self, powers: Iterable[str]) -> TableChange:
        """The phones' host took back a change it could not save (its ``restored``): the views
        look again at the orders of ``powers`` (the file already holds them as they are now)."""
        record = TableChange("orders", frozenset(powers), PHONE)
        self._emit(record)
        return record

    def file_computer_orders(self, power: str, orders: Iterable[Order]) -> TableChange | None:
        """A computer seat (``table.computer``) writes its orders for ``power``: each checked as the
        rules read it, filed (not an undo step: nobody at the table wrote them), one record.  Who
        may see them is the secrecy's business as for anyone's (``can_see``).  ``None`` when the
        power already has orders (the person who held the seat wrote some) or there are none."""
        if self.game.is_over or self.game.orders.get(power):
            return None
        # OrderError: the computer never gives one; a second waive takes the next number (one by one)
        if self.service.file_orders(power, orders, initiator=COMPUTER) is None:
            return None
        return self._last_record

    # -- phases -----------------------------------------------------------------------------

    # -- civil disorder (rules XIV.1) ----------------------------------------------------------

    def marked_disorder(self) -> frozenset[str]:
        """The powers the host marked as in civil disorder (their player has left)."""
        return self.table.marked_disorder(self.board.power_ids)

    def unplayed_powers(self) -> frozenset[str]:
        """The powers nobody plays (not in the table's ``powers``): always in civil disorder."""
        ids = self.board.power_ids
        return frozenset(ids) - frozenset(self.table.powers_in_play(ids))

    def phase_disorder(self) -> frozenset[str]:
        """The powers in civil disorder if the phase were adjudicated now (with the table's rules
        on): marked, unplayed, and in a movement phase those with units that gave no order."""
        if not self.civil_disorder_rules:
            return frozenset()
        state = self.game.state
        out = set(self.marked_disorder() | self.unplayed_powers())
        out |= without_orders(state, self.game.all_orders())
        return frozenset(p for p in out if not state.is_eliminated(p))

    def adjudicate(self, disorder: Iterable[str] | None = None) -> HistoryEntry:
        """Adjudicate the phase with every filed order and move on (orders' undo steps are dropped).
        ``disorder``: the powers in civil disorder this phase (default :meth:`phase_disorder`)."""
        if self.game.is_over:
            raise IllegalOrderError("the game is over")
        return self._adjudicate(disorder)[0]

    def _adjudicate(self, disorder: Iterable[str] | None = None) -> tuple[HistoryEntry, TableChange]:
        gone = self.phase_disorder() if disorder is None else frozenset(disorder)
        self.service.adjudicate(initiator=LAPTOP, disorder=gone, turn_kept_by_caller=True)
        assert self._last_record is not None
        return self.game.history[-1], self._last_record

    def reveal(self, *, adjudicate: bool = True) -> TableChange | None:
        """The hot seat's reveal, one operation and one record (issue 16: one record per seal).

        With ``adjudicate`` (the table's way) the phase is adjudicated at once: who may be seen is
        left as it was, since the revealed orders are shown as the phase's results and the next
        phase begins with none; the record is the adjudication's.  Without it (or when the game is
        over) every power's orders may be seen from now on: ``set_view``'s record, or ``None`` when
        they already could."""
        if adjudicate and not self.game.is_over:
            return self._adjudicate()[1]
        return self.set_view(None, None)

    def undo_adjudication(self) -> HistoryEntry | None:
        """The host takes back the last adjudication: its position and orders come back."""
        entry, _change = self.service.undo_adjudication(initiator=HOST, turn_kept_by_caller=True)
        return entry

    def declare(self, declarations: dict[str, dict[str, str]]) -> tuple[Relations, Relations]:
        """Formal Diplomacy: apply the declarations revealed together; (relations before, after)."""
        before = self.game.state.relations
        self.service.apply_declarations(declarations, initiator=LAPTOP)
        after = self.game.state.relations
        assert before is not None and after is not None  # game.declare refuses a standard game
        return before, after

    def set_position(self, state: GameState, text: str = "set up the position") -> None:
        """The sandbox's setup: ``state`` replaces the current position (the history stays), as
        one undo step named ``text`` (Ctrl+Z puts the position and its orders back).

        Orders of units that are no longer where they were, and every order when the kind of
        phase changes, are dropped (and come back with the undo).
        """
        if self._viewing is not None:
            self._viewing = None
        self.undo_stack.push(SetPositionCommand(self._write_position, text, self.game.state,
                                                self._order_book(), state))

    def _order_book(self) -> dict[str, dict[str, Order]]:
        return {p: dict(self.game.orders.get(p, {})) for p in self.board.power_ids if self.game.orders.get(p)}

    def _write_position(self, state: GameState,
                        orders: dict[str, dict[str, Order]] | None) -> dict[str, dict[str, Order]]:
        """The position (and order book) a set-up undo step's redo or undo leaves: the one way
        ``SetPositionCommand`` changes the game.  ``orders`` ``None``: the orders the new position
        keeps (``Game.set_position`` drops those of units that are gone).  Returns the order book."""
        self.service.set_position(state, orders, initiator=LAPTOP)
        return self._order_book()

    def set_edition(self, edition: Edition | str) -> None:
        """The sandbox's choice of rules: the next adjudication follows ``edition``'s (no view
        shows the rules, so nothing is redrawn)."""
        self.service.set_rules(RuleSet.for_edition(edition), initiator=LAPTOP)

    def results_for(self, index: int | None = None) -> tuple[OrderResult, ...]:
        """Results of the history entry ``index`` (default: the one being viewed, else the last)."""
        if index is None:
            index = self._viewing if self._viewing is not None else len(self.game.history) - 1
        if index < 0 or index >= len(self.game.history):
            return ()
        return self.game.history[index].results

    # -- whole games ------------------------------------------------------------------------

    def replace_game(self, game: Game, table: TableState | Mapping[str, Any] | None = None,
                     path: Path | str | None = None, *,
                     vault: Vault | None = None) -> None:
        """Another game on the table (``vault``: its key, when it is a secret game)."""
        self.vault = vault
        self.game = game
        self.table = as_state(table)
        self.service.replace(game, self.table)
        self._history_seen = len(game.history)
        self.path = Path(path) if path is not None else None
        self._stamp = self._stamp_of(self.path)
        self.undo_stack.clear()
        self._viewing = None
        self._active = None
        self._active_seat = frozenset()
        self._visible = None
        self.changed.emit(TableChange(OPENED, frozenset(game.board.power_ids), LAPTOP))
        self._dirty = False
        self.undo_stack.setClean()

    def new_game(self, edition: Edition | str = Edition.CLASSIC, end_year: int | None = None,
                 table: TableState | Mapping[str, Any] | None = None, map_name: str = "standard", *, formal: bool = False,
                 short_game_by: str = BY_CENTRES) -> None:
        """A new game; ``formal``: Formal Diplomacy (seed 003), every pair of powers neutral;
        ``short_game_by``: what wins a short game (most "centres" or "pieces")."""
        self.replace_game(Game.new(load_board(map_name), edition, end_year, formal=formal,
                                   short_game_by=short_game_by), table)

    def load(self, path: Path | str, *, passphrase: str | None = None) -> bool:
        """Open a saved game; on a bad file raise SaveFileError and change nothing (a wrong
        passphrase: WrongPassphraseError).  Returns False when the file's secrets stayed closed
        (no passphrase): the public board is open, the unrevealed orders and notes are not."""
        opened = open_game(path, passphrase=passphrase)
        self.replace_game(opened.game, opened.table, path, vault=opened.vault)
        return not opened.locked

    def save(self, path: Path | str | None = None) -> Path:
        """Save to ``path`` (default: the game's own file); the file saved.  A game file that
        changed on disk since this window opened or saved it (``serve`` hosted it meanwhile) is
        never written over: the game is saved beside it as ``NAME (from this window).dipl``."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no file name to save to")
        from ..io.gamelock import GameLock
        from ..io.gamestore import beside_name, changed_since

        with GameLock(target, "this window"):  # GameLockedError (an OSError): ``serve`` is hosting that game
            if self.path is not None and _same_file(target, self.path) and changed_since(target, self._stamp):
                target = beside_name(target)
            # 0600 whatever the umask: a table's save holds PIN hashes and phone links
            save_game(target, self.game, self.table, mode=0o600, vault=self.vault)
        self.path = target
        self._stamp = self._stamp_of(target)
        self._dirty = False
        self.undo_stack.setClean()
        self.saved.emit(str(target))
        return target

    @staticmethod
    def _stamp_of(path: Path | None) -> str | None:
        from ..io.gamestore import file_stamp

        return file_stamp(path) if path is not None else None

    def declare_draw(self, powers: Iterable[str]) -> TableChange:
        """The table agreed a draw (rules II) between ``powers``: the game ends (views redraw, the
        autosave writes it, ``game_ended`` follows)."""
        self.service.declare_draw(powers, initiator=HOST)
        assert self._last_record is not None
        return self._last_record

    # -- helpers for the views --------------------------------------------------------------

    def power_name(self, power: str) -> str:
        try:
            return self.board.power(power).name
        except KeyError:
            return power

    def player_name(self, power: str) -> str | None:
        return self.table.player_of(power)


    # -- the event's rulings (gui/table/tournament.py) ---------------------------------------------

    def set_end_year(self, year: int | None) -> None:
        """The event's turn or time limit: the game ends after Fall ``year`` (rules XIV.4)."""
        self.service.set_end_year(year, initiator=HOST)

    def void_orders(self, powers: Iterable[str]) -> None:
        """Late orders void (the event's rule): the powers' orders are withdrawn, each of their
        units holds and the verdict is kept in the table's late orders, in one operation of the
        table service (a ruling, not an undo step), after which it refuses their orders at every seat."""
        self.service.void_late_orders(powers, initiator=CLOCK)

def weak_listener(method: Callable[[TableChange], None]) -> Callable[[TableChange], None]:
    """``method`` (a QObject's) as a listener that does not keep its object alive."""
    ref = weakref.WeakMethod(method)

    def listener(change: TableChange) -> None:
        bound = ref()
        if bound is not None:
            bound(change)

    return listener


def unit_key(order: Order) -> str:
    """Where the order is filed (re-exported for the views)."""
    return order.province if isinstance(order, UnitOrder) else "waive"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or a.samefile(b)
    except OSError:
        return False
