"""The tournament table: Move the pieces, the event's rules (clock presets, game end, late orders,
ballots), live scores, the board call and the board's result.

Installed beside the table game's features (:func:`install_tournament`), with a Tournament menu:

* **Move the pieces** (Ctrl+M): a panel with the piece pusher's list for the last adjudicated
  phase (``table/pieces.py``), checkable item by item, printable; "The board matches" confirms it
  (kept in the game's table as ``pieces_confirmed``), and the reveal (F8) asks for that
  confirmation first.  On the projector (F5) the panel, when open, is shown large instead of the
  results.  "Hide the map" (for a table playing on its own board): the projector and the phones
  show no map; the map stays in the host's window.
* **Event rules…**: a clock preset or the custom clock, a game end after a year or at a time of day
  (announced on the clock's bar), late orders (warning, or void: the power's units hold; recorded
  in ``table.late_orders``), and the ballot's settings.
* **Propose a ballot…**: a draw or a concession, voted in secret, laptop passed round; each
  ballot recorded in ``table.ballots`` (who proposed, what, the outcome; never who voted what).
* **Scores if the game ended now** (Ctrl+K): every scoring system (``table/scoring.py``), large
  type on the projector.
* **Import a board call…**: power, player, player id from CSV, into the game's players.
* **Board result…**: the end-of-game summary (chart by year, scores) and the files: CSV, JSON and a
  one-page PDF result sheet to sign.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QFont, QShowEvent
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QDockWidget, QFileDialog, QHBoxLayout, QLabel,
                               QListWidget, QListWidgetItem, QMenu, QMessageBox, QPushButton, QVBoxLayout,
                               QWidget)

from ...io.savefile import write_atomic
from ...table.changes import CLOCK, LAPTOP, TableChange
from ...table.parts import BoardInfoPart, text_entries
from ...table.state import TableState
from .. import override
from ..keys import add_menu_before_help, menu_action
from ..widgets import accepted, open_kept

# The event's rules, ballots, results, scores, printed pages and the tournament's dialogs
# (``tournament_dialogs.py``) are loaded when the Tournament menu is first used (or a game with an
# event's rules is opened), not at every start of the window.
if TYPE_CHECKING:
    from ...engine.board import Board
    from ...engine.game import HistoryEntry
    from ...table.event import Ballot, EventRules
    from ...table.pieces import PiecePlan
    from ...table.results import BallotRecord, BoardCall, BoardResult
    from ..shell import WindowShell
    from .dialogs.game_over import GameOverDialog
    from .dialogs.new_game import NewGameDialog
    from .features.mode import TableFeatures
    from .pieces_wall import PiecesBeside, PiecesWall
    from .tournament_dialogs import (BallotVoteDialog, BoardResultDialog, EventRulesDialog, ProposalDialog,
                                     ScoresDialog, write_result_files)

#: the names ``tournament_dialogs.py`` holds, re-exported here (imported when first asked for)
_DIALOGS = frozenset({"BallotVoteDialog", "BoardResultDialog", "EventRulesDialog", "ProposalDialog",
                      "ScoresDialog", "result_file_stem", "write_result_files"})


def __getattr__(name: str) -> Any:
    if name in _DIALOGS:
        from . import tournament_dialogs

        return getattr(tournament_dialogs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# (the table's tournament parts are TableState's ``event``, ``ballots``, ``pieces_confirmed``,
# ``late_orders``, ``hide_map``, ``player_ids`` and ``board_info``, set by the service's operations)
#: the Move-the-pieces list on the projector (points)
PROJECTOR_POINTS = 24
#: how often the event's time limit is looked at while one is set (milliseconds)
TIME_CHECK_MS = 10_000


def event_rules(table: TableState) -> EventRules:
    """The game's event rules (the defaults when none are saved, or when the saved ones are damaged)."""
    return table.event_rules()


def ballots_of(table: TableState) -> list[BallotRecord]:
    return table.ballot_records()


# -- Move the pieces ----------------------------------------------------------------------------------------


class MovePiecesDock(QDockWidget):
    """The piece pusher's list for the last adjudicated phase (or the phase being looked at)."""

    confirmed = Signal(str)  # the phase (short name) whose board was confirmed
    refreshed = Signal()  # the list was made again (the wall fits its steps again)

    def __init__(self, window: WindowShell) -> None:
        super().__init__("Move the pieces", window)
        self.setObjectName("MovePiecesDock")
        self.window_ = window
        self.controller = c = window.controller
        body = QWidget()
        col = QVBoxLayout(body)
        col.setContentsMargins(6, 6, 6, 6)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: bold;")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.list = QListWidget()
        self.list.setAccessibleName("Move the pieces, step by step")
        self.list.setWordWrap(True)
        self.progress = QLabel()
        self.status = QLabel()
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        self.print_button = QPushButton("Print / PDF\u2026")
        self.match_button = QPushButton("The board matches")
        self.match_button.setToolTip("Confirm the physical board now matches the game: the next reveal may go on")
        row.addWidget(self.print_button)
        row.addWidget(self.progress)  # "3 of 20 done" between the buttons: one more step seen on the wall
        row.addStretch(1)
        row.addWidget(self.match_button)
        for w in (self.title, self.note, self.list, self.status):
            col.addWidget(w)
        col.addLayout(row)
        self.setWidget(body)
        self.plan: PiecePlan | None = None
        self.entry: HistoryEntry | None = None
        #: the items ticked, per phase (kept while the window is open)
        self.ticked: dict[str, set[int]] = {}
        #: the panel was opened (and not closed): the projector shows it instead of the results
        self.wanted = False
        #: something changed while the list was hidden: it is made again when shown
        self._stale = False
        self.list.itemChanged.connect(self._item_changed)
        # the buttons' ``checked`` is not a path nor a question to skip: each slot is called bare
        self.match_button.clicked.connect(lambda _checked=False: self.confirm_clicked())
        self.print_button.clicked.connect(lambda _checked=False: self.print_pdf())
        #: the host's yes/no (the table's own, set by the Tournament features; a message box alone)
        self.ask: Callable[[QWidget, str, str], bool] = _ask_yes_no
        c.changed.connect(self._on_changed)
        self.refresh()

    # -- what it shows ----------------------------------------------------------------------------------

    def _entry(self) -> HistoryEntry | None:
        c = self.controller
        entry = c.viewed_entry
        if entry is None and c.game.history:
            entry = c.game.history[-1]
        return entry

    def confirmed_phases(self) -> list[str]:
        return [str(x) for x in self.controller.table.pieces_confirmed or []]

    def is_confirmed(self) -> bool:
        """The last adjudicated phase's board is confirmed (or there was nothing to move)."""
        from ...table.pieces import plan_entry
        history = self.controller.game.history
        if not history:
            return True
        entry = history[-1]
        return plan_entry(entry).empty or entry.state.phase.short in self.confirmed_phases()

    def refresh(self) -> None:
        self._stale = False
        entry = self.entry = self._entry()
        board = self.controller.board
        self.list.blockSignals(True)
        self.list.clear()
        if entry is None:
            self.plan = None
            self.title.setText("Move the pieces")
            self.note.setText("Nothing adjudicated yet: set the pieces up as the game starts.")
            self.progress.clear()
            self.status.clear()
            self.match_button.setEnabled(False)
            self.print_button.setEnabled(False)
            self.list.blockSignals(False)
            return
        from ...table.pieces import plan_entry  # once something was adjudicated (not at the window's start)

        plan = self.plan = plan_entry(entry)
        phase = entry.state.phase.short
        self.title.setText(f"Move the pieces \u2014 {entry.state.phase.label}")
        if plan.empty:
            self.note.setText("Nothing to move: every piece stays where it is.")
        else:
            self.note.setText("Work down the list; no step puts a piece on an occupied space."
                              + (" A ring of moves: lift its first piece, move the others round, put it down last."
                                 if plan.rings else ""))
        ticked = self.ticked.setdefault(phase, set())
        for i, step in enumerate(plan.steps):
            item = QListWidgetItem(f"{i + 1}. {step.text(board)}")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if i in ticked else Qt.CheckState.Unchecked)
            if step.action in ("lift", "place"):
                f = QFont(self.list.font())  # the list's size (an item's own font is the application's)
                f.setBold(True)
                item.setFont(f)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.print_button.setEnabled(True)
        latest = bool(self.controller.game.history) and entry is self.controller.game.history[-1]
        self.match_button.setEnabled(latest)
        self._show_progress()
        self.refreshed.emit()

    def _show_progress(self) -> None:
        if self.plan is None or self.entry is None:
            return
        done = len(self.ticked.get(self.entry.state.phase.short, set()))
        total = len(self.plan.steps)
        self.progress.setText(f"{done} of {total} done" if total else "")
        if self.entry.state.phase.short in self.confirmed_phases() or self.plan.empty:
            self.status.setText("\u2714 The board matches.")
            self.status.setStyleSheet("color: #1B6E20;")
        else:
            self.status.setText("Confirm the board matches before the next reveal.")
            self.status.setStyleSheet("color: #8A6D00;")

    def _item_changed(self, item: QListWidgetItem) -> None:
        if self.entry is None:
            return
        ticked = self.ticked.setdefault(self.entry.state.phase.short, set())
        row = self.list.row(item)
        if item.checkState() == Qt.CheckState.Checked:
            ticked.add(row)
        else:
            ticked.discard(row)
        self._show_progress()

    def check(self, row: int, on: bool = True) -> None:
        item = self.list.item(row)
        if item is not None:
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def checked(self) -> list[bool]:
        return [self.list.item(i).checkState() == Qt.CheckState.Checked for i in range(self.list.count())]

    def confirm_clicked(self) -> bool:
        """"The board matches": with steps not ticked, the host is asked first (a board confirmed
        with 2 of 20 steps done is more likely a slip than a board that matches)."""
        if self.plan is not None and self.entry is not None and not self.plan.empty:
            done = len(self.ticked.get(self.entry.state.phase.short, set()))
            total = len(self.plan.steps)
            if done < total and not self.ask(
                    self, "Move the pieces",
                    f"Only {done} of {total} steps are ticked. Does the physical board match the game anyway?"):
                self.status.setText(f"Not confirmed: {total - done} steps are not ticked.")
                return False
        self.confirm()
        return True

    def confirm(self) -> None:
        """The board matches: recorded in the game's table (a change, autosaved)."""
        history = self.controller.game.history
        if not history:
            return
        phase = history[-1].state.phase.short
        done = self.confirmed_phases()
        if phase not in done:
            self.controller.service.confirm_pieces([*done, phase], initiator=LAPTOP)
        self.confirmed.emit(phase)
        self._show_progress()

    def print_pdf(self, path: str | Path | None = None) -> Path | None:
        from .tournament_pages import pieces_pdf
        if self.plan is None:
            return None
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(self, "Print Move the pieces",
                                                    str(Path.home() / f"pieces-{self.plan.phase.short}.pdf"),
                                                    "PDF documents (*.pdf)")
            if not chosen:
                return None
            path = chosen
        target = Path(path)
        try:
            write_atomic(target, pieces_pdf(self.controller.board, self.plan, self.checked(), self.board_name()))
        except OSError as exc:
            QMessageBox.warning(self, "Move the pieces", f"Cannot write {target}: {exc.strerror or exc}")
            return None
        return target

    def board_name(self) -> str:
        """The event, round and board (Tournament ▸ Board details…), as the printed list names them."""
        info = self.controller.table.board_info or BoardInfoPart()
        parts = [(info.event or "").strip(),
                 *(f"{word} {value}" for word, given in (("Round", info.round), ("Board", info.board))
                   if (value := (given or "").strip()))]
        return " \u00b7 ".join(p for p in parts if p)

    def set_projector(self, on: bool) -> None:
        font = QFont(self.font())
        font.setPointSize(PROJECTOR_POINTS if on else QFont().pointSize())
        for w in (self.list, self.title, self.note, self.status, self.progress):
            w.setFont(font)

    def _on_changed(self, record: TableChange) -> None:
        if record.board_changed or record.table:
            if self.isVisible():
                self.refresh()
            else:  # a hidden list is made again when it is shown, not at every change
                self._stale = True

    @override
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    @override
    def closeEvent(self, event: QCloseEvent) -> None:
        self.wanted = False  # closed by the user (the projector hides panels without closing them)
        super().closeEvent(event)


def _ask_yes_no(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(parent, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                  QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


# -- the features ---------------------------------------------------------------------------------------


class TournamentFeatures(QObject):
    """The Tournament menu and its panel, beside the table game's features."""

    def __init__(self, features: TableFeatures) -> None:
        super().__init__(features)
        self.features = features
        self.window = w = features.window
        self.controller = c = features.controller
        self.pieces = MovePiecesDock(w)
        self.pieces.ask = features.flow.confirm
        w.add_panel(self.pieces)
        w.tabifyDockWidget(w.results_dock, self.pieces)
        self.pieces.hide()
        self._wall: PiecesWall | None = None
        self._beside: PiecesBeside | None = None
        self.scores_dialog: ScoresDialog | None = None
        self.result_dialog: BoardResultDialog | None = None
        self.proposal_dialog: ProposalDialog | None = None
        self.ballot_dialog: BallotVoteDialog | None = None
        self.rules_dialog: EventRulesDialog | None = None
        self.details_dialog: QDialog | None = None
        self.late_timer = QTimer(self)
        self.late_timer.setSingleShot(True)
        self.late_timer.timeout.connect(self._late_void)
        #: the time of day (the event's time limit); a test's own clock stands in for it
        self.time_of_day: Callable[[], dt.datetime] = dt.datetime.now
        #: while a time limit is set: the table is told as soon as it falls, not at the next adjudication
        self.time_timer = QTimer(self)
        self.time_timer.setInterval(TIME_CHECK_MS)
        self.time_timer.timeout.connect(lambda: self.check_time_limit())
        self._build_menu()
        features.flow.before_reveal.append(self.board_confirmed_or_ask)
        w.projector.act.triggered.connect(lambda _c=False: self._projector_toggled())
        features.clock.expired.connect(self._writing_ended)
        c.changed.connect(self._on_changed)
        c.phase_advanced.connect(self._on_phase_advanced)
        c.game_ended.connect(self._on_game_ended)  # after the window's: the game-over dialog is open
        self.result_button: QPushButton | None = None
        self._show_end_note()

    @property
    def wall(self) -> PiecesWall:
        """The projector with the map hidden: the clock across the top, the list below it (made
        when the projector is first used, not at the window's start)."""
        if self._wall is None:
            from .pieces_wall import PiecesWall

            self._wall = PiecesWall(self.window, self.pieces, self.features.clock)
        return self._wall

    @property
    def beside(self) -> PiecesBeside:
        """The projector with the map shown: the list beside it, fitted to the panel (made when
        the projector is first used)."""
        if self._beside is None:
            from .pieces_wall import PiecesBeside

            self._beside = PiecesBeside(self.window, self.pieces)
        return self._beside

    def _build_menu(self) -> None:
        w = self.window
        menu = self.menu = QMenu("T&ournament", w)

        def act(text: str, slot: Callable[[], object], shortcut: str | None = None, tip: str = "") -> QAction:
            return menu_action(w, menu, text, slot, shortcut, tip)

        self.act_pieces = act("&Move the pieces", self.show_pieces, "Ctrl+M",
                              "The piece pusher's list for the last phase, checkable, printable")
        self.act_hide_map = act("&Hide the map (the table plays on its own board)", self.toggle_hide_map, None,
                                "The projector and the phones show no map; it stays in this window")
        self.act_hide_map.setCheckable(True)
        menu.addSeparator()
        self.act_rules = act("&Event rules\u2026", self.edit_rules, None,
                             "Clock preset, end of the game, late orders, ballots")
        self.act_ballot = act("Propose a &ballot\u2026", self.propose_ballot, "Ctrl+B",
                              "A draw or a concession, voted in secret by the event's rules")
        menu.addSeparator()
        self.act_scores = act("&Scores if the game ended now", self.show_scores, "Ctrl+K",
                              "Sum of Squares, Draw size, Carnage, C-Diplo, OpenTribute")
        self.act_call = act("Import a board &call\u2026", self.import_board_call, None,
                            "Power, player and player id from the tournament's CSV")
        self.act_details = act("Board &details\u2026", self.edit_board_details, None,
                               "The event, round and board: in every result file's name and fields")
        self.act_result = act("Board &result\u2026", self.show_result, None,
                              "The chart by year, the scores, and the result files (CSV, JSON, PDF sheet)")
        add_menu_before_help(w.menuBar(), menu)
        self.act_hide_map.setChecked(bool(self._state().hide_map))

    # -- the table's record --------------------------------------------------------------------------

    def _state(self) -> TableState:
        """The game's table (``table.state``: the service's record)."""
        return self.controller.table

    @property
    def rules(self) -> EventRules:
        return event_rules(self.controller.table)

    def voters(self) -> list[str]:
        """One power per player among the survivors in play (a player of several powers votes once,
        as the table's own draw vote does); powers nobody plays, or in civil disorder, do not vote."""
        c = self.controller
        in_play = self.features.flow.powers_in_play()
        marked = c.marked_disorder()
        seen: set[str] = set()
        out = []
        for p in c.state.surviving_powers():
            if p not in in_play or p in marked:
                continue
            key = c.player_name(p) or f"\0{p}"
            if key not in seen:
                seen.add(key)
                out.append(p)
        return out

    def voter_names(self, ballot: Ballot) -> dict[str, str]:
        """A player of several surviving powers votes once, for all of them: "Ann — Austria, Italy"."""
        c = self.controller
        out = {}
        survivors = c.state.surviving_powers()
        for p in ballot.voters:
            player = c.player_name(p)
            held = [q for q in survivors if player and c.player_name(q) == player]
            if len(held) > 1:
                out[p] = f"{player} \u2014 " + ", ".join(c.power_name(q) for q in held)
        return out

    def names(self) -> dict[str, str]:
        c = self.controller
        out = {}
        for p in c.board.power_ids:
            player = c.player_name(p)
            out[p] = c.power_name(p) + (f" ({player})" if player else "")
        return out

    def result(self, **kind: Any) -> BoardResult:
        from ...table.results import board_result
        c = self.controller
        state = self._state()
        info = state.board_info or BoardInfoPart()
        ids = text_entries(state.player_ids)
        players = {p: n for p in c.board.power_ids if (n := c.player_name(p))}
        late = [x.to_dict() for x in state.late_orders.entries()] if state.late_orders is not None else []
        rules = self.rules
        ended = c.game.ended
        how = {"victory": "a solo", "draw": "a draw voted", "short_game": "the event's turn or time limit"}
        end_rule = "; ".join(x for x in (
            f"ended by {how.get(ended.kind, ended.kind)}" if ended is not None else "not finished",
            _lower_first(rules.end_announcement()) if state.event is not None else "") if x)
        return board_result(c.game, players=players, player_ids=ids, event=info.event or "",
                            round_name=info.round or "", board_name=info.board or "",
                            ballots=ballots_of(c.table), late_orders=late, event_system=rules.scoring,
                            tie_break=rules.tie_break, conceded_as=rules.concession_scored_as, end_rule=end_rule,
                            written_at=dt.datetime.now().strftime("%Y-%m-%d %H:%M"), **kind)

    def edit_board_details(self) -> QDialog:
        """Tournament ▸ Board details…: the event, round and board, kept with the game."""
        from .tournament_dialogs import BoardDetailsDialog

        dialog = BoardDetailsDialog((self._state().board_info or BoardInfoPart()).to_dict(), self.window)
        open_kept(self, "details_dialog", dialog,
                  accepted(lambda: self.controller.service.set_board_info(dialog.details(), initiator=LAPTOP)))
        return dialog

    def final_result(self) -> BoardResult:
        """The result as the game ended (a concession passed in a ballot is a concession)."""
        from ...table.event import CONCESSION_PROPOSAL
        from ...table.scoring import CONCESSION
        conceded = next((b for b in reversed(ballots_of(self.controller.table))
                         if b.passed and b.proposal == CONCESSION_PROPOSAL), None)
        if conceded is not None:
            return self.result(kind=CONCESSION, winner=conceded.powers[0])
        return self.result()

    # -- Move the pieces -------------------------------------------------------------------------------

    def show_pieces(self) -> None:
        self.pieces.wanted = True
        self.pieces.show()
        self.pieces.raise_()
        self.pieces.refresh()

    def plays_on_a_board(self) -> bool:
        """The table moves pieces on a physical board: it opened Move the pieces, hides the app's
        map, or set an event's rules.  Only then does the next reveal ask whether the board matches."""
        state = self._state()
        return self.pieces.wanted or bool(state.hide_map) or state.event is not None

    def board_confirmed_or_ask(self) -> bool:
        """Before the next reveal: the board matches the last phase, or the host confirms it now."""
        if not self.plays_on_a_board() or self.pieces.is_confirmed():
            return True
        if self.features.flow.confirm(self.window, "Move the pieces",
                                      "The physical board has not been confirmed to match the last phase. "
                                      "Does it match now?"):
            self.pieces.confirm()
            return True
        self.show_pieces()
        return False

    def toggle_hide_map(self) -> None:
        on = self.act_hide_map.isChecked()
        self.controller.service.set_hide_map(on, initiator=LAPTOP)  # the phones hear it from the service
        self._projector_toggled()

    def _projector_toggled(self) -> None:
        projector = self.window.projector
        on = projector.active
        hide_map = on and bool(self._state().hide_map)
        if not hide_map:
            self.wall.leave()  # the panel's own layout again (the projector put it back beside the map)
        if not (on and self.pieces.wanted and not hide_map):
            self.beside.leave()
        self.pieces.set_projector(on)
        if not on:
            self.window.view.show()
            self.pieces.refresh()  # the steps in the window's type again
            return
        self.window.view.setVisible(not hide_map)
        if self.pieces.wanted or hide_map:
            if projector.panel is not None:
                projector.panel.hide()
            if projector.shown_explanation is not None:
                projector.shown_explanation.hide()
            self.pieces.show()
            self.pieces.refresh()
        if hide_map:  # the clock across the top, the list on the rest of the screen (issue 35, finding 7)
            self.wall.enter()
        elif self.pieces.wanted:
            screen = self.window.screen()
            width = screen.geometry().width() if screen is not None else self.window.width()
            size = max(420, width * 35 // 100)

            def resize() -> None:
                if projector.active:
                    self.window.resizeDocks([self.pieces], [size], Qt.Orientation.Horizontal)

            resize()
            QTimer.singleShot(0, self.window, resize)  # again once full screen is laid out
            self.beside.enter()  # the largest type at which the steps fit beside the map

    # -- event rules ---------------------------------------------------------------------------------------

    def edit_rules(self) -> EventRulesDialog:
        from .tournament_dialogs import EventRulesDialog

        dialog = EventRulesDialog(self.rules, self.controller.board.start_year, self.window)

        def finished(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.rules_out is not None:
                self.apply_rules(dialog.rules_out)

        open_kept(self, "rules_dialog", dialog, finished)
        return dialog

    def apply_rules(self, rules: EventRules) -> None:
        """The event's rules: saved in the game's table; the clock takes the preset's lengths; the
        turn limit becomes the game's short-game year."""
        from ...table.clock import ClockSettings

        c = self.controller
        before = self.rules if self._state().event is not None else None
        rules = rules.with_time_set_at(self.time_of_day(), before)  # "01:00" set at 21:00 is after midnight
        c.service.set_event(rules, initiator=LAPTOP)
        self.features.apply_clock_settings(ClockSettings.from_dict(rules.clock.clock_settings()))
        if rules.end_year is not None:
            c.set_end_year(rules.end_year)
        self._show_end_note()

    def _show_end_note(self) -> None:
        # without an event's rules nothing ends the game early (the default rules announce nothing,
        # and are not read: the event's modules load when a game has an event, not at the start)
        rules = self.rules if self._state().event is not None else None
        c = self.controller
        text = rules.end_announcement() if rules is not None else ""
        called = rules is not None and bool(rules.end_time) and c.game.end_year is not None and \
            rules.time_limit_reached(self.time_of_day())
        if called and rules is not None:
            text = f"Time is up ({rules.end_time}): the game ends after Fall {c.game.end_year}"
        if c.game.is_over:
            text = ""  # the game's end is no longer ahead
        if rules is not None:
            tip = f"{rules.clock.name}: {rules.clock.summary()}" + (f". {text}." if text else "")
            self.features.clock.setToolTip(tip)
        if text:
            self.window.statusBar().showMessage(text, 15000)
        clock = self.features.clock
        clock.announcement = text  # said on the clock, under the time
        clock.refresh()
        watch = rules is not None and bool(rules.end_time) and not called and not c.game.is_over
        if watch and not self.time_timer.isActive():
            self.time_timer.start()
        elif not watch:
            self.time_timer.stop()

    def _on_phase_advanced(self, entry: HistoryEntry) -> None:
        from ...table.pieces import plan_entry
        rules = self.rules
        c = self.controller
        # a limit that fell before this phase began fell in the phase just adjudicated: its year is the last
        self.check_time_limit(entry.state.phase.year)
        if not plan_entry(entry).empty:
            self.pieces.refresh()
        if rules.clock.adjudicate_on_next_clock and not c.game.is_over:
            # the orders are read, adjudicated and the pieces moved on the next period's clock
            clock = self.features.clock
            if clock.model.can_start():
                clock.start_button.click()  # the clock's own start (it tells the table it started)

    def check_time_limit(self, year: int | None = None) -> bool:
        """The event's time limit has fallen: the game year under way (``year``, else the phase's)
        is the last.  Looked at every :data:`TIME_CHECK_MS` while a limit is set, and at each
        adjudication."""
        rules = self.rules
        c = self.controller
        if self._state().event is None or not rules.end_time or c.game.is_over:
            self.time_timer.stop()
            return False
        if not rules.time_limit_reached(self.time_of_day()):
            return False
        self.end_by_time_limit(c.state.phase.year if year is None else year)
        return True

    def end_by_time_limit(self, year: int) -> None:
        """The event's time limit: the game year under way is completed (the game ends after its
        Fall turn, when the centres are counted); scored as the survivors' result (``time_limit``).
        An earlier turn limit, or a limit already called, stays."""
        c = self.controller
        if c.game.end_year is not None and c.game.end_year <= year:
            return
        c.set_end_year(year)
        if not c.game.is_over:
            text = f"Time is up ({self.rules.end_time}): the game ends after Fall {year}."
            self.window.statusBar().showMessage(text, 60000)
            self.features.flow.tell(text)
        self._show_end_note()

    # -- late orders -----------------------------------------------------------------------------------

    def late_powers(self) -> list[str]:
        flow = self.features.flow
        s = flow.session
        return [p for p in flow.powers_in_play() if p not in s.sealed and not self.controller.state.is_eliminated(p)
                and p not in self.controller.marked_disorder()]

    def _writing_ended(self) -> None:
        """The last period ran out: a warning for the powers that have not sealed; with the void
        rule, after the grace their orders are void and their units hold."""
        from ...table.event import LATE_VOID
        if self._state().event is None:
            return  # no event's rules: the table's own clock, as before
        late = self.late_powers()
        if not late or not self.features.flow.enabled:
            return
        rules = self.rules
        names = ", ".join(self.controller.power_name(p) for p in late)
        self.features.flow.tell(f"Time is up. Orders still due from {names}."
                                + (f" In {rules.late_grace_seconds} seconds their orders are void and their units "
                                   "hold (the event's rule)." if rules.late_orders == LATE_VOID else ""))
        self.controller.service.warn_late(late, initiator=CLOCK)  # kept in the table's late orders
        if rules.late_orders == LATE_VOID:
            self.late_timer.start(rules.late_grace_seconds * 1000)

    def _late_void(self) -> None:
        late = self.late_powers()
        if late:
            self.void_orders(late)

    def void_orders(self, powers: list[str]) -> None:
        """Late orders void: every unit of these powers holds (recorded in the game's table)."""
        c = self.controller
        if c.state.phase.kind != "movement":
            return
        c.void_orders(powers)  # (the verdict kept by the same operation of the table service)
        self.features.flow.tell(", ".join(c.power_name(p) for p in powers)
                                + ": orders void (late); the units hold.")

    # -- ballots -----------------------------------------------------------------------------------------

    def propose_ballot(self) -> ProposalDialog | None:
        from .tournament_dialogs import ProposalDialog

        c = self.controller
        if c.game.is_over:
            return None
        self.features.flow.step_away()
        state = self._state()
        pinned = [p for p in c.state.surviving_powers() if state.pin_hash(p) is not None]
        dialog = ProposalDialog(c.state, self.rules, self.names(), self.window, voters=self.voters(),
                                pinned=pinned, door=self._proposer_door)

        def finished(result: int) -> None:
            if result == QDialog.DialogCode.Accepted and dialog.ballot is not None:
                self.vote(dialog.ballot)

        open_kept(self, "proposal_dialog", dialog, finished)
        return dialog

    def _proposer_door(self, proposer: str, typed: str) -> str | None:
        """Whether ``typed`` speaks for ``proposer`` (issue 31): its own PIN, or the host's.  None
        when it does; else why not.  A PIN that is neither counts toward the host's prompt, never
        the proposer's (a player cannot lock another power out from here), and both waits hold
        first, so this box guesses no PIN faster than the curtain; the count is on disk at once."""
        from ...io.pins import pin_matches
        from ...table.changes import LAPTOP
        from ...table.pins import HOST, PinWaitError

        stored = self._state().pin_hash(proposer)
        if stored is None:
            return None
        name = self.controller.power_name(proposer)
        host_pin = self.features.flow.host_pin()
        service = self.controller.service
        guard = service.pin_guard  # the table's one counter: read here, counted by the service
        try:
            guard.check_allowed(HOST, "the host")
            guard.check_allowed(proposer, name)
        except PinWaitError as exc:
            return str(exc)[:1].upper() + str(exc)[1:] + "."
        if not typed:
            return f"{name} has a PIN: {name} types it to propose in {name}'s name (or the host types the host PIN)."
        # each on disk at once through the table service's write (a kill must not forget a wrong PIN)
        if pin_matches(stored, typed):
            service.pin_succeeded(proposer, initiator=LAPTOP)
        elif host_pin is not None and pin_matches(host_pin, typed):
            service.pin_succeeded(HOST, initiator=LAPTOP)
        else:
            service.pin_failed(HOST, initiator=LAPTOP)
            return f"Wrong PIN: neither {name}'s PIN nor the host PIN. Nothing was proposed."
        return None

    def vote(self, ballot: Ballot) -> BallotVoteDialog:
        from .tournament_dialogs import BallotVoteDialog

        hashes = text_entries(self._state().pins)
        pins = {p: h for p, h in hashes.items() if p in ballot.voters}
        c = self.controller
        for p in ballot.voters:  # a player's PIN: any of their powers' PINs
            player = c.player_name(p)
            if p not in pins and player:
                found = next((h for q, h in hashes.items() if c.player_name(q) == player), None)
                if found is not None:
                    pins[p] = found
        from ...table.changes import LAPTOP
        from ...table.pins import HOST

        dialog = BallotVoteDialog(ballot, self.names(), self.window, pins=pins, voter_names=self.voter_names(ballot),
                                  guard=c.service.pin_door(LAPTOP, HOST))  # counted and written by the service
        dialog.counted.connect(self.record_ballot)
        open_kept(self, "ballot_dialog", dialog)
        return dialog

    def record_ballot(self, record: BallotRecord) -> None:
        """Keep the ballot (never who voted what); a ballot that passed ends the game."""
        from ...table.event import DRAW_PROPOSAL, ballot_headline
        c = self.controller
        c.service.set_ballots([*ballots_of(c.table), record], initiator=LAPTOP)
        # in a few words: the whole sentence (seven players' names) ran past the status bar's room;
        # the ballot's own dialog said it in full
        self.window.statusBar().showMessage(ballot_headline(record, {p: c.power_name(p) for p in c.board.power_ids}),
                                            20000)
        if not record.passed:
            return
        if record.proposal == DRAW_PROPOSAL:
            self.features.declare_draw(list(record.powers))
        else:
            self.show_result()

    # -- scores and results --------------------------------------------------------------------------------

    def show_scores(self) -> ScoresDialog:
        from .tournament_dialogs import ScoresDialog

        large = self.window.projector.active
        dialog = ScoresDialog(self.result(), self.window, large=large)
        self.scores_dialog = dialog
        dialog.finished.connect(lambda _r: setattr(self, "scores_dialog", None))
        dialog.open()
        return dialog

    def show_result(self) -> BoardResultDialog:
        from .tournament_dialogs import BoardResultDialog

        dialog = BoardResultDialog(self.final_result(), self.window)
        self.result_dialog = dialog
        dialog.finished.connect(lambda _r: setattr(self, "result_dialog", None))
        dialog.open()
        return dialog

    def import_board_call(self, path: str | Path | None = None) -> bool:
        """A board call (CSV: power, player, player id) into the game's players."""
        from ...table.results import BoardCallError
        c = self.controller
        interactive = path is None
        path = pick_call_file(self.window, "Import a board call", path)
        if path is None:
            return False
        try:
            call = read_call_file(path, c.board)
        except BoardCallError as exc:
            QMessageBox.warning(self.window, "Import a board call", f"The board call was not read: {exc}")
            return False
        players = text_entries(self._state().players)
        players.update(call.players)
        powers = self._state().powers
        c.service.set_players(
            players, player_ids=call.player_ids,
            # the event, round and board the call gives
            board_info={**(self._state().board_info or BoardInfoPart()).to_dict(), **call.details}
            if call.details else None,
            powers=[p for p in c.board.power_ids if p in set(powers) | set(call.players)]
            if isinstance(powers, list) else None, initiator=LAPTOP)
        self.window.statusBar().showMessage(
            "Board call: " + ", ".join(f"{c.power_name(ln.power)} \u2014 {ln.player}" for ln in call.lines), 20000)
        if interactive:  # the host confirms (or enters) the event, round and board
            self.edit_board_details()
        return True

    def _on_game_ended(self, _end: object) -> None:
        """The game-over dialog gets the board's result: the chart, the scores and the files; the
        clock no longer announces an end ahead."""
        self._show_end_note()
        dialog = self.features.game_over_dialog
        if dialog is None:
            return
        button = self.result_button = dialog.buttons.addButton("Board result and scores\u2026",
                                                               QDialogButtonBox.ButtonRole.ActionRole)
        button.clicked.connect(lambda: self.show_result())
        if self._state().event is not None:
            self._say_the_events_result(dialog)

    def _say_the_events_result(self, dialog: GameOverDialog) -> None:
        """The event's turn or time limit ended the game: the dialog says the event's result (every
        survivor's, scored by its system), not the rulebook's short-game leaders as winners."""
        from ...table.results import result_sentence
        from ...table.scoring import BY_KEY, TIME_LIMIT
        result = self.final_result()
        if result.outcome.kind != TIME_LIMIT:
            return
        rules = self.rules
        called = bool(rules.end_time) and rules.time_limit_reached(self.time_of_day())
        kicker = (f"Time is up ({rules.end_time}): the last game year has been played" if called
                  else "The event's last game year has been played")
        system = BY_KEY[result.event_system].name
        dialog.show_result_instead(kicker, result_sentence(result),
                                   f"The event scores it as every survivor's result, by {system}: "
                                   "Board result and scores\u2026 has each player's score and rank.")

    def _on_changed(self, record: TableChange) -> None:
        if record.game:
            self.act_hide_map.setChecked(bool(self._state().hide_map))
            self._show_end_note()


def pick_call_file(parent: QWidget, title: str, path: str | Path | None) -> str | Path | None:
    """The board call's file: ``path``, else the one the host picks (None when they cancel)."""
    if path is not None:
        return path
    chosen, _ = QFileDialog.getOpenFileName(parent, title, str(Path.home()), "Board calls (*.csv *.txt);;All files (*)")
    return chosen or None


def _lower_first(text: str) -> str:
    """A sentence's words after a semicolon ("…; at 17:00 the game year under way is the last")."""
    return text[:1].lower() + text[1:]


def read_call_file(path: str | Path, board: Board) -> BoardCall:
    """A board call from a file; ``BoardCallError`` (a ValueError) with the reason."""
    from ...table.results import BoardCallError, read_board_call
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise BoardCallError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if len(raw) > 1_000_000:
        raise BoardCallError("the file is too large to be a board call")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BoardCallError("the file is not UTF-8 text (a board call is CSV: power, player, player id)") from None
    return read_board_call(text, board)


def fill_from_board_call(dialog: NewGameDialog, path: str | Path | None = None) -> bool:
    """New Game's "Board call…": the called players' names in the dialog, their powers played."""
    from ...table.results import BoardCallError
    path = pick_call_file(dialog, "Board call", path)
    if path is None:
        return False
    try:
        call = read_call_file(path, dialog.board)
    except BoardCallError as exc:
        dialog.error_label.setText(f"The board call was not read: {exc}")
        dialog.fit_to_screen()  # the reason shown, below the settings
        return False
    players = {ln.player for ln in call.lines}
    if len(players) == len(dialog.board.power_ids):
        dialog.players_spin.setValue(len(players))
    dialog.assign_combo.setCurrentIndex(max(0, dialog.assign_combo.findData("hand")))
    for ln in call.lines:
        dialog.play_boxes[ln.power].setChecked(True)
        dialog.name_edits[ln.power].setText(ln.player)
    dialog.board_call = call
    dialog.error_label.setText("")
    dialog.fit_to_screen()
    return True


def install_tournament(features: TableFeatures) -> TournamentFeatures:
    """Give the table game its Tournament menu (:class:`TournamentFeatures`)."""
    return TournamentFeatures(features)


__all__ = ["BallotVoteDialog", "BoardResultDialog", "EventRulesDialog", "MovePiecesDock", "ProposalDialog",
           "ScoresDialog", "TournamentFeatures", "event_rules", "install_tournament", "write_result_files"]
