"""``TableModeBase``: what the four parts of the table game's mode share.

``TableFeatures`` (``mode.py``) is one object, the window's mode, put together from four parts,
one file each: ``hooks.py`` (the window's hooks answered the table's way, and the game files),
``actions.py`` (the Table menu, the clock, the curtain's rounds, secrecy, notes, PINs, civil
disorder), ``hosting.py`` (the phones) and ``draw.py`` (the draw vote and the game's end).  This
base declares the state they share, all of it made in ``TableFeatures.__init__``, and (for the
type checker only) the methods one part calls in another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...mode import WindowMode

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QMenu, QMessageBox, QPushButton

    from ....engine.game import GameEnd
    from ....table.settings import TableSettings
    from ...controller import GameController
    from ..clock import ClockWidget
    from ....table.clock import TimeSource
    from ..declarations import OpenDeclarationsDialog, RevealDialog
    from ..dialogs.clock_settings import ClockSettingsDialog
    from ..dialogs.draw_vote import DrawVoteDialog
    from ..dialogs.game_over import GameOverDialog
    from ..dialogs.new_game import NewGameDialog
    from ..hotseat.flow import HotSeatFlow
    from ..hotseat.seal_strip import SealStatusStrip
    from ..notes import NotesDialog
    from ..persistence import Autosaver, Message, PassphrasePrompt, RecentFiles
    from ..phones import MyPhoneDialog, PhonesDialog, PhonesLink
    from ..computer_seats import ComputerSeatsDialog
    from ..practice import PracticePlay
    from ..relations import RelationsDock
    from ..seating import CivilDisorderDialog


class TableModeBase(WindowMode):
    """The table game's mode: the state its parts share (see the module's docstring)."""

    whole_secret_games = True  # a secret save opens only with its passphrase (issue 31, finding 9)

    controller: GameController
    settings: QSettings
    message: Message
    now: TimeSource
    passphrase_prompt: PassphrasePrompt
    # the widgets it put in the window
    clock: ClockWidget
    strip: SealStatusStrip
    flow: HotSeatFlow
    relations_dock: RelationsDock
    my_pin_button: QPushButton
    autosaver: Autosaver
    recent: RecentFiles
    # its dialogs, while one is open
    disorder_dialog: CivilDisorderDialog | None
    computer_dialog: ComputerSeatsDialog | None
    game_over_dialog: GameOverDialog | None
    draw_dialog: DrawVoteDialog | None
    new_game_dialog: NewGameDialog | None
    clock_dialog: ClockSettingsDialog | None
    resume_offer: QMessageBox | None
    reveal_dialog: RevealDialog | None
    open_declarations: OpenDeclarationsDialog | None
    notes_dialog: NotesDialog | None
    my_phone_dialog: MyPhoneDialog | None
    # a practice game's play (gui/table/practice.py), made when first needed
    _practice_play: PracticePlay | None
    # the phones
    phones: PhonesLink | None
    phones_dialog: PhonesDialog | None
    phones_address: str | None
    # the Table menu (actions.py builds it)
    menu: QMenu
    act_write: QAction
    act_seal: QAction
    act_reveal: QAction
    act_declare: QAction
    act_clock: QAction
    act_minute: QAction
    act_skip: QAction
    act_round: QAction
    act_clock_settings: QAction
    act_draw: QAction
    act_disorder: QAction
    act_computer: QAction
    act_secrecy: QAction
    act_notes: QAction
    act_change_pin: QAction
    act_phones: QAction
    act_hint: QAction  # a practice game's "What would the computer do here?"
    act_practice: QAction  # Game ▸ New practice game…

    if TYPE_CHECKING:  # the methods one part calls in another (each is defined once, in its part)
        # hooks.py
        @property
        def table_settings(self) -> TableSettings: ...
        @property
        def secrecy(self) -> bool: ...
        @property
        def practice_play(self) -> PracticePlay: ...
        def start_practice(self, power: str, level: str) -> None: ...
        def may_end_game(self, title: str) -> bool: ...
        # actions.py
        def needs_declarations(self) -> bool: ...
        def declare_in_the_open(self) -> OpenDeclarationsDialog | None: ...
        def _show_relations_panel(self) -> None: ...
        def _restore_clock(self) -> None: ...
        def _update_actions(self) -> None: ...
        # hosting.py
        def show_phones(self) -> PhonesDialog: ...
        def turn_off(self) -> None: ...
        def _feed_phones_clock(self) -> None: ...
        def _close_my_phone(self) -> None: ...
        def _update_phone_button(self) -> None: ...
        # draw.py
        def propose_draw(self) -> DrawVoteDialog | None: ...
        def show_game_over(self, end: GameEnd) -> GameOverDialog: ...
