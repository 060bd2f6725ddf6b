"""Self-play: a whole game with every power's orders from a seat (bot, hold or random)."""

from __future__ import annotations

from collections.abc import Mapping

from ..engine.game import Game
from .seats import seat_orders


def play(game: Game, seats: Mapping[str, str], *, until: int, level: str = "club", seed: int = 0,
         levels: Mapping[str, str] | None = None) -> Game:
    """Play ``game`` to the end of ``until`` (or a solo).  ``levels``: a bot's level per power."""
    while not game.is_over and game.state.phase.year <= until:
        state = game.state
        for power in game.board.power_ids:
            lvl = (levels or {}).get(power, level)
            for order in seat_orders(seats.get(power, "bot"), state, power, level=lvl, seed=seed):
                game.set_order(order)
        game.adjudicate()
    return game
