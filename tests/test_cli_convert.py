"""``diplomacy-desktop convert``: games in and out from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diplomacy_desktop.cli import main
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.dipjson import export_saved_game
from diplomacy_desktop.io.savefile import load_game, save_game


def _played(tmp_path: Path) -> Path:
    game = Game.new(load_board())
    game.set_order(Move("france", "A", "par", "bur"))
    game.set_order(Move("germany", "A", "mun", "bur"))
    game.adjudicate()
    game.set_order(Move("italy", "A", "ven", "tyr"))  # not adjudicated: never written out
    path = tmp_path / "ours.json"
    save_game(path, game)
    return path


def test_cli_convert_ours_to_package_json_and_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours = _played(tmp_path)
    theirs = tmp_path / "theirs.json"
    assert main(["convert", str(ours), str(theirs)]) == 0
    data = json.loads(theirs.read_text())
    assert [p["name"] for p in data["phases"]] == ["S1901M", "F1901M"]
    assert data["phases"][0]["results"]["A PAR"] == ["bounce"]
    assert "VEN - TYR" not in theirs.read_text()
    back = tmp_path / "back.json"
    assert main(["convert", str(theirs), str(back)]) == 0
    assert "0 differences" in capsys.readouterr().err
    game, _ = load_game(back)
    original, _ = load_game(ours)
    assert game.history[0].results == original.history[0].results
    assert game.state == original.state and game.orders == {}


def test_cli_convert_to_text(tmp_path: Path) -> None:
    out = tmp_path / "orders.txt"
    assert main(["convert", str(_played(tmp_path)), str(out)]) == 0
    text = out.read_text()
    assert "Spring 1901 movement" in text and "A Paris - Burgundy (bounced)" in text
    assert "Venice - Tyrolia" not in text


def test_cli_convert_refuses_a_foreign_file_and_writes_nothing(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    data = export_saved_game(Game.new(load_board()))
    data["map"] = "modern"
    src = tmp_path / "modern.json"
    src.write_text(json.dumps(data))
    out = tmp_path / "out.json"
    assert main(["convert", str(src), str(out)]) == 2
    err = capsys.readouterr().err
    assert "modern.json" in err and "'modern'" in err and "Traceback" not in err
    assert not out.exists()
