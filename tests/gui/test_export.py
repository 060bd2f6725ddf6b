"""Export (issue 9): pages as PNG, SVG and PDF, every phase as a multi-page PDF, order sheets,
the hot-seat secrecy rule in every format, and files written whole or not at all."""

from __future__ import annotations

import io
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QImage
from window_harness import TWO_CASES

from diplomacy_desktop.cli import main
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.state import Phase
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import location_label, parse_order
from diplomacy_desktop.io.savefile import save_game

SVG = "{http://www.w3.org/2000/svg}"



def svg_texts(path: Path) -> list[str]:
    root = ET.parse(path).getroot()  # valid XML, or this raises
    assert root.tag == f"{SVG}svg"
    return [(e.text or "").strip() for e in root.iter(f"{SVG}text")]


def pdf_pages(path: Path) -> list[str]:
    """Each page's text; the file must be a PDF (its header) that a PDF reader opens."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    # (the reader gives the spaces between words as tabs or line breaks)
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages]


def _game_with_phases(tmp_path: Path) -> tuple[Path, Game]:
    """A game three phases long: Spring and Fall 1901 adjudicated, Winter 1901 now."""
    game = Game.new(load_board())
    for power, text in (("france", "A Par - Bur"), ("germany", "A Mun - Bur"), ("england", "F Lon - Nth")):
        game.set_order(parse_order(text, power, game.state))
    game.adjudicate()
    for power, text in (("england", "F Nth - Nwy"), ("france", "A Mar - Spa")):
        game.set_order(parse_order(text, power, game.state))
    game.adjudicate()
    assert game.state.phase.kind == "adjustment"
    path = tmp_path / "game.json"
    save_game(path, game)
    return path, game


def test_export_render_writes_png_svg_and_pdf_with_the_phase_units_orders_and_results(
        qapp: object, scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png, svg, pdf = tmp_path / "case.png", tmp_path / "case.svg", tmp_path / "case.pdf"
    for out in (png, svg, pdf):
        assert main(["render", str(scenario), "-o", str(out), "--results", "--size", "1200x800"]) == 0
    assert "wrote" in capsys.readouterr().out
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1200, 800)
    texts = svg_texts(svg)
    assert "Spring 1901 moves — results" in texts
    assert "Case bounce and dislodge" in texts
    # the units: France's and Germany's letters on their unit shapes, two each
    assert texts.count("F") >= 2 and texts.count("G") >= 2
    assert "A Par - Bur" in texts and "A Mun - Ruh" in texts  # the legend: orders ...
    assert "succeeds" in texts and "fails" in texts  # ... and results
    (page,) = pdf_pages(pdf)
    assert "Spring 1901 moves" in page and "A Bur H" in page and "dislodged" in page


def test_export_render_all_phases_pdf_has_a_page_per_phase(qapp: object, scenario: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    saved, game = _game_with_phases(tmp_path)
    out = tmp_path / "all.pdf"
    assert main(["render", str(saved), "-o", str(out), "--all-phases", "--results"]) == 0
    assert "(3 pages)" in capsys.readouterr().out
    pages = pdf_pages(out)
    assert len(pages) == len(game.history) + 1 == 3
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", out.read_bytes())) == 3  # the page objects, read raw
    assert "Spring 1901 moves" in pages[0] and "F Lon - Nth" in pages[0]
    assert "Fall 1901 moves" in pages[1] and "F Nth - Nwy" in pages[1]
    assert "Winter 1901 adjustments" in pages[2]
    cases = tmp_path / "cases.pdf"
    assert main(["render", str(scenario), "-o", str(cases), "--all-phases"]) == 0
    pages = pdf_pages(cases)
    assert len(pages) == 2 and "Case second" in pages[1] and "F Nth C A Yor - Nwy" in pages[1]


def test_export_render_several_pages_need_a_pdf(qapp: object, scenario: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for flag in ("--all-phases", "--order-sheets"):
        assert main(["render", str(scenario), "-o", str(tmp_path / "x.svg"), flag]) == 2
        err = capsys.readouterr().err
        assert ".pdf" in err and "Traceback" not in err and err.count("\n") == 1
    assert main(["render", str(scenario), "-o", str(tmp_path / "x.gif")]) == 2
    assert ".png, .svg or .pdf" in capsys.readouterr().err
    assert not list(tmp_path.glob("x.*"))


def test_export_order_sheets_one_page_per_power_with_its_units(qapp: object, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(load_board())
    saved = tmp_path / "new.json"
    save_game(saved, game)
    out = tmp_path / "sheets.pdf"
    assert main(["render", str(saved), "-o", str(out), "--order-sheets"]) == 0
    assert "(7 pages)" in capsys.readouterr().out
    pages = pdf_pages(out)
    board = game.state.board
    assert len(pages) == len(board.power_ids) == 7
    for text, pid in zip(pages, board.power_ids, strict=True):
        assert board.power(pid).name in text and "Spring 1901 moves" in text
        for unit in game.state.units_of(pid):
            assert f"({unit.kind} {location_label(unit.location)})" in text
    assert "Army Paris" in pages[board.power_ids.index("france")]


def test_export_order_sheets_for_retreats_and_adjustments(qapp: object) -> None:
    from diplomacy_desktop.engine.state import DislodgedUnit, GameState, Unit
    from diplomacy_desktop.gui.board.export import order_sheets

    board = load_board()
    retreat = GameState.build(board, Phase(1901, "spring", "retreat"),
                              [Unit("austria", "A", "bud"), Unit("russia", "A", "ser")],
                              dislodged=(DislodgedUnit(Unit("austria", "A", "ser"), "bud"),))
    (sheet,) = order_sheets(retreat)
    assert sheet.power == "austria" and len(sheet.lines) == 1
    assert "Serbia" in sheet.lines[0].label and "dislodged by the unit from Bud" in sheet.lines[0].label
    assert "Alb" in sheet.lines[0].note and "or disband" in sheet.lines[0].note and "Bud" not in sheet.lines[0].note

    owners = {c: p for p, cs in board.home_centres.items() for c in cs} | {"bel": "france", "spa": "france"}
    adjust = GameState.build(board, Phase(1901, "fall", "adjustment"),
                             [Unit("france", "A", "bur"), Unit("germany", "A", "ber"), Unit("germany", "A", "mun"),
                              Unit("germany", "F", "kie"), Unit("germany", "A", "ruh")], owners)
    sheets = {s.power: s for s in order_sheets(adjust)}
    france = sheets["france"]  # five centres, one unit: four builds owed, three free home centres
    assert france.heading.startswith("4 builds owed") and len(france.lines) == 3
    assert any("Brest, Marseilles, Paris" in n for n in france.notes)
    assert any("Only 3 can be built" in n for n in france.notes)
    germany = sheets["germany"]  # three centres, four units: one removal
    assert germany.heading.startswith("1 removal owed") and len(germany.lines) == 1
    assert "A Ruh" in germany.notes[0]


def _hotseat_save(tmp_path: Path) -> tuple[Path, list[str]]:
    """A hot-seat game in Fall 1901 whose orders are written (France sealed) but not revealed."""
    game = Game.new(load_board())
    game.set_order(parse_order("A Par - Bur", "france", game.state))
    game.set_order(parse_order("A Mun - Ruh", "germany", game.state))
    game.adjudicate()
    secret = ["A Bur - Mun", "F Bre - Mao", "A Ruh - Hol"]
    for power, text in zip(("france", "france", "germany"), secret, strict=True):
        game.set_order(parse_order(text, power, game.state))
    table = {"secrecy": True, "pins": {}, "hotseat": {"phase": game.state.phase.short, "order": ["france", "germany"],
                                                     "sealed": ["france"], "stage": "curtain", "pins": {}}}
    path = tmp_path / "hotseat.json"
    save_game(path, game, table)
    return path, secret


def test_export_hotseat_save_to_svg_and_pdf_shows_no_unrevealed_order(qapp: object, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path, secret = _hotseat_save(tmp_path)
    svg, pdf, every = tmp_path / "h.svg", tmp_path / "h.pdf", tmp_path / "every.pdf"
    assert main(["render", str(path), "-o", str(svg)]) == 0
    assert main(["render", str(path), "-o", str(pdf)]) == 0
    assert main(["render", str(path), "-o", str(every), "--all-phases"]) == 0
    assert capsys.readouterr().err.count("3 unrevealed orders of Fall 1901 moves not drawn") == 3
    texts = " ".join(svg_texts(svg))
    pages = pdf_pages(pdf) + pdf_pages(every)
    for order in secret:
        assert order not in texts
        assert all(order not in page for page in pages)
    assert "A Par - Bur" in pages[1]  # the adjudicated Spring is public: on the all-phases PDF
    assert main(["render", str(path), "-o", str(svg), "--reveal"]) == 0
    assert main(["render", str(path), "-o", str(pdf), "--reveal"]) == 0
    texts = " ".join(svg_texts(svg))
    (page,) = pdf_pages(pdf)
    assert all(order in texts and order in page for order in secret)  # the same check sees them when drawn


@pytest.mark.parametrize("name", ["pic.svg", "pic.pdf", "sheets.pdf"])
def test_export_on_a_full_disk_leaves_no_file_and_says_one_line(qapp: object, scenario: Path, tmp_path: Path,
                                                               full_disk: None, name: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out" / name
    out.parent.mkdir()
    extra = ["--order-sheets"] if name == "sheets.pdf" else ["--all-phases"] if name.endswith(".pdf") else []
    assert main(["render", str(scenario), "-o", str(out), *extra]) == 1
    assert capsys.readouterr().err == f"diplomacy-desktop: cannot write {out}: no space left\n"
    assert os.listdir(out.parent) == []  # neither the file nor a temporary one


def test_export_from_the_window_this_phase_every_phase_and_order_sheets(table: object, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QFileDialog

    from diplomacy_desktop.gui.board import pdf_options

    t = table
    w = t.window  # type: ignore[attr-defined]
    t.move("par", "bur")  # type: ignore[attr-defined]
    t.move("mun", "bur")  # type: ignore[attr-defined]
    t.adjudicate()  # type: ignore[attr-defined]
    w.controller.view_phase(None)
    t.move("bre", "mao")  # type: ignore[attr-defined]
    names = iter([tmp_path / "now.svg", tmp_path / "now", tmp_path / "game.pdf", tmp_path / "sheets.pdf"])
    asked: list[str] = []

    def choose(_parent: object, title: str, _start: str, filters: str) -> tuple[str, str]:
        asked.append(title)
        return str(next(names)), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(choose))
    # a PDF asks for its page (issue 18): the choices as they stand, at once
    monkeypatch.setattr(pdf_options, "ask_pdf_options",
                        lambda _parent, settings, **_k: pdf_options.saved_options(settings))
    w.act_export.trigger()
    texts = svg_texts(tmp_path / "now.svg")
    assert "Fall 1901 moves" in texts and "F Bre - Mao" in texts
    w.act_export.trigger()  # no extension typed: the first filter's (PNG)
    assert QImage(str(tmp_path / "now.png")).width() > 0
    w.act_export_phases.trigger()
    pages = pdf_pages(tmp_path / "game.pdf")
    assert len(pages) == 2 and "A Mun - Bur" in pages[0] and "F Bre - Mao" in pages[1]
    w.act_order_sheets.trigger()
    sheets = pdf_pages(tmp_path / "sheets.pdf")
    assert len(sheets) == 7 and "Orders for Fall 1901 moves" in sheets[2] and "Army Paris" in sheets[2]
    assert asked == ["Export this phase", "Export this phase", "Export every phase", "Print order sheets"]


def test_export_render_all_phases_says_which_case_has_no_page(qapp: object, scenario: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text(TWO_CASES + "\nCASE broken\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n"
                      "    France: Q zzz\nORDERS\nEND\n", encoding="utf-8")
    out = tmp_path / "cases.pdf"
    assert main(["render", str(broken), "-o", str(out), "--all-phases"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("diplomacy-desktop: case broken cannot be read: line ") and err.endswith("(no page)\n")
    assert len(pdf_pages(out)) == 2
