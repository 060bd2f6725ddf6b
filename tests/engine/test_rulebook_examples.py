"""The numbered examples of the rules (seed 000, IX-XII), each its own test, under both editions.

The positions are in ``rulebook_examples.txt`` (DATC case format).  Each test runs its case
through :func:`diplomacy_desktop.io.caserun.run_case`, checks the expected position, and then
checks the order results the example's text states: which moves fail and why, which supports
are cut, which convoys are disrupted.
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class Expect:
    """What the example's text says of one unit's order: its outcome and, where the text says
    so, its result code, the units it met, its strength against the opposition, whether and by
    whom it was dislodged, a word of its reason and the rule it cites."""

    province: str
    outcome: Outcome
    code: str | None = None
    involved: tuple[str, ...] | frozenset[str] | None = None
    strength: int | None = None
    opposition: int | None = None
    dislodged: bool | None = None
    dislodged_by: str | None = None
    reason_has: str | None = None
    rule: str | None = None

    def check(self, ran: Ran) -> None:
        r = ran.expect(self.province, self.outcome, self.code)
        if isinstance(self.involved, frozenset):
            assert frozenset(r.involved) == self.involved, f"{self.province}: {r}"
        elif self.involved is not None:
            assert r.involved == self.involved, f"{self.province}: {r}"
        if self.strength is not None:
            assert r.strength == self.strength, f"{self.province}: {r}"
        if self.opposition is not None:
            assert r.opposition == self.opposition, f"{self.province}: {r}"
        if self.dislodged_by is not None:
            assert r.dislodged and r.dislodged_by == self.dislodged_by, f"{self.province}: {r}"
        elif self.dislodged is not None:
            assert r.dislodged == self.dislodged, f"{self.province}: {r}"
        if self.reason_has is not None:
            assert self.reason_has in r.reason, f"{self.province}: {r}"
        if self.rule is not None:
            assert r.rule == self.rule, f"{self.province}: {r}"


E = Expect
#: each example's units and what its text says of them (seed 000, IX-XII); a case whose text says
#: no unit is dislodged lists every unit with dislodged=False
EXAMPLES: dict[str, list[Expect]] = {
    # -- IX.3 self-dislodgement prohibited
    # ENGLAND: (F Den-Kie), (F Nth-Den), F Hel S F Nth-Den. RUSSIA: (A Ber-Kie), F Bal S F Ska-Den, (F Ska-Den).
    # England cannot dislodge its own unit, but its supported attack stands off the supported
    # Russian attack on Denmark.
    "Example 1": [
        E("den", FAILURE, "bounced", involved=("ber",), dislodged=False),
        E("ber", FAILURE, "bounced", involved=("den",), dislodged=False),
        E("nth", FAILURE, "own_unit", dislodged=False), E("hel", SUCCESS, "supported", dislodged=False),
        E("bal", SUCCESS, "supported", dislodged=False),
        E("ska", FAILURE, "bounced", involved=("nth",), strength=2, opposition=2, dislodged=False),
    ],
    # FRANCE: A Bur H. GERMANY: (A Mun-Bur), A Kie S AUSTRIAN A Boh-Mun. AUSTRIA: (A Boh-Mun).
    # The German support does not count against a German unit: 1 against 1.
    "Example 2": [
        E("bur", SUCCESS, "holds"), E("boh", FAILURE, "bounced", strength=1, opposition=1),
        E("mun", FAILURE, "bounced", dislodged=False),
    ],
    # "if Austria had supported its attack on Munich with one of its own units, say AUSTRIA:
    # A Tyr S A Boh-Mun, then the German unit in Munich would have been dislodged"
    "Example 2 with Austrian support": [
        E("boh", SUCCESS, "moved", strength=2, opposition=1),  # the German support still does not count
        E("mun", FAILURE, "bounced", dislodged_by="boh"), E("tyr", SUCCESS, "supported"),
    ],
    # -- IX.4 self-standoff
    # AUSTRIA: A Ser-Bud, (A Vie-Bud). RUSSIA: A Gal S AUSTRIAN A Ser-Bud.
    "Example 3": [
        E("ser", SUCCESS, "moved", strength=2), E("vie", FAILURE, "bounced", involved=("ser",)),
        E("gal", SUCCESS, "supported"),
    ],
    # "It would not succeed if there were an Austrian army already in Budapest."
    "Example 3 with an Austrian army in Budapest": [
        E("ser", FAILURE, "own_unit"), E("vie", FAILURE), E("bud", SUCCESS, "holds", dislodged=False),
    ],
    # "the move succeeds whether the support is from a foreign unit ... or from a unit of the same country"
    "Example 3 with Austrian support": [
        E("ser", SUCCESS, "moved"), E("vie", FAILURE, "bounced"), E("gal", SUCCESS, "supported"),
    ],
    # -- IX.5 beleaguered garrison
    # AUSTRIA: A Ser H. RUSSIA: (A Rum-Ser), A Bud S A Rum-Ser. TURKEY: (A Bul-Ser), A Gre S A Bul-Ser.
    # "nothing happens to the Austrian Army"
    "Example 4": [
        E("ser", SUCCESS, "holds", dislodged=False),
        E("rum", FAILURE, "bounced", strength=2, opposition=2),
        E("bul", FAILURE, "bounced", strength=2, opposition=2),
        E("bud", SUCCESS, "supported"), E("gre", SUCCESS, "supported"),
    ],
    # "If it tried to support, however, its support would have been cut by either or both of the two attacks."
    "Example 4 with the garrison supporting": [
        E("ser", FAILURE, "cut", involved=frozenset({"rum", "bul"}), dislodged=False),
    ],
    # -- IX.7 dislodgement of a piece participating in a standoff
    # TURKEY: (A Bul-Rum). RUSSIA: A Rum-Bul, A Ser S A Rum-Bul, A Sev-Rum.
    # A Sev moves although the Turkish army was ordered to the same space.
    "Example 5": [
        E("bul", FAILURE, dislodged_by="rum"), E("rum", SUCCESS, "moved"),
        E("sev", SUCCESS, "moved", opposition=0), E("ser", SUCCESS, "supported"),
    ],
    # "if Russia had not ordered A Sev-Rum, Rumania would have been vacant for purposes of
    # another unit's retreat" (the retreat itself: test_rulebook_example_5_retreat below)
    "Example 5 without the move from Sevastopol": [E("bul", FAILURE, dislodged_by="rum")],
    # TURKEY: (A Bul-Rum), F Bla S A Bul-Rum. RUSSIA: A Rum-Bul, A Gre S A Rum-Bul, A Ser S A Rum-Bul, A Sev-Rum.
    # Even with support the dislodged Turkish army does not stop the unsupported move into Rumania.
    "Example 6": [
        E("bul", FAILURE, "head_to_head", dislodged_by="rum"),
        E("rum", SUCCESS, "moved", strength=3, opposition=2),
        E("sev", SUCCESS, "moved", strength=1, opposition=0),
        E("bla", SUCCESS, "supported"), E("gre", SUCCESS, "supported"), E("ser", SUCCESS, "supported"),
    ],
    # -- X. cutting support
    # GERMANY: (A Pru-War), (A Sil S A Pru-War). RUSSIA: A War H, (A Boh-Sil).
    "Example 7": [
        E("sil", FAILURE, "cut", involved=("boh",), dislodged=False),  # cut by the attack from Bohemia
        E("pru", FAILURE, "bounced", strength=1, opposition=1),
        E("war", SUCCESS, "holds"), E("boh", FAILURE, "bounced"),
    ],
    # GERMANY: A Pru-War, A Sil S A Pru-War. RUSSIA: (A War-Sil).
    # Not cut by the attack from Warsaw, the space support is given into.
    "Example 8": [
        E("sil", SUCCESS, "supported"), E("pru", SUCCESS, "moved", strength=2, opposition=1),
        E("war", FAILURE, "bounced", dislodged_by="pru"),
    ],
    # As printed: GERMANY: (A Ber-Pru), (A Sil S A Pru-War). RUSSIA: A Pru-Sil, A War S A Pru-Sil, (F Bal-Pru).
    # The printed support names a move the Russian army did not make, so it gives nothing;
    # "the German A Ber can only standoff the Russian F Bal".
    "Example 9": [
        E("sil", VOID, dislodged_by="pru"), E("pru", SUCCESS, "moved"), E("war", SUCCESS, "supported"),
        E("ber", FAILURE, "bounced", involved=("bal",), strength=1, opposition=1),
        E("bal", FAILURE, "bounced", involved=("ber",)),
    ],
    # GERMANY: (A Ber-Pru), (A Sil S A Ber-Pru). RUSSIA: A Pru-Sil, A War S A Pru-Sil, (F Bal-Pru).
    # "the German army in Silesia is dislodged by the Russian army coming from Prussia. The
    # support of the Silesian army is thus cut"
    "Example 9 as explained": [
        E("sil", FAILURE, "cut", involved=("pru",), dislodged_by="pru"), E("pru", SUCCESS, "moved"),
        E("ber", FAILURE, "bounced", involved=("bal",), strength=1, opposition=1),
        E("bal", FAILURE, "bounced"),
    ],
    # GERMANY: A Ber H, (A Mun-Sil). RUSSIA: (A Pru-Ber), (A Sil S A Pru-Ber), A Boh-Mun, A Tyr S A Boh-Mun.
    # The dislodged army in Munich still cuts the support of the Russian army in Silesia.
    "Example 10": [
        E("mun", FAILURE, "bounced", dislodged_by="boh"), E("sil", FAILURE, "cut", involved=("mun",)),
        E("pru", FAILURE, "bounced", strength=1, opposition=1), E("ber", SUCCESS, "holds", dislodged=False),
        E("boh", SUCCESS, "moved"), E("tyr", SUCCESS, "supported"),
    ],
    # -- XII. convoys
    # FRANCE: (A Spa-Nap), F Lyo C A Spa-Nap, (F Tyr C A Spa-Nap). ITALY: F Ion-Tyr, F Tun S F Ion-Tyr.
    # "consequently, the army does not move from Spain to Naples"; the fleet in the Gulf of Lyon
    # was not dislodged, but the army did not go by convoy (issue 18).
    "Example 11": [
        E("tys", FAILURE, "disrupted", dislodged_by="ion"),
        E("spa", FAILURE, "no_convoy", reason_has="Tyrrhenian"),
        E("lyo", FAILURE, "convoy_unused", dislodged=False, rule="XII.3"),
        E("ion", SUCCESS, "moved"), E("tun", SUCCESS, "supported"),
    ],
    # ENGLAND: A Lon-Bel, (F Eng C A Lon-Bel), F Nth C A Lon-Bel; FRANCE: F Bre-Eng, F Iri S Bre-Eng.
    # Two routes, only one disrupted: the army arrives.
    "Example 12": [
        E("lon", SUCCESS, "moved", reason_has="convoy"), E("eng", FAILURE, "disrupted", dislodged_by="bre"),
        E("nth", SUCCESS, "convoyed"), E("bre", SUCCESS, "moved"), E("iri", SUCCESS, "supported"),
    ],
    # FRANCE: (A Spa-Nap), F Lyo C A Spa-Nap, (F Tyr C A Spa-Nap); ITALY: F Ion-Tyr, F Nap S F Ion-Tyr.
    # The convoyed army's attack does not cut the support of the fleet in Naples.
    "Example 13": [
        E("nap", SUCCESS, "supported", dislodged=False), E("tys", FAILURE, dislodged_by="ion"),
        E("spa", FAILURE, "no_convoy"), E("ion", SUCCESS, "moved", strength=2, opposition=1),
        E("lyo", FAILURE, "convoy_unused"),  # issue 18: the army did not go by convoy
    ],
}


def test_rulebook_file_has_examples_1_to_13() -> None:
    assert not [i for i in ITEMS if isinstance(i, CaseError)]
    numbered = {name for name in CASES if name.startswith("Example ") and name.split()[1].isdigit()
                and len(name.split()) == 2}
    assert numbered == {f"Example {n}" for n in range(1, 14)}
    # every case in the file (variants included) is tested below
    assert set(CASES) == set(EXAMPLES)


@editions
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_rulebook_example(name: str, edition: Edition) -> None:
    ran = Ran(name, edition)
    for expected in EXAMPLES[name]:
        expected.check(ran)


@editions
def test_rulebook_example_5_retreat(edition: Edition) -> None:
    # Without A Sev-Rum no standoff leaves Rumania contested; the dislodged army still may not
    # retreat to the space its attacker came from.
    name = "Example 5 without the move from Sevastopol"
    state = scenario_state(CASES[name], BOARD)
    orders = [parse_order(o.text, o.power, state) for o in CASES[name].orders]
    after = adjudicate_phase(state, orders, RuleSet.for_edition(edition)).after
    assert "rum" not in after.units
    assert "rum" not in after.contested
    dests = retreat_destinations(after, "bul")
    assert "rum" not in dests  # the attacker came from there
    assert dests == ["con", "gre"]
