"""``python -m diplomacy_desktop.cli adjudicate``: text output, the JSON interface, errors, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SUPPORTED = """\
# a supported attack on Burgundy beats an unsupported one
CASE supported attack
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tFrance: A par
\tGermany: A mun
\tGermany: A ruh
ORDERS
\tFrance: A par-bur
\tGermany: A mun-bur
\tGermany: A ruh S A mun-bur
POSTSTATE
\tFrance: A par
\tGermany: A bur
\tGermany: A ruh
END
"""

DISLODGED = """\
CASE dislodged and a split coast
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE
\tGermany: A mun
\tAustria: A boh
\tAustria: A tyr
\tRussia: F bot
ORDERS
\tAustria: A boh-mun
\tAustria: A tyr S A boh-mun
\tRussia: F bot-stp
\tGermany: A mun H
POSTSTATE
\tAustria: A mun
\tAustria: A tyr
\tRussia: F stp/sc
POSTSTATE_DISLODGED
\tGermany: A mun
END
"""

UNREADABLE = """\
CASE broken power
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tFrance: A par
\tNarnia: A mun
ORDERS
\tFrance: A par-bur
END
"""

WRONG_EXPECTATION = """\
CASE wrong expectation
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tFrance: A par
ORDERS
\tFrance: A par-bur
POSTSTATE
\tFrance: A gas
END
"""


def adjudicate(tmp_path: Path, text: str | None, *args: str, name: str = "cases.txt") -> subprocess.CompletedProcess[str]:
    path = tmp_path / name
    if text is not None:
        path.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "diplomacy_desktop.cli", "adjudicate", str(path), *args],
                          check=False, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout, proc.stderr


# -- text output --------------------------------------------------------------------------------------


def test_cli_text_lists_every_order_with_result_and_reason(tmp_path: Path) -> None:
    proc = adjudicate(tmp_path, SUPPORTED)
    no_traceback(proc)
    assert proc.returncode == 0, proc.stdout
    lines = proc.stdout.splitlines()
    assert lines[0] == "CASE supported attack (classic rules): matches the expected position"
    body = "\n".join(lines[1:])
    rows = {line.split(":")[0].strip() + " " + line.split(":", 1)[1].split("  ")[0].strip(): line
            for line in lines[1:-1]}
    assert set(rows) == {"France A Par - Bur", "Germany A Mun - Bur", "Germany A Ruh S A Mun - Bur"}
    assert "failure" in rows["France A Par - Bur"] and "bounced" in rows["France A Par - Bur"]
    assert "success" in rows["Germany A Mun - Bur"] and "strength 2 against 1" in rows["Germany A Mun - Bur"]
    assert "success" in rows["Germany A Ruh S A Mun - Bur"] and "support given" in rows["Germany A Ruh S A Mun - Bur"]
    assert lines[-1] == "1 of 1 cases passed"
    assert "DOES NOT MATCH" not in body


def test_cli_text_names_the_edition_and_the_dislodged(tmp_path: Path) -> None:
    proc = adjudicate(tmp_path, DISLODGED, "--rules", "2023")
    assert proc.returncode == 0, proc.stdout
    assert "(2023 rules): matches the expected position" in proc.stdout
    assert "dislodged: A Mun" in proc.stdout


# -- JSON ---------------------------------------------------------------------------------------------


def test_cli_json_has_exactly_the_documented_shape(tmp_path: Path) -> None:
    proc = adjudicate(tmp_path, SUPPORTED + "\n" + DISLODGED, "--json")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stdout
    data = json.loads(proc.stdout)
    assert isinstance(data, list) and [c["case"] for c in data] == ["supported attack", "dislodged and a split coast"]
    for case in data:
        assert set(case) == {"case", "units", "dislodged", "orders"}
        for unit in case["units"] + case["dislodged"]:
            assert set(unit) == {"power", "type", "location"}
            assert unit["type"] in ("army", "fleet")
            assert unit["location"] == unit["location"].lower()
        for order in case["orders"]:
            assert set(order) == {"power", "order", "result", "reason", "code", "rule", "strength", "opposition",
                                  "involved"}
            assert order["result"] in ("success", "failure", "illegal", "void")
            assert order["reason"].strip() and order["code"] and order["rule"]
            assert order["strength"] is None or isinstance(order["strength"], int)
            assert all(p == p.lower() and len(p) == 3 for p in order["involved"])
    second = data[1]
    assert sorted((u["power"], u["type"], u["location"]) for u in second["units"]) == [
        ("austria", "army", "mun"), ("austria", "army", "tyr"), ("russia", "fleet", "stp/sc")]
    # the dislodged unit is listed at the space it was dislodged from, and not among the units
    assert second["dislodged"] == [{"power": "germany", "type": "army", "location": "mun"}]
    results = {o["order"]: (o["power"], o["result"]) for o in second["orders"]}
    assert results == {"A Boh - Mun": ("austria", "success"), "A Tyr S A Boh - Mun": ("austria", "success"),
                       "F Bot - StP": ("russia", "success"), "A Mun H": ("germany", "failure")}
    boh = next(o for o in second["orders"] if o["order"] == "A Boh - Mun")
    assert (boh["code"], boh["rule"], boh["strength"], boh["opposition"], boh["involved"]) == \
        ("moved", "IX.2", 2, 1, ["mun"])
    mun = next(o for o in second["orders"] if o["order"] == "A Mun H")
    assert (mun["code"], mun["rule"], mun["involved"]) == ("dislodged", "IX.2", ["boh"])


def test_cli_json_is_the_same_for_both_editions_where_they_agree(tmp_path: Path) -> None:
    classic = json.loads(adjudicate(tmp_path, DISLODGED, "--json").stdout)
    y2023 = json.loads(adjudicate(tmp_path, DISLODGED, "--json", "--rules", "2023").stdout)
    assert classic == y2023


def test_cli_json_unreadable_case_gives_case_and_error(tmp_path: Path) -> None:
    proc = adjudicate(tmp_path, UNREADABLE + "\n" + SUPPORTED, "--json")
    no_traceback(proc)
    assert proc.returncode != 0
    data = json.loads(proc.stdout)
    assert data[0] == {"case": "broken power", "error": data[0]["error"]}
    assert set(data[0]) == {"case", "error"}
    assert "line 5" in data[0]["error"] and "Narnia" in data[0]["error"]
    assert data[1]["case"] == "supported attack" and "units" in data[1]  # the next case is still run


def test_cli_json_impossible_position_gives_case_and_error(tmp_path: Path) -> None:
    text = "CASE crowded\nPRESTATE\n\tFrance: A par\n\tGermany: A par\nORDERS\n\tFrance: A par H\nEND\n"
    proc = adjudicate(tmp_path, text, "--json")
    no_traceback(proc)
    assert proc.returncode != 0
    (case,) = json.loads(proc.stdout)
    assert set(case) == {"case", "error"} and case["case"] == "crowded"
    assert "line 4" in case["error"] and "two units" in case["error"]


def test_cli_json_unreadable_order_is_reported_in_its_case(tmp_path: Path) -> None:
    text = ("CASE garbled order\nPRESTATE\n\tFrance: A par\nORDERS\n\tFrance: A par jumps bur\n\tFrance: A par-bur\n"
            "POSTSTATE\n\tFrance: A bur\nEND\n")
    proc = adjudicate(tmp_path, text, "--json")
    assert proc.returncode == 0, proc.stdout
    (case,) = json.loads(proc.stdout)
    garbled = [o for o in case["orders"] if o["order"] == "A par jumps bur"]
    assert garbled == [{"power": "france", "order": "A par jumps bur", "result": "illegal",
                        "reason": garbled[0]["reason"], "code": "unreadable", "rule": "VII.4", "strength": None,
                        "opposition": None, "involved": []}]
    assert "line 5" in garbled[0]["reason"]


def test_cli_text_unreadable_case_names_the_line(tmp_path: Path) -> None:
    proc = adjudicate(tmp_path, UNREADABLE)
    no_traceback(proc)
    assert proc.returncode != 0
    assert "CASE broken power: cannot be read: line 5: unknown power 'Narnia'" in proc.stdout
    assert proc.stdout.splitlines()[-1] == "0 of 1 cases passed"


# -- exit codes ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("json_flag", [(), ("--json",)], ids=["text", "json"])
def test_cli_mismatching_expected_position_exits_non_zero(tmp_path: Path, json_flag: tuple[str, ...]) -> None:
    proc = adjudicate(tmp_path, SUPPORTED + WRONG_EXPECTATION, *json_flag)
    no_traceback(proc)
    assert proc.returncode == 1
    if not json_flag:
        assert "CASE wrong expectation (classic rules): DOES NOT MATCH" in proc.stdout
        assert "expected france A gas, not there" in proc.stdout
        assert "france A bur is there but not expected" in proc.stdout
        assert proc.stdout.splitlines()[-1] == "1 of 2 cases passed"


@pytest.mark.parametrize("json_flag", [(), ("--json",)], ids=["text", "json"])
def test_cli_missing_file_is_a_clear_message_and_exit_2(tmp_path: Path, json_flag: tuple[str, ...]) -> None:
    proc = adjudicate(tmp_path, None, *json_flag, name="nowhere.txt")
    no_traceback(proc)
    assert proc.returncode == 2
    assert "cannot read" in proc.stderr and "nowhere.txt" in proc.stderr and "No such file" in proc.stderr
    if json_flag:  # --json always prints JSON: here one error object for the whole file
        [record] = json.loads(proc.stdout)
        assert record["case"] is None and "No such file" in record["error"]
    else:
        assert proc.stdout == ""


def test_cli_unknown_edition_exits_2(tmp_path: Path) -> None:
    proc = adjudicate(tmp_path, SUPPORTED, "--rules", "1999")
    no_traceback(proc)
    assert proc.returncode == 2
    assert "unknown rule edition '1999'" in proc.stderr


def test_cli_file_without_cases_exits_non_zero(tmp_path: Path) -> None:
    proc = adjudicate(tmp_path, "# nothing here\n")
    no_traceback(proc)
    assert proc.returncode == 1
    assert "no cases found" in proc.stdout


def test_cli_binary_garbage_gives_errors_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "garbage.txt"
    path.write_bytes(bytes(range(256)) * 4)
    proc = adjudicate(tmp_path, None, "--json", name="garbage.txt")
    no_traceback(proc)
    assert proc.returncode != 0
    assert isinstance(json.loads(proc.stdout), list)


# -- several processes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_cli_cases_shared_out_to_processes_print_what_one_process_prints(tmp_path: Path,
                                                                         json_flag: tuple[str, ...]) -> None:
    cases = [SUPPORTED, DISLODGED, UNREADABLE, WRONG_EXPECTATION, "stray line between cases\n",
             "# a comment that belongs to the next case\n", SUPPORTED.replace("CASE supported", "CASE again"),
             "CASE no end\nPRESTATE_SETPHASE Spring 1901, Movement\n", DISLODGED]
    text = "".join(cases * 5)
    one = adjudicate(tmp_path, text, *json_flag, "--jobs", "1")
    no_traceback(one)
    for jobs in ("2", "3", "7"):
        many = adjudicate(tmp_path, text, *json_flag, "--jobs", jobs)
        assert (many.returncode, many.stdout, many.stderr) == (one.returncode, one.stdout, one.stderr), jobs
    assert one.returncode == 1
    if json_flag:
        records = json.loads(one.stdout)
        assert len(records) == 5 * 7 + 5  # 7 cases a round, and the stray line each round
        assert sum("error" in r for r in records) == 5 * 3


def test_cli_case_record_is_written_as_json_dumps_writes_it() -> None:
    from diplomacy_desktop.cli import _case_json
    from diplomacy_desktop.engine.state import Unit
    from diplomacy_desktop.io.caserun import ResultRow

    units = [Unit("england", "F", "stp/nc"), Unit("france", "A", "par")]
    rows = [ResultRow("france", 'A Par - "Bur"\\', "illegal", "cannot read 'x': é → ü\n\ttab", "unreadable", "VII.4"),
            ResultRow("england", "F StP/nc H", "success", "holds", "holds", "IX.2", 2, 1, ("lon", "stp")),
            ResultRow("england", "F Lon H", "success", "holds", "holds", "VII.1", explanation='Said "so".\nRule')]
    name = 'case "one" – ünïcode\\'
    record = {"case": name,
              "units": [{"power": u.power, "type": "army" if u.kind == "A" else "fleet", "location": u.location}
                        for u in units],
              "dislodged": [{"power": "france", "type": "army", "location": "par"}],
              "orders": [{"power": r.power, "order": r.order, "result": r.result, "reason": r.reason, "code": r.code,
                          "rule": r.rule, "strength": r.strength, "opposition": r.opposition,
                          "involved": list(r.involved), **({"explanation": r.explanation} if r.explanation else {})}
                         for r in rows]}
    text = _case_json(name, units, [Unit("france", "A", "par")], rows)
    assert text == json.dumps(record, separators=(",", ":"))
    assert json.loads(_case_json("empty", [], [], [])) == {"case": "empty", "units": [], "dislodged": [], "orders": []}


REPEATED = """\
CASE the same move twice, written two ways
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tFrance: A par
ORDERS
\tFrance: A par-bur
\tFrance: Army Paris -> Burgundy
POSTSTATE
\tFrance: A bur
END

CASE the same retreat twice
PRESTATE_SETPHASE Fall 1901, Retreat
PRESTATE
\tGermany: A hol
PRESTATE_DISLODGED
\tEngland: A hol
PRESTATE_RESULTS
\tSUCCESS: Germany: A ruh-hol
ORDERS
\tEngland: A hol-bel
\tEngland: A hol-bel
POSTSTATE
\tGermany: A hol
\tEngland: A bel
END
"""


def test_cli_an_order_given_twice_gets_a_row_each_time(tmp_path: Path) -> None:
    proc = adjudicate(tmp_path, REPEATED, "--json")
    no_traceback(proc)
    assert proc.returncode == 0
    moved, retreated = json.loads(proc.stdout)
    assert [r["result"] for r in moved["orders"]] == ["success", "success"]
    assert [r["order"] for r in moved["orders"]] == ["A Par - Bur", "A Par - Bur"]
    assert [r["result"] for r in retreated["orders"]] == ["success", "success"]


def test_cli_a_piece_whose_process_fails_is_done_by_the_first_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from diplomacy_desktop import cli
    from diplomacy_desktop.engine.rules import CLASSIC
    from diplomacy_desktop.io.boardfile import load_board

    lines = ((SUPPORTED + DISLODGED) * 3).splitlines()
    batch = cli._Batch(lines, load_board(), CLASSIC, "json")
    alone = cli._case_outputs(batch, 1)
    parent = os.getpid()
    real = cli._piece_outputs

    def failing_in_children(span: tuple[int, int], b: cli._Batch) -> list[tuple[str, bool]]:
        if os.getpid() != parent:
            raise RuntimeError("a child that breaks")
        return real(span, b)

    monkeypatch.setattr(cli, "_piece_outputs", failing_in_children)
    assert cli._case_outputs(batch, 3) == alone
    assert len(alone) == 6


def test_cli_explain_prints_each_result_in_plain_words_with_its_rule(tmp_path: Path) -> None:
    beleaguered = """CASE Example 4
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
  Austria: A ser
  Russia: A rum
  Russia: A bud
  Turkey: A bul
  Turkey: A gre
ORDERS
  Austria: A ser H
  Russia: A rum-ser
  Russia: A bud S A rum-ser
  Turkey: A bul-ser
  Turkey: A gre S A bul-ser
POSTSTATE_SAME
END
"""
    proc = adjudicate(tmp_path, beleaguered, "--explain")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stdout
    out = proc.stdout
    assert "Austria: A Ser H: succeeds — holds; the attacks of the army in Bulgaria and the army in Rumania " \
           "stood each other off, so it is not dislodged." in out
    assert "Rule IX.5 (Beleaguered garrison)" in out
    assert "The army in Bulgaria also moved to Serbia: prevent strength 2 (itself and the support of the army in " \
           "Greece)." in out
    records = json.loads(adjudicate(tmp_path, beleaguered, "--json", "--explain").stdout)
    ser = next(o for o in records[0]["orders"] if o["order"] == "A Ser H")
    assert ser["rule"] == "IX.5" and "Rule IX.5 (Beleaguered garrison)" in ser["explanation"]
    assert sorted(ser["involved"]) == ["bul", "rum"]


def test_cli_json_gives_a_rule_for_every_order_of_the_datc_files() -> None:
    lessons = Path(__file__).resolve().parents[1] / "lessons"
    for name in ("datc_v3_6E.txt", "datc_v3_6F.txt", "datc_v3_6H.txt", "datc_v3_6J.txt"):
        proc = subprocess.run([sys.executable, "-m", "diplomacy_desktop", "adjudicate", str(lessons / name), "--json",
                               "--rules", "2023"], check=False, capture_output=True, text=True, timeout=120)
        for case in json.loads(proc.stdout):
            for order in case.get("orders", []):
                assert order["rule"], (name, case["case"], order)
