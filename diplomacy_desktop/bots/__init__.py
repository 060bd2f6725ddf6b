"""Computer players: the public position in, legal orders out (engine only, no Qt).

See :mod:`.player` for the levels and :mod:`.values` for how provinces are valued; the seats
that use them (a table's computer seats, ``selfplay``) live in ``table/`` and ``cli.py``.
"""

from __future__ import annotations

from .player import BEGINNER, CLUB, LEVELS, STRONG, Bot
from .seats import BOT, HOLD, RANDOM, SEAT_KINDS, seat_orders

__all__ = ["BEGINNER", "BOT", "CLUB", "HOLD", "LEVELS", "RANDOM", "SEAT_KINDS", "STRONG", "Bot", "seat_orders"]
