"""Exports for the classroom (issue 18, point 6): a PDF page laid out for paper, with the map across
the printable width and, when asked, every result explained with its rule; an SVG whose province
names are text, checked in a real browser (Chromium) as well as by an XML parser."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from PySide6.QtGui import QColor, QImage, QPageLayout
from window_harness import SPRING_1901_EVERY_UNIT

from diplomacy_desktop.cli import main
from diplomacy_desktop.engine.explain import explain
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.rules import RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import format_order, parse_order
from diplomacy_desktop.io.savefile import save_game

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "lessons" / "rulebook_examples.txt"
PT_PER_MM = 72 / 25.4
#: the PDF's margin on every side, in points
MARGIN = 10 * PT_PER_MM
#: paper sizes in points (portrait)
A4 = (595, 842)
LETTER = (612, 792)


def words(text: str) -> str:
    """``text`` with its spaces and line breaks as single spaces, and ligatures (the PDF's "ﬀ")
    as their letters."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def pdf_text(path: Path) -> list[str]:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    return [words(page.extract_text()) for page in PdfReader(io.BytesIO(data)).pages]


def painted_bounds(path: Path, index: int = 0) -> tuple[float, float, float, float]:
    """The bounds (PDF points, origin bottom left) of every path a page fills or strokes, read
    from its content stream with the transformations applied (clip paths are not counted)."""
    reader = PdfReader(path)
    page = reader.pages[index]
    ctm = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    stack: list[list[float]] = []
    points: list[tuple[float, float]] = []
    xs: list[float] = []
    ys: list[float] = []

    def times(m: list[float], n: list[float]) -> list[float]:
        a, b, c, d, e, f = m
        a2, b2, c2, d2, e2, f2 = n
        return [a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2,
                e * b2 + f * d2 + f2]

    def at(x: Any, y: Any) -> tuple[float, float]:
        a, b, c, d, e, f = ctm
        return a * float(x) + c * float(y) + e, b * float(x) + d * float(y) + f

    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm[:])
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = times([float(v) for v in operands], ctm)
        elif op in (b"m", b"l"):
            points.append(at(operands[0], operands[1]))
        elif op == b"c":
            points.extend(at(operands[i], operands[i + 1]) for i in (0, 2, 4))
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            points.extend([at(x, y), at(x + w, y + h)])
        elif op in (b"f", b"f*", b"F", b"S", b"s", b"B", b"B*", b"b", b"b*"):
            xs.extend(p[0] for p in points)
            ys.extend(p[1] for p in points)
            points = []
        elif op == b"n":
            points = []
    assert xs, "nothing painted"
    return min(xs), min(ys), max(xs), max(ys)


def _full_game_spring(tmp_path: Path) -> tuple[Path, Game]:
    """Spring 1901 with all 22 units ordered, adjudicated: enough explanations to fill pages."""
    game = Game.new(load_board())
    for power, texts in SPRING_1901_EVERY_UNIT.items():
        for text in texts:
            game.set_order(parse_order(text, power, game.state))
    game.adjudicate()
    path = tmp_path / "spring.json"
    save_game(path, game)
    return path, game


# -- the PDF page ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_export_pdf_map_spans_the_printable_width_of_a4_and_letter(qapp: object, tmp_path: Path, paper: str,
                                                                   size: tuple[int, int],
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"{paper}.pdf"
    assert main(["render", str(EXAMPLES), "-o", str(out), "--results", "--paper", paper]) == 0
    assert "wrote" in capsys.readouterr().out
    page = PdfReader(out).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == size  # portrait: auto
    left, bottom, right, top = painted_bounds(out)
    # the map runs from the left margin to the right one (its edge strokes a point or two beyond)
    assert abs(left - MARGIN) < 4 and abs(right - (size[0] - MARGIN)) < 4
    assert (right - left) / (size[0] - 2 * MARGIN) > 0.99
    # under the title line, in the upper part of the page, in the board's proportions (1599 x 1252)
    assert size[1] - MARGIN - 40 < top < size[1] - MARGIN - 15
    assert (top - bottom) == pytest.approx((right - left) * 1252 / 1599, rel=0.03)
    (text, *_rest) = pdf_text(out)
    assert text.startswith("rulebook_examples — Spring 1901 moves — results Case Example 1")
    assert "F Nth - Den" in text and "fails" in text  # the orders and results follow the map


def test_export_pdf_page_seen_through_ghostscript_has_the_board_across_the_page(qapp: object,
                                                                                tmp_path: Path) -> None:
    """Page 1 drawn by another PDF reader (Ghostscript): the board's colours reach both margins."""
    gs = shutil.which("gs") or shutil.which("pdftoppm")
    if gs is None:
        pytest.skip("neither Ghostscript nor poppler's pdftoppm is installed to draw the page")
    out = tmp_path / "page.pdf"
    assert main(["render", str(EXAMPLES), "-o", str(out), "--explain", "--paper", "a4"]) == 0
    png = tmp_path / "page1.png"
    if gs.endswith("gs"):
        subprocess.run([gs, "-q", "-dSAFER", "-sDEVICE=png16m", "-r72", "-dFirstPage=1", "-dLastPage=1",
                        "-o", str(png), str(out)], check=True, timeout=120)
    else:
        subprocess.run([gs, "-png", "-r", "72", "-f", "1", "-l", "1", "-singlefile", str(out),
                        str(png.with_suffix(""))], check=True, timeout=120)
    image = QImage(str(png))
    assert (image.width(), image.height()) == A4
    row = int(image.height() * 0.3)  # through the map (Europe's middle)
    painted = [x for x in range(image.width()) if QColor(image.pixel(x, row)) != QColor("#FFFFFF")]
    assert painted[0] <= MARGIN + 3 and painted[-1] >= A4[0] - MARGIN - 3
    # the text below the map is there too, and the page's foot is white paper
    assert QColor(image.pixel(A4[0] // 2, A4[1] - 5)) == QColor("#FFFFFF")


def test_export_pdf_explanations_every_result_with_its_rule_extractable(qapp: object, tmp_path: Path) -> None:
    from diplomacy_desktop.engine.turns import adjudicate_phase
    from diplomacy_desktop.gui.teach.explanations import filed_of
    from diplomacy_desktop.io.scenario import read_scenarios, scenario_state

    out = tmp_path / "explained.pdf"
    assert main(["render", str(EXAMPLES), "-o", str(out), "--explain", "--phase", "1"]) == 0
    text = " ".join(pdf_text(out))
    # what the explanation panel shows for each result, read from the engine here
    board = load_board()
    case = read_scenarios(EXAMPLES.read_text(encoding="utf-8"), board)[0]
    state = scenario_state(case, board)  # type: ignore[arg-type]
    orders = [parse_order(line.text, line.power, state, case_file=True) for line in case.orders]  # type: ignore[union-attr]
    results = adjudicate_phase(state, orders, RuleSet.for_edition("classic")).results
    shown = filed_of(orders, results)
    assert len(shown) == 6
    for result in shown:
        ex = explain(result, state, results)
        assert f"{format_order(result.order)} {ex.verdict}" in text
        assert words(ex.reason[:1].upper() + ex.reason[1:]) in text
        for detail in ex.details:
            assert words(detail) in text, detail
        assert words(f"Rule {ex.rule} — {ex.rule_title}") in text and words(ex.rule_text) in text
    assert "Rule IX.3 — Self-dislodgement prohibited" in text and "valid for other purposes" in text


def test_export_pdf_explanations_flow_over_pages_in_a_readable_size(qapp: object, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    saved, game = _full_game_spring(tmp_path)
    out = tmp_path / "spring.pdf"
    assert main(["render", str(saved), "-o", str(out), "--phase", "1", "--explain"]) == 0
    pages = pdf_text(out)
    assert len(pages) >= 2 and f"({len(pages)} pages)" in capsys.readouterr().out
    assert all("spring — Spring 1901 moves — results (continued)" in p for p in pages[1:])
    entry = game.history[0]
    text = " ".join(pages)
    for order in entry.orders:  # every order written, each with its explanation
        assert format_order(order) in text
    for r in entry.results:
        if r.rule:
            assert words(f"Rule {r.rule}") in text
    # nothing is cut between pages: each explanation's rule text stands whole on one page
    for r in entry.results:
        ex = explain(r, entry.state, entry.results)
        if ex.rule_text:
            assert any(words(ex.rule_text) in p for p in pages)
    # the explanations' text is 9 pt at least (the fonts' sizes as the content streams set them)
    reader = PdfReader(out)
    sizes = []
    for page in reader.pages[1:]:
        for operands, op in ContentStream(page.get_contents(), reader).operations:
            if op == b"Tf":
                sizes.append(float(operands[1]))
    # Qt writes 300 dpi pixels scaled by 72/300: a size in points is the font size times 0.24
    assert sizes and min(sizes) * 0.24 >= 8.9


def test_export_pdf_without_explanations_lists_orders_results_and_reasons(qapp: object, tmp_path: Path) -> None:
    saved, _game = _full_game_spring(tmp_path)
    out = tmp_path / "legend.pdf"
    assert main(["render", str(saved), "-o", str(out), "--phase", "1", "--results"]) == 0
    text = " ".join(pdf_text(out))
    assert "A Par - Bur succeeds" in text and "A Mun - Bur fails" in text
    assert "Rule " not in text  # the explanations only when asked for


def test_export_pdf_orientation_auto_fits_the_map_across_the_width() -> None:
    from diplomacy_desktop.gui.board.export import PdfOptions, page_orientation

    portrait, landscape = QPageLayout.Orientation.Portrait, QPageLayout.Orientation.Landscape
    board = 1599 / 1252
    for paper in ("a4", "letter"):
        # the standard board at full width is too tall for a landscape page under a title: portrait
        assert page_orientation(PdfOptions(paper), board, 12) == portrait
        # a wide map (a 2:1 variant) fits across a landscape page, and is wider there
        assert page_orientation(PdfOptions(paper), 2.0, 12) == landscape
        assert page_orientation(PdfOptions(paper, "landscape"), board, 12) == landscape
        assert page_orientation(PdfOptions(paper, "portrait"), 2.0, 12) == portrait


def test_export_pdf_landscape_when_asked(qapp: object, tmp_path: Path) -> None:
    out = tmp_path / "landscape.pdf"
    assert main(["render", str(EXAMPLES), "-o", str(out), "--orientation", "landscape", "--paper", "letter"]) == 0
    page = PdfReader(out).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == LETTER[::-1]
    left, bottom, right, top = painted_bounds(out)
    # the map as high as the page allows under the title, centred across the page
    assert bottom == pytest.approx(MARGIN, abs=4) and (top - bottom) > (LETTER[0] - 2 * MARGIN) * 0.9
    assert left > MARGIN + 20 and left == pytest.approx(LETTER[1] - right, abs=4)


@pytest.mark.parametrize("args", [["-o", "x.svg", "--explain"], ["-o", "x.png", "--paper", "letter"],
                                  ["-o", "x.pdf", "--order-sheets", "--explain"]])
def test_export_pdf_options_on_other_outputs_are_one_clear_line(qapp: object, tmp_path: Path, args: list[str],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(tmp_path / a) if a.startswith("x.") else a for a in args]
    assert main(["render", str(EXAMPLES), *args]) == 2
    err = capsys.readouterr().err
    assert "lays out a PDF page" in err and err.count("\n") == 1 and "Traceback" not in err
    assert not list(tmp_path.glob("x.*"))


def test_export_pdf_explanations_keep_hot_seat_secrets(qapp: object, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Explaining means adjudicating: unrevealed orders of a hot-seat save are refused, not explained."""
    game = Game.new(load_board())
    game.set_order(parse_order("A Par - Bur", "france", game.state))
    table = {"secrecy": True, "pins": {}, "hotseat": {"phase": game.state.phase.short, "order": ["france"],
                                                     "sealed": ["france"], "stage": "curtain", "pins": {}}}
    path = tmp_path / "hotseat.json"
    save_game(path, game, table)
    out = tmp_path / "secret.pdf"
    assert main(["render", str(path), "-o", str(out), "--explain"]) == 1
    assert "not revealed yet" in capsys.readouterr().err and not out.exists()


# -- the SVG --------------------------------------------------------------------------------------


def _svg(tmp_path: Path) -> Path:
    out = tmp_path / "example1.svg"
    assert main(["render", str(EXAMPLES), "-o", str(out), "--results", "--size", "1600x1200"]) == 0
    return out


def _art_names() -> dict[str, str]:
    """Every province name the map draws, by space."""
    from diplomacy_desktop.gui.board.map_scene import current_picture
    from diplomacy_desktop.gui.board.render import picture_scene

    scene = picture_scene(current_picture(Game.new(load_board()).state, ()))
    return {space: item.spec.text for space, item in scene.label_items.items()}  # type: ignore[attr-defined]


def test_export_svg_place_names_are_text_with_a_font_list(qapp: object, tmp_path: Path) -> None:
    out = _svg(tmp_path)
    root = ET.parse(out).getroot()  # valid XML
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 1600 1200"
    group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "place-names")
    names = {t.get("id", "").removeprefix("name-"): "".join(t.itertext()) for t in group.iter(f"{SVG}text")}
    expected = {space.replace("/", "-"): text for space, text in _art_names().items()}
    assert names == expected and len(names) >= 75
    assert {"Paris", "Munich", "NORTH SEA", "St Petersburg"} <= set(names.values())
    family = group.get("font-family", "")
    assert family.startswith("'DejaVu Sans'") and family.endswith("sans-serif") and "Verdana" in family
    # every font named anywhere in the file has a fallback a browser always has
    for element in root.iter():
        if element.get("font-family"):
            assert element.get("font-family", "").rstrip().endswith("sans-serif"), element.get("font-family")
    # no name is also drawn as outlines: the paths are the board, units and arrows
    for text in group.iter(f"{SVG}text"):
        assert text.get("paint-order") == "stroke" and float(text.get("font-size", "0")) > 8
    # the units and the orders are there as well
    texts = [(t.text or "").strip() for t in root.iter(f"{SVG}text")]
    assert texts.count("R") >= 3 and texts.count("E") >= 3  # Russia's and England's units
    assert "F Nth - Den" in texts and "fails" in texts


def test_export_svg_names_stand_where_the_map_draws_them(qapp: object) -> None:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter

    from diplomacy_desktop.gui.board.export import map_box, paint_map
    from diplomacy_desktop.gui.board.map_art import LabelSpec
    from diplomacy_desktop.gui.board.map_scene import current_picture
    from diplomacy_desktop.gui.board.render import picture_scene

    scene = picture_scene(current_picture(Game.new(load_board()).state, ()))
    scene.set_view_scale(1600 / 1599)  # type: ignore[attr-defined]  # the picture's: the names stay put
    image = QImage(1600, 1253, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    names: list[LabelSpec] = []
    target = QRectF(0, 0, 1600, 1253)
    paint_map(painter, scene, target, names=names)  # type: ignore[arg-type]
    painter.end()
    box = map_box(scene, target)  # type: ignore[arg-type]
    scale = box.width() / scene.sceneRect().width()  # type: ignore[attr-defined]
    for name in names:
        item = scene.label_items[name.space]  # type: ignore[attr-defined]
        drawn = item.mapRectToScene(item.text_rect())
        # the text's middle and (last) baseline where LabelItem puts its outline (within a pixel or two)
        assert name.x == pytest.approx(box.left() + drawn.center().x() * scale, abs=2.0)
        assert len(name.baselines()) == item.text.count("\n") + 1  # on as many lines as the map draws
        last = name.baselines()[-1][1]
        assert last == pytest.approx(box.top() + drawn.bottom() * scale, abs=0.35 * name.size + 2)
        assert name.size == pytest.approx(item.font_size * scale, rel=0.08)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="the browser check needs selenium")
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service

    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("no chromium and chromedriver here (apt-get install chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--window-size=1600,1200", f"--user-data-dir={tempfile.mkdtemp(dir=tmp_path)}"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    except WebDriverException as exc:
        pytest.skip(f"chromium would not start under chromedriver: {exc.msg}")
    try:
        yield driver
    finally:
        driver.quit()


def test_export_svg_opens_in_chromium_with_its_names_units_and_orders(qapp: object, tmp_path: Path,
                                                                      browser: Any) -> None:
    out = _svg(tmp_path)
    browser.set_window_size(1600, 1200)
    browser.get(out.as_uri())
    assert browser.execute_script("return document.documentElement.namespaceURI") == "http://www.w3.org/2000/svg"
    # the browser parsed it as SVG (an XML error would show a parser error page instead)
    assert browser.execute_script("return document.getElementsByTagName('parsererror').length") == 0
    names = browser.execute_script(
        "return Array.from(document.querySelectorAll('#place-names text')).map(t => {"
        "  const b = t.getBBox(); return [t.textContent, b.width, b.height]; })")
    expected = _art_names()
    assert sorted(n for n, _w, _h in names) == sorted(expected.values())
    # each name laid out with a real font: as wide as its letters, about as high as its size
    for text, width, height in names:
        assert width > 3 * len(text) and height > 8, (text, width, height)
    assert browser.execute_script("return getComputedStyle(document.querySelector('#place-names text'))"
                                  ".fontFamily").startswith('"DejaVu Sans"')
    severe = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert severe == []
    # the picture itself: the board's sea and land drawn, names dark on their halos
    shot = tmp_path / "chromium.png"
    assert browser.save_screenshot(str(shot))
    image = QImage(str(shot))
    w, h = image.width(), image.height()
    sea = land = white = 0
    for y in range(h // 8, h, 8):
        for x in range(0, w * 3 // 4, 8):  # the map's part of the page (the legend is at the right)
            c = QColor(image.pixel(x, y))
            if c == QColor("#FFFFFF"):
                white += 1
            elif c.blue() > c.red() + 40:
                sea += 1
            else:
                land += 1
    total = sea + land + white
    assert sea > total * 0.25 and land > total * 0.15 and white < total * 0.2
    # a name in the browser is drawn where the file says: dark letters in Paris's box
    box = browser.execute_script("const b = document.getElementById('name-par').getBoundingClientRect();"
                                 "return [b.left, b.top, b.width, b.height, window.devicePixelRatio];")
    left, top, width, height, ratio = box
    dark = sum(1 for x in range(int(left * ratio), int((left + width) * ratio))
               for y in range(int(top * ratio), int((top + height) * ratio))
               if QColor(image.pixel(x, y)).lightness() < 80)
    assert dark > 20


# -- the window's PDF page dialog -----------------------------------------------------------------


def test_export_pdf_page_dialog_offers_paper_orientation_and_explanations(qtbot: Any, settings: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QDialog

    from diplomacy_desktop.gui.board import pdf_options
    from diplomacy_desktop.gui.board.export import PdfOptions

    dialog = pdf_options.PdfOptionsDialog(None, PdfOptions("letter", "landscape", True), can_explain=True, pages=3)
    qtbot.addWidget(dialog)
    assert dialog.options() == PdfOptions("letter", "landscape", True)
    assert [dialog.paper.itemText(i) for i in range(dialog.paper.count())] == ["A4", "Letter"]
    assert dialog.orientation.itemData(0) == "auto" and dialog.explanations.isEnabled()
    # a phase not adjudicated has nothing to explain: the box is off and greyed, with why
    plain = pdf_options.PdfOptionsDialog(None, PdfOptions("a4", "auto", True), can_explain=False)
    qtbot.addWidget(plain)
    assert not plain.explanations.isEnabled() and not plain.options().explanations
    assert "not adjudicated" in plain.explanations.toolTip()

    # the choices are kept for the next export; Cancel exports nothing
    def choose(self: Any) -> int:
        self.paper.setCurrentIndex(self.paper.findData("letter"))
        self.explanations.setChecked(True)
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(pdf_options.PdfOptionsDialog, "exec", choose)
    chosen = pdf_options.ask_pdf_options(None, settings, can_explain=True)
    assert chosen == PdfOptions("letter", "auto", True) == pdf_options.saved_options(settings)
    monkeypatch.setattr(pdf_options.PdfOptionsDialog, "exec", lambda self: int(QDialog.DialogCode.Rejected))
    assert pdf_options.ask_pdf_options(None, settings, can_explain=True) is None


def test_export_from_the_window_pdf_with_explanations_of_the_phase_shown(table: Any, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QFileDialog

    from diplomacy_desktop.gui.board import pdf_options
    from diplomacy_desktop.gui.board.export import PdfOptions

    t = table
    w = t.window
    t.move("par", "bur")
    t.move("mun", "bur")
    t.adjudicate()
    w.controller.view_phase(0)  # the adjudicated Spring, as the window shows it
    out = tmp_path / "spring.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a: (str(out), "")))
    asked: list[dict[str, Any]] = []

    def ask(_parent: object, _settings: object, **kw: Any) -> PdfOptions:
        asked.append(kw)
        return PdfOptions("letter", "auto", True)

    monkeypatch.setattr(pdf_options, "ask_pdf_options", ask)
    w.act_export.trigger()
    assert asked == [{"pages": 1, "can_explain": True}]
    page = PdfReader(out).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == LETTER
    text = " ".join(pdf_text(out))
    entry = w.controller.game.history[0]
    for r in entry.results:
        if r.order.province in ("par", "mun"):
            ex = explain(r, entry.state, entry.results)
            assert f"{format_order(r.order)} {ex.verdict}" in text and words(f"Rule {ex.rule}") in text
    assert "Rule VIII — Conflicts" in text  # the bounce in Burgundy
    # the current phase has nothing adjudicated: the dialog is told so
    w.controller.view_phase(None)
    w.act_export.trigger()
    assert asked[-1] == {"pages": 1, "can_explain": False}
    assert "not adjudicated" in " ".join(pdf_text(out))


def test_export_pdf_flow_cuts_a_long_text_between_lines_over_columns_and_pages(qapp: object) -> None:
    """A piece longer than a column is cut between lines: every line is drawn once, whole."""
    from PySide6.QtCore import QRectF

    from diplomacy_desktop.gui.board.export import PDF_DPI, _Flow, _painter, _pdf

    data, buffer, writer = _pdf("flow", QPageLayout.Orientation.Portrait)
    painter = _painter(writer)
    rect = QRectF(writer.pageLayout().paintRectPixels(writer.resolution()))
    rect.moveTo(0, 0)
    flow = _Flow(writer, painter, rect, "a long text", columns=2, gap=0.25 * PDF_DPI)
    flow.start(rect.height() * 0.6)
    lines = [f"line {i:03d} of the long text, with enough words to wrap now and then" for i in range(400)]
    flow.pour("".join(f"<p>{line}</p>" for line in lines))
    flow.pour("<p>the piece after it</p>")
    painter.end()
    buffer.close()
    pages = [words(p.extract_text()) for p in PdfReader(io.BytesIO(bytes(data.data()))).pages]
    assert len(pages) >= 4
    text = " ".join(pages)
    for line in lines:
        assert text.count(line) == 1, line
    assert text.count("the piece after it") == 1 and "the piece after it" in pages[-1]
    assert all(p.startswith("a long text (continued)") for p in pages[1:])


def test_export_pdf_every_phase_explained_says_which_had_nothing_to_explain(qapp: object, tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(load_board())
    for power, text in (("france", "A Par - Bur"), ("germany", "A Mun - Bur")):
        game.set_order(parse_order(text, power, game.state))
    game.adjudicate()
    game.set_order(parse_order("A Mar - Spa", "france", game.state))
    game.adjudicate()
    game.adjudicate()  # Winter 1901: France's build not written (waived)
    path = tmp_path / "three.json"
    save_game(path, game)
    out = tmp_path / "three.pdf"
    assert main(["render", str(path), "-o", str(out), "--all-phases", "--explain"]) == 0
    text = " ".join(pdf_text(out))
    parts = re.split(r"three — (?=(?:Spring|Fall|Winter) 19\d\d )", text)
    phases = {p.split(" — ")[0].split(" Geography")[0]: p for p in parts if p}
    assert list(phases) == ["Spring 1901 moves", "Fall 1901 moves", "Winter 1901 adjustments", "Spring 1902 moves"]
    assert "Rule VIII — Conflicts" in phases["Spring 1901 moves"]
    assert "A Mar - Spa succeeds" in phases["Fall 1901 moves"] and "Rule VII.1" in phases["Fall 1901 moves"]
    # adjudicated, nothing written: said so; the phase being played: not adjudicated
    winter, now = phases["Winter 1901 adjustments"], phases["Spring 1902 moves"]
    assert "not adjudicated" not in winter
    assert "No order was given in this phase and no unit was affected: there is nothing to explain." in winter
    assert "This phase is not adjudicated" in now
