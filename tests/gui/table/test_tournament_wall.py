"""Issue 35, finding 7: the projector with "Hide the map" at 1366x768 showed about five steps of
Move the pieces in a panel beside an empty map's place, and the clock squeezed into what was left
(its words on three lines).  Measured here through the real window: the menu's "Hide the map",
F5, a 1366x768 screen."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontInfo, QFontMetrics

from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.gui.teach.explanations import PROJECTOR_BODY_PX

#: every unit of 1901 moves: 22 steps, the whole first list of a board where everyone opens
OPENING = [("austria", "A", "vie", "gal"), ("austria", "A", "bud", "ser"), ("austria", "F", "tri", "alb"),
           ("england", "F", "lon", "nth"), ("england", "F", "edi", "nwg"), ("england", "A", "lvp", "yor"),
           ("france", "A", "par", "bur"), ("france", "F", "bre", "mao"), ("france", "A", "mar", "spa"),
           ("germany", "F", "kie", "den"), ("germany", "A", "ber", "kie"), ("germany", "A", "mun", "ruh"),
           ("italy", "A", "ven", "tyr"), ("italy", "A", "rom", "apu"), ("italy", "F", "nap", "ion"),
           ("russia", "A", "war", "ukr"), ("russia", "A", "mos", "stp"), ("russia", "F", "sev", "bla"),
           ("russia", "F", "stp/sc", "bot"), ("turkey", "A", "con", "bul"), ("turkey", "F", "ank", "con"),
           ("turkey", "A", "smy", "arm")]
SIZE = (1366, 768)


def _settle(qtbot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(4):
        qtbot.wait(30)


def _project_hidden_map(qtbot, table, features, *, hide: bool = True) -> None:  # type: ignore[no-untyped-def]
    """Spring 1901 adjudicated with every unit moving; Hide the map (or Move the pieces opened
    beside the map); F5 on a 1366x768 screen."""
    c = table.controller
    features.start_new_game(TableSettings(secrecy=False))
    for power, kind, source, target in OPENING:
        c.game.set_order(Move(power, kind, source, target))
    features.adjudicate()
    assert c.state.phase.short == "F1901M"
    w = table.window
    if hide:
        w.tournament.act_hide_map.trigger()
    else:
        w.tournament.act_pieces.trigger()
    w.projector.act.trigger()
    _settle(qtbot)
    # the offscreen platform's screen is small: a window of the projector's screen's size stands in
    w.showNormal()
    w.setGeometry(0, 0, *SIZE)
    _settle(qtbot)
    assert w.projector.active and w.view.isVisible() is not hide


def _visible_steps(dock) -> int:  # type: ignore[no-untyped-def]
    lst = dock.list
    area = lst.viewport().rect()
    return sum(1 for i in range(lst.count()) if area.contains(lst.visualItemRect(lst.item(i))))


def _least_px() -> float:
    return PROJECTOR_BODY_PX * SIZE[1] / 1080  # issue 18's rule for text on a projector: 19.9 px here


def test_projector_with_the_map_hidden_shows_every_step_of_a_full_opening_and_the_clock_whole(
        qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    _project_hidden_map(qtbot, table, features)
    w = table.window
    dock = w.tournament.pieces
    assert dock.isVisible() and dock.list.count() == 22
    # every step of the opening can be read at once (about 5 could before)
    assert _visible_steps(dock) == 22
    for i in range(dock.list.count()):  # in type read from the back of a room (issue 18's size)
        assert QFontInfo(dock.list.item(i).font()).pixelSize() >= _least_px()
    # the list stands on the screen below the clock, across it
    assert dock.width() >= 0.95 * SIZE[0]
    clock = features.clock
    assert clock.width() >= 0.95 * SIZE[0]  # the clock across the top, not in what the list left
    assert clock.digits.font().pointSizeF() == pytest.approx(40 * clock.PROJECTOR_SCALE)
    assert clock.digits.width() >= clock.digits.sizeHint().width()  # the digits whole
    for label in (clock.title, clock.note):  # the clock's words on one line each (three before)
        assert QFontMetrics(label.font()).horizontalAdvance(label.text()) <= label.contentsRect().width(), label.text()
    assert clock.geometry().bottom() < dock.geometry().top() + w.centralWidget().y() + 1
    # F5 again: the panel beside the map again, in the window's type
    w.projector.act.trigger()
    _settle(qtbot)
    assert w.view.isVisible() and dock.list.isWrapping() is False
    assert all(not dock.list.item(i).sizeHint().isValid() for i in range(dock.list.count()))


def test_projector_with_the_map_hidden_holds_a_full_board_of_moves(qtbot, table, features,  # type: ignore[no-untyped-def]
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A list as long as a full board (34 pieces, all moving, names as long as the map has) stands
    on the wall at once, never in type smaller than issue 18's."""
    from diplomacy_desktop.engine.state import Phase
    from diplomacy_desktop.table import pieces

    long_pairs = [("stp/sc", "bot"), ("con", "bul"), ("edi", "nwg"), ("sev", "bla"), ("bre", "mao"),
                  ("nap", "tys"), ("lvp", "nao"), ("mar", "lyo"), ("tri", "adr"), ("smy", "eas"),
                  ("ank", "con"), ("ber", "sil"), ("mun", "boh"), ("war", "ukr"), ("vie", "gal"),
                  ("rom", "tus"), ("ven", "pie")]
    steps = tuple(pieces.PieceStep(pieces.MOVE, power, "F", a, b)
                  for power in ("russia", "turkey") for a, b in long_pairs)
    assert len(steps) == 34
    monkeypatch.setattr(pieces, "plan_entry", lambda entry: pieces.PiecePlan(Phase(1905, "fall", "movement"), steps))
    _project_hidden_map(qtbot, table, features)
    dock = table.window.tournament.pieces
    assert dock.list.count() == 34
    assert _visible_steps(dock) == 34
    assert all(QFontInfo(dock.list.item(i).font()).pixelSize() >= _least_px() for i in range(34))


def test_projector_beside_the_map_fits_more_steps_in_issue_18s_type(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """Move the pieces beside the map on the projector: a fixed 24 points showed three or four
    steps of the opening at 1366x768 (the title and the note took seven lines); now the steps take
    the largest type at which they fit, never below issue 18's, and the words around them that."""
    _project_hidden_map(qtbot, table, features, hide=False)
    dock = table.window.tournament.pieces
    assert dock.isVisible() and dock.list.count() == 22
    assert _visible_steps(dock) >= 9
    for i in range(dock.list.count()):
        assert QFontInfo(dock.list.item(i).font()).pixelSize() >= _least_px()
    assert QFontInfo(dock.note.font()).pixelSize() >= 0.9 * _least_px() - 0.5
