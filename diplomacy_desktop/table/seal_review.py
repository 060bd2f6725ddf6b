"""What the review before a seal says in bold, above the list of warnings (no Qt here).

Two things surprise a table if they are only one line among others: sealing no orders at all
(civil disorder, rules XIV.1, when the table plays that rule), and sealing with some units left
without an order (they hold).  :func:`seal_notes` reads a seat's own orders and says both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..engine.disorder import empty_seal_consequence
from ..engine.orders import Order, UnitOrder
from ..engine.state import MOVEMENT, GameState
from ..io.notation import location_label


@dataclass(frozen=True, slots=True)
class SealNotes:
    """``disorder``: what sealing no orders does (empty if it does nothing special);
    ``holding``: the units, as "A Ven", that will hold for want of an order."""

    disorder: str = ""
    holding: tuple[str, ...] = ()

    @property
    def problem(self) -> bool:
        """Something the power may not mean: the review's default is then "Back to my orders"."""
        return bool(self.disorder or self.holding)

    def holding_text(self) -> str:
        if not self.holding:
            return ""
        units = ", ".join(self.holding)
        verb = "has" if len(self.holding) == 1 else "have"
        return f"{units} {verb} no order and will hold."


def seal_notes(state: GameState, seat: Sequence[str], orders: Mapping[str, Sequence[Order]],
               name: Callable[[str], str], *, disorder_rules: bool) -> SealNotes:
    """The notes for a seat (one or more powers) about to seal ``orders`` (each power's own).

    ``disorder_rules``: the table treats a power that gave no orders in a movement phase as in
    civil disorder (the table game does; the sandbox does not)."""
    if state.phase.kind != MOVEMENT:
        return SealNotes()
    texts: list[str] = []
    holding: list[str] = []
    for power in seat:
        mine = list(orders.get(power, ()))
        units = [u for u in state.units_of(power)]
        if not units:
            continue
        if not mine and disorder_rules:
            texts.append(empty_seal_consequence(state, name(power)))
            continue
        ordered = {o.province for o in mine if isinstance(o, UnitOrder)}
        holding.extend(f"{u.kind} {location_label(u.location)}" for u in units if u.province not in ordered)
    return SealNotes(" ".join(t for t in texts if t), tuple(holding))


__all__ = ["SealNotes", "seal_notes"]
