"""Formal Diplomacy (seed 003): relations, declarations, territory, restrictions, interning."""

from __future__ import annotations

import itertools

import pytest
from shared_positions import BOARD, HOME

from diplomacy_desktop.engine.errors import IllegalOrderError
from diplomacy_desktop.engine.formal import (
    ALLIANCE,
    NEUTRAL,
    NO_RELATIONS,
    RULE_ALLIED,
    RULE_INTERNED,
    RULE_NEUTRAL,
    RULE_WAR,
    WAR,
    Relations,
    declare,
    home_province_owner,
    home_provinces,
    territory,
)
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.movement import adjudicate_movement
from diplomacy_desktop.engine.options import power_options, unit_options
from diplomacy_desktop.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from diplomacy_desktop.engine.results import OrderResult, Outcome
from diplomacy_desktop.engine.state import FALL, MOVEMENT, SPRING, GameState, Phase, Unit
from diplomacy_desktop.engine.turns import adjudicate_phase, update_ownership
from diplomacy_desktop.engine.validation import check_order, retreat_destinations


def position(units: list[tuple[str, str, str]], relations: dict[tuple[str, str], str] | None = None, *,
             owners: dict[str, str] | None = None, phase: Phase | None = None) -> GameState:
    rel = Relations.from_mapping(relations) if relations is not None else None
    return GameState.build(BOARD, phase or Phase(1901, SPRING, MOVEMENT), [Unit(*u) for u in units],
                           HOME if owners is None else owners, relations=rel)


def result_of(results: tuple[OrderResult, ...], order: Order) -> OrderResult:
    return next(r for r in results if r.order == order)


# -- the relations value and declarations -----------------------------------------------------------


def test_relations_default_neutral_either_order_and_immutable() -> None:
    rel = Relations.from_mapping({("germany", "france"): "War", ("england", "france"): "alliance"})
    assert rel.between("france", "germany") == rel.between("germany", "france") == WAR
    assert rel.allied("france", "england") and rel.allies_of("france") == frozenset({"england"})
    assert rel.neutral("italy", "turkey") and rel.between("italy", "turkey") == NEUTRAL
    assert rel.with_relation("france", "germany", "neutral") == Relations.from_mapping(
        {("england", "france"): ALLIANCE})
    assert rel.between("france", "germany") == WAR  # unchanged: a new value was returned
    assert NO_RELATIONS.pairs == () and hash(rel) == hash(Relations.from_mapping(rel.as_list()))
    with pytest.raises(ValueError, match="two relations"):
        Relations.from_mapping([("france", "germany", "war"), ("germany", "france", "alliance")])
    with pytest.raises(ValueError, match="itself"):
        Relations.from_mapping([("france", "france", "war")])
    with pytest.raises(ValueError, match="unknown relation"):
        Relations.from_mapping([("france", "germany", "friendly")])


# previous relation, France's declaration towards Germany, Germany's towards France -> new relation.
# Seed 003: alliance needs both; war is unilateral; ending a war needs both to declare neutrality or
# alliance; an alliance may be broken by one side; mismatched declarations give neutral.
DECLARATIONS = [
    (NEUTRAL, ALLIANCE, ALLIANCE, ALLIANCE),
    (NEUTRAL, ALLIANCE, NEUTRAL, NEUTRAL),
    (NEUTRAL, ALLIANCE, WAR, WAR),
    (NEUTRAL, NEUTRAL, ALLIANCE, NEUTRAL),
    (NEUTRAL, NEUTRAL, NEUTRAL, NEUTRAL),
    (NEUTRAL, NEUTRAL, WAR, WAR),
    (NEUTRAL, WAR, ALLIANCE, WAR),
    (NEUTRAL, WAR, NEUTRAL, WAR),
    (NEUTRAL, WAR, WAR, WAR),
    (ALLIANCE, ALLIANCE, ALLIANCE, ALLIANCE),
    (ALLIANCE, ALLIANCE, NEUTRAL, NEUTRAL),  # broken by one side
    (ALLIANCE, ALLIANCE, WAR, WAR),
    (ALLIANCE, NEUTRAL, ALLIANCE, NEUTRAL),
    (ALLIANCE, NEUTRAL, NEUTRAL, NEUTRAL),
    (ALLIANCE, NEUTRAL, WAR, WAR),
    (ALLIANCE, WAR, ALLIANCE, WAR),
    (ALLIANCE, WAR, NEUTRAL, WAR),
    (ALLIANCE, WAR, WAR, WAR),
    (WAR, ALLIANCE, ALLIANCE, ALLIANCE),  # peace by mutual consent, as allies
    (WAR, ALLIANCE, NEUTRAL, NEUTRAL),  # mismatched: the default
    (WAR, ALLIANCE, WAR, WAR),
    (WAR, NEUTRAL, ALLIANCE, NEUTRAL),
    (WAR, NEUTRAL, NEUTRAL, NEUTRAL),
    (WAR, NEUTRAL, WAR, WAR),  # one side alone cannot end a war
    (WAR, WAR, ALLIANCE, WAR),
    (WAR, WAR, NEUTRAL, WAR),
    (WAR, WAR, WAR, WAR),
    # a side that declares nothing keeps its standing
    (WAR, NEUTRAL, None, WAR),
    (WAR, None, None, WAR),
    (ALLIANCE, None, None, ALLIANCE),
    (ALLIANCE, NEUTRAL, None, NEUTRAL),
    (ALLIANCE, None, WAR, WAR),
    (NEUTRAL, ALLIANCE, None, NEUTRAL),
    (NEUTRAL, None, WAR, WAR),
]


@pytest.mark.parametrize(("before", "france", "germany", "after"), DECLARATIONS)
def test_declare_each_combination_of_declarations_and_previous_state(before: str, france: str | None,
                                                                     germany: str | None, after: str) -> None:
    previous = Relations.from_mapping({("france", "germany"): before})
    said: dict[str, dict[str, str]] = {"france": {}, "germany": {}}
    if france is not None:
        said["france"]["germany"] = france
    if germany is not None:
        said["germany"]["france"] = germany
    assert declare(previous, said).between("france", "germany") == after
    # the same with the sides swapped
    swapped = {"france": said["germany"] and {"germany": said["germany"]["france"]},
               "germany": said["france"] and {"france": said["france"]["germany"]}}
    assert declare(previous, swapped).between("france", "germany") == after


def test_declare_covers_every_full_combination() -> None:
    full = {(b, f, g) for b, f, g, _ in DECLARATIONS if f and g}
    assert full == set(itertools.product((ALLIANCE, NEUTRAL, WAR), repeat=3))


def test_declare_leaves_other_pairs_alone_and_game_applies_it() -> None:
    previous = Relations.from_mapping({("england", "france"): ALLIANCE, ("italy", "austria"): WAR})
    after = declare(previous, {"france": {"germany": "war"}})
    assert after.between("england", "france") == ALLIANCE and after.at_war("austria", "italy")
    assert after.at_war("france", "germany")
    game = Game.new(BOARD, formal=True)
    assert game.formal and game.state.relations == NO_RELATIONS
    game.declare({"england": {"france": "alliance"}, "france": {"england": "alliance", "germany": "war"}})
    assert game.state.relations is not None and game.state.relations.allied("england", "france")
    assert game.state.relations.at_war("germany", "france")
    with pytest.raises(IllegalOrderError, match="Formal Diplomacy"):
        Game.new(BOARD).declare({"france": {"germany": "war"}})
    with pytest.raises(IllegalOrderError, match="no power"):
        game.declare({"france": {"atlantis": "war"}})


# -- territory and the home provinces --------------------------------------------------------------


def test_home_provinces_are_the_seeds_lists() -> None:
    assert home_provinces(BOARD, "england") == ["cly", "wal", "yor"]
    assert home_provinces(BOARD, "germany") == ["pru", "ruh", "sil"]
    assert home_provinces(BOARD, "turkey") == ["arm", "syr"]
    assert home_provinces(BOARD, "russia") == ["fin", "lvn", "ukr"]
    start = position([], {})
    assert all(home_province_owner(start, p) == power for power in BOARD.power_ids
               for p in home_provinces(BOARD, power))


def test_home_province_owner_the_seeds_russia_berlin_example() -> None:
    # "Russia occupies Berlin. Prussia is now considered part of Russia while Silesia is considered
    # part of Germany as long as Germany owns Munich."
    occupied = position([("russia", "A", "ber")], {})  # Spring: Germany still owns Berlin, Russia stands there
    assert home_province_owner(occupied, "pru") == "russia"
    assert home_province_owner(occupied, "sil") == "germany"
    assert home_province_owner(occupied, "ruh") == "germany"
    lost_munich = position([("russia", "A", "ber")], {}, owners={**HOME, "mun": "russia"})
    assert home_province_owner(lost_munich, "sil") == "russia"  # 0 held against 2
    assert home_province_owner(lost_munich, "ruh") == "germany"  # Kiel held against Munich lost
    split = position([("russia", "A", "ber"), ("austria", "A", "mun")], {})
    assert home_province_owner(split, "sil") is None  # Russia and Austria hold one each: nobody's


def test_territory_albania_north_africa_and_seas_are_nobodys() -> None:
    land = territory(position([("austria", "A", "alb")], {}))
    assert "alb" not in land and "naf" not in land and "nth" not in land and "bel" not in land
    assert land["par"] == "france" and land["bur"] == "france" and land["pru"] == "germany"


# -- restrictions: the order checks and the options ------------------------------------------------


def test_forbidden_orders_are_refused_with_the_relation_and_the_rule() -> None:
    s = position([("france", "A", "bur"), ("germany", "A", "ruh"), ("england", "F", "nth"), ("france", "A", "bel")],
                 {("england", "germany"): WAR})
    with pytest.raises(IllegalOrderError, match="neutral") as exc:
        check_order(s, Move("france", "A", "bur", "mun"))
    assert exc.value.rule == RULE_NEUTRAL and getattr(exc.value, "code", "") == "formal_neutral"
    with pytest.raises(IllegalOrderError, match="at war") as exc:
        check_order(s, SupportMove("england", "F", "nth", "A", "ruh", "hol"))
    assert exc.value.rule == RULE_WAR and getattr(exc.value, "code", "") == "formal_war"
    with pytest.raises(IllegalOrderError, match="convoy a neutral"):
        check_order(s, Convoy("england", "F", "nth", "A", "bel", "nwy"))
    # what the relations allow
    assert check_order(s, Move("france", "A", "bur", "bel")) is not None  # hoping the neutral... it is French
    assert check_order(s, SupportHold("france", "A", "bur", "A", "bel")) is not None
    assert check_order(s, Move("england", "F", "nth", "hol")) is not None  # un-owned centre


def test_options_offer_nothing_the_relations_forbid() -> None:
    units = [("france", "A", "bur"), ("germany", "A", "ruh"), ("germany", "A", "bel"), ("england", "F", "nth")]
    neutral = position(units, {})
    offered = set(unit_options(neutral, "bur"))
    assert Move("france", "A", "bur", "mun") not in offered  # a neutral's centre
    assert Move("france", "A", "bur", "ruh") not in offered  # a neutral's home province
    assert Move("france", "A", "bur", "bel") in offered  # a neutral's unit, un-owned space: may hope it leaves
    assert not any(isinstance(o, SupportMove) and o.target == "ruh" for o in offered)
    assert not any(isinstance(o, SupportHold) for o in offered)  # every neighbour is German
    at_war = set(unit_options(position(units, {("france", "germany"): WAR}), "bur"))
    assert Move("france", "A", "bur", "mun") in at_war and Move("france", "A", "bur", "ruh") in at_war
    assert not any(isinstance(o, (SupportMove, SupportHold)) and o.target in ("ruh", "bel") for o in at_war)
    allied = set(unit_options(position(units, {("france", "germany"): ALLIANCE}), "bur"))
    assert SupportMove("france", "A", "bur", "A", "ruh", "mun") in allied
    assert SupportHold("france", "A", "bur", "A", "bel") in allied
    for state in (neutral, position(units, {("france", "germany"): WAR})):
        for orders in power_options(state, "france").values():
            for o in orders:
                check_order(state, o)  # every option passes the checks


def test_standard_options_and_checks_are_untouched_without_relations() -> None:
    units = [("france", "A", "bur"), ("germany", "A", "ruh"), ("germany", "A", "bel")]
    plain = position(units)
    assert plain.relations is None
    assert Move("france", "A", "bur", "mun") in unit_options(plain, "bur")
    assert check_order(plain, SupportMove("france", "A", "bur", "A", "ruh", "mun")) is not None


# -- restrictions in adjudication --------------------------------------------------------------------


def test_typed_forbidden_order_is_kept_and_fails_naming_the_relation() -> None:
    s = position([("france", "A", "bur"), ("germany", "A", "ruh"), ("england", "F", "nth")], {})
    support = SupportMove("france", "A", "bur", "A", "ruh", "bel")
    out = adjudicate_movement(s, [support, Move("germany", "A", "ruh", "bel"), Move("england", "F", "nth", "bel")])
    r = result_of(out.results, support)
    assert r.outcome is Outcome.ILLEGAL and r.code == "formal_neutral" and r.rule == RULE_NEUTRAL
    assert "neutral" in r.reason and "holds" in r.reason
    assert set(out.state.units) == {"bur", "ruh", "nth"}  # the support did not count: a bounce


def test_ally_support_does_not_count_against_its_ally() -> None:
    # Italy is allied with both France and Germany; France, at war with Germany, attacks Munich
    # with Italy's support: Italy cannot help dislodge its ally.
    units = [("france", "A", "bur"), ("italy", "A", "tyr"), ("germany", "A", "mun")]
    rel = {("france", "germany"): WAR, ("france", "italy"): ALLIANCE, ("germany", "italy"): ALLIANCE}
    attack, support = Move("france", "A", "bur", "mun"), SupportMove("italy", "A", "tyr", "A", "bur", "mun")
    out = adjudicate_movement(position(units, rel), [attack, support])
    r = result_of(out.results, attack)
    assert not r.succeeded and r.rule == RULE_ALLIED and r.not_counted == (("tyr", "allied_unit"),)
    assert "mun" in out.state.units and out.state.units["mun"].power == "germany"
    # when Italy is only neutral towards Germany, its support counts
    rel[("germany", "italy")] = NEUTRAL
    out = adjudicate_movement(position(units, rel), [attack, support])
    assert result_of(out.results, attack).succeeded and out.state.dislodged[0].unit.power == "germany"


def test_allied_move_into_a_space_the_ally_leaves_succeeds() -> None:
    s = position([("france", "A", "bur"), ("germany", "A", "bel")], {("france", "germany"): ALLIANCE})
    out = adjudicate_movement(s, [Move("france", "A", "bur", "bel"), Move("germany", "A", "bel", "hol")])
    assert out.state.units["bel"].power == "france" and out.state.units["hol"].power == "germany"


def test_neutral_swap_is_void_both_ways() -> None:
    s = position([("france", "A", "bur"), ("germany", "A", "bel")], {})
    a, b = Move("france", "A", "bur", "bel"), Move("germany", "A", "bel", "bur")
    assert check_order(s, a) == a
    with pytest.raises(IllegalOrderError):
        check_order(s, b)  # Burgundy is France's home province
    out = adjudicate_movement(s, [a, b])
    assert result_of(out.results, a).code == "formal_neutral"
    assert result_of(out.results, a).outcome is Outcome.VOID
    assert set(out.state.units) == {"bur", "bel"}


# -- interning and centres -------------------------------------------------------------------------


def test_interned_unit_is_reported_and_removed_before_retreats() -> None:
    s = position([("france", "A", "mun"), ("germany", "A", "ber")], {})
    out = adjudicate_phase(s, [Hold("france", "A", "mun")])
    assert [u.location for u in out.interned] == ["mun"]
    assert "mun" not in out.after.units and "mun" not in out.next_state.units
    r = next(r for r in out.results if r.code == "interned")
    assert r.rule == RULE_INTERNED and "interned by Germany" in r.reason
    # at war, or allied, the same unit stays
    for relation in (WAR, ALLIANCE):
        kept = adjudicate_phase(position([("france", "A", "mun")], {("france", "germany"): relation}), [])
        assert kept.interned == () and "mun" in kept.after.units


def test_unit_that_dislodged_an_enemy_in_a_neutral_home_area_is_not_interned() -> None:
    s = position([("france", "A", "mar"), ("france", "F", "lyo"), ("germany", "A", "pie")],
                 {("france", "germany"): WAR})
    out = adjudicate_movement(s, [Move("france", "A", "mar", "pie"), SupportMove("france", "F", "lyo", "A", "mar", "pie")])
    assert out.interned == () and out.state.units["pie"].power == "france"
    # but it is interned if it is still there at the end of the next movement phase
    later = adjudicate_movement(out.state.evolve(phase=Phase(1901, FALL, MOVEMENT), dislodged=()), [])
    assert [u.province for u in later.interned] == ["pie"]


def test_centres_not_taken_from_an_ally_or_a_neutral() -> None:
    fall = Phase(1901, FALL, MOVEMENT)
    for relation, owner in ((ALLIANCE, "germany"), (NEUTRAL, "germany"), (WAR, "france")):
        s = position([("france", "A", "mun")], {("france", "germany"): relation}, phase=fall)
        assert update_ownership(s).owners["mun"] == owner
    neutral_bel = position([("france", "A", "bel")], {}, phase=fall)
    assert update_ownership(neutral_bel).owners["bel"] == "france"  # an un-owned centre is taken
    assert update_ownership(position([("france", "A", "mun")], phase=fall)).owners["mun"] == "france"


def test_retreat_not_into_a_neutral_territory() -> None:
    s = position([("germany", "A", "bur"), ("france", "A", "par"), ("france", "A", "gas"), ("germany", "A", "mun")],
                 {("france", "germany"): WAR, ("germany", "italy"): NEUTRAL})
    out = adjudicate_movement(s, [Move("france", "A", "par", "bur"), SupportMove("france", "A", "gas", "A", "par", "bur")])
    retreat = out.state
    assert [d.unit.province for d in retreat.dislodged] == ["bur"]
    # Burgundy's neighbours: Belgium (un-owned), Marseilles, Picardy (French: at war, open), Ruhr, Munich
    # (German), not Paris (the attacker came from there)
    dests = retreat_destinations(retreat, "bur")
    assert "bel" in dests and "ruh" in dests and "mar" in dests and "par" not in dests
    neutral = retreat.evolve(relations=Relations.from_mapping({("germany", "italy"): WAR}))
    assert "mar" not in retreat_destinations(neutral, "bur")  # France now neutral: its centre is closed


def test_explanations_name_the_relationship_and_the_seeds_rule() -> None:
    from diplomacy_desktop.engine.explain import RULES, explain

    s = position([("france", "A", "bur"), ("germany", "A", "bel"), ("germany", "A", "hol"), ("england", "F", "nth"),
                  ("england", "F", "hel"), ("france", "A", "mun")],
                 {("france", "germany"): ALLIANCE, ("england", "germany"): WAR})
    orders = [Move("france", "A", "bur", "bel"), SupportHold("germany", "A", "bel", "A", "hol"),
              Move("england", "F", "nth", "hol"), SupportMove("england", "F", "hel", "F", "nth", "hol")]
    out = adjudicate_movement(s, orders)
    by_order = {r.order: r for r in out.results}
    support = by_order[orders[1]]
    assert support.succeeded and support.rule == RULE_ALLIED
    text = explain(support, s, out.results).text("A Bel S A Hol")
    assert "an ally does not cut support" in text and "Formal Diplomacy: allied powers —" in text
    move = explain(by_order[orders[0]], s, out.results).text()
    assert "allies never dislodge each other" in move and "IX.2" not in move
    assert out.interned == ()  # France is Germany's ally: its army in Munich stays
    for rule in (RULE_ALLIED, RULE_NEUTRAL, RULE_WAR, RULE_INTERNED):
        assert RULES[rule][0] == rule and RULES[rule][1]
    neutral = s.evolve(relations=Relations.from_mapping({("england", "germany"): WAR}))
    out = adjudicate_movement(neutral, [Hold("france", "A", "mun")])
    interned = next(r for r in out.results if r.code == "interned")
    assert "interned by Germany" in explain(interned, neutral, out.results).text()


def test_game_formal_year_with_declarations_a_refused_order_and_an_interning() -> None:
    game = Game.new(BOARD, formal=True)
    forbidden = Move("france", "A", "mar", "pie")  # Piedmont: Italy's home country, Italy neutral
    with pytest.raises(IllegalOrderError, match="neutral"):
        game.set_order(forbidden)
    game.set_order(forbidden, allow_illegal=True)  # typed anyway: kept
    game.set_order(Move("italy", "A", "ven", "pie"))
    entry = game.adjudicate()
    r = result_of(entry.results, forbidden)
    assert r.code == "formal_neutral" and r.rule == RULE_NEUTRAL and "mar" in game.state.units
    # Fall: Italy and France ally, France walks into Piedmont (Italian territory, allowed) ...
    game.declare({"france": {"italy": "alliance"}, "italy": {"france": "alliance"}})
    game.set_order(Move("italy", "A", "pie", "tus"))
    game.set_order(Move("france", "A", "mar", "pie"))
    game.adjudicate()
    assert game.state.units["pie"].power == "france"
    # ... the alliance is broken by Italy alone: the French army is interned at the next movement phase
    while game.state.phase.kind != MOVEMENT:
        game.adjudicate()
    game.declare({"italy": {"france": "neutral"}})
    assert game.state.relations is not None and game.state.relations.neutral("france", "italy")
    entry = game.adjudicate()
    assert [u.province for u in entry.interned] == ["pie"] and "pie" not in game.state.units
