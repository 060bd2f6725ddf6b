"""Issue 10, Formal Diplomacy (seed 003) in the window: the New Game option, the declarations round
behind the curtain and its reveal, the relations panel and its history, a typed forbidden order
with its reason, an interning in the results, save / resume mid-round, and secrecy.

Every test drives the real main window with the table features installed and asserts on the
model, the widgets and the scene.
"""

from __future__ import annotations

from host_stand_in import HOST_PIN
from PySide6.QtCore import Qt
from widget_text import shows, texts
from window_harness import Table

from diplomacy_desktop.engine.formal import ALLIANCE, NEUTRAL, WAR
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.state import Phase, Unit
from diplomacy_desktop.gui.board.map_scene import MarkItem
from diplomacy_desktop.table.declarations import PENDING_KEY
from diplomacy_desktop.gui.table.dialogs import NewGameDialog, TableSettings
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, OPEN, READY, hash_pin
from diplomacy_desktop.gui.table.persistence import resume_from_autosave


def start_formal(features, *, pins: dict[str, str] | None = None) -> None:  # type: ignore[no-untyped-def]
    features.start_new_game(TableSettings(formal=True, host_pin=hash_pin(HOST_PIN),
                                          pins={p: hash_pin(v) for p, v in (pins or {}).items()}))


def declare(f, power: str, choices: dict[str, str], pin: str = "") -> None:  # type: ignore[no-untyped-def]
    """``power`` (next at the curtain) opens, sets its declarations on the form and seals them."""
    flow = f.flow
    assert flow.session.next_power == power
    flow.curtain.pin_edit.setText(pin)
    flow.curtain.open_button.click()
    assert flow.session.stage == ENTERING and flow.session.current == power, flow.curtain.error_label.text()
    form = flow.declarations_form
    assert form is not None and form.isVisible() and form.power == power
    for other, relation in choices.items():
        form.choose(other, relation)
    form.seal_button.click()
    assert power in flow.session.sealed


#: Spring 1901: England and France ally (both), France declares war on Germany (one side),
#: Italy offers Austria an alliance that Austria does not return (mismatch), Russia and Turkey ally
SPRING = {
    "england": {"france": ALLIANCE},
    "france": {"england": ALLIANCE, "germany": WAR},
    "germany": {},
    "italy": {"austria": ALLIANCE},
    "austria": {"italy": NEUTRAL},
    "russia": {"turkey": ALLIANCE},
    "turkey": {"russia": ALLIANCE},
}


def declarations_round(f, said: dict[str, dict[str, str]]) -> None:  # type: ignore[no-untyped-def]
    while f.flow.session.next_power is not None:
        p = f.flow.session.next_power
        declare(f, p, said.get(p, {}))


def test_formal_new_game_option_starts_a_formal_game_kept_in_the_save(table: Table, features, tmp_path) -> None:  # type: ignore[no-untyped-def]
    dialog = NewGameDialog(table.controller.board, TableSettings(), table.window)
    assert not dialog.formal_box.isChecked() and "seed 003" in dialog.formal_box.text()
    dialog.formal_box.setChecked(True)
    settings = dialog.settings()
    assert settings.formal and settings.to_table()["formal"] is True
    dialog.reset_to_defaults()
    assert not dialog.settings().formal
    dialog.deleteLater()
    features.start_new_game(settings)
    c = table.controller
    assert c.game.formal and c.state.relations is not None
    assert "Formal Diplomacy" in table.window.windowTitle()
    assert "Formal Diplomacy" in table.window.phase_label.text()
    assert features.relations_dock.toggleViewAction().isVisible()
    assert features.table_settings.formal
    # saved and opened again: still a Formal Diplomacy game, the panel offered
    path = tmp_path / "formal.dipl"
    c.save(path)
    features.start_new_game(TableSettings())
    assert not c.game.formal and not features.relations_dock.toggleViewAction().isVisible()
    assert "Formal Diplomacy" not in table.window.windowTitle()
    assert not features.relations_dock.isVisible()
    assert features.open_recent(str(path))
    assert c.game.formal and "Formal Diplomacy" in table.window.windowTitle()
    assert features.relations_dock.toggleViewAction().isVisible()
    # the next New Game starts from the same table's choice
    dialog = features.offer_new_game()
    assert dialog.formal_box.isChecked()
    dialog.reject()


def test_formal_declarations_round_seal_reveal_together_then_orders(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    start_formal(features)
    f = features
    c = table.controller
    # the talks end (F6): the declarations round, not the orders, behind the curtain
    f.write_orders()
    s = f.flow.session
    assert s.declaring and s.stage == CURTAIN and f.flow.curtain_up
    assert "write my declarations" in f.flow.curtain.open_button.text()
    assert "Declarations" in f.flow.curtain.heading.text()
    # the form: today's relation shown and preselected, and what each choice will do
    first = s.next_power
    f.flow.curtain.open_button.click()
    form = f.flow.declarations_form
    other = next(p for p in c.board.power_ids if p != first)
    assert form.now_labels[other].text() == "neutral" and form.choice(other) == NEUTRAL
    assert "unless" in form.effect(other) and "war is one-sided" in form.effect(other)
    form.choose(other, WAR)
    assert form.effect(other).startswith("War is one-sided")
    form.choose(other, ALLIANCE)
    assert form.effect(other).startswith("An alliance needs both sides")
    assert "Mismatched declarations give neutral" in form.rules_label.text()
    # nobody may order while declaring, the map shows no orders
    assert not any(c.can_order(p) for p in c.board.power_ids)
    form.hide_button.click()  # steps away: nothing sealed, nothing kept
    assert s.stage == CURTAIN and first not in s.sealed and not form.isVisible()
    assert PENDING_KEY not in c.table
    declarations_round(f, SPRING)
    assert s.stage == READY and "Reveal all declarations" in f.flow.curtain.reveal_button.text()
    assert c.state.relations.pairs == ()  # nothing applied before the reveal
    f.flow.curtain.reveal_button.click()
    rel = c.state.relations
    assert rel.allied("england", "france")  # alliance: both sides
    assert rel.at_war("france", "germany")  # war: one side is enough
    assert rel.neutral("austria", "italy")  # mismatched: neutral
    assert rel.allied("russia", "turkey")
    assert c.state.phase == Phase(1901, "spring", "movement")  # nothing adjudicated
    # the table is told what changed, each pair's declarations and outcome shown together
    dialog = f.reveal_dialog
    assert dialog is not None and dialog.isVisible()
    assert set(dialog.changes) == {"England and France are now allies", "France and Germany are now at war",
                                   "Russia and Turkey are now allies"}
    rows = "\n".join(dialog.rows)
    assert "France declared war, Germany declared neutral: at war (was neutral)" in rows
    assert "Austria declared neutral, Italy declared alliance: neutral" in rows
    assert "England declared alliance, France declared alliance: allied (was neutral)" in rows
    assert "France and Germany are now at war" in f.strip.notice.toolTip()
    # the orders round starts behind the curtain
    assert not s.declaring and s.stage == CURTAIN and not s.sealed
    assert "show my orders" in f.flow.curtain.open_button.text()
    assert PENDING_KEY not in c.table and c.table["declared"] == ["S1901M"]
    dialog.accept()
    # Fall 1901: ending a war needs both sides; an alliance is broken by one side
    f.flow.force_reveal()
    assert c.state.phase.short == "F1901M"
    f.flow.session.stage = OPEN  # the talks of Fall (the adjudication's results were shown)
    f.end_talks()
    assert f.flow.session.declaring
    declarations_round(f, {"france": {"germany": NEUTRAL, "england": ALLIANCE}, "germany": {"france": WAR},
                           "england": {"france": ALLIANCE}, "russia": {"turkey": NEUTRAL},
                           "turkey": {"russia": ALLIANCE}})
    f.flow.curtain.reveal_button.click()
    rel = c.state.relations
    assert rel.at_war("france", "germany")  # only France wanted peace
    assert rel.allied("england", "france")
    assert rel.neutral("russia", "turkey")  # Russia alone broke the alliance
    assert "Russia and Turkey are now neutral: the alliance is broken" in f.reveal_dialog.changes


def test_formal_relations_panel_and_history_follow_reveal_undo_and_load(table: Table, features, tmp_path) -> None:  # type: ignore[no-untyped-def]
    start_formal(features)
    f = features
    c = table.controller
    dock = f.relations_dock
    assert dock.isVisible() or not dock.isHidden() or dock.toggleViewAction().isVisible()
    assert dock.cell_text("france", "germany") == "\u00b7"
    assert dock.history_rows == ["Spring 1901 moves (now): All neutral"]
    f.write_orders()
    declarations_round(f, SPRING)
    f.flow.curtain.reveal_button.click()
    assert dock.cell_text("france", "germany") == "War" and dock.cell_text("germany", "france") == "War"
    assert dock.cell_text("england", "france") == "Ally"
    assert dock.cell_text("austria", "italy") == "\u00b7"
    tip = dock.matrix.item(c.board.power_ids.index("france"), c.board.power_ids.index("germany")).toolTip()
    assert tip == "France and Germany: at war"
    assert "At war: France \u2013 Germany" in dock.summary.text()
    assert dock.history_rows[-1].startswith("Spring 1901 moves (now): Allied: England \u2013 France")
    # the history keeps each movement phase's relations
    f.flow.force_reveal()
    assert c.state.phase.short == "F1901M"
    rows = dock.history_rows
    assert rows[0].startswith("Spring 1901 moves: Allied: England \u2013 France") and "France \u2013 Germany" in rows[0]
    assert rows[-1].startswith("Fall 1901 moves (now):")
    # undo of the adjudication: back to Spring, relations of Spring; no second declarations round
    assert f.undo_adjudication()
    assert c.state.phase.short == "S1901M" and c.state.relations.at_war("france", "germany")
    assert dock.history_rows == [rows[0].replace("Spring 1901 moves", "Spring 1901 moves (now)", 1)]
    f.end_talks()
    assert not f.flow.session.declaring and f.flow.session.stage in (CURTAIN, READY)
    # a file opened: the panel shows its relations
    path = tmp_path / "f.dipl"
    c.save(path)
    f.start_new_game(TableSettings(formal=True))
    assert dock.cell_text("france", "germany") == "\u00b7"
    assert f.open_recent(str(path))
    assert dock.cell_text("france", "germany") == "War"
    assert "France and Germany: at war" in texts(dock)


def _type(t: Table, text: str) -> None:
    dock = t.window.order_dock
    t.window.focus_entry()
    dock.entry.clear()
    t.qtbot.keyClicks(dock.entry, text)
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Return)


def test_formal_typed_forbidden_order_is_kept_with_its_reason(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    start_formal(features)
    f = features
    c = table.controller
    f.write_orders()
    declarations_round(f, {})
    f.flow.curtain.reveal_button.click()
    f.reveal_dialog.accept()
    while f.flow.session.next_power != "france":  # the others write nothing
        f.flow.curtain.open_button.click()
        f.strip.seal_button.click()
    f.flow.curtain.open_button.click()
    assert c.active_power == "france"
    # clicking never offers it: Piedmont (Italy's home country, Italy neutral) is no target of Marseilles
    table.move("mar", "pie")
    assert not c.game.orders_of("france")
    # typed, it is kept, drawn as illegal, and its reason names the relation and seed 003's rule
    _type(table, "A Mar - Pie")
    order = next(o for o in c.game.orders_of("france"))
    reason = c.illegal_reason(order)
    assert reason is not None and "neutral towards France" in reason
    assert "Formal Diplomacy: neutral powers, seed 003" in reason
    assert "Formal Diplomacy: neutral powers" in table.window.order_dock.feedback.text()
    lines = table.window.order_dock.lines()
    line = next(line for line in lines if "A Mar - Pie" in line)
    assert "illegal" in line and "neutral" in line
    assert table.window.scene.order_items_of("france")[0].illegal
    f.strip.seal_button.click()
    assert f.flow.force_reveal()  # the powers after France write nothing either
    results = table.window.results_dock.result_texts()
    line = next(r for r in results if r.startswith("A Mar - Pie"))
    assert "| illegal |" in line and "neutral towards France" in line
    assert "(Formal Diplomacy: neutral powers, seed 003)" in line
    # the explanation panel names the Formal rule
    from teach_cases import click_result_row

    click_result_row(table, "A Mar - Pie")
    assert "Formal Diplomacy: neutral powers" in table.window.explanations.explained_text()


def test_formal_interned_unit_shown_in_the_results_and_on_the_map(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    # a French army standing in the Ruhr (German home country, Germany neutral): interned
    game = Game.new(table.controller.board, formal=True)
    units = dict(game.state.units)
    del units["par"]
    units["ruh"] = Unit("france", "A", "ruh")
    game.state = game.state.evolve(units=units)
    table.controller.replace_game(game, TableSettings(formal=True, host_pin=hash_pin(HOST_PIN)).to_table())
    f = features
    f.write_orders()
    declarations_round(f, {})
    f.flow.curtain.reveal_button.click()
    f.reveal_dialog.accept()
    assert f.flow.force_reveal()
    c = table.controller
    entry = c.game.history[-1]
    assert [u.province for u in entry.interned] == ["ruh"] and "ruh" not in c.state.units
    results = table.window.results_dock.result_texts()
    line = next(r for r in results if r.startswith("interned |"))
    assert "French army in Ruhr" in line and "interned by Germany" in line
    assert "Neutrality violation" in table.window.results_dock.results.toPlainText().title() or \
        "neutrality violation" in table.window.results_dock.results.toPlainText()
    assert "seed 003" in table.window.results_dock.results.toPlainText()
    marks = [i for i in table.window.scene.items() if isinstance(i, MarkItem)]
    assert any("interned" in m.toolTip() for m in marks)


def test_formal_save_and_resume_in_the_middle_of_the_declarations_round(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    start_formal(features, pins={"germany": "1234"})
    f = features
    c = table.controller
    f.write_orders()
    sealed = []
    while len(sealed) < 3:
        p = f.flow.session.next_power
        if p == "germany":
            declare(f, p, {"france": WAR}, pin="1234")
        else:
            declare(f, p, SPRING.get(p, {}))
        sealed.append(p)
    # the next power is at the keyboard when the laptop is closed
    f.flow.curtain.pin_edit.setText("1234" if f.flow.session.next_power == "germany" else "")
    f.flow.curtain.open_button.click()
    assert f.flow.session.stage == ENTERING
    f.autosaver.save_now()
    f.autosaver.autosave.close()  # (issue 21: the database, as a restart finds it)
    kept = f.autosaver.autosave.path.read_bytes()
    # a new start: resumed from the autosave, behind the curtain, the declarations still pending
    f.start_new_game(TableSettings())
    assert not c.game.formal
    f.autosaver.autosave.close()
    f.autosaver.autosave.path.write_bytes(kept)  # (the app restarted: its autosave is the game's)
    assert resume_from_autosave(c, f.autosaver.autosave, parent=table.window, message=lambda *a: None)
    s = f.flow.session
    assert c.game.formal and s.declaring and s.stage == CURTAIN and s.current is None
    assert set(s.sealed) == set(sealed)
    assert set(c.table[PENDING_KEY]) == set(sealed)
    assert not f.flow.declarations_form.isVisible()
    assert c.state.relations.pairs == ()
    while f.flow.session.next_power is not None:
        p = f.flow.session.next_power
        declare(f, p, SPRING.get(p, {}), pin="1234" if p == "germany" else "")
    f.flow.curtain.reveal_button.click()
    assert c.state.relations.at_war("france", "germany")
    assert c.state.relations.allied("england", "france")


def test_formal_host_forces_the_reveal_and_unsealed_powers_declare_nothing(table: Table, features, host) -> None:  # type: ignore[no-untyped-def]
    start_formal(features)
    f = features
    c = table.controller
    f.write_orders()
    first = f.flow.session.next_power
    victim = next(p for p in c.board.power_ids if p != first)
    declare(f, first, {victim: WAR})
    host.typed = "0000"
    assert not f.flow.force_reveal()
    assert f.flow.session.declaring and c.state.relations.pairs == ()
    host.typed = HOST_PIN
    assert f.flow.force_reveal()
    assert "Reveal the declarations now" in host.prompts[-1] and "declare nothing" in host.prompts[-1]
    assert c.state.relations.at_war(first, victim) and len(c.state.relations.pairs) == 1
    assert not f.flow.session.declaring and f.flow.session.stage == CURTAIN


def test_formal_secrecy_no_declaration_shown_before_the_reveal(qtbot, table: Table, features) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.gui.teach.presentation import install_projector

    start_formal(features)
    f = features
    c = table.controller
    projector = install_projector(table.window)
    f.write_orders()
    order = f.flow.session.order
    first, second = order[0], order[1]
    # the first power declares war on the second and an alliance with the third: secret
    declare(f, first, {second: WAR, order[2]: ALLIANCE})
    name = c.power_name
    # nothing of the sealed sheet is left in the window, not even hidden
    from PySide6.QtWidgets import QRadioButton

    assert not f.flow.declarations_form.findChildren(QRadioButton)
    assert not f.flow.declarations_form.isVisible() and f.flow.declarations_form.power is None

    def no_leak() -> None:
        everything = "\n".join(texts(table.window))
        assert f"{name(first)} declared" not in everything
        assert f"{name(first)}: war" not in everything
        assert "are now at war" not in everything
        assert f.relations_dock.cell_text(first, second) == "\u00b7"
        assert "At war" not in f.relations_dock.summary.text()
        assert not shows(table.window, "Declarations revealed")

    no_leak()
    # the second power, at the keyboard, sees today's relation (neutral) preselected, not the war
    f.flow.curtain.open_button.click()
    form = f.flow.declarations_form
    assert form.power == second and form.choice(first) == NEUTRAL and form.now_labels[first].text() == "neutral"
    assert set(form.buttons) == set(c.board.power_ids) - {second}
    no_leak()
    # panels, menus and the projector (F5) show nothing of it
    for dock in (table.window.order_dock, table.window.results_dock, f.relations_dock):
        dock.toggleViewAction().trigger()
        dock.toggleViewAction().trigger()
    projector.toggle()
    no_leak()
    projector.toggle()
    form.hide_button.click()
    no_leak()
    # reopening a sealed power is the host's (and told), and shows only that power's own choices
    f.flow.open_other(first)
    assert f.flow.session.current == first
    assert f.flow.declarations_form.choice(second) == WAR
    f.flow.declarations_form.seal_button.click()
    # nothing in the autosave but the table's own clear text, and the strip names no declaration
    assert all("war" not in f.strip.chip_text(p).lower() for p in c.board.power_ids)
    while f.flow.session.next_power is not None:
        declare(f, f.flow.session.next_power, {})
    f.flow.curtain.reveal_button.click()
    assert c.state.relations.at_war(first, second)
    assert f.relations_dock.cell_text(first, second) == "War"


def test_formal_declarations_in_the_open_when_secrecy_is_off(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    c = table.controller
    f.start_new_game(TableSettings(formal=True, secrecy=False))
    assert f.act_declare.isVisible() and f.act_declare.isEnabled()
    # Ctrl+Return before the declarations: the table is asked, and makes them first
    f.adjudicate()
    dialog = f.open_declarations
    assert dialog is not None and dialog.isVisible() and c.state.phase.short == "S1901M"
    while dialog.current is not None and dialog.isVisible():
        power = dialog.current
        for other, relation in SPRING.get(power, {}).items():
            dialog.form.choose(other, relation)
        dialog.form.seal_button.click()
    assert f.open_declarations is None
    rel = c.state.relations
    assert rel.at_war("france", "germany") and rel.allied("england", "france") and rel.neutral("austria", "italy")
    assert "France and Germany are now at war" in f.reveal_dialog.changes
    assert not f.act_declare.isEnabled()
    f.reveal_dialog.accept()
    f.adjudicate()  # declared: adjudicated at once
    assert c.state.phase.short == "F1901M"
    assert f.act_declare.isEnabled()


def test_formal_lifting_secrecy_mid_declarations_reveals_them(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    start_formal(features)
    f = features
    c = table.controller
    f.write_orders()
    first = f.flow.session.next_power
    other = next(p for p in c.board.power_ids if p != first)
    declare(f, first, {other: WAR})
    assert "Declarations sealed: " in f.unrevealed_summary()
    assert f.toggle_secrecy()
    assert c.state.relations.at_war(first, other)
    assert not f.flow.session.declaring and PENDING_KEY not in c.table
    assert f.reveal_dialog is not None


def test_formal_a_player_with_two_powers_declares_for_both_in_one_turn(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    """Five players, Anna holds England and Germany: one curtain stop, a declarations sheet for
    each of her powers one after the other, one seal for both, revealed with everyone else's."""
    players = {"england": "Anna", "germany": "Anna", "france": "Ben", "austria": "Cara",
               "russia": "Dan", "turkey": "Eve"}
    features.start_new_game(TableSettings(formal=True, host_pin=hash_pin(HOST_PIN), players=players,
                                          powers=tuple(players)))
    f = features
    f.end_talks()
    s = f.flow.session
    assert s.declaring and sorted(len(seat) for seat in s.seats()) == [1, 1, 1, 1, 2]
    anna: list[str] = []
    while s.next_power is not None:
        f.flow.curtain.open_button.click()
        form = f.flow.declarations_form
        assert form is not None and form.isVisible()
        if set(s.current_seat) == {"england", "germany"}:
            anna.append(form.power)
            form.choose("france", WAR)  # Anna's first power declares war on France
            form.seal_button.click()
            assert s.stage == ENTERING and not ({"england", "germany"} & s.sealed)  # one seal, at the end
            assert form.isVisible() and form.power in {"england", "germany"} and form.power != anna[0]
            anna.append(form.power)
            form.choose("russia", ALLIANCE)  # her second offers Russia an alliance
            form.seal_button.click()
            assert {"england", "germany"} <= s.sealed and s.current is None
        else:
            if form.power == "russia":
                form.choose("england", ALLIANCE)
                form.choose("germany", ALLIANCE)
            form.seal_button.click()
    assert s.stage == READY
    f.flow.curtain.reveal_button.click()
    rel = table.controller.state.relations
    assert rel is not None
    first, second = anna
    assert rel.at_war(first, "france") and not rel.at_war(second, "france")
    assert rel.allied(second, "russia") and not rel.allied(first, "russia")
    assert s.round == "orders" and s.stage in (CURTAIN, READY)


def test_formal_table_menu_says_declarations_in_the_declarations_round(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    """F6, F7 and F8 say what they will do: the declarations round reveals declarations, not
    orders; the orders round after it reveals and adjudicates."""
    start_formal(features)
    f = features
    assert f.act_write.text() == "&Declarations, then orders (end the talks)"
    assert "declares" in f.act_write.statusTip()
    assert f.strip.write_button.text() == "Declarations, then orders" and f.strip.write_button.isVisibleTo(f.strip)
    assert "declarations first" in f.strip.write_button.toolTip()
    f.write_orders()
    assert f.flow.session.declaring
    assert f.act_reveal.text() == "&Reveal all declarations\u2026"
    assert f.act_reveal.toolTip() == "Reveal all declarations"
    assert "declarations" in f.act_reveal.statusTip()
    assert "adjudicate" not in f.act_reveal.text() + f.act_reveal.toolTip() + f.act_reveal.statusTip()
    assert "orders" not in f.act_seal.text() and "declarations" in f.act_seal.text()
    declarations_round(f, SPRING)
    assert f.act_reveal.text() == "&Reveal all declarations\u2026"  # all sealed, not yet shown
    f.act_reveal.trigger()  # all sealed: F8 reveals the declarations, adjudicates nothing
    assert table.controller.state.phase == Phase(1901, "spring", "movement")
    assert not f.flow.session.declaring and f.flow.session.stage == CURTAIN
    assert f.act_reveal.text() == "&Reveal and adjudicate\u2026"
    assert f.act_reveal.toolTip() == "Reveal and adjudicate"
    assert f.act_seal.text() == "Review and &seal my orders\u2026"
    assert f.act_write.text() == "&Write orders (end the talks)"  # this phase's declarations are made
    assert f.strip.write_button.text() == "Write orders"
    f.reveal_dialog.accept()
    f.start_new_game(TableSettings())  # not Formal Diplomacy: orders only
    assert f.act_write.text() == "&Write orders (end the talks)" and f.strip.write_button.text() == "Write orders"
    assert f.act_reveal.text() == "&Reveal and adjudicate\u2026"


def test_formal_curtain_clock_says_declarations_are_due_when_time_is_up(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.table.clock import EXPIRED

    start_formal(features)
    f = features
    f.write_orders()
    assert f.flow.session.declaring and f.flow.curtain_up
    f.clock.model.status = EXPIRED  # the whole clock ran out while the table still declares
    f._update_curtain_clock()
    assert f.flow.curtain.clock_label.text() == "Time is up: declarations are due"


def test_formal_declarations_revealed_at_the_laptop_open_the_orders_on_phones_joining_later(table: Table, features) -> None:  # type: ignore[no-untyped-def]
    """Issue 30: the laptop's reveal of the declarations is the table service's (it records that
    this phase's declarations are revealed); phones hosted only afterwards see the orders open,
    not a second declarations round (the record was the phone host's, written only while hosting)."""
    start_formal(features)
    f = features
    f.write_orders()
    declarations_round(f, SPRING)
    f.flow.curtain.reveal_button.click()
    c = table.controller
    assert c.state.relations.allied("england", "france")
    assert c.service.stage == "orders"
    f.turn_on(0, "127.0.0.1")
    try:
        host = f.phones.host
        state = host.state_for(host.token_of("france"))
        assert state["stage"] == "orders", state["stage"]
    finally:
        f.turn_off()
