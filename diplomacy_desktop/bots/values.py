"""Province values: what each province is worth to one power, from the public position only.

The published idea (widely described for Diplomacy programs): give every supply centre a worth
(a centre another power owns or nobody owns is worth taking, more when its owner is big; an own
centre is worth defending as much as it is threatened), then spread those worths over the map by
adjacency so that a province near many valuable centres is itself valuable.  Nothing here is any
other program's code or weights; the numbers are ours, chosen by playing the bots (bench/).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine.state import GameState

#: how much of the best neighbour's worth a province inherits per step of spreading
SPREAD = 0.55
#: how many steps the worths spread (the map's radius that matters in one or two years)
STEPS = 5


def strengths(state: GameState) -> dict[str, dict[str, int]]:
    """Per province, how many units of each power could move into (or hold) it next phase."""
    nb = state.board.province_neighbours
    out: dict[str, dict[str, int]] = {}
    for prov, unit in state.units.items():
        reach = {prov} | {p for p in nb.get(prov, ()) if state.board.can_reach(unit.kind, unit.location, p)}
        for p in reach:
            row = out.setdefault(p, {})
            row[unit.power] = row.get(unit.power, 0) + 1
    return out


def centre_worths(state: GameState, power: str, strength: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    """The worth of every supply centre to ``power`` before spreading."""
    counts = state.centre_counts()
    out: dict[str, float] = {}
    for c in state.board.centres:
        owner = state.owners.get(c)
        row = strength.get(c, {})
        enemies = max((n for p, n in row.items() if p != power), default=0)
        if owner == power:
            out[c] = 4.0 + 6.0 * enemies
        else:
            size = counts.get(owner, 0) if owner else 0
            out[c] = 12.0 + 1.5 * size - 2.0 * max(0, enemies - row.get(power, 0))
    return out


def province_values(state: GameState, power: str) -> dict[str, float]:
    """Every province's worth to ``power``: centre worths spread over the map by adjacency."""
    nb = state.board.province_neighbours
    strength = strengths(state)
    base = {p: 0.0 for p in nb}
    base.update(centre_worths(state, power, strength))
    value = dict(base)
    for _ in range(STEPS):
        value = {p: base[p] + SPREAD * max((value[n] for n in nb[p] if n in value), default=0.0) for p in nb}
    return value
