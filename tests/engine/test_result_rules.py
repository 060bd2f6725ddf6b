"""Every result names the rule that decides it (seed 000's sections, or the DATC where the rules are
silent), and the supports that counted: the records a teacher's explanation is read from."""

from __future__ import annotations

from pathlib import Path

import pytest

from diplomacy_desktop.engine.results import OrderResult
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.scenario import Scenario, read_scenarios

BOARD = load_board()
HERE = Path(__file__).parent
DATC = HERE.parents[1] / "lessons"


def _cases(path: Path) -> dict[str, Scenario]:
    return {sc.name: sc for sc in read_scenarios(path.read_text(encoding="utf-8"), BOARD)
            if isinstance(sc, Scenario)}


RULEBOOK = _cases(HERE.parents[1] / "lessons" / "rulebook_examples.txt")
V3 = {name: sc for f in sorted(DATC.glob("datc_v3_6*.txt")) for name, sc in _cases(f).items()}


def _results(sc: Scenario, edition: Edition = Edition.Y2023) -> dict[str, OrderResult]:
    run = run_case(sc, BOARD, RuleSet.for_edition(edition))
    assert run.matched, run.mismatches
    return {r.order.province: r for r in run.results}  # type: ignore[attr-defined]


def _inline(text: str) -> Scenario:
    (sc,) = read_scenarios(text, BOARD)
    assert isinstance(sc, Scenario)
    return sc


def test_result_rules_simple_bounce_is_a_standoff() -> None:
    r = _results(_inline("""CASE bounce
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
  France: A par
  Germany: A mun
ORDERS
  France: A par-bur
  Germany: A mun-bur
POSTSTATE_SAME
END
"""))
    assert (r["par"].code, r["par"].rule, r["par"].strength, r["par"].opposition) == ("bounced", "VIII", 1, 1)
    assert r["par"].involved == ("mun",)
    assert r["mun"].rule == "VIII"


def test_result_rules_self_dislodgement_prohibited() -> None:
    r = _results(RULEBOOK["Example 1"])
    assert (r["nth"].code, r["nth"].rule) == ("own_unit", "IX.3")
    assert r["nth"].involved == ("den",)


def test_result_rules_support_not_counted_against_own_unit() -> None:
    r = _results(RULEBOOK["Example 2"])
    boh = r["boh"]
    assert boh.rule == "IX.3"
    assert boh.not_counted == (("kie", "own_unit"),)
    assert boh.supports == ()
    assert (boh.strength, boh.opposition) == (1, 1)


def test_result_rules_beleaguered_garrison() -> None:
    r = _results(RULEBOOK["Example 4"])
    ser = r["ser"]
    assert (ser.code, ser.rule) == ("holds", "IX.5")
    assert set(ser.involved) == {"rum", "bul"}
    assert (ser.strength, ser.opposition) == (1, 2)
    assert "stood each other off" in ser.reason
    assert r["rum"].rule == "VIII" and r["rum"].supports == ("bud",)


def test_result_rules_dislodged_rival_does_not_stand_off() -> None:
    r = _results(RULEBOOK["Example 5"])
    assert (r["sev"].code, r["sev"].rule) == ("moved", "IX.7")
    assert r["rum"].rule == "IX.2" and r["rum"].supports == ("ser",)


def test_result_rules_cut_support() -> None:
    r = _results(RULEBOOK["Example 7"])
    sil = r["sil"]
    assert (sil.code, sil.rule, sil.involved) == ("cut", "X", ("boh",))
    pru = r["pru"]
    assert pru.not_counted == (("sil", "cut"),) and pru.supports == ()
    # attacked from the space it supports into: not cut (Example 8)
    r8 = _results(RULEBOOK["Example 8"])
    assert (r8["sil"].code, r8["sil"].rule) == ("supported", "X")
    assert r8["pru"].supports == ("sil",) and r8["pru"].rule == "IX.2"


def test_result_rules_disrupted_convoy() -> None:
    r = _results(RULEBOOK["Example 11"])
    assert (r["spa"].code, r["spa"].rule) == ("no_convoy", "XII.3")
    assert "Tyrrhenian" in r["spa"].reason
    assert (r["tys"].code, r["tys"].rule) == ("disrupted", "XII.3")


def test_result_rules_szykman_paradox() -> None:
    # issue 18: 6.F.14 is settled by the seed's own XII.5 (the fleet is dislodged anyway, XII.3);
    # Pandin's paradox (6.F.16), where it is not dislodged, by the Szykman rule
    r = _results(V3["6.F.14"])
    assert (r["eng"].code, r["eng"].rule) == ("disrupted", "XII.3")
    assert (r["bre"].code, r["bre"].rule) == ("no_convoy", "XII.3")
    assert (r["lon"].code, r["lon"].rule) == ("supported", "XII.5")
    r = _results(V3["6.F.16"])
    assert (r["eng"].code, r["eng"].rule) == ("paradox", "DATC 4.A.2")
    assert (r["bre"].code, r["bre"].rule) == ("no_convoy", "DATC 4.A.2")
    # the support is into the sea holding the army's own convoying fleet: the seed's XII.5 says
    # itself that the attack does not cut it (issue 32); the army fails by the Szykman rule
    assert (r["lon"].code, r["lon"].rule) == ("supported", "XII.5")


def test_result_rules_circular_movement() -> None:
    r = _results(V3["6.C.1"])
    assert {res.rule for res in r.values()} == {"XIV.3"}


def test_result_rules_illegal_orders_name_their_rule() -> None:
    r = _results(_inline("""CASE illegal
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
  France: A par
  France: F bre
  England: F lon
ORDERS
  France: A par-lon
  France: F bre C A par-lon
  England: F lon S F bre-gas
POSTSTATE_SAME
END
"""))
    assert (r["par"].code, r["par"].rule) == ("illegal", "VII.1")
    assert (r["bre"].code, r["bre"].rule) == ("illegal", "XIV.3")
    assert (r["lon"].code, r["lon"].rule) == ("illegal", "IX.1")


@pytest.mark.parametrize("name", sorted(V3))
def test_result_rules_every_datc_result_has_a_rule(name: str) -> None:
    sc = V3[name]
    edition = Edition.CLASSIC if ".classic" in name else Edition.Y2023
    run = run_case(sc, BOARD, RuleSet.for_edition(edition))
    for r in run.results:
        assert r.rule, r
        assert r.rule.startswith(("DATC ", "V", "I", "X", "note to IX.6")), r.rule


def test_result_rules_move_lost_for_a_cut_support() -> None:
    r = _results(RULEBOOK["Example 10"])
    pru = r["pru"]
    assert (pru.code, pru.rule, pru.not_counted) == ("bounced", "X", (("sil", "cut"),))
    assert (r["sil"].code, r["sil"].involved) == ("cut", ("mun",))
