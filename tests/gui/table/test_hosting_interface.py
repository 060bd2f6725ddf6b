"""Issue 31 (Low): the window's hosting lets the host choose the interface, like ``serve --host``:
Table ▸ Phones offers the laptop's addresses, 127.0.0.1 and, said as such, every interface; the
default is the table's Wi-Fi/LAN address, never silently every interface.  Before the change the
window always listened on 0.0.0.0.  (Sockets here bind 127.0.0.1 only.)"""

from __future__ import annotations

import socket

import pytest
from host_stand_in import HOST_PIN

from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.io.pins import hash_pin

CHEAP = (2 ** 4, 1, 1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _reaches(address: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(2.0)
        return s.connect_ex((address, port)) == 0


def _offered(dialog) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(dialog.interface.itemData(i)) for i in range(dialog.interface.count())]


def test_the_phones_dialog_offers_the_interfaces_and_chooses_the_tables_address(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.host.serve import lan_address

    f = features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN, cost=CHEAP)))
    dialog = f.show_phones()
    offered = _offered(dialog)
    assert "127.0.0.1" in offered and lan_address() in offered
    assert dialog.interface.currentData() == lan_address()  # the table's Wi-Fi/LAN address
    assert dialog.interface.currentData() != "0.0.0.0"
    every = offered.index("0.0.0.0")  # offered, and said for what it is
    assert "every" in dialog.interface.itemText(every).lower()
    assert "127.0.0.1" in dialog.interface.itemText(offered.index("127.0.0.1"))
    dialog.reject()


def test_the_windows_hosting_listens_only_where_the_host_chose(qtbot, table, features, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.host import serve

    f = features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN, cost=CHEAP)))
    lan = serve.lan_address()
    if lan == "127.0.0.1":
        pytest.skip("this machine has no network address besides loopback")
    # the host chooses 127.0.0.1 in the join screen: nothing listens on the LAN address
    dialog = f.show_phones()
    dialog.interface.setCurrentIndex(dialog.interface.findData("127.0.0.1"))
    port = _free_port()
    dialog.port.setValue(port)
    dialog.switch_button.click()
    assert dialog.on and _reaches("127.0.0.1", port)
    assert not _reaches(lan, port), "the window listened on every interface"
    assert not dialog.interface.isEnabled()  # chosen before hosting is turned on
    dialog.switch_button.click()
    dialog.reject()
    # with nothing chosen, the table's address (here made loopback, so that the test binds
    # 127.0.0.1 only): never every interface
    monkeypatch.setattr(serve, "lan_address", lambda: "127.0.0.1")
    port = _free_port()
    hosting = f.turn_on(port)
    assert hosting.address == "127.0.0.1" and _reaches("127.0.0.1", port)
    assert not _reaches(lan, port), "the window listened on every interface by default"
    f.turn_off()


def test_the_windows_hosting_cuts_off_one_device_alone(qtbot, table, features, host) -> None:  # type: ignore[no-untyped-def]
    """One token per device from the window's hosting too: two phones join France with its PIN,
    the table is told each device's name, and Table ▸ Phones cuts off the first alone (a host
    action); the second phone and France's link go on."""
    from test_phones_window import call

    f = features
    f.start_new_game(TableSettings(pins={"france": hash_pin("5831", cost=CHEAP)},
                                   host_pin=hash_pin(HOST_PIN, cost=CHEAP)))
    hosting = f.turn_on(0, "127.0.0.1")
    base, th = hosting.base_url, f.phones.host
    tokens = []
    for _ in range(2):
        status, answer = call(qtbot, "POST", f"{base}/api/join", None, {"power": "france", "pin": "5831"})
        assert status == 200, answer
        tokens.append(answer["token"])
    first, second = tokens
    assert len({first, second, th.token_of("france")}) == 3
    assert "device fra2" in f.strip.notice.toolTip()  # the table is told which device joined
    dialog = f.show_phones()
    listed = [str(dialog.devices.itemData(i)) for i in range(dialog.devices.count())]
    assert listed == ["fra1", "fra2"] and "France" in dialog.devices.itemText(0)
    host.typed = "0000"  # a host action: a wrong host PIN cuts nobody off
    dialog.devices.setCurrentIndex(0)
    dialog.cut_device_button.click()
    assert call(qtbot, "GET", f"{base}/api/state", first)[0] == 200
    host.typed = HOST_PIN
    dialog.cut_device_button.click()
    assert call(qtbot, "GET", f"{base}/api/state", first)[0] == 404
    assert call(qtbot, "GET", f"{base}/api/state", second)[0] == 200
    assert call(qtbot, "GET", f"{base}/api/state", th.token_of("france"))[0] == 200
    assert [str(dialog.devices.itemData(i)) for i in range(dialog.devices.count())] == ["fra2"]
    dialog.reject()
    f.turn_off()
