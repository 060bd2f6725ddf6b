"""An order typed into a box: read as the window's order box reads it, for any front end.

``read_typed_order`` is the order box's reading (``gui.orders.order_dock``), without Qt: the text
is read for the typist's power by ``notation.parse_order``; it goes to the unit's owner (a
build: the centre's home power); a unit that is not there is refused with the reason; an order
that reads but is illegal is kept as written and the unit will hold (rules VII.4), and the record
says why.  The phone host (``host.table``) uses it; the messages are the order box's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.board import Board
from ..engine.errors import AmbiguousOrderError, IllegalOrderError, OrderError
from ..engine.formal import FormalOrderError
from ..engine.orders import Build, Order, UnitOrder
from ..engine.state import GameState
from ..engine.validation import check_order
from .notation import format_order, order_owner, parse_order


@dataclass(frozen=True, slots=True)
class TypedOrder:
    """What a typed text became: the order (for ``power``, the unit's owner) and, when it is
    kept although illegal, why it is illegal."""

    text: str
    order: Order
    power: str
    illegal: str = ""

    def message(self, typist: str, board: Board) -> str:
        """The order box's answer: "Given: ..." or "Kept as written, but illegal: ..."."""
        for_whom = f" for {board.power(self.power).name}" if self.power != typist else ""
        if self.illegal:
            return f"Kept as written{for_whom}, but illegal: {self.illegal}. The unit will hold."
        return f"Given{for_whom}: {format_order(self.order)}"


def illegal_reason(state: GameState, order: Order) -> str | None:
    """Why ``order`` is illegal in ``state``, or ``None`` if it is legal.  An order Formal
    Diplomacy forbids names the rule too ("... (Formal Diplomacy: neutral powers, seed 003)")."""
    try:
        check_order(state, order)
    except FormalOrderError as exc:
        return f"{exc} ({exc.rule}, seed 003)"
    except OrderError as exc:
        return str(exc)
    return None


def refusal_message(text: str, exc: Exception) -> str:
    """The order box's words for a refused text: “A Ber - Kie” not accepted: ..."""
    what = "ambiguous" if isinstance(exc, AmbiguousOrderError) else "not accepted"
    return f"“{text}” {what}: {exc}"


def read_typed_order(text: str, power: str, state: GameState,
                     refusal: Callable[[str, Order], str | None] = lambda owner, written: None) -> TypedOrder:
    """Read ``text`` typed by ``power``'s player.  ``refusal(owner, written)``: why the typist may
    not order for the unit's owner (``None``: they may).  Raises an ``OrderError`` (its message
    for ``refusal_message``) when the text is unreadable, ambiguous, for no unit, or refused."""
    text = text.strip()
    written = parse_order(text, power, state)  # how it reads, legal or not
    owner = order_owner(state, written)
    if isinstance(written, UnitOrder) and not isinstance(written, Build) and owner is None:
        raise IllegalOrderError(illegal_reason(state, written) or "there is no such unit")
    target = owner or power
    refused = refusal(target, written)
    if refused:
        raise IllegalOrderError(refused)
    try:
        return TypedOrder(text, parse_order(text, target, state, strict=True), target)
    except IllegalOrderError as exc:
        kept = parse_order(text, target, state, strict=False)
        return TypedOrder(text, kept, target, illegal_reason(state, kept) or str(exc))
