"""Civil disorder (rules XIV.1, XIV.2): a power whose player has left, or who gave no orders.

"His units hold in position, but do not support each other.  If they are dislodged, they are
disbanded.  No new units are raised for this country."  The powers in civil disorder are given
for one phase (the caller decides who: a host marks a player who left; :func:`without_orders`
finds the powers that gave no orders).  Both rule editions use the same rules; the removals a
power in disorder owes follow XIV.2 (``adjustments.civil_disorder_removals``, by edition).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from .orders import Disband, Order
from .results import OrderResult, Outcome, ResultCode, Say, Why
from .state import ADJUSTMENT, MOVEMENT, RETREAT, DislodgedUnit, GameState

RULE = "XIV.1"


#: what civil disorder meant for the phase, told to the table with its results (rules XIV.1).  A
#: power in civil disorder for a movement phase (no orders that season) is not barred from the
#: adjustments that follow: "a player who temporarily fails to submit orders may, of course, resume
#: play"; it builds or removes as its centres say, unless it is still in civil disorder then.
_TOLD = {
    MOVEMENT: ("no orders count; units hold and do not support each other; dislodged units are disbanded. "
               "Builds and removals come in the adjustments, as the centres say (a power still in civil "
               "disorder then raises no new units)"),
    RETREAT: "its dislodged units are disbanded",
    ADJUSTMENT: "no builds; its removals follow the civil-disorder rule (XIV.2)",
}


def disorder_told(kind: str) -> str:
    """What civil disorder meant in a phase of ``kind`` ("movement", "retreat", "adjustment"),
    in the words the results give every seat (the window's Results panel, the phones)."""
    return _TOLD.get(kind, "")


def without_orders(state: GameState, orders: Iterable[Order]) -> frozenset[str]:
    """The powers with units on the board that gave no order at all in this movement phase
    (rules XIV.1: a player who "fails to submit orders in a given Spring or Fall season"); empty
    in other phases.  The caller decides whether to treat them as in civil disorder."""
    if state.phase.kind != MOVEMENT:
        return frozenset()
    ordered = {o.power for o in orders}
    return frozenset(u.power for u in state.units.values() if u.power not in ordered)


def split_orders(state: GameState, orders: Iterable[Order], disorder: AbstractSet[str]
                 ) -> tuple[list[Order], list[OrderResult]]:
    """The orders that stand, and a result for each order of a power in civil disorder (ignored)."""
    kept: list[Order] = []
    ignored: list[OrderResult] = []
    for o in orders:
        if o.power in disorder:
            why = Why(Say.DISORDER_IGNORED, state.board, powers=(o.power,), mode=state.phase.kind)
            ignored.append(OrderResult(o, Outcome.VOID, ResultCode.CIVIL_DISORDER, why, rule=RULE))
        else:
            kept.append(o)
    return kept, ignored


def disband_dislodged(after: GameState, disorder: AbstractSet[str]) -> tuple[GameState, list[OrderResult]]:
    """``after`` (a position with dislodged units) with those of the powers in civil disorder
    disbanded at once, without a retreat, and a result for each."""
    if not disorder or not any(d.unit.power in disorder for d in after.dislodged):
        return after, []
    keep: list[DislodgedUnit] = []
    results: list[OrderResult] = []
    for d in after.dislodged:
        if d.unit.power in disorder:
            u = d.unit
            results.append(OrderResult(Disband(u.power, u.kind, u.location), Outcome.SUCCESS, ResultCode.DISORDER_DISBANDED,
                                       Why(Say.DISORDER_DISBANDED), rule=RULE))
        else:
            keep.append(d)
    return after.evolve(dislodged=tuple(keep)), results


def empty_seal_consequence(state: GameState, name: str) -> str:
    """What sealing no orders at all does to the power called ``name`` in ``state``'s phase, in
    plain words, when the table treats a power without orders as in civil disorder.  Empty when
    it does nothing beyond what the rules do anyway (only a movement phase counts: XIV.1 speaks of
    a player who "fails to submit orders in a given Spring or Fall season")."""
    if state.phase.kind != MOVEMENT:
        return ""
    return (f"{name} has given no orders. Sealing now puts {name} in civil disorder this season (rules XIV.1): "
            f"all its units hold and do not support each other, and a unit of {name} that is dislodged "
            "is disbanded at once, without a retreat. To hold without civil disorder, give each unit a "
            "Hold order (H) before sealing.")


__all__ = ["RULE", "disband_dislodged", "empty_seal_consequence", "split_orders", "without_orders"]
