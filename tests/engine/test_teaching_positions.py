"""Issue 32: the positions written for the eight families of false cause sentences (and others a
teacher uses), every explanation held against the orders by :mod:`explanation_check`, and each
family's sentence as a rules expert reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
from explanation_check import check_adjudication

from diplomacy_desktop.engine.explain import explain, results_by_province
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import Scenario, read_scenarios

BOARD = load_board()
FILE = Path(__file__).parent / "teaching_positions" / "families.txt"
CASES = {sc.name: sc for sc in read_scenarios(FILE.read_text(encoding="utf-8"), BOARD) if isinstance(sc, Scenario)}


def _texts(name: str, edition: Edition = Edition.CLASSIC) -> dict[str, str]:
    run = run_case(CASES[name], BOARD, RuleSet.for_edition(edition))
    assert run.state is not None
    by = results_by_province(run.results)
    return {p: explain(r, run.state, by).text() for p, r in by.items()}


def test_there_are_thirty_positions() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("edition", [Edition.CLASSIC, Edition.Y2023], ids=["classic", "2023"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_every_cause_holds_against_the_orders(name: str, edition: Edition) -> None:
    run = run_case(CASES[name], BOARD, RuleSet.for_edition(edition))
    assert run.state is not None and run.results
    problems = check_adjudication(run.state, run.results)
    assert not problems, "\n".join(problems)


def test_family_1_szykman_names_the_paradox_not_xii5() -> None:
    t = _texts("szykman-second-order (DATC 6.F.22 orders)")
    assert "runs through the sea this support helps attack" not in t["bel"]
    assert "Rule DATC 4.A.2" in t["bel"] and "through North Sea" in t["bel"]
    assert "Rule DATC 4.A.2" in t["nwy"] and "rule XII.5" not in t["nwy"]


def test_family_2_own_unit_does_not_cut() -> None:
    t = _texts("own-cut")
    assert "the note to IX.6" in t["sil"] and "German army in Munich" in t["sil"]
    assert "only from the space it supports into" not in t["sil"]


def test_family_3_ring_broken_from_outside_says_it_entered() -> None:
    t = _texts("ring-outside")
    assert "could not enter for other reasons" not in t["hol"]
    assert "was stronger, so it entered Belgium" in t["hol"] and "Rule IX.2" in t["hol"]


def test_family_4_ring_broken_by_a_standoff_cause_first() -> None:
    t = _texts("ring-standoff")
    assert t["hol"].split("\n")[0].startswith("Fails — stood off with the army in Burgundy")
    assert "Rule VIII" in t["hol"]
    assert "the army in Holland failed to enter Belgium" in t["nth"]


def test_family_5_hold_support_for_a_unit_ordered_to_move() -> None:
    t = _texts("hold-support-mover")
    assert "was ordered to move, so it cannot be supported to hold" in t["bud"]


def test_family_6_unwanted_foreign_convoy_cites_intent() -> None:
    t = _texts("unwanted-convoy")
    assert "Rule XII.6" in t["nth"] and "via convoy" in t["nth"] and "DATC 4.A.3" in t["nth"]


def test_family_7_ix7_the_half_that_applies() -> None:
    t = _texts("ix7")
    assert "even though one of them has been dislodged" in t["sev"]
    assert "was dislodged by the army in Serbia, which did not come from Rumania" in t["sev"]
    assert "rule IX.7" in t["bul"]


def test_family_8_coasts_cite_vii_3_2() -> None:
    t = _texts("coast")
    assert "Rule VII.3.2" in t["gas"] and "Rule VII.3.2" in t["bul"]
