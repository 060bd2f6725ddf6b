"""The one-line reasons: the adjudicators set facts, engine.reasons writes every word (issue 32)."""

from __future__ import annotations

import re
from pathlib import Path

from diplomacy_desktop.engine.reasons import REASONS
from diplomacy_desktop.engine.results import Say
from diplomacy_desktop.engine.rules import CLASSIC
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import Scenario, read_scenarios

BOARD = load_board()
ENGINE = Path(__file__).parents[2] / "diplomacy_desktop" / "engine"

#: the adjudicators: they decide results and set the facts of each reason, in no words
ADJUDICATORS = ("movement.py", "retreats.py", "adjustments.py", "disorder.py")
#: not a result's reason: what civil disorder meant, and the warning before a power seals no
#: orders, both told to the table
NOT_REASONS = ("_TOLD = {", "def empty_seal_consequence(")


def _case(text: str) -> Scenario:
    (sc,) = read_scenarios(text, BOARD)
    assert isinstance(sc, Scenario)
    return sc


def test_the_adjudicators_write_no_sentences() -> None:
    # an f-string, or a string of several words, in the code (docstrings and comments aside)
    for name in ADJUDICATORS:
        source = (ENGINE / name).read_text(encoding="utf-8")
        for head in NOT_REASONS:  # up to the next top-level definition
            source = re.sub(re.escape(head) + r"(?:.|\n)*?(?=\n(?:def |class |__all__))", "", source)
        code = re.sub(r'"""(?:.|\n)*?"""', "", source)
        code = "\n".join(line.split("  #")[0] for line in code.splitlines()
                         if not line.lstrip().startswith("#") and "AssertionError(" not in line)
        fstrings = re.findall(r'\bf"[^"]*"', code)
        sentences = [s for s in re.findall(r'"([^"\n]*)"', code) if len(s.split()) >= 3
                     and not s.startswith("note to ")]  # a rule's id
        assert not fstrings, (name, fstrings)
        assert not sentences, (name, sentences)


def test_every_reason_has_a_writer() -> None:
    assert set(REASONS) == set(Say)


def test_reason_of_a_support_for_another_move_that_failed_does_not_say_it_moved() -> None:
    # the army in Munich was ordered to Kiel and bounced there: it did not move at all
    sc = _case("""CASE failed
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	Germany: A mun
	Germany: A bur
	France: A ruh
	France: F hol
ORDERS
	Germany: A mun - kie
	Germany: A bur S A mun - ruh
	France: A ruh - kie
	France: F hol S A ruh - kie
POSTSTATE_SAME
END
""")
    run = run_case(sc, BOARD, CLASSIC)
    support = next(r for r in run.results if r.order.province == "bur")  # type: ignore[attr-defined]
    assert support.reason == "void: the army in Munich was ordered to move to Kiel, not as supported"
    moved = next(r for r in run.results if r.order.province == "ruh")  # type: ignore[attr-defined]
    assert moved.reason.startswith("moves to Kiel")


def test_results_carry_the_facts_not_the_words() -> None:
    sc = _case("""CASE facts
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	Austria: A vie
	Austria: A bud
	Russia: A gal
ORDERS
	Austria: A vie - gal
	Austria: A bud S A vie - gal
	Russia: A gal H
POSTSTATE_SAME
END
""")
    run = run_case(sc, BOARD, CLASSIC)
    held = next(r for r in run.results if r.order.province == "gal")  # type: ignore[attr-defined]
    assert held.why.say is Say.DISLODGED_BY
    assert held.why.units == (("A", "vie"),) and held.why.numbers == (2, 1)
    assert held.reason == "dislodged by the army in Vienna (strength 2 against 1)"


def test_why_fields_in_declared_order() -> None:
    # engine/movement.py makes the facts of its commonest results with tuple.__new__ and every
    # field in this order: a field added, removed or moved must be followed there
    from diplomacy_desktop.engine.results import Why

    assert Why._fields == ("say", "board", "units", "spaces", "numbers", "powers", "mode", "detail", "then")
