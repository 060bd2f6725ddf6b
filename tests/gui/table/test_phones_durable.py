"""Issue 21 in the window: a phone is told "Given" or "sealed" only once the window's autosave
holds it.  When the autosave cannot be written (a full disk) the phone hears 507, the change is
taken back (the hot seat, the strip and every phone show what is on disk), and the table sees
the failure where it happened."""

from __future__ import annotations

import errno
import os

import pytest
from test_phones_window import call, phone_orders, start_hosting
from test_secrecy import HOST_PIN

from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.table.hotseat import hash_pin


class DiskFull:
    """The autosave's writes fail as on a full disk while ``full`` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from diplomacy_desktop.io import savefile

        self.full = False
        real = savefile.write_atomic

        def write_atomic(path, text, **kw):  # type: ignore[no-untyped-def]
            if self.full:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real(path, text, **kw)

        monkeypatch.setattr(savefile, "write_atomic", write_atomic)
        # issue 21: the autosave is a SQLite database; on a full disk SQLite fails the transaction
        # (SQLITE_FULL) and rolls it back
        import sqlite3

        from diplomacy_desktop.io.gamestore import GameStore

        for name in ("write", "write_all"):
            real_method = getattr(GameStore, name)

            def failing(*a, _real=real_method, **k):  # type: ignore[no-untyped-def]
                if self.full:
                    raise sqlite3.OperationalError("database or disk is full")
                return _real(*a, **k)

            monkeypatch.setattr(GameStore, name, failing)


def test_phones_durable_a_seal_the_autosave_cannot_hold_is_refused_and_taken_back(  # type: ignore[no-untyped-def]
        qtbot, table, features, monkeypatch) -> None:
    f = features
    disk = DiskFull(monkeypatch)
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    base, host = start_hosting(f)
    f.act_write.trigger()
    s = f.flow.session
    token = host.token_of("france")
    phone_orders(qtbot, base, token, "france", "S1901M", ["A Par - Bur"])
    disk.full = True
    status, answer = call(qtbot, "POST", f"{base}/api/seal", token, {"power": "france", "phase": "S1901M"})
    assert status == 507, answer
    assert "not saved" in answer["error"]
    # taken back everywhere: the hot seat, the host, what a phone reads
    assert "france" not in s.sealed and "france" not in s.phone_sealed
    assert "france" not in host.sealed
    qtbot.waitUntil(lambda: any(title == "Autosave failed" for title, _ in f.messages))  # said where it happened
    disk.full = False
    status, state = call(qtbot, "GET", f"{base}/api/state", token)
    assert status == 200 and state["sealed"] == []
    # the disk has room again: the seal goes through and is on disk before the phone hears it
    status, answer = call(qtbot, "POST", f"{base}/api/seal", token, {"power": "france", "phase": "S1901M"})
    assert status == 200, answer
    _game, saved = f.autosaver.autosave.load()
    assert "france" in saved["hotseat"]["sealed"] and "sealed" not in saved["phones"]  # one record


def test_phones_durable_an_order_from_a_phone_is_in_the_autosave_before_given(  # type: ignore[no-untyped-def]
        qtbot, table, features, monkeypatch) -> None:
    f = features
    disk = DiskFull(monkeypatch)
    f.start_new_game(TableSettings())
    base, host = start_hosting(f)
    f.act_write.trigger()
    token = host.token_of("england")
    status, answer = call(qtbot, "POST", f"{base}/api/order", token,
                          {"power": "england", "phase": "S1901M", "text": "F Lon - Nth"})
    assert status == 200, answer
    game, _ = f.autosaver.autosave.load()  # at once: no timer to wait for
    assert [str(o) for o in game.orders_of("england")] == ["F lon - nth"]
    disk.full = True
    status, answer = call(qtbot, "POST", f"{base}/api/order", token,
                          {"power": "england", "phase": "S1901M", "text": "A Lvp - Yor"})
    assert status == 507, answer
    assert [str(o) for o in table.controller.game.orders_of("england")] == ["F lon - nth"]  # taken back


def test_phones_durable_edits_every_half_second_do_not_starve_the_autosave(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """A table change every 0.5 s: the autosave is written within its delay of the first one
    (it used to restart its timer on every change and never write)."""
    f = features
    f.start_new_game(TableSettings())
    saver = f.autosaver
    before = saver.writes
    for _ in range(6):  # 3 s of edits
        saver.schedule()  # what the table's bookkeeping (the clock, the turn) asks for
        qtbot.wait(500)
    assert saver.writes > before


def test_phones_durable_an_order_given_at_the_laptop_is_in_the_autosave_at_once(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """It used to wait 1.5 s for the autosave's timer: a crash a second after lost it."""
    f = features
    f.start_new_game(TableSettings())
    power, order = _sit_down(f, table)
    table.controller.set_order(order)
    game, _ = f.autosaver.autosave.load()  # no waiting, no timer
    assert game.orders_of(power) == [order]


def test_phones_durable_an_order_is_on_disk_before_the_views_hear_it_even_after_a_slow_save(  # type: ignore[no-untyped-def]
        qtbot, table, features) -> None:
    """Issue 30 (one store, one rule): every operation of the table service is on disk before
    anybody hears of it, as in ``serve``.  An order given at the laptop after a slow save (a long
    game) used to be written a moment later, after the window had shown it."""
    f = features
    f.start_new_game(TableSettings())
    power, order = _sit_down(f, table)
    f.autosaver.last_write_seconds = 10.0  # as if the last save had taken that long
    seen: list[list[object]] = []
    table.controller.changed.connect(lambda _r: seen.append(f.autosaver.autosave.load()[0].orders_of(power)))
    table.controller.set_order(order)
    assert seen and seen[0] == [order]  # on disk when the views heard of it


def _sit_down(f, table):  # type: ignore[no-untyped-def]
    """The next power sits down behind the curtain; (power, a hold order for its first unit)."""
    from diplomacy_desktop.engine.orders import Hold

    f.act_write.trigger()
    f.flow.curtain.open_button.click()
    power = f.flow.session.current
    unit = table.controller.state.units_of(power)[0]
    return power, Hold(power, unit.kind, unit.location)
