"""How the curtain, the strip and the flow name a power and a seat ("Anna — England and France")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ....table.computer import computer_seats, seat_words

if TYPE_CHECKING:
    from ...controller import GameController


def _sentence(text: str) -> str:
    """``text`` with a capital first letter (and the rest as it was: "PIN" stays "PIN")."""
    return text[:1].upper() + text[1:]


def _power_name(controller: GameController | None, power: str) -> str:
    if controller is None:
        return power.title()
    return controller.power_name(power)


def _player_suffix(controller: GameController | None, power: str) -> str:
    if controller is None:
        return ""
    level = computer_seats(controller.table, controller.board.power_ids).get(power)
    if level is not None:
        return f" ({seat_words(level)})"
    name = controller.player_name(power)
    return f" ({name})" if name else ""


def seat_title(controller: GameController | None, seat: Sequence[str]) -> str:
    """"England", or for a player with several powers "Anna — England and France"."""
    names = [_power_name(controller, p) for p in seat]
    joined = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else (names[0] if names else "")
    if len(seat) < 2 or controller is None:
        return joined
    player = controller.player_name(seat[0])
    return f"{player} \u2014 {joined}" if player else joined
