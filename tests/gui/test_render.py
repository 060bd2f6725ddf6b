"""``diplomacy-desktop render``: scenarios and saved games to PNG, clear errors, exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from diplomacy_desktop.cli import main
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import parse_order
from diplomacy_desktop.io.savefile import save_game

SCENARIO = """\
CASE bounce and dislodge
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
    France: A par
    France: A mar
    Germany: A mun
    Germany: A bur
ORDERS
    France: A par - bur
    France: A mar S A par - bur
    Germany: A bur H
    Germany: A mun - ruh
END

CASE second
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE
    England: F nth
    England: A yor
ORDERS
    England: F nth C A yor - nwy
    England: A yor - nwy
END
"""


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "cases.txt"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def test_render_scenario_with_results_writes_png_of_the_size(qapp: object, scenario: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "case.png"
    assert main(["render", str(scenario), "-o", str(out), "--size", "800x600", "--results"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 600)
    assert "wrote" in capsys.readouterr().out
    # the board was drawn (not a blank picture): the middle has the map's colours
    assert QColor(image.pixel(400, 300)) != QColor("#FFFFFF")


def test_render_picks_a_case_by_number(qapp: object, scenario: Path, tmp_path: Path) -> None:
    out = tmp_path / "second.png"
    assert main(["render", str(scenario), "-o", str(out), "--phase", "2", "--size", "640x480"]) == 0
    assert QImage(str(out)).size().width() == 640


def test_render_saved_game_phase(qapp: object, tmp_path: Path) -> None:
    game = Game.new(load_board())
    for power, text in (("france", "A Par - Bur"), ("germany", "A Mun - Bur")):
        game.set_order(parse_order(text, power, game.state))
    game.adjudicate()
    saved = tmp_path / "game.json"
    save_game(saved, game)
    out = tmp_path / "game.png"
    assert main(["render", str(saved), "-o", str(out), "--phase", "1", "--results", "--size", "1000x800"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1000, 800)
    assert main(["render", str(saved), "-o", str(tmp_path / "now.png")]) == 0  # the current phase


def test_render_errors_are_one_clear_line(qapp: object, scenario: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(tmp_path / "missing.txt"), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "Traceback" not in err
    assert main(["render", str(scenario), "-o", str(tmp_path / "x.png"), "--phase", "9"]) == 1
    assert "no case 9" in capsys.readouterr().err
    assert main(["render", str(scenario), "-o", str(tmp_path / "x.png"), "--size", "big"]) == 2
    assert "--size" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "diplomacy-desktop-game", "version": 1', encoding="utf-8")
    assert main(["render", str(broken), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "saved game" in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()
