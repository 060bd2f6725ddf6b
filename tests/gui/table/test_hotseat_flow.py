"""Hot-seat secrecy: the session's state machine, PINs, the review, the strip and the curtain."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget
from test_secrecy import CLICKS
from widget_text import shows, texts

from diplomacy_desktop.engine.orders import Build, Convoy, Hold, Move, SupportHold, SupportMove
from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.table.changes import TableChange
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, OPEN, READY, REVEALED, HotSeatError, HotSeatSession, PinError, hash_pin
from diplomacy_desktop.gui.table.hotseat.flow import HotSeatFlow
from diplomacy_desktop.gui.table.hotseat.review import ReviewDialog
from diplomacy_desktop.gui.table.hotseat.seal_strip import SealStatusStrip
from diplomacy_desktop.io.pins import pin_matches
from diplomacy_desktop.table.review import review_warnings
from diplomacy_desktop.io.notation import format_order

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")

SPRING_ORDERS = {
    "austria": [Move("austria", "A", "bud", "ser"), Move("austria", "A", "vie", "gal"),
                Move("austria", "F", "tri", "alb")],
    "england": [Move("england", "F", "lon", "nth"), Move("england", "F", "edi", "nwg"),
                Move("england", "A", "lvp", "yor")],
    "france": [Move("france", "A", "par", "bur"), Move("france", "A", "mar", "spa"),
               Move("france", "F", "bre", "mao")],
    "germany": [Move("germany", "A", "mun", "bur"), Move("germany", "A", "ber", "kie"),
                Move("germany", "F", "kie", "den")],
    "italy": [Move("italy", "A", "ven", "pie"), Move("italy", "A", "rom", "apu"),
              Move("italy", "F", "nap", "ion")],
    "russia": [Move("russia", "A", "war", "gal"), Move("russia", "A", "mos", "ukr"),
               Move("russia", "F", "sev", "bla"), Move("russia", "F", "stp/sc", "bot")],
    "turkey": [Move("turkey", "F", "ank", "bla"), Move("turkey", "A", "con", "bul"),
               Move("turkey", "A", "smy", "arm")],
}


# -- the session, plain Python --------------------------------------------------------------------


@pytest.fixture
def features_options() -> dict[str, Any]:
    """This file's table: questions answered yes, the app's own host prompt (no test sets a host PIN)."""
    return {"confirm": lambda *a: True}


def test_hotseat_first_power_is_random_and_reproducible_with_a_seed() -> None:
    firsts = []
    for _ in range(2):
        s = HotSeatSession(random.Random(1901))
        draws = []
        for phase in ("S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "S1903M"):
            s.begin_turn(phase, POWERS)
            draws.append(s.first_power)
        firsts.append(draws)
    assert firsts[0] == firsts[1]
    assert len(set(firsts[0])) > 1  # it is really drawn, not fixed


def test_hotseat_order_follows_the_board_from_the_drawn_power() -> None:
    s = HotSeatSession(random.Random(7))
    s.begin_turn("S1901M", POWERS)
    i = POWERS.index(s.first_power)
    assert s.order == POWERS[i:] + POWERS[:i]
    assert s.stage == OPEN and s.visible_powers == frozenset()


def test_hotseat_cycle_open_curtain_enter_seal_reveal() -> None:
    s = HotSeatSession(random.Random(3))
    s.begin_turn("S1901M", ("england", "france"))
    with pytest.raises(HotSeatError):
        s.open("england")  # the talks are still on
    s.start_writing()
    assert s.stage == CURTAIN and s.visible_powers == frozenset()
    first = s.next_power
    assert first is not None
    s.open(first)
    assert s.stage == ENTERING and s.visible_powers == frozenset({first})
    other = ({"england", "france"} - {first}).pop()
    with pytest.raises(HotSeatError):
        s.seal(other)  # not at the keyboard
    with pytest.raises(HotSeatError):
        s.reveal()
    s.seal(first)
    assert s.stage == CURTAIN and s.next_power == other and s.visible_powers == frozenset()
    s.open(other)
    s.seal(other)
    assert s.stage == READY and s.all_sealed
    s.reveal()
    assert s.stage == REVEALED and s.visible_powers is None


def test_hotseat_host_may_force_the_reveal() -> None:
    s = HotSeatSession(random.Random(3))
    s.begin_turn("S1901M", POWERS)
    s.start_writing()
    with pytest.raises(HotSeatError):
        s.reveal()
    s.reveal(force=True)
    assert s.stage == REVEALED


def test_hotseat_pin_required_and_checked() -> None:
    s = HotSeatSession(random.Random(3))
    s.set_pin("france", "4711")
    s.begin_turn("S1901M", ("england", "france"))
    s.start_writing()
    with pytest.raises(PinError):
        s.open("france")
    with pytest.raises(PinError):
        s.open("france", "1234")
    assert not s.can_open("france", "0000")
    s.open("france", "4711")
    assert s.current == "france"
    s.seal("france")
    with pytest.raises(PinError):
        s.open("france", "9999")  # nobody else reopens France's sealed orders
    assert "france" in s.sealed
    s.open("france", "4711")  # France may
    assert "france" not in s.sealed
    s.close()
    assert s.can_open("england")  # no PIN: anyone may take England's turn


def test_hotseat_pin_is_stored_only_as_a_salted_hash() -> None:
    a, b = hash_pin("1234"), hash_pin("1234")
    assert a != b  # salted
    scheme, n, _r, _p, salt, digest = a.split("$")  # issue 20: scrypt (the cost: tests/table/test_pins.py)
    assert scheme == "scrypt" and int(n) >= 2 ** 10 and len(salt) == 32 and len(digest) == 64
    assert pin_matches(a, "1234") and not pin_matches(a, "1243")
    with pytest.raises(PinError):
        hash_pin("12a4")
    with pytest.raises(PinError):
        hash_pin("123")
    s = HotSeatSession(random.Random(1))
    s.set_pin("italy", "2468")
    saved = s.to_dict()
    assert saved["pins"]["italy"] != "2468" and pin_matches(saved["pins"]["italy"], "2468")


def test_hotseat_session_round_trips_and_puts_the_writer_behind_the_curtain() -> None:
    s = HotSeatSession(random.Random(5))
    s.set_pin("turkey", "1111")
    s.begin_turn("F1901M", POWERS)
    s.start_writing()
    first = s.next_power
    assert first is not None
    s.open(first, "1111" if first == "turkey" else None)
    s.seal(first)
    s.open(s.next_power, "1111" if s.next_power == "turkey" else None)  # type: ignore[arg-type]
    back = HotSeatSession.from_dict(json.loads(json.dumps(s.to_dict())))
    assert back.order == s.order and back.sealed == {first} and back.phase == "F1901M"
    assert back.stage == CURTAIN and back.current is None
    assert back.check_pin("turkey", "1111") and not back.check_pin("turkey", "1112")


# -- the review -----------------------------------------------------------------------------------


def test_hotseat_review_warns_about_unordered_units_and_mismatched_support() -> None:
    c = GameController()
    state = c.state
    orders = [Move("france", "A", "par", "bur"), SupportMove("france", "A", "mar", "A", "par", "gas")]
    warnings = review_warnings(state, "france", orders)
    assert any("F Bre has no order" in w for w in warnings)
    assert any("A Mar S A Par - Gas" in w and "A Par - Bur" in w for w in warnings)
    matched = [Move("france", "A", "par", "bur"), SupportMove("france", "A", "mar", "A", "par", "bur"),
               Hold("france", "F", "bre")]
    assert review_warnings(state, "france", matched) == []


def test_hotseat_review_warns_about_support_to_hold_of_a_mover_and_a_convoy_not_matched() -> None:
    c = GameController()
    state = c.state
    orders = [Move("germany", "A", "ber", "kie"), SupportHold("germany", "A", "mun", "A", "ber"),
              Move("germany", "F", "kie", "den")]
    (w,) = review_warnings(state, "germany", orders)
    assert "to hold" in w and "A Ber - Kie" in w
    # England with a fleet in the North Sea: it convoys A Yor to Nwy, but A Yor goes to Wal
    from diplomacy_desktop.engine.state import Unit

    units = {k: v for k, v in state.units.items() if k not in ("lon", "lvp")}
    units["nth"] = Unit("england", "F", "nth")
    units["yor"] = Unit("england", "A", "yor")
    sea = state.evolve(units=units)
    eng = [Convoy("england", "F", "nth", "A", "yor", "nwy"), Move("england", "A", "yor", "wal"),
           Hold("england", "F", "edi")]
    (w,) = review_warnings(sea, "england", eng)
    assert "F Nth C A Yor - Nwy" in w and "A Yor - Wal" in w
    eng[1] = Move("england", "A", "yor", "nwy", via_convoy=True)
    assert review_warnings(sea, "england", eng) == []


def test_hotseat_review_ignores_other_powers_units() -> None:
    c = GameController()
    orders = [SupportMove("germany", "A", "mun", "A", "par", "bur"), Hold("germany", "A", "ber"),
              Hold("germany", "F", "kie")]
    assert review_warnings(c.state, "germany", orders) == []


def test_hotseat_review_dialog_lists_own_orders_and_warnings(qtbot) -> None:
    c = GameController()
    orders = [Move("france", "A", "par", "bur")]
    d = ReviewDialog("france", orders, review_warnings(c.state, "france", orders), power_name="France")
    qtbot.addWidget(d)
    assert [d.order_list.item(i).text() for i in range(d.order_list.count())] == ["A Par - Bur"]
    assert len(d.warnings) == 2 and "Seal" in d.seal_button.text()


def test_hotseat_review_warns_about_unused_builds() -> None:
    from diplomacy_desktop.engine.state import Phase

    c = GameController()
    s = c.state
    owners = dict(s.owners)
    owners["bel"] = "france"
    winter = s.evolve(phase=Phase(1901, "fall", "adjustment"), owners=owners)
    units = dict(winter.units)
    del units["par"]  # France: 4 centres, 2 units -> 2 builds, one site free at paris
    units.pop("mar")
    winter = winter.evolve(units=units)
    warnings = review_warnings(winter, "france", [Build("france", "A", "par")])
    assert warnings and "waived" in warnings[0]


# -- the flow with a real controller --------------------------------------------------------------


class OrderBoard(QWidget):
    """Stands in for every view that shows orders: it lists what the controller lets it see."""

    def __init__(self, controller: GameController) -> None:
        super().__init__()
        self.controller = controller
        self.list = QListWidget(self)
        self.heading = QLabel(self)
        lay = QVBoxLayout(self)
        lay.addWidget(self.heading)
        lay.addWidget(self.list)
        controller.changed.connect(self.refresh)
        self.refresh()

    def refresh(self, _: TableChange | None = None) -> None:
        self.list.clear()
        for o in self.controller.visible_orders():
            self.list.addItem(format_order(o, self.controller.board, power_prefix=True))
        self.heading.setText(f"{len(self.controller.visible_orders())} orders shown")


def _host(qtbot, controller: GameController, rng_seed: int = 11, *, start: bool = True, **kw: object):
    window = QWidget()
    window.resize(900, 600)
    board = OrderBoard(controller)
    strip = SealStatusStrip(controller=controller)
    lay = QVBoxLayout(window)
    lay.addWidget(board)
    lay.addWidget(strip)
    qtbot.addWidget(window)
    flow = HotSeatFlow(controller, window, rng=random.Random(rng_seed), strip=strip, **kw)  # type: ignore[arg-type]
    controller.phase_advanced.connect(flow.begin_phase)
    window.show()
    if start:
        flow.begin_phase()
    return window, board, strip, flow


def _enter(flow: HotSeatFlow, power: str, pin: str = "") -> None:
    assert flow.open_power(power, pin), flow.curtain.error_label.text()
    for o in SPRING_ORDERS[power]:
        flow.controller.set_order(o)


def test_hotseat_curtain_hides_every_other_powers_orders(qtbot) -> None:
    c = GameController()
    window, _board, strip, flow = _host(qtbot, c, review=lambda d: True)
    flow.start_writing()
    assert flow.curtain_up and flow.curtain.geometry() == window.rect()
    entered: list[str] = []
    while flow.session.next_power is not None:
        power = flow.session.next_power
        # behind the curtain: nobody's orders anywhere
        for p in entered:
            for o in SPRING_ORDERS[p]:
                assert not shows(window, format_order(o)), (p, o)
        _enter(flow, power)
        assert not flow.curtain_up
        # at the keyboard: one's own orders, nobody else's
        for o in SPRING_ORDERS[power]:
            assert shows(window, format_order(o))
        for p in entered:
            for o in SPRING_ORDERS[p]:
                assert not shows(window, format_order(o)), (power, "sees", o)
        assert c.can_order(power) and not any(c.can_order(p) for p in POWERS if p != power)
        assert flow.request_seal()
        entered.append(power)
        # the strip names who sealed, never what
        assert "\u2713" in strip.chip_text(power)
        for o in SPRING_ORDERS[power]:
            assert not shows(strip, format_order(o))
    assert flow.session.stage == READY and flow.curtain_up
    assert "Reveal" in flow.curtain.reveal_button.text()
    history_before = len(c.game.history)
    flow.curtain.reveal_button.click()
    assert len(c.game.history) == history_before + 1  # revealed and adjudicated
    entry = c.game.history[-1]
    assert set(entry.orders) == {o for os in SPRING_ORDERS.values() for o in os}
    # next phase: the talks, board open, a new random first writer
    assert flow.session.stage == OPEN and flow.session.phase == "F1901M" and not flow.curtain_up


def test_hotseat_curtain_texts_name_the_next_power_only(qtbot) -> None:
    c = GameController(table={"players": {"france": "Anna"}})
    _window, _board, _strip, flow = _host(qtbot, c)
    flow.start_writing()
    nxt = flow.session.next_power
    assert c.power_name(nxt) in flow.curtain.power_label.text()
    all_text = " ".join(texts(flow.curtain))
    assert "Pass the laptop to" in all_text
    assert "A Par" not in all_text and " - " not in all_text


def test_hotseat_pin_is_asked_at_the_curtain(qtbot) -> None:
    c = GameController()
    _window, _board, _strip, flow = _host(qtbot, c, rng_seed=2)
    flow.set_pins({p: hash_pin("1357") for p in POWERS})
    flow.start_writing()
    nxt = flow.session.next_power
    assert nxt is not None
    assert not flow.curtain.pin_edit.isHidden()
    flow.curtain.pin_edit.setText("0000")
    flow.curtain.open_button.click()
    assert flow.curtain_up and "wrong pin" in flow.curtain.error_label.text().lower()
    assert c.visible_powers == frozenset()
    flow.curtain.pin_edit.setText("1357")
    flow.curtain.open_button.click()
    assert not flow.curtain_up and c.visible_powers == frozenset({nxt}) and c.active_power == nxt


def test_hotseat_back_from_review_does_not_seal(qtbot) -> None:
    c = GameController()
    _window, _board, strip, flow = _host(qtbot, c, review=lambda d: False)
    flow.start_writing()
    power = flow.session.next_power
    _enter(flow, power)  # type: ignore[arg-type]
    assert not flow.request_seal()
    assert flow.session.stage == ENTERING and power not in flow.session.sealed
    strip.hide_button.click()
    assert flow.curtain_up and flow.session.stage == CURTAIN


def test_hotseat_force_reveal_asks_the_host(qtbot) -> None:
    c = GameController()
    asked: list[str] = []
    answer = [False]

    def confirm(parent: QWidget, title: str, text: str) -> bool:
        asked.append(text)
        return answer[0]

    _window, _board, _strip, flow = _host(qtbot, c, review=lambda d: True, confirm=confirm)
    flow.start_writing()
    first = flow.session.next_power
    _enter(flow, first)  # type: ignore[arg-type]
    flow.request_seal()
    flow.curtain.force_button.click()
    assert asked and "Not sealed yet" in asked[0] and flow.session.stage == CURTAIN
    answer[0] = True
    flow.curtain.force_button.click()
    assert len(c.game.history) == 1
    assert set(c.game.history[0].orders) == set(SPRING_ORDERS[first])  # the others' units held


def test_hotseat_secrecy_off_shows_everything(qtbot) -> None:
    c = GameController()
    _window, _board, strip, flow = _host(qtbot, c, enabled=False)
    assert c.visible_powers == frozenset(POWERS) and not flow.curtain_up
    assert "off" in strip.caption.text()


def test_hotseat_turn_survives_in_the_table(qtbot) -> None:
    c = GameController()
    _window, _board, _strip, flow = _host(qtbot, c, review=lambda d: True)
    flow.start_writing()
    first = flow.session.next_power
    _enter(flow, first)  # type: ignore[arg-type]
    flow.request_seal()
    saved = json.loads(json.dumps(c.table.to_table()["hotseat"]))
    c2 = GameController(c.game, {"hotseat": saved})
    _window2, _board2, _strip2, flow2 = _host(qtbot, c2, rng_seed=99, start=False)
    flow2.restore()
    assert flow2.session.sealed == {first} and flow2.session.stage == CURTAIN and flow2.curtain_up
    assert flow2.session.order == flow.session.order


# -- in the real main window ----------------------------------------------------------------------



def test_hotseat_main_window_no_widget_shows_another_powers_orders(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    assert f.flow.session.stage == OPEN and not f.flow.curtain_up
    t.click_unit("par")  # during the talks nobody gives orders
    t.click("bur")
    assert not c.game.all_orders()
    f.act_write.trigger()
    assert f.flow.curtain_up and f.flow.curtain.geometry() == t.window.rect()
    done: list[str] = []
    while (power := f.flow.session.next_power) is not None:
        for p in done:  # the curtain is up: nobody's orders anywhere in the window
            for o in c.game.orders_of(p):
                assert not shows(t.window, format_order(o)), (p, format_order(o))
        f.flow.curtain.open_button.click()
        assert not f.flow.curtain_up and c.active_power == power
        for step in CLICKS[power]:
            getattr(t, step[0])(*step[1:])
        mine = {format_order(o) for o in c.game.orders_of(power)}
        assert len(mine) == len(CLICKS[power])
        assert all(shows(t.window, text) for text in mine)  # one's own orders are shown
        for p in done:  # but nobody else's: no list, tab, arrow, tooltip or label
            for o in c.game.orders_of(p):
                assert not shows(t.window, format_order(o)), (power, "sees", format_order(o))
            assert not t.window.scene.order_items_of(p), (power, "sees arrows of", p)
        assert len(t.window.scene.order_items_of()) == len(CLICKS[power])
        f.strip.seal_button.click()
        done.append(power)
        assert "\u2713" in f.strip.chip_text(power)
    assert f.flow.session.stage == READY and f.flow.curtain_up
    f.flow.curtain.reveal_button.click()
    assert c.state.phase.short == "F1901M"
    entry = c.game.history[-1]
    assert len(entry.orders) == 22
    assert {r.order.location for r in entry.results if r.code == "bounced"} >= {"vie", "war"}
    assert f.flow.session.stage == OPEN and f.flow.session.phase == "F1901M"


def test_hotseat_main_window_ctrl_return_is_the_hosts_forced_reveal(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    asked: list[str] = []
    f.flow.confirm = lambda parent, title, text: asked.append(text) is not None and False
    t.adjudicate()
    assert asked and not t.controller.game.history  # the host said no
    f.flow.confirm = lambda *a: True
    t.adjudicate()
    assert len(t.controller.game.history) == 1


def test_hotseat_main_window_clock_end_of_talks_raises_the_curtain(table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    f.clock.model.start()
    f.clock.model.skip()  # as if the fifteen minutes had run out
    f.clock.period_ended.emit("diplomacy")
    assert f.flow.curtain_up and f.flow.session.stage == CURTAIN
    f.clock.tick()
    assert "Clock:" in f.flow.curtain.clock_label.text() and "write orders" in f.flow.curtain.clock_label.text()
