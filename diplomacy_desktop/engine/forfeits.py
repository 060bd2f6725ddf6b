"""Builds a power was owed but did not make (rules XIII.2), for the results and the centre table.

A power with more centres than units builds "one in each unoccupied supply center, in his home
country only (provided that such supply centers are still under his control)"; when it has fewer
such centres free than builds owed, the rest are forfeited: "he must wait until the next Fall
move on which this situation can be corrected".  A build owed and not given is waived.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .orders import Build
from .results import OrderResult, Outcome
from .state import ADJUSTMENT, GameState


@dataclass(frozen=True, slots=True)
class UnusedBuilds:
    power: str
    owed: int  #: centres minus units
    forfeited: int  #: owed, but no free home centre of its own to build in
    waived: int  #: could have been built, and were not

    def text(self, name: str) -> str:
        parts = []
        if self.forfeited:
            s = "s" if self.forfeited > 1 else ""
            parts.append(f"{self.forfeited} build{s} forfeited: no free home centre of its own to build in "
                         "(rules XIII.2)")
        if self.waived:
            s = "s" if self.waived > 1 else ""
            parts.append(f"{self.waived} build{s} not used (waived)")
        return f"{name}: " + "; ".join(parts) + "."


def free_home_centres(state: GameState, power: str) -> int:
    """Home centres of ``power`` it still controls with no unit in them (where it may build)."""
    return sum(1 for c in state.board.home_centres.get(power, ())
               if c not in state.units and state.owners.get(c) == power)


def buildable(state: GameState, power: str) -> int:
    """How many of the builds ``power`` is owed it can make (0 outside an adjustment phase)."""
    delta = state.adjustment_delta(power)
    if state.phase.kind != ADJUSTMENT or delta <= 0:
        return 0
    return min(delta, free_home_centres(state, power))


def unused_builds(state: GameState, results: Iterable[OrderResult], disorder: Iterable[str] = ()
                  ) -> list[UnusedBuilds]:
    """After an adjustment phase in ``state``: each power whose owed builds were not all made."""
    if state.phase.kind != ADJUSTMENT:
        return []
    gone = set(disorder)
    built: dict[str, int] = {}
    for r in results:
        if isinstance(r.order, Build) and r.outcome is Outcome.SUCCESS:
            built[r.order.power] = built.get(r.order.power, 0) + 1
    out = []
    for power in state.board.power_ids:
        owed = state.adjustment_delta(power)
        if owed <= 0 or power in gone:  # a power in civil disorder builds nothing (XIV.1), said elsewhere
            continue
        can = buildable(state, power)
        forfeited = owed - can
        waived = max(0, can - built.get(power, 0))
        if forfeited or waived:
            out.append(UnusedBuilds(power, owed, forfeited, waived))
    return out


__all__ = ["UnusedBuilds", "buildable", "free_home_centres", "unused_builds"]
