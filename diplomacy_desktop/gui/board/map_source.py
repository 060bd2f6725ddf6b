"""Where the window's map comes from, and what it shows: the board's SVG, its geometry (now or
deferred until first needed), and ``picture_for``, the ``BoardPicture`` of what the controller
shows now (the viewed phase's results, or the current phase with the orders that may be seen).

Kept out of ``main_window.py`` so that the rooms that draw the map (the step-through, the
sandbox, the projector) build the same picture without importing the window.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...resources import map_file
from .map_points import DeferredGeometry
from .map_scene import BoardPicture, current_picture, results_picture

if TYPE_CHECKING:
    from ...mapdata import MapGeometry
    from ..controller import GameController


def map_svg(controller: GameController) -> Path:
    name = controller.board.name
    return map_file(name, f"{name}.svg")


def board_ids(controller: GameController) -> list[str]:
    """Every space and split coast of the board: each must have a shape and an anchor on the map."""
    board = controller.board
    return list(board.spaces) + [loc for loc in board.locations() if "/" in loc]


def load_geometry(controller: GameController) -> MapGeometry:
    """The full map geometry for the controller's board, checked against every space and coast."""
    from ...mapdata import MapGeometry

    return MapGeometry.load(map_svg(controller), board_ids(controller))


def deferred_geometry(controller: GameController) -> DeferredGeometry:
    """Anchors and centres now (from the SVG), shapes and hit-testing when first needed."""
    board = controller.board
    return DeferredGeometry(map_svg(controller), board.locations(), board.centres, board_ids(controller))


def picture_for(controller: GameController) -> BoardPicture:
    """What the map shows now: the viewed history entry's results, or the current phase."""
    entry = controller.viewed_entry
    if entry is not None:
        return results_picture(entry)
    orders = controller.visible_orders()
    illegal = [o for o in orders if controller.illegal_reason(o) is not None]
    return current_picture(controller.state, orders, illegal)
