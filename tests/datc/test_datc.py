"""Every DATC v3.0 case (transcribed into lessons/, where they are lessons too), each its own test.

Cases run under the edition whose preferences they state: plain cases under the 2023 edition
(DATC v3.0), ``*.classic`` variants under the classic edition (DATC v2.4).  A case without a
classic variant must come out the same under classic rules, and is run that way too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from diplomacy_desktop.engine.board import IMPASSABLE
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import CaseError, Scenario, read_scenarios

CASES = Path(__file__).resolve().parents[2] / "lessons"
SHARED_DATC = Path(__file__).resolve().parents[3] / "shared" / "reference" / "datc"
SHARED_V24 = SHARED_DATC / "godip" / "datc_v2.4_06.txt"
SHARED_V24_JDIP = SHARED_DATC / "jdip" / "datc_v2.4_06.txt"
BOARD = load_board()


def _load(path: Path) -> list[Scenario]:
    items = read_scenarios(path.read_text(encoding="utf-8"), BOARD)
    errors = [i for i in items if isinstance(i, CaseError)]
    assert not errors, errors
    return [i for i in items if isinstance(i, Scenario)]


V3 = [sc for f in sorted(CASES.glob("datc_v3_6*.txt")) for sc in _load(f)]
NAMES = {sc.name for sc in V3}


def _edition(name: str) -> Edition:
    return Edition.CLASSIC if ".classic" in name else Edition.Y2023


def _check(sc: Scenario, edition: Edition) -> None:
    run = run_case(sc, BOARD, RuleSet.for_edition(edition))
    assert run.checked, f"{sc.name} has no expected outcome"
    assert run.matched, "\n".join(run.mismatches)
    # every order has a result with a reason a person can read
    assert len(run.results) >= len(sc.orders)
    if sc.phase is not None and sc.phase.kind == "movement":
        assert len(run.results) >= len(sc.units)
    for r in run.results:
        assert r.reason.strip(), r
    # invariants: one unit per space, nothing in an impassable space
    provinces = [u.location.split("/")[0] for u in run.units]
    assert len(provinces) == len(set(provinces))
    assert all(BOARD.spaces[p].kind != IMPASSABLE for p in provinces)


@pytest.mark.parametrize("sc", V3, ids=[sc.name for sc in V3])
def test_datc_v3(sc: Scenario) -> None:
    _check(sc, _edition(sc.name))


SAME_UNDER_CLASSIC = [sc for sc in V3 if ".classic" not in sc.name and f"{sc.name}.classic" not in NAMES]


@pytest.mark.parametrize("sc", SAME_UNDER_CLASSIC, ids=[sc.name for sc in SAME_UNDER_CLASSIC])
def test_datc_v3_same_under_classic(sc: Scenario) -> None:
    _check(sc, Edition.CLASSIC)


def test_datc_v3_has_all_164_cases() -> None:
    numbers = {m.group(0) for sc in V3 if (m := re.match(r"6\.[A-J]\.\d+", sc.name))}
    per_section = {s: sum(1 for n in numbers if n.startswith(f"6.{s}.")) for s in "ABCDEFGHIJ"}
    assert per_section == {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}
    assert len(numbers) == 164


def _v24(path: Path) -> list[Scenario]:
    if not path.exists():
        return []
    return _load(path)


V24 = _v24(SHARED_V24)
V24_JDIP = _v24(SHARED_V24_JDIP)


@pytest.mark.skipif(not V24, reason="../shared/reference/datc is not beside this checkout")
@pytest.mark.parametrize("sc", V24, ids=[sc.name.split(" ")[0] for sc in V24])
def test_datc_v24_godip_file_classic(sc: Scenario) -> None:
    _check(sc, Edition.CLASSIC)


# jDip's own copy: jDip's names ("nor" for Norway, a misspelt "Galacia"), and one case whose
# expected result is not the DATC's
JDIP_NOT_DATC = {
    "6.F.17": "jDip settles Pandin's extended paradox by the 2000 rulebook, not by the Szykman rule the DATC "
              "prefers (godip's copy of the file has the DATC's result, and passes)",
}


@pytest.mark.skipif(not V24_JDIP, reason="../shared/reference/datc is not beside this checkout")
@pytest.mark.parametrize("sc", [
    pytest.param(sc, marks=pytest.mark.xfail(strict=True, reason=JDIP_NOT_DATC[sc.name.split(" ")[0]]))
    if sc.name.split(" ")[0] in JDIP_NOT_DATC else sc for sc in V24_JDIP], ids=[sc.name.split(" ")[0] for sc in V24_JDIP])
def test_datc_v24_jdip_file_classic(sc: Scenario) -> None:
    _check(sc, Edition.CLASSIC)
