"""What the phone page reads beyond the basics (issue 19): every adjudicated phase as the phone
draws it, the full names, phase names in words, a typed illegal order that asks before it
replaces a legal one and says what it replaced (for an undo), and the clock kept across a
restart of ``serve``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.phase_results import phase_label
from diplomacy_desktop.host.table import HostError, StaleRequestError, TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import load_game

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def new_host(tmp_path: Path, **table: object) -> TableHost:
    return TableHost(Game.new(load_board("standard")), dict(table), tmp_path / "game.dipl")


def play(host: TableHost, orders: dict[str, list[str]]) -> None:
    """Give the typed orders, then seal every power that owes orders (the reveal)."""
    for power, texts in orders.items():
        for text in texts:
            host.set_order_text(host.token_of(power), power, host.phase, text)
    for p in host.owing():
        host.seal(host.token_of(p), p, host.phase)


def test_phone_api_phase_labels_are_words() -> None:
    assert phase_label("S1902M") == "Spring 1902 moves"
    assert phase_label("F1901R") == "Fall 1901 retreats"
    assert phase_label("W1901A") == "Winter 1901 adjustments"
    assert phase_label("X1") == "X1" and phase_label("") == "another phase"


def test_phone_api_a_stale_request_names_the_phases_in_words(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    with pytest.raises(StaleRequestError) as stale:
        host.set_order_text(host.token_of("france"), "france", "S1902M", "A Par - Bur")
    assert str(stale.value) == "that was written for Spring 1902 moves; the game is now at Spring 1901 moves"


def test_phone_api_notes_carry_their_phase_in_words(tmp_path: Path) -> None:
    host = new_host(tmp_path, notes_allowed=True)
    host.send_note(host.token_of("france"), "france", ["germany"], "hello")
    note = host.state_for(host.token_of("germany"))["notes"][0]
    assert note["phase"] == "S1901M" and note["phase_label"] == "Spring 1901 moves"


def test_phone_api_every_adjudicated_phase_is_drawn_as_the_window_draws_it(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    assert host.results_at(None) is None and host.public_state()["results_count"] == 0
    play(host, {"germany": ["A Mun - Bur"], "france": ["A Par - Bur", "A Mar S A Par - Bur"]})
    play(host, {"france": ["A Bur - Mun", "A Mar - Bur"], "germany": ["A Kie - Mun"]})
    assert host.public_state()["results_count"] == 2
    spring = host.results_at(0)
    assert spring is not None
    assert (spring["index"], spring["count"], spring["label"], spring["kind"]) == (0, 2, "Spring 1901 moves", "movement")
    # the position the orders were given in, the dislodged unit, every order with its result
    assert {"power": "germany", "type": "A", "location": "mun", "label": "Mun"} in spring["units"]
    assert [d["location"] for d in spring["dislodged"]] == []
    by = {i["order"]: i for i in spring["items"]}
    assert by["A Par - Bur"]["success"] and by["A Par - Bur"]["data"] == {
        "kind": "move", "unit_kind": "A", "location": "par", "destination": "bur", "via_convoy": False}
    assert not by["A Mun - Bur"]["success"] and by["A Mun - Bur"]["outcome"] == "failure"
    assert by["A Mar S A Par - Bur"]["drawn"]
    # units nobody ordered hold by default: listed, not drawn (as in the window)
    assert not by["F Bre H"]["drawn"]
    fall = host.results_at(None)
    assert fall is not None and fall["index"] == 1 and fall["label"] == "Fall 1901 moves"
    assert fall == host.results_at(1)
    with pytest.raises(HostError):
        host.results_at(2)


def test_phone_api_a_dislodgement_and_a_standoff_are_in_the_picture(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    play(host, {"germany": ["A Mun - Bur"], "france": ["A Mar - Pie"], "italy": ["A Ven - Pie"]})
    spring = host.results_at(None)
    assert spring is not None and spring["standoffs"] == ["pie"] and spring["dislodged"] == []
    play(host, {"france": ["A Mar - Bur", "A Par S A Mar - Bur"], "germany": ["A Bur H"]})
    assert host.game.state.phase.kind == "retreat"
    pic = host.results_at(None)
    assert pic is not None
    assert [(d["location"], d["attacker_from"]) for d in pic["dislodged"]] == [("bur", "mar")]
    assert [i["dislodged"] for i in pic["items"] if i["order"] == "A Bur H"] == [True]


def test_phone_api_a_mistyped_order_asks_before_it_replaces_a_legal_one(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = host.token_of("france")
    first = host.set_order_text(t, "france", host.phase, "A Par - Bur")
    assert first["given"] and first["replaced"] is None and first["key"] == "par"
    asked = host.set_order_text(t, "france", host.phase, "A Par - Mun")
    assert asked["given"] is False and asked["needs_confirmation"]
    assert "replace the legal order A Par - Bur" in asked["message"]
    assert [o["text"] for o in host.state_for(t)["mine"]["france"]["orders"]] == ["A Par - Bur"]  # unchanged
    kept = host.set_order_text(t, "france", host.phase, "A Par - Mun", replace=True)
    assert kept["kept_illegal"] and kept["replaced"] == {
        "text": "A Par - Bur", "legal": True,
        "order": {"kind": "move", "unit_kind": "A", "location": "par", "destination": "bur", "via_convoy": False}}
    mine = host.state_for(t)["mine"]["france"]["orders"]
    assert [(o["text"], o["legal"]) for o in mine] == [("A Par - Mun", False)]
    # the undo: the phone sends back what was replaced
    back = host.set_order(t, "france", host.phase, kept["replaced"]["order"])
    assert back["replaced"] == {"text": "A Par - Mun", "legal": False, "order": kept["replaced"]["order"] | {
        "destination": "mun"}}
    # an illegal order over another illegal one (or over nothing) needs no question
    host.clear_order(t, "france", host.phase, "par")
    assert host.set_order_text(t, "france", host.phase, "A Par - Mun")["given"]


def test_phone_api_board_names(tmp_path: Path) -> None:
    names = new_host(tmp_path).board_names()
    assert names["spaces"]["mao"] == "Mid-Atlantic Ocean" and names["powers"]["england"] == "England"


def test_phone_api_the_serve_clock_comes_back_after_a_restart(tmp_path: Path) -> None:
    mono, wall = FakeClock(50.0), FakeClock(1_000_000.0)
    host = TableHost(Game.new(load_board("standard")), {}, tmp_path / "g.dipl", clock=mono, wall_clock=wall)
    host.set_clock("Talks", 600)
    mono.now += 100
    wall.now += 100
    host.pause_clock(False)  # 500 s left, paused
    host.pause_clock(True)
    host.flush()
    wall.now += 30  # the host is away for 30 s
    game, table = load_game(tmp_path / "g.dipl")
    again = TableHost(game, table, tmp_path / "g.dipl", clock=FakeClock(7.0), wall_clock=wall)
    assert again.clock_view() is None
    assert again.restore_clock()
    view = again.clock_view()
    assert view is not None and view["title"] == "Talks" and view["running"] and view["remaining"] == 470.0
    again.set_clock("", None)
    assert "clock" not in json.loads(json.dumps(again.table.to_table()["phones"]))
    assert not again.restore_clock()


def test_phone_api_over_http_results_names_and_the_replace_flag(tmp_path: Path) -> None:
    from test_host_server import call

    from diplomacy_desktop.host.server import HostServer

    host = new_host(tmp_path)
    server = HostServer(host, "127.0.0.1", 0)
    server.start()
    try:
        t = host.token_of("france")
        assert call(server, "GET", "/api/results", t)[:2] == (200, {"results": None})
        assert call(server, "GET", "/api/board")[1]["spaces"]["stp"] == "St Petersburg"
        for bad in ("x", "-1", "1e3", "9999999"):
            assert call(server, "GET", f"/api/results?index={bad}", t)[0] == 400
        body = {"power": "france", "phase": "S1901M", "text": "A Par - Bur"}
        assert call(server, "POST", "/api/order", t, body)[1]["given"]
        status, out, _ = call(server, "POST", "/api/order", t, {**body, "text": "A Par - Mun"})
        assert status == 200 and out["needs_confirmation"] and not out["given"]
        status, out, _ = call(server, "POST", "/api/order", t, {**body, "text": "A Par - Mun", "replace": True})
        assert status == 200 and out["kept_illegal"] and out["replaced"]["text"] == "A Par - Bur"
        play(host, {})
        status, out, _ = call(server, "GET", "/api/results?index=0", t)
        assert status == 200 and out["results"]["label"] == "Spring 1901 moves"
        assert call(server, "GET", "/api/results?index=1", t)[0] == 400
    finally:
        server.stop()
