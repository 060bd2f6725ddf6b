"""Issue 31, findings 8 and 11: Enter in a draw vote cast Accept without the question being shown,
and the next voter's screen showed what the last one pressed."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QCursor
from PySide6.QtTest import QTest

from diplomacy_desktop.gui.table.dialogs.draw_vote import DrawVoteDialog
from diplomacy_desktop.table.state import TableState


def _dialog(qtbot: Any) -> DrawVoteDialog:
    d = DrawVoteDialog(["austria", "england", "france"])
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    return d


def test_vote_enter_never_votes(qtbot: Any) -> None:
    d = _dialog(qtbot)
    qtbot.keyClick(d.focusWidget() or d, Qt.Key.Key_Return)  # "I am Austria: vote"
    assert d.stack.currentWidget() is d.vote_page
    for _ in range(3):
        qtbot.keyClick(d.focusWidget() or d, Qt.Key.Key_Return)
        qtbot.keyClick(d, Qt.Key.Key_Enter)
    assert d.stack.currentWidget() is d.vote_page and d.vote.next_voter == "austria"
    assert d.focusWidget() not in (d.accept_button, d.decline_button)


def _screens_after(qtbot: Any, accept: bool) -> tuple[Any, ...]:
    d = _dialog(qtbot)
    d.ready_button.click()
    (d.accept_button if accept else d.decline_button).click()
    pass_focus = d.focusWidget()
    d.ready_button.click()
    vote_focus = d.focusWidget()
    out = (pass_focus is d.ready_button, vote_focus is d.vote_page, d.cancel_button.isDefault(),
           d.accept_button.isDefault(), d.decline_button.isDefault())
    d.reject()
    return out


def test_vote_the_next_voter_sees_the_same_screen_whatever_the_last_vote(qtbot: Any) -> None:
    after_yes = _screens_after(qtbot, True)
    after_no = _screens_after(qtbot, False)
    assert after_yes == after_no
    assert after_yes[:2] == (True, True)  # the focus on no answer


def test_vote_the_ballot_prompt_counts_wrong_pins_in_the_table_counter(qtbot: Any) -> None:
    """Finding 10: the ballot's PIN prompt took any number of wrong PINs with no wait."""
    from diplomacy_desktop.engine.game import Game
    from diplomacy_desktop.gui.table.tournament import BallotVoteDialog
    from diplomacy_desktop.io.boardfile import load_board
    from diplomacy_desktop.io.pins import hash_pin
    from diplomacy_desktop.table.event import DRAW_PROPOSAL, Ballot, EventRules
    from diplomacy_desktop.table.pins import PinGuard

    game = Game.new(load_board("standard"))
    table = TableState()
    voters = ("austria", "england")
    ballot = Ballot.open(EventRules(), game.state, "austria", DRAW_PROPOSAL, voters=voters)
    d = BallotVoteDialog(ballot, {"austria": "Austria", "england": "England"},
                         pins={"austria": hash_pin("5831", cost=(2 ** 4, 1, 1))}, guard=PinGuard(table))
    qtbot.addWidget(d)
    for guess in ("1111", "2222", "3333", "4444", "5555"):
        d.pin_edit.setText(guess)
        d.ready_button.click()
    assert table["pin_failures"]["austria"]["count"] == 3  # the fourth and fifth were not even looked at
    d.pin_edit.setText("5831")
    d.ready_button.click()
    assert d.stack.currentWidget() is d.pass_page and "try again in" in d.pin_error.text()


def _pointer_after(qtbot: Any, accept: bool) -> tuple[QPoint, QPoint]:
    """Where the mouse pointer is when the next voter's pass page shows, and then their vote page,
    after the last voter clicked Yes (``accept``) or No with the mouse."""
    d = _dialog(qtbot)
    d.ready_button.click()
    button = d.accept_button if accept else d.decline_button
    QCursor.setPos(button.mapToGlobal(button.rect().center()))  # the voter's pointer on the answer
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    assert d.vote.next_voter == "england"
    on_pass = QCursor.pos()
    d.ready_button.click()
    on_vote = QCursor.pos()
    for b in (d.accept_button, d.decline_button):
        assert not b.rect().contains(b.mapFromGlobal(on_vote)), "the next voter's pointer rests on an answer"
    d.reject()
    return on_pass, on_vote


def test_vote_the_pointer_never_shows_the_next_voter_the_last_answer(qtbot: Any) -> None:
    """Red team (issue 31, second pass; Ctrl+B and Ctrl+D under Xvfb): the mouse pointer stayed
    where the last voter clicked, over "No" (or "Yes"), on the next voter's pass page and then on
    their vote page: anyone handed the laptop saw which side had been clicked.  The pointer is now
    put on the voter's name at each page, the same place whatever the last vote."""
    after_yes = _pointer_after(qtbot, True)
    after_no = _pointer_after(qtbot, False)
    assert after_yes == after_no
