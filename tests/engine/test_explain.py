"""Explanations read like a teacher: they name the units, the strengths and the rule."""

from __future__ import annotations

from pathlib import Path

from diplomacy_desktop.engine.explain import RULES, explain
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.io.scenario import Scenario, read_scenarios, scenario_state

BOARD = load_board()
HERE = Path(__file__).parent


def _cases(path: Path) -> dict[str, Scenario]:
    return {sc.name: sc for sc in read_scenarios(path.read_text(encoding="utf-8"), BOARD)
            if isinstance(sc, Scenario)}


RULEBOOK = _cases(HERE.parents[1] / "lessons" / "rulebook_examples.txt")
V3 = {n: sc for f in sorted((HERE.parents[1] / "lessons").glob("datc_v3_6*.txt")) for n, sc in _cases(f).items()}


def _explained(sc: Scenario, edition: Edition = Edition.CLASSIC) -> dict[str, str]:
    run = run_case(sc, BOARD, RuleSet.for_edition(edition))
    state = scenario_state(sc, BOARD)
    return {r.order.province: explain(r, state, run.results).text(format_order(r.order, BOARD))  # type: ignore[attr-defined]
            for r in run.results}


def test_explain_simple_bounce_names_both_armies_and_equal_strengths() -> None:
    text = _explained(RULEBOOK["Example 4"])["rum"]
    # issue 18: a stand-off is not "bounced with"; the strengths are the DATC's, by name
    assert "stood off with the army in Bulgaria, also moving to Serbia (strength 2 against 2)" in text
    assert ("The army in Rumania attacked Serbia with attack strength 2 (itself and the support of the army in "
            "Budapest)") in text
    assert ("The army in Bulgaria also moved to Serbia: prevent strength 2 (itself and the support of the army in "
            "Greece)") in text
    assert "equal strengths stand each other off" in text
    assert "Rule VIII (Conflicts)" in text


def test_explain_beleaguered_garrison() -> None:
    text = _explained(RULEBOOK["Example 4"])["ser"]
    assert "the attacks of the army in Bulgaria and the army in Rumania stood each other off" in text
    assert "The army in Serbia held with hold strength 1 (itself alone)." in text
    assert "more than 1, but it was stood off by the army in Rumania" in text
    assert "Rule IX.5 (Beleaguered garrison)" in text


def test_explain_cut_support_names_the_cutter() -> None:
    texts = _explained(RULEBOOK["Example 10"])
    assert ("The support of the army in Silesia is not in its attack strength: it was cut by the attack of the army in "
            "Munich (rule X).") in texts["pru"]
    assert "1 against 1: an attack must be stronger than the hold to enter, so the move fails" in texts["pru"]
    assert texts["pru"].endswith(RULES["X"][1])
    assert "cut by the attack of the army in Munich" in texts["sil"]


def test_explain_disrupted_convoy_names_the_fleet() -> None:
    texts = _explained(RULEBOOK["Example 11"])
    assert "the fleet in Tyrrhenian Sea was dislodged, so the army stays" in texts["spa"]
    assert "Rule XII.3 (Disrupting a convoy)" in texts["spa"]
    assert "dislodged by the fleet in Ionian Sea" in texts["tys"]


def test_explain_szykman_paradox() -> None:
    # issue 18: where the fleet is dislodged anyway the seed's XII.5 settles it (support not cut,
    # fleet dislodged, convoy disrupted, XII.3); the Szykman rule only where it does not (6.F.16)
    texts = _explained(V3["6.F.14"], Edition.Y2023)
    assert "the fleet in English Channel was dislodged, so the army stays" in texts["bre"]
    assert "Rule XII.3" in texts["bre"] and "(rule XII.5)" in texts["bre"]
    assert "Rule XII.5" in texts["lon"] and "so by rule XII.5 the convoyed attack does not cut it" in texts["lon"]
    pandin = _explained(V3["6.F.16"], Edition.Y2023)
    assert "by the Szykman rule the fleet in English Channel does not convoy" in pandin["bre"]
    assert "Rule DATC 4.A.2" in pandin["bre"]


def test_explain_circular_movement() -> None:
    texts = _explained(V3["6.C.1"], Edition.Y2023)
    assert all("circular movement" in t and "Rule XIV.3" in t for t in texts.values())


def test_explain_self_dislodgement_prohibited() -> None:
    texts = _explained(RULEBOOK["Example 1"])
    assert "cannot dislodge its own fleet in Denmark" in texts["nth"]
    assert ("The English fleet in Denmark tried to move to Kiel but could not, so it stayed in Denmark, and it is "
            "England's own unit") in texts["nth"]
    assert "Rule IX.3 (Self-dislodgement prohibited)" in texts["nth"]
    # issue 18 class 1/2: the support counted only for standing off, and only moving units are said to move
    assert "counted in the fleet in North Sea's prevent strength 2" in texts["hel"]
    assert "valid for other purposes" in texts["hel"]
    assert "Baltic Sea also moved" not in texts["nth"] and "Helgoland Bight also moved" not in texts["nth"]
    assert "The fleet in Skagerrak also moved to Denmark: prevent strength 2" in texts["nth"]
    text2 = _explained(RULEBOOK["Example 2"])["boh"]
    assert ("The support of the German army in Kiel is not in its attack strength: a power cannot help dislodge its "
            "own unit, and the German army in Munich is Germany's (rule IX.3).") in text2
    kiel = _explained(RULEBOOK["Example 2"])["kie"]
    assert "counts for nothing" in kiel and "It counted in" not in kiel


def test_explain_illegal_order_says_why_and_cites_the_rule() -> None:
    (sc,) = read_scenarios("""CASE x
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
  France: F bre
  France: A par
ORDERS
  France: F bre C A par-lon
POSTSTATE_SAME
END
""", BOARD)
    assert isinstance(sc, Scenario)
    text = _explained(sc)["bre"]
    assert text.startswith("F Bre C A Par - Lon: is illegal — a fleet can convoy only from a body of water")
    assert "Rule XIV.3" in text


def test_explain_every_rule_cited_is_described() -> None:
    for sc in [*RULEBOOK.values(), *V3.values()]:
        run = run_case(sc, BOARD, RuleSet.for_edition(Edition.CLASSIC if ".classic" in sc.name else Edition.Y2023))
        for r in run.results:
            assert r.rule in RULES, (sc.name, r)


def test_explain_broken_circular_movement_names_the_rival_move() -> None:
    texts = _explained(V3["6.C.3"], Edition.Y2023)
    assert "The army in Bulgaria also moved to Constantinople: prevent strength 1 (itself alone)." in texts["ank"]
    assert "it is Turkey's own unit" in texts["ank"]
    assert "also moved" not in texts["smy"]  # the next unit in the ring only waited on the one ahead


def test_explain_a_unit_dislodged_head_to_head_has_no_effect_on_the_space() -> None:
    texts = _explained(V3["6.E.1"], Edition.Y2023)
    assert ("The army in Prussia also moved to Berlin, but it lost its head-to-head battle with the army in Berlin "
            "coming from Berlin, so it stands nobody off there (rule IX.7).") in texts["kie"]
    assert "Nothing opposed it with any strength" in texts["kie"] and "Rule IX.7" in texts["kie"]


def test_a_unit_dislodged_from_the_space_it_moved_to_without_a_head_to_head_still_stands_off() -> None:
    """DATC 6.G.14 (issue 32): the army in Sweden, going to Norway by convoy, is dislodged by the
    army from Norway, yet still stands off the fleet from the Norwegian Sea: the two armies did
    not meet head to head (DATC 4.A.7).  The explanation said the army "has no effect there" and
    showed IX.7's exception ("the other unit may move") beside a fleet that did not move."""
    (name,) = [n for n in V3 if n.startswith("6.G.14")]
    for edition in Edition:
        text = _explained(V3[name], edition)["nwg"]
        assert "stood off with the army in Sweden" in text, text
        assert "no effect there" not in text and "the other unit may move" not in text, text
        assert ("The army in Sweden was dislodged by the army in Norway, which came from Norway; but one of them "
                "went by convoy, so they did not meet head to head, and its move still counts in Norway "
                "(rule IX.7, DATC 4.A.7).") in text, text
        assert "stand each other off, even though one of them has been dislodged" in text


def test_a_stronger_rival_that_did_not_enter_either_is_said_in_english() -> None:
    """The rulebook's Example 3 with an Austrian army in Budapest: the army from Vienna is
    outmatched by the one from Serbia, which does not enter Budapest either (its own army stayed
    there).  The sentence read "but it did not enter either Budapest" (issue 32)."""
    (name,) = [n for n in RULEBOOK if n.startswith("Example 3 with an Austrian")]
    text = _explained(RULEBOOK[name])["vie"]
    assert ("2 is more than 1: the army in Serbia was stronger, but it did not enter Budapest either.") in text, text
    assert "either Budapest" not in text


def test_a_mover_dislodged_from_its_destination_by_convoy_is_told_it_still_stood_off() -> None:
    """DATC 6.G.14 from the army in Sweden's side: dislodged by the army from Norway, where it
    was going, yet it stood the fleet from the Norwegian Sea off; the explanation said only that
    it was dislodged, not why that did not matter (issue 32: what decided the result)."""
    (name,) = [n for n in V3 if n.startswith("6.G.14")]
    for edition in Edition:
        text = _explained(V3[name], edition)["swe"]
        assert "stood off with the fleet in Norwegian Sea" in text, text
        assert ("It was itself dislodged by the army in Norway: attack strength 3 (itself and the support of the "
                "fleet in Denmark and the fleet in Finland) against its hold strength 1.\nThat unit came from Norway, "
                "but one of the two went by convoy, so they did not meet head to head, and this move still stood off "
                "the others there (rule IX.7, DATC 4.A.7).") in text, text


def test_a_convoy_with_no_chain_of_fleets_at_all_is_not_called_unneeded() -> None:
    """DATC 6.F.1: the fleets in the Aegean and Black Seas, ordered to convoy Greece to
    Sevastopol, with the only link a fleet in Constantinople (a coast).  The reason said each fleet
    "is not needed on any route", as if there were a route without it; there is none at all."""
    (name,) = [n for n in V3 if n == "6.F.1"]
    for sea, named in (("aeg", "Aegean Sea"), ("bla", "Black Sea")):
        text = _explained(V3[name], Edition.Y2023)[sea]
        assert "not needed" not in text, text
        assert (f"no chain of fleets at sea runs from Greece to Sevastopol, so the fleet in {named} cannot convoy "
                "the army there; the unit holds") in text, text


def test_a_support_cut_by_two_attacks_says_attacks() -> None:
    """Our expert position "beleaguered-munich": Germany's support from Munich is cut by France
    and Austria both; the sentence read "cut by the attack of the army in Burgundy and the army in
    Tyrolia" (issue 32, read aloud)."""
    sc = _cases(HERE / "teaching_positions" / "expert.txt")["beleaguered-munich"]
    text = _explained(sc)["ber"]
    assert ("The support of the army in Munich is not in its attack strength: it was cut by the attacks of the army "
            "in Burgundy and the army in Tyrolia (rule X).") in text, text
