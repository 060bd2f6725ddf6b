"""The explanation panel, driven through the real window: after adjudication, a click on an order's
row in the Results panel, on its arrow, or in the panel's own list shows the engine's explanation,
with the rule and the units it names ringed on the map; nothing of the current phase is shown."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from teach_cases import adjudicate, arrow_point, click_arrow, click_result_row, load_case
from window_harness import Table

from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.io.notation import format_order


def _dock_text(table: Table) -> str:
    return table.window.explanations.explained_text()


def _ringed(table: Table) -> set[str]:
    return set(table.window.explanations.highlight.provinces)


def _via_row(table: Table, order_text: str) -> str:
    click_result_row(table, order_text)
    return _dock_text(table)


def _via_arrow(table: Table, order_text: str) -> str:
    table.window.explanations.result = None
    click_arrow(table, order_text)
    return _dock_text(table)


def test_explanations_simple_bounce_by_row_and_by_arrow(table: Table) -> None:
    load_case(table, "Example 4")
    adjudicate(table)
    for text in (_via_row(table, "A Rum - Ser"), _via_arrow(table, "A Rum - Ser")):
        assert text.startswith("A Rum - Ser fails")
        assert "The army in Rumania attacked Serbia with attack strength 2 (itself and the support of the army in " \
               "Budapest)" in text
        assert "The army in Bulgaria also moved to Serbia: prevent strength 2 (itself and the support of the army " \
               "in Greece)" in text
        assert "Rule VIII — Conflicts" in text
    assert _ringed(table) == {"rum", "bud", "bul", "gre"} or {"rum", "bul", "bud"} <= _ringed(table)
    assert table.window.explanations.isVisible()


def test_explanations_beleaguered_garrison(table: Table) -> None:
    load_case(table, "Example 4")
    adjudicate(table)
    for text in (_via_row(table, "A Ser H"), _via_arrow(table, "A Ser H")):
        assert "A Ser H succeeds" in text
        assert "The army in Serbia held with hold strength 1 (itself alone)." in text
        assert "Rule IX.5 — Beleaguered garrison" in text
    assert {"ser", "bul", "rum"} <= _ringed(table)


def test_explanations_cut_support(table: Table) -> None:
    load_case(table, "Example 10")
    adjudicate(table)
    text = _via_arrow(table, "A Pru - Ber")
    assert "The support of the army in Silesia is not in its attack strength: it was cut by the attack of the army " \
           "in Munich" in text
    assert "1 against 1" in text and "Rule X — Cutting support" in text
    assert {"pru", "sil", "ber"} <= _ringed(table)
    text = _via_row(table, "A Sil S A Pru - Ber")
    assert "A Sil S A Pru - Ber fails" in text and "Cut by the attack of the army in Munich" in text
    assert "mun" in _ringed(table)


def test_explanations_disrupted_convoy(table: Table) -> None:
    load_case(table, "Example 11")
    adjudicate(table)
    text = _via_row(table, "A Spa - Nap")
    assert "the fleet in Tyrrhenian Sea was dislodged, so the army stays" in text
    assert "Rule XII.3 — Disrupting a convoy" in text
    assert {"spa", "tys"} <= _ringed(table)
    text = _via_arrow(table, "F Ion - Tys")
    assert "F Ion - Tys succeeds" in text and "the fleet in Tunis" in text and "strength 2" in text


def test_explanations_szykman_paradox(table: Table) -> None:
    # issue 18: Pandin's paradox (6.F.16) is the Szykman rule's; 6.F.14 the seed's own XII.5
    load_case(table, "6.F.16")
    adjudicate(table)
    text = _via_row(table, "A Bre - Lon")
    assert "by the Szykman rule the fleet in English Channel does not convoy" in text
    assert "Rule DATC 4.A.2 — Convoy disruption paradoxes: the Szykman rule" in text
    assert {"bre", "eng"} <= _ringed(table)
    load_case(table, "6.F.14")
    adjudicate(table)
    text = _via_arrow(table, "F Lon S F Wal - Eng")
    assert "does not cut it" in text and "Rule XII.5" in text


def test_explanations_circular_movement(table: Table) -> None:
    load_case(table, "6.C.1")
    adjudicate(table)
    for order in ("F Ank - Con", "A Con - Smy", "A Smy - Ank"):
        text = _via_arrow(table, order)
        assert f"{order} succeeds" in text and "circular movement" in text
        assert "Rule XIV.3" in text


def test_explanations_self_dislodgement_prohibited(table: Table) -> None:
    load_case(table, "Example 1")
    adjudicate(table)
    text = _via_row(table, "F Nth - Den")
    assert "Cannot dislodge its own fleet in Denmark" in text
    assert "Rule IX.3 — Self-dislodgement prohibited" in text
    assert {"nth", "den"} <= _ringed(table)
    assert _via_arrow(table, "F Nth - Den") == text


def test_explanations_panel_list_and_history_browsing(table: Table) -> None:
    load_case(table, "Example 4")
    adjudicate(table)
    dock = table.window.explanations
    rows = [dock.list.item(i).text() for i in range(dock.list.count())]
    assert "✗ A Rum - Ser" in rows and "✓ A Ser H" in rows
    dock.list.setCurrentRow(rows.index("✓ A Ser H"))
    assert "Beleaguered garrison" in _dock_text(table)
    # back to the current phase and forward again: the last results are still explained
    table.key(Qt.Key.Key_End)
    assert table.controller.viewing is None
    assert dock.entry is table.controller.last_entry
    table.key(Qt.Key.Key_PageUp)
    assert table.controller.viewing == 0


def test_explanations_never_show_the_current_phase_under_hot_seat(table: Table) -> None:
    """Only adjudicated history is explained: the current phase's orders, written in secret,
    never reach the panel, whether clicked on the map, in the panel or with no history at all."""
    c = table.controller
    load_case(table, "Example 4")
    adjudicate(table)
    table.key(Qt.Key.Key_End)  # the current phase (Fall 1901): write a secret order
    c.set_visible_powers({"austria"})
    c.set_active_power("austria")
    secret = Move("austria", "A", "ser", "alb")
    c.set_order(secret)
    secret_text = format_order(secret)
    dock = table.window.explanations
    # the map shows the current phase with Austria's order: a click on its arrow explains nothing
    point = arrow_point(table, secret_text)
    table.click_scene(point)
    dock.map_clicked(point)
    assert dock.result is None and _dock_text(table) == ""
    # the panel lists only the adjudicated phase
    rows = [dock.list.item(i).text() for i in range(dock.list.count())]
    assert rows and all(secret_text not in r for r in rows)
    assert dock.entry is c.last_entry and secret not in c.last_entry.orders
    for i in range(dock.list.count()):
        dock.list.setCurrentRow(i)
        assert secret_text not in _dock_text(table)
        assert "Albania" not in _dock_text(table)
    # Austria's turn ends: another power at the keyboard, Austria's orders hidden
    c.set_visible_powers({"turkey"})
    c.set_active_power("turkey")
    assert secret_text not in dock.text.toPlainText()
    assert all(secret_text not in dock.list.item(i).text() for i in range(dock.list.count()))
    # the results panel can only hand over results of adjudicated phases
    fake = c.last_entry.results[0]._replace(order=secret)
    dock.show_result(c.last_entry, fake)
    assert secret_text not in dock.text.toPlainText()


def test_explanations_empty_before_any_adjudication(table: Table) -> None:
    c = table.controller
    dock = table.window.explanations
    c.set_order(Move("france", "A", "par", "bur"))
    assert dock.entry is None and dock.list.count() == 0
    point = arrow_point(table, "A Par - Bur")
    table.click_scene(point)
    dock.map_clicked(point)
    assert dock.result is None and "Par" not in dock.text.toPlainText()


@pytest.mark.parametrize("curtain", [True])
def test_explanations_hidden_under_the_curtain(table: Table, curtain: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    load_case(table, "Example 4")
    adjudicate(table)
    dock = table.window.explanations
    click_result_row(table, "A Rum - Ser")
    assert _dock_text(table)
    monkeypatch.setattr(table.window.mode, "covered", lambda: curtain)
    table.controller.notify_access_changed()
    assert dock.entry is None and dock.list.count() == 0 and _dock_text(table) == ""
