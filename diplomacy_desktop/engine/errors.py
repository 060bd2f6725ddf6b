"""The three ways an order can be refused (all are ``ValueError``)."""

from __future__ import annotations


class OrderError(ValueError):
    """An order that cannot be carried out as written.

    ``rule`` names the section of the rules (seed 000's numbering, e.g. ``"IX.1"``) that makes
    the order impossible; rules VII.4 (an illegal order is not followed) when no narrower one does.
    """

    kind = "error"

    def __init__(self, message: str, *, rule: str = "VII.4") -> None:
        super().__init__(message)
        self.rule = rule


class UnreadableOrderError(OrderError):
    """The text is not an order at all (unknown words, missing parts)."""

    kind = "unreadable"


class IllegalOrderError(OrderError):
    """The order is readable but the rules do not allow it here."""

    kind = "illegal"


class AmbiguousOrderError(OrderError):
    """The order has more than one meaning; ``candidates`` lists them."""

    kind = "ambiguous"

    def __init__(self, message: str, candidates: tuple[str, ...] = (), *, rule: str = "VII.4") -> None:
        super().__init__(message, rule=rule)
        self.candidates = candidates
