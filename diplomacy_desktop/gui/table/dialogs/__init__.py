"""The table's dialogs, one file each: ``new_game.py`` (``NewGameDialog``, which returns
``TableSettings``), ``clock_settings.py`` (``ClockSettingsDialog``), ``draw_vote.py``
(``DrawVoteDialog``) and ``game_over.py`` (``GameOverDialog``).

The names below are re-exported so that code and tests written against the old one-file
``gui.table.dialogs`` keep importing from here.  They are looked up when first asked for (the
module's ``__getattr__``): importing one dialog's file does not load the others, and none is
loaded at the window's start (each is imported when it is first opened).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ....table.draw import DrawVote, DrawVoteError
    from ....table.settings import TableSettings
    from .clock_settings import ClockSettingsBox, ClockSettingsDialog
    from .draw_vote import DrawVoteDialog
    from .game_over import GameOverDialog, count_line, end_headline, standings
    from .new_game import EDITIONS, NO_PINS_TEXT, NewGameDialog

#: each re-exported name and the module (relative to this package) that holds it
_WHERE = {
    "DrawVote": "....table.draw", "DrawVoteError": "....table.draw",
    "TableSettings": "....table.settings",
    "ClockSettingsBox": ".clock_settings", "ClockSettingsDialog": ".clock_settings",
    "DrawVoteDialog": ".draw_vote",
    "GameOverDialog": ".game_over", "count_line": ".game_over", "end_headline": ".game_over",
    "standings": ".game_over",
    "EDITIONS": ".new_game", "NO_PINS_TEXT": ".new_game", "NewGameDialog": ".new_game",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(where, __name__), name)


__all__ = [
    "EDITIONS",
    "NO_PINS_TEXT",
    "ClockSettingsBox",
    "ClockSettingsDialog",
    "DrawVote",
    "DrawVoteDialog",
    "DrawVoteError",
    "GameOverDialog",
    "NewGameDialog",
    "TableSettings",
    "count_line",
    "end_headline",
    "standings",
]
