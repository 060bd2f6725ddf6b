"""Issue 10, seats: fewer than seven players, powers by priority, one curtain turn per player,
civil disorder marked by the host, the short game's measure and the draw vote's survivors.

Each test drives the real window (or the real New Game dialog) and asserts on the widgets, the
scene and the model.
"""

from __future__ import annotations

import random

import pytest
from new_game import no_pins_and_a_passphrase
from PySide6.QtWidgets import QLabel
from test_secrecy import HOST_PIN, assert_hidden
from widget_text import shows, texts

from diplomacy_desktop.engine.errors import IllegalOrderError
from diplomacy_desktop.engine.game import Game, short_game_leaders
from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.engine.seating import GROUPINGS, assign_by_priority
from diplomacy_desktop.gui.table.dialogs import GameOverDialog, NewGameDialog, TableSettings
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, READY, hash_pin
from diplomacy_desktop.io.pins import pin_matches
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import format_order

BOARD = load_board("standard")

#: a five-player table: Anna holds England and France, Italy is not played (civil disorder)
FIVE = {"england": "Anna", "france": "Anna", "austria": "Ben", "germany": "Cara", "russia": "Dan",
        "turkey": "Eve"}

CLICKS = {
    "england": [("move", "lon", "nth"), ("move", "edi", "nwg"), ("move", "lvp", "yor")],
    "france": [("move", "par", "bur"), ("support", "mar", "par", "bur"), ("move", "bre", "mao")],
    "germany": [("move", "mun", "ruh"), ("move", "ber", "mun"), ("move", "kie", "den")],
    "austria": [("move", "vie", "gal"), ("move", "bud", "ser"), ("move", "tri", "alb")],
    "russia": [("move", "war", "gal"), ("move", "mos", "ukr"), ("move", "sev", "bla"), ("move", "stp", "bot")],
    "turkey": [("move", "ank", "bla"), ("move", "con", "bul"), ("move", "smy", "con")],
}


def start_five(f, *, pins: dict[str, str] | None = None, **more) -> None:  # type: ignore[no-untyped-def]
    f.start_new_game(TableSettings(powers=tuple(p for p in BOARD.power_ids if p in FIVE), players=dict(FIVE),
                                   pins={p: hash_pin(v) for p, v in (pins or {}).items()},
                                   host_pin=hash_pin(HOST_PIN), **more))


def click_orders(t, power: str) -> set[str]:  # type: ignore[no-untyped-def]
    for step in CLICKS[power]:
        getattr(t, step[0])(*step[1:])
    return {format_order(o) for o in t.controller.game.orders_of(power)}


# -- New Game: number of players and the rulebook's groupings -------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_seats_new_game_offers_the_rulebook_grouping_for_each_player_count(qtbot, n: int) -> None:
    d = NewGameDialog(BOARD)
    qtbot.addWidget(d)
    d.players_spin.setValue(n)
    d.player_edits[0].setText("Anna")
    d.player_edits[0].textEdited.emit("Anna")
    s = d.settings()
    seats = GROUPINGS[n]
    played = {p for seat in seats for p in seat}
    assert set(s.powers_in_play(BOARD)) == played
    if n < 7:
        assert all(e.isVisibleTo(d) for e in d.player_edits[:n])
        assert all(not e.isVisibleTo(d) for e in d.player_edits[n:])
    else:  # issue 17: seven players placed by the host are named in the name column only
        assert not any(e.isVisibleTo(d) for e in d.player_edits) and not d.players_caption.isVisibleTo(d)
    # every seat's powers share one player; the first seat is Anna's
    for i, seat in enumerate(seats):
        names = {s.players.get(p) for p in seat}
        assert len(names) == 1
        if n < 7:
            assert names == {"Anna" if i == 0 else f"Player {i + 1}"}
    assert "Anna" in {s.players.get(p) for p in seats[0]}
    unplayed = [BOARD.power(p).name for p in BOARD.power_ids if p not in played]
    label = d.unplayed_label.text()
    if unplayed:
        assert all(name in label for name in unplayed) and "civil disorder" in label
    else:
        assert not d.unplayed_label.isVisibleTo(d)
    assert f"for {n} players" in d.grouping_label.text()


def test_seats_new_game_six_and_five_players_leave_out_italy_then_germany(qtbot) -> None:
    d = NewGameDialog(BOARD)
    qtbot.addWidget(d)
    d.players_spin.setValue(6)
    assert not d.play_boxes["italy"].isChecked() and "Italy" in d.unplayed_label.text()
    d.players_spin.setValue(5)
    assert not d.play_boxes["italy"].isChecked() and not d.play_boxes["germany"].isChecked()
    assert "Germany and Italy" in d.unplayed_label.text()
    d.players_spin.setValue(7)
    assert d.settings() == TableSettings()  # back to the standard game


def test_seats_host_assigns_by_hand_with_one_pin_per_player(qtbot, features, table) -> None:  # type: ignore[no-untyped-def]
    f = features
    d = f.offer_new_game(TableSettings())
    d.players_spin.setValue(4)  # England; Austria & France; Germany & Turkey; Italy & Russia
    for i, name in enumerate(("Anna", "Ben", "Cara", "Dan")):
        d.player_edits[i].setText(name)
        d.player_edits[i].textEdited.emit(name)
    # the host moves Italy & Russia's player: Dan plays them; Cara also takes over Austria by hand
    d.name_edits["austria"].setText("Cara")
    d.pin_edits["germany"].setText("5831")  # Cara's PIN, typed at one of her powers
    d.pin_edits["turkey"].setText("7206")
    d.start_button.click()
    assert "one PIN per player" in d.error_label.text()  # two PINs for one player: refused, nothing lost
    d.pin_edits["turkey"].setText("")
    s = d.settings()
    assert s.players["austria"] == "Cara" and s.players["france"] == "Ben" and s.players["england"] == "Anna"
    # one PIN per player: the same hash under each of Cara's powers
    assert s.pins["germany"] == s.pins["turkey"] == s.pins["austria"] and pin_matches(s.pins["austria"], "5831")
    no_pins_and_a_passphrase(d).start_button.click()  # issue 20: the others play without PINs, said so
    c = table.controller
    assert c.table["players"]["turkey"] == "Cara" and c.table.get("seating") is None
    f.act_write.trigger()
    seats = f.flow.session.seats()
    assert ("austria", "germany", "turkey") in [tuple(sorted(s)) for s in seats]
    assert len(seats) == 4


# -- powers by priority -----------------------------------------------------------------------------


def _choose(d, player: str, *seats: str) -> None:  # type: ignore[no-untyped-def]
    for combo, seat in zip(d.open_combos[player], seats, strict=False):
        combo.setCurrentIndex(combo.findData(seat))


def test_seats_priority_assignment_settles_a_tie_by_the_seeded_draw_shown(qtbot, features, table) -> None:  # type: ignore[no-untyped-def]
    f = features
    d = f.offer_new_game(TableSettings())
    d.players_spin.setValue(5)
    for i, name in enumerate(("Anna", "Ben", "Cara", "Dan", "Eve")):
        d.player_edits[i].setText(name)
    d.assign_combo.setCurrentIndex(d.assign_combo.findData("priority"))
    d.start_button.click()
    assert "Draw the powers by priority first" in d.error_label.text()  # not drawn yet: refused
    p = d.open_priorities()
    p.seed = 31415
    _choose(p, "Anna", "england", "france", "turkey")
    _choose(p, "Ben", "england", "russia")
    _choose(p, "Cara", "england", "austria")
    _choose(p, "Dan", "russia", "austria")
    _choose(p, "Eve", "turkey")
    p.assign_button.click()
    expected = assign_by_priority({"Anna": ["england", "france", "turkey"], "Ben": ["england", "russia"],
                                   "Cara": ["england", "austria"], "Dan": ["russia", "austria"],
                                   "Eve": ["turkey"]}, GROUPINGS[5], 31415, BOARD.power_ids)
    record = p.record_label.text()
    assert "Seed 31415" in record and "random.Random(31415)" in record
    tie = expected.draws[0]
    assert tie.choice == 1 and tie.contenders == ("Anna", "Ben", "Cara")
    assert (f"Tie on the 1st choices: Anna, Ben and Cara all wanted England; the lot gave it to {tie.winner}."
            in record)
    for player, seat in expected.seats:
        assert f"{player} plays {BOARD.power(seat[0]).name}." in record
    assert "Not played (civil disorder): Germany and Italy." in record
    p.use_button.click()
    assert shows(d, f"the lot gave it to {tie.winner}")  # the table sees the draw in New Game too
    no_pins_and_a_passphrase(d).start_button.click()
    c = table.controller
    assert c.player_name("england") == tie.winner
    seating = c.table["seating"]
    assert seating["seed"] == 31415 and seating["draws"][0]["winner"] == tie.winner
    assert seating["choices"]["Eve"] == ["turkey"] and not seating["secret"]
    assert set(c.table["powers"]) == {"austria", "england", "france", "russia", "turkey"}
    # the same seed and choices give the same draw: anyone can repeat it
    again = assign_by_priority(seating["choices"], GROUPINGS[5], seating["seed"], BOARD.power_ids)
    assert again == expected


def test_seats_secret_priorities_show_one_player_at_a_time(qtbot, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    d = f.offer_new_game(TableSettings())
    d.players_spin.setValue(3)  # England, Germany & Austria; Russia & Italy; France & Turkey
    for i, name in enumerate(("Anna", "Ben", "Cara")):
        d.player_edits[i].setText(name)
    d.assign_combo.setCurrentIndex(d.assign_combo.findData("secret"))
    p = d.open_priorities()
    assert p.stack.currentWidget() is p.pass_page and p.pass_name.text() == "Anna"
    assert not p.record_label.text() and not p.assign_button.isVisible()
    p.ready_button.click()
    assert p.stack.currentWidget() is p.choose_page and p.choose_name.text() == "Anna"
    p.secret_combos[0].setCurrentIndex(p.secret_combos[0].findData("france"))
    p.secret_combos[1].setCurrentIndex(p.secret_combos[1].findData("france"))
    p.done_button.click()
    assert "twice" in p.error_label.text() and p.next_player == "Anna"  # kept, nothing lost
    p.secret_combos[1].setCurrentIndex(p.secret_combos[1].findData("russia"))
    p.done_button.click()
    # Ben's turn: nothing of Anna's choices anywhere in the dialog
    assert p.stack.currentWidget() is p.pass_page and p.pass_name.text() == "Ben"
    p.ready_button.click()
    assert all(c.currentIndex() == 0 for c in p.secret_combos)
    shown = [w.text() for w in p.findChildren(QLabel) if w.isVisibleTo(p)]
    assert not any("Anna" in t for t in shown) and not any("France and Turkey" in t for t in shown)
    assert not any(c.currentText() != "(none)" for c in p.secret_combos)
    p.secret_combos[0].setCurrentIndex(p.secret_combos[0].findData("france"))  # a tie with Anna
    p.done_button.click()
    p.ready_button.click()
    assert p.choose_name.text() == "Cara" and all(c.currentIndex() == 0 for c in p.secret_combos)
    p.secret_combos[0].setCurrentIndex(p.secret_combos[0].findData("england"))
    p.done_button.click()
    # all have chosen: the draw is shown to the table
    assert p.stack.currentWidget() is p.result_page
    assert "Tie on the 1st choices: Anna and Ben both wanted France and Turkey" in p.record_label.text()
    p.use_button.click()
    s = d.settings()
    assert s.seating["secret"] and s.players["england"] == "Cara"
    assert {s.players["france"], s.players["russia"]} == {"Anna", "Ben"}


# -- one curtain turn for a player with several powers --------------------------------------------


def test_seats_five_players_one_holds_two_powers_and_seals_both_in_one_turn(features, table, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start_five(f, pins={"england": "2468", "france": "2468"})
    c = t.controller
    f.act_write.trigger()
    s = f.flow.session
    assert "italy" not in s.order and len(s.seats()) == 5  # five curtain stops, not six
    written: dict[str, set[str]] = {}
    while s.next_power is not None:
        nxt = s.next_power
        seat = s.seat_of(nxt)
        if len(seat) == 2:
            cur = f.flow.curtain
            assert cur.power_label.text().strip() == "Anna" and cur.player_label.text() == "England and France"
            assert "2 powers" in cur.open_button.text() and cur.pin_edit.isVisibleTo(cur)
            cur.pin_edit.setText("2468")
            cur.open_button.click()
            assert s.stage == ENTERING and set(s.current_seat) == {"england", "france"}
            assert c.active_powers == frozenset({"england", "france"})
            dock = t.window.order_dock
            ids = list(BOARD.power_ids)
            assert {ids[i] for i in range(dock.tabs.count()) if dock.tabs.isTabEnabled(i)} == {"england", "france"}
            assert not c.can_order("germany") and "only England and France" in (c.order_refusal("germany") or "")
            for p in ("england", "france"):
                written[p] = click_orders(t, p)
            # everyone else's sealed orders stay hidden under Anna's turn
            for other, orders in written.items():
                if other not in seat:
                    assert_hidden(t, other, orders)
            f.strip.seal_button.click()  # one seal for both
            assert {"england", "france"} <= s.sealed
            cur.seal_done_button.click()  # Anna notes both seal codes and hides them (issue 34)
        else:
            f.flow.curtain.open_button.click()
            assert s.current_seat == (nxt,)
            written[nxt] = click_orders(t, nxt)
            for p in ("england", "france"):  # Anna's orders are hidden from every other player
                if p in written:
                    assert_hidden(t, p, written[p])
            f.strip.seal_button.click()
            f.flow.curtain.seal_done_button.click()
    assert s.stage == READY and "Anna \u2014 England and France" in f.flow.curtain.sealed_label.text()
    f.flow.curtain.reveal_button.click()
    entry = c.game.history[-1]
    assert entry.disorder == frozenset({"italy"})  # nobody plays Italy
    assert c.state.units["bur"].power == "france"
    assert "civil disorder | Italy" in t.window.results_dock.result_texts()


def test_seats_secrecy_of_a_seat_under_the_curtain(features, table) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start_five(f)
    c = t.controller
    f.act_write.trigger()
    s = f.flow.session
    while s.seat_of(s.next_power) != ("england", "france") and len(s.seat_of(s.next_power)) == 1:
        f.flow.curtain.open_button.click()
        click_orders(t, s.current)
        f.strip.seal_button.click()
    f.flow.curtain.open_button.click()
    mine = click_orders(t, "england") | click_orders(t, "france")
    f.strip.seal_button.click()
    assert f.flow.curtain_up
    for text in mine:  # not on the curtain, not in any panel, not in the strip's tooltips
        assert not shows(t.window, text)
    assert not any("Mar S" in x for x in texts(f.strip))
    assert not t.window.scene.order_items_of("england") and not t.window.scene.order_items_of("france")
    # reopening one of Anna's powers is reopening her seat: a host action, the table is told
    combo = f.flow.curtain.other_combo
    index = combo.findData(s.seat_of("england")[0])
    assert index >= 0 and "Anna \u2014 England and France (sealed: reopen)" == combo.itemText(index)
    combo.setCurrentIndex(index)
    f.flow.curtain.other_button.click()
    assert s.stage == ENTERING and set(s.current_seat) == {"england", "france"}
    assert "england" not in s.sealed and "france" not in s.sealed
    assert any("Anna \u2014 England and France" in n for n in s.notices)
    assert c.can_see("england") and c.can_see("france") and not c.can_see("germany")


# -- civil disorder ---------------------------------------------------------------------------------


def test_seats_civil_disorder_marked_by_the_host_and_unmarked(features, table, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start_five(f)
    c = t.controller
    f.act_write.trigger()
    s = f.flow.session
    assert "turkey" in s.order
    # through the menu: the host's list
    f.act_disorder.trigger()
    d = f.disorder_dialog
    assert d is not None and "italy" not in d.boxes  # unplayed: always in disorder, not the host's to mark
    d.boxes["turkey"].setChecked(True)
    host.typed = "0000"  # not the host
    d.accept()
    assert c.marked_disorder() == frozenset() and "turkey" in s.order
    assert shows(t.window, "Wrong host PIN")
    f.act_disorder.trigger()
    f.disorder_dialog.boxes["turkey"].setChecked(True)
    host.typed = HOST_PIN
    f.disorder_dialog.accept()
    assert c.marked_disorder() == frozenset({"turkey"}) and c.table["disorder"] == ["turkey"]
    assert "turkey" not in s.order  # skipped by the curtain round
    assert "\u2298 TUR" in [f.strip.chip_text(p) for p in ("turkey",)]
    assert "\u2298 ITA" == f.strip.chip_text("italy")
    # Turkey's units hold without orders; the others write and seal
    while s.next_power is not None:
        f.flow.curtain.open_button.click()
        for p in s.current_seat:
            click_orders(t, p)
        f.strip.seal_button.click()
    f.flow.curtain.reveal_button.click()
    entry = c.game.history[-1]
    assert entry.disorder == frozenset({"turkey", "italy"})
    assert c.state.units["ank"].power == "turkey"  # held
    assert any(line.startswith("civil disorder | Italy and Turkey") for line in t.window.results_dock.result_texts())
    # the player is back: unmarked, Turkey writes again from the next phase
    assert f.set_disorder([])
    assert c.marked_disorder() == frozenset()
    f.flow.begin_phase()
    assert "turkey" in f.flow.session.order


def test_seats_a_power_with_no_orders_is_in_civil_disorder_that_season(features, table, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    f.start_new_game(TableSettings(secrecy=False))
    c = t.controller
    # Germany and Italy give no order
    for p in ("england", "france", "austria", "russia", "turkey"):
        click_orders(t, p)
    assert c.phase_disorder() == frozenset({"germany", "italy"})
    t.adjudicate()
    entry = c.game.history[-1]
    assert entry.disorder == frozenset({"germany", "italy"})
    assert any(line.startswith("civil disorder | Germany and Italy") for line in t.window.results_dock.result_texts())
    assert "\u2298" in t.window.results_dock.phases.item(0).text()
    # the sandbox's rule: a controller without the table's rules puts nobody in disorder
    c.civil_disorder_rules = False
    assert c.phase_disorder() == frozenset()


# -- end of game ------------------------------------------------------------------------------------


def _short_game(by: str) -> Game:
    """A game past its last year where every power has three pieces but Russia four centres."""
    g = Game.new(BOARD, end_year=1900, short_game_by=by)
    state = g.state
    units = {k: u for k, u in state.units.items() if k != "war"}
    g.state = state.evolve(units=units)
    return g


@pytest.mark.parametrize("by", ["centres", "pieces"])
def test_seats_short_game_winner_by_centres_or_pieces_and_a_tie(qtbot, by: str) -> None:
    g = _short_game(by)
    end = g.ended
    assert end is not None and end.kind == "short_game" and end.measure == by
    d = GameOverDialog(end, g.state, names={"russia": "Dan"})
    qtbot.addWidget(d)
    if by == "centres":
        assert end.winners == ("russia",) and not end.tied
        assert d.headline.text() == "Russia (Dan) leads"
        assert d.count_label.text() == "Won by most supply centres (rules XIV.4): Russia has 4."
    else:
        leaders, counts = short_game_leaders(g.state, "pieces")
        assert end.tied and end.winners == leaders and len(leaders) == 7 and set(counts.values()) == {3}
        assert d.headline.text().startswith("Tie: ")
        assert "A tie: Austria, England, France, Germany, Italy, Russia and Turkey each have 3" in d.count_label.text()
        # the table shows everyone's pieces, the winners starred
        stars = [d.table.item(r, 0).text() for r in range(d.table.rowCount())]
        assert all("\u2605" in s for s in stars)


def test_seats_short_game_measure_chosen_in_new_game_and_saved(qtbot, features, table, tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = features
    d = f.offer_new_game(TableSettings())
    d.short_box.setChecked(True)
    d.end_year_spin.setValue(1903)
    d.short_by_combo.setCurrentIndex(d.short_by_combo.findData("pieces"))
    no_pins_and_a_passphrase(d).start_button.click()
    c = table.controller
    assert c.game.short_game_by == "pieces" and c.table["short_game_by"] == "pieces"
    assert f.table_settings.short_game_by == "pieces"
    path = tmp_path / "short.json"
    c.save(path)
    c.new_game()
    c.load(path)
    assert c.game.short_game_by == "pieces" and c.game.end_year == 1903
    d2 = f.offer_new_game()
    assert d2.short_by_combo.currentData() == "pieces"  # the same table plays the same way next time
    d2.reject()


def test_seats_draw_vote_asks_surviving_powers_once_per_player(features, table) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start_five(f, pins={"england": "2468", "france": "2468"})
    c = t.controller
    # Austria is eliminated: no units, no centres
    state = c.state
    units = {k: u for k, u in state.units.items() if u.power != "austria"}
    owners = {k: v for k, v in state.owners.items() if v != "austria"}
    c.set_position(state.evolve(units=units, owners=owners))
    assert c.state.is_eliminated("austria")
    d = f.propose_draw()
    assert d is not None
    # Austria (eliminated) and Italy (nobody plays it) are not asked; Anna votes once for her two powers
    assert set(d.vote.voters) == {"england", "germany", "russia", "turkey"}
    assert d.names["england"] == "Anna \u2014 England and France" and "england" in d.pins
    for _ in d.vote.voters:
        if d.pins.get(d.vote.next_voter):
            d.pin_edit.setText("2468")
        d.ready_button.click()
        d.cast(True)
    assert d.vote.accepted
    d.close_button.click()
    end = c.game.ended
    assert end is not None and end.kind == "draw"
    assert "austria" not in end.winners and {"france", "italy"} <= set(end.winners)


# -- save and resume --------------------------------------------------------------------------------


def test_seats_save_and_resume_keep_seats_draw_disorder_and_measure(features, table, host, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    seating = {"method": "priority", "secret": True, "seed": 7, "choices": {"Anna": ["england"]},
               "draws": [{"choice": 1, "seat": ["england"], "contenders": ["Anna", "Ben"], "winner": "Anna"}],
               "record": ["Seed 7."]}
    start_five(f, pins={"england": "2468", "france": "2468"}, short_game_by="pieces", seating=seating)
    c = t.controller
    f.set_disorder(["turkey"])
    f.act_write.trigger()
    s = f.flow.session
    # Anna writes and seals her two powers, then the game is saved mid-round
    while len(s.seat_of(s.next_power)) == 1:
        f.flow.curtain.open_button.click()
        click_orders(t, s.current)
        f.strip.seal_button.click()
    f.flow.curtain.pin_edit.setText("2468")
    f.flow.curtain.open_button.click()
    click_orders(t, "england")
    click_orders(t, "france")
    f.strip.seal_button.click()
    sealed = set(s.sealed)
    path = tmp_path / "five.json"
    c.save(path)
    f.start_new_game(TableSettings())
    assert c.marked_disorder() == frozenset() and f.flow.session.players == {}
    c.load(path)
    s = f.flow.session
    assert c.table["seating"] == seating and c.table["disorder"] == ["turkey"]
    assert c.game.short_game_by == "pieces"
    assert s.sealed == sealed and s.stage in (CURTAIN, READY)
    assert set(s.seat_of("france")) == {"england", "france"}
    assert s.players["france"] == "Anna" and "turkey" not in s.order
    # the restored seat opens with Anna's one PIN (reopening: the table is told)
    f.flow.curtain.other_combo.setCurrentIndex(f.flow.curtain.other_combo.findData(s.seat_of("england")[0]))
    f.flow.curtain.pin_edit.setText("2468")
    f.flow.curtain.other_button.click()
    assert s.stage == ENTERING and set(s.current_seat) == {"england", "france"}
    # the history keeps who was in disorder
    f.strip.seal_button.click()
    while s.next_power is not None:
        f.flow.curtain.open_button.click()
        click_orders(t, s.current)
        f.strip.seal_button.click()
    f.flow.curtain.reveal_button.click()
    c.save(path)
    c.new_game()
    c.load(path)
    assert c.game.history[-1].disorder == frozenset({"italy", "turkey"})


def test_seats_old_save_with_a_pin_per_power_still_opens(features) -> None:  # type: ignore[no-untyped-def]
    f = features
    # before seats: one player named on two powers, with two different PINs
    f.start_new_game(TableSettings(players={"england": "Anna", "france": "Anna"},
                                   pins={"england": hash_pin("1111"), "france": hash_pin("2222")}))
    f.act_write.trigger()
    s = f.flow.session
    while s.next_power not in ("england", "france"):
        f.flow.curtain.open_button.click()
        f.strip.seal_button.click()
    f.flow.curtain.pin_edit.setText("2222")  # either of Anna's PINs opens her seat
    f.flow.curtain.open_button.click()
    assert s.stage == ENTERING and set(s.current_seat) == {"england", "france"}


def test_seats_move_order_for_the_second_power_of_a_seat_is_filed(features, table) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start_five(f)
    f.act_write.trigger()
    s = f.flow.session
    while len(s.seat_of(s.next_power)) == 1:
        f.flow.curtain.open_button.click()
        f.strip.seal_button.click()
    f.flow.curtain.open_button.click()
    c = t.controller
    c.set_order(Move("france", "A", "par", "pic"))  # the seat's other power, not the one shown first
    assert format_order(c.game.orders_of("france")[0]) == "A Par - Pic"
    with pytest.raises(IllegalOrderError, match="cannot give orders now"):
        c.set_order(Move("germany", "A", "mun", "ruh"))


def test_seats_a_power_that_seals_no_orders_is_in_civil_disorder_that_season(features, table) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start_five(f)
    c = t.controller
    f.act_write.trigger()
    s = f.flow.session
    while s.next_power is not None:
        f.flow.curtain.open_button.click()
        for p in s.current_seat:
            if p != "russia":  # Dan seals without a single order
                click_orders(t, p)
        f.strip.seal_button.click()
    assert "russia" in s.sealed and not c.game.orders_of("russia")
    f.flow.curtain.reveal_button.click()
    entry = c.game.history[-1]
    assert entry.disorder == frozenset({"italy", "russia"})
    # only for that season: Russia writes again in the fall, and is not in disorder if it orders
    assert "russia" in f.flow.session.order and c.marked_disorder() == frozenset()


def test_seats_session_one_stop_per_player_plain_python() -> None:
    from diplomacy_desktop.table.hotseat import HotSeatError, HotSeatSession

    s = HotSeatSession(random.Random(5), pins={"england": hash_pin("1357"), "france": hash_pin("1357")},
                       players={"england": "Anna", "france": "Anna", "russia": "Dan"})
    s.begin_turn("S1901M", ("england", "france", "germany", "russia"))
    assert sorted(map(sorted, s.seats())) == [["england", "france"], ["germany"], ["russia"]]
    s.start_writing()
    assert s.has_pin("france") and not s.has_pin("germany")
    assert not s.check_pin("france", "0000") and s.check_pin("france", "1357")
    s.open("france", "1357")
    assert s.visible_powers == frozenset({"england", "france"})
    with pytest.raises(HotSeatError):
        s.seal("germany")  # not at the keyboard
    s.seal("england")  # one seal for the seat
    assert s.sealed == {"england", "france"} and s.stage == CURTAIN and s.visible_powers == frozenset()
    s.set_writers(("england", "france", "germany"))  # Russia marked: left out, the seals kept
    assert s.order.count("russia") == 0 and s.sealed == {"england", "france"}
    s.open("germany")
    s.seal("germany")
    assert s.stage == READY
    s.set_writers(("england", "france", "germany", "russia"))  # Russia back: the round waits for it
    assert s.stage == CURTAIN and s.next_power == "russia"


def test_seats_new_game_has_one_place_for_names_with_seven_players_by_the_host(qtbot) -> None:
    """Issue 17: New Game had both a "Players:" row and a name column for the same seven names."""
    d = NewGameDialog(BOARD)
    qtbot.addWidget(d)
    d.show()
    assert d.players_spin.value() == 7 and d.assign_combo.currentData() == "hand"
    assert not d.players_caption.isVisibleTo(d) and not any(e.isVisibleTo(d) for e in d.player_edits)
    assert all(e.isVisibleTo(d) for e in d.name_edits.values())
    d.assign_combo.setCurrentIndex(d.assign_combo.findData("priority"))  # players choose: the row names them
    assert d.players_caption.isVisibleTo(d) and all(e.isVisibleTo(d) for e in d.player_edits)
    d.assign_combo.setCurrentIndex(d.assign_combo.findData("hand"))
    d.players_spin.setValue(5)  # five players: the row names the players, the column the powers' players
    assert d.players_caption.isVisibleTo(d) and sum(e.isVisibleTo(d) for e in d.player_edits) == 5
