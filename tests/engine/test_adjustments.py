"""Adjustments (rules XIII.2, XIV.2; DATC 6.J): builds, removals, waives, civil disorder."""

from __future__ import annotations

import pytest
from shared_positions import BOARD, HOME

from diplomacy_desktop.engine.adjustments import civil_disorder_removals, disorder_distance
from diplomacy_desktop.engine.orders import Build, Hold, Order, Remove, Waive
from diplomacy_desktop.engine.results import OrderResult, Outcome
from diplomacy_desktop.engine.rules import CLASSIC, RULES_2023, RuleSet
from diplomacy_desktop.engine.state import ADJUSTMENT, FALL, MOVEMENT, SPRING, GameState, Phase, Unit
from diplomacy_desktop.engine.turns import adjudicate_phase

WINTER = Phase(1901, FALL, ADJUSTMENT)


def position(*units: str, owners: dict[str, str] | None = None) -> GameState:
    return GameState.build(BOARD, WINTER, [Unit(*u.split()) for u in units], HOME if owners is None else owners)


def russian(*centres: str) -> dict[str, str]:
    """Home owners, except that Russia owns exactly ``centres``."""
    return {**{c: p for c, p in HOME.items() if p != "russia"}, **{c: "russia" for c in centres}}


def results_of(state: GameState, orders: list[Order], rules: RuleSet = CLASSIC) -> tuple[list[OrderResult], GameState]:
    out = adjudicate_phase(state, orders, rules)
    assert out.next_state.phase == Phase(1902, SPRING, MOVEMENT)
    for r in out.results:
        assert r.reason.strip()
    return list(out.results), out.after


# -- builds ------------------------------------------------------------------------------------------


def test_adjustments_builds_in_free_home_centres() -> None:
    state = position("russia A mos", owners=russian("mos", "war", "sev", "stp", "rum"))
    assert state.adjustment_delta("russia") == 4
    results, after = results_of(state, [Build("russia", "A", "war"), Build("russia", "F", "sev"),
                                        Build("russia", "F", "stp/nc")])
    assert [r.code for r in results] == ["built", "built", "built"]
    assert after.units["war"] == Unit("russia", "A", "war")
    assert after.units["sev"] == Unit("russia", "F", "sev")
    assert after.units["stp"] == Unit("russia", "F", "stp/nc")
    assert results[2].reason == "builds a fleet in St Petersburg (nc)"


def test_adjustments_too_many_builds_only_the_first_legal_ones_count() -> None:
    # DATC 6.J.1: Germany may build one unit
    state = position("germany A ber", "germany F kie", owners={**HOME})
    assert state.adjustment_delta("germany") == 1
    orders: list[Order] = [Build("germany", "A", "war"), Build("germany", "A", "mun"), Build("germany", "A", "kie"),
                           Build("germany", "A", "ber")]
    results, after = results_of(state, orders)
    codes = [(r.order, r.outcome, r.code) for r in results]
    assert codes[0][1:] == (Outcome.ILLEGAL, "illegal")  # Warsaw is not German
    assert codes[1][1:] == (Outcome.SUCCESS, "built")
    assert codes[2][1:] == (Outcome.ILLEGAL, "too_many")
    assert codes[3][1:] == (Outcome.ILLEGAL, "too_many")
    assert "only 1 build" in results[2].reason
    assert after.units["mun"] == Unit("germany", "A", "mun")
    assert len(after.units_of("germany")) == 3


@pytest.mark.parametrize(("order", "why"), [
    (Build("russia", "A", "mos"), "occupied"),
    (Build("russia", "A", "war"), "does not control"),
    (Build("russia", "A", "rum"), "not a home supply centre"),
    (Build("russia", "F", "stp"), "coast"),
    (Build("germany", "A", "ber"), "no adjustments"),
])
def test_adjustments_illegal_builds_are_refused_with_a_reason(order: Build, why: str) -> None:
    state = position("russia A mos", "germany A ber", "germany A mun", "germany F kie",
                     owners={**russian("mos", "sev", "stp", "rum")})
    results, after = results_of(state, [order])
    (result,) = results
    assert result.outcome is Outcome.ILLEGAL and why in result.reason
    assert len(after.units_of("russia")) == 1


def test_adjustments_two_builds_in_one_centre_build_once() -> None:
    state = position(owners=russian("mos", "sev", "stp", "war"))
    results, after = results_of(state, [Build("russia", "A", "sev"), Build("russia", "F", "sev")])
    assert [r.code for r in results] == ["built", "illegal"]
    assert after.units["sev"] == Unit("russia", "A", "sev")


def test_adjustments_waive_uses_a_build() -> None:
    state = position("russia A mos", owners=russian("mos", "sev", "war"))
    assert state.adjustment_delta("russia") == 2
    results, after = results_of(state, [Waive("russia"), Build("russia", "A", "war"), Build("russia", "F", "sev")])
    assert [r.code for r in results] == ["waived", "built", "too_many"]
    assert sorted(u.province for u in after.units_of("russia")) == ["mos", "war"]


def test_adjustments_unused_builds_are_simply_lost() -> None:
    state = position("russia A mos", owners=russian("mos", "sev", "war"))
    results, after = results_of(state, [])
    assert results == []
    assert after.units_of("russia") == [Unit("russia", "A", "mos")]


def test_adjustments_orders_from_a_power_with_nothing_to_adjust_are_illegal() -> None:
    state = position("italy A rom", "italy A ven", "italy F nap", "russia A mos", owners=russian("mos", "sev"))
    results, _ = results_of(state, [Build("italy", "A", "rom"), Remove("italy", "A", "ven"), Hold("italy", "A", "ven")])
    assert all(r.outcome is Outcome.ILLEGAL for r in results)
    assert len(results) == 3


# -- removals ----------------------------------------------------------------------------------------


def test_adjustments_removals_remove_the_ordered_units() -> None:
    state = position("russia A mos", "russia A ukr", "russia F sev", owners=russian("mos"))
    results, after = results_of(state, [Remove("russia", "A", "ukr"), Remove("russia", "F", "sev")])
    assert [r.code for r in results] == ["removed", "removed"]
    assert after.units_of("russia") == [Unit("russia", "A", "mos")]


def test_adjustments_duplicate_removals_count_once_and_disorder_takes_the_rest() -> None:
    # DATC 6.J.2: the same unit removed twice; the missing removal follows the civil-disorder rule
    state = position("russia A mos", "russia A ukr", "russia F bot", owners=russian("mos"))
    results, after = results_of(state, [Remove("russia", "A", "mos"), Remove("russia", "A", "mos")])
    assert [r.code for r in results] == ["removed", "duplicate", "disorder"]
    assert results[1].outcome is Outcome.ILLEGAL
    assert results[2].order == Remove("russia", "F", "bot")  # equally far: the fleet before the army
    assert after.units_of("russia") == [Unit("russia", "A", "ukr")]


def test_adjustments_too_many_removals_only_the_first_count() -> None:
    state = position("russia A mos", "russia A ukr", owners=russian("mos"))
    results, after = results_of(state, [Remove("russia", "A", "ukr"), Remove("russia", "A", "mos")])
    assert [r.code for r in results] == ["removed", "too_many"]
    assert after.units_of("russia") == [Unit("russia", "A", "mos")]


def test_adjustments_a_build_when_units_must_go_is_illegal() -> None:
    state = position("russia A mos", "russia A ukr", "russia A lvn", owners=russian("mos", "sev"))
    results, after = results_of(state, [Build("russia", "A", "sev")])
    assert results[0].outcome is Outcome.ILLEGAL
    assert [r.code for r in results[1:]] == ["disorder"]
    assert len(after.units_of("russia")) == 2


# -- civil disorder (XIV.2): the two editions differ ---------------------------------------------------


@pytest.fixture
def far_from_home() -> GameState:
    # Russia holds Moscow, Tunis and Naples with four units and must remove one
    return position("russia A rum", "russia F tys", "russia A ukr", "russia F ion", owners=russian("mos", "tun", "nap"))


def test_adjustments_civil_disorder_classic_counts_to_home_centres_fleets_by_sea(far_from_home: GameState) -> None:
    state = far_from_home
    distances = {u.province: disorder_distance(state, u, CLASSIC) for u in state.units_of("russia")}
    # fleets sail to the nearest home centre (Sevastopol by the Black Sea); armies walk
    assert distances == {"rum": 1, "ukr": 1, "ion": 4, "tys": 5}
    results, after = results_of(state, [], CLASSIC)
    (result,) = results
    assert result.order == Remove("russia", "F", "tys") and result.code == "disorder"
    assert "civil-disorder" in result.reason
    assert "tys" not in after.units


def test_adjustments_civil_disorder_2023_counts_to_owned_centres_over_land_and_sea(far_from_home: GameState) -> None:
    state = far_from_home
    distances = {u.province: disorder_distance(state, u, RULES_2023) for u in state.units_of("russia")}
    # Tunis and Naples are next to both fleets; Rumania is two steps from Moscow
    assert distances == {"rum": 2, "ukr": 1, "ion": 1, "tys": 1}
    results, after = results_of(state, [], RULES_2023)
    (result,) = results
    assert result.order == Remove("russia", "A", "rum") and result.code == "disorder"
    assert "rum" not in after.units and "tys" in after.units


@pytest.mark.parametrize("rules", [CLASSIC, RULES_2023], ids=["classic", "2023"])
def test_adjustments_civil_disorder_ties_fleet_first_then_alphabetical(rules: RuleSet) -> None:
    two_armies = position("russia A ukr", "russia A lvn", owners=russian("mos"))
    assert civil_disorder_removals(two_armies, "russia", 1, rules) == [Unit("russia", "A", "lvn")]  # Livonia < Ukraine
    army_and_fleet = position("russia A lvn", "russia F bot", owners=russian("mos"))
    assert civil_disorder_removals(army_and_fleet, "russia", 1, rules) == [Unit("russia", "F", "bot")]


@pytest.mark.parametrize("rules", [CLASSIC, RULES_2023], ids=["classic", "2023"])
def test_adjustments_civil_disorder_removes_as_many_as_needed(rules: RuleSet) -> None:
    state = position("russia A mos", "russia A ukr", "russia F bot", "russia A lvn", owners=russian("mos"))
    results, after = results_of(state, [], rules)
    assert len(results) == 3 and all(r.code == "disorder" for r in results)
    assert len(after.units_of("russia")) == 1
