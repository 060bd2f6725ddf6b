"""Formal Diplomacy in the file formats: PRESTATE_RELATIONS cases, ``adjudicate --json`` with
interned units, the project's own case file, and saved games that keep the relations."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from diplomacy_desktop.engine.formal import ALLIANCE, WAR, Relations
from diplomacy_desktop.engine.game import BY_PIECES, Game
from diplomacy_desktop.engine.orders import Hold, Move, Waive
from diplomacy_desktop.engine.state import MOVEMENT
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import SaveFileError, dumps, loads
from diplomacy_desktop.io.scenario import CaseError, Scenario, read_scenarios, scenario_state, write_scenario

ROOT = Path(__file__).resolve().parents[2]
BOARD = load_board()
CASES = ROOT / "lessons" / "formal_diplomacy.txt"

RELATIONS_CASE = """\
CASE relations
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE_RELATIONS
\tgermany FRANCE: war
\tEngland France: Alliance
PRESTATE
\tFrance: A par
ORDERS
\tFrance: A par H
END
"""


def adjudicate(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "diplomacy_desktop.cli", "adjudicate", str(path), *args],
                          check=False, env=env, capture_output=True, text=True, timeout=120)


def test_scenario_prestate_relations_either_order_any_case() -> None:
    (sc,) = read_scenarios(RELATIONS_CASE, BOARD)
    assert isinstance(sc, Scenario)
    assert sc.relations == {("france", "germany"): WAR, ("england", "france"): ALLIANCE}
    state = scenario_state(sc, BOARD)
    assert state.relations == Relations.from_mapping(sc.relations)
    assert state.relations.neutral("italy", "turkey")
    again = read_scenarios(write_scenario(sc, BOARD), BOARD)[0]
    assert isinstance(again, Scenario) and again.relations == sc.relations


def test_scenario_without_relations_is_the_standard_game() -> None:
    sc = read_scenarios(RELATIONS_CASE.replace("PRESTATE_RELATIONS\n\tgermany FRANCE: war\n\tEngland France: Alliance\n", ""),
                        BOARD)[0]
    assert isinstance(sc, Scenario) and sc.relations is None and scenario_state(sc, BOARD).relations is None
    empty = read_scenarios(RELATIONS_CASE.replace("\tgermany FRANCE: war\n\tEngland France: Alliance\n", ""), BOARD)[0]
    assert isinstance(empty, Scenario) and empty.relations == {}  # an empty section: Formal, all neutral


@pytest.mark.parametrize(("line", "message"), [
    ("France Narnia: war", "unknown power"),
    ("France Germany: friendship", "unknown relation"),
    ("France: war", "Power Power"),
    ("France France: war", "itself"),
])
def test_scenario_bad_relation_lines_name_the_line(line: str, message: str) -> None:
    text = RELATIONS_CASE.replace("\tEngland France: Alliance", "\t" + line)
    (err,) = read_scenarios(text, BOARD)
    assert isinstance(err, CaseError) and message in err.message and "line 5" in err.message


def test_scenario_the_same_pair_twice_is_refused() -> None:
    text = RELATIONS_CASE.replace("\tEngland France: Alliance", "\tFrance Germany: alliance")
    (err,) = read_scenarios(text, BOARD)
    assert isinstance(err, CaseError) and "already" in err.message


def test_formal_case_file_passes_through_adjudicate_json() -> None:
    proc = adjudicate(CASES, "--json")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    records = {r["case"].split()[0]: r for r in json.loads(proc.stdout)}
    assert len(records) == 22 and all("interned" in r for r in records.values())
    retreat = records["FD.22"]["orders"][0]
    assert retreat["code"] == "formal_neutral" and "Tuscany" in retreat["reason"]
    assert records["FD.8"]["interned"] == [{"power": "france", "type": "army", "location": "pie"}]
    assert all(u["location"] != "pie" or u["power"] != "france" for u in records["FD.8"]["units"])
    assert records["FD.19"]["interned"] == [{"power": "france", "type": "army", "location": "mun"}]
    assert records["FD.7"]["interned"] == []
    codes = {(o["order"], o["code"], o["rule"]) for o in records["FD.2"]["orders"]}
    assert ("A Bur - Bel", "formal_neutral", "Formal Diplomacy: neutral powers") in codes
    forbidden = [o for o in records["FD.10"]["orders"] if o["code"] == "formal_war"]
    assert forbidden and forbidden[0]["result"] == "illegal" and "at war" in forbidden[0]["reason"]
    explained = adjudicate(CASES, "--explain")
    assert explained.returncode == 0 and "Formal Diplomacy: neutral powers — " in explained.stdout
    assert "interned: A Pie" in explained.stdout


def test_standard_case_json_has_no_interned_key(tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text(RELATIONS_CASE.replace("PRESTATE_RELATIONS\n\tgermany FRANCE: war\n\tEngland France: Alliance\n", ""),
                    encoding="utf-8")
    proc = adjudicate(path, "--json")
    assert proc.returncode == 0 and "interned" not in json.loads(proc.stdout)[0]


def formal_game() -> Game:
    game = Game.new(BOARD, end_year=1910, formal=True, short_game_by=BY_PIECES)
    game.declare({"france": {"germany": "war"}, "england": {"france": "alliance"}, "italy": {"austria": "war"}})
    game.set_order(Move("france", "A", "par", "bur"))
    game.adjudicate(disorder={"turkey"})
    game.declare({"france": {"germany": "neutral"}, "germany": {"france": "neutral"}})
    game.set_order(Move("france", "A", "bur", "mun"), allow_illegal=True)  # now forbidden: kept
    game.set_order(Hold("germany", "A", "mun"))
    return game


def test_savefile_round_trip_keeps_relations_disorder_and_measure() -> None:
    game = formal_game()
    text = dumps(game)
    data = json.loads(text)
    assert data["current"]["state"]["relations"] == [{"powers": ["austria", "italy"], "relation": "war"}]
    assert data["history"][0]["disorder"] == ["turkey"] and data["short_game_by"] == "pieces"
    back, _ = loads(text)
    assert back.state == game.state and back.state.relations == game.state.relations
    assert [h.state.relations for h in back.history] == [h.state.relations for h in game.history]
    assert back.history[0].disorder == frozenset({"turkey"}) and back.short_game_by == BY_PIECES
    assert back.orders == game.orders and back.formal


def test_savefile_standard_game_has_no_relations_key() -> None:
    text = dumps(Game.new(BOARD))
    assert "relations" not in text and "short_game_by" not in text and "disorder" not in text
    assert loads(text)[0].state.relations is None


def test_savefile_relations_changed_outside_a_declaration_are_refused() -> None:
    game = formal_game()
    game.adjudicate()  # Spring 1902 retreats skipped ... the current phase
    data = json.loads(dumps(game))
    # the stored history: a movement phase may carry new relations (declarations), the replay checks the rest
    assert data["history"][1]["state"]["phase"]["kind"] == MOVEMENT
    data["current"]["state"].pop("relations")  # a formal game turned standard
    with pytest.raises(SaveFileError, match="does not follow"):
        loads(json.dumps(data))
    data = json.loads(dumps(game))
    data["current"]["state"]["relations"] = [{"powers": ["france", "france"], "relation": "war"}]
    with pytest.raises(SaveFileError):
        loads(json.dumps(data))
    data = json.loads(dumps(game))
    data["current"]["state"]["relations"] = [{"powers": ["france", "narnia"], "relation": "war"}]
    with pytest.raises(SaveFileError, match="narnia|power"):
        loads(json.dumps(data))


def test_savefile_relations_cannot_change_in_an_adjustment_phase() -> None:
    game = Game.new(BOARD, formal=True)
    game.set_order(Move("france", "A", "mar", "spa"))
    game.adjudicate()
    game.adjudicate()
    assert game.state.phase.kind == "adjustment"
    data = json.loads(dumps(game))
    assert loads(json.dumps(data))[0].state == game.state
    data["current"]["state"]["relations"] = [{"powers": ["england", "france"], "relation": "war"}]
    with pytest.raises(SaveFileError, match="does not follow"):
        loads(json.dumps(data))
    # at the start of a movement phase it is a declaration, and is kept
    game.set_order(Waive("france"))
    game.adjudicate()
    assert game.state.phase.kind == MOVEMENT
    data = json.loads(dumps(game))
    data["current"]["state"]["relations"] = [{"powers": ["england", "france"], "relation": "war"}]
    back, _ = loads(json.dumps(data))
    assert back.state.relations is not None and back.state.relations.at_war("england", "france")
