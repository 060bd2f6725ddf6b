"""Issue 31, finding 2 at the laptop: the reveal shows every seal code recomputed from the
revealed orders; an order that is not the one sealed (a row put back in the autosave) is an
alarm on the curtain, in a box, in the results panel, and in the saved game's log."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMessageBox
from test_secrecy import seal_next, start

from diplomacy_desktop.engine.board import ARMY
from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.table import sealcodes
from diplomacy_desktop.table.hotseat import READY


def _seal_everyone(t, f) -> None:  # type: ignore[no-untyped-def]
    start(f)
    f.act_write.trigger()
    while f.flow.session.next_power is not None:
        seal_next(t, f)
    assert f.flow.session.stage == READY


def test_seal_codes_alarm_a_revealed_order_that_was_not_sealed(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    _seal_everyone(t, f)
    c = t.controller
    given = sealcodes.code_of(c.table, "austria", "S1901M")
    assert given
    # what a row copied back from an earlier copy of the autosave does: another order, same code kept
    book = c.game.orders["austria"]
    key = next(k for k, o in book.items() if o.location == "vie")
    book[key] = Move("austria", ARMY, "vie", "tyr")
    f.flow.reveal()
    QApplication.processEvents()
    told = " ".join([*f.flow.session.notices, f.strip.notice.toolTip(), f.strip.notice.text(),
                     t.window.statusBar().currentMessage()])
    assert "DO NOT MATCH" in told and "Austria" in told and given in told
    boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.objectName() == "seal_alarm"]
    assert boxes and "DO NOT MATCH" in boxes[-1].text()
    for b in boxes:
        b.close()
    title = t.window.results_dock.title.text()
    assert "S1901M" in str(sealcodes.revealed_codes(c.table)[0]) and "DO NOT MATCH" in title
    verdict = sealcodes.revealed_verdict(c.table, "S1901M", sealcodes.orders_by_power(c.game.history[-1].orders))
    assert verdict is not None and verdict.mismatched == ["austria"]


def test_seal_codes_alarm_an_honest_reveal_shows_the_recomputed_codes(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    _seal_everyone(t, f)
    c = t.controller
    given = {p: sealcodes.code_of(c.table, p, "S1901M") for p in c.board.power_ids}
    f.flow.reveal()
    QApplication.processEvents()
    told = " ".join([*f.flow.session.notices, f.strip.notice.toolTip(), f.strip.notice.text(),
                     t.window.statusBar().currentMessage()])
    title = t.window.results_dock.title.text()
    assert "DO NOT MATCH" not in told + title and all(code and code in title for code in given.values())
    assert not [w for w in QApplication.topLevelWidgets() if w.objectName() == "seal_alarm" and w.isVisible()]
    assert [e["phase"] for e in c.table[sealcodes.LOG_KEY]] == ["S1901M"]
