"""Writes the damaged saved games of this folder (run once; the files are committed).

    python tests/io/bad_saves/make_bad_saves.py

``good.json`` is a real hot-seat game after Spring 1901 with a table the window writes (players,
powers, clock, secrecy, PIN hashes, host PIN, clock state, hot-seat turn); every other file is
``good.json`` with one thing broken, as the fuzzing of issue 8 found them.  The messages each
must give are in ``tests/io/test_bad_files.py``.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Move, SupportMove
from diplomacy_desktop.table.clock import ClockModel, ClockSettings
from diplomacy_desktop.table.hotseat import HotSeatSession, hash_pin
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import game_to_dict

HERE = Path(__file__).resolve().parent


def good() -> dict[str, Any]:
    game = Game.new(load_board(), "classic", end_year=1910)
    game.set_order(Move("france", "A", "par", "bur"))
    game.set_order(Move("germany", "A", "mun", "ruh"))
    game.adjudicate()
    game.set_order(Move("france", "A", "bur", "mun"))
    game.set_order(SupportMove("germany", "A", "ruh", "A", "ber", "mun"))
    game.set_order(Move("germany", "A", "ber", "mun"))
    session = HotSeatSession(random.Random(8), {"turkey": hash_pin("1234", salt=b"0123456789abcdef")})
    session.begin_turn(game.state.phase.short, game.board.power_ids)
    session.start_writing()
    clock = ClockModel(ClockSettings(), now=lambda: 0.0)
    table = {"players": {"france": "Anna", "turkey": "Tom"}, "powers": list(game.board.power_ids),
             "clock": ClockSettings().to_dict(), "secrecy": True, "pins": dict(session.pins),
             "host_pin": hash_pin("4321", salt=b"fedcba9876543210"), "clock_state": clock.to_dict(),
             "hotseat": session.to_dict()}
    return game_to_dict(game, table)


def write(name: str, change: Callable[[dict[str, Any]], object] | None = None) -> None:
    data = copy.deepcopy(good())
    if change is not None:
        change(data)
    (HERE / name).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def replace_text(name: str, pattern: str, by: str) -> None:
    """A damage json.dumps cannot write (a number too long or too large): done on the text."""
    text = json.dumps(good(), indent=1) + "\n"
    new, count = re.subn(pattern, by, text, count=1)
    assert count == 1, pattern
    (HERE / name).write_text(new, encoding="utf-8")


def main() -> None:
    write("good.json")
    replace_text("version_5000_digits.json", r'"version": 1', '"version": ' + "1" * 5000)
    replace_text("end_year_1e400.json", r'"end_year": 1910', '"end_year": 1e400')
    replace_text("year_1e400.json", r'"year": 1901', '"year": 1e400')
    write("destination_float.json", lambda d: d["current"]["orders"][0].update(destination=3.5))
    write("destination_list.json", lambda d: d["current"]["orders"][0].update(destination=["mun"]))
    write("destination_xyz.json", lambda d: d["current"]["orders"][0].update(destination="xyz"))
    write("draw_string.json", lambda d: d.update(draw="france"))
    write("draw_unknown_power.json", lambda d: d.update(draw=["france", "narnia"]))
    write("clock_list.json", lambda d: d["table"].update(clock=[15, 15, 5, 0, 0]))
    write("pins_list.json", lambda d: d["table"].update(pins=["pbkdf2_sha256$1$00$00"]))
    write("hotseat_order_int.json", lambda d: d["table"]["hotseat"]["order"].append(3))
    write("orders_int.json", lambda d: d["current"]["orders"].append(3))
    write("host_pin_plain.json", lambda d: d["table"].update(host_pin="4321"))
    write("clock_state_list.json", lambda d: d["table"].update(clock_state=[1, 2]))
    # found by a fuzz of the window: "ready" to reveal with nobody sealed gave a crash box at Ctrl+Return
    write("hotseat_ready_unsealed.json", lambda d: d["table"]["hotseat"].update(stage="ready"))


if __name__ == "__main__":
    main()
