"""How the adjudicator keeps its results and decision records (issue 18, point 1: explanations
from the adjudicator's decisions at the engine's old speed): results made field by field in the
order ``OrderResult`` declares, and records built only when read, from an adjudication that is
freed as soon as nothing holds its results."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from diplomacy_desktop.engine.explain import explain, results_by_province
from diplomacy_desktop.engine.movement import adjudicate_movement
from diplomacy_desktop.engine.results import Decision, DecisionTable, OrderResult, Outcome, ResultCode
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import Scenario, read_scenarios

BOARD = load_board()
LESSONS = Path(__file__).parents[2] / "lessons"


def _scenarios() -> Iterator[Scenario]:
    for path in sorted(LESSONS.glob("*.txt")):
        for sc in read_scenarios(path.read_text(encoding="utf-8"), BOARD):
            if isinstance(sc, Scenario):
                yield sc


SCENARIOS = list(_scenarios())


def test_movement_records_result_fields_in_declared_order() -> None:
    # engine/movement.py makes its commonest results with tuple.__new__ and every field in this
    # order (a named tuple's own __new__ is a Python call per order); a field added, removed or
    # moved must be followed there
    assert OrderResult._fields == ("order", "outcome", "code", "why", "involved", "strength", "opposition",
                                   "dislodged", "dislodged_by", "rule", "supports", "not_counted", "route",
                                   "record")


@pytest.mark.parametrize("edition", [Edition.CLASSIC, Edition.Y2023], ids=["classic", "2023"])
def test_movement_records_every_field_has_its_type(edition: Edition) -> None:
    rules = RuleSet.for_edition(edition)
    seen = 0
    for sc in SCENARIOS:
        run = run_case(sc, BOARD, rules)
        for r in run.results:
            seen += 1
            assert isinstance(r, OrderResult)
            assert isinstance(r.outcome, Outcome) and isinstance(r.code, ResultCode), r
            assert isinstance(r.reason, str) and r.reason and isinstance(r.rule, str), r
            assert isinstance(r.involved, tuple) and all(isinstance(p, str) for p in r.involved), r
            assert r.strength is None or isinstance(r.strength, int), r
            assert r.opposition is None or isinstance(r.opposition, int), r
            assert isinstance(r.dislodged, bool) and (r.dislodged_by is None) == (not r.dislodged), r
            assert isinstance(r.supports, tuple) and isinstance(r.not_counted, tuple), r
            assert isinstance(r.route, tuple), r
            assert r.record is None or isinstance(r.record, (Decision, DecisionTable)), r
            assert r.decision is None or isinstance(r.decision, Decision), r
    assert seen > 900


def test_movement_records_leave_no_reference_cycles() -> None:
    # the results hold the adjudication (to build a record when it is read); nothing may hold
    # them back, or every adjudication's lists would wait for the cycle collector, which then
    # runs more often and longer (the engine benchmark measured 8% for it)
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for edition in (Edition.CLASSIC, Edition.Y2023):
            for sc in SCENARIOS:
                run = run_case(sc, BOARD, RuleSet.for_edition(edition))
                by_province = results_by_province(run.results)
                for r in run.results:
                    r.decision  # noqa: B018  (built when read)
                    explain(r, run.state, by_province)  # type: ignore[arg-type]
                del run, by_province
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()


def test_movement_records_are_the_same_read_at_once_or_later() -> None:
    # a record built when it is first read is the one the adjudicator would have built at once
    sc = next(s for s in SCENARIOS if s.name == "6.C.3")
    run = run_case(sc, BOARD, RuleSet.for_edition(Edition.Y2023))
    assert run.state is not None
    orders = [r.order for r in run.results]
    early = adjudicate_movement(run.state, orders)
    first = [r.decision for r in early.results]
    late = adjudicate_movement(run.state, orders)
    assert [r.decision for r in reversed(late.results)][::-1] == first
    assert any(d is not None and d.subject is not None for d in first)
