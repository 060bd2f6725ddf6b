"""``diplomacy-desktop render``: draw a scenario or a saved game to a PNG, without a window.

    diplomacy-desktop render FILE -o OUT.png [--size WxH] [--phase N] [--results] [--reveal]

FILE is a DATC-format scenario file (``--phase N`` picks its N-th case, default the first) or
a saved game (``--phase N`` picks its N-th phase, default the current one).  The picture is
drawn by the same :class:`MapScene` as the window: units, centre ownership, the orders as
arrows, and with ``--results`` what the adjudication made of them (failed orders dashed and
crossed, dislodged units drawn beside their space, bounces starred).

A hot-seat save keeps the orders of the phase being written in the clear, but they are not
revealed yet (sealed, or being written): ``render`` draws none of them unless ``--reveal`` is
given, and says so on stderr.  Earlier, adjudicated phases are public and always drawn.

Exit codes: 0 drawn; 1 the file has no such case or phase, or the picture cannot be written;
2 the file or the arguments cannot be read.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ...engine.board import Board
from ...engine.errors import OrderError
from ...engine.orders import Order
from ...engine.rules import RuleSet
from ...engine.turns import adjudicate_phase


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
    """Whether a save's current orders (for ``phase``) are unrevealed hot-seat orders: the game
    is played with secrecy on and its turn for this phase has not been revealed."""
    if not isinstance(table, dict):
        return False
    turn = table.get("hotseat")
    if "secrecy" not in table and turn is None:
        return False  # not a table game: nothing is sealed
    if not table.get("secrecy", True):
        return False  # played openly: the table sees every order as it is written
    revealed = isinstance(turn, dict) and turn.get("phase") == phase and turn.get("stage") == "revealed"
    return not revealed


def _picture_from_saved_game(text: str, phase: int | None, results: bool, reveal: bool = False) -> object:
    from ...io.savefile import SaveFileError, loads
    from .map_scene import current_picture, orders_picture, results_picture

    try:
        game, table = loads(text)
    except SaveFileError as exc:
        raise RenderError(f"not a readable saved game: {exc}") from exc
    phases = len(game.history) + 1
    index = phases if phase is None else phase
    if not 1 <= index <= phases:
        raise RenderError(f"the game has {phases} phase{'s' if phases != 1 else ''} (1 to {phases}); "
                          f"there is no phase {index}", 1)
    if index <= len(game.history):
        entry = game.history[index - 1]
        if results:
            return results_picture(entry)
        return current_picture(entry.state, entry.orders)
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
        return orders_picture(game.state, orders, out.results, out.after)
    return current_picture(game.state, orders)


def _picture_from_scenario(text: str, board: Board, phase: int | None, results: bool, rules: RuleSet) -> object:
    from ...io.notation import parse_order
    from ...io.scenario import CaseError, ScenarioError, read_scenarios, scenario_state
    from .map_scene import orders_picture

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
    index = 1 if phase is None else phase
    if not 1 <= index <= len(items):
        raise RenderError(f"the file has {len(items)} case{'s' if len(items) != 1 else ''}; there is no case "
                          f"{index}", 1)
    item = items[index - 1]
    if isinstance(item, CaseError):
        raise RenderError(f"case {item.name} cannot be read: {item.message}")
    try:
        state = scenario_state(item, board)
    except ScenarioError as exc:
        raise RenderError(f"case {item.name} cannot be set up: {exc}") from exc
    orders: list[Order] = []
    for line in item.orders:
        try:
            orders.append(parse_order(line.text, line.power, state, case_file=True))
        except OrderError as exc:
            print(f"diplomacy-desktop: case {item.name}, line {line.line}: {exc} (not drawn)", file=sys.stderr)
    if results:
        out = adjudicate_phase(state, orders, rules)
        return orders_picture(state, orders, out.results, out.after)
    return orders_picture(state, orders)


def read_picture(path: Path, phase: int | None, results: bool, rules: RuleSet, *, reveal: bool = False) -> object:
    """The ``BoardPicture`` that ``render`` draws for ``path``.  Raises RenderError."""
    from ...io.boardfile import load_board

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RenderError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RenderError(f"{path.name} is not a text file (neither a scenario nor a saved game)") from None
    board = load_board("standard")
    if text.lstrip().startswith("{"):
        picture = _picture_from_saved_game(text, phase, results, reveal)
    else:
        picture = _picture_from_scenario(text, board, phase, results, rules)
    return picture


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
                rules: RuleSet, *, reveal: bool = False) -> tuple[int, int]:
    """Draw ``path`` into ``output``; returns the picture's size.  Raises RenderError."""
    scene = picture_scene(read_picture(path, phase, results, rules, reveal=reveal))
    image = render_scene(scene, *size)
    write_png(image, output)
    return size


def write_png(image: object, output: Path) -> None:
    """Encode ``image`` as PNG and put it at ``output`` whole or not at all: a temporary file
    beside it, then a rename, so a full disk never leaves a truncated picture there."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    from ...io.savefile import write_atomic

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buffer, "PNG")  # type: ignore[attr-defined]
    buffer.close()
    if not ok:
        raise RenderError(f"cannot write {output}: the picture could not be encoded", 1)
    try:
        write_atomic(output, bytes(data.data()))
    except OSError as exc:
        raise RenderError(f"cannot write {output}: {exc.strerror or exc}", 1) from exc


def render_command(args: argparse.Namespace) -> int:
    try:
        size = parse_size(str(getattr(args, "size", "1600x1200")))
        rules = RuleSet.for_edition(str(getattr(args, "rules", "classic")))
        phase = getattr(args, "phase", None)
        if phase is not None and phase < 1:
            raise RenderError("--phase counts from 1")
        w, h = render_file(Path(args.file), Path(args.output), size, phase, bool(args.results), rules,
                           reveal=bool(getattr(args, "reveal", False)))
    except RenderError as exc:
        print(f"diplomacy-desktop: {exc}", file=sys.stderr)
        return exc.code
    except ValueError as exc:
        print(f"diplomacy-desktop: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"diplomacy-desktop: {exc}", file=sys.stderr)
        return 1
    try:
        sys.stdout.write(f"wrote {args.output} ({w}x{h})\n")
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    except OSError as exc:  # the picture is there; only the note about it could not be printed
        print(f"diplomacy-desktop: wrote {args.output}, but cannot print to the output: {exc.strerror or exc}",
              file=sys.stderr)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    return 0
