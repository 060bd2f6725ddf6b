"""Is an order legal here?  Each check returns the order as the engine understands it
(unit kind and coasts filled in from the board) or raises an :class:`OrderError` that says why.

"Legal" follows DATC 4.E.1: an order that, not knowing any other order, could be valid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .board import ARMY, FLEET, Board, province_of
from .boardindex import KIND_NAMES, board_index
from .errors import AmbiguousOrderError, IllegalOrderError
from .orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove,
                     UnitOrder, Waive)
from .state import ADJUSTMENT, MOVEMENT, RETREAT, GameState, Unit

__all__ = [
    "KIND_NAMES", "MOVEMENT_CHECKS", "check_build", "check_convoy", "check_disband", "check_hold", "check_move", "check_order",
    "check_remove", "check_retreat", "check_support_hold", "check_support_move", "check_waive", "convoy_fleets",
    "convoy_routes", "describe", "fleet_destination", "fleets_at_sea", "is_legal", "retreat_destinations",
    "space_name",
]


def space_name(board: Board, loc: str) -> str:
    return board_index(board).space_name(loc)


def describe(board: Board, unit: Unit) -> str:
    return board_index(board).describe(unit.kind, unit.location)


# -- convoy routes -------------------------------------------------------------------------


def convoy_routes(board: Board, origin: str, dest: str, fleet_seas: Iterable[str], limit: int = 64
                  ) -> list[tuple[str, ...]]:
    """Minimal chains of sea provinces (each holding a fleet) that could carry an army.

    A chain is minimal when no fleet in it could be left out: only its first sea touches the
    origin, only its last touches the destination, and no two non-consecutive seas touch.
    """
    seas = set(fleet_seas)
    nb = board.province_neighbours
    near_origin = nb.get(origin, frozenset())
    near_dest = nb.get(dest, frozenset())
    routes: list[tuple[str, ...]] = []

    def extend(path: list[str]) -> None:
        if len(routes) >= limit:
            return
        last = path[-1]
        if last in near_dest:
            routes.append(tuple(path))
            return
        for nxt in sorted(nb[last] & seas):
            if nxt in path or nxt in near_origin:
                continue
            if any(nxt in nb[p] for p in path[:-1]):
                continue
            path.append(nxt)
            extend(path)
            path.pop()

    for first in sorted(near_origin & seas):
        extend([first])
    return routes


def convoy_fleets(board: Board, origin: str, fleet_seas: Iterable[str]) -> dict[str, frozenset[str]]:
    """For every coast an army in ``origin`` could be convoyed to, the fleets (their seas) that
    lie on at least one minimal chain there: for each destination, the fleets of
    ``convoy_routes(board, origin, dest, fleet_seas)``, found from the board's chains at once.
    """
    seas = fleet_seas if isinstance(fleet_seas, (set, frozenset)) else set(fleet_seas)
    found: dict[str, frozenset[str]] = {}
    for first, chains in board_index(board).convoy_chains(origin).items():
        if first in seas:
            for dest, chain in chains:
                if chain <= seas:
                    found[dest] = found[dest] | chain if dest in found else chain
    return found


def fleets_at_sea(state: GameState, exclude: str | None = None) -> set[str]:
    seas = board_index(state.board).seas
    return {p for p, u in state.units.items() if u.kind == FLEET and p in seas and p != exclude}


class _Position:
    """Facts about one position that several checks of its orders need: the units by exact
    location, the seas holding a fleet, and which fleets lie on convoy routes from each coast.  Positions are immutable, so
    these are worked out once per position; the last position asked about is remembered."""

    __slots__ = ("at", "fleet_routes", "seas", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.at = {u.location: u for u in state.units.values()}  # location (with coast) -> unit
        self.seas = frozenset(fleets_at_sea(state))
        self.fleet_routes: dict[str, dict[str, frozenset[str]]] = {}

    def convoy_fleets(self, origin: str) -> dict[str, frozenset[str]]:
        found = self.fleet_routes.get(origin)
        if found is None:
            found = self.fleet_routes[origin] = convoy_fleets(self.state.board, origin, self.seas)
        return found


_last_position: _Position | None = None


def _position(state: GameState) -> _Position:
    global _last_position
    position = _last_position
    if position is None or position.state is not state:
        position = _last_position = _Position(state)
    return position


def _fleet_seas(state: GameState) -> frozenset[str]:
    return _position(state).seas


def _convoy_reaches(state: GameState, origin: str, dest: str, exclude: str | None = None) -> bool:
    """Whether fleets at sea (but the one in ``exclude``) chain from ``origin`` to ``dest``:
    ``convoy_routes(..., limit=1)`` is not empty."""
    seas = _fleet_seas(state)
    for first, chains in board_index(state.board).convoy_chains(origin).items():
        if first in seas and first != exclude:
            for to, chain in chains:
                if to == dest and chain <= seas and exclude not in chain:
                    return True
    return False


# -- movement phase --------------------------------------------------------------------------


def _own_unit(state: GameState, order: UnitOrder) -> Unit:
    prov = province_of(order.location)
    unit = state.units.get(prov)
    if unit is not None and unit.power == order.power:
        return unit
    board = state.board
    if prov not in board.spaces:
        raise IllegalOrderError(f"there is no space {order.location!r} on this board")
    if unit is None:
        raise IllegalOrderError(f"there is no unit in {space_name(board, prov)}")
    if unit.power != order.power:
        owner = board.power(unit.power).adjective if unit.power in board.power_ids else unit.power
        raise IllegalOrderError(
            f"the {describe(board, unit)} is {owner}; {board.power(order.power).name if order.power in board.power_ids else order.power} cannot order it",
            rule="VII.1")
    return unit


def fleet_destination(board: Board, src: str, destination: str) -> str:
    """The exact location a fleet at ``src`` moves to for a written ``destination``."""
    prov = province_of(destination)
    space = board.spaces[prov]
    options = board_index(board).fleet_into.get((src, prov), ())
    # a fleet on one coast of a province with two reaches only what borders that coast (VII.3.2)
    from_coast = "VII.3.2" if "/" in src else "VII.1"
    if not space.coasts:
        if not options:
            raise IllegalOrderError(f"a fleet in {space_name(board, src)} cannot reach {space.name}", rule=from_coast)
        return prov
    if "/" in destination and destination in space.coast_locations:
        if destination not in options:
            raise IllegalOrderError(
                f"a fleet in {space_name(board, src)} cannot reach {space_name(board, destination)}",
                rule="VII.3.2")
        return destination
    if not options:
        raise IllegalOrderError(f"a fleet in {space_name(board, src)} cannot reach {space.name}", rule=from_coast)
    if len(options) > 1:
        names = ", ".join(space_name(board, o) for o in options)
        raise AmbiguousOrderError(
            f"{space.name} has two coasts a fleet in {space_name(board, src)} can reach: name one ({names})",
            options, rule="VII.3.2")
    return options[0]


def _army_route_possible(state: GameState, src: str, dest: str, exclude: str | None = None) -> bool:
    coasts = board_index(state.board).coasts
    if not (src in coasts and dest in coasts):
        return False
    return _convoy_reaches(state, src, dest, exclude)


def _check_destination_space(board: Board, destination: str) -> str:
    prov = province_of(destination)
    space = board.spaces.get(prov)
    if space is None:
        raise IllegalOrderError(f"there is no space {destination!r} on this board")
    if space.kind == "impassable":
        raise IllegalOrderError(f"{space.name} is impassable", rule="VII.1")
    return prov


# Each check returns the order as the engine understands it.  When the order was already
# written that way (as every legal option and most parsed orders are), it is returned itself
# rather than rebuilt: orders are values, and this is the adjudicator's hot path.


def check_move(state: GameState, order: Move) -> Move:
    board = state.board
    unit = _position(state).at.get(order.location)
    if unit is not None and unit.power == order.power and unit.kind == order.unit_kind and not order.via_convoy:
        # the usual case: the unit named exactly, moving to a neighbouring location
        moves = board.army_moves if unit.kind == ARMY else board.fleet_moves
        if order.destination in moves[unit.location]:
            return order
    unit = _own_unit(state, order)
    dest_prov = _check_destination_space(board, order.destination)
    if dest_prov == province_of(unit.location):
        raise IllegalOrderError("a unit cannot move to the space it is in", rule="VII.1")
    if unit.kind == FLEET:
        if order.via_convoy:
            raise IllegalOrderError("only armies can be convoyed", rule="XII.1")
        dest = fleet_destination(board, unit.location, order.destination)
        if order.unit_kind == FLEET and order.location == unit.location and order.destination == dest:
            return order
        return Move(order.power, FLEET, unit.location, dest)
    # army
    if dest_prov in board_index(board).seas:
        raise IllegalOrderError(f"an army cannot move into the sea ({board.spaces[dest_prov].name})", rule="VII.1")
    adjacent = dest_prov in board.army_moves[unit.location]
    if (order.via_convoy or not adjacent) and not _army_route_possible(state, unit.location, dest_prov):
        if adjacent:
            raise IllegalOrderError(
                f"no fleets at sea could convoy the army from {space_name(board, unit.province)} to "
                f"{board.spaces[dest_prov].name}", rule="XII.1")
        raise IllegalOrderError(
            f"{board.spaces[dest_prov].name} is not next to {space_name(board, unit.province)} "
            "and no fleets at sea could convoy the army there", rule="VII.1")
    if order.unit_kind == ARMY and order.location == unit.location and order.destination == dest_prov:
        return order
    return Move(order.power, ARMY, unit.location, dest_prov, order.via_convoy)


def _supported_unit(state: GameState, target: str) -> Unit:
    board = state.board
    prov = province_of(target)
    if prov not in board.spaces:
        raise IllegalOrderError(f"there is no space {target!r} on this board")
    unit = state.units.get(prov)
    if unit is None:
        raise IllegalOrderError(f"there is no unit in {space_name(board, prov)} to support or convoy")
    return unit


def _can_reach(board: Board, unit: Unit, province: str) -> bool:
    """Whether ``unit`` could move into ``province`` (any coast): the support test."""
    if unit.kind == ARMY:
        return province in board.army_moves[unit.location]
    return province in board.fleet_reach[unit.location]


def _exactly(state: GameState, order: SupportHold | SupportMove | Hold) -> tuple[Unit | None, Unit | None]:
    """The ordered unit and the supported one, when the order names both exactly."""
    at = _position(state).at
    unit = at.get(order.location)
    if unit is None or unit.power != order.power or unit.kind != order.unit_kind:
        return None, None
    if isinstance(order, Hold):
        return unit, None
    target = at.get(order.target)
    if target is None or target.kind != order.target_kind or target is unit:
        return None, None
    return unit, target


def check_support_hold(state: GameState, order: SupportHold) -> SupportHold:
    board = state.board
    unit, target = _exactly(state, order)
    if target is not None and _can_reach(board, unit, province_of(target.location)):  # type: ignore[arg-type]
        return order  # the usual case
    unit = _own_unit(state, order)
    target = _supported_unit(state, order.target)
    target_prov = province_of(target.location)
    if target_prov == province_of(unit.location):
        raise IllegalOrderError("a unit cannot support itself", rule="IX.1")
    if not _can_reach(board, unit, target_prov):
        raise IllegalOrderError(
            f"the {describe(board, unit)} could not move to {space_name(board, target.province)}, "
            "so it cannot support there", rule="IX.1")
    if (order.unit_kind == unit.kind and order.location == unit.location and order.target_kind == target.kind
            and order.target == target.location):
        return order
    return SupportHold(order.power, unit.kind, unit.location, target.kind, target.location)


def check_support_move(state: GameState, order: SupportMove) -> SupportMove:
    board = state.board
    unit, target = _exactly(state, order)
    dest = order.destination
    if (target is not None and "/" not in dest and _can_reach(board, unit, dest)  # type: ignore[arg-type]
            and dest != province_of(target.location) and _can_reach(board, target, dest)):
        return order  # the usual case: a support of a move to a neighbour of both units
    unit = _own_unit(state, order)
    target = _supported_unit(state, order.target)
    dest_prov = _check_destination_space(board, order.destination)
    unit_prov, target_prov = province_of(unit.location), province_of(target.location)
    if target_prov == unit_prov:
        raise IllegalOrderError("a unit cannot support its own move", rule="IX.1")
    if dest_prov == unit_prov:
        raise IllegalOrderError("a unit cannot support a move into its own space", rule="IX.1")
    if dest_prov == target_prov:
        raise IllegalOrderError("the supported unit cannot move to the space it is in", rule="IX.1")
    if not _can_reach(board, unit, dest_prov):
        raise IllegalOrderError(
            f"the {describe(board, unit)} could not move to {space_name(board, dest_prov)}, "
            "so it cannot support a move there", rule="IX.1")
    # could the supported unit make that move at all?
    if target.kind == FLEET:
        if not _can_reach(board, target, dest_prov):
            raise IllegalOrderError(
                f"the {describe(board, target)} cannot move to {space_name(board, dest_prov)}", rule="IX.1")
    else:
        if dest_prov in board_index(board).seas:
            raise IllegalOrderError("an army cannot move into the sea", rule="IX.1")
        if dest_prov not in board.army_moves[target_prov] and not _army_route_possible(
            state, target_prov, dest_prov, exclude=unit_prov
        ):
            raise IllegalOrderError(
                f"the {describe(board, target)} cannot reach {space_name(board, dest_prov)}, "
                "not even by convoy", rule="IX.1")
    dest = order.destination
    if "/" in dest and dest not in board_index(board).names:
        dest = dest_prov  # an unknown or irrelevant coast is ignored (DATC 4.B.6)
    if "/" in dest and target.kind == FLEET and dest not in board.fleet_moves[target.location]:
        # the supported fleet cannot reach that coast, so the support can never be valid (DATC 4.B.4, 4.E.1)
        raise IllegalOrderError(
            f"the {describe(board, target)} cannot move to {space_name(board, dest)}, so it cannot be supported there", rule="VII.3.2")
    if (order.unit_kind == unit.kind and order.location == unit.location and order.target_kind == target.kind
            and order.target == target.location and order.destination == dest):
        return order
    return SupportMove(order.power, unit.kind, unit.location, target.kind, target.location, dest)


def check_convoy(state: GameState, order: Convoy) -> Convoy:
    board = state.board
    unit = _own_unit(state, order)
    if unit.kind != FLEET:
        raise IllegalOrderError("only fleets can convoy", rule="VII.1")
    if not board.is_sea(unit.province):
        raise IllegalOrderError("a fleet can convoy only from a body of water, not from a coast", rule="XIV.3")
    target = _supported_unit(state, order.target)
    if target.kind != ARMY:
        raise IllegalOrderError("only armies can be convoyed", rule="XII.1")
    dest_prov = _check_destination_space(board, order.destination)
    if dest_prov == target.province:
        raise IllegalOrderError("an army cannot be convoyed to the space it is in", rule="XII.1")
    if not (board.is_coastal(target.province) and board.is_coastal(dest_prov)):
        raise IllegalOrderError("armies are convoyed only from one coast to another", rule="XII.1")
    chains = _position(state).convoy_fleets(target.province)
    if unit.province not in chains.get(dest_prov, ()):
        fleet, source, there = (space_name(board, unit.province), space_name(board, target.province),
                                space_name(board, dest_prov))
        if dest_prov not in chains:  # no chain at all (DATC 6.F.1): "not needed" would suggest another route
            raise IllegalOrderError(f"no chain of fleets at sea runs from {source} to {there}, so the fleet in "
                                    f"{fleet} cannot convoy the army there", rule="XII.2")
        raise IllegalOrderError(f"the fleet in {fleet} is not needed on any route from {source} to {there}",
                                rule="XII.2")
    if (order.unit_kind == FLEET and order.location == unit.location and order.target_kind == ARMY
            and order.target == target.location and order.destination == dest_prov):
        return order
    return Convoy(order.power, FLEET, unit.location, ARMY, target.location, dest_prov)


def check_hold(state: GameState, order: Hold) -> Hold:
    if _exactly(state, order)[0] is not None:
        return order
    unit = _own_unit(state, order)
    if order.unit_kind == unit.kind and order.location == unit.location:
        return order
    return Hold(order.power, unit.kind, unit.location)


MOVEMENT_CHECKS: dict[type, Callable[[GameState, Any], Order]] = {
    Hold: check_hold,
    Move: check_move,
    SupportHold: check_support_hold,
    SupportMove: check_support_move,
    Convoy: check_convoy,
}


# -- retreat phase ---------------------------------------------------------------------------


def retreat_destinations(state: GameState, province: str) -> list[str]:
    """Where the unit dislodged from ``province`` may retreat (locations, sorted)."""
    board = state.board
    d = state.dislodged_in(province)
    if d is None:
        return []
    unit = d.unit
    if unit.kind == ARMY:
        candidates = sorted(board.army_moves[unit.province])
    else:
        candidates = sorted(board.fleet_moves[unit.location])
    out = []
    for loc in candidates:
        prov = province_of(loc)
        if prov in state.units or prov in state.contested or state.dislodged_in(prov) is not None:
            continue  # a dislodged unit's space holds its attacker, even where a file left it out
        if prov == d.attacker_from and not d.by_convoy:
            continue
        out.append(loc)
    if state.relations is not None:  # Formal Diplomacy: not into a neutral's territory
        from .formal import retreat_allowed

        out = [loc for loc in out if retreat_allowed(state, unit.power, province_of(loc))]
    return out


def _dislodged_own(state: GameState, order: UnitOrder) -> Unit:
    board = state.board
    d = state.dislodged_in(order.province) if order.province in board.spaces else None
    if d is None:
        raise IllegalOrderError(f"there is no dislodged unit in {space_name(board, order.province)}", rule="XI")
    if d.unit.power != order.power:
        raise IllegalOrderError(f"the dislodged {describe(board, d.unit)} is not yours to order", rule="XI.1")
    return d.unit


def check_retreat(state: GameState, order: Retreat) -> Retreat:
    board = state.board
    unit = _dislodged_own(state, order)
    dest_prov = _check_destination_space(board, order.destination)
    allowed = retreat_destinations(state, unit.province)
    if unit.kind == FLEET:
        try:
            dest = fleet_destination(board, unit.location, order.destination)
        except AmbiguousOrderError as exc:
            open_coasts = tuple(c for c in exc.candidates if c in allowed)
            if len(open_coasts) != 1:
                raise
            dest = open_coasts[0]
    else:
        if dest_prov not in board.army_moves[unit.province]:
            raise IllegalOrderError(f"an army cannot retreat to {space_name(board, dest_prov)}: not adjacent", rule="XI")
        dest = dest_prov
    if dest not in allowed:
        if state.relations is not None:  # Formal Diplomacy: not into a neutral's territory
            from .formal import entry_refusal

            refusal = entry_refusal(state, unit.power, dest_prov)
            if refusal is not None:
                try:
                    raise refusal
                finally:
                    del refusal  # else error -> traceback -> this frame -> error: a reference cycle
        d = state.dislodged_in(unit.province)
        why = "it is occupied"
        if dest_prov in state.contested:
            why = "a standoff left it empty this turn"
        elif d is not None and dest_prov == d.attacker_from:
            why = "the attacker came from there"
        elif dest_prov not in state.units:
            why = "it is not reachable"
        raise IllegalOrderError(f"cannot retreat to {space_name(board, dest)}: {why}", rule="XI")
    return Retreat(order.power, unit.kind, unit.location, dest)


def check_disband(state: GameState, order: Disband) -> Disband:
    unit = _dislodged_own(state, order)
    return Disband(order.power, unit.kind, unit.location)


# -- adjustment phase ------------------------------------------------------------------------


def check_build(state: GameState, order: Build) -> Build:
    board = state.board
    prov = order.province
    space = board.spaces.get(prov)
    if space is None:
        raise IllegalOrderError(f"there is no space {order.location!r} on this board")
    if state.adjustment_delta(order.power) <= 0:
        raise IllegalOrderError(f"{board.power(order.power).name} has no builds to make", rule="XIII.2")
    if space.home != order.power:
        raise IllegalOrderError(f"{space.name} is not a home supply centre of {board.power(order.power).name}", rule="XIII.2")
    if state.owners.get(prov) != order.power:
        raise IllegalOrderError(f"{board.power(order.power).name} does not control {space.name}", rule="XIII.2")
    if prov in state.units:
        raise IllegalOrderError(f"{space.name} is occupied", rule="XIII.2")
    kind = order.unit_kind
    if kind is None:
        # DATC 4.C.3: an army inland; a fleet where a coast is named; else unclear
        if space.kind == "land":
            kind = ARMY
        elif "/" in order.location:
            kind = FLEET
        else:
            raise AmbiguousOrderError(f"build an army or a fleet in {space.name}?", (f"A {prov}", f"F {prov}"), rule="XIII.2")
    if kind == ARMY:
        return Build(order.power, ARMY, prov)
    if space.kind != "coast":
        raise IllegalOrderError(f"a fleet cannot be built in {space.name}: it has no coast", rule="XIII.2")
    if space.coasts:
        if order.location not in space.coast_locations:
            raise AmbiguousOrderError(
                f"name the coast of {space.name} for the fleet ({', '.join(space.coasts)})",
                space.coast_locations, rule="XIII.2")
        return Build(order.power, FLEET, order.location)
    return Build(order.power, FLEET, prov)


def check_remove(state: GameState, order: Remove) -> Remove:
    board = state.board
    unit = _own_unit(state, order)
    if state.adjustment_delta(order.power) >= 0:
        raise IllegalOrderError(f"{board.power(order.power).name} has no units to remove", rule="XIII.2")
    return Remove(order.power, unit.kind, unit.location)


def check_waive(state: GameState, order: Waive) -> Waive:
    if state.adjustment_delta(order.power) <= 0:
        raise IllegalOrderError(f"{state.board.power(order.power).name} has no builds to waive", rule="XIII.2")
    return order


_PHASE_CHECKS: dict[str, dict[type, Callable[[GameState, Any], Order]]] = {
    MOVEMENT: MOVEMENT_CHECKS,
    RETREAT: {Retreat: check_retreat, Disband: check_disband},
    ADJUSTMENT: {Build: check_build, Remove: check_remove, Waive: check_waive},
}

_PHASE_WORDS = {MOVEMENT: "a movement phase", RETREAT: "a retreat phase", ADJUSTMENT: "an adjustment phase"}


#: an order's kind in words (the class names run words together)
_ORDER_WORDS = {"SupportHold": "support", "SupportMove": "support", "Convoy": "convoy", "Move": "move",
                "Hold": "hold", "Retreat": "retreat", "Disband": "disband", "Build": "build", "Remove": "remove",
                "Waive": "waive"}


def check_order(state: GameState, order: Order) -> Order:
    """The order as the engine understands it, or :class:`OrderError` saying why not."""
    if order.power not in board_index(state.board).power_ids:
        raise IllegalOrderError(f"there is no power {order.power!r} in this game")
    checks = _PHASE_CHECKS[state.phase.kind]
    check = checks.get(type(order))
    if check is None:
        kind = type(order).__name__
        word = _ORDER_WORDS.get(kind, kind.lower())
        if state.phase.kind == RETREAT and word in ("support", "convoy"):
            # seed 000 XI.2: "Retreats may neither be convoyed nor supported"
            raise IllegalOrderError(f"a {word} order is not allowed in a retreat phase: retreats may neither be "
                                    "convoyed nor supported", rule="XI.2")
        raise IllegalOrderError(
            f"a {word} order is not allowed in {_PHASE_WORDS[state.phase.kind]}",
            rule={MOVEMENT: "VII.1", RETREAT: "XI", ADJUSTMENT: "XIII.2"}[state.phase.kind])
    norm = check(state, order)
    if state.relations is not None:  # Formal Diplomacy: what the relations between powers forbid
        from .formal import check_formal

        check_formal(state, norm)
    return norm


def is_legal(state: GameState, order: Order) -> bool:
    try:
        check_order(state, order)
    except (IllegalOrderError, AmbiguousOrderError):
        return False
    return True
