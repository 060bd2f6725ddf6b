"""Retreats (rules XI): where a dislodged unit may go, bounces, disbands, unordered units."""

from __future__ import annotations

import itertools

import pytest
from shared_positions import BOARD, HOME, position

from diplomacy_desktop.engine.errors import IllegalOrderError
from diplomacy_desktop.engine.options import power_options
from diplomacy_desktop.engine.orders import Disband, Order, Retreat
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.state import (
    FALL,
    MOVEMENT,
    RETREAT,
    SPRING,
    DislodgedUnit,
    GameState,
    Phase,
    Unit,
)
from diplomacy_desktop.engine.turns import adjudicate_phase
from diplomacy_desktop.engine.validation import check_order, retreat_destinations
from diplomacy_desktop.io.notation import parse_order


def move(state: GameState, *orders: tuple[str, str]) -> GameState:
    """Adjudicate a movement phase; the position after it (a retreat phase if anyone was dislodged)."""
    out = adjudicate_phase(state, [parse_order(text, power, state) for power, text in orders])
    return out.after


@pytest.fixture
def munich_dislodged() -> GameState:
    """Austria dislodges Munich from Bohemia while France and Germany stand off in the Ruhr."""
    state = position("austria A boh", "austria A tyr", "germany A mun", "france A bur", "germany A kie",
                     "russia A sil")
    return move(state, ("austria", "A boh-mun"), ("austria", "A tyr S A boh-mun"), ("germany", "A mun H"),
                ("france", "A bur-ruh"), ("germany", "A kie-ruh"), ("russia", "A sil H"))


def test_retreats_exclude_occupied_standoff_and_attacker_spaces(munich_dislodged: GameState) -> None:
    state = munich_dislodged
    assert state.phase == Phase(1901, SPRING, RETREAT)
    d = state.dislodged_in("mun")
    assert d is not None and d.attacker_from == "boh" and d.attacker_power == "austria"
    assert state.contested == {"ruh"}
    # Munich borders Berlin, Bohemia, Burgundy, Kiel, Ruhr, Silesia, Tyrolia
    assert retreat_destinations(state, "mun") == ["ber"]
    options = power_options(state, "germany")["mun"]
    assert options == [Disband("germany", "A", "mun"), Retreat("germany", "A", "mun", "ber")]


@pytest.mark.parametrize(("dest", "why"), [("ruh", "standoff"), ("boh", "attacker came from there"),
                                           ("bur", "occupied"), ("tyr", "occupied")])
def test_retreats_refused_with_the_reason(munich_dislodged: GameState, dest: str, why: str) -> None:
    with pytest.raises(IllegalOrderError, match=why):
        check_order(munich_dislodged, Retreat("germany", "A", "mun", dest))
    out = adjudicate_phase(munich_dislodged, [Retreat("germany", "A", "mun", dest)])
    illegal, disbanded = out.results
    assert illegal.order == Retreat("germany", "A", "mun", dest)
    assert illegal.outcome is Outcome.ILLEGAL and why in illegal.reason
    # the unit is disbanded, and the result says it was for want of a legal order
    assert disbanded.order == Disband("germany", "A", "mun")
    assert disbanded.code == "unordered" and "illegal" in disbanded.reason
    assert not any(u.power == "germany" and u.province in ("mun", dest) for u in out.after.units.values())


def test_retreats_a_legal_retreat_moves_the_unit(munich_dislodged: GameState) -> None:
    out = adjudicate_phase(munich_dislodged, [Retreat("germany", "A", "mun", "ber")])
    (result,) = out.results
    assert result.outcome is Outcome.SUCCESS and result.code == "retreated"
    assert out.after.units["ber"] == Unit("germany", "A", "ber")
    assert not out.after.dislodged
    assert out.next_state.phase == Phase(1901, FALL, MOVEMENT)


def test_retreats_a_unit_dislodged_by_convoy_may_retreat_to_the_attackers_origin() -> None:
    # DATC 6.H.11: the attacker's origin is closed only to an attack over land
    state = position("france A gas", "france A bur", "france F mao", "france F wes", "france F lyo", "italy A mar")
    after = move(state, ("france", "A gas-mar via convoy"), ("france", "A bur S A gas-mar"),
                 ("france", "F mao C A gas-mar"), ("france", "F wes C A gas-mar"), ("france", "F lyo C A gas-mar"))
    d = after.dislodged_in("mar")
    assert d is not None and d.attacker_from == "gas" and d.by_convoy
    assert "gas" in retreat_destinations(after, "mar")
    over_land = move(position("france A gas", "france A bur", "italy A mar"),
                     ("france", "A gas-mar"), ("france", "A bur S A gas-mar"))
    assert "gas" not in retreat_destinations(over_land, "mar")
    assert "pie" in retreat_destinations(over_land, "mar")


@pytest.fixture
def two_dislodged() -> GameState:
    """Two armies dislodged, both with Tyrolia free (and other places)."""
    return GameState.build(
        BOARD, Phase(1901, FALL, RETREAT),
        [Unit("italy", "A", "mun"), Unit("italy", "A", "ven"), Unit("russia", "A", "vie")], HOME,
        [DislodgedUnit(Unit("germany", "A", "mun"), "boh"), DislodgedUnit(Unit("austria", "A", "ven"), "pie")])


def test_retreats_two_retreats_to_one_space_both_disband(two_dislodged: GameState) -> None:
    state = two_dislodged
    assert "tyr" in retreat_destinations(state, "mun") and "tyr" in retreat_destinations(state, "ven")
    orders: list[Order] = [Retreat("germany", "A", "mun", "tyr"), Retreat("austria", "A", "ven", "tyr")]
    out = adjudicate_phase(state, orders)
    by_province = {r.order.province: r for r in out.results}  # type: ignore[attr-defined]
    assert by_province["mun"].outcome is Outcome.FAILURE and by_province["mun"].code == "bounced"
    assert by_province["mun"].involved == ("ven",)
    assert by_province["ven"].outcome is Outcome.FAILURE and by_province["ven"].involved == ("mun",)
    assert "tyr" not in out.after.units
    assert not any(u.power in ("germany", "austria") for u in out.after.units.values())


def test_retreats_one_retreats_when_the_other_disbands(two_dislodged: GameState) -> None:
    out = adjudicate_phase(two_dislodged, [Retreat("germany", "A", "mun", "tyr"), Disband("austria", "A", "ven")])
    assert out.after.units["tyr"] == Unit("germany", "A", "tyr")
    codes = {r.order.province: r.code for r in out.results}  # type: ignore[attr-defined]
    assert codes == {"mun": "retreated", "ven": "disbanded"}


def test_retreats_three_retreats_to_one_space_give_the_same_results_in_any_order() -> None:
    state = GameState.build(
        BOARD, Phase(1901, FALL, RETREAT),
        [Unit("italy", "A", "mun"), Unit("italy", "A", "ven"), Unit("italy", "A", "vie")], HOME,
        [DislodgedUnit(Unit("germany", "A", "mun"), "bur"), DislodgedUnit(Unit("austria", "A", "ven"), "pie"),
         DislodgedUnit(Unit("russia", "A", "vie"), "gal")])
    orders: list[Order] = [Retreat("germany", "A", "mun", "tyr"), Retreat("austria", "A", "ven", "tyr"),
                           Retreat("russia", "A", "vie", "tyr")]
    outcomes = {frozenset(adjudicate_phase(state, list(p)).results) for p in itertools.permutations(orders)}
    assert len(outcomes) == 1
    (results,) = outcomes
    assert {r.involved for r in results} == {("ven", "vie"), ("mun", "vie"), ("mun", "ven")}
    assert all("all are disbanded" in r.reason for r in results)


def test_retreats_unordered_units_are_disbanded_with_a_reason(two_dislodged: GameState) -> None:
    out = adjudicate_phase(two_dislodged, [])
    assert len(out.results) == 2
    for r in out.results:
        assert isinstance(r.order, Disband)
        assert r.code == "unordered" and r.reason == "no order: disbanded"
    assert len(out.after.units) == 3


def test_retreats_a_unit_with_nowhere_to_go_is_disbanded_and_says_so() -> None:
    state = position("germany A boh", "germany A tyr", "austria A vie", "germany A gal", "germany A bud",
                     "germany A tri")
    after = move(state, ("germany", "A boh-vie"), ("germany", "A tyr S A boh-vie"))
    assert retreat_destinations(after, "vie") == []
    assert power_options(after, "austria") == {"vie": [Disband("austria", "A", "vie")]}
    out = adjudicate_phase(after, [])
    (result,) = out.results
    assert result.code == "unordered" and "no retreat is possible" in result.reason


def test_retreats_conflicting_orders_for_one_unit_disband_it(two_dislodged: GameState) -> None:
    out = adjudicate_phase(two_dislodged, [Retreat("germany", "A", "mun", "tyr"), Retreat("germany", "A", "mun", "ruh")])
    mine = [r for r in out.results if r.order.power == "germany"]
    assert len(mine) == 2 and all(r.code == "conflicting" for r in mine)
    assert not any(u.power == "germany" for u in out.after.units.values())


def test_retreats_cannot_be_ordered_for_another_power(two_dislodged: GameState) -> None:
    with pytest.raises(IllegalOrderError, match="not yours"):
        check_order(two_dislodged, Retreat("france", "A", "mun", "tyr"))


def test_retreats_never_into_the_space_of_another_dislodged_unit() -> None:
    # a position as a file may give it, without the attackers that stand in Vienna and Bohemia
    state = GameState.build(BOARD, Phase(1901, SPRING, RETREAT), [], HOME,
                            [DislodgedUnit(Unit("austria", "A", "vie")), DislodgedUnit(Unit("germany", "A", "boh"))])
    assert "boh" not in retreat_destinations(state, "vie")
    assert "vie" not in retreat_destinations(state, "boh")
    with pytest.raises(IllegalOrderError):
        check_order(state, Retreat("austria", "A", "vie", "boh"))
