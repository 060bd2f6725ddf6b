"""Formal Diplomacy over many random positions: invariants of seed 003 after every adjudication,
and the standard game's results where the relations change nothing (every pair at war)."""

from __future__ import annotations

import random
import sys

import pytest

from diplomacy_desktop.engine.board import ARMY, FLEET, IMPASSABLE
from diplomacy_desktop.engine.formal import ALLIANCE, NEUTRAL, WAR, Relations, territory
from diplomacy_desktop.engine.movement import adjudicate_movement
from diplomacy_desktop.engine.options import power_options
from diplomacy_desktop.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from diplomacy_desktop.engine.state import FALL, MOVEMENT, SPRING, GameState, Phase, Unit
from diplomacy_desktop.engine.validation import check_order
from diplomacy_desktop.io.boardfile import load_board

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

BOARD = load_board()
POWERS = BOARD.power_ids
PROVINCES = sorted(p for p, s in BOARD.spaces.items() if s.kind != IMPASSABLE)
PLACES = {p: ([(ARMY, p)] if BOARD.unit_can_stand(ARMY, p) else []) + [(FLEET, loc) for loc in BOARD.fleet_locations(p)]
          for p in PROVINCES}


def random_position(rnd: random.Random, relations: Relations | None) -> GameState:
    """A crowded region of 10 to 30 units of random powers, random centre owners."""
    count = rnd.randint(10, 30)
    provinces: list[str] = []
    frontier = [rnd.choice(PROVINCES)]
    while frontier and len(provinces) < count:
        p = frontier.pop(rnd.randrange(len(frontier)))
        if p not in provinces:
            provinces.append(p)
            frontier.extend(q for q in sorted(BOARD.province_neighbours[p]) if q in PLACES and q not in provinces)
    units = [Unit(rnd.choice(POWERS), *rnd.choice(PLACES[p])) for p in provinces]
    owners = {c: o for c in sorted(BOARD.centres) if (o := rnd.choice((None, *POWERS))) is not None}
    return GameState.build(BOARD, Phase(1901, rnd.choice((SPRING, FALL)), MOVEMENT), units, owners,
                           relations=relations)


def random_relations(rnd: random.Random) -> Relations:
    return Relations.from_mapping({(a, b): rnd.choice((ALLIANCE, NEUTRAL, NEUTRAL, WAR))
                                   for i, a in enumerate(POWERS) for b in POWERS[i + 1:]})


def random_orders(state: GameState, rnd: random.Random) -> list[Order]:
    """One legal option per unit (supports and convoys often of a move really ordered)."""
    options = {prov: opts for p in POWERS for prov, opts in power_options(state, p).items()}
    chosen: dict[str, Order] = {}
    for prov in sorted(options):
        moves = [o for o in options[prov] if isinstance(o, Move)]
        if moves and rnd.random() < 0.6:
            chosen[prov] = rnd.choice(moves)
    for prov in sorted(options):
        if prov in chosen:
            continue
        fitting = [o for o in options[prov] if isinstance(o, (SupportMove, Convoy))
                   and isinstance(chosen.get(o.target_province), Move)
                   and chosen[o.target_province].target_province == o.destination_province]  # type: ignore[union-attr]
        chosen[prov] = rnd.choice(fitting) if fitting and rnd.random() < 0.7 else rnd.choice(options[prov])
    return [chosen[p] for p in sorted(chosen)]


SEEDS = range(120)


@pytest.mark.parametrize("seed", SEEDS[::4])
def test_formal_options_all_pass_the_checks(seed: int) -> None:
    rnd = random.Random(seed)
    state = random_position(rnd, random_relations(rnd))
    for p in POWERS:
        for opts in power_options(state, p).values():
            for o in opts:
                assert check_order(state, o) is not None


@pytest.mark.parametrize("seed", SEEDS)
def test_formal_invariants_after_adjudication(seed: int) -> None:
    rnd = random.Random(seed)
    rel = random_relations(rnd)
    state = random_position(rnd, rel)
    orders = random_orders(state, rnd)
    out = adjudicate_movement(state, orders)
    # every order one result; the same outcome whatever the order of the orders
    assert {r.order for r in out.results if r.code not in ("interned",)} >= set(orders)
    shuffled = list(orders)
    rnd.shuffle(shuffled)
    again = adjudicate_movement(state, shuffled)
    assert again.state == out.state and again.interned == out.interned
    # only an enemy dislodges
    for d in out.state.dislodged:
        assert d.attacker_power is not None and rel.at_war(d.unit.power, d.attacker_power), d
    # nobody ends in a neutral's territory, unless it got there by dislodging an enemy
    land = territory(state)
    arrived_by_dislodging = {d.province for d in out.state.dislodged}
    for prov, u in out.state.units.items():
        owner = land.get(prov)
        if owner is not None and owner != u.power and rel.neutral(u.power, owner):
            assert prov in arrived_by_dislodging, (u, owner)
    # interned units left the board; supports counted only for own or allied units
    assert not any(u.province in out.state.units and out.state.units[u.province] == u for u in out.interned)
    for r in out.results:
        if isinstance(r.order, (SupportHold, SupportMove, Convoy)) and r.succeeded:
            target = state.units[r.order.target_province]
            assert target.power == r.order.power or rel.allied(target.power, r.order.power)


@pytest.mark.parametrize("seed", SEEDS)
def test_formal_all_at_war_is_the_standard_game(seed: int) -> None:
    """Every pair at war: no territory is closed, nothing is interned, centres change hands as
    usual, and with supports and convoys only for a power's own units the results are the
    standard game's."""
    rnd = random.Random(seed)
    war = Relations.from_mapping({(a, b): WAR for i, a in enumerate(POWERS) for b in POWERS[i + 1:]})
    plain = random_position(rnd, None)
    formal = plain.evolve(relations=war)
    orders = [o if not isinstance(o, (SupportHold, SupportMove, Convoy))
              or plain.units[o.target_province].power == o.power
              else Hold(o.power, plain.units[o.province].kind, plain.units[o.province].location)
              for o in random_orders(plain, rnd)]
    standard = adjudicate_movement(plain, orders)
    under_war = adjudicate_movement(formal, orders)
    assert under_war.interned == ()
    assert under_war.state.without_relations() == standard.state
    assert [(r.order, r.outcome, r.code) for r in under_war.results] == \
        [(r.order, r.outcome, r.code) for r in standard.results]
