"""Issue 18, point 2: every explanation of every order of every lesson file, under both editions,
held against the DATC's equations by :mod:`explanation_check` (which recomputes the strengths
itself, from the orders and their outcomes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from explanation_check import check_adjudication
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import EDITIONS, Position, _Chooser, pick_movement_orders, positions

from diplomacy_desktop.engine.movement import adjudicate_movement
from diplomacy_desktop.engine.results import StrengthKind
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import Scenario, read_scenarios

BOARD = load_board()
LESSONS = Path(__file__).parents[2] / "lessons"
FILES = sorted(LESSONS.glob("*.txt"))


def _cases(path: Path) -> list[Scenario]:
    return [sc for sc in read_scenarios(path.read_text(encoding="utf-8"), BOARD) if isinstance(sc, Scenario)]


@pytest.mark.parametrize("edition", [Edition.CLASSIC, Edition.Y2023], ids=["classic", "2023"])
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_explanations_hold_against_the_record(path: Path, edition: Edition) -> None:
    problems: list[str] = []
    explained = 0
    for sc in _cases(path):
        run = run_case(sc, BOARD, RuleSet.for_edition(edition))
        assert run.state is not None
        explained += len(run.results)
        problems.extend(f"{sc.name}: {p}" for p in check_adjudication(run.state, run.results))
    assert explained > 0
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_checker_catches_a_false_strength() -> None:
    """The checker is not fooled by wording: a figure changed in the text is caught."""
    from explanation_check import Checker

    from diplomacy_desktop.engine.explain import explain, results_by_province

    sc = next(s for s in _cases(LESSONS / "rulebook_examples.txt") if s.name == "Example 4")
    run = run_case(sc, BOARD, RuleSet.for_edition(Edition.CLASSIC))
    assert run.state is not None
    checker = Checker(run.state, run.results)
    by = results_by_province(run.results)
    rum = by["rum"]
    text = explain(rum, run.state, by).text()
    assert checker.check(rum, text) == []
    assert checker.check(rum, text.replace("attack strength 2", "attack strength 3"))
    assert checker.check(rum, text.replace("also moved to Serbia", "also moved to Serbia, and the army in Budapest "
                                           "attacked"))
    assert checker.check(rum, text.replace("2 against 2", "2 against 1"))
    assert checker.check(rum, text.replace("stood off with", "lost the head-to-head battle with"))
    assert checker.check(rum, text.replace("Rule VIII", "Rule IX.3"))
    assert checker.check(rum, text + "\nThe German army in Serbia held.")


# -- property tests: random positions and orders, the same invariants -------------------------------


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(position=positions(), rules=EDITIONS, data=st.data())
def test_explanations_hold_on_random_positions(position: Position, rules: RuleSet, data: st.DataObject) -> None:
    state = position.state()
    orders = pick_movement_orders(state, _Chooser(data=data))
    out = adjudicate_movement(state, orders, rules)
    problems = check_adjudication(state, out.results)
    assert not problems, "\n".join(problems[:10])
    for r in out.results:
        d = r.decision
        if d is None or d.subject is None or d.subject.kind is not StrengthKind.ATTACK or d.no_route:
            continue
        # the record agrees with the result it decided: a move succeeds exactly when its attack
        # is more than every strength against it (or it is part of a ring that moves together)
        beats = d.subject.value > d.strongest_opposition() and d.subject.value > 0
        assert r.succeeded == (beats or d.circular), r


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_formal_explanations_hold_on_random_positions(seed: int) -> None:
    import random

    from test_formal_properties import random_orders, random_position, random_relations

    rnd = random.Random(seed)
    state = random_position(rnd, random_relations(rnd))
    orders = random_orders(state, rnd)
    out = adjudicate_movement(state, orders, RuleSet.for_edition(Edition.Y2023))
    problems = check_adjudication(state, out.results)
    assert not problems, "\n".join(problems[:10])
