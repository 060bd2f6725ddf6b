"""Legal options: every order the rules allow, per unit and per power, for any phase.

This is what the click-to-order interface offers.  Every option returned here passes
:func:`validation.check_order`; the tests check that, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import ARMY, FLEET, province_of
from .orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove, Waive
from .state import ADJUSTMENT, MOVEMENT, RETREAT, GameState, Unit
from .validation import convoy_routes, fleets_at_sea, retreat_destinations


class _ConvoyReach:
    """Which coastal provinces an army could reach by convoy, given the fleets at sea."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.board = state.board
        self.seas = fleets_at_sea(state)
        self._cache: dict[tuple[str, str | None], frozenset[str]] = {}

    def destinations(self, army_prov: str, without: str | None = None) -> frozenset[str]:
        key = (army_prov, without)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        board = self.board
        nb = board.province_neighbours
        seas = self.seas - {without} if without else self.seas
        out: set[str] = set()
        if board.is_coastal(army_prov):
            frontier = [p for p in nb[army_prov] if p in seas]
            seen = set(frontier)
            while frontier:
                p = frontier.pop()
                for q in nb[p]:
                    if q in seas:
                        if q not in seen:
                            seen.add(q)
                            frontier.append(q)
                    elif board.is_coastal(q) and q != army_prov:
                        out.add(q)
        result = frozenset(out)
        self._cache[key] = result
        return result


def _movement_options(state: GameState, unit: Unit, reach: _ConvoyReach) -> list[Order]:
    board = state.board
    power, kind, loc, prov = unit.power, unit.kind, unit.location, unit.province
    out: list[Order] = [Hold(power, kind, loc)]
    # moves
    if kind == ARMY:
        land = board.army_moves[prov]
        for dest in sorted(land):
            out.append(Move(power, kind, loc, dest))
        for dest in sorted(reach.destinations(prov)):
            out.append(Move(power, kind, loc, dest, via_convoy=True))
    else:
        for dest in sorted(board.fleet_moves[loc]):
            out.append(Move(power, kind, loc, dest))
    # supports: to hold, and to move, into every province this unit could enter
    reachable = board.army_moves[prov] if kind == ARMY else board.fleet_reach[loc]
    for target_prov in sorted(reachable):
        other = state.units.get(target_prov)
        if other is not None:
            out.append(SupportHold(power, kind, loc, other.kind, other.location))
    for other in state.units.values():
        if other.province == prov:
            continue
        if other.kind == FLEET:
            dests = board.fleet_reach[other.location]
        else:
            dests = board.army_moves[other.province] | reach.destinations(
                other.province, without=prov if kind == FLEET and board.is_sea(prov) else None)
        for dest in sorted(dests & reachable):
            if dest != prov:
                out.append(SupportMove(power, kind, loc, other.kind, other.location, dest))
    # convoys: fleets at sea, for armies whose route this fleet is needed on
    if kind == FLEET and board.is_sea(prov):
        for army in state.units.values():
            if army.kind != ARMY or not board.is_coastal(army.province):
                continue
            for dest in sorted(reach.destinations(army.province)):
                routes = convoy_routes(board, army.province, dest, reach.seas)
                if any(prov in r for r in routes):
                    out.append(Convoy(power, FLEET, loc, ARMY, army.location, dest))
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
        space = board.spaces[c]
        out.append(Build(power, ARMY, c))
        for loc in board.fleet_locations(c):
            out.append(Build(power, FLEET, loc))
    out.append(Waive(power))
    return out


def power_options(state: GameState, power: str) -> dict[str, list[Order]]:
    """Legal orders for every unit of ``power`` (keyed by province; builds under ``"build"``)."""
    kind = state.phase.kind
    reach = _ConvoyReach(state) if kind == MOVEMENT else None
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
    for u in state.units_of(power):
        out[u.province] = unit_options(state, u.province, reach)
    return out


def all_options(state: GameState, powers: Iterable[str] | None = None) -> dict[str, dict[str, list[Order]]]:
    """Legal orders for every power (or the given ones)."""
    return {p: power_options(state, p) for p in (powers or state.board.power_ids)}


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
