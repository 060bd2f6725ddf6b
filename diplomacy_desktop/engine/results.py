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
    ``opposition`` are the strengths compared where strengths decided it.

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

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCESS
