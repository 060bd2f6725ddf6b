"""``Game``: the one mutable facade over immutable states, with its history of phases."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .board import Board
from .errors import IllegalOrderError
from .orders import Build, Order, UnitOrder, Waive
from .results import OrderResult
from .rules import Edition, RuleSet
from .state import ADJUSTMENT, MOVEMENT, GameState
from .turns import adjudicate_phase, winner
from .validation import check_order


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One adjudicated phase: the position, the orders given, what happened, what followed."""

    state: GameState
    orders: tuple[Order, ...]
    results: tuple[OrderResult, ...]
    after: GameState
    next_state: GameState


@dataclass(frozen=True, slots=True)
class GameEnd:
    kind: str  # "victory", "short_game", "draw"
    winners: tuple[str, ...]
    text: str


def order_key(order: Order) -> str:
    """Where an order is filed: the unit's (or build site's) province; waives by number."""
    if isinstance(order, UnitOrder):
        return order.province
    return "waive"


def free_waive_key(filed: dict[str, Order]) -> str:
    """The first ``waive<n>`` key not yet used among one power's filed orders."""
    n = 0
    while f"waive{n}" in filed:
        n += 1
    return f"waive{n}"


@dataclass(slots=True)
class Game:
    board: Board
    rules: RuleSet
    state: GameState
    end_year: int | None = None
    history: list[HistoryEntry] = field(default_factory=list)
    orders: dict[str, dict[str, Order]] = field(default_factory=dict)
    draw: tuple[str, ...] | None = None

    @classmethod
    def new(cls, board: Board, edition: Edition | str = Edition.CLASSIC, end_year: int | None = None) -> Game:
        return cls(board, RuleSet.for_edition(edition), GameState.initial(board), end_year)

    # -- orders ------------------------------------------------------------------------------

    def set_order(self, order: Order, *, allow_illegal: bool = False) -> Order:
        """File ``order`` for its power, replacing any earlier order for the same unit.

        Illegal orders raise unless ``allow_illegal`` (they are then kept, and adjudicated as
        the rules say: the unit holds).  Returns the order as filed.
        """
        if self.is_over:
            raise IllegalOrderError("the game is over")
        try:
            check_order(self.state, order)
        except IllegalOrderError:
            if not allow_illegal:
                raise
        mine = self.orders.setdefault(order.power, {})
        key = free_waive_key(mine) if isinstance(order, Waive) else order_key(order)
        mine[key] = order
        return order

    def clear_order(self, power: str, key: str) -> Order | None:
        return self.orders.get(power, {}).pop(key, None)

    def clear_orders(self, power: str | None = None) -> None:
        if power is None:
            self.orders.clear()
        else:
            self.orders.pop(power, None)

    def orders_of(self, power: str) -> list[Order]:
        return list(self.orders.get(power, {}).values())

    def all_orders(self) -> list[Order]:
        return [o for p in self.board.power_ids for o in self.orders.get(p, {}).values()]

    def order_for(self, power: str, key: str) -> Order | None:
        return self.orders.get(power, {}).get(key)

    def builds_of(self, power: str) -> list[Order]:
        return [o for o in self.orders_of(power) if isinstance(o, (Build, Waive))]

    # -- phases ------------------------------------------------------------------------------

    def adjudicate(self) -> HistoryEntry:
        """Adjudicate the current phase with the filed orders and move to the next phase."""
        if self.is_over:
            raise IllegalOrderError("the game is over")
        orders = tuple(self.all_orders())
        out = adjudicate_phase(self.state, orders, self.rules)
        entry = HistoryEntry(self.state, orders, out.results, out.after, out.next_state)
        self.history.append(entry)
        self.state = out.next_state
        self.orders = {}
        return entry

    def undo_adjudication(self) -> HistoryEntry | None:
        """Take back the last adjudication: its position and orders come back."""
        if not self.history:
            return None
        entry = self.history.pop()
        self.state = entry.state
        self.orders = {}
        for o in entry.orders:
            mine = self.orders.setdefault(o.power, {})
            mine[free_waive_key(mine) if isinstance(o, Waive) else order_key(o)] = o
        self.draw = None
        return entry

    def declare_draw(self, powers: Iterable[str]) -> None:
        self.draw = tuple(sorted(powers))

    @property
    def ended(self) -> GameEnd | None:
        if self.draw:
            names = ", ".join(self.board.power(p).name for p in self.draw)
            return GameEnd("draw", self.draw, f"Draw shared by {names}")
        w = winner(self.state)
        if w is not None:
            return GameEnd("victory", (w,), f"{self.board.power(w).name} controls {self.state.centre_counts()[w]} "
                           f"supply centres and wins")
        if self.end_year is not None and self.state.phase.year > self.end_year:
            counts = self.state.centre_counts()
            best = max(counts.values())
            leaders = tuple(p for p in self.board.power_ids if counts[p] == best)
            names = " and ".join(self.board.power(p).name for p in leaders)
            tie = " (tied)" if len(leaders) > 1 else ""
            return GameEnd("short_game", leaders,
                           f"The game ended after {self.end_year}: {names} lead{'s' if not tie else ''} with {best} centres{tie}")
        return None

    @property
    def is_over(self) -> bool:
        return self.ended is not None

    @property
    def phase_needs_orders(self) -> bool:
        return self.state.phase.kind in (MOVEMENT, ADJUSTMENT) or bool(self.state.dislodged)
