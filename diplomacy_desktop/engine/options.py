"""Legal options: every order the rules allow, per unit and per power, for any phase.

This is what the click-to-order interface offers.  Every option returned here passes
:func:`validation.check_order`; the tests check that, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from .board import ARMY, FLEET, Board, province_of
from .boardindex import board_index
from .orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove,
                     Waive)
from .state import ADJUSTMENT, MOVEMENT, RETREAT, GameState, Unit
from .validation import retreat_destinations

_NOWHERE: frozenset[str] = frozenset()


class _ConvoyReach:
    """What convoys add to one position, worked out once per call from the board's minimal
    chains of seas (:meth:`BoardIndex.convoy_chains`): where each army could be convoyed and
    through which fleets, which armies could reach a province only by convoy, and which armies
    each fleet at sea could help convoy."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.board = state.board
        self.index = index = board_index(state.board)
        self.pool = pool = _pool(state.board)
        self.occupied = frozenset(state.units)
        #: province number -> the number of the unit there, or -1
        self.occupant = occupant = [-1] * len(pool.provinces)
        province_ids, unit_ids, all_seas = pool.province_ids, pool.unit_ids, index.seas
        seas: list[str] = []
        last, in_order = "", True
        for prov, u in state.units.items():  # one pass: numbers, fleets at sea, order
            occupant[province_ids[prov]] = unit_ids[f"{u.kind} {u.location}"]
            if prov in all_seas:
                seas.append(prov)
            in_order = in_order and last < prov
            last = prov
        self.seas = frozenset(seas)
        #: the order options list other units in: the position's (province order, as built)
        self.rank = None if in_order else {p: i for i, p in enumerate(state.units)}.__getitem__
        #: army's province -> per destination (sorted) every fleet on a chain there
        self.routes: dict[str, tuple[tuple[str, frozenset[str]], ...]] = {}
        #: army's province -> where it could be convoyed
        self.dests: dict[str, frozenset[str]] = {}
        #: army's province -> {destination: the fleets on every chain there (no way round them)}
        self.needed: dict[str, dict[str, frozenset[str]]] = {}
        #: province -> the armies that could get there by convoy but not over land
        self.convoy_only: dict[str, list[str]] = {}
        #: sea -> the armies (in position order) its fleet could help convoy, with per
        #: destination (sorted) every fleet on a chain there
        self.through: dict[str, list[tuple[Unit, tuple[tuple[str, frozenset[str]], ...]]]] = {}
        self._destinations: dict[tuple[str, str | None], frozenset[str]] = {}
        self._targets: dict[tuple[str, str | None], frozenset[str]] = {}
        if self.seas:
            self._find_convoys()
        self.convoy_only_into = frozenset(self.convoy_only)

    def _find_convoys(self) -> None:
        seas, nb, army_moves = self.seas, self.board.province_neighbours, self.board.army_moves
        for prov, u in self.state.units.items():
            if u.kind != ARMY or seas.isdisjoint(nb[prov]):
                continue
            # the chains whose every sea holds a fleet: walk the tree of chains through them
            chains: list[tuple[str, frozenset[str]]] = []
            tree = self.index.convoy_tree(prov)
            nodes = [tree[first] for first in seas.intersection(tree)]
            while nodes:
                landings, further = nodes.pop()
                chains += landings
                if further:
                    nodes += [further[sea] for sea in seas.intersection(further)]
            if not chains:
                continue
            fleets: dict[str, frozenset[str]] = {}  # per destination: on some chain there
            needed: dict[str, frozenset[str]] = {}  # per destination: on every chain there
            for dest, chain in chains:
                if dest in fleets:
                    fleets[dest] |= chain
                    needed[dest] &= chain
                else:
                    fleets[dest] = needed[dest] = chain
            routes = tuple(sorted(fleets.items()))
            self.routes[prov] = routes
            self.dests[prov] = frozenset(fleets)
            self.needed[prov] = needed
            for dest, _ in routes:
                if dest not in army_moves[prov]:
                    self.convoy_only.setdefault(dest, []).append(prov)
            for fleet in frozenset().union(*fleets.values()):
                self.through.setdefault(fleet, []).append((u, routes))

    def army_targets(self, army_prov: str, without: str | None) -> frozenset[str]:
        """Where an army in ``army_prov`` could move, over land or by convoy, not using the fleet
        in ``without`` (worked out once per army and call)."""
        key = (army_prov, without)
        found = self._targets.get(key)
        if found is None:
            found = self._targets[key] = self.board.army_moves[army_prov] | self.destinations(army_prov, without)
        return found

    def convoyed_supports(self, mine: _UnitOrders, army_prov: str, at_sea: bool) -> tuple[Order, ...]:
        """``mine``'s supports of the moves of the army in ``army_prov``, which could come only by
        convoy into some of the provinces ``mine`` could enter (a fleet at sea not carrying it)."""
        return mine.convoyed_support_moves(self.state.units[army_prov],
                                           self.army_targets(army_prov, mine.prov if at_sea else None))

    def destinations(self, army_prov: str, without: str | None = None) -> frozenset[str]:
        """Coastal provinces an army in ``army_prov`` could reach by convoy, not using the fleet
        in ``without``."""
        if without is None:
            return self.dests.get(army_prov, _NOWHERE)
        needed = self.needed.get(army_prov, {})
        key = (army_prov, without)
        found = self._destinations.get(key)
        if found is None:
            found = self._destinations[key] = frozenset(dest for dest, fleets in needed.items() if without not in fleets)
        return found


def _unit_key(unit: Unit) -> str:
    """A unit as the order pool files it, kind and location: ``A bur``, ``F stp/sc``.  A string,
    whose hash Python keeps, makes the look-ups cheaper than a tuple would."""
    return f"{unit.kind} {unit.location}"


class _UnitOrders:
    """One unit's options on one board, each order built once (see :class:`_OrderPool`).

    Also what is fixed by the board for that unit: the provinces it could enter (where it may
    support) and the provinces from which another unit could move into one of those.
    """

    __slots__ = (
        "around_ids",
        "basic",
        "convoy_moves",
        "convoyed_supports",
        "convoys",
        "holds_by_id",
        "kind",
        "loc",
        "moves_by_id",
        "neighbourhood",
        "power",
        "prov",
        "reach",
        "reach_ids",
        "support_moves",
        "support_moves_by_unit",
    )

    def __init__(self, pool: _OrderPool, power: str, kind: str, loc: str) -> None:
        board = pool.board
        index = board_index(board)
        self.power, self.kind, self.loc = power, kind, loc
        prov = self.prov = province_of(loc)
        army = kind == ARMY
        moves = index.army_moves_sorted[prov] if army else index.fleet_moves_sorted[loc]
        #: the hold and the moves to neighbours, which depend on nothing else
        self.basic: tuple[Order, ...] = (Hold(power, kind, loc), *(Move(power, kind, loc, d) for d in moves))
        self.reach: frozenset[str] = board.army_moves[prov] if army else board.fleet_reach[loc]
        supported = self.reach - {prov}
        self.neighbourhood = frozenset(
            province_of(m) for m, targets in (*board.army_moves.items(), *board.fleet_reach.items())
            if province_of(m) != prov and not supported.isdisjoint(targets))
        # the same by province number, in province order: what the hot loop walks
        self.reach_ids = tuple(sorted(pool.province_ids[p] for p in self.reach))
        self.around_ids = tuple(sorted(pool.province_ids[p] for p in self.neighbourhood))
        #: other unit's number -> this unit's support to hold it, and its supports of the other's moves
        self.holds_by_id: list[Order | None] = [None] * len(pool.unit_ids)
        self.moves_by_id: list[tuple[Order, ...] | None] = [None] * len(pool.unit_ids)
        self.convoy_moves: dict[str, Order] = {}
        self.support_moves: dict[tuple[str, str, str], Order] = {}
        self.support_moves_by_unit: dict[str, tuple[Order, ...]] = {}
        self.convoys: dict[tuple[str, str], Order] = {}
        self.convoyed_supports: dict[tuple[str, frozenset[str]], tuple[Order, ...]] = {}

    def convoy_move(self, dest: str) -> Order:
        order = self.convoy_moves.get(dest)
        if order is None:
            order = self.convoy_moves[dest] = Move(self.power, self.kind, self.loc, dest, via_convoy=True)
        return order

    def support_hold(self, other: Unit, other_id: int) -> Order:
        order = self.holds_by_id[other_id]
        if order is None:
            order = self.holds_by_id[other_id] = SupportHold(self.power, self.kind, self.loc, other.kind,
                                                             other.location)
        return order

    def support_move(self, other: Unit, dest: str) -> Order:
        key = (other.kind, other.location, dest)
        order = self.support_moves.get(key)
        if order is None:
            order = self.support_moves[key] = SupportMove(self.power, self.kind, self.loc, other.kind,
                                                          other.location, dest)
        return order

    def file_support_moves(self, board: Board, other: Unit, other_id: int) -> tuple[Order, ...]:
        """:meth:`support_moves_of`, filed under the other unit's number for the next call."""
        orders = self.moves_by_id[other_id] = self.support_moves_of(board, other)
        return orders

    def support_moves_of(self, board: Board, other: Unit) -> tuple[Order, ...]:
        """Supports of ``other``'s moves over land or sea into provinces this unit could enter."""
        key = _unit_key(other)
        orders = self.support_moves_by_unit.get(key)
        if orders is None:
            targets = board.army_moves[other.location] if other.kind == ARMY else board.fleet_reach[other.location]
            orders = self.support_moves_by_unit[key] = self._supports_into(other, targets)
        return orders

    def _supports_into(self, other: Unit, targets: frozenset[str]) -> tuple[Order, ...]:
        """Supports of ``other``'s moves into those of ``targets`` this unit could enter, in order."""
        return tuple(self.support_move(other, d) for d in sorted(targets & self.reach) if d != self.prov)

    def convoyed_support_moves(self, army: Unit, targets: frozenset[str]) -> tuple[Order, ...]:
        """Supports of an army's moves into the provinces of ``targets`` (where it could go over
        land or by convoy) that this unit could enter; filed by the army and the targets, which
        recur from call to call."""
        key = (_unit_key(army), targets)
        orders = self.convoyed_supports.get(key)
        if orders is None:
            if len(self.convoyed_supports) >= 256:  # fleets move about: keep the recent few
                self.convoyed_supports.clear()
            orders = self.convoyed_supports[key] = self._supports_into(army, targets)
        return orders

    def convoy(self, army: Unit, dest: str) -> Order:
        key = (army.location, dest)
        order = self.convoys.get(key)
        if order is None:
            order = self.convoys[key] = Convoy(self.power, FLEET, self.loc, ARMY, army.location, dest)
        return order


class _OrderPool:
    """The options of one board, each built once.

    Orders are immutable values, so the same option can be handed out as the same object every
    time it is offered.  Offering a full board's options then costs look-ups instead of building
    hundreds of frozen dataclasses per call.  The pool is keyed by the ordering unit; it can
    only ever hold the orders the board allows, so it is bounded.  Provinces and units (kind and
    location) are numbered, so that the hot loops index lists instead of hashing names.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.provinces = tuple(sorted(board.spaces))
        self.province_ids = {p: i for i, p in enumerate(self.provinces)}
        self.unit_ids = {key: i for i, key in enumerate(
            [f"{ARMY} {loc}" for loc in sorted(board.army_moves)] + [f"{FLEET} {loc}" for loc in sorted(board.fleet_moves)])}
        self.units: dict[tuple[str, str, str], _UnitOrders] = {}

    def unit(self, unit: Unit) -> _UnitOrders:
        key = (unit.power, unit.kind, unit.location)
        found = self.units.get(key)
        if found is None:
            found = self.units[key] = _UnitOrders(self, *key)
        return found


_POOLS: dict[int, _OrderPool] = {}


def _pool(board: Board) -> _OrderPool:
    pool = _POOLS.get(id(board))
    if pool is None or pool.board is not board:
        if len(_POOLS) >= 8:  # boards built in tests come and go
            _POOLS.pop(next(iter(_POOLS)))
        pool = _POOLS[id(board)] = _OrderPool(board)
    return pool


def _formal_options(state: GameState, options: list[Order]) -> list[Order]:
    """Formal Diplomacy: ``options`` without what the relations between the powers forbid (seed
    003).  Called only when the position has relations, so the standard game pays nothing."""
    from .formal import allowed

    return [o for o in options if allowed(state, o)]


def _movement_options(state: GameState, unit: Unit, reach: _ConvoyReach) -> list[Order]:
    mine = reach.pool.units.get((unit.power, unit.kind, unit.location)) or reach.pool.unit(unit)
    prov = mine.prov
    out: list[Order] = list(mine.basic)  # the hold, then the moves
    if unit.kind == ARMY and prov in reach.routes:
        for dest, _ in reach.routes[prov]:
            out.append(mine.convoy_moves.get(dest) or mine.convoy_move(dest))
    # supports: to hold, and to move, into every province this unit could enter
    units, occupant, provinces = state.units, reach.occupant, reach.pool.provinces
    holds = mine.holds_by_id
    for p in mine.reach_ids:
        other_id = occupant[p]
        if other_id >= 0:
            out.append(holds[other_id] or mine.support_hold(units[provinces[p]], other_id))
    # the units that could move into those provinces: over land or sea from the neighbourhood,
    # and armies that could only be convoyed there.  A fleet at sea cannot support a convoyed
    # move that needs the fleet itself.
    at_sea = unit.kind == FLEET and prov in reach.seas
    convoyed = _convoyed_into(mine, reach, at_sea)
    if reach.rank is None:
        _supports_by_number(out, state, mine, reach, convoyed, at_sea)
    else:
        by_unit = mine.support_moves_by_unit
        for other_prov in sorted(mine.neighbourhood & reach.occupied | convoyed, key=reach.rank):
            if other_prov in convoyed:
                out.extend(reach.convoyed_supports(mine, other_prov, at_sea))
                continue
            supports = by_unit.get(_unit_key(units[other_prov]))
            out.extend(supports if supports is not None else mine.support_moves_of(state.board, units[other_prov]))
    return _with_convoys(out, mine, reach) if at_sea else out


def _convoyed_into(mine: _UnitOrders, reach: _ConvoyReach, at_sea: bool) -> AbstractSet[str]:
    """The armies that could reach a province ``mine`` may support into only by convoy (not
    those whose convoy needs ``mine`` itself, a fleet at sea)."""
    if mine.reach.isdisjoint(reach.convoy_only_into):
        return _NOWHERE
    prov = mine.prov
    convoyed: set[str] = set()
    for dest in mine.reach & reach.convoy_only_into:
        for army_prov in reach.convoy_only[dest]:
            if army_prov != prov and dest != prov and (not at_sea or prov not in reach.needed[army_prov][dest]):
                convoyed.add(army_prov)
    return convoyed


def _supports_by_number(out: list[Order], state: GameState, mine: _UnitOrders, reach: _ConvoyReach,
                        convoyed: AbstractSet[str], at_sea: bool) -> None:
    """The usual case: the position lists its units in province order, as the board numbers
    them, so the units around are walked by number; armies that could come only by convoy are
    merged in at their place in that order."""
    board, units, occupant, provinces = state.board, state.units, reach.occupant, reach.pool.provinces
    supports_by_id = mine.moves_by_id
    province_ids = reach.pool.province_ids
    later = sorted([province_ids[a] for a in convoyed], reverse=True)
    for p in mine.around_ids:
        while later and later[-1] <= p:
            q = later.pop()
            out.extend(reach.convoyed_supports(mine, provinces[q], at_sea))
            if q == p:
                break
        else:
            other_id = occupant[p]
            if other_id >= 0:
                supports = supports_by_id[other_id]
                out.extend(supports if supports is not None
                           else mine.file_support_moves(board, units[provinces[p]], other_id))
    while later:
        q = later.pop()
        out.extend(reach.convoyed_supports(mine, provinces[q], at_sea))


def _with_convoys(out: list[Order], mine: _UnitOrders, reach: _ConvoyReach) -> list[Order]:
    """``out`` and the convoys of the fleet at sea ``mine``: for the armies whose route it is on."""
    sea = mine.prov
    for army, routes in reach.through.get(sea, ()):
        for dest, fleets in routes:
            if sea in fleets:
                out.append(mine.convoys.get((army.location, dest)) or mine.convoy(army, dest))
    return out


def unit_options(state: GameState, province: str, reach: _ConvoyReach | None = None) -> list[Order]:
    """Every legal order for the unit in ``province`` in the current phase."""
    prov = province_of(province)
    kind = state.phase.kind
    if kind == MOVEMENT:
        unit = state.units.get(prov)
        if unit is None:
            return []
        options = _movement_options(state, unit, reach or _ConvoyReach(state))
        return options if state.relations is None else _formal_options(state, options)
    if kind == RETREAT:
        d = state.dislodged_in(prov)
        if d is None:
            return []
        u = d.unit
        return [Disband(u.power, u.kind, u.location)] + [
            Retreat(u.power, u.kind, u.location, dest) for dest in retreat_destinations(state, prov)
        ]
    unit = state.units.get(prov)
    if unit is not None and state.adjustment_delta(unit.power) < 0:
        return [Remove(unit.power, unit.kind, unit.location)]
    return []


def build_options(state: GameState, power: str) -> list[Order]:
    """Builds (and a waive) open to ``power`` in an adjustment phase."""
    board = state.board
    if state.phase.kind != ADJUSTMENT or state.adjustment_delta(power) <= 0:
        return []
    out: list[Order] = []
    for c in board.home_centres.get(power, ()):
        if c in state.units or state.owners.get(c) != power:
            continue
        out.append(Build(power, ARMY, c))
        for loc in board.fleet_locations(c):
            out.append(Build(power, FLEET, loc))
    out.append(Waive(power))
    return out


def power_options(state: GameState, power: str) -> dict[str, list[Order]]:
    """Legal orders for every unit of ``power`` (keyed by province; builds under ``"build"``)."""
    return _power_options(state, power, _ConvoyReach(state) if state.phase.kind == MOVEMENT else None)


def _power_options(state: GameState, power: str, reach: _ConvoyReach | None) -> dict[str, list[Order]]:
    kind = state.phase.kind
    out: dict[str, list[Order]] = {}
    if kind == RETREAT:
        for d in state.dislodged:
            if d.unit.power == power:
                out[d.province] = unit_options(state, d.province)
        return out
    if kind == ADJUSTMENT:
        delta = state.adjustment_delta(power)
        if delta > 0:
            out["build"] = build_options(state, power)
        elif delta < 0:
            for u in state.units_of(power):
                out[u.province] = [Remove(power, u.kind, u.location)]
        return out
    assert reach is not None
    for prov, u in state.units.items():
        if u.power == power:
            out[prov] = _movement_options(state, u, reach)
    if state.relations is not None:
        out = {prov: _formal_options(state, options) for prov, options in out.items()}
    return out


def all_options(state: GameState, powers: Iterable[str] | None = None) -> dict[str, dict[str, list[Order]]]:
    """Legal orders for every power (or the given ones)."""
    wanted = tuple(powers or state.board.power_ids)
    if state.phase.kind != MOVEMENT:
        return {p: _power_options(state, p, None) for p in wanted}
    reach = _ConvoyReach(state)
    out: dict[str, dict[str, list[Order]]] = {p: {} for p in wanted}
    for prov, u in state.units.items():  # one pass over the units, each filed under its power
        mine = out.get(u.power)
        if mine is not None:
            mine[prov] = _movement_options(state, u, reach)
    if state.relations is not None:
        out = {p: {prov: _formal_options(state, options) for prov, options in mine.items()}
               for p, mine in out.items()}
    return out


def orders_needed(state: GameState, power: str) -> int:
    """How many orders ``power`` owes this phase (units to order, retreats, builds or removals)."""
    kind = state.phase.kind
    if kind == MOVEMENT:
        return len(state.units_of(power))
    if kind == RETREAT:
        return sum(1 for d in state.dislodged if d.unit.power == power)
    delta = state.adjustment_delta(power)
    if delta > 0:
        buildable = sum(1 for c in state.board.home_centres.get(power, ())
                        if c not in state.units and state.owners.get(c) == power)
        return min(delta, buildable)
    return -delta if delta < 0 else 0
