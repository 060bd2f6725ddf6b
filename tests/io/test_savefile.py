"""Save files: round trips, every kind of damage refused with a clear message, atomic writes."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Move, Retreat, SupportMove, Waive
from diplomacy_desktop.engine.state import ADJUSTMENT, FALL, RETREAT, Phase, Unit
from diplomacy_desktop.io import savefile
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import SaveFileError, dumps, load_game, loads, save_game

BOARD = load_board()
TABLE = {"names": {"france": "Ann", "germany": "Ben"}, "clock": {"minutes": 15}}


@pytest.fixture(scope="module")
def played() -> Game:
    """A 2023-edition game over a full year with a dislodgement, a retreat, builds and a waive."""
    game = Game.new(BOARD, "2023", end_year=1905)
    for o in (Move("france", "A", "par", "bur"), Move("germany", "A", "mun", "ruh"), Move("russia", "A", "war", "gal")):
        game.set_order(o)
    game.adjudicate()  # Spring 1901
    for o in (Move("france", "A", "bur", "mun"), Move("russia", "F", "sev", "rum"), Move("germany", "F", "kie", "den")):
        game.set_order(o)
    game.adjudicate()  # Fall 1901: France takes Munich, Russia Rumania, Germany Denmark
    assert game.state.phase.kind == "adjustment"
    game.set_order(Build("russia", "A", "war"))
    game.set_order(Waive("france"))
    game.adjudicate()  # Winter 1901
    game.set_order(Move("germany", "A", "ruh", "mun"))
    game.set_order(SupportMove("germany", "A", "ber", "A", "ruh", "mun"))
    game.adjudicate()  # Spring 1902: France dislodged from Munich
    assert game.state.phase.kind == RETREAT
    game.set_order(Retreat("france", "A", "mun", "bur"))
    game.adjudicate()
    game.set_order(Move("italy", "A", "ven", "tyr"))  # an order waiting in the current phase
    return game


def test_savefile_round_trip_is_equal(played: Game) -> None:
    text = dumps(played, TABLE)
    game, table = loads(text)
    assert table == TABLE
    assert game.state == played.state
    assert game.rules == played.rules and game.end_year == 1905
    assert len(game.history) == len(played.history) == 5
    for mine, theirs in zip(game.history, played.history):
        assert mine.state == theirs.state
        assert mine.orders == theirs.orders
        assert mine.results == theirs.results  # replayed, not stored
        assert mine.next_state == theirs.next_state
    assert game.all_orders() == played.all_orders()
    assert dumps(game, table) == text  # and it writes back the same


def test_savefile_round_trip_through_a_file(played: Game, tmp_path: Path) -> None:
    path = tmp_path / "game.dipl"
    save_game(path, played, TABLE)
    game, table = load_game(path)
    assert game.state == played.state and table == TABLE
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "diplomacy-desktop-game"


def test_savefile_round_trip_keeps_a_draw(played: Game) -> None:
    game, _ = loads(dumps(played))
    game.declare_draw(["france", "russia"])
    again, _ = loads(dumps(game))
    assert again.draw == ("france", "russia")
    assert again.ended is not None and again.ended.kind == "draw"


def test_savefile_waives_survive_the_round_trip() -> None:
    game = Game.new(BOARD)
    game.state = game.state.evolve(phase=Phase(1901, FALL, ADJUSTMENT),
                                   units={k: v for k, v in game.state.units.items() if k != "mos"})
    game.set_order(Waive("russia"))
    again, _ = loads(dumps(game))
    assert again.builds_of("russia") == [Waive("russia")]


# -- damage ----------------------------------------------------------------------------------------


def _damaged(played: Game, change: Callable[[dict[str, Any]], object]) -> str:
    data = json.loads(dumps(played))
    change(data)
    return json.dumps(data)


def _tamper_history(d: dict[str, Any]) -> None:
    units = d["history"][2]["state"]["units"]
    units[0]["location"] = "gas" if units[0]["location"] != "gas" else "pic"
    units[0]["type"] = "army"


def _tamper_current(d: dict[str, Any]) -> None:
    d["current"]["state"]["owners"]["par"] = "england"


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="something-else"), "not a Diplomacy Desktop saved game"),
    (lambda d: d.update(version=2), "newer version"),
    (lambda d: d.update(version=99), "format 99"),
    (lambda d: d.update(version="1"), r"\$\.version: expected format version 1, found the text \"1\"$"),
    (lambda d: d.pop("version"), r"\$\.version is missing$"),
    (_tamper_history, "does not follow"),
    (_tamper_current, "current phase does not follow"),
    (lambda d: d.pop("current"), r"\$\.current is missing$"),
    (lambda d: d["current"]["orders"].append({"power": "france", "kind": "teleport"}),
     r"\$\.current\.orders\[1\]\.kind: expected an order kind \(hold, .*\), found the text \"teleport\"$"),
    (lambda d: d["current"]["state"]["units"].append({"power": "narnia", "type": "army", "location": "bur"}),
     r"\$\.current\.state\.units\[23\]\.power: expected a power of this map \(austria, .*\), found the text \"narnia\""),
    (lambda d: d["current"]["state"]["units"].append({"power": "france", "type": "tank", "location": "bur"}),
     r"\$\.current\.state\.units\[23\]\.type: expected \"army\" or \"fleet\", found the text \"tank\"$"),
    (lambda d: d["current"]["state"]["units"].append({"power": "france", "type": "army", "location": "swi"}),
     "cannot stand there"),
    (lambda d: d.update(edition="1999"), r"\$\.edition: expected \"classic\" or \"2023\", found the text \"1999\"$"),
    (lambda d: d.update(table=[1, 2]), r"\$\.table: expected the table settings \(an object\), found a list$"),
], ids=["format", "version-2", "version-99", "version-text", "version-missing", "history", "current", "missing",
        "order-kind", "power", "unit-type", "switzerland", "edition", "table"])
def test_savefile_damage_is_refused_with_a_clear_message(played: Game, change: Callable[[dict[str, Any]], object],
                                                           message: str) -> None:
    with pytest.raises(SaveFileError, match=message):
        loads(_damaged(played, change))


def test_savefile_broken_json_names_the_place(played: Game, tmp_path: Path) -> None:
    text = dumps(played)
    broken = text[: len(text) // 2]
    path = tmp_path / "broken.dipl"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(SaveFileError, match=r"JSON is broken at line \d+, column \d+"):
        load_game(path)
    assert path.read_text(encoding="utf-8") == broken  # the file is left as it was
    assert sorted(os.listdir(tmp_path)) == ["broken.dipl"]


@pytest.mark.parametrize(("content", "message"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "^this is not a saved game: it is not a text file$"),
    (b"\xff\xfe{\x00}\x00", "^UTF-16 is not supported, save as UTF-8$"),
    (b"[1, 2, 3]", "not a Diplomacy Desktop saved game"),
    (b"", "^the file is empty$"),
])
def test_savefile_files_that_are_not_saved_games(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "x.dipl"
    path.write_bytes(content)
    with pytest.raises(SaveFileError, match=message):
        load_game(path)
    assert path.read_bytes() == content


def test_savefile_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="cannot open"):
        load_game(tmp_path / "nowhere.dipl")


def test_savefile_error_is_a_value_error() -> None:
    assert issubclass(SaveFileError, ValueError)


def test_savefile_tampered_file_on_disk_is_left_untouched(played: Game, tmp_path: Path) -> None:
    path = tmp_path / "game.dipl"
    save_game(path, played)
    tampered = _damaged(played, _tamper_history)
    path.write_text(tampered, encoding="utf-8")
    with pytest.raises(SaveFileError, match="does not follow"):
        load_game(path)
    assert path.read_text(encoding="utf-8") == tampered


# -- atomic writing --------------------------------------------------------------------------------


def test_savefile_atomic_write_leaves_no_temporary_files(played: Game, tmp_path: Path) -> None:
    path = tmp_path / "game.dipl"
    save_game(path, played)
    save_game(path, played, TABLE)  # overwrite
    assert sorted(os.listdir(tmp_path)) == ["game.dipl"]
    assert load_game(path)[1] == TABLE


def test_savefile_failed_write_keeps_the_previous_file(played: Game, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.dipl"
    save_game(path, played, TABLE)
    before = path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(savefile.os, "replace", crash)
    game = Game.new(BOARD)
    with pytest.raises(OSError):
        save_game(path, game)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["game.dipl"]


def test_savefile_creates_missing_folders(played: Game, tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "game.dipl"
    save_game(path, played)
    assert load_game(path)[0].state == played.state


def test_savefile_loaded_game_plays_on(played: Game) -> None:
    game, _ = loads(dumps(played))
    entry = game.adjudicate()
    assert any(r.order == Move("italy", "A", "ven", "tyr") and r.succeeded for r in entry.results)
    assert game.state.units["tyr"] == Unit("italy", "A", "tyr")
