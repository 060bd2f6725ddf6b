"""``Game``: the one mutable facade over immutable states, with its history of phases."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .board import Board
from .errors import AmbiguousOrderError, IllegalOrderError, OrderError
from .options import orders_needed
from .orders import Build, Order, Remove, UnitOrder, Waive
from .results import OrderResult
from .rules import Edition, RuleSet
from .state import ADJUSTMENT, MOVEMENT, GameState, Unit
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
    #: the powers in civil disorder in this phase (rules XIV.1)
    disorder: frozenset[str] = frozenset()
    #: Formal Diplomacy: the units interned at the end of this movement phase
    interned: tuple[Unit, ...] = ()


#: how a short game's winner is found: most supply centres (rules XIV.4) or most pieces on the
#: board (rules III: "players may agree to regard the player who has the most pieces ...")
BY_CENTRES = "centres"
BY_PIECES = "pieces"
SHORT_GAME_MEASURES = (BY_CENTRES, BY_PIECES)


@dataclass(frozen=True, slots=True)
class GameEnd:
    kind: str  # "victory", "short_game", "draw"
    winners: tuple[str, ...]  # several: a tie (short game) or the powers sharing a draw
    text: str
    #: a short game: what was counted ("centres" or "pieces") and each power's count
    measure: str = ""
    counts: tuple[tuple[str, int], ...] = ()

    @property
    def tied(self) -> bool:
        return self.kind == "short_game" and len(self.winners) > 1


def short_game_leaders(state: GameState, measure: str = BY_CENTRES) -> tuple[tuple[str, ...], dict[str, int]]:
    """The powers that lead at the end of a short game (several on a tie) and every power's count:
    supply centres (rules XIV.4) or pieces on the board (rules III; dislodged units count, they
    are still on the board until they retreat or are disbanded)."""
    if measure not in SHORT_GAME_MEASURES:
        raise ValueError(f"a short game is won by {' or '.join(SHORT_GAME_MEASURES)}, not {measure!r}")
    counts = state.centre_counts() if measure == BY_CENTRES else state.unit_counts()
    best = max(counts.values(), default=0)
    leaders = tuple(p for p in state.board.power_ids if counts.get(p, 0) == best and best > 0)
    return leaders, counts


def draw_passes(state: GameState, votes: Mapping[str, bool]) -> tuple[bool, tuple[str, ...]]:
    """A draw vote: it passes when every surviving power votes for it (rules II: the players who
    still have pieces on the board share the draw); votes of eliminated powers do not count, and a
    surviving power that has not voted has not agreed.  Returns (passes, the surviving powers)."""
    survivors = tuple(state.surviving_powers())
    return bool(survivors) and all(votes.get(p, False) for p in survivors), survivors


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
    #: a short game's winner: most "centres" (XIV.4) or most "pieces" (III)
    short_game_by: str = BY_CENTRES

    @classmethod
    def new(cls, board: Board, edition: Edition | str = Edition.CLASSIC, end_year: int | None = None, *,
            formal: bool = False, short_game_by: str = BY_CENTRES) -> Game:
        """A game from the start.  ``formal``: Formal Diplomacy (seed 003), every pair of powers
        neutral to begin with."""
        state = GameState.initial(board)
        if formal:
            from .formal import NO_RELATIONS

            state = state.evolve(relations=NO_RELATIONS)
        if short_game_by not in SHORT_GAME_MEASURES:
            raise ValueError(f"a short game is won by {' or '.join(SHORT_GAME_MEASURES)}, not {short_game_by!r}")
        return cls(board, RuleSet.for_edition(edition), state, end_year, short_game_by=short_game_by)

    @property
    def formal(self) -> bool:
        """Whether this is a game of Formal Diplomacy."""
        return self.state.relations is not None

    def declare(self, declarations: Mapping[str, Mapping[str, str]]) -> None:
        """Formal Diplomacy: apply one declaration period (revealed together, before the orders of
        a movement phase): the current position's relations become ``formal.declare``'s."""
        from .formal import declare

        if self.state.relations is None:
            raise IllegalOrderError("declarations are made only in a game of Formal Diplomacy")
        if self.state.phase.kind != MOVEMENT:
            raise IllegalOrderError("declarations are made before the orders of a movement phase")
        for power, said in declarations.items():
            for other in (power, *said):
                if other not in self.board.power_ids:
                    raise IllegalOrderError(f"there is no power {other!r} in this game")
        self.state = self.state.evolve(relations=declare(self.state.relations, declarations, self.board.power_ids))

    # -- orders ------------------------------------------------------------------------------

    def set_order(self, order: Order, *, allow_illegal: bool = False, allow_ambiguous: bool = False) -> Order:
        """File ``order`` for its power, replacing any earlier order for the same unit.

        Illegal orders raise unless ``allow_illegal`` (they are then kept, and adjudicated as
        the rules say: the unit holds).  Ambiguous ones (a fleet moved to a two-coast province
        without a coast, ``F CON - BUL``) raise even then, so that whoever writes the order can
        name the coast; ``allow_ambiguous`` keeps them too (an imported game: the fleet holds,
        seed 000 VII.3.2).  Returns the order as filed.
        """
        if self.is_over:
            raise IllegalOrderError("the game is over")
        try:
            check_order(self.state, order)
        except IllegalOrderError:
            if not allow_illegal:
                raise
        except AmbiguousOrderError:
            if not allow_ambiguous:
                raise
        mine = self.orders.setdefault(order.power, {})
        key = free_waive_key(mine) if isinstance(order, Waive) else order_key(order)
        mine[key] = order
        return order

    def file_key(self, order: Order) -> str:
        """The key ``order`` would be filed under now (a waive takes the next free number)."""
        if isinstance(order, Waive):
            return free_waive_key(self.orders.get(order.power, {}))
        return order_key(order)

    def to_file(self, order: Order, *, allow_illegal: bool = False) -> tuple[Order, str]:
        """``order`` as it is filed now, and its key: checked and normalised (``stp - bot`` is
        filed as ``F stp/sc - bot``), or as written when it is illegal and ``allow_illegal``.
        OrderError: illegal (without ``allow_illegal``), or a build or removal beyond what the
        power owes."""
        filed = order
        try:
            filed = check_order(self.state, order)
        except OrderError:
            if not allow_illegal:
                raise
        key = self.file_key(filed)
        self.check_room(filed, key)  # builds and removals: no more than the power owes
        return filed, key

    def check_room(self, order: Order, key: str | None = None) -> None:
        """The build-count rule (rules XIII.2: a power builds, or removes, as many units as
        its supply centres and units differ, no more): raise ``IllegalOrderError`` when ``order``
        (a build, waive or removal, filed under ``key``: by default where it would be filed)
        would give ``order.power`` more of them than it owes.  An order that replaces one filed
        under the same key takes its place."""
        if self.state.phase.kind != ADJUSTMENT or not isinstance(order, (Build, Waive, Remove)):
            return
        key = self.file_key(order) if key is None else key
        mine = self.orders.get(order.power, {})
        name = self.board.power(order.power).name
        owed = orders_needed(self.state, order.power)
        if isinstance(order, (Build, Waive)):
            given = sum(1 for k, o in mine.items() if isinstance(o, (Build, Waive)) and k != key)
            if given >= owed:
                raise IllegalOrderError(f"{name} has no more builds: {owed} build{'s' if owed != 1 else ''}, "
                                        f"{'given' if owed == 1 else 'all given'}; clear one first")
        else:
            given = sum(1 for k, o in mine.items() if isinstance(o, Remove) and k != key)
            if given >= owed:
                chosen = "chosen" if owed == 1 else "all chosen"
                raise IllegalOrderError(f"{name} has no more units to remove: {owed} removal"
                                        f"{'s' if owed != 1 else ''}, {chosen}; clear one first")

    def put_orders(self, power: str, orders: Mapping[str, Order | None]) -> None:
        """Write ``power``'s order book as an undo step (or its undoing) left it: each key's order,
        or none (``None``).  No check: the step was checked when it was first made."""
        mine = self.orders.setdefault(power, {})
        for key, order in orders.items():
            if order is None:
                mine.pop(key, None)
            else:
                mine[key] = order
        if not mine:
            self.orders.pop(power, None)

    def set_position(self, state: GameState) -> None:
        """A set-up position (the sandbox) replaces the current one; the history stays.  Orders of
        units that are no longer where they were, and every order when the kind of phase changes,
        are dropped."""
        old = self.state
        same_kind = old.phase.kind == state.phase.kind
        for power in list(self.orders):
            mine = self.orders[power]
            for key in list(mine):
                if not same_kind or old.unit_in(key) != state.unit_in(key) \
                        or old.dislodged_in(key) != state.dislodged_in(key):
                    mine.pop(key)
            if not mine:
                self.orders.pop(power)
        self.state = state

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

    def adjudicate(self, disorder: Iterable[str] = ()) -> HistoryEntry:
        """Adjudicate the current phase with the filed orders and move to the next phase.
        ``disorder``: the powers in civil disorder this phase (rules XIV.1; the caller decides,
        e.g. the host's marks and ``disorder.without_orders``)."""
        if self.is_over:
            raise IllegalOrderError("the game is over")
        orders = tuple(self.all_orders())
        gone = frozenset(disorder)
        out = adjudicate_phase(self.state, orders, self.rules, gone)
        entry = HistoryEntry(self.state, orders, out.results, out.after, out.next_state, gone, out.interned)
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
        """The game ends in a draw shared by ``powers``: surviving powers only (rules II)."""
        chosen = tuple(sorted(set(powers)))
        gone = [p for p in chosen if self.state.is_eliminated(p)]
        if gone:
            raise IllegalOrderError(f"{', '.join(self.board.power(p).name for p in gone)} has no pieces left "
                                    "and cannot share a draw")
        self.draw = chosen

    def vote_draw(self, votes: Mapping[str, bool]) -> bool:
        """A secret draw vote: the draw is declared (shared by the surviving powers) when every
        surviving power votes for it; eliminated powers' votes do not count.  Whether it passed."""
        passed, survivors = draw_passes(self.state, votes)
        if passed:
            self.draw = survivors
        return passed

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
            leaders, counts = short_game_leaders(self.state, self.short_game_by)
            best = max(counts.values(), default=0)
            names = " and ".join(self.board.power(p).name for p in leaders)
            tie = " (tied)" if len(leaders) > 1 else ""
            what = "centres" if self.short_game_by == BY_CENTRES else "pieces on the board"
            return GameEnd("short_game", leaders,
                           f"The game ended after {self.end_year}: {names} lead{'s' if not tie else ''} with {best} "
                           f"{what}{tie}", self.short_game_by,
                           tuple((p, counts.get(p, 0)) for p in self.board.power_ids))
        return None

    @property
    def is_over(self) -> bool:
        return self.ended is not None

    @property
    def phase_needs_orders(self) -> bool:
        return self.state.phase.kind in (MOVEMENT, ADJUSTMENT) or bool(self.state.dislodged)
