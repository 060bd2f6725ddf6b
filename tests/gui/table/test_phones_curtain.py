"""Issue 11, the curtain's side of the phones: "a power's code is shown only behind the curtain
for that power".  With hosting on, the seat at the keyboard (and only it) gets "Use my phone…":
its own code and link (one per player), closed the moment its turn ends; a player with a PIN
joins by the table URL and that PIN instead.  Sockets on 127.0.0.1 only.
"""

from __future__ import annotations

import shiboken6
from test_phones_window import call, start_hosting
from test_secrecy import HOST_PIN
from widget_text import texts

from diplomacy_desktop.engine.formal import ALLIANCE, WAR
from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, READY, hash_pin

PLAYERS = {"england": "Anna", "france": "Anna", "austria": "Ben", "germany": "Cara", "russia": "Dan",
           "turkey": "Eve", "italy": "Fay"}
ANNA_PIN = "2468"


def anna_game(f, *, every_seat: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Anna plays England and France with a PIN; ``every_seat``: the others have one too (issue 20:
    "Use my phone" is offered only to a seat that opened with its PIN)."""
    anna = hash_pin(ANNA_PIN)
    others = {p: hash_pin(ANNA_PIN) for p in ("austria", "germany", "italy", "russia", "turkey")} \
        if every_seat else {}
    f.start_new_game(TableSettings(players=PLAYERS, pins={"england": anna, "france": anna, **others},
                                   host_pin=hash_pin(HOST_PIN)))


def open_next(f, pin: str = "") -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    s = f.flow.session
    if s.has_pin(s.next_power):
        f.flow.curtain.pin_edit.setText(pin or ANNA_PIN)
    f.flow.curtain.open_button.click()
    assert s.stage == ENTERING
    return tuple(s.current_seat)


def test_phones_curtain_use_my_phone_only_on_the_seats_own_turn_with_hosting_on(  # type: ignore[no-untyped-def]
        qtbot, table, features) -> None:
    t, f = table, features
    anna_game(f, every_seat=True)
    s = f.flow.session
    f.act_write.trigger()
    # hosting off: no button on anybody's turn
    open_next(f)
    assert not f.strip.phone_button.isVisible() and f.open_my_phone() is None
    f.flow.hide()
    base, th = start_hosting(f)
    tokens = {p: th.token_of(p) for p in t.controller.board.power_ids}
    assert s.stage == CURTAIN and not f.strip.phone_button.isVisible()  # behind the curtain: nobody's
    assert f.open_my_phone() is None
    seen: dict[tuple[str, ...], set[str]] = {}
    while s.stage == CURTAIN:
        seat = open_next(f)
        assert f.strip.phone_button.isVisible()
        f.strip.phone_button.click()
        dialog = f.my_phone_dialog
        assert dialog is not None and dialog.isVisible() and s.stage == ENTERING  # the seat stays
        everything = "\n".join(texts(t.window) + texts(dialog) + [dialog.windowTitle()])
        shown = {p for p, tok in tokens.items() if tok in everything}
        seen[seat] = shown
        assert len(shown) == 1 and shown <= set(seat)  # one link, the seat's own; no other power's
        assert f"{base}/t/" in dialog.link.text()
        # the link's token covers every power of the player
        token = dialog.link.text().rsplit("/", 1)[1]
        status, state = call(qtbot, "GET", f"{base}/api/state", token)
        assert status == 200 and state["me"]["powers"] == sorted(seat, key=t.controller.board.power_ids.index)
        f.strip.seal_button.click()  # the turn ends: the dialog closes and forgets the link
        assert f.my_phone_dialog is None and not dialog.isVisible()
        assert dialog.link.text() == "" and token not in "\n".join(texts(dialog) + texts(t.window))
        assert not f.strip.phone_button.isVisible()
    assert len(seen) == 6  # six players: Anna's two powers are one seat, one link
    assert ("england", "france") in {tuple(sorted(k)) for k in seen}


def test_phones_curtain_use_my_phone_closes_when_the_seat_steps_away_or_hosting_stops(  # type: ignore[no-untyped-def]
        qtbot, table, features) -> None:
    f = features
    anna_game(f, every_seat=True)
    start_hosting(f)
    f.act_write.trigger()
    open_next(f)
    dialog = f.open_my_phone()
    assert dialog is not None and dialog.isVisible()
    f.strip.hide_button.click()  # "Hide my orders": the curtain comes back
    assert f.my_phone_dialog is None and not dialog.isVisible() and dialog.link.text() == ""
    open_next(f)
    dialog = f.open_my_phone()
    assert dialog is not None
    f.turn_off()  # hosting stops: no code of a server that is gone
    assert f.my_phone_dialog is None and not dialog.isVisible()
    assert not f.strip.phone_button.isVisible()


def test_phones_curtain_a_phone_seal_of_the_whole_seat_closes_its_code(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    anna_game(f, every_seat=True)
    base, _ = start_hosting(f)
    f.act_write.trigger()
    s = f.flow.session
    seat = open_next(f)
    dialog = f.open_my_phone()
    assert dialog is not None
    token = dialog.link.text().rsplit("/", 1)[1]
    pin = {"pin": ANNA_PIN} if s.has_pin(seat[0]) else {}
    for p in seat:  # the player scans it and seals on the phone
        assert call(qtbot, "POST", f"{base}/api/seal", token, {"power": p, "phase": "S1901M", **pin})[0] == 200
    assert s.stage == CURTAIN and set(seat) <= s.phone_sealed
    assert f.my_phone_dialog is None  # closed (and maybe already deleted: the event loop ran)
    assert not shiboken6.isValid(dialog) or (not dialog.isVisible() and dialog.link.text() == "")


def test_phones_curtain_table_url_and_pin_join_the_windows_host(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    anna_game(f)
    base, th = start_hosting(f)
    status, public = call(qtbot, "GET", f"{base}/api/public")  # the table's address: no token needed
    assert status == 200 and public["phase"]["short"] == "S1901M"
    status, answer = call(qtbot, "POST", f"{base}/api/join", None, {"power": "france", "pin": "1111"})
    assert status == 403 and "token" not in answer
    status, answer = call(qtbot, "POST", f"{base}/api/join", None, {"power": "france", "pin": ANNA_PIN})
    assert status == 200 and answer["token"] != th.token_of("france")  # the device's own (issue 31)
    status, state = call(qtbot, "GET", f"{base}/api/state", answer["token"])
    assert status == 200 and state["me"]["powers"] == ["england", "france"]
    # a power without a PIN joins by its code, shown behind the curtain
    status, answer = call(qtbot, "POST", f"{base}/api/join", None, {"power": "russia", "pin": "0000"})
    assert status == 409 and "token" not in answer


# -- Formal Diplomacy: a player of two powers declares on the phone for one of them -------------------


def formal_anna_game(f) -> None:  # type: ignore[no-untyped-def]
    f.start_new_game(TableSettings(players=PLAYERS, formal=True, host_pin=hash_pin(HOST_PIN)))


def test_phones_curtain_declared_on_the_phone_for_one_power_prefills_the_laptop_sheet(  # type: ignore[no-untyped-def]
        qtbot, table, features) -> None:
    t, f = table, features
    formal_anna_game(f)
    base, th = start_hosting(f)
    c = t.controller
    f.write_orders()  # the talks end: the declarations round
    s = f.flow.session
    assert s.declaring
    token = th.token_of("france")
    said = {"power": "france", "phase": "S1901M", "declarations": {"germany": WAR, "italy": ALLIANCE}}
    status, answer = call(qtbot, "POST", f"{base}/api/declare", token, said)
    assert status == 200, answer
    # France has declared, England not: Anna's seat is not sealed (and not marked sealed)
    assert "france" in s.part_declared and "france" not in s.sealed and "england" not in s.sealed
    assert "\u2713" not in f.strip.chip_text("france") and "\u260e" in f.strip.chip_text("france")
    status, state = call(qtbot, "GET", f"{base}/api/state", token)
    assert "france" in state["declared"] and "england" not in state["declared"]  # the phone: France declared
    assert not c.state.relations.at_war("france", "germany")  # secret until all are revealed
    sheets: list[str] = []
    while s.stage == CURTAIN:
        f.flow.curtain.open_button.click()
        form = f.flow.declarations_form
        while s.stage == ENTERING and form.power is not None:
            sheets.append(form.power)
            if form.power == "france":  # the phone's declarations, on the sheet, said so
                assert form.choice("germany") == WAR and form.choice("italy") == ALLIANCE
                assert form.note_label.isVisibleTo(f.flow.curtain) and "phone" in form.note_label.text()
            else:
                assert not form.note_label.isVisibleTo(f.flow.curtain)
            form.seal()
    assert sorted(sheets) == sorted(c.board.power_ids)  # Anna declared England at the laptop, then saw France
    assert {"england", "france"} <= s.sealed and not s.part_declared
    assert s.stage == READY
    f.flow.curtain.reveal_button.click()
    assert c.state.relations.at_war("france", "germany")  # the phone's declarations were not overwritten
    assert th.stage == "orders"


def test_phones_curtain_a_seat_seals_its_declarations_only_when_all_its_powers_declared(  # type: ignore[no-untyped-def]
        qtbot, table, features) -> None:
    t, f = table, features
    formal_anna_game(f)
    base, th = start_hosting(f)
    c = t.controller
    f.write_orders()
    s = f.flow.session
    token = th.token_of("england")  # one token for both of Anna's powers
    for power, other in (("england", "russia"), ("france", "germany")):
        assert "france" not in s.sealed and "england" not in s.sealed
        said = {"power": power, "phase": "S1901M", "declarations": {other: WAR}}
        assert call(qtbot, "POST", f"{base}/api/declare", token, said)[0] == 200
    # both declared on the phone: the seat is sealed, on a phone; the curtain skips it
    assert {"england", "france"} <= s.sealed and {"england", "france"} <= s.phone_sealed and not s.part_declared
    assert "\u2713\u260e" in f.strip.chip_text("england") and "\u2713\u260e" in f.strip.chip_text("france")
    while s.stage == CURTAIN:
        assert s.next_power not in ("england", "france")
        f.flow.curtain.open_button.click()
        f.flow.declarations_form.seal()
    f.flow.curtain.reveal_button.click()
    assert c.state.relations.at_war("england", "russia") and c.state.relations.at_war("france", "germany")


def test_phones_curtain_a_forced_reveal_counts_a_half_declared_seats_phone_declarations(  # type: ignore[no-untyped-def]
        qtbot, table, features, host) -> None:
    t, f = table, features
    formal_anna_game(f)
    base, th = start_hosting(f)
    c = t.controller
    f.write_orders()
    s = f.flow.session
    said = {"power": "france", "phase": "S1901M", "declarations": {"germany": WAR}}
    assert call(qtbot, "POST", f"{base}/api/declare", th.token_of("france"), said)[0] == 200
    assert s.part_declared == {"france"} and "france" not in s.sealed
    # kept with the turn (a crash of the laptop loses nothing the phone declared)
    assert c.table["hotseat"]["part_declared"] == ["france"]
    host.typed = HOST_PIN
    assert f.flow.force_reveal()
    assert c.state.relations.at_war("france", "germany")


def test_phones_curtain_use_my_phone_on_the_declarations_sheet(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    f.start_new_game(TableSettings(players=PLAYERS, formal=True, host_pin=hash_pin(HOST_PIN),
                                   pins={p: hash_pin(ANNA_PIN) for p in t.controller.board.power_ids}))
    f.write_orders()
    s = f.flow.session
    f.flow.curtain.pin_edit.setText(ANNA_PIN)  # issue 20: "Use my phone" once the seat gave its PIN
    f.flow.curtain.open_button.click()
    form = f.flow.declarations_form
    assert s.declaring and s.stage == ENTERING and not form.phone_button.isVisibleTo(form)  # hosting off
    form.hide_button.click()
    _, th = start_hosting(f)
    tokens = {p: th.token_of(p) for p in t.controller.board.power_ids}
    f.flow.curtain.pin_edit.setText(ANNA_PIN)
    f.flow.curtain.open_button.click()
    seat = tuple(s.current_seat)
    assert form.phone_button.isVisibleTo(form) and not f.strip.phone_button.isVisibleTo(f.strip)
    form.phone_button.click()
    dialog = f.my_phone_dialog
    assert dialog is not None and s.stage == ENTERING and tuple(s.current_seat) == seat  # the seat stays
    everything = "\n".join(texts(t.window) + texts(dialog))
    shown = {p for p, tok in tokens.items() if tok in everything}
    assert len(shown) == 1 and shown <= set(seat)
    while s.stage == ENTERING and form.power is not None:
        form.seal()  # the seat's last sheet sealed: its turn ends, its code goes
    assert f.my_phone_dialog is None and not dialog.isVisible() and dialog.link.text() == ""
    assert not form.phone_button.isVisibleTo(form)
