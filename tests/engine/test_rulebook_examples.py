"""The numbered examples of the rules (seed 000, IX-XII), each its own test, under both editions.

The positions are in ``rulebook_examples.txt`` (DATC case format).  Each test runs its case
through :func:`diplomacy_desktop.io.caserun.run_case`, checks the expected position, and then
checks the order results the example's text states: which moves fail and why, which supports
are cut, which convoys are disrupted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from diplomacy_desktop.engine.board import IMPASSABLE
from diplomacy_desktop.engine.orders import UnitOrder
from diplomacy_desktop.engine.results import OrderResult, Outcome
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.engine.turns import adjudicate_phase
from diplomacy_desktop.engine.validation import retreat_destinations
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import CaseRun, run_case
from diplomacy_desktop.io.notation import parse_order
from diplomacy_desktop.io.scenario import CaseError, Scenario, read_scenarios, scenario_state

BOARD = load_board()
FILE = Path(__file__).resolve().parents[2] / "lessons" / "rulebook_examples.txt"
ITEMS = read_scenarios(FILE.read_text(encoding="utf-8"), BOARD)
CASES = {sc.name: sc for sc in ITEMS if isinstance(sc, Scenario)}

SUCCESS, FAILURE, VOID = Outcome.SUCCESS, Outcome.FAILURE, Outcome.VOID

editions = pytest.mark.parametrize("edition", list(Edition), ids=[e.value for e in Edition])


class Ran:
    """A case adjudicated under one edition, with its results filed by the unit's province."""

    def __init__(self, name: str, edition: Edition) -> None:
        self.scenario = CASES[name]
        self.run: CaseRun = run_case(self.scenario, BOARD, RuleSet.for_edition(edition))
        assert self.run.checked, f"{name} has no expected position"
        assert self.run.matched, "\n".join(self.run.mismatches)
        self.by_province: dict[str, OrderResult] = {}
        for r in self.run.results:
            assert isinstance(r.order, UnitOrder), r
            assert r.order.province not in self.by_province, f"two results for {r.order.province}"
            assert r.reason.strip(), r
            self.by_province[r.order.province] = r
        # every unit of the position got exactly one result
        assert set(self.by_province) == {u.province for u in self.scenario.units}
        provinces = [u.province for u in self.run.units]
        assert len(provinces) == len(set(provinces))
        assert all(BOARD.spaces[p].kind != IMPASSABLE for p in provinces)
        # the results' dislodged flags agree with the position
        assert {p for p, r in self.by_province.items() if r.dislodged} == {u.province for u in self.run.dislodged}

    def __getitem__(self, province: str) -> OrderResult:
        return self.by_province[province]

    def expect(self, province: str, outcome: Outcome, code: str | None = None) -> OrderResult:
        r = self.by_province[province]
        assert r.outcome is outcome, f"{province}: {r}"
        if code is not None:
            assert r.code == code, f"{province}: {r}"
        return r


def test_rulebook_file_has_examples_1_to_13() -> None:
    assert not [i for i in ITEMS if isinstance(i, CaseError)]
    numbered = {name for name in CASES if name.startswith("Example ") and name.split()[1].isdigit()
                and len(name.split()) == 2}
    assert numbered == {f"Example {n}" for n in range(1, 14)}
    # every case in the file (variants included) is tested below
    assert set(CASES) == set(CASES_TESTED)


# -- IX.3 self-dislodgement prohibited ---------------------------------------------------------


@editions
def test_rulebook_example_1(edition: Edition) -> None:
    # ENGLAND: (F Den-Kie), (F Nth-Den), F Hel S F Nth-Den.
    # RUSSIA: (A Ber-Kie), F Bal S F Ska-Den, (F Ska-Den).
    r = Ran("Example 1", edition)
    assert r.expect("den", FAILURE, "bounced").involved == ("ber",)
    assert r.expect("ber", FAILURE, "bounced").involved == ("den",)
    # England cannot dislodge its own unit ...
    r.expect("nth", FAILURE, "own_unit")
    r.expect("hel", SUCCESS, "supported")
    r.expect("bal", SUCCESS, "supported")
    # ... but its supported attack stands off the supported Russian attack on Denmark
    ska = r.expect("ska", FAILURE, "bounced")
    assert ska.involved == ("nth",)
    assert (ska.strength, ska.opposition) == (2, 2)
    assert not any(x.dislodged for x in r.run.results)


@editions
def test_rulebook_example_2(edition: Edition) -> None:
    # FRANCE: A Bur H. GERMANY: (A Mun-Bur), A Kie S AUSTRIAN A Boh-Mun. AUSTRIA: (A Boh-Mun).
    r = Ran("Example 2", edition)
    r.expect("bur", SUCCESS, "holds")
    r.expect("mun", FAILURE, "bounced")
    boh = r.expect("boh", FAILURE, "bounced")
    # the German support does not count against a German unit: 1 against 1
    assert (boh.strength, boh.opposition) == (1, 1)
    assert not r["mun"].dislodged


@editions
def test_rulebook_example_2_with_austrian_support(edition: Edition) -> None:
    # "if Austria had supported its attack on Munich with one of its own units, say AUSTRIA:
    # A Tyr S A Boh-Mun, then the German unit in Munich would have been dislodged"
    r = Ran("Example 2 with Austrian support", edition)
    boh = r.expect("boh", SUCCESS, "moved")
    assert (boh.strength, boh.opposition) == (2, 1)  # the German support still does not count
    mun = r.expect("mun", FAILURE, "bounced")
    assert mun.dislodged and mun.dislodged_by == "boh"
    r.expect("tyr", SUCCESS, "supported")


# -- IX.4 self-standoff ------------------------------------------------------------------------


@editions
def test_rulebook_example_3(edition: Edition) -> None:
    # AUSTRIA: A Ser-Bud, (A Vie-Bud). RUSSIA: A Gal S AUSTRIAN A Ser-Bud.
    r = Ran("Example 3", edition)
    ser = r.expect("ser", SUCCESS, "moved")
    assert ser.strength == 2
    vie = r.expect("vie", FAILURE, "bounced")
    assert vie.involved == ("ser",)
    r.expect("gal", SUCCESS, "supported")


@editions
def test_rulebook_example_3_with_an_austrian_army_in_budapest(edition: Edition) -> None:
    # "It would not succeed if there were an Austrian army already in Budapest."
    r = Ran("Example 3 with an Austrian army in Budapest", edition)
    r.expect("ser", FAILURE, "own_unit")
    r.expect("vie", FAILURE)
    r.expect("bud", SUCCESS, "holds")
    assert not r["bud"].dislodged


@editions
def test_rulebook_example_3_with_austrian_support(edition: Edition) -> None:
    # "the move succeeds whether the support is from a foreign unit ... or from a unit of the same country"
    r = Ran("Example 3 with Austrian support", edition)
    r.expect("ser", SUCCESS, "moved")
    r.expect("vie", FAILURE, "bounced")
    r.expect("gal", SUCCESS, "supported")


# -- IX.5 beleaguered garrison -----------------------------------------------------------------


@editions
def test_rulebook_example_4(edition: Edition) -> None:
    # AUSTRIA: A Ser H. RUSSIA: (A Rum-Ser), A Bud S A Rum-Ser. TURKEY: (A Bul-Ser), A Gre S A Bul-Ser.
    r = Ran("Example 4", edition)
    ser = r.expect("ser", SUCCESS, "holds")
    assert not ser.dislodged  # "nothing happens to the Austrian Army"
    rum = r.expect("rum", FAILURE, "bounced")
    bul = r.expect("bul", FAILURE, "bounced")
    assert (rum.strength, rum.opposition) == (2, 2)
    assert (bul.strength, bul.opposition) == (2, 2)
    r.expect("bud", SUCCESS, "supported")
    r.expect("gre", SUCCESS, "supported")


@editions
def test_rulebook_example_4_with_the_garrison_supporting(edition: Edition) -> None:
    # "If it tried to support, however, its support would have been cut by either or both of the two attacks."
    r = Ran("Example 4 with the garrison supporting", edition)
    ser = r.expect("ser", FAILURE, "cut")
    assert set(ser.involved) == {"rum", "bul"}
    assert not ser.dislodged


# -- IX.7 dislodgement of a piece participating in a standoff ----------------------------------


@editions
def test_rulebook_example_5(edition: Edition) -> None:
    # TURKEY: (A Bul-Rum). RUSSIA: A Rum-Bul, A Ser S A Rum-Bul, A Sev-Rum.
    r = Ran("Example 5", edition)
    bul = r.expect("bul", FAILURE)
    assert bul.dislodged and bul.dislodged_by == "rum"
    r.expect("rum", SUCCESS, "moved")
    # A Sev moves although the Turkish army was ordered to the same space
    sev = r.expect("sev", SUCCESS, "moved")
    assert sev.opposition == 0
    r.expect("ser", SUCCESS, "supported")


@editions
def test_rulebook_example_5_without_the_move_from_sevastopol(edition: Edition) -> None:
    # "if Russia had not ordered A Sev-Rum, Rumania would have been vacant for purposes of
    # another unit's retreat": no standoff there; the dislodged army still may not retreat to
    # the space its attacker came from.
    name = "Example 5 without the move from Sevastopol"
    r = Ran(name, edition)
    r.expect("bul", FAILURE)
    assert r["bul"].dislodged_by == "rum"
    state = scenario_state(CASES[name], BOARD)
    orders = [parse_order(o.text, o.power, state) for o in CASES[name].orders]
    out = adjudicate_phase(state, orders, RuleSet.for_edition(edition))
    after = out.after
    assert "rum" not in after.units
    assert "rum" not in after.contested
    dests = retreat_destinations(after, "bul")
    assert "rum" not in dests  # the attacker came from there
    assert dests == ["con", "gre"]


@editions
def test_rulebook_example_6(edition: Edition) -> None:
    # TURKEY: (A Bul-Rum), F Bla S A Bul-Rum.
    # RUSSIA: A Rum-Bul, A Gre S A Rum-Bul, A Ser S A Rum-Bul, A Sev-Rum.
    r = Ran("Example 6", edition)
    bul = r.expect("bul", FAILURE, "head_to_head")
    assert bul.dislodged and bul.dislodged_by == "rum"
    rum = r.expect("rum", SUCCESS, "moved")
    assert (rum.strength, rum.opposition) == (3, 2)
    # even with support the dislodged Turkish army does not stop the unsupported move into Rumania
    sev = r.expect("sev", SUCCESS, "moved")
    assert (sev.strength, sev.opposition) == (1, 0)
    r.expect("bla", SUCCESS, "supported")
    r.expect("gre", SUCCESS, "supported")
    r.expect("ser", SUCCESS, "supported")


# -- X. cutting support ------------------------------------------------------------------------


@editions
def test_rulebook_example_7(edition: Edition) -> None:
    # GERMANY: (A Pru-War), (A Sil S A Pru-War). RUSSIA: A War H, (A Boh-Sil).
    r = Ran("Example 7", edition)
    sil = r.expect("sil", FAILURE, "cut")
    assert sil.involved == ("boh",)  # cut by the attack from Bohemia
    assert not sil.dislodged
    pru = r.expect("pru", FAILURE, "bounced")
    assert (pru.strength, pru.opposition) == (1, 1)
    r.expect("war", SUCCESS, "holds")
    r.expect("boh", FAILURE, "bounced")


@editions
def test_rulebook_example_8(edition: Edition) -> None:
    # GERMANY: A Pru-War, A Sil S A Pru-War. RUSSIA: (A War-Sil).
    r = Ran("Example 8", edition)
    # not cut by the attack from Warsaw, the space support is given into
    r.expect("sil", SUCCESS, "supported")
    pru = r.expect("pru", SUCCESS, "moved")
    assert (pru.strength, pru.opposition) == (2, 1)
    war = r.expect("war", FAILURE, "bounced")
    assert war.dislodged and war.dislodged_by == "pru"


@editions
def test_rulebook_example_9(edition: Edition) -> None:
    # As printed: GERMANY: (A Ber-Pru), (A Sil S A Pru-War).
    # RUSSIA: A Pru-Sil, A War S A Pru-Sil, (F Bal-Pru).
    r = Ran("Example 9", edition)
    sil = r["sil"]
    assert not sil.succeeded
    # the printed support names a move the Russian army did not make, so it gives nothing
    assert sil.outcome is VOID
    assert sil.dislodged and sil.dislodged_by == "pru"
    r.expect("pru", SUCCESS, "moved")
    r.expect("war", SUCCESS, "supported")
    # "the German A Ber can only standoff the Russian F Bal"
    ber = r.expect("ber", FAILURE, "bounced")
    assert ber.involved == ("bal",) and (ber.strength, ber.opposition) == (1, 1)
    bal = r.expect("bal", FAILURE, "bounced")
    assert bal.involved == ("ber",)


@editions
def test_rulebook_example_9_as_explained(edition: Edition) -> None:
    # GERMANY: (A Ber-Pru), (A Sil S A Ber-Pru). RUSSIA: A Pru-Sil, A War S A Pru-Sil, (F Bal-Pru).
    r = Ran("Example 9 as explained", edition)
    # "the German army in Silesia is dislodged by the Russian army coming from Prussia. The
    # support of the Silesian army is thus cut"
    sil = r.expect("sil", FAILURE, "cut")
    assert sil.dislodged and sil.dislodged_by == "pru"
    assert sil.involved == ("pru",)
    r.expect("pru", SUCCESS, "moved")
    ber = r.expect("ber", FAILURE, "bounced")
    assert ber.involved == ("bal",) and (ber.strength, ber.opposition) == (1, 1)
    r.expect("bal", FAILURE, "bounced")


@editions
def test_rulebook_example_10(edition: Edition) -> None:
    # GERMANY: A Ber H, (A Mun-Sil).
    # RUSSIA: (A Pru-Ber), (A Sil S A Pru-Ber), A Boh-Mun, A Tyr S A Boh-Mun.
    r = Ran("Example 10", edition)
    mun = r.expect("mun", FAILURE, "bounced")
    assert mun.dislodged and mun.dislodged_by == "boh"
    # ... but it still cuts the support of the Russian army in Silesia
    sil = r.expect("sil", FAILURE, "cut")
    assert sil.involved == ("mun",)
    pru = r.expect("pru", FAILURE, "bounced")
    assert (pru.strength, pru.opposition) == (1, 1)
    ber = r.expect("ber", SUCCESS, "holds")
    assert not ber.dislodged
    r.expect("boh", SUCCESS, "moved")
    r.expect("tyr", SUCCESS, "supported")


# -- XII. convoys ------------------------------------------------------------------------------


@editions
def test_rulebook_example_11(edition: Edition) -> None:
    # FRANCE: (A Spa-Nap), F Lyo C A Spa-Nap, (F Tyr C A Spa-Nap). ITALY: F Ion-Tyr, F Tun S F Ion-Tyr.
    r = Ran("Example 11", edition)
    tys = r.expect("tys", FAILURE, "disrupted")
    assert tys.dislodged and tys.dislodged_by == "ion"
    # "consequently, the army does not move from Spain to Naples"
    spa = r.expect("spa", FAILURE, "no_convoy")
    assert "Tyrrhenian" in spa.reason
    # issue 18: the fleet in the Gulf of Lyon was not dislodged, but the army did not go by convoy
    lyo = r.expect("lyo", FAILURE, "convoy_unused")
    assert lyo.rule == "XII.3" and not lyo.dislodged
    r.expect("ion", SUCCESS, "moved")
    r.expect("tun", SUCCESS, "supported")


@editions
def test_rulebook_example_12(edition: Edition) -> None:
    # ENGLAND: A Lon-Bel, (F Eng C A Lon-Bel), F Nth C A Lon-Bel; FRANCE: F Bre-Eng, F Iri S Bre-Eng.
    r = Ran("Example 12", edition)
    # two routes, only one disrupted: the army arrives
    lon = r.expect("lon", SUCCESS, "moved")
    assert "convoy" in lon.reason
    eng = r.expect("eng", FAILURE, "disrupted")
    assert eng.dislodged and eng.dislodged_by == "bre"
    r.expect("nth", SUCCESS, "convoyed")
    r.expect("bre", SUCCESS, "moved")
    r.expect("iri", SUCCESS, "supported")


@editions
def test_rulebook_example_13(edition: Edition) -> None:
    # FRANCE: (A Spa-Nap), F Lyo C A Spa-Nap, (F Tyr C A Spa-Nap); ITALY: F Ion-Tyr, F Nap S F Ion-Tyr.
    r = Ran("Example 13", edition)
    # the convoyed army's attack does not cut the support of the fleet in Naples
    nap = r.expect("nap", SUCCESS, "supported")
    assert not nap.dislodged
    tys = r.expect("tys", FAILURE)
    assert tys.dislodged and tys.dislodged_by == "ion"
    r.expect("spa", FAILURE, "no_convoy")
    ion = r.expect("ion", SUCCESS, "moved")
    assert (ion.strength, ion.opposition) == (2, 1)
    r.expect("lyo", FAILURE, "convoy_unused")  # issue 18: the army did not go by convoy


CASES_TESTED = [
    "Example 1", "Example 2", "Example 2 with Austrian support", "Example 3",
    "Example 3 with an Austrian army in Budapest", "Example 3 with Austrian support", "Example 4",
    "Example 4 with the garrison supporting", "Example 5", "Example 5 without the move from Sevastopol",
    "Example 6", "Example 7", "Example 8", "Example 9", "Example 9 as explained", "Example 10",
    "Example 11", "Example 12", "Example 13",
]
