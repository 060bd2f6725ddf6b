"""The three ways an order can be refused (all are ``ValueError``)."""

from __future__ import annotations


class OrderError(ValueError):
    """An order that cannot be carried out as written."""

    kind = "error"


class UnreadableOrderError(OrderError):
    """The text is not an order at all (unknown words, missing parts)."""

    kind = "unreadable"


class IllegalOrderError(OrderError):
    """The order is readable but the rules do not allow it here."""

    kind = "illegal"


class AmbiguousOrderError(OrderError):
    """The order has more than one meaning; ``candidates`` lists them."""

    kind = "ambiguous"

    def __init__(self, message: str, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates
