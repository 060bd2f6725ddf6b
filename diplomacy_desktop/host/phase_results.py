"""What a phone draws for an adjudicated phase, and phase names in words.

Every adjudicated phase of the game is public once revealed: the position the orders were given
in, every order with its result and explanation, the units dislodged and the standoffs.  The
phone draws it as the window's results picture does (``gui.board.map_scene.results_picture``):
the same choice of what is shown (units nobody ordered hold by default and get no ring; removals
and disbands the rules imposed are still marked), the dislodged units of a movement phase (from
the position after it), and the provinces left empty by a standoff.
"""

from __future__ import annotations

import re
from typing import Any

from ..engine.disorder import disorder_told
from ..engine.explain import explain, results_by_province
from ..engine.game import Game, HistoryEntry
from ..engine.orders import Disband, Order, Remove, UnitOrder
from ..engine.state import MOVEMENT, RETREAT, Phase
from ..io.notation import format_order, location_label
from ..io.savefile import order_to_dict

_SHORT = re.compile(r"^([SFW])(\d{1,5})([MRA])$")
_SEASONS = {"S": "spring", "F": "fall", "W": "fall"}
_KINDS = {"M": "movement", "R": "retreat", "A": "adjustment"}


def phase_label(short: str) -> str:
    """``S1902M`` -> ``Spring 1902 moves``; anything else comes back as it was (never raises)."""
    m = _SHORT.match(short or "")
    if not m:
        return short or "another phase"
    try:
        return Phase(int(m.group(2)), _SEASONS[m.group(1)], _KINDS[m.group(3)]).label
    except ValueError:
        return short


def adjudicated_entries(game: Game) -> list[HistoryEntry]:
    """The phases the game has adjudicated that had orders to give (skipped phases left out)."""
    return [e for e in game.history if e.results]


def _unit(power: str, kind: str, location: str) -> dict[str, str]:
    return {"power": power, "type": kind, "location": location, "label": location_label(location)}


def _order_dict(order: Order) -> dict[str, Any]:
    d = order_to_dict(order)
    d.pop("power", None)
    return d


def phase_picture(game: Game, index: int | None = None) -> dict[str, Any] | None:
    """The ``index``-th adjudicated phase (``None`` or -1: the latest) as the phone draws it, or
    ``None`` when nothing has been adjudicated yet.  IndexError for an index out of range."""
    entries = adjudicated_entries(game)
    if not entries:
        return None
    if index is None or index == -1:
        index = len(entries) - 1
    if not 0 <= index < len(entries):
        raise IndexError(f"there is no adjudicated phase number {index}")
    entry = entries[index]
    state = entry.state
    filed = {(o.power, o.province if isinstance(o, UnitOrder) else "") for o in entry.orders}
    by_province = results_by_province(entry.results)
    items = []
    for r in entry.results:
        order = r.order
        key = (order.power, order.province if isinstance(order, UnitOrder) else "")
        text = format_order(order)
        e = explain(r, state, by_province)
        items.append({
            "power": order.power, "order": text, "data": _order_dict(order),
            "verdict": e.verdict, "reason": e.reason, "explanation": e.text(text),
            "success": r.outcome.value == "success", "outcome": r.outcome.value,
            "dislodged": bool(r.dislodged),
            "province": order.province if isinstance(order, UnitOrder) else None,
            # drawn on the map as the window draws it: the orders given, and the rules' removals
            "drawn": isinstance(order, UnitOrder) and (key in filed or isinstance(order, (Disband, Remove))),
        })
    if state.phase.kind == MOVEMENT:
        displaced = entry.after.dislodged
        standoffs = sorted(entry.after.contested)
    elif state.phase.kind == RETREAT:
        displaced = state.dislodged
        standoffs = []
    else:
        displaced, standoffs = (), []
    return {
        "index": index,
        "count": len(entries),
        "phase": state.phase.short,
        "label": state.phase.label,
        "kind": state.phase.kind,
        "units": [_unit(u.power, u.kind, u.location) for u in state.units.values()],
        "dislodged": [{**_unit(d.unit.power, d.unit.kind, d.unit.location), "attacker_from": d.attacker_from}
                      for d in displaced],
        "standoffs": standoffs,
        "items": items,
        "notes": phase_notes(game, entry),
    }


def phase_notes(game: Game, entry: HistoryEntry) -> list[str]:
    """What the table is told of a phase besides its orders, as the window's Results panel says
    it (``gui/orders/results_dock.phase_notes``): who was in civil disorder and what that meant
    (rules XIV.1), and the builds left unused (rules XIII.2)."""
    from ..engine.forfeits import unused_builds  # (rules XIII.2): only when results are asked for

    board = game.board
    out = []
    if entry.disorder:
        gone = [board.power(p).name for p in board.power_ids if p in entry.disorder]
        names = ", ".join(gone[:-1]) + " and " + gone[-1] if len(gone) > 1 else gone[0]
        out.append(f"In civil disorder (rules XIV.1): {names} \u2014 {disorder_told(entry.state.phase.kind)}.")
    out += [u.text(board.power(u.power).name) for u in unused_builds(entry.state, entry.results, entry.disorder)]
    return out


def order_view(order: Order | None, legal: bool) -> dict[str, Any] | None:
    """An order as the phone may send it back (to undo a change): its text, fields, legality."""
    if order is None:
        return None
    return {"text": format_order(order), "order": _order_dict(order), "legal": legal}
