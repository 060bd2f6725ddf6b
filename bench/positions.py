"""Benchmark positions: mid-game positions reached by random play, with coherent orders.

Everything here is seeded, so a run of the benchmark always measures the same positions.
The orders are the kind players give: most units move, some support a move or a hold that
was really ordered, fleets at sea convoy armies across their water, and bounces happen
wherever two moves meet.  Every order comes from ``engine.options``, so all are legal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from diplomacy_desktop.engine.board import ARMY, FLEET, Board
from diplomacy_desktop.engine.options import build_options, unit_options
from diplomacy_desktop.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
)
from diplomacy_desktop.engine.rules import CLASSIC
from diplomacy_desktop.engine.state import MOVEMENT, RETREAT, SPRING, GameState, Phase, Unit
from diplomacy_desktop.engine.turns import adjudicate_phase
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.io.scenario import OrderLine, Scenario, write_scenarios

FULL_BOARD = 34


@dataclass(frozen=True, slots=True)
class BenchCase:
    """One movement phase to adjudicate: the position and every unit's order."""

    name: str
    state: GameState
    orders: tuple[Order, ...]


# -- orders ---------------------------------------------------------------------------------


def movement_orders(state: GameState, rng: random.Random) -> list[Order]:
    """One coherent order per unit: moves, matching supports, a few convoys, some holds."""
    options = {prov: unit_options(state, prov) for prov in state.units}
    chosen: dict[str, Order] = {}
    # convoys first: a fleet at sea carries an army that touches the same water
    for prov, opts in options.items():
        convoys = [o for o in opts if isinstance(o, Convoy) and _one_fleet_convoy(state.board, o)
                   and o.target_province not in chosen and o.target_province not in state.board.army_moves[o.destination]]
        if convoys and rng.random() < 0.35:
            c = rng.choice(convoys)
            army = state.units[c.target_province]
            chosen[prov] = c
            chosen[c.target_province] = Move(army.power, ARMY, army.location, c.destination, via_convoy=True)
    # then moves and holds
    for prov, opts in options.items():
        if prov in chosen:
            continue
        moves = [o for o in opts if isinstance(o, Move) and not o.via_convoy]
        if moves and rng.random() < 0.75:
            chosen[prov] = rng.choice(moves)
        else:
            chosen[prov] = opts[0]  # the hold
    # finally some units give up their own move to support another's real order
    for prov in rng.sample(sorted(options), len(options)):
        if isinstance(chosen[prov], Convoy) or rng.random() < 0.55:
            continue
        supports = [o for o in options[prov] if _matches(o, chosen) and not _supported_by(o, chosen, prov)]
        if supports:
            chosen[prov] = rng.choice(supports)
    return [chosen[p] for p in sorted(chosen)]


def _one_fleet_convoy(board: Board, order: Convoy) -> bool:
    nb = board.province_neighbours
    sea = order.province
    return sea in nb[order.target_province] and sea in nb[order.destination_province]


def _matches(option: Order, chosen: dict[str, Order]) -> bool:
    """Whether a support option backs the order its target was really given."""
    if isinstance(option, SupportHold):
        target = chosen.get(option.target_province)
        return target is not None and not isinstance(target, Move)
    if isinstance(option, SupportMove):
        target = chosen.get(option.target_province)
        return isinstance(target, Move) and target.target_province == option.destination_province
    return False


def _supported_by(option: Order, chosen: dict[str, Order], prov: str) -> bool:
    """Whether the supported unit is itself supporting ``prov`` (no pairs propping each other)."""
    target = chosen.get(option.target_province)  # type: ignore[attr-defined]
    return isinstance(target, (SupportHold, SupportMove)) and target.target_province == prov


def retreat_orders(state: GameState, rng: random.Random) -> list[Order]:
    out: list[Order] = []
    for d in state.dislodged:
        opts = unit_options(state, d.province)
        retreats = [o for o in opts if isinstance(o, Retreat)]
        out.append(rng.choice(retreats) if retreats else Disband(d.unit.power, d.unit.kind, d.unit.location))
    return out


def adjustment_orders(state: GameState, rng: random.Random) -> list[Order]:
    """Every build owed, on distinct sites (removals are left to the civil-disorder rule)."""
    out: list[Order] = []
    for power in state.board.power_ids:
        delta = state.adjustment_delta(power)
        builds = [o for o in build_options(state, power) if isinstance(o, Build)]
        rng.shuffle(builds)
        used: set[str] = set()
        for b in builds:
            if len(used) >= delta:
                break
            if b.province not in used:
                used.add(b.province)
                out.append(b)
    return out


# -- random games ---------------------------------------------------------------------------


def random_game(board: Board, rng: random.Random, last_year: int) -> Iterator[tuple[GameState, list[Order]]]:
    """Every movement phase of a game of random coherent orders, with the orders played."""
    state = GameState.initial(board)
    while state.phase.year <= last_year:
        kind = state.phase.kind
        if kind == MOVEMENT:
            orders = movement_orders(state, rng)
            yield state, orders
        elif kind == RETREAT:
            orders = retreat_orders(state, rng)
        else:
            orders = adjustment_orders(state, rng)
        state = adjudicate_phase(state, orders, CLASSIC).next_state


def mid_game_cases(board: Board, count: int, seed: int = 1) -> list[BenchCase]:
    """``count`` movement phases from 1903 on, taken from as many random games as needed."""
    rng = random.Random(seed)
    out: list[BenchCase] = []
    game = 0
    while len(out) < count:
        game += 1
        for state, orders in random_game(board, rng, last_year=1912):
            if state.phase.year >= 1903:
                out.append(BenchCase(f"game{game}-{state.phase.short}", state, tuple(orders)))
                if len(out) == count:
                    break
    return out


def full_board_cases(board: Board, count: int, seed: int = 7) -> list[BenchCase]:
    """``count`` spring movement phases with all 34 units on the board, each unit ordered.

    Random games rarely keep every centre filled, so a mid-game position is topped up: each
    power short of units gets them on its empty owned centres, then next to its own units.
    """
    rng = random.Random(seed)
    out: list[BenchCase] = []
    game = 0
    while len(out) < count:
        game += 1
        for state, _ in random_game(board, rng, last_year=1908):
            if state.phase.year < 1905 or state.phase.season != SPRING:
                continue
            full = _top_up(state, rng)
            if full is None:
                continue
            out.append(BenchCase(f"full{len(out) + 1}-game{game}-{state.phase.short}", full,
                                 tuple(movement_orders(full, rng))))
            break
    return out


def _top_up(state: GameState, rng: random.Random) -> GameState | None:
    board = state.board
    units = dict(state.units)
    owners = dict(state.owners)
    for c in sorted(board.centres - set(owners)):  # a neutral centre nobody took goes to its neighbour
        near = [units[p].power for p in sorted(board.province_neighbours[c]) if p in units]
        if not near:
            return None
        owners[c] = rng.choice(near)
    for power in board.power_ids:
        mine = sorted(c for c, p in owners.items() if p == power)
        have = sum(1 for u in units.values() if u.power == power)
        free = [c for c in mine if c not in units]
        free += sorted({p for u in list(units.values()) if u.power == power
                        for p in board.province_neighbours[u.province]} - set(free))
        for prov in free:
            if have >= len(mine):
                break
            if prov in units or board.spaces[prov].kind == "impassable":
                continue
            unit = _unit_for(board, power, prov, rng)
            if unit is not None:
                units[prov] = unit
                have += 1
    if len(units) != FULL_BOARD:
        return None
    return GameState.build(board, Phase(state.phase.year, SPRING, MOVEMENT), units.values(), owners)


def _unit_for(board: Board, power: str, prov: str, rng: random.Random) -> Unit | None:
    space = board.spaces[prov]
    if space.kind == "sea":
        return Unit(power, FLEET, prov)
    if space.kind == "land" or rng.random() < 0.6:
        return Unit(power, ARMY, prov)
    coasts = board.fleet_locations(prov)
    return Unit(power, FLEET, rng.choice(coasts)) if coasts else Unit(power, ARMY, prov)


# -- files and the other engine's notation --------------------------------------------------


def as_scenarios(cases: list[BenchCase], board: Board) -> str:
    """The cases in the DATC case format (what ``adjudicate`` reads)."""
    scenarios = []
    for case in cases:
        sc = Scenario(name=case.name, line=0, phase=case.state.phase, owners=dict(case.state.owners),
                      units=list(case.state.units.values()))
        sc.orders = [OrderLine(o.power, format_order(o, board), 0) for o in case.orders]
        scenarios.append(sc)
    return write_scenarios(scenarios, board)


def diplomacy_order(order: Order) -> str:
    """An order in the notation of the ``diplomacy`` package: ``A PAR - BUR``, ``A LON - BEL VIA``."""
    def unit(kind: str | None, loc: str) -> str:
        return f"{kind} {loc.upper()}"

    match order:
        case Move():
            text = f"{unit(order.unit_kind, order.location)} - {order.destination.upper()}"
            return text + " VIA" if order.via_convoy else text
        case SupportHold():
            return f"{unit(order.unit_kind, order.location)} S {unit(order.target_kind, order.target)}"
        case SupportMove():
            return (f"{unit(order.unit_kind, order.location)} S {unit(order.target_kind, order.target)}"
                    f" - {order.destination.upper()}")
        case Convoy():
            return (f"{unit(order.unit_kind, order.location)} C {unit(order.target_kind, order.target)}"
                    f" - {order.destination.upper()}")
        case Hold():
            return f"{unit(order.unit_kind, order.location)} H"
    raise ValueError(f"not a movement order: {order}")
