"""Secrecy with phones at the table (issue 11 in the window): what the laptop's powers write
behind the curtain never reaches a phone, what a phone writes never reaches the window or
another phone, before the reveal; the window's clock (Wilson rounds too) is on the phones."""

from __future__ import annotations

import json

import pytest
from test_phones_window import call, phone_orders, start_hosting
from test_secrecy import HOST_PIN
from widget_text import shows

from diplomacy_desktop.table.clock import ClockSettings
from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.table.hotseat import ENTERING, hash_pin
from diplomacy_desktop.io.notation import format_order

ENGLAND = ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"]


@pytest.fixture
def features_seed() -> int:
    return 7


def test_secrecy_phones_laptop_and_phone_orders_stay_apart(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    base, th = start_hosting(f)
    f.act_write.trigger()
    s = f.flow.session
    # France writes on its phone (not sealed: a draft), then England writes at the laptop
    french = phone_orders(qtbot, base, th.token_of("france"), "france", "S1901M", ["A Par - Bur", "F Bre - Mao"])
    f.flow.open_other("england")  # England goes first (nothing written yet: no host action)
    assert s.stage == ENTERING and s.current == "england"
    assert not any(shows(t.window, text) for text in french)  # the phone's draft: not at England's turn
    for text in ENGLAND:
        t.window.focus_entry()
        t.window.order_dock.entry.setText(text)
        t.window.order_dock.entry.returnPressed.emit()
    english = {format_order(o) for o in c.game.orders_of("england")}
    assert english == set(ENGLAND)
    f.strip.seal_button.click()
    # no phone, and no spectator, ever receives England's orders before the reveal
    for power in c.board.power_ids:
        status, state = call(qtbot, "GET", f"{base}/api/state", th.token_of(power))
        dump = json.dumps(state)
        assert status == 200
        if power != "england":
            assert not any(text in dump for text in english), power
        if power != "france":
            assert not any(text in dump for text in french), power
    status, public = call(qtbot, "GET", f"{base}/api/public")
    assert status == 200 and not any(text in json.dumps(public) for text in english | french)
    # nor does the window show either while the curtain is up
    assert not any(shows(t.window, text) for text in english | french)


def test_secrecy_phones_window_clock_is_on_the_phones_with_wilson_rounds(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    f.start_new_game(TableSettings(clock=ClockSettings(wilson_rounds=2, round_minutes=5)))
    base, th = start_hosting(f)
    assert th.clock_view() is None or not th.clock_view()["running"]
    f.clock.start_button.click()
    view = th.clock_view()
    assert view is not None and view["title"] == "Round 1 of 2" and view["running"] and 290 < view["remaining"] <= 300
    status, state = call(qtbot, "GET", f"{base}/api/state", th.token_of("italy"))
    assert status == 200 and state["clock"]["title"] == "Round 1 of 2"
    f.clock.start_button.click()  # pause
    view = th.clock_view()
    assert view is not None and not view["running"]
