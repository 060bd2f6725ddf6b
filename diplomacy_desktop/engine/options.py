"""Legal options: every order the rules allow, per unit and per power, for any phase.

This is what the click-to-order interface offers.  Every option returned here passes
:func:`validation.check_order`; the tests check that, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import ARMY, FLEET, Board, province_of
from .boardindex import board_index
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from .state import ADJUSTMENT, MOVEMENT, RETREAT, GameState, Unit
from .validation import convoy_fleets, fleets_at_sea, retreat_destinations

_NOTHING: frozenset[str] = frozenset()


class _ConvoyReach:
    """What convoys add to one position, worked out once per call: where each army could be
    convoyed, which fleets lie on those routes, and which armies could reach a province only
    by convoy."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.board = state.board
        self.index = board_index(state.board)
        self.seas = fleets_at_sea(state)
        provinces = list(state.units)
        #: the order options list other units in: the position's (province order, as built)
        self.rank = None if provinces == sorted(provinces) else {p: i for i, p in enumerate(provinces)}.__getitem__
        self._cache: dict[tuple[str, str | None], frozenset[str]] = {}
        self._routes: dict[str, tuple[tuple[str, frozenset[str]], ...]] = {}
        self._convoy_only: dict[str, list[str]] | None = None
        self._armies_by_chain: dict[frozenset[str], list[tuple[Unit, tuple[tuple[str, frozenset[str]], ...]]]] = {}
        self._chain_of: dict[str, frozenset[str]] | None = None
        self._chain_landings: dict[frozenset[str], frozenset[str]] = {}
        self.pool = _pool(state.board)

    def destinations(self, army_prov: str, without: str | None = None) -> frozenset[str]:
        """Coastal provinces an army in ``army_prov`` could reach by convoy (not using the
        fleet in ``without``)."""
        key = (army_prov, without)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        out: set[str] = set()
        if army_prov in self.index.coasts:
            chains = self._chains()
            near = {chains[sea] for sea in self.board.province_neighbours[army_prov] if sea in chains}
            broken = chains.get(without)  # type: ignore[arg-type]
            if broken is not None and broken in near and len(broken) > 1:
                out = _landings_from(self.board, army_prov, self.seas - {without})
            else:
                for chain in near:
                    if chain is not broken:
                        out |= self._chain_landings[chain]
            out.discard(army_prov)
        result = frozenset(out)
        self._cache[key] = result
        return result

    def _chains(self) -> dict[str, frozenset[str]]:
        """Sea holding a fleet -> its chain: every fleet at sea linked to it through others."""
        if self._chain_of is None:
            self._chain_of = {}
            sea_coasts = self.index.sea_coasts
            nb = self.board.province_neighbours
            for start in self.seas:
                if start in self._chain_of:
                    continue
                found, frontier = {start}, [start]
                while frontier:
                    for q in nb[frontier.pop()]:
                        if q in self.seas and q not in found:
                            found.add(q)
                            frontier.append(q)
                chain = frozenset(found)
                self._chain_landings[chain] = frozenset().union(*(sea_coasts[sea] for sea in chain))
                for sea in chain:
                    self._chain_of[sea] = chain
        return self._chain_of

    def routes(self, army_prov: str) -> tuple[tuple[str, frozenset[str]], ...]:
        """Per convoy destination of the army in ``army_prov`` (sorted), the fleets that lie on
        a minimal route there: the fleets :func:`validation.convoy_routes` would name."""
        hit = self._routes.get(army_prov)
        if hit is None:
            dests = self.destinations(army_prov)
            chains = self._chains()
            near = [sea for sea in self.board.province_neighbours[army_prov] if sea in chains]
            if all(len(chains[sea]) == 1 for sea in near):
                # lone fleets: each is a route of its own to every coast it touches
                sea_coasts = self.index.sea_coasts
                hit = tuple((dest, frozenset(sea for sea in near if dest in sea_coasts[sea])) for dest in sorted(dests))
            else:
                on_route = convoy_fleets(self.board, army_prov, self.seas)
                hit = tuple((dest, on_route.get(dest, _NOTHING)) for dest in sorted(dests))
            self._routes[army_prov] = hit
        return hit

    def armies_by_chain(self, sea: str) -> list[tuple[Unit, tuple[tuple[str, frozenset[str]], ...]]]:
        """The armies next to the chain of fleets ``sea`` belongs to, in position order, with
        their routes (as :meth:`routes`)."""
        chain = self._chains()[sea]
        found = self._armies_by_chain.get(chain)
        if found is None:
            nb = self.board.province_neighbours
            coasts = self.index.coasts
            found = self._armies_by_chain[chain] = [
                (u, self.routes(prov)) for prov, u in self.state.units.items()
                if u.kind == ARMY and prov in coasts and not chain.isdisjoint(nb[prov])]
        return found

    def convoy_only(self) -> dict[str, list[str]]:
        """Province -> the armies that could get there by convoy but not over land."""
        if self._convoy_only is None:
            army_moves = self.board.army_moves
            into: dict[str, list[str]] = {}
            if self.seas:
                for prov, u in self.state.units.items():
                    if u.kind == ARMY:
                        for d in self.destinations(prov):
                            if d not in army_moves[prov]:
                                into.setdefault(d, []).append(prov)
            self._convoy_only = into
        return self._convoy_only


def _landings_from(board: Board, army_prov: str, seas: set[str]) -> set[str]:
    """Coasts reachable by convoy from ``army_prov`` through fleets in ``seas`` (and the
    army's own province, which callers drop)."""
    nb = board.province_neighbours
    sea_coasts = board_index(board).sea_coasts
    frontier = [p for p in nb[army_prov] if p in seas]
    seen = set(frontier)
    out: set[str] = set()
    while frontier:
        p = frontier.pop()
        out |= sea_coasts[p]
        for q in nb[p]:
            if q in seas and q not in seen:
                seen.add(q)
                frontier.append(q)
    return out


class _UnitOrders:
    """One unit's options on one board, each order built once (see :class:`_OrderPool`).

    Also what is fixed by the board for that unit: the provinces it could enter (where it may
    support) and the provinces from which another unit could move into one of those.
    """

    __slots__ = (
        "basic",
        "convoy_moves",
        "convoys",
        "kind",
        "loc",
        "neighbourhood",
        "power",
        "prov",
        "reach",
        "reach_sorted",
        "support_holds",
        "support_moves",
        "support_moves_by_unit",
    )

    def __init__(self, board: Board, power: str, kind: str, loc: str) -> None:
        index = board_index(board)
        self.power, self.kind, self.loc = power, kind, loc
        prov = self.prov = province_of(loc)
        army = kind == ARMY
        moves = index.army_moves_sorted[prov] if army else index.fleet_moves_sorted[loc]
        #: the hold and the moves to neighbours, which depend on nothing else
        self.basic: tuple[Order, ...] = (Hold(power, kind, loc), *(Move(power, kind, loc, d) for d in moves))
        self.reach: frozenset[str] = board.army_moves[prov] if army else board.fleet_reach[loc]
        self.reach_sorted = tuple(sorted(self.reach))
        supported = self.reach - {prov}
        self.neighbourhood = frozenset(
            province_of(m) for m, targets in (*board.army_moves.items(), *board.fleet_reach.items())
            if province_of(m) != prov and not supported.isdisjoint(targets))
        self.convoy_moves: dict[str, Order] = {}
        self.support_holds: dict[tuple[str, str], Order] = {}
        self.support_moves: dict[tuple[str, str, str], Order] = {}
        self.support_moves_by_unit: dict[tuple[str, str], tuple[Order, ...]] = {}
        self.convoys: dict[tuple[str, str], Order] = {}

    def convoy_move(self, dest: str) -> Order:
        order = self.convoy_moves.get(dest)
        if order is None:
            order = self.convoy_moves[dest] = Move(self.power, self.kind, self.loc, dest, via_convoy=True)
        return order

    def support_hold(self, other: Unit) -> Order:
        key = (other.kind, other.location)
        order = self.support_holds.get(key)
        if order is None:
            order = self.support_holds[key] = SupportHold(self.power, self.kind, self.loc, other.kind,
                                                          other.location)
        return order

    def support_move(self, other: Unit, dest: str) -> Order:
        key = (other.kind, other.location, dest)
        order = self.support_moves.get(key)
        if order is None:
            order = self.support_moves[key] = SupportMove(self.power, self.kind, self.loc, other.kind,
                                                          other.location, dest)
        return order

    def support_moves_of(self, board: Board, other: Unit) -> tuple[Order, ...]:
        """Supports of ``other``'s moves over land or sea into provinces this unit could enter."""
        key = (other.kind, other.location)
        orders = self.support_moves_by_unit.get(key)
        if orders is None:
            targets = board.army_moves[other.location] if other.kind == ARMY else board.fleet_reach[other.location]
            orders = self.support_moves_by_unit[key] = tuple(
                self.support_move(other, d) for d in sorted(targets & self.reach) if d != self.prov)
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
    time it is offered.  Offering a full board's options then costs dictionary look-ups instead
    of building hundreds of frozen dataclasses per call.  The pool is keyed by the ordering
    unit; it can only ever hold the orders the board allows, so it is bounded.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.units: dict[tuple[str, str, str], _UnitOrders] = {}

    def unit(self, unit: Unit) -> _UnitOrders:
        key = (unit.power, unit.kind, unit.location)
        found = self.units.get(key)
        if found is None:
            found = self.units[key] = _UnitOrders(self.board, *key)
        return found


_POOLS: dict[int, _OrderPool] = {}


def _pool(board: Board) -> _OrderPool:
    pool = _POOLS.get(id(board))
    if pool is None or pool.board is not board:
        if len(_POOLS) >= 8:  # boards built in tests come and go
            _POOLS.pop(next(iter(_POOLS)))
        pool = _POOLS[id(board)] = _OrderPool(board)
    return pool


def _movement_options(state: GameState, unit: Unit, reach: _ConvoyReach) -> list[Order]:
    board = state.board
    mine = reach.pool.units.get((unit.power, unit.kind, unit.location)) or reach.pool.unit(unit)
    prov = mine.prov
    out: list[Order] = list(mine.basic)  # the hold, then the moves
    if unit.kind == ARMY:
        for dest in sorted(reach.destinations(prov)):
            out.append(mine.convoy_move(dest))
    # supports: to hold, and to move, into every province this unit could enter
    units = state.units
    support_holds = mine.support_holds
    for target_prov in mine.reach_sorted:
        other = units.get(target_prov)
        if other is not None:
            out.append(support_holds.get((other.kind, other.location)) or mine.support_hold(other))
    # the units that could move into those provinces: over land or sea from the neighbourhood,
    # and armies that could only be convoyed there
    at_sea = unit.kind == FLEET and prov in reach.index.seas
    movers = units.keys() & mine.neighbourhood
    convoy_only = reach.convoy_only()
    convoyed: set[str] = set()
    if not mine.reach.isdisjoint(convoy_only):
        for dest in mine.reach:
            for army_prov in convoy_only.get(dest, ()):
                # a fleet at sea cannot support a convoyed move that needs the fleet itself
                if army_prov != prov and dest != prov and (
                        not at_sea or dest in reach.destinations(army_prov, without=prov)):
                    convoyed.add(army_prov)
        movers |= convoyed
    by_unit = mine.support_moves_by_unit
    for other_prov in sorted(movers, key=reach.rank):
        other = units[other_prov]
        if other_prov not in convoyed:
            supports = by_unit.get((other.kind, other.location))
            out.extend(supports if supports is not None else mine.support_moves_of(board, other))
            continue
        dests = board.army_moves[other_prov] | reach.destinations(other_prov, without=prov if at_sea else None)
        for dest in sorted(dests & mine.reach):
            if dest != prov:
                out.append(mine.support_move(other, dest))
    # convoys: fleets at sea, for armies whose route this fleet is needed on
    if at_sea:
        for army, routes in reach.armies_by_chain(prov):
            for dest, on_route in routes:
                if prov in on_route:
                    out.append(mine.convoy(army, dest))
    return out


def unit_options(state: GameState, province: str, reach: _ConvoyReach | None = None) -> list[Order]:
    """Every legal order for the unit in ``province`` in the current phase."""
    prov = province_of(province)
    kind = state.phase.kind
    if kind == MOVEMENT:
        unit = state.units.get(prov)
        if unit is None:
            return []
        return _movement_options(state, unit, reach or _ConvoyReach(state))
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
    return out


def all_options(state: GameState, powers: Iterable[str] | None = None) -> dict[str, dict[str, list[Order]]]:
    """Legal orders for every power (or the given ones)."""
    reach = _ConvoyReach(state) if state.phase.kind == MOVEMENT else None
    return {p: _power_options(state, p, reach) for p in (powers or state.board.power_ids)}


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
