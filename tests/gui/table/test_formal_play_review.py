"""Findings of the acceptance review of issue 10 (a Formal Diplomacy year and a five-player game
played through the real window under Xvfb at 1366x768 and 1920x1080), as regressions on the real
main window with the table features installed."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication
from test_formal_window import SPRING, declarations_round, start_formal
from window_harness import Table


def test_relations_panel_legend_never_covers_the_last_row_when_the_dock_is_short(table: Table, features) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """At 1366x768, tabbed with the orders, the panel was shorter than its fixed-height matrix:
    the layout squeezed the legend over Turkey's row.  It scrolls instead."""
    start_formal(features)
    window = table.window
    window.resize(1366, 740)
    window.show()
    dock = features.relations_dock
    dock.show()
    dock.raise_()  # its tab, beside the orders and the results, as at the table
    # what the window left it at 1366x768 under Xvfb: the dock column (orders, supply centres,
    # explanations) is taller than the screen, so Qt squeezes each dock below its minimum
    content = dock.widget()
    content.setGeometry(content.x(), content.y(), content.width(), 300)
    assert content.height() == 300
    body = dock.legend.parentWidget()
    matrix, legend = dock.matrix, dock.legend
    assert matrix.isVisible() and legend.isVisible()
    assert legend.geometry().top() >= matrix.geometry().bottom(), "the legend covers the matrix"
    assert dock.summary.geometry().top() >= legend.geometry().bottom()
    # every row of the matrix is inside the matrix's own height, none cut
    rows = matrix.rowCount()
    assert rows == 7
    last = matrix.rowViewportPosition(rows - 1) + matrix.rowHeight(rows - 1)
    assert last <= matrix.viewport().height()
    assert body.height() >= body.minimumSizeHint().height()


def test_seal_strip_chips_keep_their_names_beside_a_long_notice(table: Table, features) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """After the declarations' reveal at 1366x768 the strip's long notice squeezed the chips of
    the powers: "✓ TUF", "✎ GEI".  The notice gives way: on a line of its own under them (issue 34:
    whole, no longer cut to fit beside them)."""
    window = table.window
    window.resize(1366, 740)
    window.show()
    start_formal(features)
    f = features
    f.write_orders()
    declarations_round(f, SPRING)
    f.flow.curtain.reveal_button.click()
    f.reveal_dialog.accept()
    f.flow.curtain.open_button.click()  # the first power writes; the strip shows every power
    QApplication.processEvents()
    strip = f.strip
    notice = "France and Germany are now at war"
    assert strip.notice.isVisible() and notice in strip.notice.toolTip()
    chips = [strip._chips[p] for p in f.flow.session.order]
    assert len(chips) == 7
    for chip in chips:
        assert chip.isVisible()
        assert chip.width() >= chip.sizeHint().width(), f"{chip.text()!r} is squeezed"
    # issue 34: the notice is whole, wrapped on a line of its own under the chips (no longer cut)
    shown = strip.notice.text()
    assert shown == strip.notice.full_text() == f"\u26a0 {strip.notice.toolTip()}"
    assert strip.notice.wordWrap() and strip.notice.width() <= strip.width()
    assert strip.notice.geometry().top() >= max(chip.geometry().bottom() for chip in chips)


def test_review_warns_of_an_internment_before_sealing() -> None:
    """Fall 1901 of the play: Germany's army in Burgundy (entered at war), France and Germany
    neutral again; the review said "No problems found." and the army was interned."""
    from diplomacy_desktop.engine.formal import Relations
    from diplomacy_desktop.engine.orders import Hold, Move
    from diplomacy_desktop.engine.state import FALL, MOVEMENT, GameState, Phase, Unit
    from diplomacy_desktop.table.review import review_warnings
    from diplomacy_desktop.io.boardfile import load_board

    board = load_board()
    home = {c: p for p, cs in board.home_centres.items() for c in cs}
    units = [Unit("germany", "A", "bur"), Unit("germany", "A", "kie"), Unit("france", "A", "par")]

    def state(relations: dict[tuple[str, str], str]) -> GameState:
        return GameState.build(board, Phase(1901, FALL, MOVEMENT), units, home,
                               relations=Relations.from_mapping(relations))

    neutral = state({})
    hold = [Hold("germany", "A", "bur"), Hold("germany", "A", "kie")]
    warnings = review_warnings(neutral, "germany", hold)
    assert len(warnings) == 1
    assert warnings[0].startswith("A Bur stands in France's territory and France is neutral towards Germany")
    assert "interned and disbanded" in warnings[0] and "seed 003" in warnings[0]
    moving = [Move("germany", "A", "bur", "bel"), Hold("germany", "A", "kie")]
    (warning,) = review_warnings(neutral, "germany", moving)
    assert "unless its move out succeeds" in warning
    # still at war: the war clause lets the army stand there; the standard game: nothing
    assert review_warnings(state({("france", "germany"): "war"}), "germany", hold) == []
    standard = GameState.build(board, Phase(1901, FALL, MOVEMENT), units, home)
    assert review_warnings(standard, "germany", hold) == []
    # France's own review says nothing of Germany's army
    assert review_warnings(neutral, "france", [Hold("france", "A", "par")]) == []


def test_clock_half_minute_round_never_says_one_minute_left(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Wilson rounds of half a minute (played at 1366x768): the note read "One minute left!" beside
    0:28 for the whole round, and hid that the last round ends the talks."""
    from diplomacy_desktop.engine.state import Phase
    from diplomacy_desktop.gui.table.clock import ClockWidget
    from diplomacy_desktop.table.clock import ClockModel, ClockSettings

    class Now:
        t = 100.0

        def __call__(self) -> float:
            return self.t

    now = Now()
    settings = ClockSettings(wilson_rounds=2, round_minutes=0.5, writing_minutes=1.0)
    w = ClockWidget(ClockModel.for_phase(Phase(1901, "spring", "movement"), settings, now=now))
    qtbot.addWidget(w)
    w.show()
    w.start_button.click()
    now.t += 2
    w.tick()
    assert w.round_label.text() == "Round 1 of 2"
    assert w.note.text() == "Then: round 2 of 2"
    w.skip_button.click()  # the last round
    now.t += 2
    w.tick()
    assert w.round_label.text() == "Round 2 of 2"
    assert w.note.text() == "Last round: then the talks end"
    assert "One minute" not in w.note.text()
