"""``Game`` owns the order book and the build-count rule (rules XIII.2): the window's controller
and the phones' host both file through it, so a power never has more builds or removals than it
owes, wherever it writes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from diplomacy_desktop.engine.errors import IllegalOrderError
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Hold, Move, Remove, Waive
from diplomacy_desktop.engine.state import Phase
from diplomacy_desktop.host.table import RefusedError, TableHost
from diplomacy_desktop.io.boardfile import load_board


def _winter(builds: bool) -> Game:
    """France with two builds (4 centres, 2 units), or two removals (1 centre, 3 units)."""
    game = Game.new(load_board("standard"))
    s = game.state
    owners = dict(s.owners)
    if builds:
        owners["bel"] = "france"
        units = {k: u for k, u in s.units.items() if k not in ("par", "mar")}
    else:
        owners.pop("par")
        owners.pop("mar")
        units = dict(s.units)
    game.state = s.evolve(phase=Phase(1901, "fall", "adjustment"), owners=owners, units=units)
    return game


def test_game_order_book_builds_are_counted_once_whoever_files_them() -> None:
    game = _winter(builds=True)
    game.check_room(Build("france", "A", "par"))
    game.set_order(Build("france", "A", "par"))
    game.set_order(Waive("france"))
    with pytest.raises(IllegalOrderError, match="France has no more builds: 2 builds, all given; clear one first"):
        game.check_room(Build("france", "F", "mar"))
    game.check_room(Build("france", "F", "par"))  # replaces the build at Paris: no more than owed
    assert game.file_key(Waive("france")) == "waive1"


def test_game_order_book_removals_are_counted_too() -> None:
    game = _winter(builds=False)
    game.set_order(Remove("france", "A", "par"))
    game.set_order(Remove("france", "A", "mar"))
    with pytest.raises(IllegalOrderError, match="no more units to remove: 2 removals, all chosen"):
        game.check_room(Remove("france", "F", "bre"))
    game.check_room(Remove("france", "A", "mar"))  # the same removal again: it takes its own place
    game.check_room(Hold("france", "F", "bre"))  # not an adjustment order: not counted


def test_game_order_book_the_phones_keep_the_same_rule(tmp_path: Path) -> None:
    game = _winter(builds=False)
    host = TableHost(game, {}, tmp_path / "g.json")
    token = host.token_of("france")
    host.set_order_text(token, "france", "W1901A", "Remove A Par")
    host.set_order_text(token, "france", "W1901A", "Remove A Mar")
    with pytest.raises(RefusedError, match="no more units to remove"):
        host.set_order_text(token, "france", "W1901A", "Remove F Bre")
    assert len(game.orders_of("france")) == 2


def test_game_order_book_put_orders_and_set_position() -> None:
    game = Game.new(load_board("standard"))
    move = Move("france", "A", "par", "bur")
    game.put_orders("france", {"par": move})
    assert game.orders == {"france": {"par": move}}
    game.put_orders("france", {"par": None})
    assert game.orders == {}  # an empty book leaves no trace
    game.set_order(move)
    game.set_order(Hold("germany", "A", "mun"))
    units = {k: u for k, u in game.state.units.items() if k != "mun"}
    game.set_position(game.state.evolve(units=units))
    assert game.orders == {"france": {"par": move}}  # Munich's unit is gone, and its order with it
    game.set_position(game.state.evolve(phase=Phase(1901, "fall", "adjustment")))
    assert game.orders == {}  # another kind of phase: no order is kept
