"""``GameController``: the one object that changes the game, and says what it changed.

Widgets never touch the :class:`~diplomacy_desktop.engine.game.Game` directly.  They call the
controller (order edits go through undo commands that call it back), and they redraw what the
one ``changed`` signal's :class:`ChangeRecord` names.

Secrecy: ``visible_powers`` says whose current orders may be shown at all.  Every widget,
arrow and tooltip that shows orders asks :meth:`GameController.can_see` first.  By default all
powers are visible; the hot-seat flow narrows it to the power at the keyboard.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from ..engine.board import Board
from ..engine.disorder import without_orders
from ..engine.errors import IllegalOrderError, OrderError
from ..engine.formal import Relations
from ..engine.game import BY_CENTRES, Game, GameEnd, HistoryEntry, order_key
from ..engine.options import orders_needed
from ..engine.orders import Build, Hold, Order, Remove, UnitOrder, Waive
from ..engine.results import OrderResult
from ..engine.rules import Edition
from ..engine.state import ADJUSTMENT, MOVEMENT, RETREAT, GameState
from ..engine.validation import check_order
from ..io.boardfile import load_board
from ..io.savefile import load_game, save_game
from ..io.typed_orders import illegal_reason
from .orders.commands import ClearOrdersCommand, SetOrderCommand


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    """What one operation changed.  Views refresh only what it names."""

    #: powers whose current orders changed
    orders: frozenset[str] = frozenset()
    #: the current phase changed (adjudicated, or an adjudication taken back)
    phase: bool = False
    #: the whole game was replaced (new game, opened file)
    game: bool = False
    #: the phase being looked at changed (history browsing)
    viewing: bool = False
    #: whose orders may be shown, or which power is at the keyboard, changed
    visibility: bool = False
    #: the table settings changed
    table: bool = False
    #: Formal Diplomacy: the relations between the powers changed (declarations revealed)
    relations: bool = False

    @property
    def board_changed(self) -> bool:
        """Units, ownership or the shown phase may differ: redraw everything on the map."""
        return self.phase or self.game or self.viewing or self.visibility


class GameController(QObject):
    changed = Signal(object)  # ChangeRecord
    phase_advanced = Signal(object)  # HistoryEntry of the phase just adjudicated
    game_ended = Signal(object)  # GameEnd
    saved = Signal(str)  # path
    error_reported = Signal(str)

    def __init__(self, game: Game | None = None, table: dict[str, Any] | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.game: Game = game if game is not None else Game.new(load_board("standard"))
        self.table: dict[str, Any] = dict(table or {})
        self.path: Path | None = None
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

    def _emit(self, record: ChangeRecord) -> None:
        if record.orders or record.phase or record.game or record.table or record.relations:
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
        self.changed.emit(ChangeRecord(visibility=True))

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
        self.changed.emit(ChangeRecord(visibility=True))

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
        self.changed.emit(ChangeRecord(visibility=True))

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

    # -- history browsing -------------------------------------------------------------------

    @property
    def viewing(self) -> int | None:
        """Index into the history of the phase being looked at, or ``None`` for the current one."""
        return self._viewing

    def view_phase(self, index: int | None) -> None:
        if index is not None:
            if not self.game.history:
                index = None
            else:
                index = max(0, min(index, len(self.game.history) - 1))
        if index == self._viewing:
            return
        self._viewing = index
        self.changed.emit(ChangeRecord(viewing=True))

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

    def _free_waive_key(self, power: str) -> str:
        mine = self.game.orders.get(power, {})
        n = 0
        while f"waive{n}" in mine:
            n += 1
        return f"waive{n}"

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
        filed = order
        try:
            filed = check_order(self.game.state, order)
        except OrderError:
            if not allow_illegal:
                raise
        key = self._free_waive_key(power) if isinstance(filed, Waive) else order_key(filed)
        before = self.game.orders.get(power, {}).get(key)
        self._check_count(filed, key)
        if before == filed:
            return filed
        self.undo_stack.push(SetOrderCommand(self, power, key, before, filed))
        return filed

    def _check_count(self, order: Order, key: str) -> None:
        """Builds and removals: no more than the power owes."""
        if self.game.state.phase.kind != ADJUSTMENT:
            return
        mine = self.game.orders.get(order.power, {})
        name = self.board.power(order.power).name
        owed = orders_needed(self.game.state, order.power)
        if isinstance(order, (Build, Waive)):
            given = sum(1 for k, o in mine.items() if isinstance(o, (Build, Waive)) and k != key)
            if given >= owed:
                raise IllegalOrderError(f"{name} has {owed} build{'s' if owed != 1 else ''} and has given "
                                        f"{'it' if owed == 1 else 'them all'}: clear one first")
        elif isinstance(order, Remove):
            given = sum(1 for k, o in mine.items() if isinstance(o, Remove) and k != key)
            if given >= owed:
                raise IllegalOrderError(f"{name} removes {owed} unit{'s' if owed != 1 else ''} and has "
                                        f"chosen {'it' if owed == 1 else 'them all'}: clear one first")

    def clear_order(self, power: str, key: str) -> Order | None:
        """Withdraw the order filed under ``key`` (one undo step)."""
        if not self.can_order(power):
            return None
        before = self.game.orders.get(power, {}).get(key)
        if before is None:
            return None
        self.undo_stack.push(SetOrderCommand(self, power, key, before, None))
        return before

    def clear_orders(self, power: str) -> None:
        if not self.can_order(power):
            return
        mine = self.game.orders.get(power, {})
        if mine:
            self.undo_stack.push(ClearOrdersCommand(self, power, mine))

    def put_order(self, power: str, key: str, order: Order | None) -> None:
        """Set or remove one order without an undo step (what the undo commands call)."""
        self.put_orders(power, {key: order})

    def put_orders(self, power: str, orders: dict[str, Order | None]) -> None:
        mine = self.game.orders.setdefault(power, {})
        for key, order in orders.items():
            if order is None:
                mine.pop(key, None)
            else:
                mine[key] = order
        if not mine:
            self.game.orders.pop(power, None)
        self._emit(ChangeRecord(orders=frozenset({power})))

    # -- phases -----------------------------------------------------------------------------

    # -- civil disorder (rules XIV.1) ----------------------------------------------------------

    def marked_disorder(self) -> frozenset[str]:
        """The powers the host marked as in civil disorder (their player has left)."""
        marked = self.table.get("disorder")
        if not isinstance(marked, list):
            return frozenset()
        return frozenset(str(p) for p in marked if p in self.board.power_ids)

    def unplayed_powers(self) -> frozenset[str]:
        """The powers nobody plays (not in the table's ``powers``): always in civil disorder."""
        powers = self.table.get("powers")
        if not isinstance(powers, list) or not powers:
            return frozenset()
        return frozenset(p for p in self.board.power_ids if p not in powers)

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
        gone = self.phase_disorder() if disorder is None else frozenset(disorder)
        entry = self.game.adjudicate(disorder=gone)
        self.undo_stack.clear()
        self._viewing = len(self.game.history) - 1 if self.show_results_after_adjudication else None
        self._emit(ChangeRecord(phase=True, viewing=True, orders=frozenset(self.board.power_ids)))
        self.phase_advanced.emit(entry)
        end = self.game.ended
        if end is not None:
            self.game_ended.emit(end)
        return entry

    def undo_adjudication(self) -> HistoryEntry | None:
        """The host takes back the last adjudication: its position and orders come back."""
        entry = self.game.undo_adjudication()
        if entry is None:
            return None
        self.undo_stack.clear()
        self._viewing = None
        self._emit(ChangeRecord(phase=True, viewing=True, orders=frozenset(self.board.power_ids)))
        return entry

    def declare(self, declarations: dict[str, dict[str, str]]) -> tuple[Relations, Relations]:
        """Formal Diplomacy: apply the declarations revealed together; (relations before, after)."""
        before = self.game.state.relations
        self.game.declare(declarations)
        after = self.game.state.relations
        assert before is not None and after is not None  # game.declare refuses a standard game
        self._emit(ChangeRecord(relations=True))
        return before, after

    def set_position(self, state: GameState) -> None:
        """The sandbox's setup: ``state`` replaces the current position (the history stays).

        Orders of units that are no longer where they were, and every order when the kind of
        phase changes, are dropped; the order edits' undo steps go (they named the old position).
        """
        old = self.game.state
        same_kind = old.phase.kind == state.phase.kind
        for power in list(self.game.orders):
            mine = self.game.orders[power]
            for key in list(mine):
                if not same_kind or old.unit_in(key) != state.unit_in(key) \
                        or old.dislodged_in(key) != state.dislodged_in(key):
                    mine.pop(key)
            if not mine:
                self.game.orders.pop(power)
        self.game.state = state
        self.undo_stack.clear()
        self._viewing = None
        self._emit(ChangeRecord(phase=True, viewing=True, orders=frozenset(self.board.power_ids)))

    def results_for(self, index: int | None = None) -> tuple[OrderResult, ...]:
        """Results of the history entry ``index`` (default: the one being viewed, else the last)."""
        if index is None:
            index = self._viewing if self._viewing is not None else len(self.game.history) - 1
        if index < 0 or index >= len(self.game.history):
            return ()
        return self.game.history[index].results

    # -- whole games ------------------------------------------------------------------------

    def replace_game(self, game: Game, table: dict[str, Any] | None = None, path: Path | str | None = None) -> None:
        self.game = game
        self.table = dict(table or {})
        self.path = Path(path) if path is not None else None
        self.undo_stack.clear()
        self._viewing = None
        self._active = None
        self._active_seat = frozenset()
        self._visible = None
        self.changed.emit(ChangeRecord(game=True, phase=True, viewing=True, visibility=True, table=True,
                                       orders=frozenset(game.board.power_ids)))
        self._dirty = False
        self.undo_stack.setClean()

    def new_game(self, edition: Edition | str = Edition.CLASSIC, end_year: int | None = None,
                 table: dict[str, Any] | None = None, map_name: str = "standard", *, formal: bool = False,
                 short_game_by: str = BY_CENTRES) -> None:
        """A new game; ``formal``: Formal Diplomacy (seed 003), every pair of powers neutral;
        ``short_game_by``: what wins a short game (most "centres" or "pieces")."""
        self.replace_game(Game.new(load_board(map_name), edition, end_year, formal=formal,
                                   short_game_by=short_game_by), table)

    def load(self, path: Path | str) -> None:
        """Open a saved game; on a bad file raise SaveFileError and change nothing."""
        game, table = load_game(path)
        self.replace_game(game, table, path)

    def save(self, path: Path | str | None = None) -> Path:
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no file name to save to")
        save_game(target, self.game, self.table)
        self.path = target
        self._dirty = False
        self.undo_stack.setClean()
        self.saved.emit(str(target))
        return target

    def update_table(self, **settings: Any) -> None:
        self.table.update(settings)
        self._emit(ChangeRecord(table=True))

    # -- helpers for the views --------------------------------------------------------------

    def power_name(self, power: str) -> str:
        try:
            return self.board.power(power).name
        except KeyError:
            return power

    def player_name(self, power: str) -> str | None:
        players = self.table.get("players") or {}
        name = players.get(power) if isinstance(players, dict) else None
        return str(name) if name else None


    # -- the event's rulings (gui/table/tournament.py) ---------------------------------------------

    def set_end_year(self, year: int | None) -> None:
        """The event's turn or time limit: the game ends after Fall ``year`` (rules XIV.4)."""
        if self.game.end_year == year:
            return
        self.game.end_year = year
        self._emit(ChangeRecord(phase=True))
        end = self.game.ended
        if end is not None:
            self.game_ended.emit(end)

    def void_orders(self, powers: Iterable[str]) -> None:
        """Late orders void (the event's rule): the powers' orders are withdrawn and each of their
        units holds.  A ruling, not an undo step."""
        state = self.game.state
        if state.phase.kind != MOVEMENT:
            return
        gone = frozenset(p for p in powers if p in self.board.power_ids)
        for p in gone:
            self.game.orders[p] = {u.province: Hold(p, u.kind, u.location) for u in state.units_of(p)}
        if gone:
            self._emit(ChangeRecord(orders=gone))

def unit_key(order: Order) -> str:
    """Where the order is filed (re-exported for the views)."""
    return order.province if isinstance(order, UnitOrder) else "waive"
