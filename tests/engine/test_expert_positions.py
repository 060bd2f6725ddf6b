"""Issue 32: positions of our own (``teaching_positions/expert.txt``), each order's result worked
out by hand from the rules and written beside the order.  Every case is adjudicated under the
editions it holds for; each result is held against the expected one, the position against the
expected position where one is given, and every explanation against the orders by
:mod:`explanation_check`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest
from explanation_check import check_adjudication

from diplomacy_desktop.engine.explain import explain, results_by_province
from diplomacy_desktop.engine.orders import UnitOrder
from diplomacy_desktop.engine.results import OrderResult, Outcome
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import CaseRun, run_case
from diplomacy_desktop.io.notation import parse_order
from diplomacy_desktop.io.scenario import CaseError, Scenario, read_scenarios, scenario_state

BOARD = load_board()
FILE = Path(__file__).parent / "teaching_positions" / "expert.txt"
LINES = FILE.read_text(encoding="utf-8").splitlines()
ITEMS = read_scenarios("\n".join(LINES), BOARD)
CASES = {sc.name: sc for sc in ITEMS if isinstance(sc, Scenario)}
RUNS = [(name, e) for name in CASES for e in Edition
        if not name.endswith(tuple(f".{o.value}" for o in Edition if o != e))]
_EXPECTED = re.compile(r"#\s*(success|failure|void|illegal)\s*(,\s*dislodged)?\s*$")


class Expected(NamedTuple):
    order: UnitOrder
    outcome: Outcome
    dislodged: bool


def expectations(sc: Scenario) -> list[Expected]:
    """Each order's expected result as the file writes it beside the order."""
    state = scenario_state(sc, BOARD)
    out = []
    for ol in sc.orders:
        m = _EXPECTED.search(LINES[ol.line - 1])
        assert m, f"line {ol.line}: no expected result after the order"
        order = parse_order(ol.text, ol.power, state, case_file=True)
        assert isinstance(order, UnitOrder)
        out.append(Expected(order, Outcome(m.group(1)), bool(m.group(2))))
    return out


def adjudicated(name: str, edition: Edition) -> CaseRun:
    run = run_case(CASES[name], BOARD, RuleSet.for_edition(edition))
    assert run.state is not None and not run.unreadable, run.unreadable
    return run


def result_for(run: CaseRun, order: UnitOrder) -> OrderResult:
    found = [r for r in run.results if r.order == order]
    assert len(found) == 1, f"{len(found)} results for {order}"
    return found[0]


def test_the_file_reads_and_has_thirty_positions_of_our_own() -> None:
    assert not [i for i in ITEMS if isinstance(i, CaseError)]
    # a position in both editions' forms counts once
    assert len({name.rsplit(".", 1)[0] if name.endswith((".classic", ".2023")) else name for name in CASES}) >= 30
    assert all(sc.orders or sc.has_expectation for sc in CASES.values())


@pytest.mark.parametrize(("name", "edition"), RUNS, ids=[f"{n}-{e.value}" for n, e in RUNS])
def test_each_order_ends_as_the_rules_say(name: str, edition: Edition) -> None:
    run = adjudicated(name, edition)
    assert run.matched, "\n".join(run.mismatches)
    wrong = []
    for want in expectations(CASES[name]):
        got = result_for(run, want.order)
        if (got.outcome, got.dislodged) != (want.outcome, want.dislodged):
            wrong.append(f"{want.order}: {got.outcome.value}{', dislodged' if got.dislodged else ''} "
                         f"(expected {want.outcome.value}{', dislodged' if want.dislodged else ''}): {got.reason}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("name", "edition"), RUNS, ids=[f"{n}-{e.value}" for n, e in RUNS])
def test_every_explanation_holds_against_the_orders(name: str, edition: Edition) -> None:
    run = adjudicated(name, edition)
    assert run.state is not None
    problems = check_adjudication(run.state, run.results)
    assert not problems, "\n".join(problems)
    by = results_by_province(run.results)
    for r in by.values():
        assert explain(r, run.state, by).text().strip()


# -- the sentences a rules expert found false, misleading or citing the wrong rule in these positions --


def _explained(name: str, edition: Edition = Edition.CLASSIC) -> dict[str, tuple[str, str]]:
    """Each unit's explanation and the rule its result cites, by the unit's province."""
    run = adjudicated(name, edition)
    assert run.state is not None
    by = results_by_province(run.results)
    return {p: (explain(r, run.state, by).text(), r.rule) for p, r in by.items()}


def test_via_convoy_to_a_neighbour_without_a_fleet_2023_says_it_borders_and_cites_4a3() -> None:
    text, rule = _explained("via-convoy-without-fleet.2023", Edition.Y2023)["rom"]
    assert "a space it does not border" not in text  # Rome borders Naples
    assert "It borders Naples, but it was ordered \"via convoy\"" in text and "does not fall back" in text
    assert rule == "DATC 4.A.3"


def test_via_convoy_to_a_neighbour_without_a_fleet_classic_cites_the_fallback_not_xii6() -> None:
    text, rule = _explained("via-convoy-without-fleet.classic")["rom"]
    assert rule == "DATC 4.A.3"  # XII.6 says a "via convoy" army goes by convoy: it went over land
    assert "over land: it was ordered \"via convoy\", but no complete convoy was ordered" in text


def test_an_exchange_names_who_went_by_convoy() -> None:
    t = _explained("own-convoy-without-via")
    hol, kie = t["hol"][0], t["kie"][0]
    assert "moves to Kiel, exchanging places with the army in Kiel, which went by convoy" in hol
    assert "moves to Holland by convoy, exchanging places with the army in Holland" in kie
    # why an army that could go over land went by sea: its own power's fleet convoyed it
    assert "a fleet of its own power (Germany) was ordered to convoy it" in kie and "rule XII.6" in kie
    via = _explained("convoy-via-swap-with-land-move")["pic"][0]
    assert "It borders Belgium, but it was ordered \"via convoy\", so the convoy route is used" in via


def test_a_garrison_kept_by_its_own_powers_attack_is_not_a_standoff_of_equals() -> None:
    text, rule = _explained("beleaguered-by-its-own-power")["mun"]
    headline = text.split("\n")[0]
    assert "stood each other off" not in headline  # 3 against 2: Tyrolia was not stood off by Burgundy
    assert "the attack of the army in Burgundy, stronger than its hold, was stood off by the army in Tyrolia, " \
           "which may not dislodge it" in headline
    assert rule == "IX.3"
    # equally supported attacks are still IX.5's standoff
    text, rule = _explained("beleaguered-munich")["bur"]
    assert rule == "VIII" and "stood off with the army in Tyrolia" in text


def test_a_fleet_supporting_into_a_coast_it_cannot_reach_cites_vii_3_2() -> None:
    text, rule = _explained("coast-support-ignores-the-coast")["mar"]
    assert rule == "VII.3.2"
    assert "The fleet in Marseilles cannot move to Spain (nc), but it can move to Spain" in text


def test_the_move_that_stands_a_ring_off_is_told_the_standoff_not_the_unit_that_stayed() -> None:
    # Ukraine stood off Armenia (VIII); the fleet in Sevastopol stayed only because of that standoff
    text, rule = _explained("ring-black-sea-standoff")["ukr"]
    headline = text.split("\n")[0]
    assert "stood off with the army in Armenia, also moving to Sevastopol" in headline
    assert "failed to leave" not in headline
    assert "1 against 1: equal strengths stand each other off" in text
    assert rule == "VIII"
