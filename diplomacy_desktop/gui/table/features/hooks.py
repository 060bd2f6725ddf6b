"""The table game's answers to the window's hooks (``gui.mode.WindowMode``): what the curtain
covers, Save / Save As / Export behind the curtain and as host actions while a phase is secret,
Adjudicate through the hot-seat reveal, undoing an adjudication and replacing a game in progress
as host actions, New Game; and the game files (recent files, the autosave at start-up).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog

from ....table.changes import TableChange
from ....engine.game import GameEnd
from ....io.pins import is_pin_hash
from ....io.savefile import SaveFileError
from ....io.vault import Vault
from ....table.changes import LAPTOP
from ....table.hotseat import READY, REVEALED
from ....table.notes import notes_allowed
from ....table.state import TableState
from ..persistence import open_game_file, resume_box, resume_from_autosave
from ....table.autosave import AutosaveInfo, DamagedAutosave
from .base import TableModeBase
from .hosting import PHONES_WERE_ON
from ...widgets import answer_nothing_when_lost, open_kept

if TYPE_CHECKING:
    from ....table.settings import TableSettings
    from ..dialogs.new_game import NewGameDialog
    from ..practice import PracticePlay

FIRST_START_KEY = "table/new_game_offered"


def _default_settings() -> TableSettings:
    """A new table's settings (the settings' module is loaded with the first New Game, not at the
    window's start)."""
    from ....table.settings import TableSettings

    return TableSettings()


class TableHooks(TableModeBase):
    """The window's hooks (``WindowMode``) answered the table's way, and the game files."""

    # -- the window's hooks (WindowMode) ------------------------------------------------------------

    def covered(self) -> bool:
        return self.flow.curtain_up

    def phase_actions(self) -> list[QAction]:
        return [self.act_write, self.act_seal, self.act_reveal]

    def save(self) -> None:
        # a file dialog may be the desktop's own (not a Qt dialog we see appear): curtain first
        if self.controller.path is None:
            self.flow.step_away()
            if not self._file_out_allowed("Save the game"):
                return
        self.window.save()

    def save_as(self) -> None:
        self.flow.step_away()
        if self._file_out_allowed("Save the game as"):
            self.window.save_as()

    def export_picture(self) -> None:
        self.flow.step_away()
        if self._file_out_allowed("Export or print"):
            self.window.export_picture()

    def phase_is_secret(self) -> bool:
        """Whether this phase has orders (or declarations) nobody may see yet."""
        s = self.flow.session
        c = self.controller
        return (self.flow.enabled and not c.game.is_over and s.phase == c.state.phase.short
                and s.stage != REVEALED)

    def _file_out_allowed(self, title: str) -> bool:
        """Save As, Export and Print while a phase is secret are host actions (issue 20): a file
        written anywhere could carry the game away (the save holds PIN hashes and phone links)."""
        if not self.phase_is_secret():
            return True
        return self.flow.ask_host(title, f"{title}? This phase is secret: the file is written where you "
                                         "choose. This is a host action.")

    def game_ended(self, end: GameEnd) -> None:
        self.show_game_over(end)

    # -- the table's settings follow the game ------------------------------------------------------

    @property
    def table_settings(self) -> TableSettings:
        from ....table.settings import TableSettings  # (with the first New Game: not at the window's start)

        g = self.controller.game
        return TableSettings.from_table(self.controller.table, edition=g.rules.edition.value, end_year=g.end_year,
                                        formal=g.formal)

    @property
    def practice_play(self) -> PracticePlay:
        """Plays a practice game (``gui/table/practice.py``, loaded when first needed)."""
        play = self._practice_play
        if play is None:
            from ..practice import PracticePlay

            play = self._practice_play = PracticePlay(self)  # type: ignore[arg-type]
        return play

    @property
    def secrecy(self) -> bool:
        return self.controller.table.secrecy is not False

    def _sync_from_table(self) -> None:
        """A game was opened, resumed or started: clock, secrecy and turn as its table says."""
        self._show_relations_panel()
        self._restore_clock()
        self.flow.enabled = self.secrecy
        self.act_secrecy.setChecked(self.secrecy)
        self.act_notes.setChecked(notes_allowed(self.controller.table))
        self.flow.restore()
        self._update_actions()

    def _on_changed(self, record: TableChange) -> None:
        c = self.controller
        if record.game:
            if self.phones is not None and self.phones.game is not c.game:
                self.turn_off()  # another game: its phones are not this one's
                if self.phones_dialog is not None:
                    self.phones_dialog.reject()
            if c.table.hosting_port is not None:  # said after what the opening says
                QTimer.singleShot(0, self.window, lambda: self.window.statusBar().showMessage(PHONES_WERE_ON, 60000))
            self._sync_from_table()
            if c.path is not None:
                self.recent.add(c.path)
                self.refresh_recent_menu()
        elif record.phase:
            self.clock.set_phase(c.state.phase)
            self.flow.begin_phase()
        self._update_actions()

    def _on_saved(self, path: str) -> None:
        self.recent.add(path)
        self.refresh_recent_menu()

    # -- the game actions: Adjudicate, undo, New, Open ----------------------------------------------

    def adjudicate(self) -> None:
        """Ctrl+Return: with secrecy, reveal (all sealed) or the host's forced reveal; else the
        window's own adjudication."""
        if self.controller.game.is_over:
            self.window.adjudicate()  # says the game is over
            return
        if self.flow.practice is not None:  # the computer writes now, then the phase is adjudicated
            self.practice_play.adjudicate()
            return
        if not self.flow.enabled and self.needs_declarations() and self.flow.confirm(
                self.window, "Declarations first?",
                "This phase's declarations (Formal Diplomacy) have not been made. Make them now, before "
                "adjudicating? (No: adjudicate with the relations as they are.)"):
            self.declare_in_the_open()
        elif not self.flow.enabled:  # an open table: its adjudication is its reveal (the board matches?)
            if self.flow.ready_to_reveal():
                self.window.adjudicate()
        elif self.flow.session.stage == REVEALED:
            self.window.adjudicate()
        elif self.flow.session.stage == READY:
            self.flow.reveal()
        else:
            self.flow.force_reveal()

    def game_in_progress(self) -> bool:
        c = self.controller
        return not c.game.is_over and bool(c.game.history or c.game.all_orders())

    def may_end_game(self, title: str) -> bool:
        """Replacing a game in progress ends it: a host action."""
        if not self.game_in_progress():
            return True
        phase = self.controller.state.phase.label
        return self.flow.ask_host(title, f"{title}? The game in progress ({phase}) ends here; "
                                         "save it first if the table wants to come back to it.")

    def new_game(self) -> None:
        """Ctrl+N: the host's say, save?, then the New Game settings (standard ones filled in)."""
        self.flow.step_away()
        if not self.may_end_game("Start a new game"):
            return
        if not self.window.maybe_save():
            return
        self.offer_new_game()

    def open_dialog(self) -> None:
        """Ctrl+O: the host's say when a game is in progress, then the window's Open dialog."""
        self.flow.step_away()
        if self.may_end_game("Open another game"):
            self.window.open_dialog()

    def undo_adjudication(self) -> bool:  # type: ignore[override]  # tells whether it was undone
        """Take back the last adjudication: a host action."""
        c = self.controller
        last = c.last_entry
        if last is None:
            self.window.statusBar().showMessage("Nothing has been adjudicated yet.", 4000)
            return False
        self.flow.step_away()
        if not self.flow.ask_host("Undo the last adjudication",
                                  f"Take back the adjudication of {last.state.phase.label}? "
                                  "Its orders come back and can be changed."):
            return False
        if self.flow.enabled and not self.flow.confirm(
                self.window, "Reopen all?",
                f"Reopen every power's orders of {last.state.phase.label}? Yes: reopen all, and every power "
                "writes again. No (the default): each power's orders come back sealed as they were, ready to be "
                "revealed again; a power may still reopen its own."):
            self.flow.keep_seals_on_take_back()
        return c.undo_adjudication() is not None

    def offer_new_game(self, initial: TableSettings | None = None) -> NewGameDialog:
        """Show the New Game dialog without blocking; "Start game" starts it."""
        from ..dialogs.new_game import PRACTICE_CHOSEN, NewGameDialog  # loaded when first offered

        from ....table.settings import TableSettings

        board = self.controller.board
        if initial is None:
            current = self.table_settings  # the same people, clock and secrecy; never the PINs
            initial = TableSettings(current.powers, dict(current.players), current.edition, None, current.clock,
                                    current.secrecy, formal=current.formal, short_game_by=current.short_game_by,
                                    notes=current.notes, computer=dict(current.computer))
        dialog = NewGameDialog(board, initial, self.window)

        def finished(result: int) -> None:
            if result == PRACTICE_CHOSEN:  # "Practice: you against the computer…"
                self.practice_play.offer()
            elif result == QDialog.DialogCode.Accepted:
                self.start_new_game(dialog.settings())
                if dialog.board_call is not None:  # the tournament's player ids (a board call)
                    self.controller.service.set_board_call(dialog.board_call.player_ids, dialog.board_call.details,
                                                           initiator=LAPTOP)

        open_kept(self, "new_game_dialog", dialog, finished)
        return dialog

    def start_new_game(self, settings: TableSettings | None = None) -> None:
        from ....table.settings import TableSettings

        s = settings if settings is not None else TableSettings()
        self.controller.new_game(s.edition, s.end_year, table=s.to_state(), formal=s.formal,
                                 short_game_by=s.short_game_by)
        if s.secrecy and s.passphrase:  # the unrevealed part of every save is written encrypted
            self.controller.vault = Vault.create(s.passphrase)
        self.window.view.fit_to_window()
        self.autosaver.save_now()

    def start_practice(self, power: str, level: str) -> None:
        """A practice game: the person plays ``power``, the computer the six others at ``level``."""
        from ....table.computer import LEVEL_WORDS
        from ....table.practice import practice_settings

        seed = secrets.randbelow(2**31 - 1) + 1  # every practice game plays differently
        self.start_new_game(practice_settings(self.controller.board.power_ids, power, level, seed))
        c = self.controller
        # (the strip says who plays what for the whole game, and F8 and Ctrl+H: this is said once,
        # not as a notice, short enough to be read whole beside the strip on a laptop)
        self.window.statusBar().showMessage(
            f"Practice: you play {c.power_name(power)} against the computer ({LEVEL_WORDS[level]}).", 30000)

    # -- files -------------------------------------------------------------------------------------

    def refresh_recent_menu(self) -> None:
        self.recent.fill_menu(self.window.recent_menu, self.open_recent)

    def open_recent(self, path: object) -> bool:
        self.flow.step_away()
        if not self.may_end_game("Open another game"):
            return False
        if not self.window.maybe_save():
            return False
        ok = open_game_file(self.controller, str(path), parent=self.window, message=self.message,
                            recent=self.recent, prompt=self.passphrase_prompt)
        self.refresh_recent_menu()
        if ok:
            self.window.view.fit_to_window()
        return ok

    def check_autosave(self) -> DamagedAutosave | None:
        """At start-up, before anything is autosaved: remove what a kill mid-write left behind,
        and keep an autosave that cannot be read aside (renamed, never overwritten), telling
        the table where it is.  The app always starts."""
        autosave = self.autosaver.autosave
        autosave.clean_temp_files()
        damaged = autosave.set_aside_if_damaged()
        if damaged is not None:
            self.message(self.window, "The autosave is damaged", damaged.text)
        return damaged

    def first_start(self) -> None:
        """At start-up (no file given): offer to resume an unfinished game; on the very first
        start, offer the New Game settings (Enter starts the standard game).  Never blocks."""
        info = self.autosaver.autosave.info()
        if info is not None:
            self.offer_resume(info)
            return
        if not self.settings.value(FIRST_START_KEY, False, type=bool):
            self.settings.setValue(FIRST_START_KEY, True)
            QTimer.singleShot(0, lambda: self.offer_new_game(_default_settings()))

    def open_at_start(self, path: str) -> bool:
        """The app was started with a game file: an unfinished game in the autosave is kept aside
        first (the file's game is autosaved from now on, and would overwrite it), and the table
        is told where; then the file is opened."""
        if self.autosaver.autosave.info() is not None:
            self.autosaver.enabled = False
            try:
                kept = self.autosaver.autosave.set_aside_unfinished()
            finally:
                self.autosaver.enabled = True
            if kept is not None and kept.trouble:  # it stays where it is: nothing overwrites it
                self.autosaver.enabled = False
                self.message(self.window, "The unfinished game could not be kept aside",
                             f"{kept.trouble}. It is still at {kept.kept}; this window does not autosave "
                             "until the app is started again without a file.")
            elif kept is not None:
                self.message(self.window, "The unfinished game is kept aside",
                             f"A game was left unfinished: it was kept as {kept.kept.name} in {kept.kept.parent} "
                             "and will not be overwritten.")
        return self.window.open_file(path)

    def offer_resume(self, info: AutosaveInfo) -> None:
        """The offer to resume the unfinished game.  Nothing is written to the autosave until the
        table answers it; Escape answers nothing; the question comes back until the game is
        resumed (a secret one only with its passphrase) or the host set it aside (New game)."""
        box = resume_box(self.window, info)
        answer_nothing_when_lost(box)  # its window destroyed from outside: the question comes back
        self.resume_offer = box
        self.autosaver.enabled = False  # the unfinished game stays on disk until the table answers

        def done(_result: int) -> None:
            clicked = box.clickedButton()
            self.resume_offer = None
            box.deleteLater()
            answered = False
            if clicked is box.resume_button:  # type: ignore[attr-defined]
                answered = resume_from_autosave(self.controller, self.autosaver.autosave, parent=self.window,
                                                message=self.message, prompt=self.passphrase_prompt)
                if answered:
                    self.window.view.fit_to_window()
            elif clicked is box.new_game_button:  # type: ignore[attr-defined]
                answered = self.set_unfinished_game_aside()
            if answered:
                self.autosaver.enabled = True
            else:
                self.offer_resume(info)  # the unfinished game is untouched: the question stays

        box.finished.connect(done)
        box.open()

    def set_unfinished_game_aside(self) -> bool:
        """New game at the offer to resume: a host action (the unfinished game's host PIN when it
        has one); the unfinished game is kept aside whole, never overwritten nor deleted.
        Whether it was (and the autosave is free for the new game)."""
        autosave = self.autosaver.autosave
        try:
            stored = TableState.from_table(autosave.open().table).host_pin
        except SaveFileError:
            stored = None
        title = "Start a new game"
        text = ("Start a new game instead of resuming the unfinished one? It is kept aside in the data "
                "folder, whole and encrypted as it is, and never overwritten.")
        if not self.flow.ask_host_of(stored if is_pin_hash(stored) else None, title, text):
            return False
        kept = autosave.set_aside_unfinished()
        if kept is not None and kept.trouble:
            self.message(self.window, "The unfinished game could not be kept aside",
                         f"{kept.trouble}. It is still at {kept.kept}: resume it, or move it away first.")
            return False
        if kept is not None:
            self.message(self.window, "The unfinished game is kept aside",
                         f"The unfinished game was kept as {kept.kept.name} in {kept.kept.parent}; "
                         "it will not be overwritten. The new game is autosaved as usual.")
        return True
