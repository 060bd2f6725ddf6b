"""``diplomacy-desktop render``: draw a scenario or a saved game to PNG, SVG or PDF, without a window.

    diplomacy-desktop render FILE -o OUT.png|OUT.svg|OUT.pdf [--size WxH] [--phase N] [--results] [--reveal]
    diplomacy-desktop render FILE -o OUT.pdf --all-phases [--results] [--reveal]
    diplomacy-desktop render FILE -o OUT.pdf --order-sheets [--phase N]
    diplomacy-desktop render FILE -o OUT.png --map-only ...
    diplomacy-desktop render FILE -o OUT.pdf [--all-phases] [--explain] [--paper a4|letter]
                             [--orientation auto|portrait|landscape]

FILE is a DATC-format scenario file (``--phase N`` picks its N-th case, default the first) or
a saved game (``--phase N`` picks its N-th phase, default the current one).  The picture is
drawn by the same :class:`MapScene` as the window: units, centre ownership, the orders as
arrows, and with ``--results`` what the adjudication made of them (failed orders dashed and
crossed, dislodged units drawn beside their space, bounces starred).  The output's extension
chooses the format (see :mod:`.export`): a page with the phase's name above the map and the
orders and their results beside it; ``--map-only`` draws the bare map into a PNG, as before.
``--all-phases`` writes a PDF page for every phase of a saved game or every case of a scenario
file; ``--order-sheets`` a PDF page per power with its units to write orders for.  A PDF puts
the map across the paper's printable width under a title line (the file and the phase) and the
orders below; ``--explain`` adjudicates and explains every result there instead, with its rule, as
the window's explanation panel does.

A hot-seat save keeps the orders of the phase being written in the clear, but they are not
revealed yet (sealed, or being written): ``render`` draws none of them unless ``--reveal`` is
given, and says so on stderr.  Earlier, adjudicated phases are public and always drawn.

Exit codes: 0 drawn; 1 the file has no such case or phase, or the picture cannot be written;
2 the file or the arguments cannot be read.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import Any

from ...engine.board import Board
from ...engine.errors import OrderError
from ...engine.orders import Order
from ...engine.rules import RuleSet
from ...engine.turns import adjudicate_phase
from ...io.output import fail


class RenderError(Exception):
    """A problem worth one line to the user; ``code`` is the exit code."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def parse_size(text: str) -> tuple[int, int]:
    try:
        w_text, h_text = text.lower().replace("×", "x").split("x")
        w, h = int(w_text), int(h_text)
    except ValueError:
        raise RenderError(f"--size must look like 1600x1200, not {text!r}") from None
    if not (16 <= w <= 16384 and 16 <= h <= 16384):
        raise RenderError(f"--size {w}x{h} is out of range (16 to 16384 pixels a side)")
    return w, h


def _ensure_app() -> object:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        if not os.environ.get("QT_QPA_PLATFORM"):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QApplication([sys.argv[0] if sys.argv else "diplomacy-desktop"])
    return app


def render_scene(scene: object, width: int, height: int) -> object:
    """The whole board drawn into a ``width`` x ``height`` image (aspect kept, centred)."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter

    from .map_scene import MapScene

    assert isinstance(scene, MapScene)
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#FFFFFF"))
    source = scene.sceneRect()
    scale = min(width / source.width(), height / source.height())
    w, h = source.width() * scale, source.height() * scale
    target = QRectF((width - w) / 2, (height - h) / 2, w, h)
    hover = scene.hover_item.isVisible()
    scene.hover_item.setVisible(False)
    view_scale = scene.view_scale
    scene.set_view_scale(scale)  # units and labels sized for the picture, as for a window of its size
    direct = scene.board_item.direct
    scene.board_item.direct = True  # draw the SVG itself at the picture's resolution
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, target, source, Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    scene.board_item.direct = direct
    scene.set_view_scale(view_scale)
    scene.hover_item.setVisible(hover)
    return image


def unrevealed_in(table: object, phase: str) -> bool:
    """Whether a save's current orders (for ``phase``) are unrevealed: the save holds table data
    (a table game or a phone host's game) not played openly, and its turn for this phase has not
    been revealed."""
    if not isinstance(table, dict) or not table:
        return False  # a plain board's save: nothing is sealed
    from ...table.state import TableState

    state = TableState.from_table(table)
    saved_turn = state.hotseat
    if state.secrecy is False and not state.phones:
        return False  # played openly at the laptop: the table sees every order as it is written
    # any other table data (a phone host's save has no "secrecy" or "hotseat" key: its phones'
    # orders are each power's own) keeps the current phase's orders hidden until revealed
    revealed = saved_turn is not None and saved_turn.phase == phase and saved_turn.stage == "revealed"
    return not revealed


def _read_game(text: str) -> tuple[Any, Any]:
    from ...io.savefile import SaveFileError, loads

    try:
        return loads(text)
    except SaveFileError as exc:
        raise RenderError(f"not a readable saved game: {exc}") from exc


def _game_index(game: Any, phase: int | None) -> int:
    phases = len(game.history) + 1
    index = phases if phase is None else phase
    if not 1 <= index <= phases:
        raise RenderError(f"the game has {phases} phase{'s' if phases != 1 else ''} (1 to {phases}); "
                          f"there is no phase {index}", 1)
    return index


def _saved_game_picture(game: Any, table: object, index: int, results: bool, reveal: bool) -> object:
    """Phase ``index`` (from 1; one past the history is the current phase) of a loaded game."""
    return _saved_game_phase(game, table, index, results, reveal)[0]


def _saved_game_phase(game: Any, table: object, index: int, results: bool,
                      reveal: bool) -> tuple[Any, tuple[Any, ...] | None]:
    """Phase ``index`` of a loaded game: its picture, and with ``results`` every result of its
    adjudication (what the explanations read; None: not adjudicated)."""
    from .map_scene import current_picture, orders_picture, results_picture

    if index <= len(game.history):
        entry = game.history[index - 1]
        if results:
            return results_picture(entry), tuple(entry.results)
        return current_picture(entry.state, entry.orders), None
    orders = game.all_orders()
    if orders and not reveal and unrevealed_in(table, game.state.phase.short):
        if results:
            raise RenderError(f"the orders of {game.state.phase.label} are not revealed yet (hot-seat secrecy): "
                              "add --reveal to adjudicate and draw them", 1)
        print(f"diplomacy-desktop: {len(orders)} unrevealed order{'s' if len(orders) != 1 else ''} of "
              f"{game.state.phase.label} not drawn (hot-seat secrecy; add --reveal to draw them)", file=sys.stderr)
        orders = []
    if results and orders:
        out = adjudicate_phase(game.state, orders, game.rules)
        return orders_picture(game.state, orders, out.results, out.after), tuple(out.results)
    return current_picture(game.state, orders), None


def _picture_from_saved_game(text: str, phase: int | None, results: bool, reveal: bool = False) -> object:
    game, table = _read_game(text)
    return _saved_game_picture(game, table, _game_index(game, phase), results, reveal)


def _read_cases(text: str, board: Board) -> list[Any]:
    from ...io.scenario import CaseError, ScenarioError, read_scenarios

    try:
        items = read_scenarios(text, board)
    except ScenarioError as exc:
        raise RenderError(f"not a readable scenario file: {exc}") from exc
    if not items:
        raise RenderError("no CASE found: this is neither a scenario file nor a saved game")
    if all(isinstance(i, CaseError) for i in items):
        first = items[0]
        assert isinstance(first, CaseError)
        raise RenderError(f"neither a scenario file nor a saved game: {first.message}")
    return list(items)


def _case_state(items: list[Any], phase: int | None, board: Board) -> tuple[Any, Any]:
    """The case (``phase``-th, from 1; default the first) and its position.  Raises RenderError."""
    from ...io.scenario import CaseError, ScenarioError, scenario_state

    index = 1 if phase is None else phase
    if not 1 <= index <= len(items):
        raise RenderError(f"the file has {len(items)} case{'s' if len(items) != 1 else ''}; there is no case "
                          f"{index}", 1)
    item = items[index - 1]
    if isinstance(item, CaseError):
        raise RenderError(f"case {item.name} cannot be read: {item.message}")
    try:
        return item, scenario_state(item, board)
    except ScenarioError as exc:
        raise RenderError(f"case {item.name} cannot be set up: {exc}") from exc


def _case_picture(item: Any, state: Any, results: bool, rules: RuleSet) -> object:
    return _case_phase(item, state, results, rules)[0]


def _case_phase(item: Any, state: Any, results: bool, rules: RuleSet) -> tuple[Any, tuple[Any, ...] | None]:
    """A case's picture, and with ``results`` every result of its adjudication (None: not adjudicated)."""
    from ...io.notation import parse_order
    from .map_scene import orders_picture

    orders: list[Order] = []
    for line in item.orders:
        try:
            orders.append(parse_order(line.text, line.power, state, case_file=True))
        except OrderError as exc:
            print(f"diplomacy-desktop: case {item.name}, line {line.line}: {exc} (not drawn)", file=sys.stderr)
    if results:
        out = adjudicate_phase(state, orders, rules)
        return orders_picture(state, orders, out.results, out.after), tuple(out.results)
    return orders_picture(state, orders), None


def _picture_from_scenario(text: str, board: Board, phase: int | None, results: bool, rules: RuleSet) -> object:
    item, state = _case_state(_read_cases(text, board), phase, board)
    return _case_picture(item, state, results, rules)


def _read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RenderError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RenderError(f"{path.name} is not a text file (neither a scenario nor a saved game)") from None


def _is_saved_game(text: str) -> bool:
    return text.lstrip().startswith("{")


def read_pages(path: Path, phase: int | None, results: bool, rules: RuleSet, *, reveal: bool = False,
               all_phases: bool = False) -> list[Any]:
    """The export pages ``render`` draws for ``path``: one (the phase or case asked for), or with
    ``all_phases`` every phase of a saved game (the current one last, its unrevealed hot-seat
    orders left out unless ``reveal``) or every case of a scenario file.  Raises RenderError."""
    from ...io.boardfile import load_board
    from ...io.scenario import CaseError
    from .export import page_for

    text = _read_text(path)
    board = load_board("standard")
    name = path.stem
    if _is_saved_game(text):
        game, table = _read_game(text)
        numbers = [_game_index(game, phase)] if not all_phases else list(range(1, len(game.history) + 2))
        return [page_for(picture, game=name, adjudication=adjudication)
                for picture, adjudication in (_saved_game_phase(game, table, i, results, reveal) for i in numbers)]
    items = _read_cases(text, board)
    cases: list[int | None] = [phase] if not all_phases \
        else [i + 1 for i, it in enumerate(items) if not isinstance(it, CaseError)]
    if all_phases:
        for it in items:
            if isinstance(it, CaseError):
                print(f"diplomacy-desktop: case {it.name} cannot be read: {it.message} (no page)", file=sys.stderr)
    pages = []
    for number in cases:
        item, state = _case_state(items, number, board)
        picture, adjudication = _case_phase(item, state, results, rules)
        pages.append(page_for(picture, f"Case {item.name}", game=name, adjudication=adjudication))
    return pages


def read_state(path: Path, phase: int | None) -> Any:
    """The position of a saved game's phase (default the current one) or of a scenario's case
    (default the first): what order sheets are printed for.  Raises RenderError."""
    from ...io.boardfile import load_board

    text = _read_text(path)
    if _is_saved_game(text):
        game, _table = _read_game(text)
        index = _game_index(game, phase)
        return game.history[index - 1].state if index <= len(game.history) else game.state
    board = load_board("standard")
    return _case_state(_read_cases(text, board), phase, board)[1]


def read_picture(path: Path, phase: int | None, results: bool, rules: RuleSet, *, reveal: bool = False) -> object:
    """The ``BoardPicture`` that ``render`` draws for ``path``.  Raises RenderError."""
    from ...io.boardfile import load_board

    text = _read_text(path)
    if _is_saved_game(text):
        return _picture_from_saved_game(text, phase, results, reveal)
    return _picture_from_scenario(text, load_board("standard"), phase, results, rules)


def picture_scene(picture: object) -> object:
    """A ``MapScene`` (no window) showing ``picture``.  Raises RenderError."""
    from ...io.boardfile import load_board

    board = load_board("standard")
    _ensure_app()
    from ...resources import map_file
    from .map_points import DeferredGeometry
    from .map_scene import MapScene

    svg = map_file(board.name, f"{board.name}.svg")
    try:
        # anchors and centres are all a picture needs: no hit-testing shapes
        geometry = DeferredGeometry(svg, board.locations(), board.centres)
        scene = MapScene(geometry, svg, sharpen=False)
    except ValueError as exc:
        raise RenderError(f"the map cannot be drawn: {exc}") from exc
    scene.show_picture(picture)  # type: ignore[arg-type]
    return scene


def render_file(path: Path, output: Path, size: tuple[int, int], phase: int | None, results: bool,
                rules: RuleSet, *, reveal: bool = False, all_phases: bool = False, map_only: bool = False,
                order_sheets: bool = False, explain: bool = False, paper: str | None = None,
                orientation: str = "auto") -> str:
    """Draw ``path`` into ``output`` (PNG, SVG or PDF by its extension); returns what was written
    ("1600x1200", "12 pages").  A PDF is on ``paper`` (A4 or Letter; default the locale's) in
    ``orientation``; with ``explain`` (a PDF only; it adjudicates, as ``results``) every result
    is explained after its map.  Raises RenderError."""
    from ...io.output import OutputError, check_output
    from .export import (ExportError, PdfOptions, default_paper, encode_png, export_pages, format_of,
                         order_sheets_pdf, write_file)
    from .export import order_sheets as sheets_for

    try:
        fmt = format_of(output)
    except ExportError as exc:
        raise RenderError(str(exc)) from None
    if (explain or paper is not None or orientation != "auto") and (fmt != "pdf" or order_sheets or map_only):
        what = "--explain" if explain else "--paper" if paper is not None else "--orientation"
        raise RenderError(f"{what} lays out a PDF page: write a .pdf (not with --order-sheets or --map-only)")
    try:
        options = PdfOptions(paper or default_paper(), orientation, explain)
    except ExportError as exc:
        raise RenderError(str(exc)) from None
    results = results or explain
    try:
        check_output(output)  # a device, FIFO or folder: refused before anything is drawn
    except OutputError as exc:
        raise RenderError(str(exc), 1) from None
    if (all_phases or order_sheets) and fmt != "pdf":
        what = "--all-phases" if all_phases else "--order-sheets"
        raise RenderError(f"{what} makes several pages: write a .pdf, not {output.name}")
    if map_only and (fmt != "png" or all_phases or order_sheets):
        raise RenderError("--map-only draws one PNG picture")
    try:
        if order_sheets:
            _ensure_app()
            sheets = sheets_for(read_state(path, phase))
            write_file(output, order_sheets_pdf(sheets))
            return f"{len(sheets)} page{'s' if len(sheets) != 1 else ''}"
        if map_only:
            scene = picture_scene(read_picture(path, phase, results, rules, reveal=reveal))
            write_file(output, encode_png(render_scene(scene, *size)))  # type: ignore[arg-type]
            return f"{size[0]}x{size[1]}"
        pages = read_pages(path, phase, results, rules, reveal=reveal, all_phases=all_phases)
        scene = picture_scene(pages[0].picture)
        written = export_pages(scene, pages, output, size, options)  # type: ignore[arg-type]
    except ExportError as exc:
        raise RenderError(str(exc), 1) from None
    if fmt == "pdf":
        return f"{written} page{'s' if written != 1 else ''}"
    return f"{size[0]}x{size[1]}"


def render_command(args: argparse.Namespace) -> int:
    try:
        size = parse_size(str(getattr(args, "size", "1600x1200")))
        rules = RuleSet.for_edition(str(getattr(args, "rules", "classic")))
        phase = getattr(args, "phase", None)
        if phase is not None and phase < 1:
            raise RenderError("--phase counts from 1")
        written = render_file(Path(args.file), Path(args.output), size, phase, bool(args.results), rules,
                              reveal=bool(getattr(args, "reveal", False)),
                              all_phases=bool(getattr(args, "all_phases", False)),
                              map_only=bool(getattr(args, "map_only", False)),
                              order_sheets=bool(getattr(args, "order_sheets", False)),
                              explain=bool(getattr(args, "explain", False)), paper=getattr(args, "paper", None),
                              orientation=str(getattr(args, "orientation", "auto")))
    except RenderError as exc:
        return fail(str(exc), exc.code)
    except ValueError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(str(exc), 1)
    from ...io.output import is_stdout

    if is_stdout(args.output):  # the picture is the output: the note goes beside it
        print(f"wrote the standard output ({written})", file=sys.stderr)
        return 0
    try:
        sys.stdout.write(f"wrote {args.output} ({written})\n")
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    except OSError as exc:  # the picture is there; only the note about it could not be printed
        print(f"diplomacy-desktop: wrote {args.output}, but cannot print to the output: {exc.strerror or exc}",
              file=sys.stderr)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
