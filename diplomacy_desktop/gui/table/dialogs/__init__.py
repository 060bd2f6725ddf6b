"""The table's dialogs, one file each: ``new_game.py`` (``NewGameDialog``, which returns
``TableSettings``), ``clock_settings.py`` (``ClockSettingsDialog``), ``draw_vote.py``
(``DrawVoteDialog``) and ``game_over.py`` (``GameOverDialog``).

The names below are re-exported so that code and tests written against the old one-file
``gui.table.dialogs`` keep importing from here.
"""

from __future__ import annotations

from ....table.draw import DrawVote, DrawVoteError
from ....table.settings import TableSettings
from .clock_settings import ClockSettingsBox, ClockSettingsDialog
from .draw_vote import DrawVoteDialog
from .game_over import GameOverDialog, count_line, end_headline, standings
from .new_game import EDITIONS, NO_PINS_TEXT, NewGameDialog

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
