"""Secrecy leaks found in the acceptance review of issue 8 (playing through the real window),
as regressions on the real main window with the table features installed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from test_secrecy import assert_hidden, start
from widget_text import shows

from diplomacy_desktop.io.notation import format_order

TYPED = {"austria": "A Vie - Gal", "england": "F Lon - Nth", "france": "A Par - Bur", "germany": "A Mun - Ruh",
         "italy": "A Ven - Pie", "russia": "A War - Gal", "turkey": "A Con - Bul"}


def test_secrecy_order_box_undo_history_does_not_reach_the_next_power(table, features) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The order box's own undo (its right-click menu) brought back what the last power typed."""
    t, f = table, features
    start(f)
    f.act_write.trigger()
    power = f.flow.session.next_power
    f.flow.curtain.open_button.click()
    entry = t.window.order_dock.entry
    given = TYPED[power]
    entry.setFocus()
    QTest.keyClicks(entry, given)
    QTest.keyClick(entry, Qt.Key.Key_Return)  # given
    assert {format_order(o) for o in t.controller.game.orders_of(power)} == {given}
    QTest.keyClicks(entry, "half-typed secret")  # typed, never given
    f.strip.seal_button.click()
    assert power in f.flow.session.sealed
    f.flow.curtain.open_button.click()  # the next power
    assert f.flow.session.current not in (None, power)
    assert entry.text() == ""
    assert not entry.isUndoAvailable()
    menu = entry.createStandardContextMenu()
    undo = next(a for a in menu.actions() if isinstance(a, QAction) and a.text().replace("&", "").startswith("Undo"))
    assert not undo.isEnabled()
    entry.undo()
    assert entry.text() == ""
    assert_hidden(t, power, {given})


def test_secrecy_review_says_who_may_reopen_sealed_orders(table, features) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The review told a power without a PIN it could reopen its orders "with your PIN"."""
    f = features
    start(f, pins={"turkey": "1234"})
    f.act_write.trigger()
    while f.flow.session.next_power != "turkey":
        f.flow.curtain.open_button.click()
        f.strip.seal_button.click()
    f.flow.curtain.open_button.click()  # turkey's turn needs its PIN: refused
    assert f.flow.session.current is None
    f.flow.curtain.pin_edit.setText("1234")
    f.flow.curtain.open_button.click()
    dialog = f.flow.review_dialog()
    assert dialog is not None and shows(dialog, "reopen them with your PIN")
    f.strip.seal_button.click()
    f.flow.curtain.open_button.click()  # the next power, without a PIN
    other = f.flow.session.current
    assert other is not None and not f.flow.session.has_pin(other)
    dialog = f.flow.review_dialog()
    assert dialog is not None and shows(dialog, "only the host can reopen them") and not shows(dialog, "your PIN")


def test_secrecy_teaching_features_show_nothing_under_the_curtain(table, features, monkeypatch) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The teaching features every window has (projector F5, step-through, open in a sandbox, the
    explanation panel) reveal no sealed order while the curtain is up."""
    from test_secrecy import _covered, seal_next

    t, f = table, features
    w = t.window
    errors: list[str] = []
    monkeypatch.setattr(w, "show_error", lambda title, text: errors.append(text))
    start(f)
    f.act_write.trigger()
    sealed, written = seal_next(t, f)
    assert written and f.flow.curtain_up
    curtain = f.flow.curtain
    windows_before = {id(x) for x in QApplication.topLevelWidgets()}
    t.key(Qt.Key.Key_F5)  # the projector: the curtain still covers everything
    QApplication.processEvents()
    for part in w.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if part is not curtain and part.isVisible() and not part.isWindow() \
                and w.rect().contains(part.geometry().center()):
            assert _covered(w, curtain, part), part
    assert_hidden(t, sealed, written)
    t.key(Qt.Key.Key_F5)
    w.act_step_through.trigger()  # nothing adjudicated yet: nothing to step through
    assert getattr(w, "step_through", None) is None or not w.step_through.active  # type: ignore[attr-defined]
    for act in w.phase_menu.actions():
        if act.text().replace("&", "").startswith("Open this phase in a sandbox"):
            act.trigger()
    QApplication.processEvents()
    new = [x for x in QApplication.topLevelWidgets() if id(x) not in windows_before and x.isVisible()
           and hasattr(x, "controller")]
    assert new == [] and errors == ["The curtain is up: the orders are secret."]  # refused, with the reason
    assert w.explanations.explained_text() == ""
    assert_hidden(t, sealed, written)
