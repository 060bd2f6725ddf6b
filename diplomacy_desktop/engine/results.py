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
