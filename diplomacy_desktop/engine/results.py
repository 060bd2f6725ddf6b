"""What happened to each order, and why, as data the GUI can draw and a person can read."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from .orders import Order


class Outcome(str, Enum):
    SUCCESS = "success"
    FAILURE = "failure"
    ILLEGAL = "illegal"
    VOID = "void"


class OrderResult(NamedTuple):
    """The result of one order.

    ``code`` names the reason (``bounced``, ``cut``, ``no_convoy`` ...), ``reason`` says it in
    words, ``involved`` lists the provinces whose units caused it, ``strength`` and
    ``opposition`` are the strengths compared where strengths decided it; ``route`` is the
    chain of seas a convoyed army went through.

    ``rule`` is the section of the rules that decides the result, in the numbering of the
    rulebook this project follows (``"IX.5"`` beleaguered garrison, ``"X"`` cutting support,
    ``"XII.3"`` disrupted convoy ...), or the DATC section where the rulebook is silent
    (``"DATC 4.A.2"``, the Szykman rule for convoy paradoxes).  ``supports`` lists the provinces
    of the supports that counted for the order's strength (a move's attack, a unit's hold);
    ``not_counted`` the supports ordered for it that did not count, each with why: ``"cut"``
    (the supporting unit's own result says by whom) or ``"own_unit"`` (a power's support does
    not count against its own unit, rules IX.3).

    An immutable record like the engine's other values; a named tuple rather than a frozen
    dataclass because an adjudication makes one per order, and a tuple is made several times
    faster.
    """

    order: Order
    outcome: Outcome
    code: str
    reason: str
    involved: tuple[str, ...] = ()
    strength: int | None = None
    opposition: int | None = None
    dislodged: bool = False
    dislodged_by: str | None = None
    rule: str = ""
    supports: tuple[str, ...] = ()
    not_counted: tuple[tuple[str, str], ...] = ()
    #: for an army that moved by convoy: the seas of the fleets that carried it, in order
    route: tuple[str, ...] = ()

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCESS


def with_repeats(results: list[OrderResult], repeats: dict[Order, list[Order]]) -> list[OrderResult]:
    """``results`` with a row for every order written again for a unit (the same order, maybe
    written another way): each copy gets the result of the order it repeats, right after it."""
    if not repeats:
        return results
    out: list[OrderResult] = []
    for r in results:
        out.append(r)
        for copy in repeats.pop(r.order, ()):
            out.append(r._replace(order=copy))
    return out
