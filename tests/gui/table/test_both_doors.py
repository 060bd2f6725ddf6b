"""The table's behaviours through both doors (issue 30): each test runs once through the window
(``GameController`` and the hot-seat flow: the curtain, the order box, the autosave) and once
through the phones (``host/table.py`` ``TableHost`` over its own file, as ``serve`` runs it).
The rules are the table service's (``table/service.py``); a door only maps them.

Each behaviour was a divergence between the two doors: late orders void after the grace still
accepted at the curtain; a wrong PIN at the curtain not in the autosave; "Waive one" decided by
the phone page from options it might not have yet; a power in civil disorder for a movement
phase told "no builds" and then asked to build; an order filed differently by each door.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Hold
from diplomacy_desktop.host.table import HostError, TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.io.savefile import load_game
from diplomacy_desktop.table.autosave import Autosave as FolderAutosave
from diplomacy_desktop.table.event import LATE_VOID, EventRules
from diplomacy_desktop.table.pins import hash_pin
from diplomacy_desktop.table.settings import TableSettings

DOORS = ("window", "phone")
PIN = "4826"

#: Spring and Fall 1901 for France (two centres: Spain and Portugal) and Turkey (Bulgaria in Spring,
#: then no orders at all in Fall: civil disorder for that phase, rules XIV.1)
SPRING = {"france": ["A Par - Bur", "F Bre - Mao", "A Mar - Spa"], "turkey": ["A Con - Bul"]}
FALL = {"france": ["F Mao - Por"], "turkey": []}


class WindowDoor:
    """The window: the table game on the real window, a power at the curtain types its orders."""

    name = "window"

    def __init__(self, table: Any, features: Any, tmp_path: Path) -> None:
        self.t, self.f, self.tmp_path = table, features, tmp_path

    @property
    def game(self) -> Game:
        return self.t.controller.game  # type: ignore[no-any-return]

    @property
    def table(self) -> dict[str, Any]:
        return self.t.controller.table  # type: ignore[no-any-return]

    def start(self, powers: tuple[str, ...], pins: dict[str, str] | None = None, **options: Any) -> None:
        self.f.start_new_game(TableSettings(powers=powers, pins=pins or {}, **options))
        self.f.act_write.trigger()  # F6: the talks end, the curtain calls the first power

    def open(self, power: str, pin: str = "") -> str:
        """``power`` opens at the curtain (with ``pin``); what the curtain says ("" when it opened)."""
        flow = self.f.flow
        if flow.session.stage == "open":
            self.f.act_write.trigger()  # the talks end
        assert flow.session.next_power == power, (flow.session.next_power, power)
        if pin:  # (the curtain checks a PIN off the click, slowly on purpose: the flow's own check)
            flow.open_power(power, pin)
        else:
            flow.curtain.open_button.click()
        return "" if flow.session.current == power else str(flow.curtain.error_label.text())

    def give(self, power: str, text: str) -> str:
        """``power`` (at the keyboard) types ``text`` in the order box; the box's answer."""
        dock = self.t.window.order_dock
        dock.show_power(power)
        self.t.window.focus_entry()
        dock.entry.clear()
        self.t.qtbot.keyClicks(dock.entry, text)
        self.t.qtbot.keyClick(dock.entry, Qt.Key.Key_Return)
        return str(dock.feedback.text())

    def seal(self, power: str) -> None:
        assert self.f.flow.session.current == power
        self.f.strip.seal_button.click()

    def play(self, orders: dict[str, list[str]]) -> None:
        """Every called power writes its orders and seals; the laptop reveals."""
        s = self.f.flow.session
        if s.stage == "open":
            self.f.act_write.trigger()
        while s.stage == "curtain":
            power = s.next_power
            assert self.open(power) == ""
            for text in orders.get(power, []):
                self.give(power, text)
            self.seal(power)
        self.f.flow.curtain.reveal_button.click()

    def note(self, sender: str, to: list[str], text: str) -> str:
        """``sender``, at the keyboard behind the curtain, sends a note from the notes dialog; what
        the dialog says ("" when it was sent)."""
        s = self.f.flow.session
        if s.stage == "open":
            self.f.act_write.trigger()  # the talks end
        while s.current != sender:  # the powers called before it seal (they have nothing to say)
            if s.current is not None:
                self.seal(s.current)
            assert self.open(s.next_power) == ""
        dialog = self.f.open_notes()
        assert dialog is not None
        for p, box in dialog.boxes.items():
            box.setChecked(p in to)
        dialog.text.setPlainText(text)
        dialog.send_button.click()
        said = str(dialog.error.text())
        dialog.reject()
        return "" if said == "Sent." else said

    def void_late(self, powers: list[str]) -> None:
        """The event's rule: the writing ended, the grace ran out, late orders are void."""
        tour = self.t.window.tournament
        tour.apply_rules(EventRules(late_orders=LATE_VOID, late_grace_seconds=0))
        assert set(powers) <= set(tour.late_powers())
        tour._writing_ended()  # the clock ran out
        self.t.qtbot.waitUntil(lambda: not tour.late_timer.isActive(), timeout=5000)

    def on_disk(self) -> tuple[Game, dict[str, Any]]:
        """The game as a kill would leave it: the autosave read by another store (a Resume)."""
        store = FolderAutosave(self.tmp_path / "data")
        try:
            return store.load()
        finally:
            store.close()

    def results_told(self) -> str:
        """What the table reads of the last adjudicated phase (the Results panel)."""
        from diplomacy_desktop.gui.orders.results_dock import phase_notes

        c = self.t.controller
        c.view_phase(len(c.game.history) - 1)
        entry = c.game.history[-1]
        return "\n".join(self.t.window.results_dock.result_texts() + [note for _l, note in phase_notes(c.board, entry)])


class PhoneDoor:
    """The phones: ``TableHost`` over its own game file (``serve``), every call as a phone's."""

    name = "phone"

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.path = tmp_path / "game.dipl"
        self.host: TableHost | None = None

    @property
    def h(self) -> TableHost:
        assert self.host is not None
        return self.host

    @property
    def game(self) -> Game:
        return self.h.game

    @property
    def table(self) -> dict[str, Any]:
        return self.h.table

    def start(self, powers: tuple[str, ...], pins: dict[str, str] | None = None, **options: Any) -> None:
        table = TableSettings(powers=powers, pins=pins or {}, **options).to_table()
        self.host = TableHost(Game.new(load_board("standard")), table, self.path)
        self.host.save()

    def reopen(self) -> None:
        """``serve`` stopped and started again on the same file."""
        self.h.close()
        self.host = TableHost.open_or_new(self.path)

    def open(self, power: str, pin: str = "") -> str:
        return ""  # a phone is its seat: nothing to open

    def give(self, power: str, text: str) -> str:
        try:
            answer = self.h.set_order_text(self.h.token_of(power), power, self.h.phase, text)
        except HostError as exc:
            return str(exc)
        return str(answer["message"])

    def note(self, sender: str, to: list[str], text: str) -> str:
        try:
            self.h.send_note(self.h.token_of(sender), sender, to, text)
        except HostError as exc:
            return str(exc)
        return ""

    def seal(self, power: str, pin: str | None = None) -> str:
        try:
            self.h.seal(self.h.token_of(power), power, self.h.phase, pin=pin)
        except HostError as exc:
            return str(exc)
        return ""

    def play(self, orders: dict[str, list[str]]) -> None:
        for power in self.h.owing():
            for text in orders.get(power, []):
                self.give(power, text)
            assert self.seal(power) == ""
        if self.h.owing() and set(self.h.owing()) <= set(self.h.sealed):
            self.h.force_adjudicate()

    def void_late(self, powers: list[str]) -> None:
        assert self.h.service.void_late_orders(powers) is not None

    def on_disk(self) -> tuple[Game, dict[str, Any]]:
        return load_game(self.path)

    def results_told(self) -> str:
        results = self.h.results_at(None)
        assert results is not None
        items = results.get("items", [])
        return "\n".join([str(n) for n in results.get("notes", [])]
                         + [f"{i['order']}: {i['explanation']}" for i in items])


@pytest.fixture(params=DOORS)
def door(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "window":
        yield WindowDoor(request.getfixturevalue("table"), request.getfixturevalue("features"), tmp_path)
        return
    door = PhoneDoor(tmp_path)
    yield door
    if door.host is not None:
        door.host.close()


def phone_state(door: Any, power: str) -> dict[str, Any]:
    """What ``power``'s phone is sent (``/api/state``): through the window's own hosting for the
    window, through ``serve``'s host for the phones."""
    if isinstance(door, WindowDoor):
        if door.f.phones is None:
            door.f.turn_on(0, "127.0.0.1")
        host = door.f.phones.host
        return host.state_for(host.token_of(power))  # type: ignore[no-any-return]
    return door.h.state_for(door.h.token_of(power))


# -- (e) one way to file an order -----------------------------------------------------------------------


def test_both_doors_file_stp_bot_as_the_rules_read_it(door: Any) -> None:
    door.start(("russia",))
    assert door.open("russia") == ""
    door.give("russia", "stp - bot")
    (order,) = door.game.orders_of("russia")
    assert format_order(order) == "F StP/sc - Bot"
    assert getattr(order, "location", None) == "stp/sc"


# -- (a) late orders void are refused after the grace, the seat told why ----------------------------------


def test_both_doors_refuse_late_orders_void_after_the_grace(door: Any) -> None:
    door.start(("france", "germany"))
    door.void_late(["france"])
    assert all(isinstance(o, Hold) for o in door.game.orders_of("france"))
    # France comes to the curtain (or its phone) after the grace: its orders are refused, with why
    said = door.open("france") or door.give("france", "A Par - Bur")
    assert "void" in said and "late" in said, said
    assert all(isinstance(o, Hold) for o in door.game.orders_of("france")) and len(door.game.orders_of("france")) == 3


# -- (b) a wrong PIN is counted on disk at once --------------------------------------------------------------


def test_both_doors_a_wrong_pin_is_on_disk_at_once(door: Any) -> None:
    door.start(("france",), pins={"france": hash_pin(PIN)})
    if isinstance(door, WindowDoor):
        said = door.open("france", "1111")
        assert door.f.flow.session.current is None
    else:
        said = door.seal("france", "1111")
    assert "wrong pin" in said.lower(), said
    # killed now and resumed: the count is there
    _game, table = door.on_disk()
    assert table["pin_failures"]["france"]["count"] == 1


# -- (c) "Waive one" is offered on the phones whenever the service offers it --------------------------------


def test_both_doors_offer_waive_one_after_a_phase_change_and_a_fresh_load(door: Any) -> None:
    door.start(("france", "turkey"))
    door.play(SPRING)
    door.play(FALL)
    assert door.game.state.phase.short == "W1901A" and door.game.state.adjustment_delta("france") == 2
    # right after the phase change, the phone is told the waive is offered (before any options)
    mine = phone_state(door, "france")["mine"]["france"]
    assert mine.get("can_waive") is True, mine
    # after a fresh load too
    if isinstance(door, WindowDoor):
        from diplomacy_desktop.gui.table.persistence import resume_from_autosave

        door.f.turn_off()
        assert resume_from_autosave(door.t.controller, door.f.autosaver.autosave)
    else:
        door.reopen()
    mine = phone_state(door, "france")["mine"]["france"]
    assert mine.get("can_waive") is True, mine
    assert phone_state(door, "turkey")["mine"]["turkey"].get("can_waive") is True  # Bulgaria


# -- (d) a power in civil disorder for a movement phase is told the truth about its adjustments -------------


def test_both_doors_a_power_without_fall_orders_is_not_told_no_builds_then_builds(door: Any) -> None:
    door.start(("france", "turkey"))
    door.play(SPRING)
    door.play(FALL)  # Turkey gives no order in Fall: it is in civil disorder for that phase (XIV.1)
    told = door.results_told()
    assert "no builds" not in told and "builds nothing" not in told, told
    state = door.game.state
    assert state.phase.short == "W1901A" and state.adjustment_delta("turkey") == 1
    # and the table's Winter agrees: Turkey builds
    if isinstance(door, WindowDoor):
        s = door.f.flow.session
        while s.next_power != "turkey":
            door.open(s.next_power)
            door.seal(s.current)
    assert door.open("turkey") == ""
    said = door.give("turkey", "Build A Smy")
    assert Build("turkey", "A", "smy") in door.game.orders_of("turkey"), said


# -- a seal is on disk before anybody is told of it ---------------------------------------------------------


def test_both_doors_a_seal_is_on_disk_at_once(door: Any) -> None:
    door.start(("france", "germany"))
    assert door.open("france") == ""
    door.give("france", "A Par - Bur")
    door.seal("france")
    # killed now and resumed: France has sealed, with its seal code
    game, table = door.on_disk()
    assert [format_order(o) for o in game.orders_of("france")] == ["A Par - Bur"]
    sealed = table["hotseat"]["sealed"] if isinstance(door, WindowDoor) else table["phones"]["sealed"]
    assert "france" in sealed and "germany" not in sealed
    assert table["seal_codes"]["france"]


# -- the one PIN counter: a right PIN clears it, on disk at once ----------------------------------------------


def test_both_doors_a_right_pin_clears_the_count_on_disk_at_once(door: Any) -> None:
    """Two wrong PINs, then the right one: the count is gone from the disk at once at both doors
    (the window's curtain cleared its own ``PinGuard`` and left the write to the next autosave:
    a kill then brought the wrong PINs back, and their waits with them)."""
    door.start(("france", "germany"), pins={"france": hash_pin(PIN)})
    for _ in range(2):
        said = door.open("france", "1111") if isinstance(door, WindowDoor) else door.seal("france", "1111")
        assert "wrong pin" in said.lower(), said
    assert door.on_disk()[1]["pin_failures"]["france"]["count"] == 2
    if isinstance(door, WindowDoor):
        assert door.open("france", PIN) == ""
    else:
        door.give("france", "A Par - Bur")
        assert door.seal("france", PIN) == ""
    # killed now and resumed: no wrong PIN is held against France
    _game, table = door.on_disk()
    assert "france" not in table.get("pin_failures", {}), table.get("pin_failures")


# -- a note, by the one rule of every seat ------------------------------------------------------------------


def test_both_doors_refuse_a_note_beyond_a_powers_share(door: Any) -> None:
    """A power that has written its share of the game's notes (``MAX_NOTES_PER_POWER``) is
    refused the next at both doors (the laptop kept writing them: its own check counted only
    the game's whole store)."""
    from diplomacy_desktop.table.notes import MAX_NOTES_PER_POWER

    door.start(("france", "germany"), notes=True)
    assert door.note("france", ["germany"], "hello") == ""
    assert door.on_disk()[1]["notes"][-1]["text"] == "hello"
    door.table["notes"] = door.table.to_table()["notes"] + [  # (the notes are a typed list: the file's view)
        {"id": i + 2, "phase": "S1901M", "from": "france", "to": ["germany"], "text": "hi"}
        for i in range(MAX_NOTES_PER_POWER - 1)]
    said = door.note("france", ["germany"], "one more")
    assert "as many notes as one power" in said, said
    assert len(door.table["notes"]) == MAX_NOTES_PER_POWER
