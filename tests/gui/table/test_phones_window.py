"""Issue 11 in the window: Table ▸ Phones.  The laptop hosts the window's own game; phones
(real HTTP requests to the bound port on 127.0.0.1, made on another thread while the window's
event loop runs) seal, declare and write, and the hot seat counts them; what a phone wrote never
shows on the shared board before the reveal; a power's code shows only after a host action and
never while another power is at the keyboard.
"""

from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request
from typing import Any

from test_secrecy import HOST_PIN
from widget_text import shows, texts

from diplomacy_desktop.engine.formal import WAR
from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, READY, hash_pin
from diplomacy_desktop.table.state import HOSTING_KEY

PHONE_FRANCE = ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"]


def call(qtbot, method: str, url: str, token: str | None = None,  # type: ignore[no-untyped-def]
         body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """One phone request, made on its own thread while the window's event loop runs (the
    window answers the server on the GUI thread)."""
    out: dict[str, Any] = {}

    def go() -> None:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **({"X-Token": token} if token else {})})
        try:
            with urllib.request.urlopen(req, timeout=20) as r:  # 127.0.0.1 only
                out["status"], out["json"] = r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as exc:
            out["status"], out["json"] = exc.code, json.loads(exc.read() or b"{}")

    thread = threading.Thread(target=go, daemon=True)
    thread.start()
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=20_000)
    return int(out["status"]), out["json"]


def start_hosting(f) -> tuple[str, Any]:  # type: ignore[no-untyped-def]
    hosting = f.turn_on(0, "127.0.0.1")
    return hosting.base_url, f.phones.host


def phone_orders(qtbot, base: str, token: str, power: str, phase: str, orders: list[str]) -> set[str]:  # type: ignore[no-untyped-def]
    filed = set()
    for text in orders:
        status, answer = call(qtbot, "POST", f"{base}/api/order", token, {"power": power, "phase": phase, "text": text})
        assert status == 200, answer
        filed.add(answer["order"])
    return filed


def laptop_turn(t, f) -> str:  # type: ignore[no-untyped-def]
    """The next power takes the laptop and seals without orders (its units hold)."""
    s = f.flow.session
    power = s.next_power
    f.flow.curtain.open_button.click()
    assert s.stage == ENTERING and s.current == power
    f.strip.seal_button.click()
    return str(power)


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_phones_window_hosting_is_off_until_turned_on_and_unbinds(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    assert f.phones is None and f.act_phones.text().replace("&", "") == "Phones\u2026"
    with socket.socket() as sock:  # a free port, for the dialog's own switch
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    dialog = f.show_phones()
    assert dialog.address.text().startswith("Hosting is off") and not dialog.show_button.isEnabled()
    assert not port_open(free)
    dialog.interface.setCurrentIndex(dialog.interface.findData("127.0.0.1"))  # (the default: the table's Wi-Fi)
    dialog.port.setValue(free)
    dialog.switch_button.click()  # the join screen's own switch
    assert port_open(free) and f.phones is not None and dialog.on and f"{free}/" in dialog.address.text()
    assert dialog.show_button.isEnabled() and dialog.switch_button.text() == "Turn hosting off"
    dialog.switch_button.click()
    assert not port_open(free) and f.phones is None and dialog.address.text().startswith("Hosting is off")
    dialog.reject()
    f.turn_on(free, "127.0.0.1")
    assert port_open(free) and f.phones is not None
    assert f.phones.host.game is table.controller.game  # one game: the window's
    assert f.phones.host.table is table.controller.table
    assert table.controller.table[HOSTING_KEY] == free
    f.turn_off()
    assert not port_open(free) and f.phones is None and HOSTING_KEY not in table.controller.table
    # New Game stops it too
    f.turn_on(free, "127.0.0.1")
    f.start_new_game(TableSettings())
    assert f.phones is None and not port_open(free)


def test_phones_window_phone_seal_counts_stays_secret_and_is_adjudicated(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    base, host = start_hosting(f)
    c = t.controller
    f.act_write.trigger()
    s = f.flow.session
    token = host.token_of("france")
    written = phone_orders(qtbot, base, token, "france", "S1901M", PHONE_FRANCE)
    assert {str(o) for o in c.game.orders_of("france")} and len(c.game.orders_of("france")) == 3  # one game
    status, answer = call(qtbot, "POST", f"{base}/api/seal", token, {"power": "france", "phase": "S1901M"})
    assert status == 200 and answer["revealed"] is False  # the window reveals, not the server
    assert "france" in s.sealed and "france" in s.phone_sealed
    assert "\u260e" in f.strip.chip_text("france") and "FRA" in f.strip.chip_text("france")
    assert "France (phone)" in f.flow.curtain.sealed_label.text()
    for text in written:  # nothing of what the phone wrote, anywhere in the window
        assert not shows(t.window, text), text
    assert not t.window.scene.order_items_of("france") and not c.can_see("france")
    # the autosave already holds the phone's seal and its orders (a kill -9 loses nothing)
    game, saved = f.autosaver.autosave.load()
    assert "france" in saved["hotseat"]["sealed"] and saved["hotseat"]["phone_sealed"] == ["france"]
    assert "sealed" not in saved["phones"] and len(game.orders_of("france")) == 3  # one record: the turn
    assert saved["phones"]["tokens"]["france"] == token
    # the curtain skips France: the six others take the laptop
    seen = []
    while s.stage == CURTAIN:
        assert s.next_power != "france"
        seen.append(laptop_turn(t, f))
        assert set(host.sealed) == s.sealed  # the laptop's seals reach the phones too
    assert sorted(seen) == sorted(p for p in c.board.power_ids if p != "france")
    assert s.stage == READY
    f.flow.curtain.reveal_button.click()
    assert c.state.phase.short == "F1901M"
    assert c.state.units["bur"].power == "france" and c.state.units["mao"].power == "france"
    status, state = call(qtbot, "GET", f"{base}/api/state", token)
    assert status == 200 and state["phase"]["short"] == "F1901M" and state["sealed"] == []
    assert "A Par - Bur" in json.dumps(state["results"])  # the results, after the reveal


def test_phones_window_phone_unseal_and_laptop_reopen_stay_in_step(qtbot, table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    base, th = start_hosting(f)
    f.act_write.trigger()
    s = f.flow.session
    token = th.token_of("italy")
    phone_orders(qtbot, base, token, "italy", "S1901M", ["A Ven - Pie"])
    assert call(qtbot, "POST", f"{base}/api/seal", token, {"power": "italy", "phase": "S1901M"})[0] == 200
    assert "italy" in s.sealed
    assert call(qtbot, "POST", f"{base}/api/unseal", token, {"power": "italy", "phase": "S1901M"})[0] == 200
    assert "italy" not in s.sealed and "italy" not in s.phone_sealed
    # the same orders at the laptop: Italy sits down behind the curtain and sees the phone's draft
    while s.next_power != "italy":
        laptop_turn(t, f)
    f.flow.curtain.open_button.click()
    assert s.current == "italy" and c_orders(t, "italy") == {"A Ven - Pie"}
    f.strip.seal_button.click()
    assert "italy" in th.sealed  # sealed at the laptop: the phone sees it sealed, cannot change it
    status, answer = call(qtbot, "POST", f"{base}/api/order", token, {"power": "italy", "phase": "S1901M",
                                                                     "text": "A Ven H"})
    assert status == 409 and "sealed" in answer["error"]


def c_orders(t, power: str) -> set[str]:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.io.notation import format_order
    return {format_order(o) for o in t.controller.game.orders_of(power)}


def test_phones_window_two_power_player_has_one_link(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    players = {"england": "Anna", "france": "Anna", "austria": "Ben", "germany": "Cara", "russia": "Dan",
               "turkey": "Eve", "italy": "Fay"}
    f.start_new_game(TableSettings(players=players, host_pin=hash_pin(HOST_PIN)))
    base, th = start_hosting(f)
    f.act_write.trigger()
    s = f.flow.session
    token = th.token_of("england")
    status, state = call(qtbot, "GET", f"{base}/api/state", token)
    assert status == 200 and state["me"]["powers"] == ["england", "france"] and state["me"]["player"] == "Anna"
    assert set(state["mine"]) == {"england", "france"}
    phone_orders(qtbot, base, token, "france", "S1901M", ["A Par - Bur"])
    for p in ("england", "france"):
        assert call(qtbot, "POST", f"{base}/api/seal", token, {"power": p, "phase": "S1901M"})[0] == 200
    assert {"england", "france"} <= s.phone_sealed
    assert all(("england", "france") != seat for seat in [s.seat_of(s.next_power)])
    while s.stage == CURTAIN:
        assert s.next_power not in ("england", "france")
        laptop_turn(t, f)
    assert s.stage == READY
    f.flow.curtain.reveal_button.click()
    assert t.controller.state.units["bur"].power == "france"


def test_phones_window_formal_declaration_from_a_phone_counts(qtbot, table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    f.start_new_game(TableSettings(formal=True, host_pin=hash_pin(HOST_PIN)))
    base, th = start_hosting(f)
    c = t.controller
    token = th.token_of("france")
    said = {"power": "france", "phase": "S1901M", "declarations": {"germany": WAR}}
    status, answer = call(qtbot, "POST", f"{base}/api/declare", token, said)
    assert status == 409 and "talks" in answer["error"]  # not before the talks end
    f.write_orders()  # the talks end: the declarations round
    s = f.flow.session
    assert s.declaring
    status, answer = call(qtbot, "POST", f"{base}/api/declare", token, said)
    assert status == 200, answer
    assert "france" in s.sealed and "france" in s.phone_sealed
    assert not c.state.relations.at_war("france", "germany")  # secret until all are revealed
    assert not any("war" in x.lower() and "germany" in x.lower() for x in texts(t.window))
    # the others declare nothing at the laptop; the curtain skips France
    while s.stage == CURTAIN:
        assert s.next_power != "france"
        f.flow.curtain.open_button.click()
        f.flow.declarations_form.seal()
    assert s.stage == READY
    f.flow.curtain.reveal_button.click()
    assert c.state.relations.at_war("france", "germany")
    assert th.stage == "orders"  # the phones may now write orders
    status, state = call(qtbot, "GET", f"{base}/api/state", token)
    assert state["stage"] == "orders"


def test_phones_window_a_powers_code_only_after_a_host_action_and_never_under_anothers_turn(  # type: ignore[no-untyped-def]
        qtbot, table, features, host) -> None:
    t, f = table, features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    start_hosting(f)
    th = f.phones.host
    tokens = {p: th.token_of(p) for p in t.controller.board.power_ids}
    dialog = f.show_phones()
    qtbot.addWidget(dialog)

    def visible_tokens() -> set[str]:
        everything = "\n".join(texts(t.window) + texts(dialog))
        return {p for p, tok in tokens.items() if tok in everything}

    assert "127.0.0.1" in dialog.address.text() and visible_tokens() == set()
    dialog.power.setCurrentIndex(dialog.power.findData("france"))
    host.typed = "0000"  # a curious player without the host PIN
    dialog.show_code()
    assert visible_tokens() == set() and dialog.code.isHidden()
    host.typed = HOST_PIN
    dialog.show_code()
    assert visible_tokens() == {"france"} and not dialog.code.isHidden()
    # the curtain goes up and England sits down: France's code goes away
    f.act_write.trigger()
    while f.flow.session.next_power == "france":
        laptop_turn(t, f)
    f.flow.curtain.open_button.click()
    assert f.flow.session.stage == ENTERING
    assert visible_tokens() == set() and dialog.code.isHidden()
    # kick: a host action; the old link is dead, the new one is not shown until asked for
    f.flow.hide()
    dialog.kick()
    assert th.token_of("france") != tokens["france"]
    status, _ = call(qtbot, "GET", f"{dialog.hosting.base_url}/api/state", tokens["france"])
    assert status == 404
    assert th.token_of("france") not in "\n".join(texts(dialog))


def test_phones_window_resume_keeps_phone_seals_and_tokens(qtbot, table, features, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    base, th = start_hosting(f)
    f.act_write.trigger()
    token = th.token_of("turkey")
    phone_orders(qtbot, base, token, "turkey", "S1901M", ["F Ank - Bla"])
    assert call(qtbot, "POST", f"{base}/api/seal", token, {"power": "turkey", "phase": "S1901M"})[0] == 200
    # the window is killed here: what is on disk is the autosave as it stood
    f.autosaver.autosave.close()  # (issue 21: the database, as a restart finds it)
    saved = f.autosaver.autosave.path.read_bytes()
    f.turn_off()
    f.start_new_game(TableSettings())  # (another game meanwhile)
    f.autosaver.autosave.close()
    f.autosaver.autosave.path.write_bytes(saved)
    from diplomacy_desktop.gui.table.persistence import resume_from_autosave
    assert resume_from_autosave(t.controller, f.autosaver.autosave, message=lambda *a: None)
    s = f.flow.session
    assert "turkey" in s.sealed and "turkey" in s.phone_sealed and s.stage == CURTAIN
    qtbot.waitUntil(lambda: "Table \u25b8 Phones" in t.window.statusBar().currentMessage(), timeout=5000)
    assert len(t.controller.game.orders_of("turkey")) == 1
    base2, th2 = start_hosting(f)
    assert th2.token_of("turkey") == token  # the same links
    status, state = call(qtbot, "GET", f"{base2}/api/state", token)
    assert status == 200 and state["sealed"] == ["turkey"] and state["mine"]["turkey"]["orders"]


def test_phones_window_private_notes_reach_only_their_recipients(qtbot, table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    f.start_new_game(TableSettings(host_pin=hash_pin(HOST_PIN)))
    c = t.controller
    assert not f.act_notes.isChecked() and "notes_allowed" not in c.table  # off by default
    assert f.toggle_notes() and c.table["notes_allowed"] is True
    base, th = start_hosting(f)
    f.act_write.trigger()
    s = f.flow.session
    secret = "meet me in Burgundy, tell nobody"
    # a phone (France) writes to England
    status, _ = call(qtbot, "POST", f"{base}/api/note", th.token_of("france"),
                     {"power": "france", "to": ["england"], "text": secret})
    assert status == 200
    assert not shows(t.window, secret)  # never on the shared board
    # at the laptop, behind the curtain: Germany does not see it, England does
    seen: dict[str, bool] = {}
    while s.stage == CURTAIN:
        power = s.next_power
        f.flow.curtain.open_button.click()
        assert f.strip.notes_button.isVisible()
        dialog = f.open_notes()
        assert dialog is not None and s.stage == ENTERING  # the notes do not step the seat away
        everything = "\n".join(texts(dialog))
        seen[power] = secret in everything
        if power == "england":  # England answers Germany and Italy, from the laptop
            for p in ("germany", "italy"):
                dialog.boxes[p].setChecked(True)
            dialog.text.setPlainText("and I tell Germany and Italy")
            dialog.send_button.click()
            assert "Sent" in dialog.error.text()
        f.strip.seal_button.click()
        assert f.notes_dialog is None  # sealed: the notes went with the seat
        assert not shows(t.window, secret) and not shows(t.window, "I tell Germany")
    assert {p for p, v in seen.items() if v} == {"england", "france"}  # the recipient and its writer
    assert len(seen) == 7
    # on the phones: England's and Germany's phones see what was sent to them; Russia's nothing
    def phone_notes(power: str) -> str:
        status, state = call(qtbot, "GET", f"{base}/api/state", th.token_of(power))
        assert status == 200
        return json.dumps(state["notes"])
    assert secret in phone_notes("england") and secret not in phone_notes("germany")
    assert "I tell Germany" in phone_notes("germany") and "I tell Germany" in phone_notes("italy")
    assert "I tell Germany" not in phone_notes("france") and not json.loads(phone_notes("russia"))
    # kept with the game
    _, saved = f.autosaver.autosave.load()
    assert [n["to"] for n in saved["notes"]] == [["england"], ["germany", "italy"]]

