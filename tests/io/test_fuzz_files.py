"""A seeded fuzz of the two file readers (issue 8): mutated saved games and mutated DATC case
files.  Only the documented errors may come out: ``SaveFileError`` from the save loader,
``ScenarioError`` from the case reader (an unreadable case is a ``CaseError`` item, never an
exception), and ``adjudicate --json`` always prints JSON that parses.

Deterministic (fixed seeds) and quick: a few thousand mutants, a few seconds.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from diplomacy_desktop import cli
from diplomacy_desktop.engine.rules import RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import result_rows, run_case
from diplomacy_desktop.io.savefile import SaveFileError, dumps, loads
from diplomacy_desktop.io.scenario import (
    CaseError,
    Scenario,
    ScenarioError,
    case_file_text,
    read_scenario_lines,
)

HERE = Path(__file__).resolve().parent
BOARD = load_board()
GOOD_SAVE = (HERE / "bad_saves" / "good.json").read_text(encoding="utf-8")
CASES = "".join((HERE.parents[1] / "lessons" / n).read_text(encoding="utf-8")
                for n in ("datc_v3_6A.txt", "datc_v3_6E.txt", "datc_v3_6H.txt"))

_YEAR = re.compile(r"\b1[89][0-9][0-9]\b")
ODD_VALUES: list[Any] = [None, True, 0, -1, 3.5, 1e308, "", "xyz", "france", "stp/nc", [], {}, [1], {"a": 1},
                         "pbkdf2_sha256$1$00$00", 1901, 99999, "movement", "army"]
ODD_NUMBERS = ["1e400", "-1e400", "1" * 5000, "1" * 41, "0.0", "-0", "1901.0", "9" * 20, "NaN", "Infinity"]


# -- mutating a saved game ---------------------------------------------------------------------------


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, (*path, i))
    return out


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = value
    return data


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        data = data[k]
    return data


def _mutate_save(rng: random.Random, base: dict[str, Any]) -> str:
    how = rng.choice(["flip", "truncate", "swap", "number", "nest", "drop", "add", "splice", "swap", "swap"])
    text = json.dumps(base, indent=1)
    if how == "flip":
        b = bytearray(text.encode("utf-8"))
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return b.decode("utf-8", errors="replace")
    if how == "truncate":
        return text[: rng.randrange(len(text))]
    data = copy.deepcopy(base)
    paths = _nodes(data)
    path = rng.choice(paths)
    if how == "swap":
        return json.dumps(_set(data, path, copy.deepcopy(rng.choice(ODD_VALUES))))
    if how == "number":
        marker = "__NUMBER__"
        return json.dumps(_set(data, path, marker)).replace(f'"{marker}"', rng.choice(ODD_NUMBERS))
    if how == "nest":
        depth = rng.choice([5, 50, 3000])
        marker = "__NEST__"
        return json.dumps(_set(data, path, marker)).replace(f'"{marker}"', "[" * depth + "1" + "]" * depth)
    if how == "drop":
        if path:
            parent = _get(data, path[:-1])
            del parent[path[-1]]
        return json.dumps(data)
    if how == "add":
        target = _get(data, path)
        if isinstance(target, dict):
            target[rng.choice(["extra", "power", "kind", "location", "year"])] = rng.choice(ODD_VALUES)
        elif isinstance(target, list):
            target.append(copy.deepcopy(rng.choice(ODD_VALUES + [target[0] if target else 1])))
        return json.dumps(data)
    # splice: a piece of the file put somewhere else in it (a real kind of corruption)
    other = rng.choice(paths)
    try:
        return json.dumps(_set(data, path, copy.deepcopy(_get(base, other))))
    except (KeyError, IndexError, TypeError):
        return json.dumps(data)


@pytest.mark.parametrize("seed", range(4))
def test_fuzz_save_loader_raises_only_save_file_errors(seed: int) -> None:
    rng = random.Random(1000 + seed)
    base = json.loads(GOOD_SAVE)
    loaded = refused = 0
    for _ in range(200):
        text = _mutate_save(rng, base)
        try:
            game, table = loads(text)
        except SaveFileError as exc:
            refused += 1
            message = str(exc)
            assert message and "\n" not in message and len(message) < 600, message
            assert "Traceback" not in message
            continue
        loaded += 1
        # what loads plays on and saves again: no failure at the next adjudication
        assert isinstance(table, dict)
        again, _ = loads(dumps(game, table))
        assert again.state == game.state
        game.adjudicate()
    assert refused > 100 and loaded > 5  # the mutants reach both sides


# -- mutating a case file -------------------------------------------------------------------------------


def _mutate_cases(rng: random.Random, text: str) -> bytes:
    lines = text.splitlines(keepends=True)
    for _ in range(rng.randint(1, 6)):
        how = rng.choice(["flip", "line", "dup", "drop", "ends", "digits", "long", "truncate", "keyword", "bom"])
        i = rng.randrange(len(lines))
        if how == "flip":
            b = bytearray(lines[i].encode("utf-8"))
            if b:
                b[rng.randrange(len(b))] = rng.randrange(1, 256)
            lines[i] = b.decode("utf-8", errors="replace")
        elif how == "line":
            lines.insert(i, rng.choice(["\t\r\n", "\r", "\x0b", "\x1c\n", "stray words\n", "END\n", "CASE\n",
                                        "ORDERS\n", "\n\n", "\tFrance: \n", ": :\n", "#\n", "\u2028\n"]))
        elif how == "dup":
            lines[i:i] = lines[i: i + rng.randint(1, 30)]
        elif how == "drop":
            del lines[i: i + rng.randint(1, 5)]
        elif how == "ends":
            lines[i] = lines[i].rstrip("\n") + rng.choice(["\r\n", "\r", "\t\r\n", "\n\t"])
        elif how == "digits":  # the year of a phase line written oddly
            years = [j for j, line in enumerate(lines) if _YEAR.search(line)]
            if years:
                j = rng.choice(years)
                lines[j] = _YEAR.sub(rng.choice(["19²1", "١٩٠١", "9" * 5000, "9" * 1500, "0", "99999", "-1901", "1901.5"]),
                                     lines[j], count=1)
        elif how == "long":
            lines[i] = lines[i].rstrip("\n") + " x" * rng.choice([10, 3000]) + "\n"
        elif how == "truncate":
            lines = lines[:i]
        elif how == "keyword":
            lines[i] = rng.choice(["PRESTATE_SETPHASE ", "PRESTATE_RESULTS\n", "POSTSTATE_SAME\n",
                                   "PRESTATE_DISLODGED\n", "PRESTATE_SUPPLYCENTER_OWNERS\n", "SUCCESS: "]) + lines[i]
        elif how == "bom":
            lines.insert(0, "\ufeff")
        if not lines:
            lines = [""]
    return "".join(lines).encode("utf-8")


def _read_and_run(raw: bytes, rules: RuleSet) -> int:
    """Read and adjudicate every case; only ScenarioError may come out.  The cases run."""
    try:
        text = case_file_text(raw)
    except ScenarioError:
        return 0
    ran = 0
    for item in read_scenario_lines(text.splitlines(), BOARD):
        if isinstance(item, CaseError):
            assert item.message and len(item.message) < 3000
            continue
        assert isinstance(item, Scenario)
        try:
            run = run_case(item, BOARD, rules)
        except ScenarioError:
            continue
        result_rows(run, BOARD)
        ran += 1
    return ran


@pytest.mark.parametrize("seed", range(4))
def test_fuzz_case_reader_raises_only_scenario_errors(seed: int) -> None:
    rng = random.Random(2000 + seed)
    rules = RuleSet.for_edition("classic" if seed % 2 else "2023")
    ran = 0
    for _ in range(25):
        ran += _read_and_run(_mutate_cases(rng, CASES), rules)
    assert ran > 100


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_adjudicate_json_always_parses(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    rng = random.Random(3000 + seed)
    for n in range(8):
        raw = _mutate_cases(rng, CASES)
        if n % 4 == 3:  # now and then something that is no text at all
            raw = bytes(rng.randrange(256) for _ in range(500)) + raw[:200]
        path = tmp_path / f"m{n}.txt"
        path.write_bytes(raw)
        try:
            code = cli.main(["adjudicate", str(path), "--json", "--jobs", "1"])
        finally:
            gc.enable()  # (adjudicate turns the cycle collector off for its short life)
        out = capsys.readouterr()
        records = json.loads(out.out)
        assert isinstance(records, list) and code in (0, 1, 2)
        assert all(isinstance(r, dict) and "case" in r and ("error" in r or "orders" in r) for r in records)
        assert "Traceback" not in out.err
