"""The computer's seats at a table, read from the saved game's table (Qt-free, issue 33).

One rule for every door: the window's hot seat (``gui/table/hotseat``), the phone host and
``serve`` (``TableService``) all ask here which powers the computer plays, with which level, and
what it writes, declares or votes.  The table keeps them as

    {"computer_seats": {"france": "club", ...},   # power -> level (bots.LEVELS)
     "computer_seed": 1234}                       # the seed: the same position, the same orders

The computer reads only the public position (``GameState``), never anyone's orders.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.orders import Order
from ..engine.state import GameState
from .state import TableState

if TYPE_CHECKING:
    from ..bots import Bot

#: the table key of the computer's seats: {power: level}; and of the computer's seed
COMPUTER_KEY = "computer_seats"
COMPUTER_SEED_KEY = "computer_seed"

LEVEL_WORDS = {"beginner": "beginner", "club": "club player", "strong": "strong"}
#: the computer's levels (``bots.LEVELS``; named here so that the window starts without the bots,
#: which are imported when a computer seat first plays)
LEVELS = tuple(LEVEL_WORDS)


def computer_seats(table: TableState, power_ids: Sequence[str] | None = None) -> dict[str, str]:
    """The powers the computer plays, with its level (powers not in ``power_ids``, when given,
    and unknown levels are ignored)."""
    part = table.computer_seats
    if part is None:
        return {}
    return {p: lvl for p, lvl in part.entries().items() if (power_ids is None or p in power_ids) and lvl in LEVELS}


def computer_seed(table: TableState) -> int:
    value = table.computer_seed
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def draw_computer_seed() -> int:
    """A new table's seed (never 0): drawn, since whoever knows it knows the computer's orders
    (it is kept encrypted with the table's other secrets, ``io.vault.SECRET_TABLE_KEYS``)."""
    return secrets.randbelow(2**31 - 1) + 1


def computer_bot(table: TableState, level: str) -> Bot:
    from ..bots import Bot

    return Bot(level, computer_seed(table))


def computer_orders(table: TableState, state: GameState, power: str, level: str) -> list[Order]:
    """What the computer at ``level`` orders for ``power`` this phase (from the public position)."""
    return computer_bot(table, level).orders(state, power)


def computer_declarations(table: TableState, state: GameState, power: str, level: str) -> dict[str, str]:
    """Formal Diplomacy: the computer's declarations for ``power``."""
    return computer_bot(table, level).declarations(state, power)


def computer_votes(table: TableState, state: GameState, proposal: str, to: str | None = None) -> dict[str, bool]:
    """The computer seats' votes on a draw (``proposal`` "draw") or a concession to ``to``; the
    eliminated have no vote."""
    votes = {}
    for power, level in computer_seats(table, state.board.power_ids).items():
        if state.is_eliminated(power):
            continue
        bot = computer_bot(table, level)
        votes[power] = (bot.vote_draw(state, power) if proposal == "draw"
                        else bot.vote_concession(state, power, to or ""))
    return votes


def seat_words(level: str) -> str:
    """"the computer (club player)": how the table names a computer seat."""
    return f"the computer ({LEVEL_WORDS.get(level, level)})"
