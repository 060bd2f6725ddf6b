"""The table host model (no sockets): tokens, secrecy, typed and tapped orders, seals and PINs,
the reveal, retreats and builds, Formal Diplomacy declarations, several powers per player,
private notes, kicks and the save."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from diplomacy_desktop.engine.board import ARMY
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.state import ADJUSTMENT, RETREAT
from diplomacy_desktop.host.table import (
    HostError,
    NotYoursError,
    PinError,
    RefusedError,
    StaleRequestError,
    TableHost,
    TooManyAttemptsError,
    UnknownTokenError,
)
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.pins import hash_pin
from diplomacy_desktop.io.savefile import load_game
from diplomacy_desktop.table.pins import FREE_ATTEMPTS as PIN_FREE_ATTEMPTS

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def new_host(tmp_path: Path, **table: object) -> TableHost:
    game = Game.new(load_board("standard"), formal=bool(table.pop("formal", False)))
    return TableHost(game, dict(table), tmp_path / "game.dipl")


def tokens(host: TableHost) -> dict[str, str]:
    return {p: host.token_of(p) for p in POWERS}


def seal_all(host: TableHost, *, but: tuple[str, ...] = ()) -> None:
    t = tokens(host)
    for p in host.owing():
        if p not in but:
            host.seal(t[p], p, host.phase)


# -- tokens ----------------------------------------------------------------------------------------


def test_host_tokens_are_one_per_power_unguessable_and_new_per_game(tmp_path: Path) -> None:
    a, b = new_host(tmp_path), new_host(tmp_path / "other")
    ta, tb = tokens(a), tokens(b)
    assert len(set(ta.values())) == 7 and all(len(t) >= 24 for t in ta.values())
    assert not set(ta.values()) & set(tb.values())
    assert a.powers_of(ta["france"]) == ("france",)
    with pytest.raises(UnknownTokenError):
        a.powers_of(tb["france"])
    with pytest.raises(UnknownTokenError):
        a.powers_of("")


def test_host_tokens_and_sealed_orders_survive_a_restart(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    host.seal(t["france"], "france", "S1901M")
    host.save()
    again = TableHost.open_or_new(tmp_path / "game.dipl")
    assert tokens(again) == t
    assert again.sealed == ["france"]
    mine = again.state_for(t["france"])["mine"]["france"]
    assert [o["text"] for o in mine["orders"]] == ["A Par - Bur"] and mine["sealed"]


def test_host_save_is_private_and_opens_as_a_saved_game(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    host.set_order_text(t["england"], "england", "S1901M", "F Lon - Nth")
    path = tmp_path / "game.dipl"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    game, table = load_game(path)
    assert [str(o) for o in game.orders_of("england")] == ["F lon - nth"]
    assert table["phones"]["tokens"] == t


def test_host_kick_replaces_the_token_and_the_old_one_is_refused(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    old = host.token_of("italy")
    new = host.kick("italy")
    assert new != old and host.token_of("italy") == new
    with pytest.raises(UnknownTokenError):
        host.state_for(old)
    assert host.powers_of(new) == ("italy",)
    assert host.token_of("france") == tokens(host)["france"]


# -- secrecy -----------------------------------------------------------------------------------------


def test_host_a_power_never_sees_another_powers_orders_before_the_reveal(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    host.seal(t["france"], "france", "S1901M")
    for p in POWERS:
        if p == "france":
            continue
        text = json.dumps(host.state_for(t[p]))
        assert "Bur" not in text.replace("bur", "")  # the unit list names bur only as a space id
        assert "Par - Bur" not in text and "france" not in host.state_for(t[p])["mine"]
    public = json.dumps(host.public_state())
    assert "Par - Bur" not in public
    assert host.public_state()["sealed"] == ["france"]
    seal_all(host)
    revealed = host.state_for(t["germany"])["results"]
    assert revealed is not None and any(i["order"] == "A Par - Bur" for i in revealed["items"])


def test_host_another_powers_token_cannot_act_for_it(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    with pytest.raises(NotYoursError):
        host.set_order_text(t["england"], "france", "S1901M", "A Par - Bur")
    with pytest.raises(NotYoursError):
        host.seal(t["england"], "france", "S1901M")
    assert host.game.orders_of("france") == [] and host.sealed == []


# -- orders ------------------------------------------------------------------------------------------


def test_host_typed_orders_get_the_order_boxs_messages(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    out = host.set_order_text(t["france"], "france", "S1901M", "a par-bur")
    assert out["message"] == "Given: A Par - Bur"
    kept = host.set_order_text(t["france"], "france", "S1901M", "A Mar - Mun")
    assert kept["kept_illegal"] and kept["message"].startswith("Kept as written, but illegal: ")
    assert kept["message"].endswith("The unit will hold.")
    with pytest.raises(RefusedError, match="not accepted: .*German"):
        host.set_order_text(t["france"], "france", "S1901M", "A Ber - Kie")
    with pytest.raises(RefusedError, match="not accepted"):
        host.set_order_text(t["france"], "france", "S1901M", "xyzzy frobnicate")
    assert sorted(str(o) for o in host.game.orders_of("france")) == ["A mar - mun", "A par - bur"]
    assert host.game.orders_of("germany") == []


def test_host_tapped_orders_must_be_one_of_the_legal_options(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    options = host.options_for(t["england"])
    assert set(options) == {"england"} and set(options["england"]) == {"edi", "lon", "lvp"}
    move = next(o["order"] for o in options["england"]["lon"] if o["text"] == "F Lon - Nth")
    assert host.set_order(t["england"], "england", "S1901M", move)["order"] == "F Lon - Nth"
    with pytest.raises(RefusedError, match="not accepted"):
        host.set_order(t["england"], "england", "S1901M",
                       {"kind": "move", "unit_kind": "F", "location": "lon", "destination": "mos"})
    with pytest.raises(HostError):
        host.set_order(t["england"], "england", "S1901M", {"kind": "move", "location": ["lon"]})
    with pytest.raises(HostError):
        host.set_order(t["england"], "england", "S1901M", {"kind": "teleport", "location": "lon"})
    assert [str(o) for o in host.game.orders_of("england")] == ["F lon - nth"]


def test_host_clear_and_stale_phase_requests(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    with pytest.raises(StaleRequestError):
        host.set_order_text(t["france"], "france", "F1901M", "A Mar - Spa")
    host.clear_order(t["france"], "france", "S1901M", "par")
    with pytest.raises(RefusedError):
        host.clear_order(t["france"], "france", "S1901M", "par")  # a replay
    assert host.game.orders_of("france") == []
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    seal_all(host)
    assert host.phase == "F1901M"
    with pytest.raises(StaleRequestError):  # a replay of the spring's order in the fall
        host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    assert host.game.orders_of("france") == []


def test_host_unordered_units_are_listed(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    mine = host.state_for(t["france"])["mine"]["france"]
    assert mine["unordered"] == ["bre", "mar"] and mine["missing"] == 2 and mine["needed"] == 3


# -- seals and PINs ----------------------------------------------------------------------------------


def test_host_sealed_orders_cannot_change_until_unsealed(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    host.seal(t["france"], "france", "S1901M")
    assert host.seal(t["france"], "france", "S1901M")["message"] == "already sealed"  # a replay
    with pytest.raises(RefusedError, match="sealed"):
        host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    host.unseal(t["france"], "france", "S1901M")
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    assert host.sealed == []


def test_host_pin_guards_seal_and_unseal_and_wrong_pins_are_rate_limited(tmp_path: Path) -> None:
    clock = FakeClock()
    game = Game.new(load_board("standard"))
    # the failure counter is saved with the game: it runs on the wall clock
    host = TableHost(game, {"pins": {"france": hash_pin("1234")}}, tmp_path / "g.dipl", clock=clock,
                     wall_clock=clock)
    t = tokens(host)
    assert host.state_for(t["france"])["mine"]["france"]["pin"] is True
    with pytest.raises(PinError, match="has a PIN"):
        host.seal(t["france"], "france", "S1901M")  # no PIN typed: not an attempt
    for _ in range(PIN_FREE_ATTEMPTS):
        with pytest.raises(PinError, match="wrong PIN"):
            host.seal(t["france"], "france", "S1901M", "0000")
    with pytest.raises(TooManyAttemptsError) as locked:
        host.seal(t["france"], "france", "S1901M", "1234")  # even the right PIN waits
    assert locked.value.retry_after > 0 and host.sealed == []
    clock.now += locked.value.retry_after + 1
    host.seal(t["france"], "france", "S1901M", "1234")
    assert host.sealed == ["france"]
    with pytest.raises(PinError):
        host.unseal(t["france"], "france", "S1901M", "9999")
    assert host.sealed == ["france"]
    clock.now += 10_000
    host.unseal(t["france"], "france", "S1901M", "1234")
    assert host.sealed == []


def test_host_join_by_pin_gives_the_powers_token_only_with_the_right_pin(tmp_path: Path) -> None:
    game = Game.new(load_board("standard"))
    host = TableHost(game, {"hotseat": {"pins": {"turkey": hash_pin("4321")}}}, None, clock=FakeClock())
    token = host.join("turkey", "4321")  # the device's own token (issue 31), covering Turkey
    assert token != host.token_of("turkey") and host.powers_of(token) == ("turkey",)
    with pytest.raises(PinError):
        host.join("turkey", "1111")
    with pytest.raises(RefusedError, match="no PIN"):
        host.join("france", "1234")


# -- the reveal, retreats and builds -----------------------------------------------------------------


def play_to_retreat(host: TableHost) -> dict[str, str]:
    t = tokens(host)
    host.set_order_text(t["germany"], "germany", "S1901M", "A Mun - Bur")
    host.set_order_text(t["germany"], "germany", "S1901M", "F Kie - Hol")
    host.set_order_text(t["france"], "france", "S1901M", "F Bre - Mao")
    seal_all(host)
    host.set_order_text(t["france"], "france", "F1901M", "A Mar - Bur")
    host.set_order_text(t["france"], "france", "F1901M", "A Par S A Mar - Bur")
    host.set_order_text(t["france"], "france", "F1901M", "F Mao - Por")
    seal_all(host)
    return t


def test_host_all_sealed_reveals_adjudicates_and_explains(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = play_to_retreat(host)
    assert host.game.state.phase.kind == RETREAT and host.owing() == ["germany"]
    results = host.public_state()["results"]
    assert results["phase"] == "F1901M"
    support = next(i for i in results["items"] if i["order"] == "A Par S A Mar - Bur")
    assert support["verdict"] == "succeeds" and "Rule" in support["explanation"]
    retreats = host.options_for(t["germany"])["germany"]
    assert set(retreats) == {"bur"}
    assert {o["text"] for o in retreats["bur"]} >= {"A Bur disband", "A Bur - Ruh"}
    with pytest.raises(RefusedError):
        host.set_order_text(t["france"], "france", "F1901R", "A Bur - Pic")
    host.set_order_text(t["germany"], "germany", "F1901R", "A Bur - Ruh")
    seal_all(host)
    assert host.game.state.phase.kind == ADJUSTMENT
    assert set(host.owing()) == {"france", "germany"}
    host.set_order_text(t["france"], "france", "W1901A", "Build F Bre")
    with pytest.raises(RefusedError, match="no more builds"):
        host.set_order_text(t["france"], "france", "W1901A", "Build A Mar")
    builds = host.options_for(t["germany"])["germany"]["build"]
    mun = next(o["order"] for o in builds if o["text"] == "Build A Mun")
    host.set_order(t["germany"], "germany", "W1901A", mun)
    seal_all(host)
    assert host.phase == "S1902M"
    units = host.game.state.units
    assert units["bre"].power == "france" and units["mun"].kind == ARMY and units["ruh"].power == "germany"


def test_host_a_retreat_phase_nobody_needs_is_skipped(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    seal_all(host)
    assert host.phase == "F1901M"  # no spring retreats: straight on
    seal_all(host)
    assert host.phase == "S1902M"  # no retreats, no builds


def test_host_force_adjudicate_reveals_without_every_seal(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    t = tokens(host)
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    host.force_adjudicate()
    assert host.phase == "F1901M" and host.game.state.units["bur"].power == "france"


# -- several powers per player ------------------------------------------------------------------------


def test_host_a_players_token_covers_all_their_powers_and_nobody_elses(tmp_path: Path) -> None:
    host = new_host(tmp_path, players={"england": "Ann", "russia": "Ann", "france": "Bob"})
    t = tokens(host)
    assert host.powers_of(t["england"]) == ("england", "russia")
    assert host.powers_of(t["russia"]) == ("england", "russia")
    assert host.powers_of(t["france"]) == ("france",)
    state = host.state_for(t["england"])
    assert set(state["mine"]) == {"england", "russia"} and state["me"]["player"] == "Ann"
    out = host.set_order_text(t["england"], "england", "S1901M", "A Mos - Ukr")  # Russia's unit, typed
    assert out["power"] == "russia" and out["message"] == "Given for Russia: A Mos - Ukr"
    host.seal(t["england"], "russia", "S1901M")
    with pytest.raises(NotYoursError):
        host.seal(t["france"], "england", "S1901M")
    host.kick("england")
    with pytest.raises(UnknownTokenError):
        host.powers_of(t["russia"])  # the player's every link is cut


# -- Formal Diplomacy --------------------------------------------------------------------------------


def test_host_declarations_are_secret_until_all_have_declared_then_applied(tmp_path: Path) -> None:
    host = new_host(tmp_path, formal=True)
    t = tokens(host)
    assert host.stage == "declarations"
    with pytest.raises(RefusedError, match="declarations come first"):
        host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    host.declare(t["france"], "france", "S1901M", {"england": "alliance", "germany": "war"})
    assert host.table["declarations"]["france"] == {"england": "alliance", "germany": "war"}
    for p in POWERS:
        if p != "france":
            assert "alliance" not in json.dumps(host.state_for(t[p])["mine"])
    assert host.public_state()["declared"] == ["france"]
    with pytest.raises(HostError):
        host.declare(t["england"], "england", "S1901M", {"france": "frenemies"})
    host.declare(t["england"], "england", "S1901M", {"france": "allied"})
    for p in POWERS:
        if p not in ("france", "england"):
            host.declare(t[p], p, "S1901M", {})
    assert host.stage == "orders"
    relations = host.game.state.relations
    assert relations is not None
    assert relations.between("england", "france") == "alliance"
    assert relations.between("france", "germany") == "war"
    assert relations.between("austria", "italy") == "neutral"
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")


# -- notes -------------------------------------------------------------------------------------------


def test_host_notes_are_off_by_default(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    with pytest.raises(RefusedError, match="does not allow"):
        host.send_note(host.token_of("france"), "france", ["england"], "hello")


def test_host_a_note_reaches_only_its_recipients(tmp_path: Path) -> None:
    host = new_host(tmp_path, notes_allowed=True)
    t = tokens(host)
    host.send_note(t["france"], "france", ["england", "germany"], "Meet me in Burgundy")
    for p in POWERS:
        texts = [n["text"] for n in host.state_for(t[p])["notes"]]
        assert texts == (["Meet me in Burgundy"] if p in ("france", "england", "germany") else [])
    assert "Burgundy" not in json.dumps(host.public_state())
    with pytest.raises(HostError):
        host.send_note(t["france"], "france", ["france"], "to myself")
    with pytest.raises(HostError):
        host.send_note(t["france"], "france", ["england"], "x" * 501)
    with pytest.raises(NotYoursError):
        host.send_note(t["france"], "germany", ["england"], "forged")
    _, table = load_game(tmp_path / "game.dipl")
    assert [n["text"] for n in table["notes"]] == ["Meet me in Burgundy"]


def test_host_listeners_hear_who_to_refresh_but_no_orders(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    heard = []
    host.add_listener(heard.append)
    t = tokens(host)
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    host.seal(t["france"], "france", "S1901M")
    assert [(c.kind, c.powers) for c in heard] == [("orders", frozenset({"france"})), ("seal", None)]


def test_host_deferred_saves_wait_for_flush_and_one_write_covers_several_changes(tmp_path: Path) -> None:
    host = new_host(tmp_path)
    host.save()
    host.deferred_saves = True
    t = tokens(host)
    path = tmp_path / "game.dipl"
    host.set_order_text(t["france"], "france", "S1901M", "A Par - Bur")
    host.set_order_text(t["england"], "england", "S1901M", "F Lon - Nth")
    assert load_game(path)[0].all_orders() == []  # not yet written
    before = path.stat().st_mtime_ns, path.stat().st_ino
    host.flush(durable=False)
    assert sorted(str(o) for o in load_game(path)[0].all_orders()) == ["A par - bur", "F lon - nth"]
    written = path.stat().st_ino
    assert written != before[1]  # replaced by a rename: atomic
    host.flush(durable=False)
    assert path.stat().st_ino == written  # nothing new: no write
    host.seal(t["france"], "france", "S1901M")
    host.flush()
    assert load_game(path)[1]["phones"]["sealed"] == ["france"]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_host_clock_counts_down_pauses_and_expires(tmp_path: Path) -> None:
    clock = FakeClock()
    host = TableHost(Game.new(load_board("standard")), {}, None, clock=clock)
    heard = []
    host.add_listener(heard.append)
    assert host.public_state()["clock"] is None
    host.set_clock("Negotiation", 600)
    clock.now += 90
    assert host.public_state()["clock"] == {"title": "Negotiation", "remaining": 510.0, "running": True,
                                            "expired": False}
    host.pause_clock(False)
    clock.now += 1000
    assert host.clock_view() == {"title": "Negotiation", "remaining": 510.0, "running": False, "expired": False}
    host.pause_clock(True)
    clock.now += 600
    assert host.clock_view() == {"title": "Negotiation", "remaining": 0.0, "running": False, "expired": True}
    host.set_clock("", None)
    assert host.clock_view() is None
    assert [c.kind for c in heard] == ["clock"] * 4 and all(c.powers is None for c in heard)
