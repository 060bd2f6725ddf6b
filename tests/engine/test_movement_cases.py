"""Movement cases beyond the DATC (``movement_cases.txt``), each its own test, per edition."""

from __future__ import annotations

from pathlib import Path

import pytest

from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import CaseError, Scenario, read_scenarios

BOARD = load_board()
ITEMS = read_scenarios((Path(__file__).parent / "movement_cases.txt").read_text(encoding="utf-8"), BOARD)
CASES = [sc for sc in ITEMS if isinstance(sc, Scenario)]
RUNS = [(sc, e) for sc in CASES for e in Edition if not sc.name.endswith(tuple(f".{o.value}" for o in Edition if o != e))]


def test_movement_cases_all_read() -> None:
    assert not [i for i in ITEMS if isinstance(i, CaseError)]
    assert len(CASES) >= 10


@pytest.mark.parametrize(("sc", "edition"), RUNS, ids=[f"{sc.name}-{e.value}" for sc, e in RUNS])
def test_movement_case(sc: Scenario, edition: Edition) -> None:
    run = run_case(sc, BOARD, RuleSet.for_edition(edition))
    assert run.checked
    assert run.matched, "\n".join(run.mismatches)
    assert all(r.reason for r in run.results)
