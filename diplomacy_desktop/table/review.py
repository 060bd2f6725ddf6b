"""What the review screen warns a power about before it seals (no Qt: the window's review dialog
and any other front end read the same list).

Only the reviewing power's own orders are read: another power's orders are secret, so a support
of a foreign unit is never compared with what that unit was ordered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..engine.errors import OrderError
from ..engine.formal import territory, violates_neutrality
from ..engine.options import orders_needed
from ..engine.orders import Build, Convoy, Move, Order, Remove, SupportHold, SupportMove, UnitOrder, Waive
from ..engine.state import ADJUSTMENT, MOVEMENT, RETREAT, GameState
from ..engine.validation import check_order
from ..io.notation import format_order, location_label


def _unit_label(kind: str | None, loc: str) -> str:
    return f"{kind} {location_label(loc)}" if kind else location_label(loc)


def review_warnings(state: GameState, power: str, orders: Iterable[Order]) -> list[str]:
    """What ``power`` may have overlooked: unordered units, illegal orders, and supports and
    convoys of its own units that its own orders do not match.  Only ``power``'s orders are read."""
    mine = [o for o in orders if o.power == power]
    by_prov: dict[str, Order] = {o.province: o for o in mine if isinstance(o, UnitOrder)}
    out: list[str] = []
    kind = state.phase.kind
    for o in mine:
        try:
            check_order(state, o)
        except OrderError as exc:
            out.append(f"{format_order(o)} is not a legal order ({exc}); the unit will hold")
    if kind == MOVEMENT:
        for u in state.units_of(power):
            if u.province not in by_prov:
                out.append(f"{_unit_label(u.kind, u.location)} has no order: it will hold")
        for o in mine:
            if isinstance(o, SupportMove | SupportHold | Convoy):
                out.extend(_mismatch(state, power, o, by_prov))
        out.extend(_internment_warnings(state, power, by_prov))
    elif kind == RETREAT:
        for d in state.dislodged:
            if d.unit.power == power and d.province not in by_prov:
                out.append(f"{_unit_label(d.unit.kind, d.unit.location)} has no retreat: it will be disbanded")
    elif kind == ADJUSTMENT:
        owed = orders_needed(state, power)
        delta = state.adjustment_delta(power)
        builds = sum(1 for o in mine if isinstance(o, Build | Waive))
        removes = sum(1 for o in mine if isinstance(o, Remove))
        if delta > 0 and builds < owed:
            left = owed - builds
            out.append(f"{left} build{'s' if left != 1 else ''} not used: "
                       f"{'it is' if left == 1 else 'they are'} waived")
        if delta < 0 and removes < owed:
            left = owed - removes
            out.append(f"{left} removal{'s' if left != 1 else ''} not chosen: the rules will choose for you")
    return out


def _internment_warnings(state: GameState, power: str, by_prov: Mapping[str, Order]) -> list[str]:
    """Formal Diplomacy: ``power``'s units standing in the territory of a power neutral towards it
    (a war ended by the declarations, an alliance broken) are interned and disbanded if they are
    still there at the end of this movement phase (seed 003, "Neutrality violations")."""
    if state.relations is None:
        return []
    land = territory(state)
    out = []
    for u in state.units_of(power):
        owner = violates_neutrality(state, u, land)
        if owner is None:
            continue
        if isinstance(by_prov.get(u.province), Move):
            tail = "it will be interned and disbanded at the end of this turn unless its move out succeeds"
        else:
            tail = "it does not move out, so it will be interned and disbanded at the end of this turn"
        name = state.board.power(owner).name
        out.append(f"{_unit_label(u.kind, u.location)} stands in {name}'s territory and {name} is neutral "
                   f"towards {state.board.power(power).name}: {tail} (Formal Diplomacy, seed 003)")
    return out


def _mismatch(state: GameState, power: str, o: SupportMove | SupportHold | Convoy,
              by_prov: Mapping[str, Order]) -> list[str]:
    target = state.unit_in(o.target)
    if target is None or target.power != power:
        return []  # another power's unit: its orders are secret, nothing to compare
    target_text = _unit_label(target.kind, target.location)
    theirs = by_prov.get(target.province)
    given = format_order(o)
    if isinstance(o, SupportHold):
        if isinstance(theirs, Move):
            return [(f"{given}, but {target_text} is ordered to move ({format_order(theirs)}): "
                     "a support to hold does not help a unit that moves")]
        return []
    dest = o.destination.split("/")[0]
    if not isinstance(theirs, Move):
        what = "has no order (it will hold)" if theirs is None else f"is ordered {format_order(theirs)}"
        return [f"{given}, but {target_text} {what}"]
    if theirs.destination.split("/")[0] != dest:
        return [f"{given}, but {target_text} is ordered {format_order(theirs)}"]
    return []
