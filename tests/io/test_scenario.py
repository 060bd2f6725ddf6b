"""DATC case files: lenient reading, errors that name the line, writing, and running a case."""

from __future__ import annotations

from pathlib import Path

import pytest

from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.rules import CLASSIC
from diplomacy_desktop.engine.state import FALL, MOVEMENT, RETREAT, SPRING, Phase, Unit
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import (
    CaseError,
    Scenario,
    ScenarioError,
    read_scenarios,
    scenario_state,
    write_scenarios,
)

BOARD = load_board()
TESTS = Path(__file__).resolve().parents[1]
FILES = sorted((TESTS.parent / "lessons").glob("*.txt"))


def read_one(text: str) -> Scenario | CaseError:
    (item,) = read_scenarios(text, BOARD)
    return item


def test_scenario_reading_is_lenient_where_the_meaning_is_clear() -> None:
    sc = read_one("""\
# a comment before the case
CASE lenient
PRESTATE_SETPHASE f1902m
PRESTATE_SUPPLYCENTER_OWNERS
  France par
  Frnace: bre
PRESTATE
  France a par
  Frnace: Fleet Brest
  england: F North Sea
  Russia: F stp(sc)
  Turkey: F Bulgaria south coast
ORDERS
  France A par - bur   # a comment after an order
POSTSTATE_SAME
END
""")
    assert isinstance(sc, Scenario)
    assert sc.phase == Phase(1902, FALL, MOVEMENT)
    assert sc.owners == {"par": "france", "bre": "france"}
    assert sc.units == [Unit("france", "A", "par"), Unit("france", "F", "bre"), Unit("england", "F", "nth"),
                        Unit("russia", "F", "stp/sc"), Unit("turkey", "F", "bul/sc")]
    assert [(o.power, o.text, o.line) for o in sc.orders] == [("france", "A par - bur", 14)]
    assert sc.post_same and sc.comments == ["a comment before the case"]


@pytest.mark.parametrize(("text", "phase"), [
    ("Spring 1901, Movement", Phase(1901, SPRING, MOVEMENT)),
    ("Fall 1905, Retreat", Phase(1905, FALL, RETREAT)),
    ("Winter 1903", Phase(1903, FALL, "adjustment")),
    ("Fall 1901, Adjustment", Phase(1901, FALL, "adjustment")),
    ("S1901R", Phase(1901, SPRING, RETREAT)),
    ("autumn 1910 movement", Phase(1910, FALL, MOVEMENT)),
])
def test_scenario_phase_forms(text: str, phase: Phase) -> None:
    sc = read_one(f"CASE p\nPRESTATE_SETPHASE {text}\nEND\n")
    assert isinstance(sc, Scenario) and sc.phase == phase


def test_scenario_without_a_phase_line_is_spring_1901_movement() -> None:
    sc = read_one("CASE p\nPRESTATE\n\tFrance: A par\nEND\n")
    assert isinstance(sc, Scenario) and sc.phase == Phase(1901, SPRING, MOVEMENT)


@pytest.mark.parametrize(("text", "line", "words"), [
    ("CASE x\nPRESTATE\n France: F spa\nEND\n", 3, "needs its coast"),
    ("CASE x\nPRESTATE\n France: A nth\nEND\n", 3, "cannot stand in North Sea"),
    ("CASE x\nPRESTATE\n Germany: spa\nEND\n", 3, "army (A) or a fleet (F)"),
    ("CASE x\nPRESTATE\n Narnia: A par\nEND\n", 3, "unknown power 'Narnia'"),
    ("CASE x\nPRESTATE\n France: A xyz\nEND\n", 3, "not a space"),
    ("CASE x\nPRESTATE\n France: A par\n Germany: A par\nEND\n", 4, "two units in Paris"),
    ("CASE x\nPRESTATE_SETPHASE Summer\nEND\n", 2, "cannot read the phase"),
    ("CASE x\nPRESTATE foo\nEND\n", 2, "unexpected text after PRESTATE"),
    ("CASE x\n France: A par\nEND\n", 2, "not a section keyword"),
    ("CASE x\nPRESTATE_SUPPLYCENTER_OWNERS\n France: bur\nEND\n", 3, "not a supply centre"),
    ("CASE x\nPRESTATE_RESULTS\n MAYBE: France: A par-bur\nEND\n", 3, "SUCCESS: or FAILURE:"),
    ("CASE x\nPRESTATE\n France: A par\n", 1, "has no END"),
    ("CASE x\nPRESTATE\n France: A par\nCASE y\nEND\n", 4, "has no END"),
])
def test_scenario_errors_name_the_line(text: str, line: int, words: str) -> None:
    err = read_scenarios(text, BOARD)[0]
    assert isinstance(err, CaseError) and err.name == "x"
    assert err.line == line
    assert err.message.startswith(f"line {line}: ") and words in err.message


def test_scenario_an_unreadable_case_does_not_stop_the_next() -> None:
    items = read_scenarios("CASE bad\nPRESTATE\n Narnia: A par\nEND\nCASE good\nPRESTATE\n France: A par\nEND\n", BOARD)
    assert [type(i).__name__ for i in items] == ["CaseError", "Scenario"]
    assert isinstance(items[1], Scenario) and items[1].units == [Unit("france", "A", "par")]


def test_scenario_text_outside_a_case_is_an_error() -> None:
    (err,) = read_scenarios("PRESTATE\n", BOARD)
    assert isinstance(err, CaseError) and "outside a CASE" in err.message


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_scenario_write_then_read_gives_the_same_cases(path: Path) -> None:
    cases = [i for i in read_scenarios(path.read_text(encoding="utf-8"), BOARD) if isinstance(i, Scenario)]
    again = read_scenarios(write_scenarios(cases, BOARD), BOARD)
    assert len(again) == len(cases)
    for a, b in zip(cases, again):
        assert isinstance(b, Scenario), b
        assert (a.name, a.phase, a.owners, a.units, a.dislodged, a.post_units, a.post_dislodged, a.post_same) == (
            b.name, b.phase, b.owners, b.units, b.dislodged, b.post_units, b.post_dislodged, b.post_same)
        assert [(o.power, o.text, o.success) for o in a.orders + a.results] == [
            (o.power, o.text, o.success) for o in b.orders + b.results]


def test_scenario_retreat_case_recovers_attacker_and_standoffs_from_the_results() -> None:
    sc = read_one("""\
CASE retreat
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
\tAustria: A mun
\tAustria: A tyr
\tFrance: A bur
\tGermany: A kie
PRESTATE_DISLODGED
\tGermany: A mun
PRESTATE_RESULTS
\tSUCCESS: Austria: A boh-mun
\tSUCCESS: Austria: A tyr S A boh-mun
\tFAILURE: France: A bur-ruh
\tFAILURE: Germany: A kie-ruh
ORDERS
\tGermany: A mun-ruh
\tGermany: A mun-boh
POSTSTATE
\tAustria: A mun
\tAustria: A tyr
\tFrance: A bur
\tGermany: A kie
END
""")
    assert isinstance(sc, Scenario)
    state = scenario_state(sc, BOARD)
    (d,) = state.dislodged
    assert d.attacker_from == "boh" and not d.by_convoy
    assert state.contested == {"ruh"}
    run = run_case(sc, BOARD, CLASSIC)
    assert run.matched, run.mismatches
    illegal = [r for r in run.results if r.outcome is Outcome.ILLEGAL]
    assert {r.order.destination for r in illegal} == {"ruh", "boh"}  # type: ignore[attr-defined]


JDIP_NAMES = """\
CASE jdip names
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE
\tEngland: F nor
\tEngland: F nth
\tRussia: A Galacia
\tRussia: F ska
ORDERS
\tEngland: F nor S F nth-ska
\tEngland: F nth-ska
\tRussia: F ska-nor
\tRussia: A Galacia-Boh
POSTSTATE
\tEngland: F nor
\tEngland: F ska
\tRussia: A boh
POSTSTATE_DISLODGED
\tRussia: F ska
END
"""


def test_scenario_reads_jdips_names_nor_is_norway_and_a_misspelt_space() -> None:
    (sc,) = read_scenarios(JDIP_NAMES, BOARD)
    assert isinstance(sc, Scenario)
    assert Unit("england", "F", "nwy") in sc.units
    assert Unit("russia", "A", "gal") in sc.units
    run = run_case(sc, BOARD, CLASSIC)
    assert run.matched, run.mismatches
    assert not run.unreadable


def test_scenario_nor_stays_ambiguous_in_typed_orders() -> None:
    from diplomacy_desktop.engine.errors import AmbiguousOrderError
    from diplomacy_desktop.io.notation import parse_order

    (sc,) = read_scenarios(JDIP_NAMES, BOARD)
    assert isinstance(sc, Scenario)
    state = scenario_state(sc, BOARD)
    with pytest.raises(AmbiguousOrderError):
        parse_order("F Ska - Nor", "russia", state, strict=True)
    assert parse_order("F Ska - Nor", "russia", state, case_file=True).destination == "nwy"  # type: ignore[attr-defined]


def test_scenario_comments_are_only_the_block_right_above_the_case() -> None:
    text = """# a file header
# about many cases

# the case's own text
CASE One
PRESTATE
  France: A par
ORDERS
  France: A par H
POSTSTATE_SAME
END
"""
    (sc,) = read_scenarios(text, BOARD)
    assert sc.comments[0] == "the case's own text" and not any("header" in c for c in sc.comments)


# -- PRESTATE_STANDOFFS (the sandbox's standoff marks for a retreat lesson, issue 18) ----------------

_STANDOFF_CASE = """CASE marks
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
\tFrance: A Munich
PRESTATE_DISLODGED
\tGermany: A Munich
PRESTATE_STANDOFFS
\tSilesia
\tboh
ORDERS
END
"""


def test_scenario_standoffs_section_read_written_and_forbid_the_retreat() -> None:
    from diplomacy_desktop.engine.validation import retreat_destinations
    from diplomacy_desktop.io.scenario import write_scenario

    board = load_board("standard")
    (sc,) = read_scenarios(_STANDOFF_CASE, board)
    assert isinstance(sc, Scenario) and sc.standoffs == ["sil", "boh"]
    state = scenario_state(sc, board)
    assert state.contested == frozenset({"sil", "boh"})
    assert not {"sil", "boh"} & set(retreat_destinations(state, "mun"))
    text = write_scenario(sc, board)
    assert "PRESTATE_STANDOFFS\n\tBohemia\n\tSilesia\n" in text
    (again,) = read_scenarios(text, board)
    assert isinstance(again, Scenario) and scenario_state(again, board).contested == state.contested
    # no marks: no section (the file stays plain DATC)
    sc.standoffs = None
    assert "PRESTATE_STANDOFFS" not in write_scenario(sc, board)


@pytest.mark.parametrize(("change", "message"), [
    (("\tSilesia\n", "\tAtlantis\n"), "line 8: cannot read the space 'Atlantis'"),
    (("Retreat", "Movement"), "PRESTATE_STANDOFFS is for a retreat phase"),
    (("\tSilesia\n", "\tMunich\n"), "PRESTATE_STANDOFFS marks mun, where a unit stands"),
])
def test_scenario_standoffs_section_refuses_what_cannot_be(change: tuple[str, str], message: str) -> None:
    board = load_board("standard")
    (item,) = read_scenarios(_STANDOFF_CASE.replace(*change), board)
    if isinstance(item, CaseError):
        assert message in item.message
        return
    with pytest.raises(ScenarioError, match=message):
        scenario_state(item, board)
