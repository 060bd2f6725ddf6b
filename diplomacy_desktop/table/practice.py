"""A practice game: one person against the computer (issue 33, build point 3), Qt-free.

A practice game is a table game whose other six powers are computer seats (``table.computer``)
at one level, with no curtain, no PINs and no clock.  The table keeps it as

    {"practice": "france",                       # the person's power
     "computer_seats": {"england": "club", ...},  # every other power, one level
     "computer_seed": 1234, "secrecy": false, ...}

What differs from a table with computer seats: the computer writes its orders only when the
person asks for the adjudication (never before: nothing of them can be seen while the person
writes), and every result is explained.  The hint ("what would the computer do here?") is the
club player's orders for the person's own power, a suggestion only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .clock import ClockSettings
from .computer import LEVELS

if TYPE_CHECKING:
    from .settings import TableSettings
    from .state import TableState

__all__ = ["HINT_LEVEL", "PRACTICE_KEY", "practice_power", "practice_settings"]
#: the level whose orders the hint shows
HINT_LEVEL = "club"
#: the table key of a practice game: the person's power (``TableSettings.practice``)
PRACTICE_KEY = "practice"


def practice_power(table: TableState, power_ids: Sequence[str] | None = None) -> str | None:
    """The person's power in a practice game, or None (not a practice game; an unknown power)."""
    power = table.practice
    if not isinstance(power, str) or (power_ids is not None and power not in power_ids):
        return None
    return power


def practice_settings(power_ids: Sequence[str], power: str, level: str, seed: int) -> TableSettings:
    """The table of a practice game: ``power`` is the person's, every other power the computer's
    at ``level``; no secrecy, no PINs, no clock."""
    from .settings import TableSettings  # (the settings' module: not needed at the window's start)

    if power not in power_ids:
        raise ValueError(f"no power {power!r} on this board")
    if level not in LEVELS:
        raise ValueError(f"the computer plays at {', '.join(LEVELS)}, not {level!r}")
    off = ClockSettings(spring_minutes=0, fall_minutes=0, writing_minutes=0, retreat_minutes=0,
                        adjustment_minutes=0, declaration_minutes=0)
    return TableSettings(clock=off, secrecy=False, computer={p: level for p in power_ids if p != power},
                         computer_seed=seed, practice=power)
