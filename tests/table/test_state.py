"""``TableState`` reads and writes the saved table's keys unchanged: old saves open as they were."""

from __future__ import annotations

import json
from dataclasses import field
from typing import Any
import random
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import dumps, load_game
from diplomacy_desktop.table.clock import ClockModel, ClockSettings
from diplomacy_desktop.table.hotseat import HotSeatSession, hash_pin
from diplomacy_desktop.table.settings import TableSettings
from diplomacy_desktop.table.state import KNOWN_KEYS, TableState
from diplomacy_desktop.table.parts import JsonPart, SealSecretPart

SAVES = sorted((Path(__file__).resolve().parents[1] / "io" / "bad_saves").glob("*.json"))


def _tables_in_saves() -> list[tuple[str, dict[str, object]]]:
    out = []
    for path in SAVES:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(data, dict) and isinstance(data.get("table"), dict):
            out.append((path.name, data["table"]))
    return out


@pytest.mark.parametrize(("name", "table"), _tables_in_saves(), ids=lambda v: v if isinstance(v, str) else "")
def test_state_round_trips_every_test_save_table_exactly(name: str, table: dict[str, object]) -> None:
    state = TableState.from_table(table)
    back = state.to_table()
    assert back == table and list(back) == list(table), name


def test_state_the_test_saves_hold_tables_with_known_keys() -> None:
    tables = dict(_tables_in_saves())
    assert len(tables) >= 10
    good = TableState.from_table(tables["good.json"])
    assert good.players == {"france": "Anna", "turkey": "Tom"} and good.secrecy is True
    assert good.hotseat is not None and good.hotseat["stage"] == "curtain"
    assert good.pin_hash("turkey", ) is not None and good.pin_hash("france") is None
    assert good.extra == {}
    # a value of the wrong type (a damaged save) is kept as read, not typed
    bad = TableState.from_table(tables["pins_list.json"])
    assert bad.pins is None and "pins" in bad.extra


def test_state_round_trips_a_table_written_by_every_part_of_the_app(tmp_path: Path) -> None:
    game = Game.new(load_board("standard"), formal=True)
    settings = TableSettings(players={"france": "Anna", "england": "Anna"}, pins={"france": hash_pin("1234")},
                             host_pin=hash_pin("9876"), formal=True, notes=True,
                             clock=ClockSettings(wilson_rounds=3))
    table = settings.to_table()
    turn = HotSeatSession(random.Random(1))
    turn.begin_turn(game.state.phase.short, game.board.power_ids)
    table["hotseat"] = turn.to_dict()
    clock = ClockModel.for_phase(game.state.phase, settings.clock, now=lambda: 0.0, formal=True)
    table["clock_state"] = clock.to_dict()
    table["disorder"] = ["turkey"]
    table["hosting_port"] = 8642
    table["a_key_of_a_later_version"] = {"kept": [1, 2]}
    host = TableHost(game, table, tmp_path / "g.json")  # tokens, who sealed, declarations
    host.save()
    _game, saved = load_game(tmp_path / "g.json")
    state = TableState.from_table(saved)
    assert state.to_table() == saved
    assert set(saved) - set(KNOWN_KEYS) == {"a_key_of_a_later_version"}
    assert state.extra == {"a_key_of_a_later_version": {"kept": [1, 2]}}
    assert state.phones is not None and set(state.phones["tokens"]) == set(game.board.power_ids)
    assert state.marked_disorder(game.board.power_ids) == {"turkey"} and state.hosting_port == 8642
    assert state.player_of("england") == "Anna" and state.formal is True and state.notes_allowed is True
    assert state.powers_in_play(game.board.power_ids) == game.board.power_ids
    assert dumps(_game, state.to_table()) == dumps(_game, saved)  # the file text too


def test_state_an_empty_table_stays_empty() -> None:
    assert TableState.from_table(None).to_table() == {}
    assert TableState.from_table({}).to_table() == {}
    assert TableState.from_table({"hosting_port": True}).extra == {"hosting_port": True}  # a bool is no port


def test_state_the_service_owns_one_record_and_an_old_save_round_trips_through_it(tmp_path: Path) -> None:
    """Build point 5: the service, its session, the PIN guard and the phone host hold one
    ``TableState``; its typed operations change it; a save of an older (or later) version opens,
    is played, and is written back with its unknown keys, its odd values and its key order kept."""
    from diplomacy_desktop.table.changes import LAPTOP
    from diplomacy_desktop.table.service import TableService

    game = Game.new(load_board("standard"))
    old = {"a_key_of_a_later_version": {"kept": [1, 2]}, "secrecy": True, "players": {"france": "Anna"},
           "hosting_port": "not a port", "clock": {"spring_minutes": 15}}
    service = TableService(game, json.loads(json.dumps(old)))
    host = TableHost(game, service.table, service=service, session=service.session)
    assert host.table is service.table is service.session.table is service.pin_guard.table
    service.set_secrecy(False, initiator=LAPTOP)
    service.set_clock(ClockSettings(spring_minutes=20), initiator=LAPTOP)
    service.set_disorder(["turkey", "austria"], initiator=LAPTOP)
    service.keep_hosting_port(8642)
    assert host.table.secrecy is False and host.table.disorder == ["austria", "turkey"]  # board order
    saved = json.loads(dumps(game, service.table))
    table = saved["table"]
    assert list(table)[:5] == list(old)  # the keys it opened with, in their order, first
    assert table["a_key_of_a_later_version"] == {"kept": [1, 2]} and table["players"] == {"france": "Anna"}
    assert table["secrecy"] is False and table["clock"]["spring_minutes"] == 20 and table["hosting_port"] == 8642
    assert "tokens" in table["phones"]  # the host's links, in the same record
    again = TableState.from_table(table)
    assert again.to_table() == table and again.extra == {"a_key_of_a_later_version": {"kept": [1, 2]}}


def test_state_the_mapping_view_reads_and_writes_as_the_save_file_would() -> None:
    state = TableState.from_table({"players": {"france": "Anna"}, "odd": 1})
    assert state["players"] == {"france": "Anna"} and state.get("pins") is None and "odd" in state
    state["secrecy"] = False
    state["hosting_port"] = True  # not a port: kept aside as it is
    assert state.secrecy is False and state.hosting_port is None and state.extra["hosting_port"] is True
    assert state.pop("odd") == 1 and "odd" not in state
    assert state == {"players": {"france": "Anna"}, "secrecy": False, "hosting_port": True}
    snapshot = state.copy()
    state.players = {}
    state.assign(snapshot)
    assert state.players == {"france": "Anna"} and state == snapshot  # a failed write's restore


# -- the nested parts read as typed records (table/parts.py) -------------------------------------------

PHONES_OF_A_LATER_VERSION = {
    "a_later_key": {"kept": [1, 2]}, "tokens": {"france": "Tok-france-123", "turkey": "Tok-turkey-456"},
    "phase": "S1901M", "sealed": ["france"], "declared": "not a list", "device_seq": True,
    "devices": {"fra1": {"power": "france", "hash": "ab" * 32, "a_later_device_key": 3},
                "tur2": ["damaged"]},
    "kicked": {"turkey": "pbkdf2_sha256$x"}, "joins": {"france": 2, "turkey": "x"},
    "clock": {"title": "Talks", "running": False}, "declarations_revealed": "S1901M",
    "revealed_declarations": {"france": {"turkey": "ally"}},
}


def _read_back(key: str, later: dict[str, Any], kind: type[Any]) -> tuple[dict[str, Any], TableState, Any, dict[str, Any]]:
    """A table holding ``later`` (a later version's ``key`` part) read and written back: the table,
    the state, its typed part (of ``kind``) and the table written back, checked to be the same
    JSON in the same order."""
    table = {"secrecy": True, key: json.loads(json.dumps(later)), "players": {}}
    state = TableState.from_table(table)
    part = getattr(state, key)
    assert isinstance(part, kind)
    back = state.to_table()
    assert back == table and list(back[key]) == list(later)  # the same order
    return table, state, part, back


def test_state_the_phones_part_is_typed_and_round_trips_a_later_versions_keys() -> None:
    from diplomacy_desktop.table import phonebook
    from diplomacy_desktop.table.parts import PhoneDevice, PhonesPart

    table, state, phones, back = _read_back("phones", PHONES_OF_A_LATER_VERSION, PhonesPart)
    assert json.loads(json.dumps(back)) == table  # plain JSON, the part too
    assert phones.phase == "S1901M" and phones.sealed == ["france"] and phones.tokens is not None
    # a value of the wrong type is kept as read, and reads as absent
    assert phones.declared is None and phones.extra["declared"] == "not a list"
    assert phones.device_seq is None and phones.extra["device_seq"] is True  # a bool is no count
    assert phones.extra["a_later_key"] == {"kept": [1, 2]}
    assert phonebook.devices(phones, ("france", "turkey")) == {"fra1": PhoneDevice("france", "ab" * 32)}
    assert phonebook.joins(phones, "france") == 2 and phonebook.joins(phones, "turkey") == 0
    assert phonebook.cut_off_with(phones, "turkey") == "pbkdf2_sha256$x"
    # a change keeps the rest as it was
    phonebook.count_join(phones, "france")
    phonebook.keep_clock(phones, None)
    again = state.to_table()["phones"]
    assert again["joins"] == {"france": 3, "turkey": "x"} and "clock" not in again
    assert again["a_later_key"] == {"kept": [1, 2]} and again["declared"] == "not a list"
    assert again["devices"]["fra1"]["a_later_device_key"] == 3 and again["devices"]["tur2"] == ["damaged"]
    # a damaged value of a known key is replaced by a change, and written as typed
    device, _token = phonebook.add_device(phones, "turkey")
    assert device == "tur1" and state.to_table()["phones"]["device_seq"] == 1
    # an empty part reads as empty (the board's render asks), a part that is not an object is kept
    assert not PhonesPart.from_dict({}) and PhonesPart.from_dict({"x": 1})
    odd = TableState.from_table({"phones": ["not", "an", "object"]})
    assert odd.phones is None and odd.to_table() == {"phones": ["not", "an", "object"]}


def test_state_the_session_reads_the_phones_part_as_an_old_save_wrote_it() -> None:
    from diplomacy_desktop.table.changes import PHONE
    from diplomacy_desktop.table.session import TableSession

    powers = ("austria", "france", "turkey")
    state = TableState.from_table({"phones": {"phase": "S1901M", "sealed": ["turkey", "france"], "future": 1}})
    session = TableSession(state, powers)
    assert session.sealed == ["france", "turkey"]  # board order
    session.unseal("france", via=PHONE)
    session.declare("austria", via=PHONE)
    assert state.to_table() == {"phones": {"phase": "S1901M", "sealed": ["turkey"], "future": 1,
                                           "declared": ["austria"]}}
    session.begin_phase("F1901M")
    assert state.to_table()["phones"] == {"phase": "F1901M", "sealed": [], "future": 1, "declared": []}


# -- the clock, the event, ballots, board info, declarations (table/parts.py) ----------------------

#: values of every JSON type (and the odd ones a hand-edited save may hold)
_ODD_VALUES: tuple[object, ...] = (None, True, False, 0, 3, -1, 2.5, float("1e308"), "", "x", "S1901M", [], [1, "a"],
                                   {}, {"k": [1, {"n": None}]}, 15, 15.0)


def _many_dicts(known: list[str], seed: int, count: int = 300) -> list[dict[str, object]]:
    """Dicts mixing the part's known keys with unknown ones, every type of value, in any order."""
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    for _ in range(count):
        keys = rng.sample(known, rng.randint(0, len(known))) + [f"later_{i}" for i in range(rng.randint(0, 3))]
        rng.shuffle(keys)
        out.append({k: rng.choice(_ODD_VALUES) for k in keys})
    return out


CLOCK_OF_A_LATER_VERSION = {
    "a_later_key": {"kept": [1, 2]}, "spring_minutes": 20, "fall_minutes": 12.5, "wilson_rounds": 3.0,
    "writing_minutes": 5.0, "round_minutes": "five", "writing_per_power": True,
}


def test_state_the_clock_part_is_typed_and_round_trips_a_later_versions_keys() -> None:
    from diplomacy_desktop.table.changes import LAPTOP
    from diplomacy_desktop.table.parts import ClockPart
    from diplomacy_desktop.table.service import TableService

    table, state, clock, back = _read_back("clock", CLOCK_OF_A_LATER_VERSION, ClockPart)
    assert clock.spring_minutes == 20 and clock.wilson_rounds == 3.0 and clock.writing_per_power is True
    # a damaged value is kept as read and reads as absent; the settings it gives are the defaults
    assert clock.round_minutes is None and clock.extra["round_minutes"] == "five"
    assert clock.extra["a_later_key"] == {"kept": [1, 2]}
    assert state.clock_settings() == ClockSettings()
    # the settings written in keep a later version's keys and replace the damaged value
    service = TableService(Game.new(load_board("standard")), state)
    service.set_clock(ClockSettings(spring_minutes=25, wilson_rounds=2), initiator=LAPTOP)
    again = state.to_table()["clock"]
    assert again["a_later_key"] == {"kept": [1, 2]} and again["spring_minutes"] == 25 and again["round_minutes"] == 5.0
    assert state.clock_settings() == ClockSettings(spring_minutes=25, wilson_rounds=2)
    assert list(again)[:len(CLOCK_OF_A_LATER_VERSION)] == list(CLOCK_OF_A_LATER_VERSION)
    # an old save's clock (no writing_per_power: the writing window was for all the powers)
    old = TableState.from_table({"clock": {"spring_minutes": 15, "writing_minutes": 5}})
    assert old.clock_settings() == ClockSettings(spring_minutes=15, writing_minutes=5, writing_per_power=False)
    assert old.to_table() == {"clock": {"spring_minutes": 15, "writing_minutes": 5}}
    # a new game's table writes the settings as they were (every key)
    assert TableSettings(clock=ClockSettings()).to_state().to_table()["clock"] == ClockSettings().to_dict()
    odd = TableState.from_table({"clock": ["not", "an", "object"]})
    assert odd.clock is None and odd.to_table() == {"clock": ["not", "an", "object"]}
    assert odd.clock_settings() == ClockSettings()


def test_state_the_clock_part_round_trips_many_dicts() -> None:
    from diplomacy_desktop.table.parts import ClockPart

    for d in _many_dicts(list(ClockPart.KNOWN), seed=5):
        part = ClockPart.from_dict(d)
        assert part.to_dict() == d and list(part.to_dict()) == list(d)
        assert TableState.from_table({"clock": d}).to_table() == ({"clock": d})
        try:
            expected: ClockSettings | None = ClockSettings.from_dict(d)
        except (TypeError, ValueError):
            expected = None
        assert TableState.from_table({"clock": d}).clock_settings() == (expected or ClockSettings())


def test_state_the_running_clock_and_the_plans_are_typed_and_round_trip_a_later_versions_keys() -> None:
    from diplomacy_desktop.table.parts import ClockPlansPart, ClockStatePart
    from diplomacy_desktop.table.service import TableService

    game = Game.new(load_board("standard"))
    model = ClockModel.for_phase(game.state.phase, ClockSettings(wilson_rounds=2), now=lambda: 0.0)
    saved = {**model.to_dict(), "a_later_key": [1], "warned": "odd"}
    plans = {"a_later_key": {"kept": True}, "S1901M": model.plan(), "F1901M": "damaged"}
    table = {"clock_plans": json.loads(json.dumps(plans)), "clock_state": json.loads(json.dumps(saved))}
    state = TableState.from_table(table)
    assert isinstance(state.clock_state, ClockStatePart) and isinstance(state.clock_plans, ClockPlansPart)
    assert state.to_table() == table and list(state.to_table()) == ["clock_plans", "clock_state"]
    assert list(state.to_table()["clock_state"]) == list(saved)
    assert state.clock_state.phase == game.state.phase.label and state.clock_state.index == 0
    assert state.clock_state.warned is None and state.clock_state.extra["warned"] == "odd"
    assert ClockModel.from_dict(state.clock_state.to_dict(), now=lambda: 0.0).periods == model.periods
    assert state.clock_plans.plan("S1901M") == model.plan() and state.clock_plans.plan("F1901M") is None
    assert state.clock_plans.plan("S1902M") is None
    service = TableService(game, state)
    service.keep_clock_plan("F1901M", [["talks", "Fall 1901", 900.0]])
    service.keep_clock_plan("S1902M", [])
    back = state.to_table()["clock_plans"]
    assert list(back) == ["a_later_key", "S1901M", "F1901M", "S1902M"] and back["a_later_key"] == {"kept": True}
    assert back["F1901M"] == [["talks", "Fall 1901", 900.0]] and state.clock_plans.plan("S1902M") == []
    service.keep_clock(None)
    assert "clock_state" not in state.to_table()
    service.keep_clock(model.to_dict())
    assert state.to_table()["clock_state"] == model.to_dict()
    odd = TableState.from_table({"clock_state": "x", "clock_plans": [1]})
    assert odd.clock_state is None and odd.clock_plans is None
    assert odd.to_table() == {"clock_state": "x", "clock_plans": [1]}


def test_state_the_running_clock_and_the_plans_round_trip_many_dicts() -> None:
    from diplomacy_desktop.table.parts import ClockPlansPart, ClockStatePart

    for d in _many_dicts([*ClockStatePart.KNOWN, "S1901M", "F1901R"], seed=7):
        for cls in (ClockStatePart, ClockPlansPart):
            assert cls.from_dict(d).to_dict() == d and list(cls.from_dict(d).to_dict()) == list(d)
        state = TableState.from_table({"clock_state": d, "clock_plans": d})
        assert state.to_table() == {"clock_state": d, "clock_plans": d}
        assert state.clock_plans is not None
        assert state.clock_plans.plan("S1901M") == (d["S1901M"] if isinstance(d.get("S1901M"), list) else None)


def test_state_the_event_part_is_typed_and_round_trips_a_later_versions_keys() -> None:
    from diplomacy_desktop.table.event import EventRules
    from diplomacy_desktop.table.parts import EventPart
    from diplomacy_desktop.table.service import TableService

    saved = {**EventRules(end_year=1907, unanimous=False).to_dict(), "a_later_key": {"kept": 1}}
    state = TableState.from_table({"event": json.loads(json.dumps(saved))})
    event = state.event
    assert isinstance(event, EventPart) and state.to_table() == {"event": saved}
    assert list(state.to_table()["event"]) == list(saved)
    assert event.end_year == 1907 and event.unanimous is False and event.earliest_draw_year is None
    assert event.extra == {"earliest_draw_year": None, "a_later_key": {"kept": 1}}  # null: kept as null
    assert state.event_rules() == EventRules(end_year=1907, unanimous=False)
    # new rules keep a later version's keys
    service = TableService(Game.new(load_board("standard")), state)
    service.set_event(EventRules(scoring="draw_size", end_year=None))
    again = state.to_table()["event"]
    assert again == {**EventRules(scoring="draw_size").to_dict(), "a_later_key": {"kept": 1}}
    assert state.event_rules() == EventRules(scoring="draw_size")
    # a new table's rules are written as EventRules writes them
    fresh = TableState()
    TableService(Game.new(load_board("standard")), fresh).set_event(EventRules())
    assert fresh.to_table() == {"event": EventRules().to_dict()}
    assert list(fresh.to_table()["event"]) == list(EventRules().to_dict())
    # a damaged value: kept as read, and the rules read as the defaults
    damaged = TableState.from_table({"event": {"scoring": "no such system", "unanimous": "yes"}})
    assert damaged.event is not None and damaged.event.scoring == "no such system"
    assert damaged.event.unanimous is None and damaged.event.extra == {"unanimous": "yes"}
    assert damaged.event_rules() == EventRules()
    assert damaged.to_table() == {"event": {"scoring": "no such system", "unanimous": "yes"}}
    odd = TableState.from_table({"event": "x"})
    assert odd.event is None and odd.to_table() == {"event": "x"} and odd.event_rules() == EventRules()


def test_state_the_event_part_round_trips_many_dicts() -> None:
    from diplomacy_desktop.table.event import EventRules
    from diplomacy_desktop.table.parts import EventPart

    for d in _many_dicts(list(EventPart.KNOWN), seed=11):
        assert EventPart.from_dict(d).to_dict() == d and list(EventPart.from_dict(d).to_dict()) == list(d)
        state = TableState.from_table({"event": d})
        assert state.to_table() == {"event": d}
        try:
            expected: EventRules | None = EventRules.from_dict(d)
        except (TypeError, ValueError):
            expected = None
        assert state.event_rules() == (expected or EventRules())


def test_state_an_event_whose_time_limit_is_not_text_reads_as_the_default_rules() -> None:
    from diplomacy_desktop.table.event import EventRules

    for odd in (5, {"h": 1}, [1], True):  # (was: AttributeError out of event_rules)
        state = TableState.from_table({"event": {"end_time": odd, "end_year": 1905}})
        assert state.event_rules() == EventRules()
        assert state.to_table() == {"event": {"end_time": odd, "end_year": 1905}}


def test_state_the_board_info_part_is_typed_and_round_trips_a_later_versions_keys() -> None:
    from diplomacy_desktop.table.parts import BoardInfoPart
    from diplomacy_desktop.table.service import TableService

    saved = {"round": "2", "a_later_key": ["kept"], "event": "Spring Open", "board": 5}
    state = TableState.from_table({"board_info": json.loads(json.dumps(saved))})
    info = state.board_info
    assert isinstance(info, BoardInfoPart) and state.to_table() == {"board_info": saved}
    assert list(state.to_table()["board_info"]) == list(saved)
    assert info.event == "Spring Open" and info.round == "2"
    assert info.board is None and info.extra == {"a_later_key": ["kept"], "board": 5}  # not text: kept as read
    service = TableService(Game.new(load_board("standard")), state)
    service.set_board_info({"event": "Open", "round": "3", "board": "7"})
    assert state.to_table()["board_info"] == {"round": "3", "a_later_key": ["kept"], "event": "Open", "board": "7"}
    # a board call's names replace the part, as text
    service.set_board_call({"france": "P1"}, {"event": "Cup", "round": 4})
    assert state.to_table()["board_info"] == {"event": "Cup", "round": "4"}
    service.set_players({"france": "Anna"}, board_info={"board": "9"})
    assert state.to_table()["board_info"] == {"board": "9"} and state.board_info == BoardInfoPart(board="9")
    odd = TableState.from_table({"board_info": "x"})
    assert odd.board_info is None and odd.to_table() == {"board_info": "x"}


def test_state_the_board_info_part_round_trips_many_dicts() -> None:
    from diplomacy_desktop.table.parts import BoardInfoPart

    for d in _many_dicts(list(BoardInfoPart.KNOWN), seed=13):
        assert BoardInfoPart.from_dict(d).to_dict() == d and list(BoardInfoPart.from_dict(d).to_dict()) == list(d)
        assert TableState.from_table({"board_info": d}).to_table() == {"board_info": d}


def test_state_the_ballots_are_typed_records_and_round_trip_a_later_versions_keys() -> None:
    from diplomacy_desktop.table.parts import BallotPart
    from diplomacy_desktop.table.results import BallotRecord
    from diplomacy_desktop.table.service import TableService

    ballots = [
        {"phase": "F1903M", "proposer": "france", "proposal": "draw", "powers": ["france", "turkey"],
         "passed": False, "vetoes": 2, "a_later_key": {"kept": 1}},
        "not an object", {"phase": "S1904M", "proposer": "turkey"},  # damaged: kept, no record
        {"vetoes": "2", "passed": True, "powers": ["turkey"], "proposal": "concession", "proposer": "turkey",
         "phase": "F1904M"},
    ]
    state = TableState.from_table({"ballots": json.loads(json.dumps(ballots))})
    assert state.ballots is not None and isinstance(state.ballots[0], BallotPart)
    assert state.ballots[1] == "not an object" and state.ballots[0].vetoes == 2
    assert state.to_table() == {"ballots": ballots}
    assert [list(b) for b in state.to_table()["ballots"] if isinstance(b, dict)] == \
        [list(b) for b in ballots if isinstance(b, dict)]
    first = BallotRecord("F1903M", "france", "draw", ("france", "turkey"), False, 2)
    last = BallotRecord("F1904M", "turkey", "concession", ("turkey",), True, None)  # text is no count
    assert state.ballot_records() == [first, last]
    service = TableService(Game.new(load_board("standard")), state)
    service.set_ballots([*state.ballot_records(), BallotRecord("S1905M", "austria", "draw", ("austria",), True)])
    assert state.to_table()["ballots"][-1] == BallotRecord("S1905M", "austria", "draw", ("austria",), True).as_dict()
    assert len(state.ballot_records()) == 3
    odd = TableState.from_table({"ballots": {"not": "a list"}})
    assert odd.ballots is None and odd.to_table() == {"ballots": {"not": "a list"}} and odd.ballot_records() == []


def test_state_the_ballots_round_trip_many_lists() -> None:
    from diplomacy_desktop.table.parts import BallotPart

    rng = random.Random(17)
    dicts = _many_dicts(list(BallotPart.KNOWN), seed=17)
    for d in dicts:
        assert BallotPart.from_dict(d).to_dict() == d and list(BallotPart.from_dict(d).to_dict()) == list(d)
    for _ in range(100):
        ballots = [rng.choice([*dicts[:50], "x", 3, None, []]) for _ in range(rng.randint(0, 5))]
        assert TableState.from_table({"ballots": ballots}).to_table() == {"ballots": ballots}


def test_state_the_notes_are_typed_records_and_round_trip_a_later_versions_keys() -> None:
    from diplomacy_desktop.table.changes import LAPTOP
    from diplomacy_desktop.table.notes import notes_for, with_note
    from diplomacy_desktop.table.parts import NotePart, NotesPart
    from diplomacy_desktop.table.service import TableService

    notes = [
        {"text": "hi", "to": ["france"], "from": "italy", "id": 1, "phase": "S1901M", "a_later_key": {"kept": 1}},
        "not an object",
        {"id": "2", "from": 5, "to": "england", "text": ["odd"]},  # odd values: kept, read as absent
    ]
    state = TableState.from_table({"notes_allowed": True, "notes": json.loads(json.dumps(notes))})
    assert isinstance(state.notes, NotesPart) and isinstance(state.notes[0], NotePart)
    assert state.notes[1] == "not an object" and [n.sender for n in state.notes.entries()] == ["italy", None]
    assert state.notes.entries()[1].id is None and state.notes.entries()[1].recipients() == []
    assert state.to_table() == {"notes_allowed": True, "notes": notes}
    assert [list(n) for n in state.to_table()["notes"] if isinstance(n, dict)] == \
        [list(n) for n in notes if isinstance(n, dict)]
    assert [n.text for n in notes_for(state, ["france"])] == ["hi"] and notes_for(state, ["england"]) == []
    added = with_note(state, "S1901M", "england", ["germany"], "x", ("england", "germany"))
    assert added[-1] == {"id": 4, "phase": "S1901M", "from": "england", "to": ["germany"], "text": "x"}
    assert state.to_table()["notes"] == notes  # with_note makes a new list
    service = TableService(Game.new(load_board("standard")), state)
    note, _change = service.send_note("france", ["germany", "england"], " hello ", initiator=LAPTOP)
    assert note.sender == "france" and note.recipients() == ["england", "germany"]
    assert state.to_table()["notes"] == [*notes, {"id": 4, "phase": service.phase, "from": "france",
                                                  "to": ["england", "germany"], "text": "hello"}]
    odd = TableState.from_table({"notes": {"not": "a list"}})
    assert odd.notes is None and odd.to_table() == {"notes": {"not": "a list"}} and notes_for(odd, ["italy"]) == []


def test_state_the_late_orders_are_typed_records_and_round_trip_a_later_versions_keys() -> None:
    from diplomacy_desktop.table.event import LATE_VOID
    from diplomacy_desktop.table.parts import LateOrderPart, LateOrdersPart
    from diplomacy_desktop.table.service import TableService

    game = Game.new(load_board("standard"))
    phase = game.state.phase.short
    late = [
        {"verdict": "warning", "power": "austria", "phase": phase, "a_later_key": [1]},
        "not an object",
        {"phase": phase, "power": "france", "verdict": 5},  # an odd verdict: kept, read as absent
        {"phase": phase, "power": "italy", "verdict": LATE_VOID},
    ]
    state = TableState.from_table({"late_orders": json.loads(json.dumps(late))})
    assert isinstance(state.late_orders, LateOrdersPart) and isinstance(state.late_orders[0], LateOrderPart)
    assert state.late_orders[1] == "not an object"
    assert [(e.power, e.verdict) for e in state.late_orders.entries()] == \
        [("austria", "warning"), ("france", None), ("italy", LATE_VOID)]
    assert state.to_table() == {"late_orders": late}
    assert [list(e) for e in state.to_table()["late_orders"] if isinstance(e, dict)] == \
        [list(e) for e in late if isinstance(e, dict)]
    service = TableService(game, state)
    assert service.voided("italy") and not service.voided("france") and not service.voided("austria")
    service.record_late(["germany"], LATE_VOID)
    assert service.voided("germany")
    # the verdict goes last; an item that is no object is left out, as record_late always did
    assert state.to_table()["late_orders"] == [
        late[0], late[2], late[3], {"phase": phase, "power": "germany", "verdict": LATE_VOID}]
    odd = TableState.from_table({"late_orders": "not a list"})
    assert odd.late_orders is None and odd.to_table() == {"late_orders": "not a list"}


def test_state_the_notes_and_the_late_orders_round_trip_many_lists() -> None:
    from diplomacy_desktop.table.parts import LateOrderPart, NotePart

    rng = random.Random(19)
    for name, cls, seed in (("notes", NotePart, 19), ("late_orders", LateOrderPart, 23)):
        dicts = _many_dicts(list(cls.KNOWN), seed=seed)
        for d in dicts:
            back = cls.from_dict(d).to_dict()
            assert back == d and list(back) == list(d), (cls, d)
        for _ in range(100):
            items = [rng.choice([*dicts[:50], "x", 3, None, []]) for _ in range(rng.randint(0, 5))]
            table = {"y": 1, name: json.loads(json.dumps(items))}
            assert TableState.from_table(table).to_table() == {"y": 1, name: items}


# -- the laptop's turn, PINs, seals, notes, seating ------------------------------------------------------

SEAT_PART_VALUES: list[Any] = [
    "S1901M", "", 0, 7, 1.5, True, None, [], ["x", 1], {}, {"a": {"b": [1]}}, "ab" * 32,
]


def _many_seat_dicts(keys: tuple[str, ...], seed: int, count: int = 300) -> list[dict[str, Any]]:
    """Dicts of the part's keys and a later version's, in every order, with values of any JSON type."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        names = [k for k in (*keys, "a_later_key", "zz") if rng.random() < 0.6]
        rng.shuffle(names)
        out.append({k: rng.choice(SEAT_PART_VALUES) for k in names})
    return out


def test_state_the_seal_secret_and_revealed_codes_parts_round_trip_many_dicts() -> None:
    from diplomacy_desktop.table.parts import RevealedSealCodesPart, SealSecretPart

    parts: list[tuple[str, type[SealSecretPart | RevealedSealCodesPart]]] = [
        ("seal_secrets", SealSecretPart), ("revealed_seal_codes", RevealedSealCodesPart)]
    for seed, (name, cls) in enumerate(parts):
        for d in _many_seat_dicts(tuple(cls.KNOWN), seed):
            copy = json.loads(json.dumps(d))
            part = cls.from_dict(copy)
            back = part.to_dict()
            assert back == d and list(back) == list(d), (cls, d)
            state = TableState.from_table({"x": 1, name: copy})
            assert state.to_table() == {"x": 1, name: d} and list(state.to_table()[name]) == list(d)


def test_state_the_seal_parts_are_typed_and_a_damaged_value_reads_as_absent() -> None:
    from diplomacy_desktop.table import sealcodes
    from diplomacy_desktop.table.parts import RevealedSealCodesPart, SealSecretPart

    table = {"seal_secrets": {"phase": "S1901M", "secret": 5, "later": 1},
             "revealed_seal_codes": {"codes": {"france": "a b c"}, "phase": "W1900A", "later": [2]}}
    state = TableState.from_table(json.loads(json.dumps(table)))
    assert isinstance(state.seal_secrets, SealSecretPart) and isinstance(state.revealed_seal_codes, RevealedSealCodesPart)
    assert state.seal_secrets.phase == "S1901M" and state.seal_secrets.secret is None  # damaged: kept aside
    assert state.to_table() == table
    assert sealcodes.revealed_codes(state) == ("W1900A", {"france": "a b c"})
    verdict = sealcodes.revealed_verdict(state, "W1900A", lambda p: [])
    assert verdict is not None and not verdict.checked  # an earlier version's reveal: no secret
    # a damaged secret is replaced by a new one (the phase's codes start again)
    secret = sealcodes.phase_secret(state, "S1901M")
    assert len(secret) > 8 and state.to_table()["seal_secrets"] == {"phase": "S1901M", "secret": secret}
    code = sealcodes.record_seal(state, "france", "S1901M", ["A PAR H"])
    assert sealcodes.code_of(state, "france", "S1901M") == code
    verdict = sealcodes.reveal_codes(state, "S1901M", lambda p: ["A PAR H"])
    assert verdict.codes == {"france": code} and not verdict.mismatched
    out = state.to_table()
    assert "seal_secrets" not in out and "seal_codes" not in out
    assert out["revealed_seal_codes"] == {"phase": "S1901M", "secret": secret, "codes": {"france": code}}
    assert out["seal_log"] == [out["revealed_seal_codes"]]
    # a part that is not an object is kept as it was, and reads as absent
    odd = TableState.from_table({"revealed_seal_codes": "damaged"})
    assert odd.revealed_seal_codes is None and sealcodes.revealed_codes(odd) == ("", {})
    assert odd.to_table() == {"revealed_seal_codes": "damaged"}


def test_state_the_seal_codes_part_round_trips_many_dicts_and_keeps_a_damaged_code() -> None:
    from diplomacy_desktop.table import sealcodes
    from diplomacy_desktop.table.parts import SealCodesPart

    for d in _many_seat_dicts(("france", "turkey", "austria"), 3):
        back = TableState.from_table({"seal_codes": json.loads(json.dumps(d))}).to_table()
        assert back == {"seal_codes": d} and list(back["seal_codes"]) == list(d)
    state = TableState.from_table({"seal_secrets": {"phase": "S1901M", "secret": "ab" * 16},
                                   "seal_codes": {"turkey": 5, "france": "a b c", "later": [1]}})
    codes = state.seal_codes
    assert isinstance(codes, SealCodesPart) and codes.of("france") == "a b c" and codes.of("turkey") is None
    assert codes.entries() == {"france": "a b c"}
    assert sealcodes.code_of(state, "turkey", "S1901M") is None  # damaged: no code
    sealcodes.forget_seal(state, "france")
    sealcodes.record_seal(state, "austria", "S1901M", ["A VIE H"])
    assert list(state.to_table()["seal_codes"]) == ["turkey", "later", "austria"]  # as a dict's order
    sealcodes.record_seal(state, "france", "S1901M", ["A PAR H"])
    assert list(state.to_table()["seal_codes"]) == ["turkey", "later", "austria", "france"]
    assert state.to_table()["seal_codes"]["turkey"] == 5  # kept as read
    assert not SealCodesPart() and TableState.from_table({"seal_codes": []}).to_table() == {"seal_codes": []}


def test_state_the_pin_failures_part_round_trips_many_dicts_and_a_damaged_record() -> None:
    from diplomacy_desktop.table.parts import PinFailure, PinFailuresPart
    from diplomacy_desktop.table.pins import PinGuard

    for d in _many_seat_dicts(("france", "turkey", "host"), 4):
        back = TableState.from_table({"pin_failures": json.loads(json.dumps(d))}).to_table()
        assert back == {"pin_failures": d} and list(back["pin_failures"]) == list(d)
    for d in _many_seat_dicts(tuple(PinFailure.KNOWN), 5):
        assert PinFailure.from_dict(d).to_dict() == d and list(PinFailure.from_dict(d).to_dict()) == list(d)
    table = {"pin_failures": {"france": {"count": 2, "until": 105.5, "later": "x"}, "turkey": "damaged",
                              "austria": {"count": "2", "until": None}}}
    state = TableState.from_table(json.loads(json.dumps(table)))
    assert isinstance(state.pin_failures, PinFailuresPart)
    guard = PinGuard(state, clock=lambda: 100.0)
    assert guard.failures("france") == 2 and guard.wait("france") == 5.5
    assert guard.failures("turkey") == 0 and guard.failures("austria") == 0 and guard.wait("austria") == 0.0
    assert state.to_table() == table
    guard.failed("austria")  # a damaged record is replaced by a counted one
    assert state.to_table()["pin_failures"]["austria"] == {"count": 1, "until": 0}
    guard.succeeded("france")
    guard.failed("france")
    assert list(state.to_table()["pin_failures"]) == ["turkey", "austria", "france"]  # as a dict's order
    assert state.to_table()["pin_failures"]["turkey"] == "damaged"


def test_state_the_computer_seats_part_round_trips_many_dicts_and_a_damaged_level() -> None:
    from diplomacy_desktop.table.computer import computer_seats
    from diplomacy_desktop.table.parts import ComputerSeatsPart
    from diplomacy_desktop.table.settings import TableSettings as Settings

    for d in _many_seat_dicts(("france", "turkey", "austria"), 6):
        back = TableState.from_table({"computer_seats": json.loads(json.dumps(d))}).to_table()
        assert back == {"computer_seats": d} and list(back["computer_seats"]) == list(d)
    table = {"computer_seats": {"turkey": "club", "france": 3, "austria": "grandmaster", "italy": "strong"}}
    state = TableState.from_table(json.loads(json.dumps(table)))
    assert isinstance(state.computer_seats, ComputerSeatsPart)
    assert computer_seats(state) == {"turkey": "club", "italy": "strong"}  # damaged and unknown levels: none
    assert computer_seats(state, ("turkey", "france")) == {"turkey": "club"}
    assert state.to_table() == table
    part = state.computer_seats_part()
    part.drop("turkey")
    part.put("england", "beginner")
    part.put("france", "club")  # a damaged level replaced in place
    assert list(state.to_table()["computer_seats"]) == ["france", "austria", "italy", "england"]
    assert state.to_table()["computer_seats"]["austria"] == "grandmaster"
    assert Settings.from_table(state).computer == {"france": "club", "italy": "strong", "england": "beginner"}


def test_state_the_seal_log_is_a_typed_list_that_round_trips_and_keeps_a_damaged_entry() -> None:
    from diplomacy_desktop.table import sealcodes
    from diplomacy_desktop.table.parts import SealLogPart

    rng = random.Random(7)
    for _ in range(200):
        log = [rng.choice([*SEAT_PART_VALUES, *_many_seat_dicts(("phase", "secret", "codes"), rng.randrange(99), 1)])
               for _ in range(rng.randrange(5))]
        back = TableState.from_table({"seal_log": json.loads(json.dumps(log)), "z": 1}).to_table()
        assert back == {"seal_log": log, "z": 1}
    old = {"phase": "S1901M", "secret": "ab" * 16, "codes": {"france": "a b c"}, "later": 1}
    state = TableState.from_table(json.loads(json.dumps({"seal_log": ["damaged", old]})))
    assert isinstance(state.seal_log, SealLogPart)
    entries = state.seal_log.entries()
    assert entries[0] is None and entries[1] is not None and entries[1].codes == {"france": "a b c"}
    with pytest.raises(sealcodes.SealLogError, match=r"seal_log\[0\]"):
        sealcodes.logged_verdicts(state, [])
    sealcodes.record_seal(state, "turkey", "S1901M", ["A CON H"])
    sealcodes.reveal_codes(state, "S1901M", lambda p: ["A CON H"])  # the phase's entry is replaced
    log = state.to_table()["seal_log"]
    assert log[0] == "damaged" and len(log) == 2 and log[1]["phase"] == "S1901M" and "later" not in log[1]
    assert TableState.from_table({"seal_log": {"not": "a list"}}).seal_log is None
    with pytest.raises(sealcodes.SealLogError, match="not a list"):
        sealcodes.logged_verdicts(TableState.from_table({"seal_log": {"not": "a list"}}), [])


def test_state_the_seating_part_round_trips_many_dicts_and_the_settings_keep_it() -> None:
    from diplomacy_desktop.table.parts import SeatingPart

    for d in _many_seat_dicts(tuple(SeatingPart.KNOWN), 8):
        back = TableState.from_table({"seating": json.loads(json.dumps(d))}).to_table()
        assert back == {"seating": d} and list(back["seating"]) == list(d)
    table = {"seating": {"record": ["Seed 7."], "method": "priority", "secret": "yes", "seed": 7, "later": {}}}
    state = TableState.from_table(json.loads(json.dumps(table)))
    assert isinstance(state.seating, SeatingPart) and state.seating.secret is None  # damaged: kept aside
    assert state.seating.record == ["Seed 7."] and state.seating.seed == 7
    settings = TableSettings.from_table(state)
    assert settings.seating == table["seating"] and settings.seating is not state.seating
    assert settings.to_state().to_table()["seating"] == table["seating"]
    assert TableSettings(seating={"method": "priority"}).to_table()["seating"] == {"method": "priority"}
    assert "seating" not in TableSettings().to_table()


def _part_classes(cls: type[JsonPart]) -> list[type[JsonPart]]:
    return [cls, *(c for sub in cls.__subclasses__() for c in _part_classes(sub))]


def test_state_every_part_declares_its_known_keys_and_jsonpart_extra_and_key_order() -> None:
    # a part's attributes come from KNOWN (parts._PartKind makes its slots of them); the class body
    # declares the same names, typed, for the type checker and the reader: the two must agree.
    # ``extra`` and ``key_order`` are declared once, by JsonPart, for every part
    classes = _part_classes(JsonPart)
    assert len(classes) >= 15
    annotated = {cls: [n for n, a in vars(cls).get("__annotations__", {}).items()
                       if not str(a).startswith("ClassVar")] for cls in classes}
    assert annotated[JsonPart] == ["extra", "key_order"]
    for cls in classes[1:]:
        assert annotated[cls] in ([], [cls.ATTRS.get(k, k) for k in cls.KNOWN]), cls
        part = cls()
        assert part.extra == {} and part.key_order == (), cls
        assert part.to_dict() == {} and not part and all(getattr(part, cls.ATTRS.get(k, k)) is None for k in cls.KNOWN), cls
        with pytest.raises(AttributeError):
            part.not_a_key = 1  # type: ignore[attr-defined]


def test_state_a_part_is_made_with_its_keys_and_read_back() -> None:
    secret = SealSecretPart(phase="S1901M", secret="s")
    assert secret.to_dict() == {"phase": "S1901M", "secret": "s"} and secret.extra == {} and secret.key_order == ()
    assert repr(secret) == "SealSecretPart({'phase': 'S1901M', 'secret': 's'})"
    with pytest.raises(AttributeError):
        SealSecretPart(not_a_key=1)  # type: ignore[call-arg]
    assert SealSecretPart(phase="S1901M") != secret and SealSecretPart(phase="S1901M", secret="s") == secret
# -- the laptop's hot-seat turn (table/parts.py HotSeatPart) ----------------------------------------

TURN_OF_A_LATER_VERSION = {
    "phase": "S1901M", "order": ["france", "turkey", "england"], "a_later_key": {"kept": [1]}, "sealed": ["turkey"],
    "stage": "curtain", "pins": {"turkey": "scrypt$turkey"}, "notices": ["France was reopened."],
    "phone_sealed": ["turkey"], "part_declared": "odd",
}


def test_state_the_hot_seat_part_is_typed_and_round_trips_a_later_versions_keys() -> None:
    from diplomacy_desktop.table.changes import LAPTOP
    from diplomacy_desktop.table.parts import HotSeatPart
    from diplomacy_desktop.table.service import TableService

    table, state, turn, back = _read_back("hotseat", TURN_OF_A_LATER_VERSION, HotSeatPart)
    assert turn.phase == "S1901M" and turn.order == ["france", "turkey", "england"] and turn.sealed == ["turkey"]
    assert turn.stage == "curtain" and turn.pins == {"turkey": "scrypt$turkey"} and turn.round is None
    assert turn.notices == ["France was reopened."] and turn.phone_sealed == ["turkey"]
    # a damaged value is kept as read and reads as absent; a later version's key is kept
    assert turn.part_declared is None and turn.extra == {"a_later_key": {"kept": [1]}, "part_declared": "odd"}
    assert state.copy() == table and state.copy().hotseat is not turn
    # the window's turn reads it as it read the saved object
    session = HotSeatSession.from_part(turn, rng=random.Random(1))
    assert session.to_dict() == HotSeatSession.from_dict(TURN_OF_A_LATER_VERSION).to_dict()
    assert session.order == ("france", "turkey", "england") and session.sealed == {"turkey"}
    assert session.phone_sealed == {"turkey"} and session.notices == ["France was reopened."]
    assert session.to_part() == session.to_dict() and isinstance(session.to_part(), HotSeatPart)
    # an older save's PIN, kept in its turn
    assert state.pin_hash("turkey") == "scrypt$turkey" and state.pin_hash("france") is None
    # the service keeps the window's turn (replaced whole, as the session has it) when it moved
    service = TableService(Game.new(load_board("standard")), state)
    service.seat_turn(session)
    assert service.keep_turn(initiator=LAPTOP) is not None  # the later key and the odd value: not the turn
    assert state.hotseat == session.to_dict() and isinstance(state.hotseat, HotSeatPart)
    assert service.keep_turn(initiator=LAPTOP) is None  # the table held it already
    session.notices.append("Turkey was reopened.")
    assert service.keep_turn(initiator=LAPTOP) is not None
    assert state.to_table()["hotseat"]["notices"] == ["France was reopened.", "Turkey was reopened."]
    # a renewed PIN goes into the turn's pins where the power is there, else into the table's
    service.set_pin_hash(["turkey"], "scrypt$new", initiator=LAPTOP)
    assert state.to_table()["hotseat"]["pins"] == {"turkey": "scrypt$new"} and state.pins is None
    service.set_pin_hash(["france"], "scrypt$france", initiator=LAPTOP)
    assert state.pins == {"france": "scrypt$france"} and state.to_table()["hotseat"]["pins"] == {"turkey": "scrypt$new"}
    state.pins["turkey"] = "scrypt$table"  # in both: both renewed
    service.set_pin_hash(["turkey"], "scrypt$both", initiator=LAPTOP)
    assert state.pins["turkey"] == "scrypt$both" and state.to_table()["hotseat"]["pins"] == {"turkey": "scrypt$both"}
    # a turn that is no object stays as read
    odd = TableState.from_table({"hotseat": ["not", "an", "object"]})
    assert odd.hotseat is None and odd.to_table() == {"hotseat": ["not", "an", "object"]}


def test_state_serve_takes_the_saved_turns_seals_and_keeps_its_other_keys() -> None:
    """``TableSession.adopt`` (no hot-seat turn: ``serve``) moves the saved turn's seals of the
    phase's orders round to the phones and empties them in the turn; its other keys stay."""
    from diplomacy_desktop.table.session import TableSession

    powers = load_board("standard").power_ids
    saved = {"phase": "S1901M", "later": 1, "sealed": ["turkey", "france"], "order": ["france", "turkey"],
             "stage": "curtain"}
    state = TableState.from_table({"hotseat": json.loads(json.dumps(saved))})
    assert TableSession(state, powers).adopt("S1901M")
    back = state.to_table()["hotseat"]
    assert list(back) == ["phase", "later", "sealed", "order", "stage", "phone_sealed", "part_declared"]
    assert back["sealed"] == back["phone_sealed"] == back["part_declared"] == [] and back["later"] == 1
    assert state.phones is not None and state.phones.sealed == ["france", "turkey"]
    for other in ({**saved, "round": "declarations"}, {**saved, "phase": "F1901M"}):
        kept = TableState.from_table({"hotseat": json.loads(json.dumps(other))})
        assert not TableSession(kept, powers).adopt("S1901M") and kept.to_table() == {"hotseat": other}


def test_state_the_hot_seat_part_round_trips_many_dicts() -> None:
    from diplomacy_desktop.table.parts import HotSeatPart

    for d in _many_dicts(list(HotSeatPart.KNOWN), seed=19):
        part = HotSeatPart.from_dict(d)
        assert part.to_dict() == d and list(part.to_dict()) == list(d)
        back = TableState.from_table({"z": 1, "hotseat": d}).to_table()
        assert back == {"z": 1, "hotseat": d} and list(back["hotseat"]) == list(d)
        # the window's turn reads the part as it read the saved object (or fails alike), except
        # that a PIN hash that is not text (or pins that are no object) read as absent
        pins = d.get("pins")
        read = {**d, "pins": {k: v for k, v in pins.items() if isinstance(v, str)} if isinstance(pins, dict) else {}} \
            if "pins" in d else d
        try:
            expected: object = HotSeatSession.from_dict(read).to_dict()
        except (TypeError, ValueError, AttributeError) as exc:
            expected = type(exc)
        try:
            got: object = HotSeatSession.from_part(part).to_dict()
        except (TypeError, ValueError, AttributeError) as exc:
            got = type(exc)
        assert got == expected, d
# -- who plays which power, their PINs and ids, the pending declarations ----------------------------------


@pytest.mark.parametrize(("name", "seed"), [("players", 21), ("pins", 22), ("player_ids", 23)])
def test_state_the_players_pins_and_ids_parts_round_trip_many_dicts(name: str, seed: int) -> None:
    from diplomacy_desktop.table.parts import PinsPart, PlayerIdsPart, PlayersPart, TextMap

    kind: type[TextMap] = {"players": PlayersPart, "pins": PinsPart, "player_ids": PlayerIdsPart}[name]
    for d in _many_seat_dicts(("france", "turkey", "austria"), seed):
        copy = json.loads(json.dumps(d))
        state = TableState.from_table({"x": 1, name: copy})
        assert isinstance(getattr(state, name), kind)
        back = state.to_table()
        assert back == {"x": 1, name: d} and list(back[name]) == list(d)
        part = kind.from_dict(copy)
        assert part.to_dict() == d and list(part.to_dict()) == list(d)
        assert part.entries() == {k: v for k, v in d.items() if isinstance(v, str)}  # text only, in order
        assert all(part.of(k) == (v if isinstance(v, str) else None) for k, v in d.items())


def test_state_the_players_pins_and_ids_parts_are_typed_and_a_damaged_entry_reads_as_absent() -> None:
    from diplomacy_desktop.table.parts import PinsPart, PlayerIdsPart, PlayersPart

    pin = hash_pin("1234")
    table = {"players": {"france": "Anna", "england": 3, "a_later_key": ["x"], "turkey": ""},
             "pins": {"england": 7, "france": pin},
             "player_ids": {"france": "A-1", "england": {"id": 2}},
             "hotseat": {"pins": {"england": pin}}}
    state = TableState.from_table(json.loads(json.dumps(table)))
    assert isinstance(state.players, PlayersPart) and isinstance(state.pins, PinsPart)
    assert isinstance(state.player_ids, PlayerIdsPart)
    assert state.to_table() == table
    # a name, PIN or id that is not text used to read as its str(...): now it is absent
    assert state.player_of("france") == "Anna" and state.player_of("england") is None
    assert state.player_of("turkey") is None  # an empty name: no player, as before
    assert state.pin_hash("france") == pin
    assert state.pin_hash("england") == pin  # the table's damaged PIN: the turn's is read, as for a missing one
    assert state.player_ids.entries() == {"france": "A-1"}
    settings = TableSettings.from_table(state)
    assert dict(settings.players) == {"france": "Anna", "turkey": ""} and dict(settings.pins) == {"france": pin}
    # a new game's table writes them as typed parts, the names given only
    made = settings.to_state()
    assert isinstance(made.players, PlayersPart) and made.to_table()["players"] == {"france": "Anna"}
    assert isinstance(made.pins, PinsPart) and made.to_table()["pins"] == {"france": pin}
    assert TableSettings().to_table()["players"] == {} and TableSettings().to_table()["pins"] == {}


def test_state_the_service_writes_the_players_pins_and_ids_as_typed_parts() -> None:
    from diplomacy_desktop.table.changes import LAPTOP
    from diplomacy_desktop.table.parts import PinsPart, PlayerIdsPart, PlayersPart
    from diplomacy_desktop.table.service import TableService

    game = Game.new(load_board("standard"))
    pin = hash_pin("1234")
    service = TableService(game, {"players": {"england": 3, "france": "Anna"}, "pins": {"turkey": 5, "later": "x"}})
    service.set_pin_hash(["turkey"], pin, initiator=LAPTOP)  # a damaged PIN is replaced in place
    pins = service.table.pins
    assert isinstance(pins, PinsPart) and service.table.to_table()["pins"] == {"turkey": pin, "later": "x"}
    service.set_pin_hash(["austria"], pin, initiator=LAPTOP)
    assert list(service.table.to_table()["pins"]) == ["turkey", "later", "austria"]
    service.set_players({"france": "Anna", "italy": "Bo"}, player_ids={"france": "A-1"}, initiator=LAPTOP)
    assert isinstance(service.table.players, PlayersPart) and isinstance(service.table.player_ids, PlayerIdsPart)
    assert service.table.to_table()["players"] == {"france": "Anna", "italy": "Bo"}
    assert service.table.to_table()["player_ids"] == {"france": "A-1"}
    service.set_pins({"germany": pin}, initiator=LAPTOP)
    assert service.table.to_table()["pins"] == {"germany": pin} and service.table.pin_hash("germany") == pin


def test_state_serve_adds_its_player_names_to_the_typed_players_part(tmp_path: Path) -> None:
    from diplomacy_desktop.host.table import _new_table_options
    from diplomacy_desktop.table.parts import PlayersPart

    game = Game.new(load_board("standard"))
    state = _new_table_options(game, {"players": {"turkey": 4, "france": "Anna"}}, None, {"italy": "Bo", "france": "Cy"})
    assert isinstance(state.players, PlayersPart)
    assert state.to_table()["players"] == {"turkey": 4, "france": "Cy", "italy": "Bo"}  # a dict's merge, in order
    fresh = _new_table_options(game, {}, None, {"italy": "Bo"})
    assert fresh.to_table() == {"players": {"italy": "Bo"}}


def test_state_the_declarations_part_round_trips_many_dicts() -> None:
    from diplomacy_desktop.table.parts import DeclarationsPart

    rng = random.Random(24)
    for d in _many_seat_dicts(("france", "turkey", "austria"), 25):
        for k in d:  # a power's own object of relations, some of them damaged, now and then
            if rng.random() < 0.5:
                d[k] = {o: rng.choice(["alliance", "war", 3, None, ["x"]]) for o in ("england", "italy")
                        if rng.random() < 0.7}
        copy = json.loads(json.dumps(d))
        state = TableState.from_table({"declarations": copy, "z": 1})
        assert isinstance(state.declarations, DeclarationsPart)
        back = state.to_table()
        assert back == {"declarations": d, "z": 1} and list(back["declarations"]) == list(d)
        assert state.declarations.entries() == {
            k: {o: r for o, r in v.items() if isinstance(r, str)} for k, v in d.items() if isinstance(v, dict)}


def test_state_the_declarations_part_is_typed_and_a_damaged_entry_reads_as_absent(tmp_path: Path) -> None:
    from diplomacy_desktop.table.changes import LAPTOP
    from diplomacy_desktop.table.declarations import pending_declarations
    from diplomacy_desktop.table.parts import DeclarationsPart
    from diplomacy_desktop.table.service import TableService

    table = {"formal": True,
             "declarations": {"turkey": 5, "france": {"england": "alliance", "italy": 3, "germany": "war"},
                              "a_later_key": {"x": "y"}}}
    state = TableState.from_table(json.loads(json.dumps(table)))
    part = state.declarations
    assert isinstance(part, DeclarationsPart) and state.to_table() == table
    assert part.of("turkey") is None and part.of("austria") is None
    assert part.of("france") == {"england": "alliance", "germany": "war"}  # text relations only
    assert pending_declarations(state) == {"france": {"england": "alliance", "germany": "war"}, "a_later_key": {}}
    assert pending_declarations(state, ["france"]) == {"france": {"england": "alliance", "germany": "war"}}
    # the phone's view of a power, and the reveal, read a damaged entry as none (they raised TypeError)
    game = Game.new(load_board("standard"), formal=True)
    service = TableService(game, {"formal": True})
    host = TableHost(game, service.table, tmp_path / "g.json", service=service, session=service.session)
    service.table.declarations = DeclarationsPart.from_dict(
        {"turkey": 5, "france": {"england": "alliance", "italy": 3, "germany": "war"}})
    assert host._private("turkey")["declarations"] == {}
    assert host._private("france")["declarations"] == {"england": "alliance", "germany": "war"}
    service.reveal_declarations(initiator=LAPTOP)
    assert service.table.phones_part().revealed_declarations == {"france": {"england": "alliance", "germany": "war"}}
    # a power writes its declarations into the typed part (made when absent)
    fresh = TableState.from_table({})
    fresh.declarations_part().put("italy", {"france": "neutral"})
    assert fresh.to_table() == {"declarations": {"italy": {"france": "neutral"}}}


def test_state_a_damaged_name_pin_id_or_declaration_reads_as_absent(tmp_path: Path) -> None:
    """The behaviour the typed maps changed, through the package's own questions only (a value of
    the wrong JSON type, as a hand-edited save may hold, was read through str(...) or raised)."""
    from diplomacy_desktop.table.changes import LAPTOP
    from diplomacy_desktop.table.service import TableService

    pin = hash_pin("1234")
    state = TableState.from_table({"players": {"england": 3}, "pins": {"england": 7},
                                   "hotseat": {"pins": {"england": pin}}})
    assert state.player_of("england") is None  # was "3"
    assert state.pin_hash("england") == pin  # was "7": the turn's PIN is read, as for a missing one
    assert dict(TableSettings.from_table(state).players) == {}  # was {"england": "3"}
    game = Game.new(load_board("standard"), formal=True)
    service = TableService(game, {"formal": True})
    host = TableHost(game, service.table, tmp_path / "g.json", service=service, session=service.session)
    service.table["declarations"] = {"turkey": 5, "france": {"england": "alliance", "italy": 3}}
    assert host._private("turkey")["declarations"] == {}  # raised TypeError
    assert host._private("france")["declarations"] == {"england": "alliance"}  # "italy": 3 was passed on
    service.reveal_declarations(initiator=LAPTOP)  # raised TypeError
    assert service.table["phones"]["revealed_declarations"] == {"france": {"england": "alliance"}}


def test_state_a_part_reads_a_nested_object_or_array_as_a_record_of_its_own() -> None:
    from typing import ClassVar

    from diplomacy_desktop.table.parts import NotesPart, PlayersPart

    class Outer(JsonPart):  # (a part with a nested map and a nested list, as PhonesPart's tokens)
        KNOWN: ClassVar[dict[str, type | tuple[type, ...]]] = {"names": dict, "notes": list, "n": int}
        NESTED: ClassVar[dict[str, type[Any]]] = {"names": PlayersPart, "notes": NotesPart}
        names: PlayersPart | None = None
        notes: NotesPart | None = None
        n: int | None = None
        extra: dict[str, Any] = field(default_factory=dict)
        key_order: tuple[str, ...] = ()

    for d in [{"n": 1, "names": {"france": "Ann", "turkey": 3, "later": [1]}, "notes": [{"id": 1, "from": "france"}, 7]},
              {"names": ["not", "an", "object"], "notes": {"not": "a list"}}, {}]:
        outer = Outer.from_dict(json.loads(json.dumps(d)))
        assert outer.to_dict() == d and list(outer.to_dict()) == list(d)
        assert Outer.from_dict(outer.to_dict()) == outer
    outer = Outer.from_dict({"names": {"france": "Ann", "turkey": 3}, "notes": [{"id": 1, "from": "france"}, 7]})
    assert isinstance(outer.names, PlayersPart) and outer.names.entries() == {"france": "Ann"}
    assert isinstance(outer.notes, NotesPart) and [n.sender for n in outer.notes.entries()] == ["france"]
    damaged = Outer.from_dict({"names": ["x"]})
    assert damaged.names is None and damaged.extra == {"names": ["x"]}
    # a record the package made is kept as it is, and written as the file holds it
    outer.names = PlayersPart.of_entries({"italy": "Bea"})
    assert outer.to_dict()["names"] == {"italy": "Bea"}
    made = Outer(names=PlayersPart.of_entries({"austria": "Cy"}))
    assert made.to_dict() == {"names": {"austria": "Cy"}}
    assert Outer.from_dict({"names": PlayersPart.of_entries({"a": "b"})}).names == {"a": "b"}


def test_state_a_ballots_vetoes_of_true_is_not_a_count() -> None:
    # a hand-edited save's ``"vetoes": true``: JSON's true is no number (Python's bool is an int)
    entry = {"phase": "F1905M", "proposer": "france", "proposal": "draw", "powers": ["france"], "passed": False}
    state = TableState.from_table({"ballots": [{**entry, "vetoes": True}, {**entry, "vetoes": 2}]})
    records = state.ballot_records()
    assert [r.vetoes for r in records] == [None, 2]
    assert state.to_table()["ballots"][0]["vetoes"] is True  # kept as read
# -- the phones' inner maps: tokens, devices, kicked, joins, revealed declarations, clock -------------

_PHONE_POWERS = ("france", "turkey", "austria")


def _many_phones_dicts(seed: int, count: int = 300) -> list[dict[str, Any]]:
    """``PhonesPart`` dicts (``_many_dicts``) whose map keys often hold a random map of their kind
    (powers or devices to odd values, device records, relations, clocks), some entries damaged."""
    from diplomacy_desktop.table.parts import DevicePart, PhoneClockPart, PhonesPart

    rng = random.Random(seed)
    out = _many_dicts(list(PhonesPart.KNOWN), seed, count)
    for d in out:
        for key in [k for k in d if k in PhonesPart.NESTED]:
            if rng.random() < 0.3:
                continue  # an odd value as _many_dicts chose it (a list, a number, an empty object ...)
            if key == "clock":
                d[key] = rng.choice(_many_dicts(list(PhoneClockPart.KNOWN), rng.randint(0, 10**6), 5))
                continue
            entry = rng.choice(_many_seat_dicts(_PHONE_POWERS if key != "devices" else ("fra1", "tur2", "aus3"),
                                                rng.randint(0, 10**6), 3))
            for k in entry:
                if key == "devices" and rng.random() < 0.7:
                    entry[k] = rng.choice(_many_dicts(list(DevicePart.KNOWN), rng.randint(0, 10**6), 5))
                elif key == "revealed_declarations" and rng.random() < 0.7:
                    entry[k] = {o: rng.choice(["alliance", "war", 3, None]) for o in ("england", "italy")
                                if rng.random() < 0.7}
                elif key == "joins" and rng.random() < 0.5:
                    entry[k] = rng.choice([0, 1, 2, 17, -1, True, 2.0, "3"])
            d[key] = entry
    return out


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_state_the_phones_part_round_trips_many_dicts_with_typed_inner_maps(seed: int) -> None:
    from diplomacy_desktop.table.parts import PhonesPart

    nested_seen = 0
    for d in _many_phones_dicts(seed):
        copy = json.loads(json.dumps(d))
        part = PhonesPart.from_dict(copy)
        assert part.to_dict() == d and list(part.to_dict()) == list(d)
        assert json.loads(json.dumps(part.to_dict())) == d  # plain JSON, the inner maps too
        assert PhonesPart.from_dict(part.to_dict()) == part
        back = TableState.from_table({"z": 1, "phones": copy}).to_table()
        assert back == {"z": 1, "phones": d} and list(back["phones"]) == list(d)
        for key, kind in PhonesPart.NESTED.items():
            value = getattr(part, key)
            if isinstance(d.get(key), dict):  # an object there is read as the key's record ...
                assert isinstance(value, kind) and value.to_dict() == d[key] and list(value.to_dict()) == list(d[key])
                nested_seen += 1
            else:  # ... anything else (or nothing) is kept as read, and reads as absent
                assert value is None and part.extra.get(key, "absent") == d.get(key, "absent")
    assert nested_seen > 500


def test_state_the_phones_inner_maps_each_round_trip_many_dicts_and_read_a_damaged_entry_as_absent() -> None:
    from diplomacy_desktop.table.parts import (DevicePart, DevicesPart, JoinsPart, KickedPart, PhoneClockPart,
                                               PhoneTokensPart, RevealedDeclarationsPart)

    for seed, kind in enumerate((PhoneTokensPart, KickedPart, JoinsPart, DevicesPart, RevealedDeclarationsPart), 41):
        for d in _many_seat_dicts(_PHONE_POWERS, seed):
            part = kind.from_dict(json.loads(json.dumps(d)))
            assert part.to_dict() == d and list(part.to_dict()) == list(d)
            if isinstance(part, (PhoneTokensPart, KickedPart)):
                assert part.entries() == {k: v for k, v in d.items() if isinstance(v, str)}
            if isinstance(part, JoinsPart):  # a whole number only: ``true`` is no count
                assert all(part.of(k) == (v if type(v) is int else None) for k, v in d.items())
            if isinstance(part, DevicesPart):
                assert list(part.records()) == [k for k, v in d.items() if isinstance(v, dict)]
    for seed, record in ((46, DevicePart), (47, PhoneClockPart)):
        for d in _many_dicts(list(record.KNOWN), seed):
            assert record.from_dict(d).to_dict() == d and list(record.from_dict(d).to_dict()) == list(d)
    devices = DevicesPart.from_dict({"fra1": {"power": "france", "hash": 5, "later": 1}, "tur2": ["x"]})
    fra1 = devices.record("fra1")
    assert fra1 is not None and fra1.power == "france" and fra1.hash is None and fra1.extra == {"hash": 5, "later": 1}
    assert devices.record("tur2") is None and devices.holds("tur2") and devices.record("aus3") is None
    clock = PhoneClockPart.from_dict({"title": 5, "remaining": 12.5, "running": 1, "at": "x"})
    assert clock.title is None and clock.remaining == 12.5 and clock.running is None and clock.at is None


def test_state_the_phones_inner_maps_are_typed_records_and_keep_a_later_versions_keys() -> None:
    from diplomacy_desktop.table import phonebook
    from diplomacy_desktop.table.parts import (DevicesPart, JoinsPart, KickedPart, PhoneClockPart, PhonesPart,
                                               PhoneTokensPart, RevealedDeclarationsPart)

    phones = PhonesPart.from_dict(json.loads(json.dumps(PHONES_OF_A_LATER_VERSION)))
    assert isinstance(phones.tokens, PhoneTokensPart) and isinstance(phones.devices, DevicesPart)
    assert isinstance(phones.kicked, KickedPart) and isinstance(phones.joins, JoinsPart)
    assert isinstance(phones.clock, PhoneClockPart) and isinstance(phones.revealed_declarations, RevealedDeclarationsPart)
    assert phones.tokens.of("france") == "Tok-france-123" and phones.kicked.of("turkey") == "pbkdf2_sha256$x"
    assert phones.joins.of("france") == 2 and phones.joins.of("turkey") is None and phones.joins.holds("turkey")
    assert phones.clock.title == "Talks" and phones.clock.running is False and phones.clock.remaining is None
    assert phones.revealed_declarations.of("france") == {"turkey": "ally"}
    # the changes write typed records, and keep each map's other entries as read
    phonebook.cut_off(phones, ["turkey"], {"turkey": "pbkdf2_sha256$y"})
    phonebook.cut_off_device(phones, "fra1", "pbkdf2_sha256$z")
    phonebook.keep_clock(phones, PhoneClockPart(title="Negotiation", remaining=60.0, running=True, at=5.0))
    back = phones.to_dict()
    assert back["tokens"]["france"] == "Tok-france-123" and back["tokens"]["turkey"] != "Tok-turkey-456"
    assert back["devices"] == {}  # the damaged entry went with the cut-off (as before), fra1 by its kick
    assert back["kicked"] == {"turkey": "pbkdf2_sha256$y", "france": "pbkdf2_sha256$z"}
    assert back["clock"] == {"title": "Negotiation", "remaining": 60.0, "running": True, "at": 5.0}
    assert list(back) == list(PHONES_OF_A_LATER_VERSION)
    device, _token = phonebook.add_device(phones, "austria")
    assert phones.to_dict()["devices"][device] == {"power": "austria", "hash": phones.devices.record(device).hash}
    with pytest.raises(KeyError):
        phonebook.cut_off_device(phones, "nobody9", None)


# The behaviour the typed inner maps of ``table.phones`` changed: a value of the wrong JSON type, as
# a hand-edited save may hold, was read through str(...), bool(...) or float(...); now it is absent.


def test_state_a_phone_token_that_is_not_text_is_no_link_and_the_links_are_made_anew() -> None:
    from diplomacy_desktop.table import phonebook
    from diplomacy_desktop.table.service import TableService

    game = Game.new(load_board("standard"))
    powers = game.board.power_ids
    tokens: dict[str, object] = {p: f"tok-{p}" for p in powers}
    # a token that is not text: no link (it was the link "5"), so the host makes new links for all
    service = TableService(game, {"phones": {"tokens": {**tokens, "france": 5}}})
    assert "france" not in phonebook.tokens(service.table.phones_part())
    links = service.phone_links()
    assert set(links) == set(powers) and all(isinstance(t, str) and t != f"tok-{p}" for p, t in links.items())
    intact = TableService(game, {"phones": {"tokens": dict(tokens)}})
    assert intact.phone_links() == tokens  # (text tokens stay as they were)


def test_state_a_phone_join_count_of_true_is_no_count() -> None:
    from diplomacy_desktop.table import phonebook
    from diplomacy_desktop.table.parts import PhonesPart

    # it was read as 1: the next join counted 2
    phones = PhonesPart.from_dict({"joins": {"france": True, "turkey": 2, "italy": "x"}})
    assert phonebook.joins(phones, "france") == 0 and phonebook.joins(phones, "turkey") == 2
    phonebook.count_join(phones, "france")
    assert phones.to_dict()["joins"] == {"france": 1, "turkey": 2, "italy": "x"}


def test_state_the_phones_clock_with_a_value_of_the_wrong_type_is_no_clock(tmp_path: Path) -> None:
    game = Game.new(load_board("standard"))
    good = {"title": "Talks", "remaining": 90, "running": False, "at": 10.0}
    for damaged in ({"remaining": "90"}, {"running": 1}, {"title": 5}, {"running": True, "at": "10"}):
        host = TableHost(game, {"phones": {"clock": {**good, **damaged}}}, tmp_path / "g.json",
                         wall_clock=lambda: 20.0)
        assert not host.restore_clock() and host.clock_view() is None, damaged
    host = TableHost(game, {"phones": {"clock": dict(good)}}, tmp_path / "g.json", wall_clock=lambda: 20.0)
    assert host.restore_clock()
    view = host.clock_view()
    assert view is not None and view["title"] == "Talks" and view["remaining"] == 90.0 and not view["running"]
# -- the maps inside the parts (JsonPart.NESTED) ---------------------------------------------------------


def test_state_the_revealed_codes_are_a_typed_map_and_a_damaged_code_reads_as_absent() -> None:
    from diplomacy_desktop.table import sealcodes
    from diplomacy_desktop.table.parts import RevealedSealCodesPart, SealCodesPart, SealLogPart

    for d in _many_dicts(["france", "turkey", "austria"], seed=31):
        part = RevealedSealCodesPart.from_dict({"phase": "S1901M", "codes": json.loads(json.dumps(d))})
        assert isinstance(part.codes, SealCodesPart)
        assert part.to_dict() == {"phase": "S1901M", "codes": d} and list(part.to_dict()["codes"]) == list(d)
        assert part.codes.entries() == {k: v for k, v in d.items() if isinstance(v, str)}
        assert part.codes.as_given() == {k: str(v) for k, v in d.items()}
    saved = {"phase": "W1900A", "codes": {"france": "a b c", "turkey": 5, "later": [1]}, "z": 1}
    state = TableState.from_table({"revealed_seal_codes": json.loads(json.dumps(saved)),
                                   "seal_log": [{**saved, "secret": "ab" * 16}]})
    assert state.revealed_seal_codes is not None and isinstance(state.revealed_seal_codes.codes, SealCodesPart)
    assert state.to_table()["revealed_seal_codes"] == saved
    # a code that is not text reads as absent, but the seal check still sees it as its text (it
    # never matches: an alarm, as before)
    assert state.revealed_seal_codes.codes.of("turkey") is None
    assert state.revealed_seal_codes.codes.entries() == {"france": "a b c"}
    given = {"france": "a b c", "turkey": "5", "later": "[1]"}
    assert sealcodes.revealed_codes(state) == ("W1900A", given)
    verdict = sealcodes.revealed_verdict(state, "W1900A", lambda p: [])
    assert verdict is not None and verdict.given == given
    assert isinstance(state.seal_log, SealLogPart)
    logged = state.seal_log.entries()[0]
    assert logged is not None and isinstance(logged.codes, SealCodesPart) and logged.codes.of("turkey") is None
    [(phase, checked)] = sealcodes.logged_verdicts(state, [])
    assert phase == "W1900A" and checked is None  # (not in the history)
    sealed = TableState.from_table({"revealed_seal_codes": {**saved, "secret": "ab" * 16}})
    alarm = sealcodes.revealed_verdict(sealed, "W1900A", lambda p: [])
    assert alarm is not None and "turkey" in alarm.mismatched
    # codes that are no object are kept as read, and the entry reads as no codes
    odd = TableState.from_table({"revealed_seal_codes": {"phase": "W1900A", "codes": ["x"]}})
    assert odd.revealed_seal_codes is not None and odd.revealed_seal_codes.codes is None
    assert sealcodes.revealed_codes(odd) == ("", {}) and odd.to_table()["revealed_seal_codes"]["codes"] == ["x"]
    # the reveal writes a typed map
    fresh = TableState()
    code = sealcodes.record_seal(fresh, "france", "S1901M", ["A PAR H"])
    sealcodes.reveal_codes(fresh, "S1901M", lambda p: ["A PAR H"])
    assert fresh.revealed_seal_codes is not None and isinstance(fresh.revealed_seal_codes.codes, SealCodesPart)
    assert fresh.revealed_seal_codes.codes.entries() == {"france": code}
    sealcodes.reveal_codes(fresh, "F1901M", lambda p: [])  # nothing sealed: no codes
    assert fresh.to_table()["revealed_seal_codes"] == {"phase": "F1901M", "codes": {}}


def test_state_the_turns_pins_are_a_typed_map_and_a_damaged_hash_reads_as_absent() -> None:
    from diplomacy_desktop.table.changes import LAPTOP
    from diplomacy_desktop.table.parts import HotSeatPart, PinsPart
    from diplomacy_desktop.table.service import TableService

    for d in _many_dicts(["france", "turkey", "austria"], seed=37):
        part = HotSeatPart.from_dict({"pins": json.loads(json.dumps(d)), "stage": "open"})
        assert isinstance(part.pins, PinsPart) and part.to_dict() == {"pins": d, "stage": "open"}
        assert list(part.to_dict()["pins"]) == list(d)
    turn = {"phase": "S1901M", "order": ["france", "turkey"], "stage": "open",
            "pins": {"france": 1234, "turkey": "scrypt$turkey", "later": [1]}}
    state = TableState.from_table({"hotseat": json.loads(json.dumps(turn))})
    assert state.hotseat is not None and isinstance(state.hotseat.pins, PinsPart)
    # a hash that is not text reads as absent (it was read as its text, "1234")
    assert state.pin_hash("france") is None and state.pin_hash("turkey") == "scrypt$turkey"
    session = HotSeatSession.from_part(state.hotseat)
    assert session.pins == {"turkey": "scrypt$turkey"}
    assert HotSeatSession.from_part(HotSeatPart.from_dict({**turn, "pins": ["odd"]})).pins == {}  # (raised)
    # a renewed PIN replaces the damaged one where it was, in the turn
    service = TableService(Game.new(load_board("standard")), state)
    service.set_pin_hash(["france"], "scrypt$france", initiator=LAPTOP)
    assert state.to_table()["hotseat"]["pins"] == {"france": "scrypt$france", "turkey": "scrypt$turkey", "later": [1]}
    assert state.pins is None and state.pin_hash("france") == "scrypt$france"
    assert state.to_table()["hotseat"] == {**turn, "pins": {"france": "scrypt$france", "turkey": "scrypt$turkey",
                                                             "later": [1]}}


def test_state_the_seatings_choices_and_draws_are_typed_and_a_damaged_entry_is_kept_as_read() -> None:
    from diplomacy_desktop.engine.seating import GROUPINGS, assign_by_priority
    from diplomacy_desktop.table.parts import SeatChoicesPart, SeatDrawPart, SeatDrawsPart, SeatingPart
    from diplomacy_desktop.table.seating import assignment_to_table

    rng = random.Random(41)
    for choices, draw in zip(_many_dicts(["Ann", "Bob", "Cy"], seed=43),
                             _many_dicts(list(SeatDrawPart.KNOWN), seed=47), strict=True):
        draws = [rng.choice([draw, *_ODD_VALUES]) for _ in range(rng.randrange(4))]
        d = {"method": "priority", "choices": choices, "draws": draws}
        part = SeatingPart.from_dict(json.loads(json.dumps(d)))
        assert isinstance(part.choices, SeatChoicesPart) and isinstance(part.draws, SeatDrawsPart)
        assert part.to_dict() == d and list(part.to_dict()["choices"]) == list(choices)
        assert part.draws.to_list() == draws and all(isinstance(e, SeatDrawPart) for e in part.draws.entries())
        back = TableState.from_table({"seating": json.loads(json.dumps(d))}).to_table()
        assert back == {"seating": d}
    saved = {"choices": {"Ann": ["england", 3], "Bob": "turkey", "Cy": ["france"]},
             "draws": [{"choice": 1, "seat": ["england"], "contenders": ["Ann", "Bob"], "winner": "Ann", "later": 1},
                       {"choice": "one"}, 5]}
    part = SeatingPart.from_dict(json.loads(json.dumps(saved)))
    assert part.choices is not None and part.draws is not None
    # an item that is not text, or choices that are no array, read as absent; kept as read
    assert part.choices.of("Ann") == ["england"] and part.choices.of("Bob") is None and part.choices.holds("Bob")
    assert part.choices.entries() == {"Ann": ["england"], "Cy": ["france"]}
    first, second = part.draws.entries()
    assert first.winner == "Ann" and first.seat == ["england"] and first.extra == {"later": 1}
    assert second.choice is None and second.extra == {"choice": "one"}
    assert part.to_dict() == saved
    # the draw writes typed records, the same JSON as the plain dicts it wrote before
    board = load_board("standard")
    wanted = {"Ann": ["england"], "Bob": ["england"], "Cy": ["france"], "Dee": ["russia"], "Eve": ["turkey"]}
    assignment = assign_by_priority(wanted, GROUPINGS[5], 7, board.power_ids)
    made = assignment_to_table(assignment, wanted, secret=False, board=board)
    assert isinstance(made.choices, SeatChoicesPart) and isinstance(made.draws, SeatDrawsPart)
    assert made.choices.entries() == wanted
    out = made.to_dict()
    assert list(out) == ["method", "secret", "seed", "choices", "draws", "record"]
    assert out["draws"] == [{"choice": d.choice, "seat": list(d.seat), "contenders": list(d.contenders),
                             "winner": d.winner} for d in assignment.draws] and len(out["draws"]) == 2
    assert SeatingPart.from_dict(json.loads(json.dumps(out))) == made


def test_state_the_running_clocks_settings_are_typed_as_the_clocks_part() -> None:
    from diplomacy_desktop.table.parts import ClockPart, ClockStatePart
    from diplomacy_desktop.table.service import TableService

    game = Game.new(load_board("standard"))
    model = ClockModel.for_phase(game.state.phase, ClockSettings(wilson_rounds=2), now=lambda: 0.0)
    for settings in _many_dicts([*ClockPart.KNOWN], seed=53):
        d = {**model.to_dict(), "settings": settings}
        part = ClockStatePart.from_dict(json.loads(json.dumps(d)))
        assert isinstance(part.settings, ClockPart) and part.to_dict() == d
        assert list(part.to_dict()["settings"]) == list(settings)
        # the window reads the part as it read the saved object (or fails alike)
        try:
            expected: object = ClockModel.from_dict(d, now=lambda: 0.0).to_dict()
        except ValueError:
            expected = ValueError
        try:
            got: object = ClockModel.from_dict(part.to_dict(), now=lambda: 0.0).to_dict()
        except ValueError:
            got = ValueError
        assert got == expected, d
    state = TableState()
    TableService(game, state).keep_clock(model.to_dict())
    assert state.clock_state is not None and isinstance(state.clock_state.settings, ClockPart)
    assert state.clock_state.settings.settings() == ClockSettings(wilson_rounds=2)
    assert state.to_table()["clock_state"] == model.to_dict()
    damaged = ClockStatePart.from_dict({"settings": ["x"], "phase": "S1901M"})
    assert damaged.settings is None and damaged.to_dict() == {"settings": ["x"], "phase": "S1901M"}


def test_state_the_events_custom_clock_is_a_typed_map_and_round_trips() -> None:
    from diplomacy_desktop.table.event import EventRules
    from diplomacy_desktop.table.parts import CustomClockPart

    event = {**EventRules().to_dict(), "preset": "custom",
             "custom": {"spring": 20, "fall": 15.5, "later": "odd", "writing": True}}
    state = TableState.from_table({"event": json.loads(json.dumps(event))})
    assert state.event is not None and isinstance(state.event.custom, CustomClockPart)
    assert state.event.custom.entries() == {"spring": 20, "fall": 15.5}  # (JSON's true is no number)
    assert state.to_table() == {"event": event} and list(state.to_table()["event"]["custom"]) == list(event["custom"])
    for d in _many_dicts(["spring", "fall", "writing", "retreats", "builds"], seed=51):
        part = CustomClockPart.from_dict(d)
        assert part.to_dict() == d and list(part.to_dict()) == list(d)


def test_state_true_is_no_number_in_a_part_of_numbers() -> None:
    # JSON's true in a place for minutes, a time or a count (Python's bool is an int): kept as read,
    # read as absent (the clock's minutes read as 1 and a wrong-PIN block's end as 1970 before)
    from diplomacy_desktop.table.parts import ClockPart, PinFailure

    clock = ClockPart.from_dict({"spring_minutes": True, "fall_minutes": 10})
    assert clock.spring_minutes is None and clock.fall_minutes == 10 and clock.extra == {"spring_minutes": True}
    assert clock.to_dict() == {"spring_minutes": True, "fall_minutes": 10}
    failure = PinFailure.from_dict({"count": 2, "until": True})
    assert failure.until is None and failure.count == 2
    assert ClockPart.from_dict({"writing_per_power": True}).writing_per_power is True  # a flag stays a flag
