"""Civil disorder (rules XIV.1-2) as engine rules, for both editions."""

from __future__ import annotations

import pytest
from shared_positions import BOARD, HOME

from diplomacy_desktop.engine.adjustments import civil_disorder_removals
from diplomacy_desktop.engine.disorder import without_orders
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Move, Remove, SupportHold, SupportMove
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.rules import CLASSIC, RULES_2023, RuleSet
from diplomacy_desktop.engine.state import ADJUSTMENT, FALL, MOVEMENT, SPRING, GameState, Phase, Unit
from diplomacy_desktop.engine.turns import adjudicate_phase


def state(units: list[tuple[str, str, str]], phase: Phase | None = None, owners: dict[str, str] | None = None
          ) -> GameState:
    return GameState.build(BOARD, phase or Phase(1901, SPRING, MOVEMENT), [Unit(*u) for u in units],
                           HOME if owners is None else owners)


@pytest.mark.parametrize("rules", [CLASSIC, RULES_2023], ids=["classic", "2023"])
def test_disorder_units_hold_and_do_not_support_each_other(rules: RuleSet) -> None:
    s = state([("germany", "A", "mun"), ("germany", "A", "ber"), ("austria", "A", "boh"), ("austria", "A", "tyr")])
    orders = [SupportHold("germany", "A", "ber", "A", "mun"), Move("germany", "A", "mun", "sil"),
              Move("austria", "A", "boh", "mun"), SupportMove("austria", "A", "tyr", "A", "boh", "mun")]
    normal = adjudicate_phase(s, orders, rules)
    assert normal.after.units["sil"].power == "germany"  # Munich moved out of the way
    out = adjudicate_phase(s, orders, rules, frozenset({"germany"}))
    ignored = [r for r in out.results if r.code == "civil_disorder"]
    assert {r.order for r in ignored} == {orders[0], orders[1]}
    assert all(r.outcome is Outcome.VOID and r.rule == "XIV.1" for r in ignored)
    # Munich held, without Berlin's support: dislodged by 2 against 1 ...
    assert out.after.units["mun"].power == "austria"
    # ... and disbanded at once, without a retreat
    assert out.after.dislodged == () and "sil" not in out.after.units
    disbanded = [r for r in out.results if r.code == "disorder_disbanded"]
    assert [r.order.location for r in disbanded] == ["mun"]  # type: ignore[attr-defined]


def test_disorder_in_a_retreat_phase_disbands_instead_of_retreating() -> None:
    s = state([("germany", "A", "mun"), ("austria", "A", "boh"), ("austria", "A", "tyr")])
    moved = adjudicate_phase(s, [Move("austria", "A", "boh", "mun"), SupportMove("austria", "A", "tyr", "A", "boh", "mun")])
    retreat = moved.next_state
    assert [d.unit.province for d in retreat.dislodged] == ["mun"]
    from diplomacy_desktop.engine.orders import Retreat

    out = adjudicate_phase(retreat, [Retreat("germany", "A", "mun", "sil")], CLASSIC, frozenset({"germany"}))
    assert "sil" not in out.after.units
    assert any(r.code == "disorder_disbanded" for r in out.results)


def test_disorder_builds_nothing_and_removals_follow_xiv_2() -> None:
    winter = Phase(1901, FALL, ADJUSTMENT)
    owners = {**HOME, "bel": "france", "hol": "germany"}
    del owners["mun"]  # Germany: 3 units, 3 centres (ber, kie, hol) -> no change; France: 3 units, 4 centres
    owners["mun"] = "austria"  # Austria has 4 centres, 3 units: a build
    s = state([("france", "A", "par"), ("france", "A", "mar"), ("france", "F", "bre"),
               ("austria", "A", "vie"), ("austria", "A", "bud"), ("austria", "F", "tri"),
               ("russia", "A", "mos"), ("russia", "A", "war"), ("russia", "F", "sev"), ("russia", "F", "stp/sc"),
               ("russia", "A", "ukr")], winter, owners)
    assert s.adjustment_delta("france") == 1 and s.adjustment_delta("russia") == -1
    out = adjudicate_phase(s, [Build("france", "A", "par"), Remove("russia", "A", "mos")], CLASSIC,
                           frozenset({"france", "russia"}))
    assert "par" in out.after.units and out.after.units["par"] == Unit("france", "A", "par")  # no new unit
    assert len([u for u in out.after.units.values() if u.power == "france"]) == 3
    # Russia's own choice is ignored: the XIV.2 removal instead
    expected = civil_disorder_removals(s, "russia", 1, CLASSIC)
    removed = [r for r in out.results if r.code == "disorder"]
    assert [r.order.location for r in removed] == [expected[0].location]  # type: ignore[attr-defined]
    assert "mos" in out.after.units and expected[0].province not in out.after.units


def test_without_orders_finds_powers_that_gave_none() -> None:
    s = state([("france", "A", "par"), ("germany", "A", "mun"), ("italy", "A", "ven")])
    assert without_orders(s, [Move("france", "A", "par", "bur")]) == frozenset({"germany", "italy"})
    assert without_orders(s.evolve(phase=Phase(1901, FALL, ADJUSTMENT)), []) == frozenset()


def test_game_records_disorder_per_phase() -> None:
    game = Game.new(BOARD)
    game.set_order(Move("germany", "A", "mun", "ruh"))
    entry = game.adjudicate(disorder={"germany"})
    assert entry.disorder == frozenset({"germany"}) and "mun" in game.state.units
