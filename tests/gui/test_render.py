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


# -- hot-seat saves: unrevealed orders are drawn only with --reveal (issue 8) ----------------------


def _hotseat_save(tmp_path: Path, *, stage: str = "curtain", secrecy: bool = True) -> tuple[Path, Game]:
    """A hot-seat game in Fall 1901 (Spring adjudicated: public) with France sealed and Germany
    writing: their Fall orders are in the file, in the clear, but not revealed."""
    game = Game.new(load_board())
    game.set_order(parse_order("A Par - Bur", "france", game.state))
    game.set_order(parse_order("A Mun - Ruh", "germany", game.state))
    game.adjudicate()
    for power, text in (("france", "A Bur - Mun"), ("france", "F Bre - Mao"), ("germany", "A Ruh - Hol")):
        game.set_order(parse_order(text, power, game.state))
    table = {"secrecy": secrecy, "pins": {}, "hotseat": {"phase": game.state.phase.short, "order": ["france", "germany"],
                                                      "sealed": ["france"], "stage": stage, "pins": {}}}
    path = tmp_path / "hotseat.json"
    save_game(path, game, table)
    return path, game


def test_render_hotseat_save_draws_no_unrevealed_order_without_reveal(qapp: object, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from diplomacy_desktop.engine.rules import RuleSet
    from diplomacy_desktop.gui.board.render import picture_scene, read_picture

    path, game = _hotseat_save(tmp_path)
    rules = RuleSet.for_edition("classic")
    hidden = read_picture(path, None, False, rules)
    assert hidden.orders == ()  # type: ignore[attr-defined]
    scene = picture_scene(hidden)
    assert scene.order_items_of() == []  # type: ignore[attr-defined]
    shown = read_picture(path, None, False, rules, reveal=True)
    assert set(shown.orders) == set(game.all_orders()) and len(shown.orders) == 3  # type: ignore[attr-defined]
    assert len(picture_scene(shown).order_items_of()) == 3  # type: ignore[attr-defined]
    # the earlier, adjudicated phase is public: drawn without --reveal
    spring = read_picture(path, 1, True, rules)
    assert len(spring.orders) == 2  # type: ignore[attr-defined]

    # the PNG: without --reveal it is the same picture as the board with no orders at all
    out, revealed = tmp_path / "hidden.png", tmp_path / "revealed.png"
    assert main(["render", str(path), "-o", str(out), "--size", "800x600"]) == 0
    assert "3 unrevealed orders of Fall 1901 moves not drawn" in capsys.readouterr().err
    assert main(["render", str(path), "-o", str(revealed), "--size", "800x600", "--reveal"]) == 0
    bare_game = Game.new(load_board())
    bare_game.set_order(parse_order("A Par - Bur", "france", bare_game.state))
    bare_game.set_order(parse_order("A Mun - Ruh", "germany", bare_game.state))
    bare_game.adjudicate()
    bare = tmp_path / "bare.json"
    save_game(bare, bare_game)
    bare_png = tmp_path / "bare.png"
    assert main(["render", str(bare), "-o", str(bare_png), "--size", "800x600"]) == 0
    assert QImage(str(out)) == QImage(str(bare_png))
    assert QImage(str(revealed)) != QImage(str(out))


def test_render_hotseat_results_need_reveal(qapp: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _game = _hotseat_save(tmp_path)
    out = tmp_path / "results.png"
    assert main(["render", str(path), "-o", str(out), "--results"]) == 1
    err = capsys.readouterr().err
    assert "not revealed yet" in err and "--reveal" in err and not out.exists()
    assert main(["render", str(path), "-o", str(out), "--results", "--reveal", "--size", "400x300"]) == 0


def test_render_open_table_and_revealed_turn_draw_the_orders(qapp: object, tmp_path: Path) -> None:
    from diplomacy_desktop.engine.rules import RuleSet
    from diplomacy_desktop.gui.board.render import read_picture

    rules = RuleSet.for_edition("classic")
    path, _game = _hotseat_save(tmp_path, secrecy=False)  # played openly: everyone saw them written
    assert len(read_picture(path, None, False, rules).orders) == 3  # type: ignore[attr-defined]
    path, _game = _hotseat_save(tmp_path, stage="revealed")
    assert len(read_picture(path, None, False, rules).orders) == 3  # type: ignore[attr-defined]
