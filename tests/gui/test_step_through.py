"""Step-through and Predict the outcome, driven by keys through the real window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from teach_cases import adjudicate, arrow_point, load_case
from window_harness import Table

from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.gui.board.map_scene import results_picture
from diplomacy_desktop.gui.teach.step_through import StepThrough, start_step_through


def _start(table: Table, key: str, *, predict: bool = False) -> StepThrough:
    load_case(table, key)
    adjudicate(table)
    entry = table.controller.last_entry
    assert entry is not None
    st = start_step_through(table.window, entry, predict=predict)
    assert st is not None
    table.window.view.setFocus()
    return st


def _shown_results(table: Table) -> dict[str, Outcome]:
    picture = table.window.scene.picture
    assert picture is not None
    return {k[1]: r.outcome for k, r in picture.results.items()}


def test_step_through_reveals_in_teaching_order_with_keys(table: Table) -> None:
    st = _start(table, "Example 4 with the garrison supporting")
    assert [s.kind for s in st.steps] == ["support", "support", "support", "move", "move", "hold"]
    assert st.steps[0].title == "A support is cut"
    assert not table.window.results_dock.isVisible()  # its reasons would tell the ending
    # nothing revealed yet: every order is drawn, no result
    assert st.position == 0 and _shown_results(table) == {}
    assert len(table.window.scene.order_items_of()) == 6
    table.key(Qt.Key.Key_Right)
    assert st.position == 1 and _shown_results(table) == {"ser": Outcome.FAILURE}
    assert "Cut by the attacks of the army in Bulgaria and the army in Rumania" in st.panel.text.toPlainText()
    assert st.panel.title.text() == "A support is cut"
    assert set(st.highlight.provinces) >= {"ser", "bul", "rum"}
    table.key(Qt.Key.Key_Space)
    table.key(Qt.Key.Key_PageDown)
    assert st.position == 3 and set(_shown_results(table)) == {"ser", "bud", "gre"}
    table.key(Qt.Key.Key_Left)
    assert st.position == 2 and set(_shown_results(table)) == {"ser", "bud"}
    table.key(Qt.Key.Key_End)
    assert st.position == len(st.steps)
    assert set(_shown_results(table)) == {"ser", "bud", "gre", "bul", "rum", "tri"}
    assert table.window.scene.picture == results_picture(st.entry)  # the end: the whole result
    assert table.controller.viewing == 0  # End was the step-through's, not "back to the current phase"
    table.key(Qt.Key.Key_Escape)
    assert not st.active and not st.panel.isVisible()
    assert table.window.results_dock.isVisible()
    assert set(_shown_results(table)) == {"ser", "bud", "gre", "bul", "rum", "tri"}  # the full results again


def test_step_through_dislodgement_comes_last_and_moves_by_strength(table: Table) -> None:
    st = _start(table, "Example 13")
    kinds = [s.kind for s in st.steps]
    assert kinds == ["support", "convoy", "convoy", "convoy", "move", "dislodged"]
    assert st.steps[1].title == "A convoy is disrupted"  # issue 18: the seed's XII.5 settles Example 13
    table.key(Qt.Key.Key_End)
    assert "tys" in table.window.scene.displaced_items
    table.key(Qt.Key.Key_Left)
    assert "tys" not in table.window.scene.displaced_items  # not dislodged until its step
    assert st.steps[-1].provinces[0] == "tys" and "dislodged by the unit from Ionian Sea" in st.steps[-1].text
    table.key(Qt.Key.Key_Right)
    assert "The fleet in Tyrrhenian Sea is dislodged" in st.panel.text.toPlainText()


def test_step_through_moves_strongest_first(table: Table) -> None:
    st = _start(table, "Example 10")
    moves = [s.results[0].strength for s in st.steps if s.kind == "move"]
    assert moves == sorted(moves, reverse=True) and len(moves) == 3


def test_step_through_from_the_phase_menu_in_any_mode(table: Table) -> None:
    window = table.window
    window.act_step_through.trigger()  # nothing adjudicated: a message, no step-through
    assert getattr(window, "step_through", None) is None
    load_case(table, "Example 4")
    adjudicate(table)
    table.key(Qt.Key.Key_End)  # the current phase: the last results are public
    window.act_step_through.trigger()
    st = window.step_through
    assert isinstance(st, StepThrough) and st.entry is table.controller.last_entry
    assert table.controller.viewing == 0
    # another game: the step-through ends by itself
    table.controller.new_game()
    assert not st.active


def test_predict_marks_with_keys_and_scores(table: Table) -> None:
    st = _start(table, "Example 4", predict=True)
    orders = [r for r in st.to_predict]
    assert len(orders) == 5 and st.selected == 0
    assert _shown_results(table) == {}
    # the right answer for the first three, wrong for the fourth, the last left unmarked
    for r in orders[:3]:
        table.key(Qt.Key.Key_S if r.succeeded else Qt.Key.Key_F)
    assert st.selected == 3
    table.key(Qt.Key.Key_F if orders[3].succeeded else Qt.Key.Key_S)
    assert st.selected == 4
    table.key(Qt.Key.Key_Up)
    assert st.selected == 3
    table.key(Qt.Key.Key_Tab)
    assert st.selected == 4
    assert sum(m is not None for m in st.marks) == 4
    assert _shown_results(table) == {}  # nothing revealed while predicting
    assert len(st._mark_items) == 4  # the marks are drawn on the map
    table.key(Qt.Key.Key_Return)
    assert st.revealed and st.score == 3
    assert st.panel.title.text() == "Score: 3 of 5 right"
    texts = st.mark_texts()
    assert sum(t.startswith("✓ right") for t in texts) == 3 and sum(t.startswith("✗ wrong") for t in texts) == 2
    assert "(not marked)" in texts[4]
    shown = st.panel.text.toPlainText()
    assert "Missed 2" in shown
    from diplomacy_desktop.io.notation import format_order
    for r in (orders[3], orders[4]):
        assert format_order(r.order) in shown and (r.rule == "" or f"Rule {r.rule}" in shown)
    assert len(_shown_results(table)) == 5  # every result on the map now
    table.key(Qt.Key.Key_Escape)
    assert not st.active


def test_predict_by_clicking_arrows(table: Table) -> None:
    st = _start(table, "Example 4", predict=True)
    target = next(i for i, r in enumerate(st.to_predict) if r.order.province == "bul")
    point = arrow_point(table, "A Bul - Ser")
    table.click_scene(point)
    assert st.selected == target and st.marks[target] is None
    table.click_scene(point)
    assert st.marks[target] is True
    table.click_scene(point)
    assert st.marks[target] is False
    table.key(Qt.Key.Key_Enter)
    assert st.revealed and st.score == 1  # A Bul - Ser fails


def test_step_through_refused_under_the_curtain(table: Table, monkeypatch: object) -> None:
    load_case(table, "Example 4")
    adjudicate(table)
    entry = table.controller.last_entry
    assert entry is not None
    monkeypatch.setattr(table.window.mode, "covered", lambda: True)  # type: ignore[attr-defined]
    assert start_step_through(table.window, entry) is None


def test_step_through_standoff_mark_only_when_both_moves_are_revealed(table: Table) -> None:
    from diplomacy_desktop.engine.orders import Move
    from diplomacy_desktop.gui.board.map_scene import BounceItem

    c = table.controller
    c.set_order(Move("france", "A", "par", "bur"))
    c.set_order(Move("germany", "A", "mun", "bur"))
    adjudicate(table)
    entry = c.last_entry
    assert entry is not None
    st = start_step_through(table.window, entry)
    assert st is not None
    table.window.view.setFocus()
    assert [s.kind for s in st.steps] == ["move", "move"]
    assert st.steps[0].title == "A move fails (strength 1)"

    def bounces() -> list[BounceItem]:
        return [m for m in table.window.scene.mark_items if isinstance(m, BounceItem)]

    table.key(Qt.Key.Key_Right)
    assert not bounces()
    table.key(Qt.Key.Key_Right)
    assert len(bounces()) == 1
    table.key(Qt.Key.Key_Home)
    assert st.position == 0 and not bounces()


def test_step_through_zooms_to_the_units_it_rings_and_back(table: Table) -> None:
    """Issue 18: from the back of a classroom, each step's units are framed large on the map."""
    from PySide6.QtCore import QPointF
    from PySide6.QtWidgets import QApplication

    table.window.resize(1366, 768)
    QApplication.processEvents()
    table.window.view.fit_to_window()
    st = _start(table, "Example 4 with the garrison supporting")
    view = table.window.view
    assert view.fitted and abs(view.zoom - 1.0) < 1e-6  # the orders: the whole board
    for _ in st.steps:
        table.key(Qt.Key.Key_Right)
        step = st.current
        assert step is not None and step.provinces
        assert view.zoom > 1.5, (step.title, view.zoom)  # larger than the whole board ...
        vp = view.viewport().rect()
        for prov in step.provinces:  # ... with every ringed unit on screen
            item = table.window.scene.unit_items.get(prov) or table.window.scene.displaced_items.get(prov)
            point = item.pos() if item is not None else QPointF(*table.geometry.unit_anchor(prov))
            assert vp.contains(view.mapFromScene(point)), (step.title, prov)
    st.to_start()
    assert view.fitted and abs(view.zoom - 1.0) < 1e-6  # no step: the whole board again
    table.key(Qt.Key.Key_Right)
    assert view.zoom > 1.5
    table.key(Qt.Key.Key_Escape)
    assert not st.active and view.fitted and abs(view.zoom - 1.0) < 1e-6  # the teacher's view back


def _ring_case(table: Table, outside_support: bool) -> StepThrough:
    """A ring of English moves (Holland, Belgium, North Sea) broken at Belgium by a French army
    from Burgundy: 1-1, a standoff; or, supported from Picardy, 2-1 (issue 32's two rings)."""
    from diplomacy_desktop.engine.game import Game
    from diplomacy_desktop.engine.state import GameState, Unit
    from diplomacy_desktop.io.notation import parse_order

    c = table.controller
    units = [Unit("england", "A", "hol"), Unit("england", "F", "bel"), Unit("england", "F", "nth"),
             Unit("france", "A", "bur")] + ([Unit("france", "A", "pic")] if outside_support else [])
    state = GameState.build(c.board, c.game.state.phase, units, dict(c.game.state.owners))
    c.replace_game(Game(c.board, c.game.rules, state))
    lines = [("england", "A hol - bel"), ("england", "F bel - nth"), ("england", "F nth - hol"),
             ("france", "A bur - bel")] + ([("france", "A pic S A bur - bel")] if outside_support else [])
    for power, text in lines:
        c.set_order(parse_order(text, power, state))
    adjudicate(table)
    entry = c.last_entry
    assert entry is not None
    st = start_step_through(table.window, entry)
    assert st is not None
    return st


def _move_steps(st: StepThrough) -> list[str]:
    return [s.results[0].order.province for s in st.steps if s.kind == "move"]  # type: ignore[attr-defined]


def test_step_through_shows_a_rings_standoff_before_the_rings_failure(table: Table) -> None:
    st = _ring_case(table, outside_support=False)
    order = _move_steps(st)
    # the standoff in Belgium (Holland's and Burgundy's moves) decides it; then the North Sea's
    # fleet cannot enter Holland, whose army stayed; then Belgium's cannot enter the North Sea
    assert set(order[:2]) == {"hol", "bur"}, order
    assert order[2:] == ["nth", "bel"], order
    table.key(Qt.Key.Key_Right)
    table.key(Qt.Key.Key_Right)
    assert set(_shown_results(table)) == {"hol", "bur"}  # the ring's failure is not told yet


def test_step_through_shows_the_outside_move_before_the_ring_it_broke(table: Table) -> None:
    st = _ring_case(table, outside_support=True)
    order = _move_steps(st)
    assert order.index("hol") < order.index("nth") < order.index("bel"), order
    assert order[0] == "bur"  # 2 beat 1: the strongest, and the cause of everything else


def test_predict_down_after_a_mark_does_not_skip_an_order(table: Table) -> None:
    st = _start(table, "Example 4 with the garrison supporting", predict=True)
    assert st.selected == 0
    table.key(Qt.Key.Key_S)  # marks the first order and moves to the second
    assert st.marks[0] is True and st.selected == 1
    table.key(Qt.Key.Key_Down)  # out of habit: stays on the second, which is not skipped
    assert st.selected == 1
    table.key(Qt.Key.Key_Down)  # a second ↓ moves on
    assert st.selected == 2
    table.key(Qt.Key.Key_F)
    assert st.marks[2] is False and st.selected == 3
    table.key(Qt.Key.Key_Up)  # ↑ after a mark goes back to the order marked
    assert st.selected == 2
    table.key(Qt.Key.Key_Tab)
    assert st.selected == 3
    # the keys are documented where the class sees them: the hint line and the panel
    assert "S succeeds · F fails (each moves to the next order)" in table.window.hint_label.text()
    assert "each marks the order and moves to the next one" in st.panel.text.toPlainText()
