"""Games in and out of the ``diplomacy`` package's saved-game JSON (io/dipjson.py).

The tests that play a game in the package skip when it is not installed; the ``test`` extra
of pyproject installs it, so CI runs them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Convoy, Hold, Move, Retreat, SupportHold
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.state import ADJUSTMENT, RETREAT
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.dipjson import (
    InterchangeError,
    dumps,
    export_saved_game,
    import_saved_game,
    loads,
    order_text,
    read_json,
)


def _package() -> Any:
    return pytest.importorskip(
        "diplomacy", reason="the 'diplomacy' package is not installed (pip install -e '.[test]' installs it)")


def _saved(game: Any) -> dict[str, Any]:
    from diplomacy.utils.export import to_saved_game_format

    return json.loads(json.dumps(to_saved_game_format(game)))  # as read from a file


def _play(game: Any, orders: dict[str, list[str]]) -> None:
    for power, listed in orders.items():
        game.set_orders(power, listed)
    game.process()


SCRIPT: list[tuple[str, dict[str, list[str]]]] = [
    ("S1901M", {
        "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
        "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
        "GERMANY": ["A MUN - BUR", "F KIE - HOL", "A BER - KIE"],
        "AUSTRIA": ["F TRI - ADR", "A VIE - TYR", "A BUD - SER"],
        "RUSSIA": ["A WAR S A MOS - UKR", "A MOS H"],
    }),
    ("F1901M", {
        "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY VIA", "F NWG H"],
        "FRANCE": ["A BUR - BEL", "F MAO - POR", "A MAR - SPA"],
        "GERMANY": ["F HOL H", "A KIE - DEN", "A MUN H"],
        "AUSTRIA": ["A TYR - VEN", "F ADR S A TYR - VEN", "A SER H"],
        "ITALY": ["A VEN H"],
    }),
    ("F1901R", {"ITALY": ["A VEN R PIE"]}),
    ("W1901A", {
        "AUSTRIA": ["A VIE B", "A BUD B"],
        "ITALY": ["A PIE D"],
        "ENGLAND": ["F LON B"],
        "FRANCE": ["A PAR B", "F BRE B", "WAIVE"],
        "GERMANY": ["A BER B", "F KIE B"],
    }),
    ("S1902M", {
        "GERMANY": ["A MUN - BUR", "F HOL S F KIE", "F KIE H"],
        "FRANCE": ["A PAR - BUR"],
        "ENGLAND": ["F NTH - HOL"],
        "AUSTRIA": ["A VEN - ROM"],
        "ITALY": ["F NAP S A ROM", "A ROM H"],
    }),
]


def _scripted_game() -> Any:
    pkg = _package()
    game = pkg.Game()
    for name, orders in SCRIPT:
        assert game.get_current_phase() == name
        _play(game, orders)
    return game


def test_dipjson_scripted_package_game_replays_without_difference() -> None:
    saved = _saved(_scripted_game())
    imported = import_saved_game(saved)
    assert imported.differences == []
    game = imported.game
    names = [h.state.phase.short for h in game.history]
    assert names == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"]
    assert game.state.phase.short == "F1902M"
    f1901 = {r.order: r for r in game.history[1].results}
    convoyed = f1901[Move("england", "A", "yor", "nwy", True)]
    assert convoyed.succeeded and convoyed.route == ("nth",)
    assert f1901[Convoy("england", "F", "nth", "A", "yor", "nwy")].succeeded
    assert game.history[1].after.dislodged[0].unit.location == "ven"
    retreat = game.history[2].results[0]
    assert retreat.order == Retreat("italy", "A", "ven", "pie") and retreat.succeeded
    builds = [(r.order.power, r.code) for r in game.history[3].results]
    assert builds.count(("france", "built")) == 2  # the package keeps no WAIVE order: a build unused
    assert ("italy", "removed") in builds
    s1902 = {r.order: r for r in game.history[4].results}
    assert s1902[SupportHold("germany", "F", "hol", "F", "kie")].code == "cut"
    assert s1902[Move("germany", "A", "mun", "bur")].code == "bounced"
    # the position after every phase is the recorded one
    recorded = {ph["name"]: ph["state"]["units"] for ph in saved["phases"]}
    ours = {p.upper(): sorted(f"{u.kind} {u.location.upper()}" for u in game.state.units_of(p))
            for p in game.board.power_ids}
    assert ours == {p: sorted(us) for p, us in recorded["F1902M"].items()}


def test_dipjson_random_package_game_every_difference_explained() -> None:
    """Several years of random orders (moves and convoys favoured) played by the package: the
    replay covers convoys, retreats and builds, and any difference is listed with our reason."""
    pkg = _package()
    for seed in range(8):
        game, rnd = pkg.Game(), random.Random(seed)
        while not game.is_game_done and game.get_current_phase() != "S1908M":
            possible = game.get_all_possible_orders()
            for power in game.powers:
                chosen = []
                for loc in sorted(game.get_orderable_locations(power)):
                    options = sorted(possible[loc])
                    if options:
                        moving = [o for o in options if " - " in o or " C " in o]
                        chosen.append(rnd.choice(moving if moving and rnd.random() < 0.6 else options))
                game.set_orders(power, chosen)
            game.process()
        saved = _saved(game)
        kinds = {ph["name"][-1] for ph in saved["phases"]}
        convoys = any(" C " in o for ph in saved["phases"] for os in ph["orders"].values() for o in os or ())
        if kinds >= {"M", "R", "A"} and convoys:
            break
    else:
        pytest.fail("no random game with retreats, adjustments and convoys")
    imported = import_saved_game(saved)
    assert imported.phases == len(saved["phases"]) - 1
    assert len(imported.game.history) >= imported.phases
    assert {h.state.phase.kind for h in imported.game.history} >= {RETREAT, ADJUSTMENT}
    for d in imported.differences:
        assert d.reason and d.theirs != d.ours
        if d.order:
            assert "rule" in d.reason, d.text()


def test_dipjson_package_deviation_listed_with_our_rule() -> None:
    """The package counts a power's support for a convoyed attack on its own unit (its check of
    the supported order reads the word VIA as the destination); rules IX.3 does not."""
    pkg = _package()
    game = pkg.Game()
    for power in game.powers:
        game.set_units(power, [], reset=True)
    game.set_units("RUSSIA", ["A SEV"], reset=True)
    game.set_units("TURKEY", ["F BLA", "F ANK", "F CON"], reset=True)
    _play(game, {"RUSSIA": ["A SEV - CON VIA"], "TURKEY": ["F BLA C A SEV - CON", "F ANK S A SEV - CON", "F CON H"]})
    saved = _saved(game)
    assert saved["phases"][0]["results"]["A SEV"] == []  # the package moves it
    imported = import_saved_game(saved)
    moved = [d for d in imported.differences if d.order == "A SEV - CON VIA"]
    assert len(moved) == 1
    assert moved[0].theirs == "moves" and moved[0].ours == "bounced"
    assert "IX.3" in moved[0].reason
    # the replay then goes on from the recorded position
    assert imported.game.state.unit_in("con") is not None and imported.game.state.unit_in("con").power == "russia"


def test_dipjson_round_trip_ours_to_json_to_ours() -> None:
    saved = _saved(_scripted_game())
    game = import_saved_game(saved).game
    again = loads(dumps(game, "rt"))
    assert again.differences == []
    assert len(again.game.history) == len(game.history)
    for a, b in zip(game.history, again.game.history, strict=True):
        assert a.state == b.state
        assert a.orders == b.orders
        assert a.results == b.results
        assert a.next_state == b.next_state
    assert again.game.state == game.state


def test_dipjson_package_reads_our_export() -> None:
    pkg = _package()
    from diplomacy.utils.export import from_saved_game_format

    game = import_saved_game(_saved(_scripted_game())).game
    theirs = from_saved_game_format(json.loads(dumps(game, "ours")))
    assert isinstance(theirs, pkg.Game)
    assert theirs.get_current_phase() == "F1902M"
    assert [p.name for p in theirs.get_phase_history()] == [h.state.phase.short for h in game.history]
    assert sorted(theirs.get_units("ENGLAND")) == sorted(f"{u.kind} {u.location.upper()}"
                                                          for u in game.state.units_of("england"))


def test_dipjson_our_game_exports_and_the_package_replays_it() -> None:
    """A game played here (illegal orders, a standoff) exported, read by the package, written by
    it and imported again: the same phases, and our results agree with its."""
    _package()
    from diplomacy.utils.export import from_saved_game_format, to_saved_game_format

    game = Game.new(load_board())
    game.set_order(Move("france", "A", "par", "bur"))
    game.set_order(Move("germany", "A", "mun", "bur"))
    game.set_order(Move("england", "F", "lon", "nth"))
    game.adjudicate()
    exported = export_saved_game(game, "ours")
    assert exported["phases"][0]["results"]["A PAR"] == ["bounce"]
    assert exported["phases"][0]["results"]["F LON"] == []
    back = json.loads(json.dumps(to_saved_game_format(from_saved_game_format(exported))))
    imported = import_saved_game(back)
    assert imported.differences == []
    assert imported.game.history[0].orders == game.history[0].orders
    assert imported.game.state == game.state


def test_dipjson_order_notation_both_ways() -> None:
    board = load_board()
    game = Game.new(board)
    state = game.state
    cases = {
        "A PAR H": Hold("france", "A", "par"),
        "A PAR - BUR": Move("france", "A", "par", "bur"),
        "F STP/SC - BOT": Move("russia", "F", "stp/sc", "bot"),
        "A MAR S A PAR - BUR": None,
        "F BRE - MAO": Move("france", "F", "bre", "mao"),
    }
    for text, order in cases.items():
        if order is not None:
            assert order_text(order, state) == text
    imported = import_saved_game({"id": "x", "map": "standard", "rules": [], "phases": [
        {"name": "S1901M", "state": _initial_state(), "orders": {"RUSSIA": ["F STP/SC - BOT"],
                                                                  "FRANCE": ["A PAR - BUR VIA"]},
         "results": {"F STP/SC": [], "A PAR": []}},
        {"name": "F1901M", "state": _initial_state("F1901M", moved={"F STP/SC": "F BOT", "A PAR": "A BUR"}),
         "orders": {}, "results": {}}]})
    assert imported.differences == []
    orders = set(imported.game.history[0].orders)
    assert Move("russia", "F", "stp/sc", "bot") in orders
    assert Move("france", "A", "par", "bur", True) in orders  # VIA: by convoy, falls back to land (classic)


def _initial_state(name: str = "S1901M", moved: dict[str, str] | None = None) -> dict[str, Any]:
    game = Game.new(load_board())
    state = export_saved_game(game)["phases"][0]["state"]
    state["name"] = name
    for power, units in state["units"].items():
        state["units"][power] = [(moved or {}).get(u, u) for u in units]
    return state


# -- bad and foreign files -------------------------------------------------------------------


def _minimal() -> dict[str, Any]:
    return {"id": "g", "map": "standard", "rules": [], "phases": [
        {"name": "S1901M", "state": _initial_state(), "orders": {"FRANCE": ["A PAR - BUR"]},
         "results": {"A PAR": []}},
        {"name": "F1901M", "state": _initial_state("F1901M", moved={"A PAR": "A BUR"}), "orders": {},
         "results": {}}]}


def test_dipjson_minimal_game_imports() -> None:
    imported = import_saved_game(_minimal())
    assert imported.differences == []
    assert imported.game.state.unit_in("bur") is not None


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(map="ancmed"), "'ancmed'"),
    (lambda d: d.update(rules=["BUILD_ANY"]), "BUILD_ANY"),
    (lambda d: d.pop("phases"), "no 'phases'"),
    (lambda d: d.update(phases=[]), "no phases"),
    (lambda d: d["phases"][0]["orders"].update(FRANCE=["A PAR X BUR"]), "'A PAR X BUR'"),
    (lambda d: d["phases"][0]["orders"].update(FRANCE=["A PAR - ZZZ"]), "'ZZZ'"),
    (lambda d: d["phases"][0]["orders"].update(PRUSSIA=["A PAR - BUR"]), "'PRUSSIA'"),
    (lambda d: d["phases"][1].update(name="S1901M"), "out of order"),
    (lambda d: d["phases"][0].update(name="X1901M"), "'X1901M'"),
    (lambda d: d["phases"][0]["state"]["units"].update(FRANCE=["A PAR", "A PAR"]), "two units in par"),
    (lambda d: d["phases"][0]["state"].pop("units"), "no units"),
])
def test_dipjson_bad_game_refused_naming_what_is_wrong(change: Any, words: str) -> None:
    data = _minimal()
    change(data)
    with pytest.raises(InterchangeError, match=None) as err:
        import_saved_game(data)
    assert words in str(err.value)


@pytest.mark.parametrize(("raw", "words"), [
    (b"", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "it looks like a PNG picture"),
    (b"CASE 6.A.1\nPRESTATE_SETPHASE Spring 1901, Movement\n", "it looks like a DATC scenario file"),
    (b"[1, 2, 3]", "not a saved game"),
    (b'{"id": "x", "map": "standard"}', "no 'phases'"),
])
def test_dipjson_foreign_file_refused(raw: bytes, words: str) -> None:
    with pytest.raises(InterchangeError) as err:
        import_saved_game(read_json(raw))
    assert words in str(err.value)


def test_dipjson_truncated_file_refused() -> None:
    text = json.dumps(_minimal())
    with pytest.raises(InterchangeError) as err:
        loads(text[: len(text) // 2].encode())
    assert "truncated" in str(err.value)


# -- secrecy ------------------------------------------------------------------------------------


def test_dipjson_export_leaves_out_the_orders_of_the_phase_being_played() -> None:
    game = Game.new(load_board())
    game.set_order(Move("france", "A", "par", "bur"))
    game.adjudicate()
    game.set_order(Move("germany", "A", "mun", "ruh"))  # sealed, not yet adjudicated
    game.set_order(Hold("france", "A", "bur"))
    text = dumps(game)
    data = json.loads(text)
    assert data["phases"][-1]["orders"] == {p: [] for p in (
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")}
    assert data["phases"][-1]["results"] == {}
    assert "MUN - RUH" not in text and "A BUR H" not in text
    assert "A PAR - BUR" in text  # the adjudicated history is public
    assert all(r.outcome is not Outcome.ILLEGAL for r in game.history[0].results)


def test_dipjson_imported_game_with_a_difference_saves_and_opens_again() -> None:
    """Where the replay went on from the recorded position, our save file says so, and opens."""
    from diplomacy_desktop.io.savefile import dumps as save_dumps
    from diplomacy_desktop.io.savefile import loads as save_loads

    data = _minimal()
    data["phases"][0]["results"]["A PAR"] = ["bounce"]
    data["phases"][1]["state"] = _initial_state("F1901M")  # the record: A PAR stayed
    imported = import_saved_game(data)
    assert {d.phase for d in imported.differences} == {"S1901M"}
    assert [d.order for d in imported.differences if d.order] == ["A PAR - BUR"]
    assert {(d.theirs, d.ours) for d in imported.differences if not d.order} == {
        ("France A PAR on the board", "not there"), ("not there", "France A BUR on the board")}
    assert imported.game.state.unit_in("par") is not None
    text = save_dumps(imported.game)
    assert '"restarted": true' in text
    game, _ = save_loads(text)
    assert game.state == imported.game.state
    assert [h.results for h in game.history] == [h.results for h in imported.game.history]


def test_dipjson_export_gives_each_unit_the_result_of_the_order_it_carried_out() -> None:
    """An illegal order naming another power's unit is written as given; the unit's result is
    that of its own order, and the round trip gives the same results."""
    game = Game.new(load_board())
    game.set_order(Move("france", "A", "mun", "bur"), allow_illegal=True)  # Germany's army
    game.set_order(Move("germany", "A", "mun", "ruh"))
    game.set_order(Move("italy", "A", "ven", "mos"), allow_illegal=True)  # not a neighbour
    game.adjudicate()
    phase = export_saved_game(game)["phases"][0]
    assert "A MUN - BUR" in phase["orders"]["FRANCE"]
    assert phase["results"]["A MUN"] == []  # it moved to the Ruhr
    assert phase["results"]["A VEN"] == ["void"]
    again = loads(dumps(game))
    assert again.differences == []
    assert again.game.history[0].results == game.history[0].results
