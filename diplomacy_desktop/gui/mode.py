"""``WindowMode``: how the window is being used (a plain board, the table game, the sandbox).

The window hosts the board and the panels; the mode decides who may order what, what the curtain
hides, what the Phase menu offers and what the window's game actions mean.  The window calls the
mode's hooks — every Game and Phase action, the results panel's "undo adjudication" and the end of
the game go through ``window.mode`` — so a mode never reconnects the window's signals.  The plain
mode, this class, does what the window does by itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from ..engine.game import GameEnd

if TYPE_CHECKING:
    from .shell import WindowShell


class WindowMode(QObject):
    """The plain board: any power may order, nothing is hidden, the window's own actions."""

    #: the mode's name for the window title and menus ("" for the plain board)
    title = ""
    #: whether a secret save is opened only whole, with its passphrase (the table game: without
    #: it the seals could not be honoured); otherwise its public board opens without its name
    whole_secret_games = False

    def __init__(self, window: WindowShell) -> None:
        super().__init__(window)
        self.window = window

    # -- who may order what, and what is hidden ------------------------------------------------

    def may_order(self, power: str) -> bool:
        """May orders be given for ``power`` at all in this mode (the controller asks it first;
        its own secrecy switches and the phase being looked at still apply)."""
        return True

    def covered(self) -> bool:
        """Whether the curtain is up: the board's orders and the panels are hidden, and nothing
        that would show them (typing an order, a panel) may come up."""
        return False

    # -- the Phase menu ------------------------------------------------------------------------

    def phase_actions(self) -> list[QAction]:
        """What the mode adds to the Phase menu, after the window's own entries."""
        return []

    # -- the window's game actions -------------------------------------------------------------

    def new_game(self) -> None:
        self.window.new_game()

    def open_dialog(self) -> None:
        self.window.open_dialog()

    def save(self) -> None:
        self.window.save()

    def save_as(self) -> None:
        self.window.save_as()

    def export_picture(self) -> None:
        self.window.export_picture()

    def adjudicate(self) -> None:
        self.window.adjudicate()

    def undo_adjudication(self) -> None:
        self.window.undo_adjudication()

    def game_ended(self, end: GameEnd) -> None:
        self.window.show_game_over(end)

    # -- coming and going ----------------------------------------------------------------------

    def detach(self) -> None:
        """Called when another mode takes the window: take down what this mode put up."""
