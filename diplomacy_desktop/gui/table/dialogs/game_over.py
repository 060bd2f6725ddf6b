"""``GameOverDialog``: the end of the game (who won or shared the draw, the final standings)."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHeaderView, QLabel, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from ....engine.board import Board
from ....engine.game import BY_CENTRES, BY_PIECES, GameEnd
from ....engine.state import GameState
from ...board.palette import power_colour, power_ink, power_letter


def standings(state: GameState) -> list[tuple[str, int, int]]:
    """(power, centres, units), most centres first, then board order."""
    centres = state.centre_counts()
    units = state.unit_counts()
    order = {p: i for i, p in enumerate(state.board.power_ids)}
    return sorted(((p, centres.get(p, 0), units.get(p, 0)) for p in state.board.power_ids),
                  key=lambda row: (-row[1], order[row[0]]))


def end_headline(end: GameEnd, board: Board, names: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The big title and the line under it."""
    names = names or {}

    def who(p: str) -> str:
        player = names.get(p)
        return f"{board.power(p).name} ({player})" if player else board.power(p).name

    winners = [who(p) for p in end.winners]
    joined = ", ".join(winners[:-1]) + " and " + winners[-1] if len(winners) > 1 else (winners[0] if winners else "")
    if end.kind == "victory":
        return f"{joined} wins!", end.text
    if end.kind == "draw":
        return "A draw", f"Shared by {joined}."
    if len(end.winners) > 1:
        return f"Tie: {joined}", end.text
    return f"{joined} leads", end.text


def count_line(end: GameEnd, board: Board, names: Mapping[str, str] | None = None) -> str:
    """A short game: what decided it and each leader's count; a tie said plainly ("" otherwise)."""
    if end.kind != "short_game" or not end.counts:
        return ""
    counts = dict(end.counts)
    what = "supply centres (rules XIV.4)" if end.measure == BY_CENTRES else "pieces on the board (rules III)"
    leaders = [board.power(p).name for p in end.winners]
    best = counts.get(end.winners[0], 0) if end.winners else 0
    if len(leaders) > 1:
        joined = ", ".join(leaders[:-1]) + " and " + leaders[-1]
        return f"Won by most {what}. A tie: {joined} each have {best}; they share first place."
    return f"Won by most {what}: {leaders[0]} has {best}." if leaders else f"Won by most {what}."


class GameOverDialog(QDialog):
    """The end: who won (or drew, or led when time ran out), and everyone's centres."""

    NEW_GAME = 2

    def __init__(self, end: GameEnd, state: GameState, parent: QWidget | None = None, *,
                 names: Mapping[str, str] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Game over")
        self.end = end
        board = state.board
        names = dict(names or {})
        headline, subline = end_headline(end, board, names)
        kicker = self.kicker = QLabel({"victory": "Victory", "draw": "The game ends in a draw",
                                       "short_game": "The agreed last year has been played"}
                                      .get(end.kind, "Game over"))
        kicker.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.headline = QLabel(headline)
        f = QFont(self.headline.font())
        f.setPointSize(30 if len(headline) <= 40 else 18)  # a tie of many powers stays readable
        f.setBold(True)
        self.headline.setFont(f)
        self.headline.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.headline.setWordWrap(True)
        if len(end.winners) == 1:
            self.headline.setStyleSheet(f"color: {power_colour(end.winners[0]).darker(130).name()};")
        self.subline = QLabel(subline)
        self.subline.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.subline.setWordWrap(True)
        self.count_label = QLabel(count_line(end, board, names))  # what was counted, and a tie in words
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.count_label.setWordWrap(True)
        self.count_label.setVisible(bool(self.count_label.text()))

        rows = standings(state)
        if end.measure == BY_PIECES:  # the short game is won by pieces: the table is in that order
            order = {p: i for i, p in enumerate(board.power_ids)}
            rows.sort(key=lambda row: (-row[2], order[row[0]]))
        self.table = QTableWidget(len(rows), 4)
        self.table.setHorizontalHeaderLabels(["", "Power", "Centres", "Units"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        for r, (p, centres, units) in enumerate(rows):
            mark = "\u2605" if p in end.winners else ""
            player = names.get(p)
            name = board.power(p).name + (f" ({player})" if player else "")
            if state.is_eliminated(p):
                name += " \u2014 eliminated"
            items = [QTableWidgetItem(mark), QTableWidgetItem(name), QTableWidgetItem(str(centres)),
                     QTableWidgetItem(str(units))]
            items[0].setBackground(power_colour(p))
            items[0].setForeground(power_ink(p))
            items[0].setText(f"{power_letter(p)} {mark}".strip())
            for c, it in enumerate(items):
                if c >= 2:
                    it.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if p in end.winners:
                    font = it.font()
                    font.setBold(True)
                    it.setFont(font)
                self.table.setItem(r, c, it)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2, 3):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)

        self.buttons = QDialogButtonBox()
        self.board_button = self.buttons.addButton("Look at the board", QDialogButtonBox.ButtonRole.RejectRole)
        self.new_button = self.buttons.addButton("New game\u2026", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.rejected.connect(self.reject)
        self.new_button.clicked.connect(lambda: self.done(self.NEW_GAME))

        layout = QVBoxLayout(self)
        layout.addWidget(self.kicker)
        layout.addWidget(self.headline)
        layout.addWidget(self.subline)
        layout.addWidget(self.count_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self.resize(520, 520)

    def show_result_instead(self, kicker: str, headline: str, subline: str) -> None:
        """The result an event scores, said instead of the rulebook's (a tournament's time limit is
        every survivor's result, not a win for the leaders): no winner named, starred or in bold."""
        self.kicker.setText(kicker)
        self.headline.setText(headline)
        f = QFont(self.headline.font())
        f.setPointSize(18)
        self.headline.setFont(f)
        self.headline.setStyleSheet("")
        self.subline.setText(subline)
        self.count_label.hide()
        for r in range(self.table.rowCount()):
            for c in range(self.table.columnCount()):
                item = self.table.item(r, c)
                if item is None:
                    continue
                if c == 0:
                    item.setText(item.text().replace("\u2605", "").strip())
                font = item.font()
                font.setBold(False)
                item.setFont(font)
