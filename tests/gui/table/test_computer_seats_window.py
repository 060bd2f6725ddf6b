"""Computer seats in the window (issue 33): New Game's "Played by", the hot seat's curtain that
never calls a computer power, its orders written and sealed when the writing begins and secret
until the reveal, its retreats and builds, its draw vote, and all of it kept in the saved game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_secrecy import assert_hidden

from diplomacy_desktop.bots import Bot
from diplomacy_desktop.engine.options import orders_needed
from diplomacy_desktop.engine.orders import Build, Waive
from diplomacy_desktop.gui.table.dialogs import NewGameDialog
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, OPEN, READY
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.table import sealcodes
from diplomacy_desktop.table.computer import COMPUTER_KEY, COMPUTER_SEED_KEY
from diplomacy_desktop.table.settings import TableSettings
from diplomacy_desktop.table.state import TableState

COMPUTER = {"france": "club", "turkey": "strong"}
SEED = 7


@pytest.fixture
def features_options() -> dict[str, Any]:
    """This file's table: questions answered yes, no host PIN."""
    return {"confirm": lambda *a: True}


def _start(features, **more: Any) -> None:  # type: ignore[no-untyped-def]
    features.start_new_game(TableSettings(computer=dict(COMPUTER), computer_seed=SEED, **more))


def _thought(t, f) -> None:  # type: ignore[no-untyped-def]
    """The computer thinks in a worker thread: wait for its orders to be filed (and sealed)."""
    t.qtbot.waitUntil(lambda: not f.flow.thinker.busy, timeout=30000)


def _seal_the_people(t, f) -> list[str]:  # type: ignore[no-untyped-def]
    """Every person the curtain calls opens and seals (writing nothing: the units hold)."""
    s = f.flow.session
    called = []
    while s.stage == CURTAIN:
        power = s.next_power
        called.append(power)
        f.flow.curtain.open_button.click()
        assert s.stage == ENTERING and s.current == power, f.flow.curtain.error_label.text()
        f.strip.seal_button.click()
    return called


# -- 1. New Game: "Played by" ----------------------------------------------------------------------


def test_computer_seats_new_game_played_by_column(table) -> None:  # type: ignore[no-untyped-def]
    c = table.controller
    dialog = NewGameDialog(c.board, TableSettings(), table.window)
    try:
        france, turkey = dialog.played_by["france"], dialog.played_by["turkey"]
        assert [france.itemData(i) for i in range(france.count())] == [None, "beginner", "club", "strong"]
        dialog.name_edits["france"].setText("Anna")
        dialog.pin_edits["france"].setText("4711")
        france.setCurrentIndex(france.findData("club"))
        turkey.setCurrentIndex(turkey.findData("strong"))
        # the computer has no name and no PIN
        assert not dialog.name_edits["france"].isEnabled() and dialog.name_edits["france"].text() == ""
        assert not dialog.pin_edits["france"].isEnabled() and dialog.pin_edits["france"].text() == ""
        assert "Played by the computer: France (club player) and Turkey (strong)" in dialog.unplayed_label.text()
        settings = dialog.settings()
        assert settings.computer == {"france": "club", "turkey": "strong"}
        assert "france" not in settings.players and "france" not in settings.pins
        table_dict = settings.to_table()
        assert table_dict[COMPUTER_KEY] == {"france": "club", "turkey": "strong"}
        assert table_dict[COMPUTER_SEED_KEY] == dialog.computer_seed > 0
        assert TableSettings.from_table(TableState.from_table(table_dict)).computer == settings.computer  # the same
        # the PIN rule asks nothing of the computer's powers
        dialog.no_pins_box.setChecked(False)
        assert not any("France" in p or "Turkey" in p for p in dialog.problems() if "PIN" in p)
        # an unplayed power is nobody's: its choice is not kept
        dialog.play_boxes["turkey"].setChecked(False)
        assert not turkey.isEnabled() and dialog.settings().computer == {"france": "club"}
        # the computer does not play alone
        for p in c.board.power_ids:
            dialog.play_boxes[p].setChecked(True)
            dialog.played_by[p].setCurrentIndex(1)
        assert "At least one power needs a person: the computer does not play alone." in dialog.problems()
        dialog.reset_to_defaults()
        assert dialog.settings().computer == {}
    finally:
        dialog.reject()
        dialog.deleteLater()


def test_computer_seats_the_next_new_game_offers_the_same_seats(table, features) -> None:  # type: ignore[no-untyped-def]
    _start(features)
    dialog = features.offer_new_game()
    try:
        assert dialog.played_by["france"].currentData() == "club"
        assert dialog.played_by["turkey"].currentData() == "strong"
        assert dialog.played_by["england"].currentData() is None
    finally:
        dialog.reject()


# -- 2. the hot seat -----------------------------------------------------------------------------------


def test_computer_seats_write_and_seal_when_the_writing_begins_secret_until_the_reveal(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    _start(f)
    s = f.flow.session
    assert s.stage == OPEN and not c.game.orders_of("france") and not c.game.orders_of("turkey")
    assert s.first_power not in COMPUTER  # the talks name the first person to write, never the computer
    spring = c.state
    f.write_orders()
    _thought(t, f)
    for power, level in COMPUTER.items():
        expected = Bot(level, SEED).orders(spring, power)
        assert sorted(map(format_order, c.game.orders_of(power))) == sorted(map(format_order, expected))
        assert power in s.sealed and power not in s.phone_sealed
        assert sealcodes.code_of(c.table, power, "S1901M")  # its seal code, checked at the reveal
        # secret: no widget, tooltip or arrow of the window shows them
        assert_hidden(t, power, {format_order(o) for o in c.game.orders_of(power)})
    # the strip names it as the computer's seat; the curtain neither calls it nor offers it
    assert "\u2699" in f.strip.chip_text("france") and "\u2713" in f.strip.chip_text("france")
    assert s.next_power not in COMPUTER
    combo = f.flow.curtain.other_combo
    assert not any(combo.itemData(i) in COMPUTER for i in range(combo.count()))
    assert "France (computer)" in f.flow.curtain.sealed_label.text()
    assert not f.flow.open_power("france") and not f.flow.open_other("france")
    assert "played by the computer" in f.flow.curtain.error_label.text()
    # while a person writes, the computer's orders stay hidden from them too
    first = s.next_power
    f.flow.curtain.open_button.click()
    assert s.current == first and not c.can_see("france") and not c.can_order("france")
    assert_hidden(t, "turkey", {format_order(o) for o in c.game.orders_of("turkey")})
    f.strip.seal_button.click()
    called = [first, *_seal_the_people(t, f)]
    assert not set(called) & set(COMPUTER)
    assert set(called) == set(c.board.power_ids) - set(COMPUTER)  # every person, once
    assert s.stage == READY
    france_orders = set(map(format_order, c.game.orders_of("france")))
    f.flow.curtain.reveal_button.click()
    # adjudicated at the reveal with the computer's orders
    entry = c.game.history[-1]
    assert entry.state.phase.short == "S1901M"
    assert {format_order(o) for o in entry.orders if o.power == "france"} == france_orders
    assert c.state.phase.short == "F1901M"
    moved = {format_order(o) for o in entry.orders if o.power == "france" and " - " in format_order(o)}
    assert moved, "the computer moved something in Spring 1901"


def test_computer_seats_survive_save_load_and_the_autosave(table, features, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    _start(f)
    f.write_orders()
    _thought(t, f)
    written = {p: sorted(map(format_order, c.game.orders_of(p))) for p in COMPUTER}
    assert all(written.values())
    f.autosaver.flush()  # (a seal is saved soon after, as the people's are)
    _game, saved = f.autosaver.autosave.load()  # the autosave has the seats and their seals
    assert saved[COMPUTER_KEY] == COMPUTER and saved[COMPUTER_SEED_KEY] == SEED
    assert set(COMPUTER) <= set(saved["hotseat"]["sealed"])
    path = tmp_path / "computer.dipl"
    c.save(path)
    f.start_new_game(TableSettings())
    assert f.table_settings.computer == {} and not c.game.orders_of("france")
    assert f.open_recent(str(path))
    assert f.table_settings.computer == COMPUTER
    s = f.flow.session
    assert s.stage == CURTAIN and set(COMPUTER) <= s.sealed and s.next_power not in COMPUTER
    assert {p: sorted(map(format_order, c.game.orders_of(p))) for p in COMPUTER} == written
    assert not c.can_see("france") and "\u2699" in f.strip.chip_text("turkey")


def test_computer_seats_give_their_builds(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    _start(f)
    for _phase in ("S1901M", "F1901M"):
        f.write_orders()
        _thought(t, f)
        _seal_the_people(t, f)
        f.flow.curtain.reveal_button.click()
    # the people held all year (their units in civil disorder): the computer took centres
    assert c.state.phase.short == "W1901A"
    owing = [p for p in COMPUTER if orders_needed(c.state, p) > 0]
    assert owing, "a computer power builds after a year against holding powers"
    f.write_orders()
    _thought(t, f)
    s = f.flow.session
    for power in owing:
        assert power in s.sealed
        builds = c.game.orders_of(power)
        assert builds and all(isinstance(o, Build | Waive) for o in builds)
        assert not c.can_see(power)
    centres_before = {p: len(c.state.centres_of(p)) for p in COMPUTER}
    units_before = {p: len(c.state.units_of(p)) for p in COMPUTER}
    _seal_the_people(t, f)
    f.flow.curtain.reveal_button.click()
    assert c.state.phase.short == "S1902M"
    for power in owing:
        assert len(c.state.units_of(power)) > units_before[power]
        assert len(c.state.units_of(power)) <= centres_before[power]


def test_computer_seats_write_in_the_open_without_secrecy(table, features) -> None:  # type: ignore[no-untyped-def]
    c = table.controller
    _start(features, secrecy=False)
    _thought(table, features)
    for power, level in COMPUTER.items():  # no curtain: written as the phase begins, for all to see
        assert sorted(map(format_order, c.game.orders_of(power))) == \
            sorted(map(format_order, Bot(level, SEED).orders(c.state, power)))
        assert c.can_see(power)
    assert not c.game.orders_of("england")


# -- 3. the draw vote ------------------------------------------------------------------------------------


def test_computer_seats_vote_on_a_draw_by_their_rule(table, features) -> None:  # type: ignore[no-untyped-def]
    c = table.controller
    _start(features)
    dialog = features.propose_draw()
    try:
        vote = dialog.vote
        expected = {p: Bot(level, SEED).vote_draw(c.state, p) for p, level in COMPUTER.items()}
        assert {p: vote.votes[p] for p in COMPUTER} == expected  # cast already, by the computer's rule
        assert vote.next_voter not in COMPUTER and vote.next_voter is not None  # the people are asked
        assert set(vote.voters) == set(c.board.power_ids)
        assert "France" not in dialog.pass_power.text() and "Turkey" not in dialog.pass_power.text()
    finally:
        dialog.reject()


def test_computer_seats_declare_then_write_in_formal_diplomacy(table, features) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.table.declarations import PENDING_KEY

    t, f = table, features
    c = t.controller
    _start(f, formal=True)
    f.write_orders()
    s = f.flow.session
    assert s.declaring and set(COMPUTER) <= s.sealed and s.next_power not in COMPUTER
    pending = c.table[PENDING_KEY]
    for power, level in COMPUTER.items():  # its declarations, kept secret until all are revealed
        said = Bot(level, SEED).declarations(c.state, power)
        assert pending[power] == {o: r for o, r in said.items() if o != power}
    assert not c.game.orders_of("france")  # declarations first, orders after
    while s.next_power is not None:
        f.flow.curtain.open_button.click()
        assert s.current not in COMPUTER
        f.flow.declarations_form.seal_button.click()
    f.flow.curtain.reveal_button.click()
    _thought(t, f)
    # the orders round: the computer has written and sealed its orders, the curtain calls the people
    assert not s.declaring and s.stage == CURTAIN
    assert set(COMPUTER) <= s.sealed and all(c.game.orders_of(p) for p in COMPUTER)
    assert s.next_power not in COMPUTER and not c.can_see("turkey")


def test_computer_seats_a_seat_handed_over_mid_writing_writes_when_the_game_is_opened(table, features,  # type: ignore[no-untyped-def]
                                                                                     tmp_path: Path) -> None:
    t, f = table, features
    c = t.controller
    f.start_new_game(TableSettings())
    f.write_orders()
    path = tmp_path / "handed.dipl"
    c.service.set_computer_players({"italy": "beginner"}, SEED, c.table.players or {})  # the table's door
    c.save(path)
    assert f.open_recent(str(path))
    _thought(t, f)
    s = f.flow.session
    assert "italy" in s.sealed and c.game.orders_of("italy") and s.next_power != "italy"
    assert sorted(map(format_order, c.game.orders_of("italy"))) == \
        sorted(map(format_order, Bot("beginner", SEED).orders(c.state, "italy")))


def test_computer_seats_give_their_retreats(table, features) -> None:  # type: ignore[no-untyped-def]
    from shared_positions import position

    from diplomacy_desktop.engine.orders import Disband, Retreat
    from diplomacy_desktop.engine.state import RETREAT, SPRING, DislodgedUnit, Phase, Unit

    t, f = table, features
    c = t.controller
    _start(f)
    # Germany (a person) took Burgundy from France (the computer), which must retreat
    dislodged = DislodgedUnit(Unit("france", "A", "bur"), attacker_from="mun", attacker_power="germany")
    c.set_position(position("germany A bur", "germany A ruh", "france A par", "france F bre", "turkey F ank",
                            phase=Phase(1901, SPRING, RETREAT), dislodged=(dislodged,)))
    f.flow.begin_phase()
    s = f.flow.session
    assert s.order == ("france",)  # only France owes a retreat: the curtain has nobody to call
    f.write_orders()
    _thought(t, f)
    assert s.stage == READY and "france" in s.sealed
    given = c.game.orders_of("france")
    assert len(given) == 1 and isinstance(given[0], Retreat | Disband) and given[0].location == "bur"
    assert not c.can_see("france")
    f.flow.curtain.reveal_button.click()
    assert c.state.phase.kind != RETREAT
    entry = c.game.history[-1]
    assert [format_order(o) for o in entry.orders] == [format_order(given[0])]


# -- the host hands a seat over and back ----------------------------------------------------------------


def test_computer_seats_the_host_hands_a_seat_to_the_computer_and_back(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    f.start_new_game(TableSettings(players={"england": "Ann", "france": "Ann"}))
    f.write_orders()
    s = f.flow.session
    assert s.seat_of("france") == s.seat_of("england") and len(s.seat_of("france")) == 2  # Ann plays both
    # Ann leaves France to the computer: a host action, told to the table; France writes and seals now
    assert f.set_computer_seats({"france": "beginner"})
    _thought(t, f)
    assert f.table_settings.computer == {"france": "beginner"} and c.player_name("france") is None
    assert "france" in s.sealed and c.game.orders_of("france") and not c.can_see("france")
    assert s.seat_of("england") == ("england",)  # Ann's seat is England alone now
    assert "The host handed France to the computer (beginner)." in s.notices
    assert "\u2699" in f.strip.chip_text("france")
    assert not f.set_computer_seats({"france": "beginner"})  # nothing changed: nothing asked
    # and back to a person: unsealed, the curtain calls France again
    assert f.set_computer_seats({})
    assert f.table_settings.computer == {} and "france" not in s.sealed
    assert "The host handed France back to a person." in s.notices
    called = []
    while s.stage == CURTAIN:
        called.append(s.next_power)
        f.flow.curtain.open_button.click()
        f.strip.seal_button.click()
    assert "france" in called
    # Table ▸ Computer seats…: the dialog offers every power in play
    dialog = f.edit_computer_seats()
    assert set(dialog.combos) == set(c.board.power_ids)
    dialog.combos["turkey"].setCurrentIndex(dialog.combos["turkey"].findData("club"))
    dialog.accept()
    assert f.table_settings.computer == {"turkey": "club"}


def test_computer_seats_a_damaged_name_or_pin_reads_as_none(table, features) -> None:  # type: ignore[no-untyped-def]
    """The table's names and PINs are typed maps: a name or PIN that is not text (a hand-edited save)
    reads as none in the turn's copy and in the names kept when a seat is handed over (was: its
    str(), "3")."""
    from diplomacy_desktop.io.pins import hash_pin

    t, f = table, features
    c = t.controller
    f.start_new_game(TableSettings(players={"england": "Ann", "france": "Ann"}))
    c.table["players"] = {**c.table["players"], "italy": 3}  # as a hand-edited save holds them
    c.table["pins"] = {"italy": 4, "turkey": hash_pin("1234")}
    f.flow._sync_pins()
    s = f.flow.session
    assert "italy" not in s.players and s.players["england"] == "Ann"
    assert "italy" not in s.pins and "turkey" in s.pins
    f.write_orders()
    assert f.set_computer_seats({"france": "beginner"})
    _thought(t, f)
    assert c.table.to_table()["players"] == {"england": "Ann"} and c.player_name("italy") is None


# -- the computer thinks off the GUI thread ---------------------------------------------------------------


def test_computer_seats_think_in_a_worker_and_a_stale_answer_is_dropped(table, features, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import threading

    from PySide6.QtCore import QTimer

    from diplomacy_desktop.gui.table import computer_worker

    # the worker is held until the test lets it go: no race with the machine's speed
    go = threading.Event()
    real = computer_worker.think_now

    def held(*args):  # type: ignore[no-untyped-def]
        assert go.wait(30), "the test never let the worker go"
        return real(*args)

    monkeypatch.setattr(computer_worker, "think_now", held)
    t, f = table, features
    c = t.controller
    _start(f)
    s = f.flow.session
    ticks: list[bool] = []  # the timer fires: whether the computer was thinking then
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(f.flow.thinker.busy))
    timer.start(2)
    spring = c.state
    f.write_orders()
    assert f.flow.thinker.busy and not set(COMPUTER) & s.sealed  # F6 returned while the computer thinks
    ticks.clear()
    t.qtbot.waitUntil(lambda: len(ticks) >= 3, timeout=5000)  # the event loop runs while it thinks
    assert all(ticks) and not set(COMPUTER) & s.sealed
    go.set()
    _thought(t, f)
    timer.stop()
    assert set(COMPUTER) <= s.sealed
    for power, level in COMPUTER.items():  # the same orders as on the GUI thread, for the game's seed
        assert sorted(map(format_order, c.game.orders_of(power))) == \
            sorted(map(format_order, Bot(level, SEED).orders(spring, power)))
    # a new game while the computer thinks: its answer is dropped, nothing filed nor sealed
    go.clear()
    _start(f)
    f.write_orders()
    assert f.flow.thinker.busy
    dropped = f.flow.thinker.dropped
    f.start_new_game(TableSettings())
    go.set()
    _thought(t, f)
    assert f.flow.thinker.dropped == dropped + 1
    assert not any(c.game.orders.get(p) for p in c.board.power_ids) and not f.flow.session.sealed
