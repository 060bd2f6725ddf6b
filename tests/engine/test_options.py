"""Legal options: what the click interface offers, always in agreement with validation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_positions import BOARD, HOME, START, position

from diplomacy_desktop.engine.board import IMPASSABLE
from diplomacy_desktop.engine.options import (
    all_options,
    build_options,
    orders_needed,
    power_options,
    unit_options,
)
from diplomacy_desktop.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from diplomacy_desktop.engine.state import (
    ADJUSTMENT,
    FALL,
    RETREAT,
    SPRING,
    DislodgedUnit,
    GameState,
    Phase,
    Unit,
)
from diplomacy_desktop.engine.validation import check_order


def check_all_legal(state: GameState) -> int:
    """Every option passes validation, unchanged; no option twice.  Returns how many there are."""
    n = 0
    for power, per_unit in all_options(state).items():
        for key, options in per_unit.items():
            assert len(options) == len(set(options)), f"{power} {key}: an option twice"
            for option in options:
                assert option.power == power
                assert check_order(state, option) == option, option
                n += 1
    return n


# -- every option is legal -----------------------------------------------------------------------


def test_options_of_the_start_position_are_all_legal() -> None:
    assert check_all_legal(START) == 238


def test_options_of_retreat_and_adjustment_phases_are_all_legal() -> None:
    retreat = position("russia A bul", "russia A ser", phase=Phase(1901, SPRING, RETREAT),
                       dislodged=(DislodgedUnit(Unit("turkey", "A", "bul"), "rum"),))
    assert check_all_legal(retreat) == 3  # disband, Con, Gre
    adjustment = position("france A pic", "france A bur", "france A par", "france A mar", "russia A mos",
                          phase=Phase(1901, FALL, ADJUSTMENT), owners={**HOME, "pic": "england"})
    assert check_all_legal(adjustment) > 0


@settings(max_examples=30, deadline=None)
@given(rnd=st.randoms(use_true_random=False))
def test_options_of_random_positions_are_all_legal(rnd: random.Random) -> None:
    places = [(p, k, loc) for p, s in BOARD.spaces.items() if s.kind != IMPASSABLE
              for k, loc in ([("A", p)] if BOARD.unit_can_stand("A", p) else [])
              + [("F", loc) for loc in BOARD.fleet_locations(p)]]
    chosen: dict[str, tuple[str, str]] = {}
    for p, k, loc in rnd.sample(places, 40):
        chosen.setdefault(p, (k, loc))
    state = position(*(f"{rnd.choice(BOARD.power_ids)} {k} {loc}" for k, loc in chosen.values()))
    assert check_all_legal(state) >= len(state.units)


# -- nothing legal is missing ----------------------------------------------------------------------


def _legal_by_brute_force(state: GameState) -> set[Order]:
    """Every order validation accepts unchanged, found by trying every unit, place and target."""
    locations = list(BOARD.locations())
    provinces = sorted(BOARD.spaces)
    candidates: list[Order] = []
    for u in state.units.values():
        p, k, loc = u.power, u.kind, u.location
        candidates.append(Hold(p, k, loc))
        candidates += [Move(p, k, loc, d) for d in locations] + [Move(p, k, loc, d, True) for d in provinces]
        candidates.append(Remove(p, k, loc))
        for t in state.units.values():
            candidates.append(SupportHold(p, k, loc, t.kind, t.location))
            for d in provinces:
                candidates += [SupportMove(p, k, loc, t.kind, t.location, d), Convoy(p, k, loc, t.kind, t.location, d)]
    for gone in state.dislodged:
        u = gone.unit
        candidates.append(Disband(u.power, u.kind, u.location))
        candidates += [Retreat(u.power, u.kind, u.location, dest) for dest in locations]
    for power in BOARD.power_ids:
        candidates.append(Waive(power))
        candidates += [Build(power, kind, loc) for loc in locations for kind in ("A", "F")]
    legal = set()
    for c in candidates:
        try:
            if check_order(state, c) == c:
                legal.add(c)
        except ValueError:
            pass
    # an army ordered to a space it does not border goes by convoy whether or not the order says
    # so; the options spell such moves "via convoy" only
    return {Move(o.power, o.unit_kind, o.location, o.destination, True)
            if isinstance(o, Move) and o.unit_kind == "A" and not o.via_convoy
            and o.target_province not in BOARD.army_moves[o.province] else o for o in legal}


def _offered(state: GameState) -> set[Order]:
    return {o for per_unit in all_options(state).values() for options in per_unit.values() for o in options}


@pytest.mark.parametrize("name", ["start", "convoys", "retreat", "adjustment"])
def test_options_are_exactly_the_legal_orders(name: str) -> None:
    state = {
        "start": START,
        "convoys": position("england A lon", "england F eng", "england F mao", "france F wes", "france A spa",
                            "italy F tys", "italy A nap", "germany F nth", "germany A yor", "russia A nwy",
                            "russia F nwg"),
        "retreat": position("russia A bul", "russia A ser", "austria F gre", phase=Phase(1901, FALL, RETREAT),
                            dislodged=(DislodgedUnit(Unit("turkey", "A", "bul"), "rum"),
                                       DislodgedUnit(Unit("italy", "F", "gre"), "ion"))),
        "adjustment": position("france A pic", "france A bur", "france A par", "france A mar", "russia A mos",
                               phase=Phase(1901, FALL, ADJUSTMENT), owners={**HOME, "pic": "england"}),
    }[name]
    assert _offered(state) == _legal_by_brute_force(state)


# -- the start position ---------------------------------------------------------------------------


@pytest.mark.parametrize(("province", "count"), [("lon", 10), ("par", 11), ("kie", 8), ("stp", 6), ("tri", 6)])
def test_options_start_position_counts(province: str, count: int) -> None:
    assert len(unit_options(START, province)) == count


def test_options_start_position_fleet_in_kiel() -> None:
    assert unit_options(START, "kie") == [
        Hold("germany", "F", "kie"),
        Move("germany", "F", "kie", "bal"), Move("germany", "F", "kie", "ber"), Move("germany", "F", "kie", "den"),
        Move("germany", "F", "kie", "hel"), Move("germany", "F", "kie", "hol"),
        SupportHold("germany", "F", "kie", "A", "ber"),
        SupportMove("germany", "F", "kie", "A", "mun", "ber"),
    ]


def test_options_fleet_on_a_split_coast_moves_from_its_coast() -> None:
    moves = {o.destination for o in unit_options(START, "stp") if isinstance(o, Move)}
    assert moves == {"bot", "fin", "lvn"}  # from the south coast only, never Barents or Norway


def test_options_fleet_may_support_into_either_coast_but_moves_to_named_coasts() -> None:
    state = position("france F mao", "france F gas")
    options = unit_options(state, "mao")
    assert Move("france", "F", "mao", "spa/nc") in options and Move("france", "F", "mao", "spa/sc") in options
    assert Move("france", "F", "mao", "spa") not in options
    # the fleet in Gascony can reach only the north coast; Mid-Atlantic may support it there
    assert SupportMove("france", "F", "mao", "F", "gas", "spa") in options


def test_options_per_power_cover_every_unit_and_nothing_else() -> None:
    assert set(power_options(START, "russia")) == {"mos", "sev", "stp", "war"}
    assert all(o.power == "russia" for opts in power_options(START, "russia").values() for o in opts)
    assert orders_needed(START, "russia") == 4


# -- convoys --------------------------------------------------------------------------------------


def test_options_offer_a_convoy_when_an_army_stands_next_to_a_fleet_at_sea() -> None:
    state = position("england F nth", "england A yor")
    army = unit_options(state, "yor")
    fleet = unit_options(state, "nth")
    by_convoy = {o.destination for o in army if isinstance(o, Move) and o.via_convoy}
    assert by_convoy == {"bel", "den", "edi", "hol", "lon", "nwy"}
    convoys = {o.destination for o in fleet if isinstance(o, Convoy)}
    assert convoys == by_convoy
    assert Convoy("england", "F", "nth", "A", "yor", "nwy") in fleet


def test_options_convoys_disappear_when_the_fleet_is_gone() -> None:
    state = position("england A yor", "england F lon")
    army = unit_options(state, "yor")
    assert not any(isinstance(o, Move) and o.via_convoy for o in army)
    assert not any(isinstance(o, Convoy) for o in unit_options(state, "lon"))  # a coastal fleet never convoys
    assert {o.destination for o in army if isinstance(o, Move)} == {"edi", "lon", "lvp", "wal"}


def test_options_offer_convoys_through_a_chain_of_fleets() -> None:
    state = position("england A lon", "england F eng", "england F mao", "france F wes")
    army = {o.destination for o in unit_options(state, "lon") if isinstance(o, Move) and o.via_convoy}
    assert "tun" in army and "naf" in army
    # each fleet of the chain is offered the convoy, the French one too
    for sea, power in (("eng", "england"), ("mao", "england"), ("wes", "france")):
        assert Convoy(power, "F", sea, "A", "lon", "tun") in unit_options(state, sea)


# -- retreats and adjustments -----------------------------------------------------------------------


def test_options_retreat_phase_offers_disband_and_open_spaces() -> None:
    state = position("russia A bul", "russia A ser", phase=Phase(1901, SPRING, RETREAT),
                     dislodged=(DislodgedUnit(Unit("turkey", "A", "bul"), "rum"),))
    assert power_options(state, "turkey") == {"bul": [
        Disband("turkey", "A", "bul"), Retreat("turkey", "A", "bul", "con"), Retreat("turkey", "A", "bul", "gre")]}
    assert power_options(state, "russia") == {}
    assert orders_needed(state, "turkey") == 1


def test_options_builds_only_in_free_owned_home_centres() -> None:
    # Russia: Moscow occupied, Warsaw owned by Germany; builds in Sevastopol and St Petersburg
    state = position("russia A mos", phase=Phase(1901, FALL, ADJUSTMENT), owners={**HOME, "war": "germany"})
    options = build_options(state, "russia")
    assert options == [
        Build("russia", "A", "sev"), Build("russia", "F", "sev"),
        Build("russia", "A", "stp"), Build("russia", "F", "stp/nc"), Build("russia", "F", "stp/sc"),
        Waive("russia"),
    ]
    for o in options:
        check_order(state, o)
    assert orders_needed(state, "russia") == 2  # three centres, one unit, two free home centres


def test_options_removals_offer_every_unit() -> None:
    state = position("france A pic", "france A bur", "france A par", "france A mar",
                     phase=Phase(1901, FALL, ADJUSTMENT), owners={**HOME, "pic": "england"})
    options = power_options(state, "france")
    assert options == {p: [Remove("france", "A", p)] for p in ("bur", "mar", "par", "pic")}
    assert orders_needed(state, "france") == 1  # Brest, Marseilles and Paris for four units
    assert build_options(state, "france") == []


def test_options_no_adjustments_no_options() -> None:
    state = position("italy A rom", "italy A ven", "italy F nap", phase=Phase(1901, FALL, ADJUSTMENT))
    assert power_options(state, "italy") == {}
    assert orders_needed(state, "italy") == 0

