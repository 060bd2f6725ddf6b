"""Red team (issue 31, finding 4 in the window): the window's host ran every phone call on the GUI
thread, a join's or a seal's slow PIN hash (scrypt, half a second to seconds) included, so a
stranger guessing PINs, or a phone sealing and unsealing with its PIN in a loop, froze the laptop's
window and held every other phone.  The hash now runs on the server's thread, outside the game."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from test_phones_window import call, start_hosting

from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.io.pins import hash_pin
from diplomacy_desktop.table import pins as pins_module

CHEAP = (2 ** 4, 1, 1)


def test_phones_window_pin_hashes_never_run_on_the_gui_thread(qtbot, table, features,  # type: ignore[no-untyped-def]
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    f = features
    f.start_new_game(TableSettings(pins={"france": hash_pin("5831", cost=CHEAP)}))
    base, host = start_hosting(f)
    gui = threading.get_ident()
    hashed_on: list[int] = []
    real = pins_module.pin_matches

    def recording(stored: str, pin: str) -> Any:
        hashed_on.append(threading.get_ident())
        return real(stored, pin)

    monkeypatch.setattr(pins_module, "pin_matches", recording)
    status, answer = call(qtbot, "POST", f"{base}/api/join", body={"power": "france", "pin": "1111"})
    assert status == 403, answer
    status, answer = call(qtbot, "POST", f"{base}/api/join", body={"power": "france", "pin": "5831"})
    assert status == 200, answer
    token = answer["token"]
    phase = host.phase
    status, answer = call(qtbot, "POST", f"{base}/api/seal", token, {"power": "france", "phase": phase, "pin": "5831"})
    assert status == 200, answer
    status, answer = call(qtbot, "POST", f"{base}/api/unseal", token, {"power": "france", "phase": phase, "pin": "5831"})
    assert status == 200, answer
    assert len(hashed_on) >= 4, hashed_on  # every PIN was compared...
    assert gui not in hashed_on, "a PIN's slow hash ran on the GUI thread"  # ...off the window's thread
